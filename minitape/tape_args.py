"""What `GradientTape`'s methods accept, and the error TF raises for anything else.

Kept apart from `tape.py`, which holds the mechanism (recording and the backward walk): each
function here returns its argument when it is fine and otherwise raises TF's error class,
in TF's words, with what was wrong added in parentheses.
"""

import numpy as np

from . import nest
from .dtypes import _ENUM, as_dtype
from .errors import InvalidArgumentError
from .tensor import Tensor, Variable, as_seen_by_tapes, convert_to_tensor, held_variable, operand

_NO_PFOR = {  # (TF's wording, double spaces included)
    method: f"GradientTape must be created with persistent=True to compute the {method} with "
    f"eager execution enabled and {gap}experimental_use_pfor set to False."
    for method, gap in (("jacobian", "with  "), ("batch_jacobian", " with "))
}


def type_name(x):
    """`float`, `numpy.float32`: the name TF's messages give a type."""
    kind = type(x)
    if kind.__module__ == "builtins" or kind.__module__.startswith("minitape."):
        return kind.__name__  # (minitape's classes are TF's: 'IndexedSlices')
    return f"{kind.__module__}.{kind.__name__}"


def _is_tensor(x):
    return isinstance(x, (Tensor, Variable))


_ENUM_VALUES = frozenset(_ENUM.values())


def _reads_as_dtype(x):
    """Whether TF, which reads a target or source that is not a tensor as a dtype first
    (asking whether it is trainable), gets a dtype from `x` -- and then fails on the missing
    `_id` (AttributeError) -- rather than TypeError: a numpy value (its `.dtype`), a dtype
    name, or a number equal to one of TF's DataType enum values (1.0 is float32)."""
    if hasattr(x, "dtype"):
        return True
    if isinstance(x, (int, float)):
        return x in _ENUM_VALUES
    if isinstance(x, str):
        try:
            as_dtype(x)
        except TypeError:
            return False
        return True
    return False


def _not_a_dtype(x, why):
    return TypeError(
        f"Cannot convert the argument `type_value`: {x!r} to a TensorFlow DType. ({why})"
    )


def tensor_args(xs, what):
    """`xs` (a list), after checking that each one is a tensor or a variable. As TF, which
    first reads the dtype of every one: anything that is no dtype (None, a Python string or
    most numbers) is a TypeError; then an object with a `.dtype` (a numpy value) or a number
    TF reads as a dtype fails on its missing `_id` (AttributeError, and so does minitape,
    saying what was wrong)."""
    strangers = [x for x in xs if not _is_tensor(x)]
    for x in strangers:
        if not _reads_as_dtype(x):
            raise _not_a_dtype(x, _must_be(what, x))
    for x in strangers:
        raise AttributeError(
            f"'{type_name(x)}' object has no attribute '_id' ({_must_be(what, x)})"
        )
    return xs


def _must_be(what, x):
    return (
        f"{what} must be a tf.Tensor or tf.Variable (or a nest of them), got {x!r} of type "
        f"{type_name(x)!r}"
    )


def gradient_args(target, sources, output_gradients):
    """`gradient()`'s arguments, converted and checked in one place: the flat targets (as
    tensors), the gradient each starts from (ones, or `output_gradients`) and the flat
    sources. Checked in TF's order: the dtype of every target, then of every source, then
    that each one is a tensor (TF's missing `_id`), then the output gradients."""
    targets, sources = nest.flatten(target), nest.flatten(sources)
    targets = [as_seen_by_tapes(t) for t in targets]  # (a Keras 3 variable: its tf.Variable)
    for t in targets:
        if not _is_tensor(t) and not _reads_as_dtype(t):
            raise _not_a_dtype(t, _not_a_target(t))
    for i, s in enumerate(sources):
        if not _is_tensor(s):
            if held_variable(s) is not None:  # a Keras 3 variable: its tf.Variable
                sources[i] = as_seen_by_tapes(s)
            elif not _reads_as_dtype(s):
                raise _not_a_dtype(s, _must_be("Each source", s))
    targets = [target_tensor(checked_target(t)) for t in targets]
    sources = tensor_args(sources, "Each source")
    if output_gradients is None:
        return targets, [ones_like(t) for t in targets], sources
    given = nest.flatten(output_gradients)
    if len(given) != len(targets):
        raise ValueError(
            f"output_gradients has {len(given)} entries but there are {len(targets)} targets."
        )
    return targets, [_seed(t, g) for t, g in zip(targets, given)], sources


def plain_gradient_call(target, sources, output_gradients):
    """Whether `gradient()` was called the common way, which needs no flattening and no
    checks: one tensor as the target; one tensor or variable, or a flat list of them, as the
    sources; no output gradients."""
    if type(target) is not Tensor or output_gradients is not None:
        return False
    if type(sources) is not list:
        return isinstance(sources, (Tensor, Variable))
    for s in sources:
        if not isinstance(s, (Tensor, Variable)):
            return False
    return True


