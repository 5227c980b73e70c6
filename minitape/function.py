"""`minitape.function` (TF's `tf.function`): trace a Python function into a graph, replay it.

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = mse(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

The first call of a new *type* (TF's trace key, built by `_type_of`: the shapes and dtypes of
the tensor arguments, the shape, dtype and trainability of the variables, the values of the
other arguments) runs the Python body once, eagerly, while a `Graph` listens: every op that
runs is appended to it (`apply` calls `STATE.tracer.record`), and so is every variable read
and assignment. Later calls of that type do not run the Python code at all: they replay that
list of ops on the new inputs. So, as in TensorFlow:

* a Python side effect (`print`, appending to a list) happens only while tracing;
* a new input shape or dtype, or a new value of a Python argument, traces again
  (`f.experimental_get_tracing_count()` says how many traces there were; from the fifth
  recent call that traced, TF's warning about retracing is logged);
* with `reduce_retracing=True` a new shape is traced with the sizes that differ from a traced
  shape's left open (the Python code sees `x.shape` as `(None,)`), and with an
  `input_signature` the one trace has its specs' shapes: such a trace serves every call it
  accepts. (A minitape graph has concrete shapes and variables, though: a call with another
  size, or another variable of the same type, runs the Python body again under that trace,
  uncounted -- TF's counts and numbers, but Python side effects again: `_concrete_under`);
* variables are captured by reference: a replay reads their *current* values and repeats
  the `assign`s; any other tensor from outside is captured by value, as a constant;
* random ops draw fresh numbers on every replay;
* the gradient ops of a tape used inside the function were recorded like any other op, so
  they are replayed too; and a tape around a call records the replayed ops.

Control flow on tensors: before tracing, the function is converted by AutoGraph
(`autograph.py`), as in TF, so that an `if`, `while` or `for` on a tensor becomes a graph
`cond` or `while` node (see `Graph.add_cond`): both branches are traced (their Python side
effects happen once), the outputs are tensors, and the replay decides on every call (the
compiled replay is an `if` / a `while` loop in `python_source`). A tape inside the function
records such a cond as one op whose gradient is a cond too, and such a loop as one op whose
gradient is a loop walking its iterations backwards. What a replay cannot repeat is a
gradient taken inside the function through a cond or loop that assigns variables or draws
random numbers (the trace's backward pass went through the branch and iterations that ran):
such a function runs as a fresh, thrown-away trace on every call -- TF's numbers, but its
Python side effects on every call.

What a replay cannot redo at all: Python reading a traced tensor's value (`float(x)`, an
index, `x.numpy()`, a variable's `.numpy()`, or an `if` AutoGraph left alone). Such a
function runs its Python code on every call instead: TF's numbers, one trace, eager speed,
and its Python side effects on every call. Keep such uses outside the function, or use ops
(`tf.where`, `tf.gather`, `tf.cast`), to keep the replay.

Why a replay is faster: eager execution checks and converts the arguments of every op in
Python, wraps every result in a tensor and asks every active tape whether to record it. A
graph is instead written out, once, as one straight-line Python function -- a line per op,
calling the op's numpy `forward` on plain numpy values (`concrete.python_source` shows it) --
and with no tape active a replay is one call of that function. (With a tape active, the
replay goes through `apply` op by op, so that the tape records.)

`f.get_concrete_function(x)` traces without changing any variable and returns the graph for
that signature; `print(f.get_concrete_function(x).graph)` lists it.
"""

import contextlib
import functools
import inspect
import types
import weakref

import numpy as np

from . import nest
from .autograph import convert
from .context import STATE
from .dtypes import as_dtype
from .graph import Graph
from .logs import logger
from .random import _unchanged
from .replay import ConcreteFunction
from .tensor import Tensor, TensorShape, Variable, _as_shape, convert_to_tensor

