"""The gradient tape: record ops during the forward pass, walk them backwards for gradients.

This file is the heart of minitape. Read it top to bottom:

1. `Op` and `apply`: every differentiable operation runs through `apply`, which computes
   the numpy result and, if some active tape watches one of the inputs, appends one entry
   `(op, inputs, output, attrs)` to that tape. Nothing is recorded for ops no tape watches.
   An entry keeps only the tensors its op's gradient rules read (`Mul` its inputs, `Exp` its
   output); of the others it keeps a `TapeTensor` (id, shape, dtype), as TF does, so an
   intermediate that no rule needs is freed as soon as the program drops it.
2. `GradientTape`: the context manager. Its recording is an append-only list of entries
   plus a set of watched ids ("these tensors lead back to something we watch").
3. `_backward`: walks the entries in reverse, asks each op's VJP rule (the table in
   `grads.py`) for its inputs' gradients, and *adds* them into a dict keyed by tensor id:
   notebook 15's walk, plus what TF needs. (One shortcut, `_bare_step`, marked as such and
   skippable: when nothing would record the walk, the common ops run numpy twins of their
   rules, the same arithmetic minus tensors no one needs.)

Because every VJP rule is written with minitape's own ops, the backward pass is itself made of
recordable ops: if an outer tape watches the same tensors, it records the gradient
computation, and its own `gradient()` then gives second derivatives. That is all nesting is.
"""

import dis
import enum
import inspect
import operator

import numpy as np

from . import nest
from .context import STATE, next_id
from .dtypes import from_numpy
from .errors import InvalidArgumentError
from .logs import _log_first_n
from .tape_args import gradient_args, ones_like, plain_gradient_call
from .tensor import Tensor, TensorShape, Variable, bool_flag

__all__ = ["GradientTape", "UnconnectedGradients", "Op", "apply"]


# --- ops and recording --------------------------------------------------------------------
class Op:
    """A primitive operation: a numpy `forward` and its VJP rules (set by `grads.py`).

    `vjps` is a tuple with one rule per input, `rule(g, ans, *inputs, **attrs)` giving the
    gradient for that input from the output's gradient `g` (None: not differentiable there),
    or for ops with any number of inputs a single function `rule(g, ans, inputs, **attrs)`
    returning all of them. `bare` holds numpy twins of the rules, if grads.py wrote them
    (`TWINS`), for a backward sweep that nothing records (see `_backward`); other rules set
    on the op have none. An op whose rules take a gather's slices as they are (`sparse`: a
    cast, which TF applies to the slices' values) is given them undensified.
    """

    __slots__ = ("name", "forward", "vjps", "keeps", "check", "jvp", "bare", "sparse")

    def __init__(self, name, forward, check=None):
        self.name = name
        self.forward = forward
        self.vjps = None  # (sets `keeps` and `bare` too)
        self.check = check  # called with the input values when forward fails: a clear error
        self.jvp = None  # a forward-mode rule of its own, if any (see forwardprop.py)
        self.sparse = False

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if name == "vjps":  # (which tensors a recording of this op keeps follows from its rules)
            object.__setattr__(self, "keeps", _keeps(value))
            object.__setattr__(
                self, "bare", TWINS.get((self, value)) if type(value) is tuple else None
            )

    def __repr__(self):
        return f"<Op {self.name}>"


TWINS = {}  # (op, its rules) -> numpy twins of those rules (filled by grads.py)


def _reads(rule):
    """The names of the parameters `rule`'s code reads (all of them, if that cannot be seen)."""
    code = getattr(rule, "__code__", None)
    if code is None or code.co_flags & inspect.CO_VARARGS:
        return None
    read = set(code.co_cellvars)  # (parameters a nested function or comprehension uses)
    for ins in dis.get_instructions(code):
        if ins.opname.startswith("LOAD_FAST") or ins.opname in ("LOAD_DEREF", "LOAD_CLOSURE"):
            read.update(ins.argval if isinstance(ins.argval, tuple) else (ins.argval,))
    return read


