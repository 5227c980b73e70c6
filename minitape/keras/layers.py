"""`tf.keras.layers`: Dense, Conv2D and Conv2DTranspose here, the other layers in the files
that say what they hold, and `Layer` (base_layer.py) to write your own.

* layers_core.py: Flatten, Reshape, Dropout, ReLU, LeakyReLU, Activation, Concatenate, Add,
  Embedding, GlobalAveragePooling2D, Lambda;
* layers_norm.py: BatchNormalization, LayerNormalization;
* layers_pool.py: MaxPooling2D, AveragePooling2D, GlobalMaxPooling2D;
* layers_image.py: UpSampling2D, ZeroPadding2D, Cropping2D;
* input_layer.py: Input and InputLayer.
"""

from ..nn_impl import bias_add
from ..nn_ops import conv2d, conv2d_transpose
from ..ops import cast, matmul
from ..tensor import TensorShape, is_tensor
from . import activations, initializers, regularizers
from .base_layer import Layer, _unique_name  # noqa: F401  (_unique_name: metrics, losses)
from .input_layer import Input, InputLayer  # noqa: F401
from .layers_core import (  # noqa: F401
    Activation,
    Add,
    Concatenate,
    Dropout,
    Embedding,
    Flatten,
    GlobalAveragePooling2D,
    Lambda,
    LeakyReLU,
    ReLU,
    Rescaling,
    Reshape,
    Softmax,
)
from .layers_image import Cropping2D, UpSampling2D, ZeroPadding2D  # noqa: F401
from .layers_norm import BatchNormalization, LayerNormalization  # noqa: F401
from .layers_pool import AveragePooling2D, GlobalMaxPooling2D, MaxPooling2D  # noqa: F401

__all__ = [
    "Layer",
    "Input",
    "InputLayer",
    "Dense",
    "Conv2D",
    "Conv2DTranspose",
    "Activation",
    "Add",
    "AveragePooling2D",
    "GlobalMaxPooling2D",
    "MaxPooling2D",
    "BatchNormalization",
    "Concatenate",
    "Dropout",
    "Embedding",
    "Flatten",
    "GlobalAveragePooling2D",
    "Lambda",
    "LayerNormalization",
    "LeakyReLU",
    "ReLU",
    "Reshape",
    "Rescaling",
    "Softmax",
    "Cropping2D",
    "UpSampling2D",
    "ZeroPadding2D",
]


def _kernel_and_bias(
    layer,
    activation,
    use_bias,
    kernel_initializer,
    bias_initializer,
    kernel_regularizer=None,
    bias_regularizer=None,
):
    """The options Dense and Conv2D share: an activation, whether there is a bias, how the
    kernel and the bias start (both made by `build`) and what penalizes them."""
    layer.activation = activations.get(activation)
    layer.kernel_regularizer = regularizers.get(kernel_regularizer)
    layer.bias_regularizer = regularizers.get(bias_regularizer)
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
        kernel_regularizer=None,
        bias_regularizer=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        if not isinstance(units, int) or units <= 0:  # (Keras takes True: it is 1)
            raise ValueError(
                f"Received an invalid value for `units`, expected a positive "
                f"integer. Received: units={units}"
            )
        self.units = units
        _kernel_and_bias(
            self,
            activation,
            use_bias,
            kernel_initializer,
            bias_initializer,
            kernel_regularizer,
            bias_regularizer,
        )

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
            (in_features, int(self.units)),
            self.kernel_initializer,
            name="kernel",
            regularizer=self.kernel_regularizer,
        )
        if self.use_bias:
            self.bias = self.add_weight(
                (int(self.units),),
                self.bias_initializer,
                name="bias",
                regularizer=self.bias_regularizer,
            )
        self.built = True

    def call(self, inputs):
        outputs = matmul(cast(inputs, self.compute_dtype), self.kernel)
        if self.use_bias:
            outputs = _add_bias(outputs, self.bias)
        return self.activation(outputs)