def _not_a_target(t):
    return f"a gradient target must be a tensor computed inside the tape, not a {type_name(t)}"


def checked_target(t):
    """A target of `gradient()`: a tensor or variable. Anything else cannot have been
    computed on the tape (a numpy value, `np.mean(y.numpy())`): TF fails there with an
    AttributeError, and so does minitape, saying why."""
    if _is_tensor(t):
        return t
    if not _reads_as_dtype(t):
        raise _not_a_dtype(t, _not_a_target(t))
    raise AttributeError(f"'{type_name(t)}' object has no attribute '_id' ({_not_a_target(t)})")


def checked_jacobian_target(t, method):
    """The target of jacobian/batch_jacobian: one tensor (TF fails on anything else with an
    AttributeError, reading its shape; minitape says what was wrong)."""
    if _is_tensor(t):
        return t
    if method == "jacobian" and isinstance(t, (np.ndarray, np.generic)):
        return convert_to_tensor(t)  # (TF reshapes it into a tensor: one the tape never saw)
    raise TypeError(
        f"{method}'s target must be one tensor computed inside the tape, got {t!r} of type "
        f"{type_name(t)!r}"
    )


def checked_batch_source(source):
    """batch_jacobian's source: one tensor (TF reads its .shape first)."""
    if _is_tensor(source):
        return source
    raise AttributeError(
        f"'{type_name(source)}' object has no attribute 'shape' (batch_jacobian's "
        f"source must be one tensor, got {source!r})"
    )


def check_pfor(use_pfor, persistent, method):
    """Without pfor, TF computes a Jacobian with one gradient call per row: persistent only."""
    if not use_pfor and not persistent:
        raise RuntimeError(_NO_PFOR[method])


def check_parallel_iterations(n, method, rows, persistent):
    """`parallel_iterations` as TF's pfor takes it (eagerly, minitape makes one backward
    pass per row whatever it says): None, or an integer above 1; one below the number
    of rows needs a persistent tape (TF then computes the rows in chunks)."""
    if n is None:
        return
    if isinstance(n, (Tensor, Variable)):
        raise TypeError(
            f"{method}: parallel_iterations must be a Python integer, got a tensor "
            f"(TF's pfor cannot use a tensor as a Python bool)"
        )
    vectorizing = ValueError(
        f"Encountered an exception while vectorizing the {method} computation. "
        "Vectorization can be disabled by setting experimental_use_pfor to False."
    )
    try:
        too_small = n <= 1
    except TypeError:
        raise TypeError(
            f"'<' not supported between instances of '{type(n).__name__}' and 'int' "
            f"({method}'s parallel_iterations must be an integer)"
        ) from None
    if too_small:
        raise vectorizing from ValueError(
            "`parallel_iterations` must be None or a positive integer above 1"
        )
    if not isinstance(n, (int, np.integer)):
        raise TypeError(
            f"Expected int32 passed to parameter 'y' of op 'FloorDiv', got {n!r} of type "
            f"'{type(n).__name__}' instead ({method}'s parallel_iterations)"
        )
    if n < rows and not persistent:
        if method == "batch_jacobian":
            raise RuntimeError(
                f"GradientTape must be created with persistent=True to compute the "
                f"{method} with parallel_iterations."
            )
        raise vectorizing


def target_tensor(t):
    """A target as the tensor whose gradient is wanted (a variable: its value now)."""
    if type(t) is Tensor:
        return t
    if isinstance(t, Variable):
        return t._snap
    return convert_to_tensor(t)


def ones_like(target):
    """The starting gradient of a target: d target / d target = 1, element by element."""
    v = target._value
    if not v.shape:
        return Tensor(v.dtype.type(1))
    ones = np.empty(v.shape, v.dtype)
    ones.fill(1)  # (np.ones, minus its Python code)
    return Tensor(ones)


def _seed(target, g):
    """The starting gradient of a target, given by the caller (`output_gradients`): converted
    on its own, as TF converts it (numpy data keeps its dtype, a list of ints is int32), so
    a dtype other than the target's is refused."""
    if not isinstance(g, (Tensor, Variable, float)):
        g = convert_to_tensor(g)
    g = operand(g, target, "gradient")
    gshape, tshape = g._value.shape, target._value.shape
    if gshape != tshape:  # as in TF, it may broadcast to the target's shape
        try:
            if np.broadcast_shapes(gshape, tshape) != tshape:
                raise ValueError
        except ValueError:
            raise InvalidArgumentError(
                None,
                "gradient",
                f"output_gradients entry has shape "
                f"{list(gshape)} but its target has shape "
                f"{list(tshape)}: they do not broadcast",
            ) from None
    return g
