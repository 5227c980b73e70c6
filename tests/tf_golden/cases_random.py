"""Golden cases for random numbers: TF's own streams, compared bit for bit (rtol=0, atol=0).

Each case starts from a known state (`tf.random.set_seed`, which also empties TF's cache of
eager kernels, or `tf.keras.utils.set_random_seed`), so that it gives the same numbers alone
or after any other case. Covered: the global seed and the op seeds it gives, op seeds with and
without a global seed, streams that continue from call to call, set_seed in the middle of a
run, every dtype each op takes, shuffle and categorical, the stateless ops, the seeds TF takes
that are no integers, and Keras 3's initializers and a Dense / Sequential build."""

import numpy as np

from .cases import attempt, case

EXACT = {"rtol": 0.0, "atol": 0.0}


@case(**EXACT)
def random_normal_after_set_seed(tf):
    tf.random.set_seed(0)
    return [
        tf.random.normal((3,)),
        tf.random.normal((2, 3)),
        tf.random.normal((5,), mean=2.0, stddev=0.5),
        tf.random.normal((3,), dtype=tf.float64),
        tf.random.normal((2, 2), mean=-1.0, stddev=3.0, dtype=tf.float64),
        tf.random.normal((6,), dtype=tf.float16),
        tf.random.normal(()),
        tf.random.normal((0, 3)),
    ]


@case(**EXACT)
def random_normal_several_global_seeds(tf):
    out = []
    for seed in (1, 7, 42, 2**31 - 1, 2**31, 123456789):
        tf.random.set_seed(seed)
        out.append([tf.random.normal((5,)), tf.random.normal((2,), seed=3)])
    return out


@case(**EXACT)
def random_normal_large(tf):
    """Enough numbers that every Box-Muller branch and many groups are used."""
    tf.random.set_seed(11)
    return [tf.random.normal((40, 50)), tf.random.normal((101,), dtype=tf.float64)]


@case(**EXACT)
def random_uniform_floats(tf):
    tf.random.set_seed(1)
    return [
        tf.random.uniform((5,)),
        tf.random.uniform((2, 2), -1.0, 3.0),
        tf.random.uniform((3,), maxval=10.0),
        tf.random.uniform((3,), minval=0, maxval=2),
        tf.random.uniform((3,), minval=0.0, maxval=1.0),
        tf.random.uniform((4,), dtype=tf.float64),
        tf.random.uniform((3,), -2.0, 2.0, dtype=tf.float64),
        tf.random.uniform((6,), dtype=tf.float16),
        tf.random.uniform((7, 3)),
    ]


@case(**EXACT)
def random_uniform_ints(tf):
    tf.random.set_seed(2)
    return [
        tf.random.uniform((6,), maxval=10, dtype=tf.int32),
        tf.random.uniform((5,), minval=-7, maxval=3, dtype=tf.int32),
        tf.random.uniform((5,), minval=-(2**31), maxval=2**31 - 1, dtype=tf.int32),
        tf.random.uniform((5,), maxval=10, dtype=tf.int64),
        tf.random.uniform((3,), minval=-(2**40), maxval=2**50, dtype=tf.int64),
        tf.random.uniform((2, 3), minval=5, maxval=6, dtype=tf.int32),
        tf.random.uniform((4,), maxval=100, dtype=tf.int32, seed=9),
        tf.random.uniform((4,), maxval=100, dtype=tf.int32, seed=9),
        attempt(tf.random.uniform, (2,), minval=3, maxval=3, dtype=tf.int32),
        tf.random.uniform((3,), maxval=10, dtype=tf.int32),  # (after the refusal)
    ]


@case(**EXACT)
def random_truncated_normal(tf):
    tf.random.set_seed(3)
    return [
        tf.random.truncated_normal((9,)),
        tf.random.truncated_normal((3, 7), mean=1.0, stddev=0.1),
        tf.random.truncated_normal((5,), dtype=tf.float64),
        tf.random.truncated_normal((4,), seed=1),
        tf.random.truncated_normal((4,), seed=1),
        tf.random.truncated_normal((300,)),
        tf.random.truncated_normal((3,), dtype=tf.float16),
    ]


