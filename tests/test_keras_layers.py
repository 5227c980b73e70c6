"""Dense, Sequential and Model: lazy building, Glorot init, variable collection, bad input."""

import math
import re

import numpy as np
import pytest

import minitape as tf

layers = tf.keras.layers


def test_dense_builds_on_first_call():
    d = layers.Dense(4)
    assert d.kernel is None and not d.built and d.trainable_variables == []
    y = d(tf.ones((2, 3)))
    assert d.built and y.shape == (2, 4)
    assert d.kernel.shape == (3, 4) and d.bias.shape == (4,)
    assert d.bias.numpy().tolist() == [0.0] * 4
    assert d.kernel.dtype == tf.float32
    assert d.trainable_variables == [d.kernel, d.bias]
    assert d.trainable_weights == d.variables == d.weights == [d.kernel, d.bias]
    assert d.kernel.name == "kernel" and d.bias.name == "bias"
    assert d.kernel.path == f"{d.name}/kernel" and d.bias.path == f"{d.name}/bias"


def test_variable_names_and_paths_as_keras_3():
    # Keras 3 (TF 2.21): name is the short name, path the layers it was built in
    d = layers.Dense(3, name="hidden")
    d.build((None, 2))
    assert (d.kernel.name, d.kernel.path, d.bias.path) == ("kernel", "hidden/kernel", "hidden/bias")
    assert repr(d.bias) == (
        "<Variable path=hidden/bias, shape=(3,), dtype=float32, value=[0. 0. 0.]>"
    )
    model = tf.keras.Sequential([layers.Dense(2, name="a"), layers.Dense(1, name="b")], name="seq")
    model(np.zeros((1, 3), np.float32))
    assert [v.path for v in model.trainable_variables] == [
        "seq/a/kernel",
        "seq/a/bias",
        "seq/b/kernel",
        "seq/b/bias",
    ]
    assert [v.name for v in model.trainable_variables] == ["kernel", "bias"] * 2

    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__(name="net")
            self.inner = layers.Dense(2, name="inner")

        def call(self, x):
            return self.inner(x)

    net = Net()
    net(np.zeros((1, 3), np.float32))
    assert [v.path for v in net.trainable_variables] == ["net/inner/kernel", "net/inner/bias"]
    built_alone = layers.Dense(2, name="alone")
    built_alone(np.zeros((1, 3), np.float32))
    tf.keras.Sequential([built_alone], name="later")(np.zeros((1, 3), np.float32))
    assert built_alone.kernel.path == "alone/kernel"  # named where it was built


def test_dense_computes_activation_of_x_kernel_plus_bias():
    d = layers.Dense(2, activation="relu")
    x = np.array([[1.0, -2.0, 0.5]])
    d(x)
    d.kernel.assign([[1.0, -1.0], [0.5, 0.5], [2.0, 0.0]])
    d.bias.assign([0.5, -0.25])
    # x @ kernel = [1 - 1 + 1, -1 - 1 + 0] = [1, -2]; + bias = [1.5, -2.25]; relu
    assert d(x).numpy().tolist() == [[1.5, 0.0]]
    assert d(x.astype(np.float64)).dtype == tf.float32  # inputs cast to the layer's dtype


def test_glorot_uniform_range_and_seeding():
    tf.keras.utils.set_random_seed(7)
    a = layers.Dense(50)
    a(tf.zeros((1, 30)))
    limit = math.sqrt(6 / (30 + 50))
    k = a.kernel.numpy()
    assert np.abs(k).max() <= limit and np.abs(k).max() > 0.9 * limit
    assert abs(k.std() - limit / math.sqrt(3)) < 0.02  # uniform: std = limit / sqrt(3)
    tf.keras.utils.set_random_seed(7)
    b = layers.Dense(50)
    b(tf.zeros((1, 30)))
    assert (b.kernel.numpy() == k).all()  # set_random_seed makes it repeat
    tf.keras.utils.set_random_seed(8)
    c = layers.Dense(50)
    c(tf.zeros((1, 30)))
    assert not (c.kernel.numpy() == k).all()
    # tf.random.set_seed alone does not: in Keras 3 an initializer takes its seed from Python's
    # `random` when it is made (the golden case keras_only_tf_set_seed_builds_differ)
    tf.random.set_seed(7)
    d = layers.Dense(50)
    d(tf.zeros((1, 30)))
    assert not (d.kernel.numpy() == k).all()


def test_initializers_by_name_and_no_bias():
    d = layers.Dense(3, use_bias=False, kernel_initializer="ones")
    d(tf.zeros((1, 2)))
    assert d.bias is None and d.trainable_variables == [d.kernel]
    assert d.kernel.numpy().tolist() == [[1.0] * 3] * 2
    with pytest.raises(ValueError, match="Unknown initializer"):
        layers.Dense(3, kernel_initializer="glorot_something")


