"""Normalization layers: BatchNormalization and LayerNormalization, as Keras 3 computes them.

Both compute TF's `tf.nn.moments` (the mean, then the mean squared difference from it, the
mean held constant for the gradient) and `tf.nn.batch_normalization`:
`x * inv + (beta - mean * inv)` with `inv = gamma / sqrt(variance + epsilon)`. (TF's Rsqrt
kernel rounds differently from 1/sqrt in its vectorized loop, by a few units in the last
place; the values agree to ~1e-7 relative, not bit for bit.)
"""

from ..dtypes import float16, float32
from ..ops import cast, reduce_mean, reshape, sqrt, square, squeeze, stop_gradient
from . import initializers, regularizers
from .base_layer import Layer

__all__ = ["BatchNormalization", "LayerNormalization"]


def _moments(x, axes, keepdims=False):
    """TF's `tf.nn.moments`: mean and variance over `axes` (float16 computed in float32)."""
    y = cast(x, float32) if x.dtype == float16 else x
    mean = reduce_mean(y, axes, keepdims=True)
    variance = reduce_mean(square(y - stop_gradient(mean)), axes, keepdims=True)
    if not keepdims:
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    if x.dtype == float16:
        mean, variance = cast(mean, float16), cast(variance, float16)
    return mean, variance


def _normalize(x, mean, variance, offset, scale, epsilon):
    """TF's `tf.nn.batch_normalization`."""
    inv = 1.0 / sqrt(variance + epsilon)
    if scale is not None:
        inv = inv * scale
    shift = offset - mean * inv if offset is not None else -mean * inv
    return x * cast(inv, x.dtype) + cast(shift, x.dtype)


def _gamma_and_beta(layer, shape):
    if layer.scale:
        layer.gamma = layer.add_weight(
            shape,
            layer.gamma_initializer,
            name="gamma",
            regularizer=layer.gamma_regularizer,
            autocast=False,
        )
    if layer.center:
        layer.beta = layer.add_weight(
            shape,
            layer.beta_initializer,
            name="beta",
            regularizer=layer.beta_regularizer,
            autocast=False,
        )