__all__ = [
    "function",
    "Function",
    "TensorSpec",
    "ConcreteFunction",
    "Graph",
    "init_scope",
    "run_functions_eagerly",
    "functions_run_eagerly",
]


@contextlib.contextmanager
def init_scope():
    """Step outside any function being traced and any active tape (TF's `tf.init_scope`).

    Code in here runs eagerly, once, and is recorded nowhere: it is where layers and
    optimizers create their variables, so that a traced function does not replay the random
    draw of a kernel's initial value on every call."""
    saved = STATE.tracer, STATE.tapes
    STATE.tracer, STATE.tapes = None, []
    try:
        yield
    finally:
        STATE.tracer, STATE.tapes = saved


_RUN_EAGERLY = [False]


def run_functions_eagerly(run_eagerly):
    """Debugging switch (TF's `tf.config.run_functions_eagerly`): while True, calling a
    `minitape.function` just runs its Python code -- prints, breakpoints and all."""
    _RUN_EAGERLY[0] = bool(run_eagerly)


def functions_run_eagerly():
    return _RUN_EAGERLY[0]


# --- the function type: TF's trace key ------------------------------------------------------
# TF keys its traces by the *type* of a call (core/function/trace_type): per argument, a tensor
# by its TensorSpec (shape and dtype), a variable by its shape, dtype and trainability (and
# which arguments are the same variable), a list, tuple or dict by its items' types, any other
# Python value by value (or, for an object that can be weakly referenced, by identity). A call
# is served by the most specific trace whose type *accepts* it (a None dimension accepts any
# size, an unknown rank any shape); `reduce_retracing=True` traces a new type relaxed against
# the traced ones (`_common`); an `input_signature` is the one type there is. A type here is a
# tuple: ("T", dims, dtype) for a tensor (dims None: any rank), ("V", dims, dtype, trainable,
# alias) for a variable, ("C", container type, keys, item types) for a container, and
# ("P", value) for any other value.
_NOT_TRACED = object()


def _type_of(x, path, found):
    """The type of one argument. Its tensors are appended to `found.tensors` (numpy arrays
    converted; a TensorSpec gets a placeholder of its shape), their names to `found.names`,
    its variables to `found.variables`."""
    if isinstance(x, Tensor) or isinstance(x, np.ndarray) or isinstance(x, TensorSpec):
        if isinstance(x, TensorSpec):
            dims, dtype = x._dims, np.dtype(x.dtype.as_numpy_dtype)
            t = Tensor(np.zeros([1 if d is None else d for d in dims or ()], dtype))
        else:
            t = convert_to_tensor(x) if isinstance(x, np.ndarray) else x
            dims, dtype = t._value.shape, t._value.dtype.str
        found.tensors.append(t)
        found.names.append(path)
        return ("T", dims, np.dtype(dtype).str)
    if isinstance(x, Variable):
        alias = next((i for i, v in enumerate(found.variables) if v is x), None)
        found.variables.append(x)
        return ("V", x._snap._value.shape, x._snap._value.dtype.str, x.trainable, alias)
    if isinstance(x, weakref.ref):
        raise TypeError(f"weakref input {x} not supported for tf.function.")
    if isinstance(x, dict):  # (by sorted keys, as TF's nest: the order of a call's keywords
        keys = _sorted_keys(x)  # does not matter)
        return ("C", type(x), keys, tuple(_type_of(x[k], f"{path}[{k!r}]", found) for k in keys))
    if isinstance(x, (list, tuple)):
        items = tuple(_type_of(v, f"{path}[{i}]", found) for i, v in enumerate(x))
        return ("C", type(x), len(x), items)
    try:
        hash(x)
    except TypeError:
        raise TypeError(
            f"Could not generate a generic TraceType for {x!r}.Please verify that it is "
            "immutable/hashable. Otherwise, consider implementing the Tracing Protocol for it."
        ) from None
    return ("P", x)  # (as TF's Literal: by equality, so 1, 1.0 and True are one value)


