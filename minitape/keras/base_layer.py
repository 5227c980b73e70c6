"""`Layer`: an object that owns variables and maps inputs to outputs.

A layer creates its variables the first time it is called, because only then does it know
its input's size: `Dense(4)` can follow a 3-feature or a 300-feature input. That first call
runs `build(input_shape)`, then every call runs `call(inputs)`.

A layer finds its variables by looking at its own attributes: a `Variable` stored on it is
its own, a `Layer` stored on it (or in a list/tuple/dict attribute) contributes its
variables too. That is all `trainable_variables` does, for a Dense layer as for a whole
model written as a `Model` subclass.

What a call passes on, as Keras 3 does:

* `training`: given to a layer's `call` when it takes it; a layer called without it inherits
  the value of the outermost call that set it (so `model(x, training=True)` reaches the
  Dropout inside a subclassed model's `call` even when that call does not pass it on);
* losses: the outermost call clears the losses each layer added with `add_loss` (and its
  `activity_regularizer`), so `model.losses` holds those of the last call, plus one loss per
  regularized weight, computed when it is read;
* dtypes: a layer's dtype policy (dtype_policies.py) says what it computes in. Its floating
  inputs are cast to that `compute_dtype`; under a mixed policy ('mixed_float16') its weights
  stay float32 (`variable_dtype`, which `layer.dtype` names) and `call` runs in an autocast
  scope (variables.py), which reads them as float16. A layer given `dtype="float32"` inside a
  mixed model computes in float32, as the softmax at the end of a mixed model should.
"""

import contextlib
import functools
import inspect
import re

from .. import nest
from ..function import init_scope
from ..ops import cast, divide_no_nan
from ..tensor import Tensor, Variable, convert_to_tensor, is_tensor
from . import initializers, regularizers
from .dtype_policies import policy_of
from .keras_tensor import KerasTensor, symbolic_call
from .random import SeedGenerator
from .variables import _AUTOCAST, autocast_scope
from .variables import Variable as KerasVariable

__all__ = ["Layer"]

_name_counts = {}
_scope = []  # the names of the layers being called or built, outermost first (Keras' name scope)
_context = []  # the outermost call's {"training": ...}, shared by the layers it calls


