"""Are minitape's numbers unchanged, to the last bit? For work on speed.

    PYTHONPATH=/path/to/old/checkout python benchmarks/bitwise.py before.pkl
    python benchmarks/bitwise.py after.pkl           # this checkout
    python benchmarks/bitwise.py before.pkl after.pkl --compare

Runs every benchmark workload (eager and under minitape.function, three steps each) and a set
of course-like computations (higher derivatives, every common op and its gradients, the
cross-entropies, conv2d with a gradient penalty, Keras training, jacobians, custom gradients,
forward mode, the seed's regression), and stores the raw bytes, dtype and shape of every
result; --compare says whether two such files are identical.
"""

import os
import pickle
import sys

os.environ["OMP_NUM_THREADS"] = os.environ["OPENBLAS_NUM_THREADS"] = "1"
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
if not os.environ.get("PYTHONPATH"):  # (with PYTHONPATH set, the minitape found there: old or new)
    sys.path.insert(1, os.path.dirname(HERE))

if len(sys.argv) < 2 or sys.argv[1].startswith("-"):  # (-h, --help: the usage, not a file)
    sys.exit(__doc__)

if "--compare" in sys.argv:
    with open(sys.argv[1], "rb") as f1, open(sys.argv[2], "rb") as f2:
        a, b = pickle.load(f1), pickle.load(f2)
    bad = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    print("identical" if not bad else f"DIFFER: {bad}")
    sys.exit(1 if bad else 0)

import numpy as np  # noqa: E402
import workloads as W  # noqa: E402

import minitape as tf  # noqa: E402

print("minitape from", os.path.dirname(tf.__file__))


def raw(x):
    if x is None:
        return None
    if isinstance(x, (list, tuple)):
        return [raw(v) for v in x]
    if isinstance(x, dict):
        return {k: raw(v) for k, v in sorted(x.items())}
    if hasattr(x, "numpy"):
        x = x.numpy()
    a = np.asarray(x)
    return (str(a.dtype), a.shape, a.tobytes())


out = {}
for name, f in W.TF_STYLE.items():
    for comp_name, comp in (("eager", lambda fn: fn), ("function", tf.function)):
        step = f(tf, comp, W.data(name))
        out[f"{name}-{comp_name}"] = [raw(step()) for _ in range(3 if name != "W4" else 1)]

rng = np.random.default_rng(1)


def case(fn):
    out[fn.__name__] = raw(fn())
    return fn


@case
def nested_third():
    x = tf.constant(rng.standard_normal((5,)))
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.reduce_sum(tf.sin(x) * tf.exp(x) / (1.0 + x * x))
            g1 = t1.gradient(y, x)
            s1 = tf.reduce_sum(g1)
        g2 = t2.gradient(s1, x)
        s2 = tf.reduce_sum(g2)
    g3 = t3.gradient(s2, x)
    return [g1, g2, g3]


@case
def ops_zoo():
    a = tf.constant(rng.standard_normal((4, 3)).astype(np.float32))
    b = tf.constant(rng.standard_normal((3,)).astype(np.float32))
    c = tf.constant(rng.standard_normal((3, 2)).astype(np.float32))
    res = []
    with tf.GradientTape(persistent=True) as t:
        t.watch([a, b, c])
        ys = [
            a + b,
            a - b,
            a * b,
            a / (b * b + 1.0),
            tf.maximum(a, b),
            tf.minimum(a, b),
            tf.square(a),
            tf.sqrt(a * a + 1.0),
            tf.exp(a),
            tf.math.log(a * a + 1.0),
            tf.math.log1p(a * a),
            tf.sin(a),
            tf.cos(a),
            tf.tanh(a),
            tf.sigmoid(a),
            tf.nn.relu(a),
            tf.nn.elu(a),
            tf.nn.softplus(a),
            tf.abs(a),
            -a,
            a**2,
            a**3,
            (a * a + 1.0) ** b,
            tf.matmul(a, c),
            tf.matmul(a, a, transpose_b=True),
            tf.matmul(a, a, transpose_a=True),
            tf.transpose(a),
            tf.reshape(a, [12]),
            tf.reduce_mean(a, axis=0),
            tf.reduce_max(a, axis=1),
            tf.reduce_min(a),
            tf.reduce_sum(a, axis=1, keepdims=True),
            a[1:3, ::2],
            tf.where(a > 0, a, b),
            tf.clip_by_value(a, -0.5, 0.5),
            tf.nn.softmax(a),
            tf.nn.log_softmax(a),
            tf.concat([a, a * 2.0], axis=0),
            tf.stack([a, a], axis=1),
            tf.expand_dims(b, 0),
            tf.broadcast_to(b, [4, 3]),
            tf.cast(a, tf.float64),
            tf.math.divide_no_nan(a, b),
            tf.gather(a, [0, 2, 2]),
            tf.tile(b, [3]),
            tf.einsum("ij,jk->ik", a, c),
            tf.nn.leaky_relu(a),
            tf.nn.relu6(a * 4.0),
            tf.nn.selu(a),
            tf.math.erf(a),
        ]
    for y in ys:
        res.append(t.gradient(y, [a, b, c]))
        res.append(y)
    del t
    return res


