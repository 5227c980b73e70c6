"""nn_ops.py: softmax, log_softmax, reduce_logsumexp, the softmax cross-entropies, conv2d,
erf and the activations built on it. Gradients against finite differences (first and second
order, several shapes and axes); values from hand derivations (TF's own values, including the
fused cross-entropies' second derivatives, are in the golden record: tf_golden/cases_nn.py)."""

import numpy as np
import pytest

import minitape as tf
from minitape.testing import check_grads

rng = np.random.default_rng(11)


def rand(*shape):
    return rng.uniform(-2.0, 2.0, size=shape)


def distribution(*shape):
    p = rng.uniform(0.1, 1.0, size=shape)
    return p / p.sum(axis=-1, keepdims=True)


LABELS = np.array([[2, 0, 1], [1, 1, 3]])
DIST, DIST_3D, LOGITS = distribution(3, 4), np.moveaxis(distribution(2, 2, 3), -1, 1), rand(3, 4)

FNS = {
    "softmax": (lambda x: tf.nn.softmax(x), [(3, 4)]),
    "softmax_axis0": (lambda x: tf.nn.softmax(x, axis=0), [(3, 4)]),
    "softmax_vector": (lambda x: tf.nn.softmax(x), [(5,)]),
    "log_softmax": (lambda x: tf.nn.log_softmax(x), [(3, 4)]),
    "log_softmax_axis1_of_3d": (lambda x: tf.nn.log_softmax(x, axis=1), [(2, 3, 2)]),
    "logsumexp_all": (lambda x: tf.reduce_logsumexp(x), [(3, 4)]),
    "logsumexp_axis": (lambda x: tf.math.reduce_logsumexp(x, axis=-1), [(3, 4)]),
    "logsumexp_keepdims": (lambda x: tf.reduce_logsumexp(x, axis=0, keepdims=True), [(3, 4)]),
    "softmax_xent_logits": (
        lambda z: tf.nn.softmax_cross_entropy_with_logits(labels=DIST, logits=z),
        [(3, 4)],
    ),
    "softmax_xent_logits_3d_axis1": (
        lambda z: tf.nn.softmax_cross_entropy_with_logits(labels=DIST_3D, logits=z, axis=1),
        [(2, 3, 2)],
    ),
    "softmax_xent_labels": (
        lambda y: tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=LOGITS),
        [(3, 4)],
    ),
    "sparse_xent": (
        lambda z: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=LABELS, logits=z),
        [(2, 3, 4)],
    ),
    "sparse_xent_vector": (
        lambda z: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=2, logits=z),
        [(4,)],
    ),
    "erf": (lambda x: tf.math.erf(x), [(3, 4)]),
    "gelu": (lambda x: tf.nn.gelu(x), [(5,)]),
    "gelu_tanh": (lambda x: tf.nn.gelu(x, approximate=True), [(5,)]),
    "silu": (lambda x: tf.nn.silu(x), [(5,)]),
    "selu": (lambda x: tf.nn.selu(x + np.sign(x) * 0.1), [(5,)]),
    "log_sigmoid": (lambda x: tf.math.log_sigmoid(x), [(5,)]),
    "relu6": (lambda x: tf.nn.relu6(3 * x + np.sign(x) * 0.2), [(6,)]),
    "leaky_relu": (lambda x: tf.nn.leaky_relu(x + np.sign(x) * 0.1, alpha=0.3), [(5,)]),
}


@pytest.mark.parametrize("name", sorted(FNS))
def test_gradients(name):
    fn, shapes = FNS[name]
    check_grads(fn, *[rand(*s) for s in shapes])


def test_softsign_first_derivative_only():
    """As in TF: SoftsignGrad has no gradient rule, so a second derivative raises."""
    x = rand(5) + np.sign(rand(5)) * 0.1
    check_grads(tf.nn.softsign, x, order=1)
    with pytest.raises(LookupError, match="SoftsignGrad"):
        check_grads(tf.nn.softsign, x, order=2)


def test_softmax_xent_both_arguments_and_third_order():
    """Labels that are distributions (the gradient assumes it): logits and labels together,
    and the logits alone to third order (through the backprop op's own rule)."""
    check_grads(
        lambda z, y: tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z),
        rand(3, 4),
        distribution(3, 4),
        order=1,
    )
    labels = tf.constant(distribution(2, 3))
    check_grads(
        lambda z: tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=z),
        rand(2, 3),
        order=3,
    )
    check_grads(
        lambda z: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 2], logits=z),
        rand(2, 3),
        order=3,
    )