@case(**EXACT)
def random_op_seed_streams_continue(tf):
    """Identical calls with the same seeds share a kernel: the stream continues (the shape is
    an input, not part of the kernel; the op and the dtype are)."""
    tf.random.set_seed(3)
    return [
        tf.random.normal((3,), seed=5),
        tf.random.normal((3,), seed=5),
        tf.random.normal((4,), seed=5),
        tf.random.normal((2,), seed=5, mean=10.0),
        tf.random.uniform((2,), seed=5),
        tf.random.normal((2,), seed=5, dtype=tf.float64),
        tf.random.uniform((2,), seed=5),
        tf.random.normal((2,), seed=6),
        tf.random.normal((2,)),
        tf.random.normal((2,), seed=5),
    ]


@case(**EXACT)
def random_set_seed_midway(tf):
    tf.random.set_seed(4)
    a = [tf.random.normal((2,)), tf.random.normal((2,), seed=1), tf.random.uniform((2,))]
    tf.random.set_seed(4)
    b = [tf.random.normal((2,)), tf.random.normal((2,), seed=1), tf.random.uniform((2,))]
    tf.random.set_seed(5)
    c = [tf.random.normal((2,)), tf.random.normal((2,), seed=1)]
    tf.random.set_seed(4)
    d = tf.random.normal((2,), seed=1)  # (the kernel cache was emptied: its stream restarts)
    return [a, b, c, d, bool(tf.reduce_all(a[0] == b[0])), bool(tf.reduce_all(a[1] == d))]


@case(**EXACT)
def random_op_seed_without_global_seed(tf):
    """An op seed alone: TF pairs it with its default global seed, 87654321."""
    tf.random.set_seed(None)
    return [
        tf.random.normal((3,), seed=7),
        tf.random.normal((3,), seed=7),
        tf.random.uniform((4,), maxval=50, dtype=tf.int64, seed=7),
        tf.random.shuffle(tf.range(6), seed=7),
        tf.random.truncated_normal((2,), seed=0),
    ]


@case(**EXACT)
def random_zero_seeds(tf):
    """Seeds (0, 0) mean 'random' to TF's kernels: get_seed gives (0, 2**31 - 1) instead."""
    tf.random.set_seed(0)
    return [tf.random.normal((3,), seed=0), tf.random.normal((3,), seed=2**31 - 1)]


@case
def random_without_any_seed(tf):
    """No seed at all: random numbers, a new stream per call sequence (only their shapes and
    ranges are checked)."""
    tf.random.set_seed(None)
    a = tf.random.uniform((1000,))
    b = tf.random.uniform((1000,))
    return [
        a.shape,
        bool(tf.reduce_all((a >= 0) & (a < 1))),
        bool(tf.reduce_any(a != b)),
        tf.random.normal((2, 2)).shape,
    ]


@case(**EXACT)
def random_shuffle_seeded(tf):
    tf.random.set_seed(2)
    return [
        tf.random.shuffle(tf.range(10)),
        tf.random.shuffle(tf.range(10)),
        tf.random.shuffle(tf.reshape(tf.range(10), (5, 2))),
        tf.random.shuffle(tf.constant([1.5, 2.5, 3.5]), seed=3),
        tf.random.shuffle(tf.constant([1.5, 2.5, 3.5]), seed=3),
        tf.random.shuffle(tf.constant([1, 2, 3]), seed=3),
        tf.random.shuffle(tf.constant([4.0])),
        tf.random.shuffle(tf.constant(4.0)),
        tf.random.shuffle(tf.range(37), seed=3),
        tf.random.shuffle(tf.constant([1.5, 2.5, 3.5]), seed=3),
    ]


@case(**EXACT)
def random_categorical(tf):
    tf.random.set_seed(5)
    logits = tf.math.log([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]])
    return [
        tf.random.categorical(logits, 5),
        tf.random.categorical(logits, 3, dtype=tf.int32),
        tf.random.categorical(tf.constant([[1.0, 2.0, -1.0, 0.5]]), 10, seed=4),
        tf.random.categorical(tf.constant([[1.0, 2.0, -1.0, 0.5]]), 10, seed=4),
        tf.random.categorical(tf.zeros((3, 6)), 7),
        tf.random.categorical(tf.constant([[0.0, 1.0]], tf.float64), 4),
        attempt(tf.random.categorical, tf.constant([1.0, 2.0]), 2),
        attempt(tf.random.categorical, logits, 2, dtype=tf.float32),
    ]