@case
def second_order_zoo():
    a = tf.constant(rng.standard_normal((4, 3)))
    res = []
    for f in [
        tf.tanh,
        tf.sigmoid,
        tf.nn.relu,
        tf.sqrt,
        tf.exp,
        lambda v: tf.nn.softmax(v),
        lambda v: tf.nn.elu(v),
        lambda v: v * v * v,
        lambda v: tf.reduce_max(v, 1),
    ]:
        with tf.GradientTape() as o:
            o.watch(a)
            with tf.GradientTape() as i:
                i.watch(a)
                y = tf.reduce_sum(f(a * a + 0.1))
            g = i.gradient(y, a)
            z = tf.reduce_sum(g * g)
        res.append([g, o.gradient(z, a)])
    return res


@case
def xent():
    logits = tf.Variable(rng.standard_normal((8, 5)).astype(np.float32))
    labels = tf.constant(rng.integers(0, 5, 8))
    onehot = tf.one_hot(labels, 5)
    with tf.GradientTape(persistent=True) as t:
        l1 = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
        l2 = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(onehot, logits))
        l3 = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(onehot, logits))
    return [t.gradient(loss, logits) for loss in (l1, l2, l3)]


@case
def conv():
    x = tf.constant(rng.standard_normal((2, 6, 6, 3)).astype(np.float32))
    f = tf.Variable(rng.standard_normal((3, 3, 3, 4)).astype(np.float32))
    with tf.GradientTape() as o:
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(tf.nn.conv2d(x, f, 1, "SAME") ** 2)
        gx = t.gradient(y, x)
        z = tf.reduce_sum(gx * gx)
    return [gx, o.gradient(z, f)]


@case
def keras_training():
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential(
        [
            tf.keras.layers.Dense(16, activation="relu"),
            tf.keras.layers.Dense(8, activation="tanh"),
            tf.keras.layers.Dense(3),
        ]
    )
    x = tf.constant(rng.standard_normal((32, 4)).astype(np.float32))
    y = tf.constant(rng.integers(0, 3, 32))
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    res = []
    for opt in (tf.keras.optimizers.Adam(0.01), tf.keras.optimizers.SGD(0.1, momentum=0.9)):
        for _ in range(5):
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            res.append([loss, grads])
    res.append([v for v in model.trainable_variables])
    return res


@case
def jac():
    x = tf.Variable(rng.standard_normal((3,)))
    b = tf.constant(rng.standard_normal((4, 3)))
    with tf.GradientTape(persistent=True) as t:
        t.watch(b)
        y = tf.sin(x) * x[0] + tf.square(x)
        z = tf.tanh(b * x) * b
    return [
        t.jacobian(y, x),
        t.batch_jacobian(z, b),
        t.gradient(y, x, output_gradients=tf.constant([1.0, 2.0, 3.0], tf.float64)),
    ]


@case
def custom():
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)
        return tf.math.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))

    x = tf.constant([0.0, 2.0, 100.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = log1pexp(x)
    return [t.gradient(y, x)]


@case
def forward_mode():
    x = tf.constant(rng.standard_normal((3,)))
    v = tf.constant([1.0, 0.5, 0.25], tf.float64)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y = tf.reduce_sum(tf.tanh(x) * x)
    with tf.GradientTape() as t:
        t.watch(x)
        with tf.autodiff.ForwardAccumulator(x, v) as acc2:
            y2 = tf.reduce_sum(tf.sin(x) * x)
        jv = acc2.jvp(y2)
    return [acc.jvp(y), jv, t.gradient(jv, x)]


@case
def linreg_seed():
    X = tf.constant(np.linspace(-1, 1, 50).astype(np.float32))
    Y = 3 * X + 2 + tf.constant(rng.standard_normal(50).astype(np.float32) * 0.1)
    w, b = tf.Variable(0.0), tf.Variable(0.0)
    for _ in range(30):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(Y - (w * X + b)))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
    return [w, b, loss]


@case
def unconnected_and_dup():
    x = tf.Variable(2.0)
    z = tf.Variable(3.0)
    with tf.GradientTape() as t:
        y = x * x + x
    return [t.gradient({"a": y, "b": [y, y * 2.0]}, [x, z, x], unconnected_gradients="zero")]


@case
def scalar_chain_f32():
    w = tf.Variable(0.9)
    b = tf.Variable(0.1)
    with tf.GradientTape() as t:
        y = tf.constant(0.5)
        for _ in range(50):
            y = tf.tanh(y * w + b) - 0.5 * y
    return t.gradient(y, [w, b])


with open(sys.argv[1], "wb") as fh:
    pickle.dump(out, fh)
print(len(out), "cases")