def _unique_name(cls):
    """'dense', then 'dense_1', 'dense_2', ... (snake_case of the class name, as Keras)."""
    base = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", cls.__name__)
    base = re.sub("([a-z])([A-Z])", r"\1_\2", base).lower()
    n = _name_counts.get(base, 0)
    _name_counts[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


def _variable_path(layer, name):
    """'outer/.../layer/name': the layers being called when `layer` builds its variables."""
    scope = _scope if _scope and _scope[-1] == layer.name else _scope + [layer.name]
    return "/".join(scope + [name])


@contextlib.contextmanager
def name_scope(layer):
    """Name the variables built in here under `layer` ('model/dense/kernel')."""
    _scope.append(layer.name)
    try:
        yield
    finally:
        _scope.pop()


@functools.lru_cache(maxsize=None)
def _accepts(fn, arg):
    """Does `fn` take a keyword argument named `arg` (or **kwargs)?"""
    params = inspect.signature(fn).parameters
    return arg in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


class Layer:
    """The base class: variables found in attributes, lazy `build`, `__call__` -> `call`."""

    def __init__(
        self,
        trainable=True,
        name=None,
        dtype=None,
        input_shape=None,
        input_dim=None,
        activity_regularizer=None,
        autocast=True,
        **kwargs,
    ):
        if name is None:
            name = _unique_name(type(self))
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                "Argument `name` must be a string and cannot contain character `/`. "
                f"Received: name={name} (of type {type(name)})"
            )
        if kwargs:
            raise ValueError(
                f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}"
            )
        if not isinstance(trainable, bool):
            raise ValueError(
                "Expected `trainable` to be a boolean. "
                f"Received: trainable={trainable} (of type {type(trainable)})"
            )
        self.name = name
        self._trainable = trainable
        self._dtype_policy = policy_of(dtype)
        self.autocast = autocast
        self.built = False
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self._losses = []
        self._inbound_nodes = []  # its calls on KerasTensors (keras_tensor.py)
        self._built_output = None  # its output shapes when it was built ('(1, 2)')
        if input_dim is not None:
            input_shape = (input_dim,)
        # Only used by Sequential, to build the model as soon as it is created.
        self._batch_input_shape = None if input_shape is None else (None,) + tuple(input_shape)

    # -- what a subclass writes ----------------------------------------------------------
    def build(self, input_shape):
        """Create the variables, now that the input shape is known."""
        self.built = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def _check_input(self, inputs):
        """Raise a clear error if `inputs` cannot go through this layer (see Dense)."""

    # -- calling -------------------------------------------------------------------------
    def __call__(self, inputs, *args, **kwargs):
        if any(isinstance(t, KerasTensor) for t in nest.flatten((inputs, args, kwargs))):
            return symbolic_call(self, inputs, args, kwargs)  # (keras.Input: the functional API)
        for leaf in nest.flatten(inputs):  # Keras 3 refuses Python numbers and strings
            if isinstance(leaf, (bool, int, float, complex, str, bytes)):
                raise ValueError(
                    "Only input tensors may be passed as positional arguments. The following "
                    f"argument value should be passed as a keyword argument: {leaf} "
                    f"(of type {type(leaf)})"
                )
        inputs = nest.map_structure(self._as_input, inputs)
        self._check_input(inputs)
        outermost = not _context
        if outermost:
            _context.append({})
            self._clear_losses()
        _scope.append(self.name)  # variables built in here are named under this layer
        try:
            building = not self.built
            if building:
                with init_scope():  # variables are created once, outside any trace or tape
                    self.build(
                        nest.map_structure(lambda t: t.shape if is_tensor(t) else None, inputs)
                    )
                self.built = True
            self._resolve_training(kwargs)
            autocast = self._autocast_dtype()
            if autocast == _AUTOCAST[-1]:
                outputs = self.call(inputs, *args, **kwargs)
            else:
                with autocast_scope(autocast):
                    outputs = self.call(inputs, *args, **kwargs)
            if building:
                self._built_output = nest.map_structure(
                    lambda t: "(" + ", ".join(map(str, t.shape)) + ")" if is_tensor(t) else None,
                    outputs,
                )
            if self.activity_regularizer is not None:
                for output in nest.flatten(outputs):
                    if is_tensor(output):
                        self.add_loss(self._activity_loss(output))
            return outputs
        finally:
            _scope.pop()
            if outermost:
                _context.pop()

    def _autocast_dtype(self):
        """The dtype variables are read in during `call`, as Keras 3 decides it: a mixed
        layer's compute dtype; inside a mixed layer, this layer's compute dtype (none if it
        does not autocast)."""
        policy = self._dtype_policy
        if _AUTOCAST[-1] is not None:
            compute = policy.compute_dtype
            return compute if self.autocast and compute.startswith("float") else None
        return policy.compute_dtype if policy.compute_dtype != policy.variable_dtype else None

    def _resolve_training(self, kwargs):
        """`training` as Keras 3 sets it: given here (and then for the layers called after),
        or else the outer call's; passed only to a `call` that takes it."""
        context = _context[-1]
        if "training" in kwargs:
            context["training"] = kwargs["training"]
            value = kwargs["training"]
        else:
            value = context.get("training")
        takes = _accepts(type(self).call, "training")
        if not takes:
            kwargs.pop("training", None)  # a layer that behaves the same either way ignores it
        elif value is not None:
            kwargs["training"] = value

    def _activity_loss(self, output):
        """Keras 3 divides an activity regularizer's loss by the batch size."""
        loss = self.activity_regularizer(output)
        if len(output.shape) > 0:
            loss = divide_no_nan(loss, cast(output.shape[0], loss.dtype))
        return loss

    @property
    def _input_dtype(self):
        """The dtype floating inputs are cast to (Keras 3's `input_dtype`)."""
        return self.compute_dtype

    def _as_input(self, x):
        """numpy data becomes a tensor; floating inputs are cast to the layer's input dtype
        (unless it was made with autocast=False)."""
        if x is None or isinstance(x, (bool, str)):
            return x
        t = x if isinstance(x, Tensor) else convert_to_tensor(x)
        dtype = self._input_dtype
        if dtype is not None and self.autocast and t.dtype.is_floating and t.dtype != dtype:
            return cast(t, dtype)
        return t

    # -- trainable -----------------------------------------------------------------------
    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        """Setting it sets it on every sub-layer too (a frozen BatchNormalization then also
        stops updating its statistics, as in Keras 3)."""
        self._trainable = bool(value)
        for layer in self._tracked()[1]:
            layer.trainable = value

    # -- losses --------------------------------------------------------------------------
    def add_loss(self, loss):
        """Add a scalar loss (a tensor) from inside `call`: `model.losses` lists it."""
        for x in nest.flatten(loss):
            if not is_tensor(x):
                raise ValueError(
                    "`add_loss()` can only be called from inside `build()` or `call()`, on a "
                    f"tensor input. Received invalid value: {x}"
                )
            self._losses.append(x)

    def _clear_losses(self):
        self._losses.clear()
        for layer in self._tracked()[1]:
            layer._clear_losses()

    @property
    def losses(self):
        """The losses added in the last call (this layer's, then its sub-layers'), then each
        regularized trainable weight's penalty, computed now."""
        found = list(self._losses)
        for layer in self._sublayers():
            found.extend(layer._losses)
        for v in self.trainable_weights:
            if getattr(v, "regularizer", None) is not None:
                found.append(v.regularizer(v))
        return found

    def _sublayers(self):
        """Every layer inside this one, depth first, each once."""
        seen, out = {id(self)}, []

        def visit(layer):
            for sub in layer._tracked()[1]:
                if id(sub) not in seen:
                    seen.add(id(sub))
                    out.append(sub)
                    visit(sub)

        visit(self)
        return out

    # -- the variables -------------------------------------------------------------------
    def add_weight(
        self,
        shape=None,
        initializer=None,
        dtype=None,
        *more,
        trainable=True,
        autocast=True,
        regularizer=None,
        constraint=None,
        aggregation="none",
        overwrite_with_gradient=False,
        name=None,
    ):
        """A new Keras variable of this layer, named `name` with the layers being built as
        its `path` ('dense/kernel'); `initializer` by name or object (Glorot uniform by
        default, as Keras 3's for floats); `regularizer` adds its penalty to `losses`. The
        rest are keyword arguments, as in Keras 3."""
        if more:
            raise TypeError(
                f"add_weight() takes at most 3 positional arguments but {3 + len(more)} were given."
            )
        shape = () if shape is None else tuple(shape)
        init = initializers.get("glorot_uniform" if initializer is None else initializer)
        name = name or "variable"
        variable = KerasVariable(
            init,
            shape,
            dtype=dtype or self.variable_dtype,
            trainable=trainable,
            autocast=autocast,
            name=name,
            path=_variable_path(self, name),
        )
        variable.regularizer = regularizers.get(regularizer)
        variable.constraint = constraint
        return variable

    def _tracked(self):
        """The variables, the sub-layers and the seed generators stored in this layer's
        attributes, in order."""
        variables, layers, seeds = [], [], []

        def visit(x):
            if isinstance(x, (KerasVariable, Variable)):
                variables.append(x)
            elif isinstance(x, Layer):
                layers.append(x)
            elif isinstance(x, SeedGenerator):
                seeds.append(x)
            elif isinstance(x, (list, tuple)):
                for item in x:
                    visit(item)
            elif isinstance(x, dict):
                for item in x.values():
                    visit(item)

        for key, value in vars(self).items():
            if key not in ("_losses", "_inbound_nodes", "_built_output"):
                visit(value)
        return variables, layers, seeds

    def _walk(self, seen, with_seeds=False):
        """(variable, is it trainable here?) for own variables first (then the seed
        generators' states, if asked), then sub-layers'."""
        if id(self) in seen:
            return
        seen.add(id(self))
        variables, layers, seeds = self._tracked()
        for v in variables:
            yield v, self.trainable and v.trainable
        if with_seeds:
            for s in seeds:
                yield s.state, False
        for layer in layers:
            for v, trainable in layer._walk(seen, with_seeds):
                yield v, self.trainable and trainable

    def _weights(self, trainable=None, with_seeds=False):
        """The variables (each once, layer by layer), those trainable here or not if asked."""
        found = {}
        for v, t in self._walk(set(), with_seeds):
            if trainable in (None, t) and id(v) not in found:
                found[id(v)] = v
        return list(found.values())

    @property
    def trainable_weights(self):
        """The variables an optimizer should update: what `tape.gradient` is asked about."""
        return self._weights(True)

    @property
    def non_trainable_weights(self):
        return self._weights(False)

    @property
    def weights(self):
        """Every weight, layer by layer (a BatchNormalization's moving statistics after its
        gamma and beta, before the next layer's kernel), without the seed generators'."""
        return self._weights()

    trainable_variables = trainable_weights

    @property
    def non_trainable_variables(self):
        """The non-trainable weights and the seed generators' states (Dropout's)."""
        return self._weights(False, with_seeds=True)

    @property
    def variables(self):
        """Every variable, the seed generators' states included (`weights` leaves them)."""
        return self._weights(with_seeds=True)

    @property
    def dtype_policy(self):
        """The layer's DTypePolicy (dtype_policies.py)."""
        return self._dtype_policy

    @dtype_policy.setter
    def dtype_policy(self, value):
        self._dtype_policy = policy_of(value)

    @property
    def dtype(self):
        """The dtype of the layer's weights (Keras 3: an alias of `variable_dtype`)."""
        return self._dtype_policy.variable_dtype

    @property
    def compute_dtype(self):
        """The dtype the layer computes in: its floating inputs are cast to it."""
        return self._dtype_policy.compute_dtype

    @property
    def variable_dtype(self):
        return self._dtype_policy.variable_dtype

    def get_weights(self):
        """The weights' current values as numpy arrays."""
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights):
        """Assign numpy values to the weights, in the order `get_weights` gives them."""
        mine = self.weights
        if len(weights) != len(mine):
            raise ValueError(
                f"Layer {self.name!r} expects {len(mine)} weights, but the given "
                f"list has {len(weights)} entries."
            )
        for var, value in zip(mine, weights):
            if not hasattr(value, "shape"):  # (Keras 3 compares value.shape: an AttributeError)
                raise TypeError(
                    f"set_weights takes arrays (or tensors), one per weight; got {value!r} "
                    f"of type {type(value).__name__} for {var.name!r}"
                )
            value = convert_to_tensor(value, dtype=var.dtype)
            if value.shape != var.shape:
                raise ValueError(
                    f"Layer weight shape {tuple(var.shape)} not compatible with "
                    f"provided weight shape {tuple(value.shape)}"
                )
            var.assign(value)

    def count_params(self):
        """How many numbers the weights hold."""
        total = 0
        for w in self.weights:
            n = 1
            for d in w.shape:
                n *= int(d)
            total += n
        return total

    def __repr__(self):
        module = type(self).__module__.replace("minitape.", "tf.")
        return f"<{module}.{type(self).__name__} name={self.name!r}>"