def _sorted_keys(mapping):
    try:
        return tuple(sorted(mapping))
    except TypeError:  # (keys that do not compare: in their order)
        return tuple(mapping)


def _accepts(general, specific):
    """Whether a trace of type `general` serves a call of type `specific`."""
    tag = general[0]
    if tag != specific[0]:
        return False
    if tag == "C":
        return general[1:3] == specific[1:3] and all(map(_accepts, general[3], specific[3]))
    if tag in "TV":
        return general[2:] == specific[2:] and _dims_accept(general[1], specific[1])
    return general == specific


def _dims_accept(general, specific):
    if general is None:
        return True
    if specific is None or len(general) != len(specific):
        return False
    return all(a is None or a == b for a, b in zip(general, specific))


def _common(a, b):
    """The most specific type that accepts both `a` and `b` (TF's most specific common
    supertype), or None: sizes that differ become None, ranks that differ an unknown rank."""
    tag = a[0]
    if tag != b[0]:
        return None
    if tag == "C":
        items = a[1:3] == b[1:3] and tuple(map(_common, a[3], b[3]))
        return ("C", a[1], a[2], items) if items and None not in items else None
    if tag in "TV":
        if a[2:] != b[2:]:
            return None
        dims = None
        if a[1] is not None and b[1] is not None and len(a[1]) == len(b[1]):
            dims = tuple(p if p == q else None for p, q in zip(a[1], b[1]))
        return (tag, dims) + a[2:]
    return a if a == b else None


def _tensor_dims(function_type):
    """The dims of each tensor of a type, in the order `_type_of` found them."""
    tag = function_type[0]
    if tag == "T":
        return [function_type[1]]
    if tag == "C":
        return [d for item in function_type[3] for d in _tensor_dims(item)]
    return []


def _substitute(x, stand_ins):
    """`x` with each tensor (numpy array, TensorSpec) replaced by the next stand-in (in
    `_type_of`'s order)."""
    if isinstance(x, (Tensor, np.ndarray, TensorSpec)):
        return next(stand_ins)
    if isinstance(x, dict):
        items = {k: _substitute(x[k], stand_ins) for k in _sorted_keys(x)}
        return type(x)((k, items[k]) for k in x)
    if isinstance(x, (list, tuple)):
        items = [_substitute(v, stand_ins) for v in x]
        return type(x)(*items) if hasattr(x, "_fields") else type(x)(items)
    return x


class TensorSpec:
    """The shape and dtype a tensor argument must have (`input_signature=[TensorSpec(...)]`);
    a dimension of None takes any size, a shape of None any rank."""

    def __init__(self, shape, dtype="float32", name=None):
        self._dims = None if shape is None else _as_shape(shape)
        self.dtype = as_dtype(dtype)
        self.name = name

    @property
    def shape(self):
        return TensorShape(self._dims) if self._dims is not None else None

    def is_compatible_with(self, tensor):
        """Whether `tensor` (a Tensor or a TensorSpec) fits: same dtype, fitting shape."""
        dims = tensor._dims if isinstance(tensor, TensorSpec) else tuple(tensor.shape)
        if tensor.dtype != self.dtype:
            return False
        if self._dims is None or dims is None:
            return True
        return len(dims) == len(self._dims) and all(
            a is None or b is None or a == b for a, b in zip(self._dims, dims)
        )

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and (self._dims, self.dtype, self.name) == (
            other._dims,
            other.dtype,
            other.name,
        )

    __hash__ = None

    def __repr__(self):
        shape = "None" if self._dims is None else str(tuple(self._dims))
        return f"TensorSpec(shape={shape}, dtype={self.dtype!r}, name={self.name!r})"