@case(**EXACT)
def random_stateless(tf):
    return [
        tf.random.stateless_normal((3,), seed=(1, 2)),
        tf.random.stateless_normal((3,), seed=(1, 2)),
        tf.random.stateless_normal((2, 3), seed=[7, 0], mean=1.0, stddev=2.0),
        tf.random.stateless_normal((3,), seed=tf.constant([-1, 2**40], tf.int64)),
        tf.random.stateless_normal((3,), seed=tf.constant([-1, 5], tf.int32)),
        tf.random.stateless_normal((5,), seed=(1, 2), dtype=tf.float64),
        tf.random.stateless_normal((4,), seed=(1, 2), dtype=tf.float16),
        tf.random.stateless_uniform((5,), seed=(3, 4)),
        tf.random.stateless_uniform((5,), seed=(3, 4), minval=-1.0, maxval=2.0),
        tf.random.stateless_uniform((3,), seed=(3, 4), dtype=tf.float64),
        tf.random.stateless_uniform((4,), seed=(3, 4), dtype=tf.float16),
        tf.random.stateless_uniform((6,), seed=(3, 4), minval=0, maxval=10, dtype=tf.int32),
        tf.random.stateless_uniform((3,), seed=(3, 4), minval=-5, maxval=2**40, dtype=tf.int64),
        tf.random.stateless_uniform((4,), seed=(3, 4), minval=None, maxval=None, dtype=tf.int32),
        tf.random.stateless_uniform((3,), seed=(3, 4), minval=None, maxval=None, dtype=tf.int64),
        tf.random.stateless_truncated_normal((9,), seed=(5, 6)),
        tf.random.stateless_truncated_normal((3,), seed=(5, 6), mean=-1.0, stddev=0.5),
        tf.random.stateless_truncated_normal((5,), seed=(5, 6), dtype=tf.float64),
        tf.random.stateless_normal((40, 25), seed=(9, 9)),
    ]


@case
def random_stateless_refusals(tf):
    return [
        type(attempt(tf.random.stateless_normal, (2,), seed=(1, 2, 3))).__name__,
        type(attempt(tf.random.stateless_normal, (2,), seed=(1.0, 2.0))).__name__,
        type(attempt(tf.random.stateless_normal, (2,), seed=(1, 2), dtype=tf.int32)).__name__,
        type(attempt(tf.random.stateless_uniform, (2,), seed=(1, 2), dtype=tf.int32)).__name__,
        type(
            attempt(
                tf.random.stateless_uniform, (2,), seed=(1, 2), minval=3, maxval=1, dtype=tf.int32
            )
        ).__name__,
    ]


@case(message=True, **EXACT)
def random_seeds_that_are_no_integers(tf):
    """TF takes any seed at set_seed (a Python random.Random is seeded with it) and truncates
    it at the next draw: seed % (2**31 - 1), then int(); a string fails there."""
    out = []
    for seed in ("abc", b"abc", 1.5, 2.7, -1.5, 2**70, -(2**70), True, np.int64(5)):
        tf.random.set_seed(seed)
        out.append(attempt(tf.random.normal, (2,)))
        tf.random.set_seed(1)
        out.append(attempt(tf.random.normal, (2,), seed=seed))
        out.append(attempt(tf.random.shuffle, tf.range(4), seed=seed))
    tf.random.set_seed(tf.constant(3))
    out.append(tf.random.normal((2,)))
    tf.random.set_seed(np.array(3))
    out.append(tf.random.normal((2,)))
    out.append(type(attempt(tf.random.set_seed, [3])).__name__)
    tf.random.set_seed(1)
    out.append(tf.random.normal((2,), seed=tf.constant(3)))
    out.append(tf.random.normal((2,), seed=np.float32(2.5)))
    out.append(attempt(tf.random.normal, (2,), seed=[3]))
    return out


@case(**EXACT)
def random_draws_in_a_function(tf):
    """A traced function draws anew on every call (its op's kernel keeps its stream)."""
    tf.random.set_seed(1)
    f = tf.function(lambda: tf.random.normal((2,), seed=8))
    return [f(), f(), f()]