def test_activations_by_name_and_as_functions():
    x = tf.constant([-1.0, 0.0, 2.0])
    act = tf.keras.activations
    assert act.get("relu")(x).numpy().tolist() == [0.0, 0.0, 2.0]
    assert act.get(None) is act.linear and act.get("linear")(x) is x
    assert act.get(tf.nn.relu) is tf.nn.relu
    assert act.elu(x).numpy()[0] == pytest.approx(math.exp(-1) - 1)
    assert act.sigmoid(x).numpy()[1] == 0.5
    assert act.tanh(x).numpy()[2] == pytest.approx(math.tanh(2))
    assert act.softplus(x).numpy()[1] == pytest.approx(math.log(2))
    # Keras 3 names the leaky slope negative_slope (alpha= is refused, as there)
    assert act.relu(x, negative_slope=0.1).numpy().tolist() == pytest.approx([-0.1, 0.0, 2.0])
    with pytest.raises(TypeError, match="alpha"):
        act.relu(x, alpha=0.1)
    y = layers.Dense(3, activation=tf.nn.tanh, kernel_initializer="ones")(tf.ones((1, 2)))
    assert y.numpy() == pytest.approx(np.tanh([[2.0, 2.0, 2.0]]))
    with pytest.raises(
        ValueError, match="Could not interpret activation function identifier: relux"
    ):
        layers.Dense(3, activation="relux")


def test_dense_wrong_rank_names_the_shape():
    d = layers.Dense(2)
    with pytest.raises(
        ValueError, match=r"expected min_ndim=2, found ndim=1. Full shape received: \(3,\)"
    ):
        d(tf.constant([1.0, 2.0, 3.0]))
    d(tf.zeros((5, 3)))
    with pytest.raises(
        ValueError,
        match=r"expected axis -1 of input shape to have value 3, but "
        r"received input with shape \(5, 4\)",
    ):
        d(tf.zeros((5, 4)))


def test_a_layer_refuses_python_numbers_as_keras_3_does():
    d = layers.Dense(2)
    for bad, shown in (
        ([[1.0, 2.0]], "1.0 (of type <class 'float'>)"),
        (3, "3 (of type <class 'int'>)"),
    ):
        with pytest.raises(ValueError, match=re.escape(f"keyword argument: {shown}")):
            d(bad)
    assert d(np.ones((1, 3))).shape == (1, 2)  # numpy arrays are fine


def test_dense_invalid_units():
    with pytest.raises(ValueError, match="units=0"):
        layers.Dense(0)


def test_dense_gradients_reach_kernel_and_bias():
    d = layers.Dense(1, kernel_initializer="ones")
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(d(x))
    gk, gb = tape.gradient(loss, d.trainable_variables)
    assert gk.numpy().tolist() == [[4.0], [6.0]] and gb.numpy().tolist() == [2.0]


def test_sequential_chains_layers():
    tf.random.set_seed(0)
    model = tf.keras.Sequential([layers.Dense(4, activation="tanh"), layers.Dense(1)])
    x = tf.random.normal((3, 2))
    y = model(x, training=True)
    first, second = model.layers
    by_hand = np.tanh(x.numpy() @ first.kernel.numpy() + first.bias.numpy()) @ second.kernel.numpy()
    assert y.numpy() == pytest.approx(by_hand + second.bias.numpy(), abs=1e-6)
    assert model.trainable_variables == [first.kernel, first.bias, second.kernel, second.bias]


def test_sequential_with_input_shape_builds_at_once():
    model = tf.keras.Sequential([layers.Dense(8, input_shape=(3,)), layers.Dense(2)])
    assert [tuple(v.shape) for v in model.trainable_variables] == [(3, 8), (8,), (8, 2), (2,)]
    model.add(layers.Dense(5))
    assert model.layers[-1].kernel.shape == (2, 5)
    with pytest.raises(ValueError, match="Only instances of `keras.Layer` can be added"):
        model.add(tf.nn.relu)


