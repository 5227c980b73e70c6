"""Pooling layers: MaxPooling2D, AveragePooling2D and GlobalMaxPooling2D, as Keras 3 computes
them with TF's `tf.nn.max_pool2d` / `avg_pool2d` (NHWC inputs)."""

from ..nn_ops import avg_pool2d, max_pool2d
from ..ops import reduce_max
from .base_layer import Layer

__all__ = ["MaxPooling2D", "AveragePooling2D", "GlobalMaxPooling2D"]


def _pair(value, name):
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, int) and v > 0 for v in pair):
        raise ValueError(
            f"The `{name}` argument must be a tuple of 2 integers. Received {name}={value}"
        )
    return pair


class _Pooling2D(Layer):
    """A window of `pool_size` every `strides` positions (the window's size by default)."""

    _pool = None

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.pool_size = _pair(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else _pair(strides, "strides")
        if str(padding).lower() not in ("valid", "same"):
            raise ValueError(
                f"The `padding` argument must be one of 'valid', 'same'. Received: {padding}"
            )
        self.padding = str(padding).lower()
        self.data_format = data_format or "channels_last"
        self.built = True

    def call(self, inputs):
        return type(self)._pool(inputs, self.pool_size, self.strides, self.padding.upper())


class MaxPooling2D(_Pooling2D):
    """The maximum of each window: (batch, h, w, c) -> (batch, ~h / stride, ~w / stride, c)."""

    _pool = staticmethod(max_pool2d)


class AveragePooling2D(_Pooling2D):
    """The mean of each window ("same": of the positions inside the input). (Keras 3 has no
    default `pool_size` here, unlike MaxPooling2D's (2, 2).)"""

    _pool = staticmethod(avg_pool2d)

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)


class GlobalMaxPooling2D(Layer):
    """(batch, height, width, channels) -> (batch, channels): each channel's maximum."""

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        self.keepdims = keepdims
        self.built = True

    def call(self, inputs):
        axes = [1, 2] if self.data_format == "channels_last" else [2, 3]
        return reduce_max(inputs, axis=axes, keepdims=self.keepdims)
