"""`minitape.function` (TF's `tf.function`): trace a Python function into a graph, replay it.

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = mse(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

The first call with a new *signature* (the shapes and dtypes of the tensor arguments, the
values of the other arguments) runs the Python body once, eagerly, while a `Graph` listens:
every op that runs is appended to it (`apply` calls `STATE.tracer.record`), and so is every
variable read and assignment. Later calls with the same signature do not run the Python code
at all: they replay that list of ops on the new inputs. So, as in TensorFlow:

* a Python side effect (`print`, appending to a list) happens only while tracing;
* a new input shape or dtype, or a new value of a Python argument, traces again
  (`f.experimental_get_tracing_count()` says how many traces there were);
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


# --- the decorator ------------------------------------------------------------------------
_NOT_TRACED = object()


class _Identity:
    """An unhashable Python argument in a cache key: equal only to itself (and kept alive
    by the key, so its id is never reused while the trace is cached)."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self):
        return id(self.obj)

    def __eq__(self, other):
        return isinstance(other, _Identity) and other.obj is self.obj


def _key(x, path, tensors, names):
    """A hashable summary of one argument, for the trace cache: tensors (and numpy arrays)
    by shape and dtype -- they are collected in `tensors` --, variables by identity,
    containers by their items, any other Python value by value (or identity)."""
    if isinstance(x, np.ndarray):
        x = convert_to_tensor(x)
    if isinstance(x, Tensor):
        tensors.append(x)
        names.append(path)
        return ("Tensor", x._value.shape, x._value.dtype.str)
    if isinstance(x, Variable):
        return ("Variable", x._id)
    if isinstance(x, dict):
        return (type(x),) + tuple(
            (k, _key(v, f"{path}[{k!r}]", tensors, names)) for k, v in x.items()
        )
    if isinstance(x, (list, tuple)):
        return (type(x),) + tuple(_key(v, f"{path}[{i}]", tensors, names) for i, v in enumerate(x))
    try:
        hash(x)
        return (type(x), x)
    except TypeError:
        return _Identity(x)


def _substitute(x, stand_ins):
    """`x` with each tensor (or numpy array) replaced by the next stand-in (`_key`'s order)."""
    if isinstance(x, (Tensor, np.ndarray)):
        return next(stand_ins)
    if isinstance(x, dict):
        return type(x)((k, _substitute(v, stand_ins)) for k, v in x.items())
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


