"""save_weights / load_weights (keras/saving.py) and tf.train.Checkpoint (train.py): minitape's
own file format, and what TF's golden cases cannot show (cases_keras_saving.py pins the rest)."""

import numpy as np
import pytest

import minitape as tf


def _model(seed, units=3):
    tf.keras.utils.set_random_seed(seed)
    return tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(units, name="a")])


def test_weights_round_trip_and_a_file_minitape_did_not_write(tmp_path):
    path = str(tmp_path / "m.weights.h5")
    first, second = _model(0), _model(1)
    first.save_weights(path)
    second.load_weights(path)
    assert all(np.array_equal(a, b) for a, b in zip(first.get_weights(), second.get_weights()))
    (tmp_path / "other.weights.h5").write_bytes(b"\x89HDF\r\n\x1a\n not minitape's")
    with pytest.raises(ValueError, match="not written by minitape"):
        second.load_weights(str(tmp_path / "other.weights.h5"))


def test_a_mismatch_is_refused_unless_skipped(tmp_path):
    path = str(tmp_path / "m.weights.h5")
    _model(0).save_weights(path)
    wider = _model(1, units=4)
    with pytest.raises(ValueError, match="could not be loaded"):
        wider.load_weights(path)
    before = wider.get_weights()
    wider.load_weights(path, skip_mismatch=True)
    assert all(np.array_equal(a, b) for a, b in zip(before, wider.get_weights()))


def test_overwrite_false_asks_first(tmp_path, monkeypatch):
    path = str(tmp_path / "m.weights.h5")
    model = _model(0)
    model.save_weights(path)
    model.get_layer("a").kernel.assign(np.zeros((2, 3), np.float32))
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    model.save_weights(path, overwrite=False)
    _model(2).load_weights(path)
    other = _model(3)
    other.load_weights(path)
    assert other.get_layer("a").kernel.numpy().any()  # (the first weights, not the zeros)


def test_a_checkpoint_restores_an_optimizers_slots_when_they_are_made(tmp_path):
    v = tf.Variable([1.0, -2.0])
    opt = tf.keras.optimizers.Adam(0.1)
    for _ in range(2):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v**2)
        opt.apply_gradients([(tape.gradient(loss, v), v)])
    path = tf.train.Checkpoint(v=v, opt=opt).save(str(tmp_path / "ckpt"))
    assert tf.train.latest_checkpoint(str(tmp_path)) == path
    w, fresh = tf.Variable([0.0, 0.0]), tf.keras.optimizers.Adam(0.1)
    status = tf.train.Checkpoint(v=w, opt=fresh).restore(path)
    assert status.assert_consumed() is status and int(fresh.iterations) == 2
    for var, optimizer in ((v, opt), (w, fresh)):  # one more step each: the same step
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(var**2)
        optimizer.apply_gradients([(tape.gradient(loss, var), var)])
    assert w.numpy().tolist() == v.numpy().tolist()
    assert [s.numpy().tolist() for s in fresh.variables] == [
        s.numpy().tolist() for s in opt.variables
    ]


def test_unmatched_variables_fail_assert_consumed(tmp_path):
    path = tf.train.Checkpoint(a=tf.Variable(1.0)).write(str(tmp_path / "x"))
    status = tf.train.Checkpoint(b=tf.Variable(2.0)).read(path)
    with pytest.raises(AssertionError):
        status.assert_consumed()
    assert status.expect_partial() is status
