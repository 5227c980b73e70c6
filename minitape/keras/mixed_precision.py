"""`tf.keras.mixed_precision.LossScaleOptimizer`: dynamic loss scaling, as Keras 3 does it.

In float16 a small gradient rounds to zero. Multiplying the loss by a large scale (2**15 at
first) before the tape computes the gradients keeps them representable; the optimizer divides
them by the same scale before its update:

    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x))
        scaled = opt.scale_loss(loss)
    grads = tape.gradient(scaled, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))   # unscales, then updates

If any gradient is inf or NaN the step is skipped (the variables and `iterations` stay) and
the scale is halved; after `dynamic_growth_steps` finite steps in a row it is doubled.
`model.compile` wraps a model's optimizer in one when the model's dtype policy is
'mixed_float16' (dtype_policies.py), and Keras' train step scales the loss.
"""

from .. import dtypes
from ..function import init_scope
from ..indexed_slices import IndexedSlices
from ..ops import divide, equal, is_finite, reduce_all, stack
from .base_layer import _unique_name
from .dtype_policies import DTypePolicy, Policy, global_policy, set_global_policy  # noqa: F401
from .optimizers import _own_variable

dtype_policy, set_dtype_policy = global_policy, set_global_policy  # (Keras 3's other names)

__all__ = [
    "LossScaleOptimizer",
    "DTypePolicy",
    "Policy",
    "dtype_policy",
    "global_policy",
    "set_dtype_policy",
    "set_global_policy",
]

_ARGS_OF_THE_INNER = {
    "weight_decay": None,
    "clipnorm": None,
    "global_clipnorm": None,
    "clipvalue": None,
    "use_ema": False,
    "ema_momentum": 0.99,
    "ema_overwrite_frequency": None,
    "loss_scale_factor": None,
    "gradient_accumulation_steps": None,
}


class LossScaleOptimizer:
    """Wraps `inner_optimizer`: `scale_loss(loss)`, then `apply_gradients` of the scaled
    loss's gradients unscales them, updates with the inner optimizer, and moves the scale."""

    def __init__(
        self, inner_optimizer, initial_scale=2.0**15, dynamic_growth_steps=2000, name=None, **kwargs
    ):
        if not kwargs.pop("dynamic", True):
            raise ValueError(
                "LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply set "
                "`loss_scale_factor` directly on the `inner_optimizer`."
            )
        for arg, default in _ARGS_OF_THE_INNER.items():
            if arg in kwargs:
                value = kwargs.pop(arg)
                if (default is None and value is not None) or value != default:
                    raise ValueError(
                        f"LossScaleOptimizer does not support `{arg}`. Instead, set `{arg}` "
                        "on the `inner_optimizer`."
                    )
        if kwargs:
            raise ValueError(
                f"LossScaleOptimizer does not support arguments: `{'`, `'.join(kwargs)}`."
            )
        self.inner_optimizer = inner_optimizer
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps
        self.name = name or _unique_name(type(self))
        self.built = False
        with init_scope():  # (Keras 3's optimizer variables of its own, which it never uses)
            self._own = [_own_variable(self, 0, dtypes.int64, "iteration")]
            self._own.append(_own_variable(self, 0.0, dtypes.float32, "learning_rate"))

    def build(self, var_list):
        with init_scope():
            self.step_counter = _own_variable(self, 0, dtypes.int64, "step_counter")
            self.dynamic_scale = _own_variable(
                self, self.initial_scale, dtypes.float32, "dynamic_scale"
            )
        self._own += [self.step_counter, self.dynamic_scale]
        self.inner_optimizer._scope = f"{self.name}/"  # (its slots: 'loss_scale_optimizer/sgd/..')
        self.inner_optimizer.build(var_list)
        self.built = True

    @property
    def variables(self):
        """Its own variables (Keras 3's: an iteration count and a learning rate it does not
        use, then the step counter and the scale), then the inner optimizer's."""
        return self._own + self.inner_optimizer.variables

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    def scale_loss(self, loss):
        """`loss` times the current scale (the initial one before the first step)."""
        return loss * (self.dynamic_scale if self.built else self.initial_scale)

    def check_finite(self, grads):
        return reduce_all(stack([reduce_all(is_finite(g)) for g in grads if g is not None]))

    def apply_gradients(self, grads_and_vars, name=None, **kwargs):
        grads, variables = zip(*grads_and_vars) if grads_and_vars else ((), ())
        return self.apply(list(grads), list(variables))

    def apply(self, grads, trainable_variables=None):
        """Unscale and apply finite gradients (doubling the scale after enough such steps);
        skip a step with an inf or NaN, halving the scale."""
        if not self.built:
            self.build(trainable_variables)
        if bool(self.check_finite(grads)):
            unscaled = [_unscaled(g, self.dynamic_scale) for g in grads]
            self.inner_optimizer.apply(unscaled, trainable_variables)
            if bool(equal(self.step_counter, self.dynamic_growth_steps - 1)):
                self.step_counter.assign(0)
                self.dynamic_scale.assign(self.dynamic_scale * 2.0)
            else:
                self.step_counter.assign_add(1)
        else:
            self.step_counter.assign(0)
            self.dynamic_scale.assign(self.dynamic_scale * 0.5)


def _unscaled(g, scale):
    """A gradient divided by the loss scale; a gather's slices stay slices (as in Keras, so
    the inner optimizer makes its sparse update, where a row given twice counts twice)."""
    if g is None:
        return None
    if isinstance(g, IndexedSlices):
        return IndexedSlices(divide(g.values, scale), g.indices, g.dense_shape)
    return divide(g, scale)