def _keeps(rules):
    """What a recording of an op keeps: `(inputs, output)`, where `inputs` is True (all of
    them), False (none) or one flag per input, and `output` a flag. A tensor is kept only if
    some gradient rule of the op reads it; of the others the tape keeps the id, shape and
    dtype (`TapeTensor`), so an intermediate that no rule needs is freed as soon as the
    program drops it. TF keeps a hand-written table of the same facts (which inputs and
    outputs each op's gradient does not use); minitape reads them off the rules' code."""
    if rules is None:
        return True, True
    if type(rules) is not tuple:  # one rule `rule(g, ans, inputs, **attrs)` for all inputs
        read = _reads(rules)
        if read is None:
            return True, True
        params = rules.__code__.co_varnames
        return params[2] in read, params[1] in read
    inputs, output = [False] * len(rules), False
    for rule in rules:
        if rule is None:
            continue
        read = _reads(rule)
        if read is None:
            return True, True
        params = rule.__code__.co_varnames[: rule.__code__.co_argcount]
        output = output or params[1] in read
        for i, name in enumerate(params[2 : 2 + len(rules)]):
            inputs[i] = inputs[i] or name in read
    return (True if all(inputs) else tuple(inputs)), output


class TapeTensor:
    """What a recording keeps of a tensor that no gradient rule of its op reads: its id (the
    name the backward walk knows it by), shape and dtype, not its value (TF's TapeTensor)."""

    __slots__ = ("_id", "_shape", "_dtype")

    def __init__(self, t):
        v = t._value
        self._id, self._shape, self._dtype = t._id, v.shape, v.dtype

    @property
    def shape(self):
        return TensorShape._of(self._shape)

    @property
    def dtype(self):
        return from_numpy(self._dtype)

    def __repr__(self):
        return f"<not kept: shape={tuple(self.shape)}, dtype={self.dtype.name}>"


def _entry(op, inputs, out, attrs):
    """One entry of a recording, keeping only the tensors the op's gradient rules read."""
    keep_inputs, keep_output = op.keeps
    if keep_inputs is False:  # (an op with any number of inputs, whose rule reads none)
        inputs = tuple([TapeTensor(x) for x in inputs])
    elif keep_inputs is not True:
        inputs = tuple([x if k else TapeTensor(x) for x, k in zip(inputs, keep_inputs)])
    if keep_output:
        return op, inputs, out, attrs
    kept = _new_tensor(TapeTensor)  # (`TapeTensor(out)`, minus the call to __init__)
    kept._id, kept._shape, kept._dtype = out._id, out._value.shape, out._value.dtype
    return op, inputs, kept, attrs


def apply(op, *inputs, **attrs):
    """Run `op` on tensors `inputs`; record it on every active tape that watches an input."""
    n = len(inputs)
    try:
        if n == 2:  # (the common cases spelled out: faster than a list and a dict)
            a, b = inputs[0]._value, inputs[1]._value
            value = op.forward(a, b, **attrs) if attrs else op.forward(a, b)
        elif n == 1:
            value = op.forward(inputs[0]._value, **attrs) if attrs else op.forward(inputs[0]._value)
        else:
            value = op.forward(*[x._value for x in inputs], **attrs)
    except (ValueError, IndexError, TypeError) as e:
        if op.check is not None:
            op.check(*[x._value for x in inputs], **attrs)
        raise InvalidArgumentError(None, op.name, f"{e} [Op:{op.name}]") from None
    out = _new_tensor(Tensor)  # (`Tensor(value)`, minus the call to __init__)
    out._value, out._id = value, next_id()
    tapes, tracer = STATE.now
    # Only floating outputs can carry a gradient (a numpy float scalar's type says so, faster
    # than its dtype); an op with no gradient rule at all (StopGradient) is never recorded,
    # so its output is watched by no tape.
    if tapes and (type(value) in _FLOAT_SCALARS or value.dtype.kind == "f") and op.vjps is not None:
        entry = None
        for tape in tapes:
            watched = tape._watched
            for x in inputs:
                if x._id in watched:
                    if entry is None:
                        entry = _entry(op, inputs, out, attrs)
                    tape._entries.append(entry)
                    watched.add(out._id)
                    break
    elif tapes:  # not recordable (a non-float output, or no gradient rule): note the cut
        _note_cut(tapes, op, inputs, out)
    if tracer is not None:
        tracer.record(op, inputs, out, attrs)
    return out


