"""tf.debugging.check_numerics and enable_check_numerics (TF's words: tests/tf_golden,
course_nb09_check_numerics)."""

import numpy as np
import pytest

import minitape as tf
from minitape.errors import InvalidArgumentError
from minitape.testing import check_grads


def test_check_numerics_passes_finite_values_through_and_names_bad_ones():
    x = tf.constant([1.0, 2.0])
    assert tf.debugging.check_numerics(x, "x").numpy().tolist() == [1.0, 2.0]
    with pytest.raises(
        InvalidArgumentError, match=r"^loss : Tensor had NaN values \[Op:CheckNumerics\]$"
    ):
        tf.debugging.check_numerics(tf.constant([np.nan, 1.0]), "loss")
    with pytest.raises(InvalidArgumentError, match="loss : Tensor had Inf values"):
        tf.debugging.check_numerics(tf.constant([1.0, -np.inf]), "loss")


def test_check_numerics_checks_the_gradient_on_the_way_back():
    x = tf.constant([0.0, 4.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        checked = tf.debugging.check_numerics(x, "x")
        fine, bad = checked * 3.0, tf.sqrt(checked)
    assert tape.gradient(fine, x).numpy().tolist() == [3.0, 3.0]
    with pytest.raises(InvalidArgumentError, match=r"detected in gradient\. b'x' : Tensor had Inf"):
        tape.gradient(bad, x)  # d sqrt(x)/dx = inf at 0
    check_grads(lambda t: tf.debugging.check_numerics(t, "t") ** 2, np.array([0.5, -1.5]))


def test_enable_check_numerics_stops_at_the_first_bad_op_and_disable_undoes_it():
    tf.debugging.enable_check_numerics()
    try:
        assert float(tf.math.log(tf.constant(2.0))) == pytest.approx(np.log(2.0))
        with pytest.raises(InvalidArgumentError, match=r'(?s)op "Log".*# of -Inf elements: 1'):
            tf.math.log(tf.constant([0.0, 1.0]))
        with tf.GradientTape() as tape:  # a tape and the check listen side by side
            x = tf.constant(3.0)
            tape.watch(x)
            y = x * x
        assert float(tape.gradient(y, x)) == 6.0
    finally:
        tf.debugging.disable_check_numerics()
    assert np.isneginf(tf.math.log(tf.constant(0.0)).numpy())  # unchecked again
    tf.debugging.disable_check_numerics()  # (twice is harmless)