def _check_signature(input_signature):
    """TF's checks of `input_signature` when the function is made: a list or tuple whose
    leaves are all TensorSpecs."""
    if not isinstance(input_signature, (list, tuple)):
        raise TypeError(
            f"input_signature must be either a tuple or a list, got {type(input_signature)}."
        )
    bad = [x for x in nest.flatten(input_signature) if not isinstance(x, TensorSpec)]
    if bad:
        raise TypeError(
            "input_signature must be a possibly nested sequence of TensorSpec objects, got "
            f"invalid args {bad} with types {[type(x) for x in bad]}."
        )
    return tuple(input_signature)


def _bind_to_spec(value, spec):
    """`value` converted to fit `spec` (a TensorSpec or a nest of them), or TypeError."""
    if isinstance(spec, TensorSpec):
        if isinstance(value, (Tensor, Variable)):
            tensor = convert_to_tensor(value)
        elif isinstance(value, (list, tuple, dict)) and any(
            isinstance(v, (Tensor, Variable)) for v in nest.flatten(value)
        ):
            raise TypeError(f"Can not cast {value!r} to a Tensor")
        else:
            try:
                tensor = convert_to_tensor(value, dtype=spec.dtype)
            except (TypeError, ValueError) as e:
                raise TypeError(str(e)) from None
        if not spec.is_compatible_with(tensor):
            have = TensorSpec(tensor.shape, tensor.dtype)
            raise TypeError(f"Can not cast {have!r} to {spec!r}")
        return tensor
    if isinstance(spec, dict):
        if not isinstance(value, dict) or sorted(value) != sorted(spec):
            raise TypeError(f"Can not cast {value!r} to dict type.")
        return {k: _bind_to_spec(value[k], spec[k]) for k in spec}
    if not isinstance(value, (list, tuple)) or len(value) != len(spec):
        raise TypeError(f"Can not cast {value!r} to {type(spec).__name__} type.")
    return type(spec)(_bind_to_spec(v, s) for v, s in zip(value, spec))


class _Found:
    """What `_type_of` finds in the arguments: tensors (and their names) and variables."""

    __slots__ = ("tensors", "names", "variables")

    def __init__(self):
        self.tensors, self.names, self.variables = [], [], []


