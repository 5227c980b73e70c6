"""SGD and Adam: update rules checked against numbers worked out by hand; bad input."""

import math

import numpy as np
import pytest

import minitape as tf
from minitape.errors import InvalidArgumentError

SGD, Adam = tf.keras.optimizers.SGD, tf.keras.optimizers.Adam


def step(opt, var, grad):
    opt.apply_gradients([(tf.constant(grad, dtype=var.dtype), var)])


# --- SGD ------------------------------------------------------------------------------------
def test_sgd_is_w_minus_lr_times_g_in_float32():
    w = tf.Variable([1.0, -2.0])
    SGD(0.1).apply_gradients(zip([tf.constant([0.5, 0.25])], [w]))
    # by hand, in float32 as TF computes it: w - g * lr
    f = np.float32
    expected = [f(1.0) - f(0.5) * f(0.1), f(-2.0) - f(0.25) * f(0.1)]
    assert w.numpy().tolist() == expected  # exactly: 0.95, -2.025 in float32
    assert w.numpy() == pytest.approx([0.95, -2.025])


def test_sgd_default_learning_rate_is_0_01():
    w = tf.Variable(1.0)
    step(SGD(), w, 1.0)
    assert float(w) == pytest.approx(0.99)


def test_sgd_momentum_two_steps_by_hand():
    # v1 = -0.1*1.0 = -0.1, w1 = 0.9; v2 = 0.9*(-0.1) - 0.1*0.5 = -0.14, w2 = 0.76
    w = tf.Variable(1.0)
    opt = SGD(learning_rate=0.1, momentum=0.9)
    step(opt, w, 1.0)
    assert float(w) == pytest.approx(0.9, rel=1e-6)
    assert float(opt.get_slot(w, "momentum")) == pytest.approx(-0.1, rel=1e-6)
    step(opt, w, 0.5)
    assert float(w) == pytest.approx(0.76, rel=1e-6)


def test_sgd_nesterov_two_steps_by_hand():
    # w += m*v_new - lr*g: step 1: 1 + 0.9*(-0.1) - 0.1 = 0.81; step 2: v = -0.14,
    # 0.81 + 0.9*(-0.14) - 0.05 = 0.634
    w = tf.Variable(1.0)
    opt = SGD(0.1, momentum=0.9, nesterov=True)
    step(opt, w, 1.0)
    assert float(w) == pytest.approx(0.81, rel=1e-6)
    step(opt, w, 0.5)
    assert float(w) == pytest.approx(0.634, rel=1e-6)


def test_sgd_momentum_out_of_range():
    with pytest.raises(ValueError, match="momentum"):
        SGD(0.1, momentum=1.5)


# --- Adam -----------------------------------------------------------------------------------
def test_adam_two_steps_by_hand():
    lr, b1, b2, eps = 0.01, 0.9, 0.999, 1e-7
    w = tf.Variable(1.0)
    opt = Adam(lr)
    # step 1, g = 2: m = 0.2, v = 0.004, alpha = lr*sqrt(1-b2)/(1-b1)
    step(opt, w, 2.0)
    w1 = 1.0 - lr * math.sqrt(1 - b2) / (1 - b1) * 0.2 / (math.sqrt(0.004) + eps)
    assert float(w) == pytest.approx(w1, rel=1e-6)
    assert float(w) == pytest.approx(1.0 - 0.01, abs=1e-6)  # Adam's first step is ~lr
    # step 2, g = -1: m = 0.9*0.2 - 0.1 = 0.08, v = 0.999*0.004 + 0.001 = 0.004996
    step(opt, w, -1.0)
    w2 = w1 - lr * math.sqrt(1 - b2**2) / (1 - b1**2) * 0.08 / (math.sqrt(0.004996) + eps)
    assert float(w) == pytest.approx(w2, rel=1e-6)
    assert float(opt.get_slot(w, "m")) == pytest.approx(0.08, rel=1e-6)
    assert float(opt.get_slot(w, "v")) == pytest.approx(0.004996, rel=1e-6)
    assert int(opt.iterations) == 2


def test_adam_defaults_are_keras():
    opt = Adam()
    assert float(opt.learning_rate) == pytest.approx(0.001)
    assert (opt.beta_1, opt.beta_2, opt.epsilon) == (0.9, 0.999, 1e-7)