class Conv2D(Layer):
    """A 2-D convolution layer: `activation(conv2d(inputs, kernel) + bias)`.

    `kernel` has shape (kernel height, kernel width, input channels / groups, filters) and
    starts Glorot-uniform; `bias` has shape (filters,) and starts at zero. `padding` is
    "valid" (only full windows) or "same" (zeros around: ceil(size / stride) positions).
    `data_format` "channels_last" (NHWC, the default) or "channels_first" (NCHW);
    `dilation_rate` spreads the kernel's taps apart (not with strides > 1, as in Keras);
    `groups` splits the channels into groups convolved apart."""

    def __init__(
        self,
        filters,
        kernel_size,
        strides=(1, 1),
        padding="valid",
        data_format=None,
        dilation_rate=(1, 1),
        groups=1,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
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
        self.dilation_rate = _pair(dilation_rate, "dilation_rate")
        if str(padding).lower() not in ("valid", "same"):
            raise ValueError(
                "The `padding` argument must be a list/tuple or one of "
                f"['valid', 'same', 'causal']. Received: {padding}"
            )
        self.padding = str(padding).lower()
        self.data_format = "channels_last" if data_format is None else str(data_format).lower()
        if self.data_format not in ("channels_first", "channels_last"):
            raise ValueError(
                "The `data_format` argument must be one of {'channels_first', "
                f"'channels_last'}}. Received: data_format={self.data_format}"
            )
        self.groups = groups
        if not isinstance(groups, int) or groups <= 0:
            raise ValueError(
                f"The number of groups must be a positive integer. Received: groups={groups}."
            )
        if filters % groups:
            raise ValueError(
                "The number of filters must be evenly divisible by the number of groups. "
                f"Received: groups={groups}, filters={filters}."
            )
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(
                "`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                f"Received: strides={self.strides} and dilation_rate={self.dilation_rate}"
            )
        _kernel_and_bias(
            self,
            activation,
            use_bias,
            kernel_initializer,
            bias_initializer,
            kernel_regularizer,
            bias_regularizer,
        )

    def _kernel_shape(self, channels):
        return self.kernel_size + (channels, self.filters)

    def build(self, input_shape):
        shape = TensorShape(input_shape)
        if len(shape) != 4:
            raise ValueError(
                f'Input 0 of layer "{self.name}" is incompatible with the layer: expected '
                f"ndim=4, found ndim={len(shape)}. Full shape received: {tuple(shape)}"
            )
        channels = shape[1] if self.data_format == "channels_first" else shape[-1]
        if channels % self.groups:
            raise ValueError(
                "The number of input channels must be evenly divisible by the number of "
                f"groups. Received groups={self.groups}, but the input has {channels} "
                f"channels (full input shape is {tuple(shape)})."
            )
        self.kernel = self.add_weight(
            self._kernel_shape(channels // self.groups),
            self.kernel_initializer,
            name="kernel",
            regularizer=self.kernel_regularizer,
        )
        if self.use_bias:
            self.bias = self.add_weight(
                (self.filters,),
                self.bias_initializer,
                name="bias",
                regularizer=self.bias_regularizer,
            )
        self.built = True

    def call(self, inputs):
        first = self.data_format == "channels_first"
        outputs = conv2d(
            cast(inputs, self.compute_dtype),
            self.kernel,
            self.strides,
            self.padding.upper(),
            "NCHW" if first else "NHWC",
            self.dilation_rate,
        )
        if self.use_bias:
            outputs = _add_bias(outputs, self.bias, "NCHW" if first else "NHWC")
        return self.activation(outputs)


class Conv2DTranspose(Conv2D):
    """The transpose of a convolution: each input position spreads through the kernel onto a
    `strides`-times larger output ("same": size * stride; "valid": (size - 1) * stride +
    max(kernel, stride)), as in a GAN's generator. `kernel` has shape (kernel height, kernel
    width, filters, input channels)."""

    def _kernel_shape(self, channels):
        return self.kernel_size + (self.filters, channels)

    def call(self, inputs):
        if (self.data_format, self.dilation_rate, self.groups) != ("channels_last", (1, 1), 1):
            raise NotImplementedError(
                "minitape's Conv2DTranspose takes channels_last inputs, with no dilation_rate "
                "and one group"
            )
        n, h, w, _ = inputs.shape
        sizes = []
        for size, k, s in zip((h, w), self.kernel_size, self.strides):
            sizes.append(size * s if self.padding == "same" else (size - 1) * s + max(k, s))
        outputs = conv2d_transpose(
            cast(inputs, self.compute_dtype),
            self.kernel,
            (n, *sizes, self.filters),
            self.strides,
            self.padding.upper(),
        )
        if self.use_bias:
            outputs = _add_bias(outputs, self.bias)
        return self.activation(outputs)


def _add_bias(outputs, bias, data_format="NHWC"):
    """Keras 3's add of a layer's bias: `tf.nn.bias_add` for a bias of several values, a plain
    broadcast add for a bias of one (the gradients differ in float16: BiasAddGrad adds up in
    float32, the add's gradient in float16)."""
    if bias.shape[0] == 1:
        return outputs + bias  # (one value broadcasts over any layout)
    return bias_add(outputs, bias, data_format)


def _pair(value, what):
    """An int or a pair of ints, as Keras takes `kernel_size`, `strides` and `dilation_rate`:
    a pair."""
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, int) and v > 0 for v in pair):
        raise ValueError(
            f"The `{what}` argument must be a tuple of 2 integers. Received {what}={value}"
        )
    return pair