class Function:
    """A Python function plus its traces: TF's traced types (`_types`), and below each the
    graphs minitape recorded for it (one per shape of the tensors and identity of the
    variables: see `_concrete_under`)."""

    def __init__(
        self, python_function, input_signature=None, autograph=True, reduce_retracing=False
    ):
        if not callable(python_function):
            raise TypeError(f"{python_function!r} is not a callable object")
        functools.update_wrapper(self, python_function)  # (a partial has no __name__: TF's too)
        if self.__doc__ is None:
            self.__doc__ = ""  # (as TF's: a function without a docstring has an empty one)
        self._name = getattr(python_function, "__name__", "function")
        self.python_function = python_function
        self.input_signature = input_signature
        self._reduce_retracing = bool(reduce_retracing)
        # (Keras' fit, evaluate and predict set this: tf.data gives their steps batches of an
        # unknown size, so one trace serves every batch size)
        self._any_batch_size = False
        try:
            self._py_signature = inspect.signature(python_function)
        except (TypeError, ValueError):
            self._py_signature = None
        self._defaults = {}  # the parameters after input_signature's: fixed to their defaults
        if input_signature is not None:
            self._defaults = _defaults_after(self._py_signature, input_signature)
        self._graphs = {}  # a call's key -> ConcreteFunction (the cache every call looks in)
        self._types = []  # the types traced, in order (TF's dispatch table)
        self._under = {}  # (traced type, key) -> ConcreteFunction
        self._tracing_count = 0  # the types traced (TF's count)
        self._traces_run = 0  # the times the Python body was traced (minitape's)
        self._autograph = bool(autograph)
        self._converted = None  # what is traced: see _python()
        self._bound = weakref.WeakKeyDictionary()  # instance -> this method's Function for it
        self._stats = _tracing_detector(python_function)

    def __get__(self, instance, owner):
        """`@tf.function` on a method: each instance gets a Function of its own (its traces,
        its variables), made on first use, as TF makes it."""
        if instance is None:
            return self
        try:
            return self._bound[instance]
        except KeyError:
            pass
        except TypeError:  # (an instance that cannot be weakly referenced or hashed)
            return types.MethodType(self, instance)
        bound = Function(
            types.MethodType(self.python_function, instance),
            self.input_signature,
            self._autograph,
            self._reduce_retracing,
        )
        self._bound[instance] = bound
        return bound

    def _signature(self, args, kwargs):
        """(key, what `_type_of` found, bound arguments) for one call: the key is the call's
        type and the ids of its variables."""
        if self._py_signature is None:
            bound = inspect.Signature(
                [
                    inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
                    inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD),
                ]
            ).bind(*args, **kwargs)
        else:
            bound = self._py_signature.bind(*args, **kwargs)
        found = _Found()
        names = tuple(bound.arguments)
        call_type = (
            "C",
            "args",
            names,
            tuple(_type_of(value, name, found) for name, value in bound.arguments.items()),
        )
        return (call_type, tuple(v._id for v in found.variables)), found, bound

    def _bind_signature(self, args, kwargs):
        """The arguments converted to `input_signature`'s specs (TF's TypeErrors if they do
        not fit): a call with fixed shapes and dtypes."""
        params = list(self._py_signature.parameters) if self._py_signature else []
        specs = self.input_signature
        bound = self._py_signature.bind(*args, **kwargs)
        try:
            for name, spec in zip(params, specs):
                bound.arguments[name] = _bind_to_spec(bound.arguments[name], spec)
            for name, default in self._defaults.items():
                value = bound.arguments.get(name, default)
                if type(value) is not type(default) or value != default:
                    raise TypeError(f"Can not cast {value!r} to Literal[{default!r}]")
                bound.arguments.pop(name, None)
        except TypeError as e:
            described = [f"{n}: {s!r}" for n, s in zip(params, specs)]
            described += [
                f"{n}: Literal[{d!r}] = <captured_default_value>" for n, d in self._defaults.items()
            ]
            raise TypeError(
                f"Binding inputs to tf.function failed due to `{e}`. Received args: {args} "
                f"and kwargs: {kwargs} for signature: ({', '.join(described)})."
            ) from None
        return bound.args, bound.kwargs

    def __call__(self, *args, **kwargs):
        if self.input_signature is not None:
            args, kwargs = self._bind_signature(args, kwargs)
        if _RUN_EAGERLY[0]:  # debugging: the Python code as written, eagerly
            return self.python_function(*args, **kwargs)
        if STATE.tracer is not None:
            # Called while another function is traced: run the (converted) Python code (the
            # outer trace records its ops like any others).
            return self._python()(*args, **kwargs)
        key, found, bound = self._signature(args, kwargs)
        concrete = self._graphs.get(key)
        if concrete is None:
            count = self._tracing_count
            concrete, outputs = self._concrete_for(key, found, bound)
            self._graphs[key] = concrete
            if self._tracing_count > count:
                self._stats.called_with_tracing(self.python_function)
            else:
                self._stats.called_without_tracing()
            if outputs is not _NOT_TRACED:
                if self._tracing_count == 1 and concrete.graph.created_variables:
                    # As TF: a function that creates variables on its first call is traced
                    # twice, once to create them and once more without (the graph it then
                    # runs). The second trace is dry: it changes no variable and draws no
                    # random number.
                    with _unchanged():
                        key, found, bound = self._signature(args, kwargs)
                        target = concrete.function_type
                        self._trace(target, key, found, bound, dry=True)
                    self._graphs[key] = self._under[(target, key)]
                    self._tracing_count += 1
                return outputs
        else:
            self._stats.called_without_tracing()
        if not concrete.graph.replayable:
            return self._run_unreplayable(concrete.graph, args, kwargs)
        return concrete._call_flat(found.tensors)

    def _concrete_for(self, key, found, bound, dry=False):
        """The graph for a call not seen yet: under the most specific traced type that
        accepts it (TF's dispatch), or under a new type, traced now: the call's own, relaxed
        against the traced ones with `reduce_retracing`, or input_signature's. Returns (the
        ConcreteFunction, what the function returned if it was traced now, else _NOT_TRACED)."""
        call_type = key[0]
        target = None
        for traced in self._types:  # the most specific that accepts the call
            if _accepts(traced, call_type) and (target is None or _accepts(target, traced)):
                target = traced
        if target is None:
            if self.input_signature is not None:
                target = self._signature_type(call_type)
            elif self._any_batch_size:
                target = _with_any_batch_size(call_type)
            elif self._reduce_retracing:
                target = call_type
                for traced in self._types:
                    target = _common(target, traced) or target
            else:
                target = call_type
            self._tracing_count += 1
            self._types.append(target)
        return self._concrete_under(target, key, found, bound, dry)

    def _signature_type(self, call_type):
        """The type input_signature stands for (the call's, with the specs' shapes)."""
        specs = [_type_of(spec, "", _Found()) for spec in nest.flatten(self.input_signature)]
        return _with_dims(call_type, iter(_tensor_dims(("C", list, 0, tuple(specs)))))

    def _concrete_under(self, target, key, found, bound, dry=False):
        """The graph of the traced type `target` for this call. minitape's graphs are of
        concrete shapes and variables (a replay repeats each op with the shapes it had), so
        a call that a type accepts with other shapes or other variables than its graphs have
        is traced again, under the same type: the Python body sees the type's shapes (None
        where it leaves a size open), the tracing count does not change; only the Python
        side effects happen again."""
        concrete = self._under.get((target, key))
        if concrete is not None:
            return concrete, _NOT_TRACED
        outputs = self._trace(target, key, found, bound, dry)
        return self._under[(target, key)], outputs

    def _call_under(self, concrete, key, found, bound):
        """A call of `concrete` (a ConcreteFunction) with arguments of another key: the graph
        of its type for them, or TF's TypeError if its type does not accept them."""
        if not _accepts(concrete.function_type, key[0]):
            raise TypeError(
                f"This concrete function of {self._name!r} was traced for "
                f"{concrete.pretty_printed_signature()}; the arguments given do not fit it "
                "(other shapes, dtypes or Python values)."
            )
        concrete, outputs = self._concrete_under(concrete.function_type, key, found, bound)
        return outputs if outputs is not _NOT_TRACED else concrete._call_flat(found.tensors)

    def _python(self):
        """The Python function to trace: AutoGraph's conversion of it (`autograph.py`), or
        the function itself with `autograph=False` (or when it cannot be converted)."""
        if self._converted is None:
            if self._autograph:
                self._converted = convert(self.python_function)
            else:
                self._converted = self.python_function
        return self._converted

    def _run_unreplayable(self, graph, args, kwargs):
        """A call of a function whose trace cannot be replayed: its Python code again. If
        that code built conds or loops, it runs as a trace that is thrown away (so that they
        keep TF's graph semantics: tensors out, both branches traced, zero gradients for what
        did not run)."""
        if not graph.has_control_flow:
            return self._python()(*args, **kwargs)
        scratch = Graph(self._name)
        scratch.kernel_scope = graph.kernel_scope
        saved = STATE.tracer
        STATE.tracer = scratch
        try:
            scratch.set_outputs(self._python()(*args, **kwargs))
            return scratch.traced_outputs()
        finally:
            STATE.tracer = saved

    def _trace(self, target, key, found, bound, dry=False):
        """Run the Python function once with a Graph listening, its tensor arguments seen
        with the shapes of the type `target`; return what it returned. `dry`: put every
        variable back afterwards (for `get_concrete_function`)."""
        graph = Graph(self._name)
        graph.autograph = self._autograph
        # (the random ops of every trace for this signature draw from the same kernels: the
        # graph that is replayed continues the streams its first, variable-making trace began)
        graph.kernel_scope = (id(self), key)
        dims = _tensor_dims(target)
        stand_ins = [graph.add_input(t, n, d) for t, n, d in zip(found.tensors, found.names, dims)]
        stand_ins = iter(stand_ins)
        for name, value in bound.arguments.items():
            bound.arguments[name] = _substitute(value, stand_ins)
        saved_tapes, saved_tracer = STATE.tapes, STATE.tracer
        STATE.tracer = graph
        if dry:
            STATE.tapes = []  # a trace that changes nothing records nothing either
        try:
            result = self._python()(*bound.args, **bound.kwargs)
            _check_outputs(result, self.python_function)
            graph.set_outputs(result)
            outputs = graph.structured_outputs = graph.traced_outputs()
        finally:
            STATE.tracer, STATE.tapes = saved_tracer, saved_tapes
            graph.finish(undo_assignments=dry)
        self._traces_run += 1
        if self._traces_run > 1 and graph.created_variables:
            raise ValueError(
                "tf.function only supports singleton tf.Variables created on the "
                "first call. Make sure the tf.Variable is only created once or "
                "created outside tf.function. See https://www.tensorflow.org/guide/"
                "function#creating_tfvariables for more information."
            )
        if graph.unreplayable == "uses custom_gradient":  # (TF replays it: say why we cannot)
            logger.warning(
                "%s uses custom_gradient, which minitape.function cannot replay: "
                "it will run as plain Python on every call.",
                self._name,
            )
        concrete = ConcreteFunction(graph, self, key)
        concrete.function_type = target
        self._under[(target, key)] = concrete
        return outputs

    def get_concrete_function(self, *args, **kwargs):
        """The graph for these arguments (tensors, or TensorSpecs: a None dimension takes
        any size), traced now if needed, without changing any variable.
        `print(f.get_concrete_function(x).graph)` lists its ops."""
        if self.input_signature is not None and not args and not kwargs:
            args = self.input_signature
        elif self.input_signature is not None:
            args, kwargs = self._bind_signature(args, kwargs)
        key, found, bound = self._signature(args, kwargs)
        concrete = self._graphs.get(key)
        if concrete is None:
            concrete, _ = self._concrete_for(key, found, bound, dry=True)
        return concrete

    def experimental_get_tracing_count(self):
        """How many times the Python code was traced (once per new type of call)."""
        return self._tracing_count

    def __repr__(self):
        return f"<minitape.function {self._name}>"


