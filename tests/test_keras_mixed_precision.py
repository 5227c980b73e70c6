"""mixed_precision.py: LossScaleOptimizer unscales finite gradients and skips a step with an
inf, moving its scale. (TF's own numbers: keras_loss_scale_optimizer in the golden cases.)"""

import numpy as np

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
