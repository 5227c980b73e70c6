"""The layers without a kernel the tutorials use, each as Keras 3 computes it.

* shapes: Flatten, Reshape;
* activations as layers: ReLU, LeakyReLU, Softmax, Activation; Rescaling;
* Dropout (random, only when called with `training=True`);
* merging several inputs: Concatenate, Add;
* Embedding (a table of vectors looked up by index), GlobalAveragePooling2D, Lambda.
"""

import math
import warnings

from ..array_ops import gather, transpose
from ..dtypes import int32, int64
from ..ops import add, cast, concat, reduce_mean, reshape, shape, where
from ..tensor import is_tensor
from . import activations, initializers
from .base_layer import Layer
from .random import SeedGenerator, dropout

__all__ = [
    "Flatten",
    "Reshape",
    "ReLU",
    "LeakyReLU",
    "Activation",
    "Softmax",
    "Rescaling",
    "Dropout",
    "Concatenate",
    "Add",
    "Embedding",
    "GlobalAveragePooling2D",
    "Lambda",
]


class Flatten(Layer):
    """(batch, d1, d2, ...) -> (batch, d1 * d2 * ...): an image becomes a vector."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"

    def call(self, inputs):
        dims = list(inputs.shape)
        if self.data_format == "channels_first" and len(dims) > 1:
            inputs = transpose(inputs, (0, *range(2, len(dims)), 1))
        return reshape(inputs, (_batch_size(inputs), math.prod(dims[1:]) if dims[1:] else 1))


class Reshape(Layer):
    """(batch, ...) -> (batch,) + target_shape (one size may be -1: what is left)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        target_shape = tuple(target_shape)
        if sum(1 for d in target_shape if d == -1) > 1 or any(
            not isinstance(d, int) or d == 0 or d < -1 for d in target_shape
        ):
            raise ValueError(
                "There must be at most one unknown dimension (-1) in target_shape. "
                f"Received: target_shape={target_shape}."
            )
        self.target_shape = target_shape
        self.built = True

    def call(self, inputs):
        return reshape(inputs, (_batch_size(inputs),) + self.target_shape)


def _batch_size(inputs):
    """The batch size, as a number where the shape knows it (Keras writes ops.shape(x)[0]; a
    number keeps a traced function's replay free of a value read in Python), else a tensor."""
    known = inputs.shape[0]
    return known if known is not None else shape(inputs)[0]


class ReLU(Layer):
    """max(x, 0), with Keras' options: a slope below `threshold`, a cap at `max_value`."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError(
                "max_value of a ReLU layer cannot be a negative "
                f"value. Received: max_value={max_value}"
            )
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError(
                "negative_slope of a ReLU layer cannot be None or a "
                f"negative value. Received: negative_slope={negative_slope}"
            )
        if threshold is None or threshold < 0.0:
            raise ValueError(
                "threshold of a ReLU layer cannot be None or a "
                f"negative value. Received: threshold={threshold}"
            )
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold
        self.built = True

    def call(self, inputs):
        return activations.relu(
            inputs,
            negative_slope=self.negative_slope,
            max_value=self.max_value,
            threshold=self.threshold,
        )


class LeakyReLU(Layer):
    """x where x > 0, negative_slope * x elsewhere (Keras 3's default slope is 0.3)."""

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
            warnings.warn(
                "Argument `alpha` is deprecated. Use `negative_slope` instead.", stacklevel=2
            )
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError(
                "The negative_slope value of a Leaky ReLU layer "
                "cannot be None or negative value. Expected a float."
                f" Received: negative_slope={negative_slope}"
            )
        self.negative_slope = negative_slope
        self.built = True

    def call(self, inputs):
        return activations.leaky_relu(inputs, negative_slope=self.negative_slope)


class Softmax(Layer):
    """exp(x) / sum(exp(x)) along `axis` (the last by default)."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis
        self.built = True

    def call(self, inputs):
        return activations.softmax(inputs, axis=self.axis)


class Rescaling(Layer):
    """`inputs * scale + offset` in the layer's dtype: pixels 0..255 to 0..1 with 1 / 255."""

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset
        self.built = True

    def _as_input(self, x):  # (integer pixels are cast in call, not refused)
        return x if x is None or is_tensor(x) else super()._as_input(x)

    def call(self, inputs):
        scale, offset = cast(self.scale, self.compute_dtype), cast(self.offset, self.compute_dtype)
        return cast(inputs, self.compute_dtype) * scale + offset


class Activation(Layer):
    """An activation function (by name or callable) as a layer."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)
        self.built = True

    def call(self, inputs):
        return self.activation(inputs)


class Dropout(Layer):
    """With `training=True`, zero each unit with probability `rate` and scale the others by
    1 / (1 - rate); otherwise pass the input through. The draws come from the layer's own
    SeedGenerator: seeded by `seed`, or by Python's `random` when the layer is made, so
    `keras.utils.set_random_seed(s)` repeats TF's masks."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(
                "Invalid value received for argument `rate`. Expected a float value between "
                f"0 and 1. Received: rate={rate}"
            )
        self.rate, self.seed = rate, seed
        self.noise_shape = None if noise_shape is None else tuple(noise_shape)
        if rate > 0:
            self.seed_generator = SeedGenerator(seed)
        self.built = True

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            return dropout(inputs, self.rate, self.noise_shape, seed=self.seed_generator)
        return inputs


