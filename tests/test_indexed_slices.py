"""tf.IndexedSlices (minitape/indexed_slices.py): a gather's gradient, how it adds up on the
tape, converts, and reaches optimizers. TF's own numbers are pinned by the golden cases in
tests/tf_golden/cases_keras_sparse.py; these check the mechanism."""

import warnings

import numpy as np
import pytest

import minitape as tf
from minitape import indexed_slices
from minitape.testing import check_grads

TABLE = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


def _gradient(f, x, **kwargs):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x, **kwargs)


def test_a_gather_along_axis_0_gives_slices_with_repeats_kept():
    g = _gradient(lambda x: tf.gather(x, [[2, 0], [2, 1]]) * 2.0, tf.constant(TABLE))
    assert isinstance(g, tf.IndexedSlices)
    assert g.indices.numpy().tolist() == [2, 0, 2, 1]
    assert g.values.shape == (4, 2) and g.dense_shape.numpy().tolist() == [3, 2]
    assert g.dense_shape.dtype == tf.int32 and g.shape == (3, 2) and g.dtype == tf.float32
    assert tf.convert_to_tensor(g).numpy().tolist() == [[2, 2], [2, 2], [4, 4]]


@pytest.mark.parametrize("recorded", [False, True])
def test_paths_add_up_by_tfs_rules_in_a_bare_walk_and_a_recorded_one(recorded):
    x = tf.constant(TABLE)
    outer = tf.GradientTape()
    with outer:
        outer.watch(x)
        if not recorded:
            outer._pop_tape()  # (nothing records the inner walk: the bare shortcut runs)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            two = tf.reduce_sum(tf.gather(x, [1])) + tf.reduce_sum(tf.gather(x, [2, 2]))
            mixed = tf.reduce_sum(tf.gather(x, [1])) + tf.reduce_sum(x * 3.0)
        slices, dense = tape.gradient(two, x), tape.gradient(mixed, x)
        if not recorded:
            outer._push_tape()
    assert isinstance(slices, tf.IndexedSlices) and slices.indices.numpy().tolist() == [2, 2, 1]
    assert type(dense) is tf.Tensor
    assert dense.numpy().tolist() == [[3, 3], [4, 4], [3, 3]]


def test_an_op_between_the_gather_and_the_source_gets_the_dense_gradient():
    g = _gradient(lambda x: tf.gather(tf.exp(x), [0, 0]), tf.constant(TABLE))
    np.testing.assert_allclose(g.numpy(), 2 * np.exp(TABLE) * [[1], [0], [0]], rtol=1e-6)


def test_derivatives_through_gather_and_through_the_densification():
    check_grads(lambda x: tf.gather(x, [2, 0, 2]) ** 3, np.array(TABLE))
    check_grads(
        lambda v: tf.convert_to_tensor(tf.IndexedSlices(v**2, tf.constant([1, 1]), [3, 2])),
        np.array([[1.0, 2.0], [3.0, 4.0]]),
    )


def test_jacobian_and_unconnected_zero_take_slices():
    x = tf.constant(TABLE)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.gather(x, [2, 0])
        other = tf.constant(1.0)
    j = tape.jacobian(y, x)
    assert j.shape == (2, 2, 3, 2) and float(tf.reduce_sum(j)) == 4.0
    g, none = tape.gradient(y, [x, other], unconnected_gradients="zero")
    assert isinstance(g, tf.IndexedSlices) and float(none) == 0.0


def test_str_negation_and_conversion_errors():
    s = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([2, 2]))
    assert str(s).startswith("IndexedSlices(indices=tf.Tensor([1], shape=(1,), dtype=int32)")
    assert repr(s).startswith("<minitape.indexed_slices.IndexedSlices object at 0x")
    assert (-s).values.numpy().tolist() == [[-1, -2]]
    with pytest.raises(ValueError, match="without dense_shape"):
        tf.convert_to_tensor(tf.IndexedSlices(s.values, s.indices))
    with pytest.raises(ValueError, match="Incompatible tensor conversion"):
        tf.convert_to_tensor(s, tf.float64)
    with pytest.raises(TypeError):
        s + s  # noqa: B018  (TF's IndexedSlices has no arithmetic either)


def test_a_large_densification_inside_a_trace_warns_as_tf(monkeypatch):
    monkeypatch.setattr(indexed_slices, "_LARGE", 6)
    s = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tf.convert_to_tensor(s)  # (eagerly: no warning, as in TF)
    with pytest.warns(UserWarning, match="with 6 elements. This may consume a large amount"):
        tf.function(lambda: tf.convert_to_tensor(s))()


def test_keras_optimizers_square_each_row_before_adding_repeats():
    v = tf.Variable(TABLE)
    opt = tf.keras.optimizers.Adagrad(0.1, initial_accumulator_value=0.0)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(v, [1, 1]))
    opt.apply_gradients([(tape.gradient(loss, v), v)])
    acc = opt._slots[(v.ref(), "accumulator")]
    assert acc.numpy().tolist() == [[0, 0], [2, 2], [0, 0]]  # 1 + 1, not (1 + 1) ** 2