def _check_outputs(result, python_function):
    """TF's TypeError for a returned value that cannot be a tensor (a set, an object)."""
    for leaf in nest.flatten(result):
        if leaf is None or isinstance(leaf, (Tensor, Variable)):
            continue
        try:
            convert_to_tensor(leaf)
        except (TypeError, ValueError):
            raise TypeError(
                "To be compatible with tf.function, Python functions must return zero or more "
                f"Tensors or ExtensionTypes or None values; in compilation of "
                f"{python_function!r}, found return value of type {type(leaf).__name__}, which "
                "is not a Tensor or ExtensionType."
            ) from None


def _defaults_after(py_signature, input_signature):
    """The parameters input_signature does not cover, which must have defaults (TF fixes
    them to their defaults): {name: default}."""
    params = list(py_signature.parameters.values()) if py_signature else []
    if len(input_signature) > len(params):
        raise TypeError(
            f"input_signature contains {len(input_signature) - len(params)} extra type constraints."
        )
    defaults = {}
    for param in params[len(input_signature) :]:
        if param.default is inspect.Parameter.empty:
            raise TypeError(f"input_signature missing type constraint for {param.name}")
        defaults[param.name] = param.default
    return defaults


def _with_any_batch_size(function_type):
    """`function_type` with the first size of each tensor left open (None)."""
    dims = [d if not d else (None,) + tuple(d[1:]) for d in _tensor_dims(function_type)]
    return _with_dims(function_type, iter(dims))


