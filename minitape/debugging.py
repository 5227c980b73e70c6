"""`tf.debugging`: finding where a NaN or an infinity first appears.

`check_numerics(t, message)` passes `t` through, failing (TF's `InvalidArgumentError`) if it
holds a NaN or an infinity; its gradient is checked the same way on the way back.
`enable_check_numerics()` checks the output of every op from then on: it listens to the ops
as they run, the way a `minitape.function` trace or a forward accumulator does (`apply` tells
`STATE.tracer`), so it costs nothing while it is off. `disable_check_numerics()` stops it.
"""

import numpy as np

from .context import STATE
from .errors import InvalidArgumentError
from .gen_ops import _op
from .op_args import _FLOATS, _refuse
from .tape import apply
from .tensor import convert_to_tensor, read

__all__ = ["check_numerics", "enable_check_numerics", "disable_check_numerics", "Assert"]


def _what_is_wrong(v):
    """TF's words for the first kind of bad value found: NaN, then -Inf, then +Inf."""
    if np.isnan(v).any():
        return "NaN"
    return "-Inf" if (v == -np.inf).any() else "+Inf"


def _check(x, message):
    if not np.isfinite(x).all():
        kind = _what_is_wrong(x)
        raise ValueError(f"{message} : Tensor had {'Inf' if 'Inf' in kind else kind} values")
    return x


CheckNumerics = _op("CheckNumerics", _check)  # (its VJP, in grads.py, checks the gradient)


def check_numerics(tensor, message, name=None):
    """`tensor` itself, or InvalidArgumentError if it holds a NaN or an infinity."""
    t = read(tensor)
    if isinstance(message, bytes):
        message = message.decode(errors="replace")
    elif not isinstance(message, str):  # (a string attribute of the op, checked first)
        raise TypeError(f"Expected string for argument 'message' not {message!r}.")
    if t._value.dtype.kind not in _FLOATS:
        _refuse("CheckNumerics", t, _FLOATS)
    return apply(CheckNumerics, t, message=message)


def Assert(condition, data, summarize=None, name=None):  # noqa: N802  (TF's name)
    """Nothing if `condition` is true; else TF's InvalidArgumentError, with the first
    `summarize` elements (3 by default; all for a negative number) of each tensor in `data`."""
    if condition:
        return None
    summaries = []
    for x in data:
        v = np.asarray(convert_to_tensor(x).numpy())
        count = 3 if summarize is None else v.size if summarize < 0 else summarize
        if v.ndim:
            flat = [str(e) for e in v.reshape(-1)[:count]]
            summaries.append(", ".join(flat + (["..."] if len(flat) < v.size else [])))
        else:
            summaries.append(str(v[()]) if count != 0 else "")
    raise InvalidArgumentError(
        None,
        None,
        f"Expected '{condition!s}' to be true. Summarized data: {chr(10).join(summaries)}",
    )


class _NumericsChecker:
    """Hears every op while check_numerics is enabled, and fails on the first floating output
    that holds a NaN or an infinity, with TF's report (op, dtype, shape, counts, inputs)."""

    def __init__(self, outer):
        self._outer = outer  # the listener that was active before (a trace, say)

    def record(self, op, inputs, out, attrs):
        if self._outer is not None:
            self._outer.record(op, inputs, out, attrs)
        v = out._value
        if v.dtype.kind == "f" and not np.isfinite(v).all():
            counts = "".join(
                f"  # of {k} elements: {n}\n"
                for k, n in (
                    ("NaN", np.isnan(v).sum()),
                    ("-Inf", (v == -np.inf).sum()),
                    ("+Inf", (v == np.inf).sum()),
                )
                if n
            )
            shown = "".join(f"  Input tensor: {x}\n" for x in inputs)
            raise InvalidArgumentError(
                None,
                "CheckNumericsV2",
                (
                    f"\n\n!!! Detected Infinity or NaN in output 0 of eagerly-executing op "
                    f"\"{op.name}\" (# of outputs: 1) !!!\n  dtype: <dtype: '{out.dtype.name}'>\n"
                    f"  shape: {tuple(v.shape)}\n{counts}\n{shown}\n : Tensor had "
                    f"{_what_is_wrong(v)} values [Op:CheckNumericsV2]"
                ),
            )

    def variable_read(self, var, read):
        if self._outer is not None:
            self._outer.variable_read(var, read)

    def variable_assigned(self, var, value, how):
        if self._outer is not None:
            self._outer.variable_assigned(var, value, how)

    def value_used(self, tensor):
        if self._outer is not None:
            self._outer.value_used(tensor)


def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """From now on (in this thread), fail at the first op whose output has a NaN or an Inf."""
    if not isinstance(STATE.tracer, _NumericsChecker):
        STATE.tracer = _NumericsChecker(STATE.tracer)


def disable_check_numerics():
    """Stop checking every op's output (nothing happens if checking was not enabled)."""
    if isinstance(STATE.tracer, _NumericsChecker):
        STATE.tracer = STATE.tracer._outer