def test_adam_epsilon_matters_for_tiny_gradients():
    # g = 1e-7: sqrt(v) is about 3.2e-9, so epsilon = 1e-7 dominates the denominator:
    # the step is lr * sqrt(1-b2)/(1-b1) * 1e-8 / (sqrt(1e-17) + 1e-7), far below lr
    w = tf.Variable(0.0, dtype=tf.float64)
    step(Adam(1.0), w, 1e-7)
    by_hand = -math.sqrt(0.001) / 0.1 * 1e-8 / (math.sqrt(1e-17) + 1e-7)
    assert float(w) == pytest.approx(by_hand, rel=1e-9)


def test_adam_amsgrad_uses_largest_v():
    w = tf.Variable(0.0, dtype=tf.float64)
    opt = Adam(0.1, amsgrad=True)
    step(opt, w, 10.0)
    step(opt, w, 0.0)  # v shrinks, but vhat keeps 0.1 (= 0.001 * 100)
    assert float(opt.get_slot(w, "vhat")) == pytest.approx(0.1)
    assert float(opt.get_slot(w, "v")) == pytest.approx(0.0999)


# --- shared behaviour -----------------------------------------------------------------------
def test_iterations_counts_calls_and_is_returned():
    w = tf.Variable(1.0)
    opt = SGD(0.1)
    assert int(opt.iterations) == 0
    out = opt.apply_gradients(zip([tf.constant(1.0)], [w]))
    out = opt.apply_gradients(zip([tf.constant(1.0)], [w]))
    assert out is opt.iterations and int(opt.iterations) == 2
    assert opt.iterations.dtype == tf.int64 and not opt.iterations.trainable


def test_learning_rate_is_a_variable_and_can_be_set():
    w = tf.Variable(1.0)
    opt = SGD(0.1)
    opt.learning_rate = 0.5
    assert isinstance(opt.learning_rate, tf.keras.Variable)  # (Keras 3's, as in TF)
    step(opt, w, 1.0)
    assert float(w) == pytest.approx(0.5)


def test_accepts_any_iterable_of_pairs_and_numpy_gradients():
    a, b = tf.Variable([1.0, 1.0]), tf.Variable(2.0)
    opt = SGD(1.0)
    opt.apply_gradients(((g, v) for g, v in [(np.array([0.5, 0.5]), a), (1, b)]))
    assert a.numpy().tolist() == [0.5, 0.5] and float(b) == 1.0
    opt.apply_gradients([[tf.constant(1.0), b]])  # lists as pairs too
    assert float(b) == 0.0


def test_float64_variables_get_float64_updates():
    w = tf.Variable(1.0, dtype=tf.float64)
    step(Adam(0.1), w, 1.0)
    assert w.dtype == tf.float64
    # the learning rate is a float32 variable (as in Keras), cast to the variable's dtype
    lr = float(np.float32(0.1))
    assert float(w) == pytest.approx(1.0 - lr / (1 + 1e-7 / math.sqrt(0.001)), rel=1e-12)


def test_none_gradient_is_skipped_with_a_warning_naming_the_variable():
    a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")
    dense = tf.keras.layers.Dense(1, name="aux")
    dense(tf.ones((1, 1)))
    with pytest.warns(UserWarning, match=r"Gradients do not exist for variables \['b:0'\]"):
        SGD(0.5).apply_gradients(zip([tf.constant(1.0), None], [a, b]))
    assert float(a) == 0.5 and float(b) == 2.0
    kernel, bias = dense.trainable_variables
    with pytest.warns(UserWarning, match=r"\['aux/kernel', 'aux/bias'\] when minimizing"):
        SGD(0.5).apply_gradients(zip([tf.constant(1.0), None, None], [a, kernel, bias]))


def test_all_gradients_none_raises():
    a = tf.Variable(1.0, name="a")
    with pytest.raises(
        ValueError,
        match=r"No gradients provided for any variable\. \(Every gradient is None, for \['a:0'\]",
    ):
        SGD(0.1).apply_gradients(zip([None], [a]))
    with pytest.raises(ValueError, match="No gradients provided"):
        SGD(0.1).apply_gradients([])


def test_gradient_shape_mismatch_names_both_shapes():
    w = tf.Variable(np.zeros((2, 3), np.float32), name="kernel")
    with pytest.raises(
        InvalidArgumentError, match=r"shape \(3, 2\) to variable 'kernel:0' of shape \(2, 3\)"
    ):
        SGD(0.1).apply_gradients([(tf.zeros((3, 2)), w)])
    assert w.numpy().sum() == 0