class Critic(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = layers.Dense(4, activation="relu")
        self.out = layers.Dense(1)
        self.seen_training = []

    def call(self, x, training=False):
        self.seen_training.append(training)
        return self.out(self.hidden(x))


class Pair(tf.keras.Model):
    """A model holding another model, a list of layers and a bare variable."""

    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(2.0)
        self.critic = Critic()
        self.heads = [layers.Dense(1), layers.Dense(1)]
        self.step = tf.Variable(0, trainable=False)

    def call(self, x):
        return self.scale * self.critic(x) + self.heads[0](x) + self.heads[1](x)


def test_model_subclass_collects_its_layers_variables():
    m = Critic()
    assert m.trainable_variables == []
    m(tf.ones((2, 3)), training=True)
    assert m.seen_training == [True]
    assert m.trainable_variables == [m.hidden.kernel, m.hidden.bias, m.out.kernel, m.out.bias]
    assert m.layers == [m.hidden, m.out]


def test_nested_models_lists_and_variables_set_as_attributes():
    p = Pair()
    p(tf.ones((2, 3)), training=True)  # `training` is dropped: Pair.call does not take it
    tv = p.trainable_variables
    assert tv[0] is p.scale  # own variables first
    assert tv[1:5] == p.critic.trainable_variables
    assert tv[5:] == [p.heads[0].kernel, p.heads[0].bias, p.heads[1].kernel, p.heads[1].bias]
    assert p.non_trainable_variables == [p.step]
    assert len(p.variables) == 10
    p.critic.trainable = False
    assert len(p.trainable_variables) == 5 and len(p.non_trainable_variables) == 5
    p.heads[0].trainable = False  # a frozen layer's own variables
    assert p.heads[0].trainable_variables == []
    assert p.heads[0].non_trainable_variables == [p.heads[0].kernel, p.heads[0].bias]
    assert len(p.trainable_variables) == 3


def test_get_and_set_weights():
    d = layers.Dense(2)
    d(tf.zeros((1, 3)))
    w = d.get_weights()
    d.set_weights([np.ones((3, 2)), np.full(2, 5.0)])
    assert d.kernel.numpy().sum() == 6 and d.bias.numpy().tolist() == [5.0, 5.0]
    with pytest.raises(
        ValueError,
        match=r"Layer weight shape \(3, 2\) not compatible with provided "
        r"weight shape \(2, 3\)",
    ):
        d.set_weights([np.ones((2, 3)), w[1]])


def test_model_without_call_and_functional_api():
    class Empty(tf.keras.Model):
        pass

    with pytest.raises(NotImplementedError, match="has no call"):
        Empty()(tf.ones((1, 1)))
    with pytest.raises(ValueError, match="must be KerasTensors"):
        tf.keras.Model(tf.ones((1, 1)), tf.ones((1, 1)))  # (the functional API takes Inputs)


KERAS_ACTIVATIONS = [
    "relu",
    "sigmoid",
    "tanh",
    "softmax",
    "linear",
    "elu",
    "softplus",
    "gelu",
    "swish",
    "silu",
    "selu",
    "relu6",
    "leaky_relu",
    "exponential",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "mish",
    "log_softmax",
    "log_sigmoid",
    "celu",
]


@pytest.mark.parametrize("name", KERAS_ACTIVATIONS)
def test_every_keras_activation_name_has_two_derivatives(name):
    """Each name Keras accepts (softsign has no second derivative, as in TF: test_nn_ops)."""
    from minitape.testing import check_grads

    rng = np.random.default_rng(3)
    x = rng.uniform(0.2, 2.0, (2, 3)) * rng.choice([-1.0, 1.0], (2, 3))  # away from the kinks
    check_grads(tf.keras.activations.get(name), x)


def test_dense_softmax_output_keeps_its_logits_for_the_losses():
    """Keras keeps the logits of a softmax/sigmoid activation on its output; minitape too, by
    the output's identity (`activations.logits_of`)."""
    layer = tf.keras.layers.Dense(3, activation="softmax")
    x = tf.constant([[1.0, 2.0]])
    y = layer(x)
    logits = tf.keras.activations.logits_of(y)
    assert np.allclose(tf.nn.softmax(logits).numpy(), y.numpy())
    assert tf.keras.activations.logits_of(y * 1.0) is None
    with pytest.raises(ValueError, match="Could not interpret activation function identifier"):
        tf.keras.layers.Dense(2, activation="nope")


def test_initializers_get_takes_none_configs_and_values_as_keras_3_does():
    get = tf.keras.initializers.get
    assert get(None) is None
    assert float(get({"class_name": "Constant", "config": {"value": 2.0}})((1,))[0]) == 2.0
    assert type(get({"class_name": "zeros"})) is tf.keras.initializers.Zeros
    init = get(np.array([1.0, 2.0]))
    assert init((2,), "float32").numpy().tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="Expected `shape` to be"):
        init((3,))
    with pytest.raises(ValueError, match="Could not interpret initializer identifier"):
        get(1.5)


def test_dense_takes_true_as_one_unit_as_keras_does():
    d = layers.Dense(True)
    assert d.units is True and d(tf.ones((2, 3))).shape == (2, 1)
    with pytest.raises(ValueError, match="Received: units=3.0"):
        layers.Dense(3.0)


def test_a_layer_variable_is_keras_3s_variable_holding_a_tf_variable():
    # (golden case course_nb07_keras_variables_are_not_tf_variables compares the rest with TF)
    dense = tf.keras.layers.Dense(2, name="d", kernel_initializer="ones")
    dense(tf.ones((1, 3)))
    k = dense.kernel
    assert isinstance(k, tf.keras.Variable) and not isinstance(k, tf.Variable)
    assert isinstance(k.value, tf.Variable) and k.value.name == "d/kernel:0"
    np.testing.assert_array_equal((k * 2.0).numpy(), np.full((3, 2), 2.0, np.float32))
    k.assign_sub(tf.ones((3, 2)))
    assert float(tf.reduce_sum(k.value)) == 0.0  # (one variable: the Keras one writes through)
    with pytest.raises(TypeError, match="has no len"):
        len(k)
    with pytest.raises(TypeError, match="unhashable"):
        hash(k)
    with pytest.raises(ValueError, match="of type 'Variable', not tf.Tensor or tf.Variable"):
        with tf.GradientTape() as tape:
            tape.watch(k)
    v = tf.keras.Variable([1.0, 2.0], name="w")
    assert (
        v.path == "w" and repr(v) == "<Variable path=w, shape=(2,), dtype=float32, value=[1. 2.]>"
    )