# --- Keras 3 ----------------------------------------------------------------------------------
def _build(tf, first_input_shape=None):
    kwargs = {} if first_input_shape is None else {"input_shape": first_input_shape}
    model = tf.keras.Sequential(
        [tf.keras.layers.Dense(4, activation="relu", **kwargs), tf.keras.layers.Dense(2)]
    )
    if first_input_shape is None:
        model(tf.zeros((1, 3)))
    return [w.numpy() for w in model.weights]


@case(**EXACT)
def keras_set_random_seed_sequential_build(tf):
    out = []
    for seed in (0, 42, 1234):
        tf.keras.utils.set_random_seed(seed)
        out.append(_build(tf))
    tf.keras.utils.set_random_seed(42)
    out.append(_build(tf))
    return out


@case(**EXACT)
def keras_set_random_seed_dense_layers(tf):
    tf.keras.utils.set_random_seed(7)
    a = tf.keras.layers.Dense(3)
    b = tf.keras.layers.Dense(5, kernel_initializer="random_normal", bias_initializer="ones")
    c = tf.keras.layers.Dense(2, kernel_initializer="random_uniform")
    x = tf.ones((2, 4))
    return [a(x), b(x), c(x), a.kernel, b.kernel, c.kernel, b.bias]


@case(**EXACT)
def keras_set_random_seed_then_tf_random(tf):
    """set_random_seed also sets TF's global seed, numpy's and Python's."""
    import random

    tf.keras.utils.set_random_seed(3)
    return [tf.random.normal((3,)), np.random.rand(2), random.random()]


@case(**EXACT)
def keras_initializers_seeded(tf):
    """An initializer given a seed gives the same values on every call (Keras 3 draws with
    stateless ops, seeded [seed, 0])."""
    init = tf.keras.initializers
    g = init.GlorotUniform(seed=3)
    return [
        init.RandomNormal(seed=1)((2, 3)),
        init.RandomNormal(mean=1.0, stddev=2.0, seed=1)((4,)),
        init.RandomUniform(seed=2)((2, 3)),
        init.RandomUniform(minval=-3.0, maxval=1.0, seed=2)((5,)),
        init.TruncatedNormal(seed=4)((3, 3)),
        g((3, 4)),
        g((3, 4)),
        g((2, 3, 4, 5)),
        init.GlorotNormal(seed=5)((4, 3)),
        init.HeNormal(seed=6)((4, 3)),
        init.HeUniform(seed=6)((4, 3)),
        init.LecunNormal(seed=7)((4, 3)),
        init.LecunUniform(seed=7)((4, 3)),
        init.VarianceScaling(scale=2.0, mode="fan_out", distribution="untruncated_normal", seed=8)(
            (3, 2)
        ),
        init.RandomNormal(seed=2**40)((3,)),
        init.RandomNormal(seed=-5)((3,)),
        init.RandomNormal(seed=1)((2,), dtype="float64"),
        init.Zeros()((2, 2)),
        init.Ones()((2,)),
        init.Constant(3.0)((2,)),
    ]


@case(**EXACT)
def keras_initializers_unseeded_after_set_random_seed(tf):
    """Without a seed, a Keras 3 initializer takes one from Python's `random` when it is made
    (random.randint(1, 10**9)): set_random_seed makes those repeat."""
    tf.keras.utils.set_random_seed(11)
    init = tf.keras.initializers
    a, b = init.RandomNormal(), init.GlorotUniform()
    return [a((3,)), a((3,)), b((2, 2)), init.RandomUniform()((4,)), init.get("he_normal")((2,))]


@case
def keras_only_tf_set_seed_builds_differ(tf):
    """tf.random.set_seed alone does not seed Keras 3's initializers (they take their seeds
    from Python's `random`): two builds after the same set_seed differ."""
    tf.random.set_seed(1)
    a = _build(tf)
    tf.random.set_seed(1)
    b = _build(tf)
    return bool(np.any(a[0] != b[0]))


@case
def keras_set_random_seed_refuses_non_int(tf):
    return [
        type(attempt(tf.keras.utils.set_random_seed, 1.5)).__name__,
        type(attempt(tf.keras.utils.set_random_seed, "1")).__name__,
        type(attempt(tf.keras.initializers.RandomNormal, seed=1.5)).__name__,
    ]