def _with_dims(function_type, dims):
    """`function_type` with each tensor's dims the next of `dims`."""
    tag = function_type[0]
    if tag == "T":
        return ("T", next(dims), function_type[2])
    if tag == "C":
        items = tuple(_with_dims(item, dims) for item in function_type[3])
        return function_type[:3] + (items,)
    return function_type


# --- TF's warning about frequent retracing --------------------------------------------------
class _TracingDetector:
    """TF's _FrequentTracingDetector: of the last calls (at most 10, counted by whole traces),
    how many traced; from 5 tracing calls on, a warning, at most twice. One per Python
    function (its code), shared by every tf.function made of it."""

    def __init__(self):
        self.calls_per_tracing = []  # calls since each recent trace, its own included
        self.call_count = 0
        self.warnings = 0

    def called_without_tracing(self):
        if not self.calls_per_tracing:  # (traced by get_concrete_function only)
            self.calls_per_tracing = [0]
        self.calls_per_tracing[-1] += 1
        self.call_count += 1

    def called_with_tracing(self, python_function):
        self.call_count += 1
        self.calls_per_tracing.append(1)
        while self.call_count - self.calls_per_tracing[0] > 10:
            self.call_count -= self.calls_per_tracing.pop(0)
        if self.warnings < 2 and len(self.calls_per_tracing) >= 5:
            self.warnings += 1
            logger.warning(
                "%d out of the last %d calls to %r triggered tf.function retracing. Tracing "
                "is expensive and the excessive number of tracings could be due to (1) "
                "creating @tf.function repeatedly in a loop, (2) passing tensors with "
                "different shapes, (3) passing Python objects instead of tensors. For (1), "
                "please define your @tf.function outside of the loop. For (2), @tf.function "
                "has reduce_retracing=True option that can avoid unnecessary retracing. For "
                "(3), please refer to https://www.tensorflow.org/guide/function"
                "#controlling_retracing and https://www.tensorflow.org/api_docs/python/tf/"
                "function for  more details.",
                len(self.calls_per_tracing),
                self.call_count,
                python_function,
            )


