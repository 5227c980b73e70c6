"""Forward mode: `tf.autodiff.ForwardAccumulator`, Jacobian-vector products as ops run.

    with tf.autodiff.ForwardAccumulator(primals=x, tangents=t) as acc:
        y = f(x)
    acc.jvp(y)          # J(x) @ t, computed along with y: no backward pass

A tape remembers the forward pass and walks it backwards later; an accumulator instead
carries a *tangent* next to every tensor that depends on a primal, and updates it as each op
runs: tangent(out) = d out / d inputs @ tangent(inputs). It hears of each op the way a
`minitape.function` trace does: `apply` tells `STATE.tracer`, and an active accumulator
*is* the tracer (it passes every op on to the listener that was there before it: an outer
accumulator, or a trace). With no accumulator and no trace active, `apply` pays one attribute
check, as it always did.

Where does J @ t come from, for every op, without a forward rule per op? From the op's VJP
rule (`grads.py`), as TF does it -- the "double backward" trick. The VJP of an op,
`vjp(u) = J^T u`, is linear in the cotangent `u`, so its own VJP with respect to `u` is
`(J^T)^T = J`: run the VJP rules on a dummy `u` under a tape that watches `u`, and ask that
tape for the gradient with respect to `u` weighted by the tangents (`output_gradients=t`).
That gradient is J @ t. Every op with a VJP rule gets forward mode for free. (An op may have
a forward rule of its own, `op.jvp`; `custom_gradient` gives its ops one, as TF: the JVP of
the user's `grad_fn`, unless the ops that ran inside `f` already gave the result a tangent.)

Nesting, as in TF:
* the ops that compute tangents are heard by the accumulators entered *before* this one
  (so `outer.jvp(inner.jvp(y))` is a second directional derivative) and recorded by the
  tapes entered before it (reverse over forward: `tape.gradient(acc.jvp(y), x)`);
* an accumulator around a tape hears the tape's gradient ops (forward over reverse: the
  Hessian-vector product `acc.jvp(tape.gradient(y, x))`).
"""

import numpy as np

from . import nest
from .context import STATE
from .control_flow import _assert_same_structure
from .logs import _log_first_n
from .tape import GradientTape, SparseGradient, UnconnectedGradients
from .tensor import Tensor, Variable, convert_to_tensor

__all__ = ["ForwardAccumulator"]