class _Normalization(Layer):
    """What both layers take: the axis, epsilon, whether to scale (gamma) and shift (beta)."""

    def __init__(
        self,
        axis,
        epsilon,
        center,
        scale,
        beta_initializer,
        gamma_initializer,
        beta_regularizer,
        gamma_regularizer,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.axis, self.epsilon = axis, epsilon
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.gamma = self.beta = None


class BatchNormalization(_Normalization):
    """Normalize each feature (the last axis) over the batch.

    Called with `training=True`, it uses the batch's mean and variance and moves its
    non-trainable `moving_mean` / `moving_variance` toward them (`moving = moving * momentum
    + batch * (1 - momentum)`); otherwise (and when the layer is frozen, `trainable=False`)
    it uses the moving statistics and changes nothing."""

    def __init__(
        self,
        axis=-1,
        momentum=0.99,
        epsilon=1e-3,
        center=True,
        scale=True,
        beta_initializer="zeros",
        gamma_initializer="ones",
        moving_mean_initializer="zeros",
        moving_variance_initializer="ones",
        beta_regularizer=None,
        gamma_regularizer=None,
        beta_constraint=None,
        gamma_constraint=None,
        **kwargs,
    ):
        super().__init__(
            int(axis),
            float(epsilon),
            center,
            scale,
            beta_initializer,
            gamma_initializer,
            beta_regularizer,
            gamma_regularizer,
            **kwargs,
        )
        self.momentum = float(momentum)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.moving_mean = self.moving_variance = None

    def build(self, input_shape):
        shape = (input_shape[self.axis],)
        _gamma_and_beta(self, shape)
        self.moving_mean = self.add_weight(
            shape,
            self.moving_mean_initializer,
            name="moving_mean",
            trainable=False,
            autocast=False,
        )
        self.moving_variance = self.add_weight(
            shape,
            self.moving_variance_initializer,
            name="moving_variance",
            trainable=False,
            autocast=False,
        )
        self._reduction_axes = [
            a for a in range(len(input_shape)) if a != self.axis % len(input_shape)
        ]
        self.built = True

    def call(self, inputs, training=None, mask=None):
        dtype = inputs.dtype if inputs.dtype.is_floating and inputs.dtype.size >= 4 else float32
        inputs = cast(inputs, dtype)
        moving_mean = cast(self.moving_mean, dtype)
        moving_variance = cast(self.moving_variance, dtype)
        gamma = cast(self.gamma, dtype) if self.scale else None
        beta = cast(self.beta, dtype) if self.center else None
        if training and self.trainable:
            mean, variance = _moments(inputs, self._reduction_axes)
            self.moving_mean.assign(moving_mean * self.momentum + mean * (1.0 - self.momentum))
            self.moving_variance.assign(
                moving_variance * self.momentum + variance * (1.0 - self.momentum)
            )
        else:
            mean, variance = moving_mean, moving_variance
        if self.axis != -1 and self.axis != len(inputs.shape) - 1:
            shape = [1] * len(inputs.shape)
            shape[self.axis] = mean.shape[0]
            mean, variance = reshape(mean, shape), reshape(variance, shape)
            gamma = None if gamma is None else reshape(gamma, shape)
            beta = None if beta is None else reshape(beta, shape)
        outputs = _normalize(inputs, mean, variance, beta, gamma, self.epsilon)
        return cast(outputs, self.compute_dtype)


class LayerNormalization(_Normalization):
    """Normalize each example over its features (`axis`, the last by default), with a
    trainable scale `gamma` and shift `beta` per feature."""

    def __init__(
        self,
        axis=-1,
        epsilon=1e-3,
        center=True,
        scale=True,
        beta_initializer="zeros",
        gamma_initializer="ones",
        beta_regularizer=None,
        gamma_regularizer=None,
        beta_constraint=None,
        gamma_constraint=None,
        **kwargs,
    ):
        if not isinstance(axis, (int, list, tuple)):
            raise TypeError(
                "Expected an int or a list/tuple of ints for the argument 'axis', but "
                f"received: {axis!r}"
            )
        super().__init__(
            list(axis) if isinstance(axis, (list, tuple)) else axis,
            epsilon,
            center,
            scale,
            beta_initializer,
            gamma_initializer,
            beta_regularizer,
            gamma_regularizer,
            **kwargs,
        )
        self.autocast = False  # (Keras 3: its inputs keep their dtype; it computes in float32)

    def build(self, input_shape):
        rank = len(input_shape)
        axes = [a % rank for a in (self.axis if isinstance(self.axis, list) else [self.axis])]
        if len(set(axes)) != len(axes):
            raise ValueError(f"Duplicate axes are not allowed. Received: axis={self.axis}")
        self.axis = sorted(axes)
        _gamma_and_beta(self, tuple(input_shape[a] for a in self.axis))
        self.built = True

    def call(self, inputs):
        x = cast(inputs, float32) if inputs.dtype.size < 4 else inputs
        rank = len(x.shape)
        broadcast = [1] * rank
        for a in self.axis:
            broadcast[a] = x.shape[a]

        def spread(v):
            if v is None or self.axis == [rank - 1]:
                return v
            return reshape(cast(v, x.dtype), broadcast)

        mean, variance = _moments(x, self.axis, keepdims=True)
        inv = 1.0 / sqrt(variance + self.epsilon)
        if self.gamma is not None:
            inv = inv * cast(spread(self.gamma), x.dtype)
        res = -mean * inv
        if self.beta is not None:
            res = res + cast(spread(self.beta), x.dtype)
        outputs = x * inv + res
        return cast(cast(outputs, inputs.dtype), self.compute_dtype)