def _inputs_list(inputs):
    if not isinstance(inputs, (list, tuple)):
        raise ValueError(
            f"A merge layer should be called on a list of inputs. Received: inputs={inputs} "
            "(not a list of tensors)"
        )
    return list(inputs)


class Concatenate(Layer):
    """The inputs (a list) joined along `axis` (the last by default)."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        return concat(_inputs_list(inputs), axis=self.axis)


class Add(Layer):
    """The sum of the inputs (a list of tensors of one shape, or broadcastable)."""

    def call(self, inputs):
        inputs = _inputs_list(inputs)
        output = inputs[0]
        for x in inputs[1:]:
            output = add(output, x)
        return output


class Embedding(Layer):
    """A table of `input_dim` vectors of size `output_dim` (`embeddings`, starting uniform on
    [-0.05, 0.05]); an integer input of shape S gives the vectors it names, shape S +
    (output_dim,). A negative index counts from the end, as in Keras."""

    def __init__(
        self,
        input_dim,
        output_dim,
        embeddings_initializer="uniform",
        embeddings_regularizer=None,
        embeddings_constraint=None,
        mask_zero=False,
        **kwargs,
    ):
        for name, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(
                    f"`{name}` must be a positive integer. Received: {name}={value} "
                    f"(of type {type(value).__name__})."
                )
        if kwargs.pop("input_length", None) is not None:
            warnings.warn("Argument `input_length` is deprecated. Just remove it.", stacklevel=2)
        super().__init__(**kwargs)
        self.autocast = False  # (Keras 3: the indices are not cast; the output is)
        self.input_dim, self.output_dim = input_dim, output_dim
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = embeddings_regularizer
        self.embeddings_constraint = embeddings_constraint
        self.mask_zero = mask_zero
        self.embeddings = None

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(
            (self.input_dim, self.output_dim),
            self.embeddings_initializer,
            name="embeddings",
            regularizer=self.embeddings_regularizer,
            constraint=self.embeddings_constraint,
        )
        self.built = True

    def _as_input(self, x):  # (indices are not cast to the layer's float dtype)
        return x if x is None or is_tensor(x) else super()._as_input(x)

    def call(self, inputs):
        if inputs.dtype not in (int32, int64):
            inputs = cast(inputs, int32)
        inputs = where(inputs < 0, inputs + cast(self.input_dim, inputs.dtype), inputs)
        return cast(gather(self.embeddings, inputs, axis=0), self.compute_dtype)


class GlobalAveragePooling2D(Layer):
    """(batch, height, width, channels) -> (batch, channels): each channel's mean."""

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        self.keepdims = keepdims

    def call(self, inputs):
        axes = [1, 2] if self.data_format == "channels_last" else [2, 3]
        if inputs.dtype.is_floating and inputs.dtype.size < 4:  # (Keras' mean: in float32)
            mean = reduce_mean(cast(inputs, "float32"), axis=axes, keepdims=self.keepdims)
            return cast(mean, inputs.dtype)
        return reduce_mean(inputs, axis=axes, keepdims=self.keepdims)


class Lambda(Layer):
    """Any function of the inputs as a layer (its variables are not tracked, as in Keras)."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = arguments or {}
        self.built = True

    def call(self, inputs):
        return self.function(inputs, **self.arguments)
