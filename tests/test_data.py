"""tf.data against what each method must give by its definition (TF's own elements and
shuffle orders are in tests/tf_golden/cases_data.py)."""

import numpy as np
import pytest

import minitape as tf


def values(ds):
    return [np.asarray(v).tolist() for v in ds.as_numpy_iterator()]


def test_slices_batches_and_cardinality():
    ds = tf.data.Dataset.from_tensor_slices((np.arange(5.0), np.arange(5)))
    assert int(ds.cardinality()) == 5 and len(ds) == 5
    batches = list(ds.batch(2))
    assert [tuple(t.shape) for t, _ in batches] == [(2,), (2,), (1,)]
    assert batches[2][1].numpy().tolist() == [4]
    assert int(ds.batch(2, drop_remainder=True).cardinality()) == 2
    assert ds.batch(2).element_spec[0].shape.as_list() == [None]
    assert ds.batch(2, drop_remainder=True).element_spec[0].shape.as_list() == [2]


def test_repeat_take_skip_zip_enumerate():
    ds = tf.data.Dataset.range(4)
    assert values(ds.repeat(2)) == [0, 1, 2, 3, 0, 1, 2, 3]
    assert int(ds.repeat().cardinality()) == tf.data.INFINITE_CARDINALITY
    assert values(ds.repeat().take(6)) == [0, 1, 2, 3, 0, 1]
    assert values(ds.skip(3)) == [3] and values(ds.take(-1)) == [0, 1, 2, 3]
    assert [tuple(map(int, e)) for e in ds.enumerate(start=10).take(2)] == [(10, 0), (11, 1)]
    assert [tuple(map(int, e)) for e in tf.data.Dataset.zip((ds, ds.skip(2)))] == [(0, 2), (1, 3)]
    assert int(ds.filter(lambda v: v > 1).cardinality()) == tf.data.UNKNOWN_CARDINALITY
    with pytest.raises(TypeError, match="infinite"):
        len(ds.repeat())


def test_shuffle_is_a_permutation_that_a_buffer_of_one_leaves_alone():
    ds = tf.data.Dataset.range(20)
    assert values(ds.shuffle(1, seed=3)) == list(range(20))
    shuffled = ds.shuffle(5, seed=3)
    first, second = values(shuffled), values(shuffled)
    assert sorted(first) == sorted(second) == list(range(20))
    assert first != second  # reshuffled on each pass
    fixed = ds.shuffle(5, seed=3, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed)  # the same seeds on every pass
    # a buffer of 5: the element out at step k was among the first k + 5 of the input
    assert all(v < k + 5 for k, v in enumerate(first))
    with pytest.raises(tf.errors.InvalidArgumentError, match="buffer_size"):
        ds.shuffle(0)


def test_map_is_traced_once_when_the_shapes_are_known():
    traces = []

    def double(x):
        traces.append(1)
        return x * 2

    mapped = tf.data.Dataset.range(3).map(double, num_parallel_calls=tf.data.AUTOTUNE)
    assert len(traces) == 1  # at map(), as TF
    assert values(mapped) == [0, 2, 4] and values(mapped) == [0, 2, 4]
    assert len(traces) == 1


def test_a_dataset_in_a_function_is_read_anew_on_each_call():
    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for v in ds:
            s += v
        return s

    ds = tf.data.Dataset.range(10).shuffle(10, seed=1).take(3)
    sums = {int(total(ds)) for _ in range(6)}
    assert len(sums) > 1  # not the first call's elements replayed
    assert int(total(tf.data.Dataset.range(4))) == 6


def test_fit_takes_a_dataset_of_batches():
    tf.keras.utils.set_random_seed(0)
    x = np.arange(12, dtype="float32").reshape(6, 2) / 10
    ds = tf.data.Dataset.from_tensor_slices((x, x[:, :1])).batch(4)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(ds, epochs=2, verbose=0, shuffle=False)
    assert history.params == {"verbose": 0, "epochs": 2, "steps": 2}
    assert model.predict(ds, verbose=0).shape == (6, 1)
    with pytest.raises(ValueError, match="`y` should not be passed"):
        model.fit(ds, x, verbose=0)
