"""mixed_precision.py: LossScaleOptimizer unscales finite gradients and skips a step with an
inf, moving its scale; the 'mixed_float16' policy casts a layer's inputs and, inside its call,
its weights, and compile wraps the optimizer. (TF's own numbers: keras_loss_scale_optimizer and
keras_mixed_* in the golden cases.)"""

import contextlib

import numpy as np
import pytest

import minitape as tf


def step(opt, w, factor):
    with tf.GradientTape() as tape:
        scaled = opt.scale_loss(tf.reduce_sum(w * w) * factor)
    opt.apply_gradients(zip(tape.gradient(scaled, [w]), [w]))


def test_the_update_is_the_inner_optimizers_on_the_unscaled_gradient():
    w, plain = tf.Variable([1.0, -2.0]), tf.Variable([1.0, -2.0])
    step(tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1)), w, 1.0)
    sgd = tf.keras.optimizers.SGD(0.1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(plain * plain)
    sgd.apply_gradients(zip(tape.gradient(loss, [plain]), [plain]))
    assert np.array_equal(w.numpy(), plain.numpy())


def test_an_inf_skips_the_step_and_halves_the_scale_growth_doubles_it():
    w = tf.Variable([1.0])
    opt = tf.keras.mixed_precision.LossScaleOptimizer(
        tf.keras.optimizers.SGD(0.1), initial_scale=4.0, dynamic_growth_steps=1
    )
    step(opt, w, float("inf"))
    assert w.numpy().tolist() == [1.0] and float(opt.dynamic_scale) == 2.0
    assert int(opt.iterations) == 0
    step(opt, w, 1.0)
    assert float(opt.dynamic_scale) == 4.0 and int(opt.iterations) == 1


# -- the 'mixed_float16' policy (dtype_policies.py, base_layer.py, variables.py) ---------------
@contextlib.contextmanager
def mixed():
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        yield
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


class Probe(tf.keras.layers.Layer):
    """Records the dtype its weight reads as inside call."""

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
        self.raw = self.add_weight(
            shape=(input_shape[-1],), initializer="ones", autocast=False, name="raw"
        )

    def call(self, x):
        self.seen = (x.dtype.name, self.w.value.dtype.name, self.raw.value.dtype.name)
        return x * self.w


def test_a_mixed_layer_reads_its_weights_as_float16_inside_call_only():
    with mixed():
        probe = Probe()
        x = tf.constant([[1.0, 2.0]])
        with tf.GradientTape() as tape:
            y = probe(x)
        (grad,) = tape.gradient(y, [probe.w])
    assert probe.seen == ("float16", "float16", "float32")
    assert y.dtype.name == "float16" and probe.w.dtype == "float32"
    assert probe.w.value.dtype.name == "float32"  # (outside call: the variable itself)
    assert grad.dtype.name == "float32" and grad.numpy().tolist() == [1.0, 2.0]


def test_a_float32_layer_inside_a_mixed_model_computes_in_float32():
    with mixed():
        inner = Probe(dtype="float32")
        outer = tf.keras.Sequential([Probe(), inner])
        y = outer(np.ones((1, 2), np.float32))
    assert inner.seen == ("float32", "float32", "float32") and y.dtype.name == "float32"


def test_compile_wraps_a_mixed_models_optimizer_and_fit_scales_the_loss():
    with mixed():
        model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
        kept = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        kept.compile(optimizer="sgd", loss="mse", auto_scale_loss=False)
    assert type(model.optimizer).__name__ == "LossScaleOptimizer"
    assert type(kept.optimizer).__name__ == "SGD"
    # (small outputs: their scaled gradient stays finite in float16, so the step is taken)
    model.fit(np.full((4, 2), 0.01, np.float32), np.zeros((4, 1), np.float32), verbose=0)
    assert int(model.optimizer.step_counter) == 1 and int(model.optimizer.iterations) == 1


def test_mixed_bfloat16_is_refused_when_a_layer_would_use_it():
    policy = tf.keras.mixed_precision.Policy("mixed_bfloat16")
    assert (policy.compute_dtype, policy.variable_dtype) == ("bfloat16", "float32")
    with pytest.raises(NotImplementedError, match="no bfloat16"):
        tf.keras.layers.Dense(1, dtype=policy)
    with pytest.raises(NotImplementedError, match="no bfloat16"):
        tf.keras.mixed_precision.set_global_policy("mixed_bfloat16")
    assert tf.keras.mixed_precision.global_policy().name == "float32"