def test_gradient_dtype_mismatch():
    # A float64 or an int32 gradient for a float32 variable is cast, as Keras does (TF 2.21:
    # [0.9, 1.9]; the fuzzer's `~SGD.apply_gradients(gv:int)`).
    w = tf.Variable([1.0, 2.0], name="w")
    SGD(0.1).apply_gradients([(tf.constant([1.0, 1.0], dtype=tf.float64), w)])
    assert w.dtype == tf.float32 and w.numpy().tolist() == pytest.approx([0.9, 1.9])
    SGD(0.1).apply_gradients([(tf.constant([1, 1]), w)])
    assert w.dtype == tf.float32 and w.numpy().tolist() == pytest.approx([0.8, 1.8])
    with pytest.raises(InvalidArgumentError):  # (SGD's assign_sub does not broadcast)
        SGD(0.1).apply_gradients([(tf.constant(1.0), w)])


def test_learning_rate_is_a_python_float():
    # Keras 3 takes a float (or a schedule), not an int, a numpy int or a tensor (ValueError).
    for bad in (1, -1, True, np.int64(1), tf.constant(0.1), "fast"):
        with pytest.raises(ValueError, match="should be float"):
            SGD(bad)
    with pytest.raises(ValueError, match="momentum"):
        SGD(0.1, momentum=np.array(["a"]))


def test_not_pairs():
    w = tf.Variable(1.0)
    g = tf.constant(1.0)
    with pytest.raises(TypeError, match="pairs.*item 0 is"):
        SGD(0.1).apply_gradients([g])  # forgot zip(...)
    with pytest.raises(TypeError, match="iterable of"):
        SGD(0.1).apply_gradients(None)
    with pytest.raises(TypeError, match=r"must be a tf.Variable.*zip\(variables, grads\)"):
        SGD(0.1).apply_gradients(zip([w], [g]))  # the arguments of zip swapped


def test_clipnorm_and_global_clipnorm_options():
    w = tf.Variable([0.0, 0.0])
    SGD(1.0, clipnorm=1.0).apply_gradients([(tf.constant([3.0, 4.0]), w)])
    assert w.numpy() == pytest.approx([-0.6, -0.8])
    a, b = tf.Variable(0.0), tf.Variable(0.0)
    SGD(1.0, global_clipnorm=1.0).apply_gradients(zip([tf.constant(3.0), tf.constant(4.0)], [a, b]))
    assert (float(a), float(b)) == pytest.approx((-0.6, -0.8))
    for two in ({"clipnorm": 1.0, "global_clipnorm": 1.0}, {"clipvalue": 1.0, "clipnorm": 1.0}):
        with pytest.raises(ValueError, match="Only one of `clipnorm`, `clipvalue`"):
            SGD(**two)


def test_an_optimizer_updates_only_the_variables_it_was_built_with():
    v, w = tf.Variable(1.0), tf.Variable(2.0)
    opt = SGD(0.5)
    opt.apply_gradients([(tf.constant(1.0), v), (None, w)])  # built on both (w unchanged)
    opt.apply_gradients([(tf.constant(1.0), w)])
    assert (float(v), float(w)) == (0.5, 1.5)
    with pytest.raises(ValueError, match="Unknown variable: .* originally built with"):
        opt.apply_gradients([(tf.constant(1.0), tf.Variable(3.0))])
    built = SGD(0.5)
    built.build([v])
    with pytest.raises(ValueError, match="Unknown variable"):
        built.apply_gradients([(tf.constant(1.0), w)])


def test_get_by_name():
    assert isinstance(tf.keras.optimizers.get("adam"), Adam)
    with pytest.raises(ValueError):
        tf.keras.optimizers.get("rmsprop?")


def test_get_takes_none_and_config_dicts_as_keras_3_does():
    get = tf.keras.optimizers.get
    assert get(None) is None
    sgd = get({"class_name": "SGD"})
    assert type(sgd) is tf.keras.optimizers.SGD and math.isclose(
        float(sgd.learning_rate), 0.01, rel_tol=1e-6
    )
    assert get({"class_name": "sgd", "config": {"momentum": 0.5}}).momentum == 0.5
    assert type(get({"class_name": "Adam", "config": {}})) is tf.keras.optimizers.Adam
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier"):
        get({"class_name": "Nope"})
    with pytest.raises(ValueError, match="not recognized"):
        get({"class_name": "SGD", "config": {"nope": 1.0}})
    with pytest.raises(ValueError, match="class_name"):
        get({})