@case(**EXACT)
def random_global_seed_in_a_function(tf):
    """In a traced function, an op without a seed takes the graph's count of such ops as its
    op seed (0, 1, ...), not the eager generator's; each op has its own kernel, and set_seed
    starts them again."""
    tf.random.set_seed(3)
    eager = [tf.random.normal((3,)) for _ in range(2)]
    g = tf.function(
        lambda: [tf.random.normal((2,)), tf.random.uniform((2,)), tf.random.normal((2,), seed=4)]
    )
    tf.random.set_seed(3)
    calls = [g(), g()]
    tf.random.set_seed(3)
    again = g()
    tf.random.set_seed(0)
    h = tf.function(lambda: tf.random.normal((2,)))
    return [eager, calls, again, h(), h(), tf.random.normal((2,), seed=4)]


@case(**EXACT)
def random_function_that_makes_a_variable(tf):
    """A function traced twice (its first call makes a variable): its draws still continue
    from call to call."""
    tf.random.set_seed(6)
    box = []

    @tf.function
    def f():
        if not box:
            box.append(tf.Variable(1.0))
        return box[0] + tf.random.normal((2,))

    return [f(), f(), f()]


# --- tf.random.Generator --------------------------------------------------------------------
@case(**EXACT)
def random_generator_from_seed(tf):
    """A generator's stream: counter = the seed, key 0; each draw of n numbers moves the
    counter on by 256 * n. (Its state is read with .numpy(): TF's is a variable, minitape's a
    tensor made when asked.)"""
    g = tf.random.Generator.from_seed(1)
    out = [g.state.numpy(), g.normal((3,)), g.state.numpy(), g.normal((3,))]
    out += [
        g.normal((2, 2), mean=1.0),
        g.uniform((5,)),
        g.uniform((3,), minval=-2.0, maxval=2.0),
        g.uniform((4,), maxval=10, dtype=tf.int32),
        g.uniform((3,), minval=-5, maxval=2**40, dtype=tf.int64),
        g.uniform((3,), dtype=tf.float64),
        g.normal((3,), dtype=tf.float64),
        g.truncated_normal((6,)),
        g.uniform_full_int((2,), dtype=tf.int64),
        g.state.numpy(),
    ]
    for seed in (0, 42, 2**70 + 5, -1, [1, 2], [3, 4, 5, 6]):
        h = tf.random.Generator.from_seed(seed)
        out.append([h.state.numpy(), h.normal((2,))])
    return out


@case(**EXACT)
def random_generator_split_and_seeds(tf):
    g = tf.random.Generator.from_seed(7)
    a, b = g.split(2)
    c = tf.random.Generator.from_seed(7)
    return [
        a.state.numpy(),
        b.state.numpy(),
        g.state.numpy(),
        a.normal((3,)),
        b.normal((3,)),
        g.normal((3,)),
        c.normal((3,)),
        g.make_seeds(2),
        tf.random.stateless_normal((2,), seed=g.make_seeds(1)[:, 0]),
        tf.random.create_rng_state(5, "philox"),
    ]


@case(**EXACT)
def random_generator_in_a_function(tf):
    g = tf.random.Generator.from_seed(3)
    f = tf.function(lambda: g.normal((2,)))
    return [f(), f(), g.normal((2,)), f(), g.state.numpy()]


@case(message=True)
def random_arguments_tf_refuses(tf):
    # a string seed, a bool shape or count, and `alg` values the stateless ops do not know
    g = tf.random.Generator.from_seed(1)
    ok = [tf.random.stateless_uniform([3], seed=[1, 2], alg=alg) for alg in (1, 3, "philox")]
    return ok + [
        attempt(tf.random.Generator.from_seed, b"xy"),
        attempt(tf.random.Generator.from_seed, "abc"),
        type(attempt(g.split, True)).__name__,
        type(attempt(tf.random.stateless_uniform, [True], seed=[1, 2])).__name__,
        attempt(tf.random.stateless_uniform, [2], seed=[1, 2], alg=-1),
        attempt(tf.random.stateless_normal, [2], seed=[1, 2], alg="abc"),
        attempt(tf.random.stateless_uniform, [2], seed=[1, 2], alg=[1]),
        type(attempt(tf.random.stateless_uniform, [2], seed=[1, 2], alg=2)).__name__,
        attempt(tf.random.stateless_truncated_normal, [2], seed=[1, 2], alg=1.0),
    ]