class Function:
    """A Python function plus its traced graphs, one per call signature."""

    def __init__(self, python_function, input_signature=None, autograph=True):
        if not callable(python_function):
            raise TypeError(f"{python_function!r} is not a callable object")
        functools.update_wrapper(self, python_function)
        if self.__doc__ is None:
            self.__doc__ = ""  # (as TF's: a function without a docstring has an empty one)
        self.python_function = python_function
        self.input_signature = input_signature
        try:
            self._py_signature = inspect.signature(python_function)
        except (TypeError, ValueError):
            self._py_signature = None
        self._graphs = {}  # signature key -> ConcreteFunction
        self._tracing_count = 0
        self._autograph = bool(autograph)
        self._converted = None  # what is traced: see _python()

    def __get__(self, instance, owner):
        """`@tf.function` on a method: `self` becomes the first argument."""
        return self if instance is None else types.MethodType(self, instance)

    def _signature(self, args, kwargs):
        """(key, tensor arguments, their names, bound arguments) for one call."""
        if self._py_signature is None:
            bound = inspect.Signature(
                [
                    inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
                    inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD),
                ]
            ).bind(*args, **kwargs)
        else:
            bound = self._py_signature.bind(*args, **kwargs)
        tensors, names = [], []
        key = tuple(
            (name, _key(value, name, tensors, names)) for name, value in bound.arguments.items()
        )
        return key, tensors, names, bound

    def _bind_signature(self, args, kwargs):
        """The arguments converted to `input_signature`'s specs (TF's TypeErrors if they do
        not fit): a call with fixed shapes and dtypes."""
        params = list(self._py_signature.parameters) if self._py_signature else []
        specs = self.input_signature
        if len(specs) > len(params):
            raise TypeError(
                f"input_signature contains {len(specs) - len(params)} extra type constraints."
            )
        if len(specs) < len(params):
            raise TypeError(f"input_signature missing type constraint for {params[len(specs)]}")
        bound = self._py_signature.bind(*args, **kwargs)
        try:
            for name, spec in zip(params, specs):
                bound.arguments[name] = _bind_to_spec(bound.arguments[name], spec)
        except TypeError as e:
            raise TypeError(
                f"Binding inputs to tf.function failed due to `{e}`. Received args: {args} "
                f"and kwargs: {kwargs} for signature: {specs}."
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
        key, tensors, names, bound = self._signature(args, kwargs)
        concrete = self._graphs.get(key, _NOT_TRACED)
        if concrete is _NOT_TRACED:
            outputs = self._trace(key, tensors, names, bound)
            if self._tracing_count == 1 and self._graphs[key].graph.created_variables:
                # As TF: a function that creates variables on its first call is traced twice,
                # once to create them and once more without (the graph it then runs). The
                # second trace is dry: it changes no variable and draws no random number.
                with _unchanged():
                    self._trace(*self._signature(args, kwargs), dry=True)
            return outputs
        if not concrete.graph.replayable:
            return self._run_unreplayable(concrete.graph, args, kwargs)
        return concrete._call_flat(tensors)

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
        scratch = Graph(self.__name__)
        scratch.kernel_scope = graph.kernel_scope
        saved = STATE.tracer
        STATE.tracer = scratch
        try:
            scratch.set_outputs(self._python()(*args, **kwargs))
            return scratch.traced_outputs()
        finally:
            STATE.tracer = saved

    def _trace(self, key, tensors, names, bound, dry=False):
        """Run the Python function once with a Graph listening; return what it returned.
        `dry`: put every variable back afterwards (for `get_concrete_function`)."""
        graph = Graph(self.__name__)
        graph.autograph = self._autograph
        # (the random ops of every trace for this signature draw from the same kernels: the
        # graph that is replayed continues the streams its first, variable-making trace began)
        graph.kernel_scope = (id(self), key)
        stand_ins = iter([graph.add_input(t, n) for t, n in zip(tensors, names)])
        for name, value in bound.arguments.items():
            bound.arguments[name] = _substitute(value, stand_ins)
        saved_tapes, saved_tracer = STATE.tapes, STATE.tracer
        STATE.tracer = graph
        if dry:
            STATE.tapes = []  # a trace that changes nothing records nothing either
        try:
            result = self._python()(*bound.args, **bound.kwargs)
            graph.set_outputs(result)
            outputs = graph.structured_outputs = graph.traced_outputs()
        finally:
            STATE.tracer, STATE.tapes = saved_tracer, saved_tapes
            graph.finish(undo_assignments=dry)
        if self._tracing_count and graph.created_variables:
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
                self.__name__,
            )
        self._tracing_count += 1
        self._graphs[key] = ConcreteFunction(graph, self, key)
        return outputs

    def get_concrete_function(self, *args, **kwargs):
        """The graph for these arguments (traced now if needed, without changing any
        variable). `print(f.get_concrete_function(x).graph)` lists its ops."""
        key, tensors, names, bound = self._signature(args, kwargs)
        if key not in self._graphs:
            self._trace(key, tensors, names, bound, dry=True)
        return self._graphs[key]

    def experimental_get_tracing_count(self):
        """How many times the Python code was traced (once per new signature)."""
        return self._tracing_count

    def __repr__(self):
        return f"<minitape.function {self.__name__}>"


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
    TypeError. `autograph=False` traces the Python code as it is written, without converting
    its `if`/`while`/`for` on tensors (see `autograph.py`). `jit_compile`,
    `reduce_retracing` are accepted and ignored; minitape always traces once per exact
    signature."""
    if input_signature is not None:
        input_signature = _check_signature(input_signature)
    if func is None:
        return functools.partial(Function, input_signature=input_signature, autograph=autograph)
    return Function(func, input_signature, autograph)