_new_tensor = object.__new__
_FLOAT_SCALARS = frozenset(t for t in np.sctypeDict.values() if issubclass(t, np.floating))
_ID = operator.attrgetter("_id")


def _note_cut(tapes, op, inputs, out):
    """An op that uses a watched tensor but cannot be recorded (its output is an integer or a
    bool, or it has no gradient rule: StopGradient) ends the path there. Each tape that watches
    an input keeps a note of it, `("op", op name, input id, output dtype)`, for
    `minitape.explain`; nothing else reads it."""
    for tape in tapes:
        for x in inputs:
            if x._id in tape._watched:
                tape._cuts.append(("op", op.name, x._id, out._value.dtype.name))
                break


def _backward(entries, watched, targets, target_grads, keep, reads=None, on_step=None, bare=False):
    """The reverse walk: {tensor id: gradient of the targets} for the ids in `keep`.

    Notebook 15's `backward`, plus what TF needs: each target starts from a gradient of its
    own (`output_gradients`); a gradient no one asked for is dropped once used (less memory);
    an op may have one rule for all its inputs; every recorded read of a variable is a tensor
    of its own (`reads`: read id -> variable id), whose gradient is added onto the variable
    at the end. `watched` holds only floating tensors' ids, so `x._id in watched` also says
    "x can carry a gradient". `on_step(i, op, out, g, sent)`, if given, hears of every entry
    the walk uses, with the (input, gradient, new total) it passed on: `minitape.viz`
    replays the walk with it.

    `bare`: nothing records this walk (no tape, trace or accumulator listens); the common
    ops then take the shortcut `_bare_step`, on numpy values (a first reading can skip it)."""
    grads = {}
    for t, g in zip(targets, target_grads):  # d target / d target: 1, or output_gradients
        g, prev = g._value if bare else g, grads.get(t._id)
        grads[t._id] = g if prev is None else _add_up(prev, g, bare)
    for i in range(len(entries) - 1, -1, -1):  # newest entry first
        op, inputs, out, attrs = entries[i]
        g = grads.get(out._id) if out._id in keep else grads.pop(out._id, None)
        if g is None:
            continue  # this entry does not lead to a target
        if bare and (g := _bare_step(grads, watched, op, inputs, out, attrs, g)) is None:
            continue  # (done by the shortcut, on numpy values)
        if type(g) is not Tensor and isinstance(g, SparseGradient) and not op.sparse:
            g = g.__tf_tensor__()  # (a gather's slices: the rules get the dense tensor)
        rules = op.vjps
        if type(rules) is not tuple:  # one rule gives every input's gradient at once
            rules = [_given(gx) for gx in rules(g, out, inputs, **attrs)]
        sent = []
        for x, rule in zip(inputs, rules):
            if rule is not None and x._id in watched:
                gx = rule(g, out, *inputs, **attrs)
                if gx is not None:  # paths add up
                    prev = grads.get(x._id)
                    total = grads[x._id] = gx if prev is None else _add_up(prev, gx, bare)
                    sent.append((x, gx, total))
        if on_step is not None:
            on_step(i, op, out, g, sent)
    for rid, vid in reads.items() if reads else ():  # a variable gets its reads' gradients
        if vid in keep and (g := grads.get(rid)) is not None:
            prev = grads.get(vid)
            grads[vid] = g if prev is None else _add_up(prev, g, bare)
    if bare:  # (the gradients asked for, as tensors)
        for k in keep:
            if isinstance(grads.get(k), _NUMPY):
                grads[k] = Tensor(grads[k])
    return grads


