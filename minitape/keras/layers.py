"""Layers: objects that own variables and map inputs to outputs.

A layer creates its variables the first time it is called, because only then does it know
its input's size: `Dense(4)` can follow a 3-feature or a 300-feature input. That first call
runs `build(input_shape)`, then every call runs `call(inputs)`.

A layer finds its variables by looking at its own attributes: a `Variable` stored on it is
its own, a `Layer` stored on it (or in a list/tuple/dict attribute) contributes its
variables too. That is all `trainable_variables` does, for a Dense layer as for a whole
model written as a `Model` subclass.
"""

import functools
import inspect
import re

from .. import nest
from ..function import init_scope
from ..ops import cast, matmul
from ..tensor import Tensor, TensorShape, Variable, convert_to_tensor, is_tensor
from . import activations, initializers
from .dtype_policies import policy_dtype
from .variables import Variable as KerasVariable

__all__ = ["Layer", "Dense", "Conv2D"]

_name_counts = {}
_scope = []  # the names of the layers being called or built, outermost first (Keras' name scope)


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


@functools.lru_cache(maxsize=None)
def _accepts(fn, arg):
    """Does `fn` take a keyword argument named `arg` (or **kwargs)?"""
    params = inspect.signature(fn).parameters
    return arg in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


class Layer:
    """The base class: variables found in attributes, lazy `build`, `__call__` -> `call`."""

    def __init__(
        self, trainable=True, name=None, dtype=None, input_shape=None, input_dim=None, **kwargs
    ):
        if kwargs:
            raise ValueError(
                f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}"
            )
        self.name = name or _unique_name(type(self))
        self.trainable = trainable
        self.dtype = policy_dtype(dtype).name
        self.built = False
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
        for leaf in nest.flatten(inputs):  # Keras 3 refuses Python numbers and strings
            if isinstance(leaf, (bool, int, float, complex, str, bytes)):
                raise ValueError(
                    "Only input tensors may be passed as positional arguments. The following "
                    f"argument value should be passed as a keyword argument: {leaf} "
                    f"(of type {type(leaf)})"
                )
        inputs = nest.map_structure(self._as_input, inputs)
        self._check_input(inputs)
        _scope.append(self.name)  # variables built in here are named under this layer
        try:
            if not self.built:
                with init_scope():  # variables are created once, outside any trace or tape
                    self.build(
                        nest.map_structure(lambda t: t.shape if is_tensor(t) else None, inputs)
                    )
                self.built = True
            if "training" in kwargs and not _accepts(type(self).call, "training"):
                del kwargs["training"]  # a layer that behaves the same either way ignores it
            return self.call(inputs, *args, **kwargs)
        finally:
            _scope.pop()

    @property
    def _input_dtype(self):
        """The dtype floating inputs are cast to (Keras 3's `input_dtype`)."""
        return self.dtype

    def _as_input(self, x):
        """numpy data becomes a tensor; floating inputs are cast to the layer's input dtype."""
        if x is None or isinstance(x, (bool, str)):
            return x
        t = x if isinstance(x, Tensor) else convert_to_tensor(x)
        dtype = self._input_dtype
        return cast(t, dtype) if t.dtype.is_floating and t.dtype != dtype else t

    # -- the variables -------------------------------------------------------------------
    def add_weight(self, shape=None, initializer=None, dtype=None, trainable=True, name=None):
        """A new Keras variable of this layer, named `name` with the layers being built as
        its `path` ('dense/kernel'); `initializer` by name or object (Glorot uniform by
        default, as Keras 3's for floats)."""
        shape = () if shape is None else tuple(shape)
        init = initializers.get("glorot_uniform" if initializer is None else initializer)
        name = name or "variable"
        return KerasVariable(
            init,
            shape,
            dtype=dtype or self.dtype,
            trainable=trainable,
            name=name,
            path=_variable_path(self, name),
        )

    def _tracked(self):
        """The variables and the sub-layers stored in this layer's attributes, in order."""
        variables, layers = [], []

        def visit(x):
            if isinstance(x, (KerasVariable, Variable)):
                variables.append(x)
            elif isinstance(x, Layer):
                layers.append(x)
            elif isinstance(x, (list, tuple)):
                for item in x:
                    visit(item)
            elif isinstance(x, dict):
                for item in x.values():
                    visit(item)

        for value in vars(self).values():
            visit(value)
        return variables, layers

    def _walk(self, seen):
        """(variable, is it trainable here?) for own variables first, then sub-layers'."""
        if id(self) in seen:
            return
        seen.add(id(self))
        variables, layers = self._tracked()
        for v in variables:
            yield v, self.trainable and v.trainable
        for layer in layers:
            for v, trainable in layer._walk(seen):
                yield v, self.trainable and trainable

    def _weights(self, trainable):
        found = {}
        for v, t in self._walk(set()):
            if t == trainable and id(v) not in found:
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
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

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

    def __repr__(self):
        module = type(self).__module__.replace("minitape.", "tf.")
        return f"<{module}.{type(self).__name__} name={self.name!r}>"


