"""Layers that resize images (NHWC), as the GAN tutorials use them: UpSampling2D (nearest
neighbour: each pixel repeated; or bilinear), ZeroPadding2D (zeros around) and Cropping2D
(rows and columns cut off), each built from ops with gradients (repeat, einsum, concat,
slicing)."""

import numpy as np

from ..array_ops import einsum, repeat
from ..ops import cast, concat, zeros
from ..tensor import constant
from .base_layer import Layer

__all__ = ["UpSampling2D", "ZeroPadding2D", "Cropping2D"]


def _int_pair(value, what):
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, int) and v >= 0 for v in pair):
        raise ValueError(f"The `{what}` argument must be a tuple of 2 integers. Received: {value}")
    return pair


def _sides(value, what):
    """((top, bottom), (left, right)) from an int, a pair, or a pair of pairs (Keras' forms)."""
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"`{what}` cannot be negative. Received: {what}={value}.")
        return ((value, value), (value, value))
    if not hasattr(value, "__len__") or len(value) != 2:
        raise ValueError(f"`{what}` should have two elements. Received: {what}={value}.")
    return (
        _int_pair(value[0], f"1st entry of {what}"),
        _int_pair(value[1], f"2nd entry of {what}"),
    )


class UpSampling2D(Layer):
    """Each pixel repeated `size` times down and across: (n, h, w, c) -> (n, 2h, 2w, c)."""

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        self.size = _int_pair(size, "size")
        self.data_format = data_format or "channels_last"
        self.interpolation = interpolation.lower()
        if self.interpolation not in ("nearest", "bilinear"):
            raise NotImplementedError(
                f"minitape's UpSampling2D has interpolation='nearest' and 'bilinear' only, "
                f"not {interpolation!r} (the others need more of tf.image.resize)."
            )
        self.built = True

    def call(self, inputs):
        if self.interpolation == "nearest":
            return repeat(repeat(inputs, self.size[0], axis=1), self.size[1], axis=2)
        _, h, w, _ = inputs.shape
        rows = cast(constant(_bilinear(h, self.size[0])), inputs.dtype)
        cols = cast(constant(_bilinear(w, self.size[1])), inputs.dtype)
        return einsum("jw,nhwc->nhjc", cols, einsum("ih,nhwc->niwc", rows, inputs))


def _bilinear(n, factor):
    """The (n * factor, n) matrix of tf.image.resize's bilinear weights along one axis, with
    its half-pixel centres: output i reads the input at (i + 0.5) / factor - 0.5, clamped to
    the edges, between its two neighbours."""
    position = np.clip((np.arange(n * factor) + 0.5) / factor - 0.5, 0, n - 1)
    low = np.floor(position).astype(int)
    high = np.minimum(low + 1, n - 1)
    weights = np.zeros((n * factor, n), np.float64)
    rows = np.arange(n * factor)
    np.add.at(weights, (rows, low), 1 - (position - low))
    np.add.at(weights, (rows, high), position - low)
    return weights


class ZeroPadding2D(Layer):
    """Rows and columns of zeros around each image: ((top, bottom), (left, right))."""

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = _sides(padding, "padding")
        self.data_format = data_format or "channels_last"
        self.built = True

    def call(self, inputs):
        (top, bottom), (left, right) = self.padding
        n, h, w, c = inputs.shape
        x = concat(
            [zeros((n, top, w, c), inputs.dtype), inputs, zeros((n, bottom, w, c), inputs.dtype)], 1
        )
        h = h + top + bottom
        return concat([zeros((n, h, left, c), x.dtype), x, zeros((n, h, right, c), x.dtype)], 2)


class Cropping2D(Layer):
    """Rows and columns cut off each image: ((top, bottom), (left, right))."""

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.cropping = _sides(cropping, "cropping")
        self.data_format = data_format or "channels_last"
        self.built = True

    def call(self, inputs):
        (top, bottom), (left, right) = self.cropping
        h, w = inputs.shape[1], inputs.shape[2]
        return inputs[:, top : h - bottom, left : w - right, :]