class ForwardAccumulator:
    """Computes Jacobian-vector products of everything computed from `primals` while it is
    active, along the directions `tangents` (a nest of the same structure)."""

    def __init__(self, primals, tangents):
        self._tangents = {}  # id of a tensor (or variable) -> its tangent, a Tensor
        self._recording = False
        self._outer = None  # the listener active when we were entered
        self._outer_tapes = ()  # ids of the tapes active when we were entered
        seen = set()
        for primal in nest.flatten(primals):
            if id(primal) in seen:
                raise ValueError(
                    "Tensor {} was specified as a primal multiple times. This may "
                    "indicate an error. If it was intended, please sum the "
                    "corresponding tangents."
                )
            seen.add(id(primal))
        self._watch(primals, tangents)

    def _watch(self, primals, tangents):
        """Watch each primal with its tangent (watching one twice sums its tangents)."""
        _assert_same_structure(primals, tangents)
        for primal, tangent in zip(nest.flatten(primals), nest.flatten(tangents)):
            if not primal.dtype.is_floating:
                _log_first_n(
                    "fwd-dtype",
                    5,
                    "The dtype of the watched primal must be floating (e.g. tf.float32), got %r",
                    primal.dtype,
                )
            tangent = convert_to_tensor(tangent, dtype=primal.dtype)
            if tuple(tangent.shape) != tuple(primal.shape):  # (no broadcasting, as TF)
                raise ValueError(
                    f"Tangent {tangent} was specified for primal {primal}, but these have "
                    f"incompatible shapes {tangent.shape} and {primal.shape}."
                )
            prev = self._tangents.get(primal._id)
            self._tangents[primal._id] = tangent if prev is None else prev + tangent

    # -- entering and leaving ------------------------------------------------------------
    def __enter__(self):
        if self._recording:
            raise ValueError("Accumulator is already recording.")
        self._outer, STATE.tracer = STATE.tracer, self
        self._outer_tapes = {id(t) for t in STATE.tapes}
        self._recording = True
        return self

    def __exit__(self, *exc):
        if self._recording:
            STATE.tracer, self._outer = self._outer, None
            self._recording = False
        return False

    # -- what `apply` and variables tell the tracer ----------------------------------------
    def record(self, op, inputs, out, attrs):
        outer = self._outer
        if outer is not None:
            outer.record(op, inputs, out, attrs)
        if out._value.dtype.kind not in "fc":
            return
        tangents = self._tangents
        if op.jvp is None:
            ts = [tangents.get(x._id) for x in inputs]
            if op.vjps is None or all(t is None for t in ts):
                return
        saved = STATE.tracer, STATE.tapes
        # Tangent ops are heard by outer accumulators and tapes only (not by us, nor by a
        # tape entered after us).
        STATE.tracer = outer
        STATE.tapes = [t for t in saved[1] if id(t) in self._outer_tapes]
        try:
            if op.jvp is not None:
                tangent = op.jvp(lambda t: tangents.get(t._id), out, inputs, **attrs)
            else:
                tangent = _double_backward(op, inputs, out, attrs, ts)
        finally:
            STATE.tracer, STATE.tapes = saved
        if tangent is not None:
            tangents[out._id] = tangent

    def variable_read(self, var, read):
        if self._outer is not None:
            self._outer.variable_read(var, read)
        tangent = self._tangents.get(var._id)
        if tangent is not None:
            self._tangents[read._id] = tangent

    def variable_assigned(self, var, value, how):
        if self._outer is not None:
            self._outer.variable_assigned(var, value, how)

    def value_used(self, tensor):  # (a tangent does not care; a trace outside might)
        if self._outer is not None:
            self._outer.value_used(tensor)

    # -- results -------------------------------------------------------------------------
    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The tangent computed for each tensor of `primals` (a nest): J @ tangents. None for
        a tensor that does not depend on the watched primals (or was computed before the
        accumulator started or after it stopped); zeros with unconnected_gradients='zero'."""
        unconnected = UnconnectedGradients(unconnected_gradients)

        def fetch(tensor):
            result = self._tangents.get(tensor._id)
            if result is None and unconnected is UnconnectedGradients.ZERO:
                result = Tensor(np.zeros_like(tensor._read_value()))
            return result

        return nest.map_structure(fetch, primals)


def _double_backward(op, inputs, out, attrs, tangents):
    """J @ t for one op, from its VJP rules: the gradient of <vjp(u), t> with respect to u,
    at u = ones, as TF's `_jvp_helper` takes it (a rule that is not linear in u, as
    EuclideanNorm's x / (norm / u), is then differentiated where it is defined)."""
    u = Tensor(np.ones_like(out._value))
    rules = op.vjps
    with GradientTape() as tape:
        tape.watch(u)
        if type(rules) is tuple:
            grads = [
                None if rule is None or t is None else rule(u, out, *inputs, **attrs)
                for rule, t in zip(rules, tangents)
            ]
        else:
            grads = list(rules(u, out, inputs, **attrs))
        # (a gather's rule gives IndexedSlices: their dense value, densified on the tape)
        grads = [convert_to_tensor(g) if isinstance(g, SparseGradient) else g for g in grads]
    pairs = [(g, t) for g, t in zip(grads, tangents) if g is not None and t is not None]
    if not pairs:
        return None
    # (None when the VJP does not depend on u, as sign's zeros: no tangent, as in TF)
    return tape.gradient([g for g, _ in pairs], u, output_gradients=[t for _, t in pairs])


def has_tangent(x):
    """Does an active accumulator carry a tangent for `x` (a tensor or variable)?"""
    if not isinstance(x, (Tensor, Variable)):
        return False
    listener = STATE.tracer
    while listener is not None:
        if isinstance(listener, ForwardAccumulator) and x._id in listener._tangents:
            return True
        listener = getattr(listener, "_outer", None)
    return False