_DETECTORS = weakref.WeakKeyDictionary()


def _tracing_detector(python_function):
    """The detector of the Python function under `python_function` (unwrapped: the code of
    a method or a decorated function, as TF keys it)."""
    target = python_function
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    target = getattr(target, "__func__", target)
    target = getattr(target, "__code__", target)
    try:
        return _DETECTORS.setdefault(target, _TracingDetector())
    except TypeError:  # (cannot be weakly referenced)
        return _TracingDetector()


def function(
    func=None,
    input_signature=None,
    autograph=True,
    jit_compile=None,
    reduce_retracing=False,
    experimental_relax_shapes=None,
):
    """Compile `func` into a replayable graph: `@tf.function` or `tf.function(f)`.

    `input_signature` (a list of `TensorSpec`s, one per argument) fixes what the arguments
    must be: each is converted to its spec's dtype, and one that does not fit raises TF's
    TypeError; a None dimension takes any size. `reduce_retracing=True` traces a call of a new
    shape with the dimensions that differ from a traced shape's left open (None), so that
    later calls of such shapes need no new trace. `autograph=False` traces the Python code as
    it is written, without converting its `if`/`while`/`for` on tensors (see `autograph.py`).
    `jit_compile` is accepted and ignored."""
    if input_signature is not None:
        input_signature = _check_signature(input_signature)
    if experimental_relax_shapes is not None:
        reduce_retracing = experimental_relax_shapes
    options = dict(
        input_signature=input_signature, autograph=autograph, reduce_retracing=reduce_retracing
    )
    if func is None:
        return functools.partial(Function, **options)
    return Function(func, **options)