CONVS = [  # (input shape, filter shape, strides, padding, dilations)
    ((1, 5, 5, 1), (3, 3, 1, 1), 1, "VALID", None),
    ((2, 5, 4, 2), (3, 2, 2, 3), 1, "SAME", None),
    ((2, 6, 5, 2), (3, 3, 2, 2), 2, "SAME", None),
    ((1, 7, 6, 1), (2, 3, 1, 2), [2, 3], "VALID", None),
    ((1, 6, 6, 2), (2, 2, 2, 1), [1, 2, 2, 1], "SAME", None),
    ((1, 6, 6, 1), (2, 2, 1, 2), 1, "SAME", 2),
    ((1, 4, 4, 1), (4, 4, 1, 1), 1, "VALID", None),
]


@pytest.mark.parametrize("xs,fs,strides,padding,dilations", CONVS, ids=str)
def test_conv2d_gradients(xs, fs, strides, padding, dilations):
    check_grads(
        lambda x, f: tf.nn.conv2d(x, f, strides, padding, dilations=dilations), rand(*xs), rand(*fs)
    )


def test_conv2d_channels_first_and_groups_are_transposes_and_slices_of_channels_last():
    x, f = rand(2, 5, 4, 4), rand(2, 3, 2, 6)  # (2 input channels a filter: 2 groups)
    nhwc = tf.nn.conv2d(x, f, [1, 2, 1, 1], "SAME", dilations=[1, 1, 2, 1])
    groups = [
        tf.nn.conv2d(x[..., 2 * i : 2 * i + 2], f[..., 3 * i : 3 * i + 3], [2, 1], "SAME")
        for i in range(2)
    ]
    nchw = tf.nn.conv2d(
        tf.transpose(x, [0, 3, 1, 2]), f, [1, 1, 2, 1], "SAME", "NCHW", [1, 1, 1, 2]
    )
    np.testing.assert_allclose(nhwc.numpy(), tf.transpose(nchw, [0, 2, 3, 1]).numpy(), 1e-6)
    np.testing.assert_allclose(
        tf.nn.conv2d(x, f, [2, 1], "SAME").numpy(), tf.concat(groups, 3).numpy(), 1e-6
    )
    check_grads(lambda x, f: tf.nn.conv2d(x, f, 1, "VALID"), x, f)
    check_grads(lambda x, f: tf.nn.conv2d(x, f, 1, "VALID", "NCHW"), rand(1, 4, 4, 3), f)


DEPTHWISE = [  # (input shape, filter shape, strides, padding, dilations)
    ((1, 5, 5, 2), (3, 3, 2, 1), [1, 1, 1, 1], "VALID", None),
    ((2, 5, 4, 2), (3, 2, 2, 3), [1, 2, 2, 1], "SAME", None),
    ((1, 6, 6, 3), (2, 2, 3, 2), [1, 1, 1, 1], "SAME", [2, 2]),
]


@pytest.mark.parametrize("xs,fs,strides,padding,dilations", DEPTHWISE, ids=str)
def test_depthwise_conv2d_is_a_conv2d_of_one_channel_a_group_and_its_gradients(
    xs, fs, strides, padding, dilations
):
    x, f = rand(*xs), rand(*fs)
    got = tf.nn.depthwise_conv2d(x, f, strides, padding, dilations=dilations)
    kh, kw, c, m = fs
    grouped = tf.nn.conv2d(
        x, tf.reshape(f, (kh, kw, 1, c * m)), strides, padding, dilations=dilations
    )
    np.testing.assert_allclose(got.numpy(), grouped.numpy(), rtol=1e-5)
    check_grads(
        lambda x, f: tf.nn.depthwise_conv2d(x, f, strides, padding, dilations=dilations), x, f
    )


def test_conv2d_values_by_hand():
    x = tf.constant(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))
    f = tf.constant(np.array([[1.0, 0.0], [0.0, -1.0]], np.float32).reshape(2, 2, 1, 1))
    # each window: top-left minus bottom-right = -5 everywhere
    assert tf.nn.conv2d(x, f, 1, "VALID").numpy().reshape(3, 3).tolist() == [[-5] * 3] * 3
    # SAME, stride 2: windows at (0,0), (0,2), (2,0), (2,2), no padding needed at the top-left
    assert tf.nn.conv2d(x, f, 2, "SAME").numpy().reshape(2, 2).tolist() == [[-5, -5], [-5, -5]]
    # SAME, stride 1: the last row/column see zero padding below/right
    same = tf.nn.conv2d(x, f, 1, "SAME").numpy().reshape(4, 4)
    assert same[3].tolist() == [12, 13, 14, 15] and same[:3, 3].tolist() == [3, 7, 11]
    assert tf.nn.conv2d(x, f, 1, "VALID").dtype == tf.float32