def _kernel_and_bias(layer, activation, use_bias, kernel_initializer, bias_initializer):
    """The options Dense and Conv2D share: an activation, whether there is a bias, how the
    kernel and the bias start (both made by `build`)."""
    layer.activation = activations.get(activation)
    layer.use_bias = use_bias
    layer.kernel_initializer = initializers.get(kernel_initializer)
    layer.bias_initializer = initializers.get(bias_initializer)
    layer.kernel = None
    layer.bias = None


class Dense(Layer):
    """A fully connected layer: `activation(inputs @ kernel + bias)`.

    `kernel` has shape (input features, units) and starts Glorot-uniform; `bias` has shape
    (units,) and starts at zero. Both are created on the first call."""

    def __init__(
        self,
        units,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        **kwargs,
    ):
        super().__init__(**kwargs)
        if not isinstance(units, int) or units <= 0:  # (Keras takes True: it is 1)
            raise ValueError(
                f"Received an invalid value for `units`, expected a positive "
                f"integer. Received: units={units}"
            )
        self.units = units
        _kernel_and_bias(self, activation, use_bias, kernel_initializer, bias_initializer)

    def _check_input(self, inputs):
        if not is_tensor(inputs):  # (None, a string, a dict: Keras' words)
            raise ValueError(
                f"Inputs to a layer should be tensors. Got '{inputs!r}' (of type "
                f"{type(inputs)}) as input for layer '{self.name}'."
            )
        shape = inputs.shape
        if len(shape) < 2:
            raise ValueError(
                f'Input 0 of layer "{self.name}" is incompatible with the layer: '
                f"expected min_ndim=2, found ndim={len(shape)}. Full shape received: "
                f"{tuple(shape)}. (A batch of examples has shape (batch, features); "
                f"a single example x can be given as x[None, :].)"
            )
        if self.built and shape[-1] != self.kernel.shape[0]:
            raise ValueError(
                f'Input 0 of layer "{self.name}" is incompatible with the layer: '
                f"expected axis -1 of input shape to have value "
                f"{self.kernel.shape[0]}, but received input with shape {tuple(shape)}"
            )

    def build(self, input_shape):
        in_features = TensorShape(input_shape)[-1]
        self.kernel = self.add_weight(
            (in_features, int(self.units)), self.kernel_initializer, name="kernel"
        )
        if self.use_bias:
            self.bias = self.add_weight((int(self.units),), self.bias_initializer, name="bias")
        self.built = True

    def call(self, inputs):
        outputs = matmul(cast(inputs, self.dtype), self.kernel)
        if self.use_bias:
            outputs = outputs + self.bias
        return self.activation(outputs)


class Conv2D(Layer):
    """A 2-D convolution layer on NHWC inputs: `activation(conv2d(inputs, kernel) + bias)`.

    `kernel` has shape (kernel height, kernel width, input channels, filters) and starts
    Glorot-uniform; `bias` has shape (filters,) and starts at zero. `padding` is "valid" (only
    full windows) or "same" (zeros around: ceil(size / stride) positions)."""

    def __init__(
        self,
        filters,
        kernel_size,
        strides=(1, 1),
        padding="valid",
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        **kwargs,
    ):
        super().__init__(**kwargs)
        if not isinstance(filters, int) or filters <= 0:
            raise ValueError(
                "Invalid value for argument `filters`. Expected a strictly positive value. "
                f"Received filters={filters}."
            )
        self.filters = filters
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.strides = _pair(strides, "strides")
        if str(padding).lower() not in ("valid", "same"):
            raise ValueError(
                "The `padding` argument must be a list/tuple or one of "
                f"['valid', 'same', 'causal']. Received: {padding}"
            )
        self.padding = str(padding).lower()
        _kernel_and_bias(self, activation, use_bias, kernel_initializer, bias_initializer)

    def build(self, input_shape):
        shape = TensorShape(input_shape)
        if len(shape) != 4:
            raise ValueError(
                f'Input 0 of layer "{self.name}" is incompatible with the layer: expected '
                f"ndim=4, found ndim={len(shape)}. Full shape received: {tuple(shape)}"
            )
        self.kernel = self.add_weight(
            self.kernel_size + (shape[-1], self.filters), self.kernel_initializer, name="kernel"
        )
        if self.use_bias:
            self.bias = self.add_weight((self.filters,), self.bias_initializer, name="bias")
        self.built = True

    def call(self, inputs):
        from ..nn_ops import conv2d

        outputs = conv2d(cast(inputs, self.dtype), self.kernel, self.strides, self.padding.upper())
        if self.use_bias:
            outputs = outputs + self.bias
        return self.activation(outputs)


def _pair(value, what):
    """An int or a pair of ints, as Keras takes `kernel_size` and `strides`: a pair."""
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, int) and v > 0 for v in pair):
        raise ValueError(
            f"The `{what}` argument must be a tuple of 2 integers. Received {what}={value}"
        )
    return pair