def _add_up(prev, g, bare):
    """`prev + g`: the gradient of a tensor used more than once is the sum of its paths'. In
    a bare walk two numpy values of one dtype add with numpy's `+`, as AddV2 adds them;
    anything else adds as tensors, with their checks and errors (and a gather's slices as
    `_add_sparse` says)."""
    if not bare or type(prev) is type(g) and (type(g) is not np.ndarray or prev.dtype is g.dtype):
        try:
            return prev + g
        except TypeError:  # (two slices, which have no `+`)
            if isinstance(prev, SparseGradient) and isinstance(g, SparseGradient):
                return _add_sparse(prev, g)
            raise
    if isinstance(prev, SparseGradient) or isinstance(g, SparseGradient):
        return _add_sparse(prev, g)
    total = _as_tensor(prev) + _as_tensor(g)
    return total._value if type(prev) is not Tensor and type(g) is not Tensor else total


class SparseGradient:
    """A gradient that stands for a dense tensor without being one: a gather's slices, TF's
    IndexedSlices (`indexed_slices.py`). The walk asks two things of it: `__tf_tensor__()`,
    the dense tensor (what an op's gradient rules are given), and `_add(other)`."""

    __slots__ = ()


def _add_sparse(prev, g):
    """TF's rule for adding up gradients when slices are among them: slices and slices
    concatenate, slices and a dense gradient make a dense tensor (the sum of both)."""
    if isinstance(prev, SparseGradient) and isinstance(g, SparseGradient):
        return prev._add(g)
    return _dense(prev) + _dense(g)


def _dense(g):
    return g.__tf_tensor__() if isinstance(g, SparseGradient) else _as_tensor(g)


def _given(gx):
    """A per-input rule that returns an already computed gradient."""
    return lambda *inputs, **attrs: gx


# --- the one shortcut: a walk that nothing records (a first reading can skip this) ---------
# When no tape, trace or accumulator listens, the gradients need not be tensors: the walk's
# seeds are numpy values, and the common ops use numpy twins of their rules (`grads.BARE`,
# the same arithmetic with the ops' own forwards, tested bit for bit), which make no tensor
# that no one would record. An op without twins gets its rules, on a tensor, in `_backward`.
def _bare_step(grads, watched, op, inputs, out, attrs, g):
    """One entry of a bare walk. Done with the op's numpy twins if it has them (returns None),
    else returns `g` as a tensor, for `_backward` to run the rules themselves."""
    twins = op.bare
    if type(g) is Tensor:  # (from a rule on tensors)
        if g._value.dtype != _dtype(out):
            return g  # (a gradient of another dtype stays a tensor, to add up as tensors do)
        g = g._value
    elif type(g) not in _NUMPY_TYPES and not isinstance(g, _NUMPY):
        return g  # (neither: the gradients of a custom gradient's several outputs)
    if twins is None:
        return Tensor(g)
    if len(inputs) == 2 and not attrs:  # (the commonest entry, spelled out: a loop, and a
        x, y = inputs  # call with *inputs, would cost more than the twins themselves)
        tx, ty = twins
        if tx is not None and x._id in watched:
            prev, gx = grads.get(x._id), tx(g, out, x, y)
            grads[x._id] = gx if prev is None else _add_up(prev, gx, True)
        if ty is not None and y._id in watched:
            prev, gy = grads.get(y._id), ty(g, out, x, y)
            grads[y._id] = gy if prev is None else _add_up(prev, gy, True)
        return None
    for x, twin in zip(inputs, twins):
        if twin is not None and x._id in watched:
            prev, gx = grads.get(x._id), twin(g, out, *inputs, **attrs)
            grads[x._id] = gx if prev is None else _add_up(prev, gx, True)
    return None


_NUMPY = (np.ndarray, np.generic)
_NUMPY_TYPES = frozenset([np.ndarray, *np.sctypeDict.values()])  # (the common ones, quickly)


def _as_tensor(v):
    return v if type(v) is Tensor else Tensor(v)


def _dtype(x):
    """The numpy dtype of a recorded tensor, kept or not."""
    return x._value.dtype if type(x) is Tensor else x._dtype


