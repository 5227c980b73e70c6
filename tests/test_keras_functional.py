"""keras_tensor.py, input_layer.py, functional.py, summary.py, regularizers.py, random.py and
base_layer.py's training/losses conventions. (TF's own answers: cases_keras_layers.py.)"""

import numpy as np
import pytest

import minitape as tf

layers = tf.keras.layers


def test_input_and_layer_calls_record_shapes():
    x = tf.keras.Input(shape=(3,))
    h = layers.Dense(4)(x)
    assert x.shape == (None, 3) and h.shape == (None, 4) and h.dtype == "float32"
    assert layers.Reshape((2, 2))(h).shape == (None, 2, 2)
    with pytest.raises(TypeError, match="boolean"):
        bool(h)


def test_functional_model_replays_the_calls_on_tensors():
    a, b = tf.keras.Input(shape=(2,)), tf.keras.Input(shape=(2,))
    total = layers.Add()([a, b])
    model = tf.keras.Model([a, b], [total, layers.Activation("relu")(total)])
    out = model([tf.ones((1, 2)), -3 * tf.ones((1, 2))])
    assert [o.numpy().tolist() for o in out] == [[[-2.0, -2.0]], [[0.0, 0.0]]]
    assert type(model).__name__ == "Functional"
    with pytest.raises(ValueError, match="expected 2 input"):
        model(tf.ones((1, 2)))


def test_functional_model_refuses_outputs_not_reached_from_its_inputs():
    a, b = tf.keras.Input(shape=(2,)), tf.keras.Input(shape=(2,))
    with pytest.raises(ValueError, match="Graph disconnected"):
        tf.keras.Model(a, layers.Add()([a, b]))


def test_training_reaches_nested_layers_and_the_call_that_sets_it_wins():
    seen = []

    class Probe(layers.Layer):
        def call(self, x, training=None):
            seen.append(training)
            return x

    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.a, self.b = Probe(), Probe()

        def call(self, x, training=None):
            return self.b(self.a(x, training=False))

    Net()(tf.ones((1, 1)), training=True)
    assert seen == [False, False]  # (as Keras 3: the explicit False is the context's now)


def test_losses_are_cleared_by_each_outer_call():
    class Adds(layers.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x))
            return x

    layer = Adds()
    model = tf.keras.Sequential([layer])
    model(tf.ones((1, 2)))
    model(tf.ones((1, 3)))
    assert [float(v) for v in model.losses] == [3.0]


def test_regularizers():
    r = tf.keras.regularizers
    w = tf.constant([1.0, -2.0])
    assert float(r.l1(0.5)(w)) == 1.5 and float(r.l2(0.5)(w)) == 2.5
    assert float(r.L1L2(1.0, 1.0)(w)) == 8.0
    assert isinstance(r.get("l2"), r.L2) and r.get(None) is None
    assert isinstance(r.get({"class_name": "L1", "config": {"l1": 0.2}}), r.L1)
    with pytest.raises(ValueError, match="Could not interpret regularizer"):
        r.get("l3")
    with pytest.raises(ValueError, match="non-negative"):
        r.l2(float("nan"))


def test_seed_generator_moves_on_by_one_per_draw():
    gen = tf.keras.random.SeedGenerator(7)
    first = tf.keras.random.uniform((3,), seed=gen)
    assert gen.state.numpy().tolist() == [7, 1]
    assert not np.array_equal(first, tf.keras.random.uniform((3,), seed=gen))
    assert np.array_equal(
        tf.keras.random.normal((2,), seed=3), tf.keras.random.normal((2,), seed=3)
    )


def test_summary_of_an_unbuilt_and_a_graph_model(capsys):
    tf.keras.Sequential([layers.Dense(3, name="d")], name="m").summary(line_length=60)
    out = capsys.readouterr().out
    assert out.startswith('Model: "m"\n┏') and "(unbuilt)" in out and "?" in out
    a, b = tf.keras.Input((1,), name="a"), tf.keras.Input((1,), name="b")
    tf.keras.Model([a, b], layers.Concatenate(name="c")([a, b])).summary(line_length=80)
    assert "Connected to" in capsys.readouterr().out