def test_conv2d_errors():
    x = tf.zeros([1, 3, 3, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="evenly divisible"):
        tf.nn.conv2d(x, tf.zeros([2, 2, 3, 1]), 1, "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match="negative"):
        tf.nn.conv2d(x, tf.zeros([4, 4, 2, 1]), 1, "VALID")
    with pytest.raises(ValueError, match="4-dimensional"):
        tf.nn.conv2d(tf.zeros([3, 3, 2]), tf.zeros([2, 2, 2, 1]), 1, "VALID")


def test_softmax_values_and_errors():
    p = tf.nn.softmax(tf.constant([0.0, np.log(3.0)]))
    assert np.allclose(p.numpy(), [0.25, 0.75])
    assert tf.nn.log_softmax(tf.constant([1.0, 1000.0])).numpy().tolist() == [-999.0, 0.0]
    assert tf.reduce_logsumexp(tf.constant([-np.inf, -np.inf])).numpy() == -np.inf
    assert tf.reduce_logsumexp(tf.constant([np.inf, 1.0])).numpy() == np.inf
    with pytest.raises(tf.errors.AbortedError, match="Input dims"):
        tf.nn.softmax(tf.constant(1.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="dim"):
        tf.nn.softmax(tf.zeros([2, 3]), axis=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32"):
        tf.nn.softmax([1, 2])


def test_sparse_xent_second_derivative_is_the_softmax_jacobian():
    """Nested eager tapes in TF 2.21 differentiate the fused op's backprop: d/dz of
    (softmax(z) - onehot) is diag(p) - p p^T (TF's docs still say there is none)."""
    z = tf.constant([[1.0, 2.0, 0.5]], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(z)
        with tf.GradientTape() as inner:
            inner.watch(z)
            loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1], logits=z)
        g = inner.gradient(loss, z)
        first = g[0, 0]
    h = outer.gradient(first, z).numpy()[0]
    p = np.exp([1.0, 2.0, 0.5]) / np.exp([1.0, 2.0, 0.5]).sum()
    assert np.allclose(g.numpy()[0], p - [0, 1, 0])
    assert np.allclose(h, p[0] * (np.eye(3)[0] - p))


def test_xent_errors():
    z = tf.zeros([2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="valid range"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 3], logits=z)
    with pytest.raises(ValueError, match="rank"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[0], [1]], logits=z)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tlabels"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0.0, 1.0], logits=z)
    with pytest.raises(tf.errors.InvalidArgumentError, match="broadcastable"):
        tf.nn.softmax_cross_entropy_with_logits(labels=tf.zeros([2, 2]), logits=z)


def test_bad_input_found_by_the_fuzzer_as_tf_has_it():
    # (classes and values recorded under TF 2.21 in tests/fuzz/record.json)
    y = tf.nn.leaky_relu([-1, 3])  # integers are made float32 first
    assert y.dtype == tf.float32 and y.numpy().tolist() == pytest.approx([-0.2, 3.0])
    assert tf.nn.softmax([]).shape == (0,) and tf.nn.log_softmax([[]]).shape == (1, 0)
    with pytest.raises(TypeError, match="not supported between"):  # (compared in Python)
        tf.nn.softmax(tf.ones([2, 3]), axis="0")
    with pytest.raises(tf.errors.InvalidArgumentError, match="axis must be an integer"):
        tf.nn.softmax(tf.ones([2, 3]), axis=0.0)
    assert tf.nn.softmax(tf.ones([2, 3]), axis=True).shape == (2, 3)  # a bool is an int
    with pytest.raises(tf.errors.InvalidArgumentError, match="'Tindices' of float"):
        tf.gather(tf.ones([2, 3]), [], axis=0)  # [] is float32 data to TF
    with pytest.raises(ValueError, match="'axis' must be None, an integer, or a tuple of 2"):
        tf.norm(tf.ones([2, 3]), axis=[])


def test_conv2d_explicit_padding_matches_tf():
    # TF 2.21's numbers for this call and its gradients (the fuzzer records the forward value;
    # the gradients were computed under TF with the same inputs).
    x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    f = tf.constant([[[[1.0]], [[-1.0]]], [[[0.5]], [[2.0]]]])
    with tf.GradientTape() as tape:
        tape.watch([x, f])
        y = tf.nn.conv2d(x, f, [1, 2, 1, 1], [[0, 0], [1, 2], [0, 1], [0, 0]])
        s = tf.reduce_sum(y * y)
    assert y.numpy().ravel().tolist() == [2, 4.5, 7, 1.5, 21, 23.5, 26, 12.5, -1, -1, -1, 15]
    gx, gf = tape.gradient(s, [x, f])
    assert gx.numpy().ravel().tolist() == [
        *[2, 12.5, 25, 29.5, 42, 5, 5, -27, 21, 107.5, 120, 116.5, -2, 0, 0, 32]
    ]
    assert gf.numpy().ravel().tolist() == [1262, 772, 1600, 1484]
    with pytest.raises(ValueError, match="'EXPLICIT' is not a valid value"):
        tf.nn.conv2d(x, f, 1, "EXPLICIT")
    with pytest.raises(TypeError):
        tf.nn.conv2d(x, f, 1, None)


# --- bias_add, moments, reduce_variance/std (built from other ops) -----------------------------
def test_bias_add_moments_and_variance_gradients():
    from minitape.testing import check_grads

    x = np.random.default_rng(3).standard_normal((3, 4))
    check_grads(lambda v, b: tf.nn.bias_add(v, b) ** 2, x, x[0])
    # (first order only: as TF's, the variance stops the mean's gradient, which changes the
    # second derivative but not the first, the deviations summing to zero)
    check_grads(lambda v: tf.stack(tf.nn.moments(v, axes=[0])) ** 2, x, order=1)
    check_grads(lambda v: tf.math.reduce_variance(v, axis=1), x)
    check_grads(lambda v: tf.math.reduce_std(v, axis=0, keepdims=True), x)


CONV_TRANSPOSES = [  # (input shape, filter shape, output shape, strides, padding)
    ((1, 3, 3, 1), (3, 3, 2, 1), (1, 5, 5, 2), 1, "VALID"),
    ((2, 2, 3, 2), (3, 3, 1, 2), (2, 4, 6, 1), 2, "SAME"),
    ((1, 3, 2, 1), (2, 3, 2, 1), (1, 6, 4, 2), [2, 1], "VALID"),
]


@pytest.mark.parametrize("xs,fs,out,strides,padding", CONV_TRANSPOSES, ids=str)
def test_conv2d_transpose_gradients(xs, fs, out, strides, padding):
    check_grads(
        lambda x, f: tf.nn.conv2d_transpose(x, f, out, strides, padding), rand(*xs), rand(*fs)
    )


def test_conv2d_transpose_is_the_gradient_of_conv2d():
    x, f, g = (tf.constant(rand(*s)) for s in ((1, 5, 5, 2), (3, 3, 2, 3), (1, 3, 3, 3)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.conv2d(x, f, 2, "SAME")
    by_tape = tape.gradient(y, x, output_gradients=g)
    assert np.allclose(tf.nn.conv2d_transpose(g, f, (1, 5, 5, 2), 2, "SAME"), by_tape)


POOLS = [  # (input shape, ksize, strides, padding)
    ((2, 5, 6, 2), 2, 2, "VALID"),
    ((1, 5, 6, 1), 3, 2, "SAME"),
    ((1, 4, 5, 2), (2, 3), (1, 2), "SAME"),
    ((1, 4, 4, 1), [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
]


@pytest.mark.parametrize("xs,ksize,strides,padding", POOLS, ids=str)
@pytest.mark.parametrize("pool", [tf.nn.max_pool2d, tf.nn.avg_pool2d], ids=lambda f: f.__name__)
def test_pooling_gradients(pool, xs, ksize, strides, padding):
    check_grads(lambda x: pool(x, ksize, strides, padding), rand(*xs))


def test_max_pool_sends_a_tied_window_gradient_to_its_first_maximum():
    x = tf.constant(np.array([[1.0, 1.0], [0.0, 1.0]], np.float32).reshape(1, 2, 2, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 2, "VALID")
    assert tape.gradient(y, x).numpy().ravel().tolist() == [1.0, 0.0, 0.0, 0.0]