# --- the tape -----------------------------------------------------------------------------
class UnconnectedGradients(enum.Enum):
    """What `gradient()` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


_ONE_SHOT = (
    "A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)"
)


def _unconnected(value):
    if isinstance(value, UnconnectedGradients):
        return value
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}") from None


class GradientTape:
    """Records operations on watched tensors so `gradient()` can differentiate them.

    Watched: trainable variables read inside the block (unless
    `watch_accessed_variables=False`), anything passed to `watch()`, and every result of a
    recorded op. A non-persistent tape answers one `gradient()`/`jacobian()` call, then
    releases its recording; `persistent=True` keeps it until the tape is deleted.
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = (
            persistent if type(persistent) is bool else bool_flag(persistent, "persistent")
        )
        self._watch_accessed = bool(watch_accessed_variables)
        self._entries = None  # the recording: None before entering and after release
        self._watched = None  # ids of watched float tensors/variables and recorded outputs
        self._variables = {}  # id -> watched Variable
        self._reads = {}  # id of each recorded read of a variable -> the variable's id
        self._recording = False
        self._released_variables = {}  # the last recording's watched variables, by id
        self._released_watched = frozenset()  # ... and the ids it watched
        # For `minitape.explain` only, never read by the backward walk: where a watched
        # tensor's path was cut (see `_note_cut`), and when recording started and stopped,
        # as (the id counter at that moment, "enter" / "exit" / "pause" / "resume" /
        # "gradient"): a tensor's id says whether it was made while the tape recorded.
        self._cuts, self._events = [], []

    # -- entering and leaving ------------------------------------------------------------
    def _push_tape(self, why="enter"):
        if self._recording:
            raise ValueError(
                "Tape is still recording, This can happen if you try to re-enter "
                "an already-active tape."
            )
        if self._entries is None:  # a new recording (re-entering appends to the same one)
            self._entries, self._watched, self._variables, self._reads = [], set(), {}, {}
            self._cuts, self._events = [], []
        STATE.tapes.append(self)
        self._recording = True
        self._events.append((next_id(), why))
        return self

    __enter__ = _push_tape  # (entering is pushing the tape; `with ... as tape` gets it back)

    def __exit__(self, *exc):
        if self._recording:
            self._pop_tape()
        return False

    def _pop_tape(self, why="exit"):
        if not self._recording:
            raise ValueError("Tape is not recording.")
        STATE.tapes.remove(self)
        self._recording = False
        self._events.append((next_id(), why))

    def _release(self):
        """Forget the recording: the tensors it held are freed as soon as nobody else holds them."""
        self._released_variables, self._released_watched = self._variables, self._watched
        self._entries = self._watched = None
        self._variables, self._reads, self._cuts = {}, {}, []

    # -- what is watched -----------------------------------------------------------------
    def watch(self, tensor):
        """Watch a tensor or variable, or every one of them in a nest (list/tuple/dict)."""
        for t in [tensor] if isinstance(tensor, (Tensor, Variable)) else nest.flatten(tensor):
            if not isinstance(t, (Tensor, Variable)):
                raise ValueError(
                    f"Passed in object {t!r} of type {type(t).__name__!r}, not "
                    "tf.Tensor or tf.Variable or ExtensionType."
                )
            value = t._snap._value if isinstance(t, Variable) else t._value
            if value.dtype.kind not in "fc":
                _log_first_n(
                    "watch-dtype",
                    5,
                    "The dtype of the watched tensor must be floating (e.g. tf.float32), got %r",
                    t.dtype,
                )
            if self._entries is None:  # never entered, or released: TF fails on its own
                raise AttributeError(
                    "'NoneType' object has no attribute '_tape' (tape.watch() "
                    "needs a tape that has a recording: call it inside the "
                    "tape's `with` block)"
                )
            if isinstance(t, Variable):
                self._watch_variable(t)
            elif t._value.dtype.kind == "f":  # (as in TF, only floats carry gradients)
                self._watched.add(t._id)

    def _watch_variable(self, var):
        if var._id not in self._variables:
            self._variables[var._id] = var
            if var._snap._value.dtype.kind == "f":
                self._watched.add(var._id)

    def _variable_read(self, var, read=None):
        """`var` was just read as the tensor `read` (or assigned: `read` is None): automatic
        watching, and if the variable is watched, the read is too (its gradient goes to the
        variable, see `_backward`)."""
        vid = var._id
        if self._watch_accessed and var._trainable and vid not in self._variables:
            self._watch_variable(var)
        if read is not None and vid in self._watched:
            self._watched.add(read._id)
            self._reads[read._id] = vid

    def watched_variables(self):
        """The variables this tape watches, in creation order (kept after release)."""
        variables = self._released_variables if self._entries is None else self._variables
        return tuple(variables[k] for k in sorted(variables))

    # -- pausing and clearing ------------------------------------------------------------
    def stop_recording(self):
        """Context manager: ops inside it are not recorded on this tape."""
        if self._entries is None:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        return _Paused(self)

    def reset(self):
        """Clear the recording and the watches, as if leaving and re-entering a new tape."""
        self._pop_tape()
        self._entries = None
        self._push_tape()

    # -- differentiating -----------------------------------------------------------------
    def _start_gradient(self):
        if self._entries is None:
            raise RuntimeError(_ONE_SHOT)
        if self._recording:
            if not self._persistent:
                self._pop_tape("gradient")  # a one-shot tape stops recording when asked
            else:
                _log_first_n(
                    "persistent-inside",
                    1,
                    "Calling GradientTape.gradient on a persistent tape inside its "
                    "context is significantly less efficient than calling it outside "
                    "the context (it causes the gradient ops to be recorded on the "
                    "tape, leading to increased CPU and memory usage). Only call "
                    "GradientTape.gradient inside the context if you actually want to "
                    "trace the gradient in order to compute higher order derivatives.",
                )

    def _finish(self):
        if not self._persistent:
            self._release()

    def gradient(
        self,
        target,
        sources,
        output_gradients=None,
        unconnected_gradients=UnconnectedGradients.NONE,
    ):
        """d(sum of targets)/d(source) for every source, in the structure of `sources`.

        `output_gradients` weights each target (a vector-Jacobian product). A source the
        targets do not depend on gets None, or zeros with `unconnected_gradients='zero'`.
        """
        self._start_gradient()
        plain = unconnected_gradients is UnconnectedGradients.NONE and plain_gradient_call(
            target, sources, output_gradients
        )
        if plain:  # (one tensor; a tensor, a variable or a flat list of them: nothing to check)
            targets, seeds = [target], [ones_like(target)]
            flat_sources = sources if type(sources) is list else [sources]
            unconnected = UnconnectedGradients.NONE
        else:
            if target is None:
                raise TypeError(
                    "Argument `target` should be a list or nested structure of Tensors, "
                    "Variables or CompositeTensors to be differentiated, but received "
                    "None."
                )
            unconnected = _unconnected(unconnected_gradients)
            targets, seeds, flat_sources = gradient_args(target, sources, output_gradients)
        try:
            grads = self._grads(targets, seeds, flat_sources)
        finally:
            if not self._persistent:
                self._release()
        results = [grads.get(s._id) for s in flat_sources]
        if unconnected is UnconnectedGradients.ZERO:
            results = [_zeros_for(s) if g is None else g for s, g in zip(flat_sources, results)]
        if plain:
            return results if type(sources) is list else results[0]
        return nest.pack_sequence_as(sources, results)

    def _grads(self, targets, seeds, sources):
        keep = set(map(_ID, sources))
        bare = not STATE.tapes and STATE.tracer is None  # (nothing would record the sweep)
        return _backward(self._entries, self._watched, targets, seeds, keep, self._reads, bare=bare)


class _Paused:
    """`with tape.stop_recording():` -- the tape steps off the stack, then back on."""

    def __init__(self, tape):
        self.tape = tape

    def __enter__(self):
        self.tape._pop_tape("pause")  # (a tape that is not recording: TF's ValueError)

    def __exit__(self, *exc):
        self.tape._push_tape("resume")
        return False


def _zeros_for(source):
    return Tensor(np.zeros_like(source._read_value()))
