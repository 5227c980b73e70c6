"""minitape.philox and minitape.random: the generator against its published answers, and the
state a draw changes (TF's own numbers are checked in tf_golden/cases_random.py)."""

import numpy as np
import pytest

import minitape as tf
from minitape import philox
from minitape import random as mrandom


@pytest.mark.parametrize(
    "counter, key, expected",
    [  # Random123's known-answer vectors for Philox-4x32-10
        ([0, 0, 0, 0], (0, 0), [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
        (
            [0xFFFFFFFF] * 4,
            (0xFFFFFFFF, 0xFFFFFFFF),
            [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD],
        ),
        (
            [0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344],
            (0xA4093822, 0x299F31D0),
            [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1],
        ),
    ],
)
def test_philox_known_answers(counter, key, expected):
    assert philox.philox(np.array([counter], np.uint32), key)[0].tolist() == expected


def test_blocks_carry_into_the_high_half_of_the_counter():
    low = (1 << 64) - 1  # the next block's counter wraps the low 64 bits
    stream = philox.Stream(5, low)
    after = philox.Stream(5, 1 << 64)
    np.testing.assert_array_equal(stream.blocks([1]), after.blocks([0]))


def test_uniforms_are_in_range_and_normals_look_normal():
    stream = philox.stateless_key_counter(1, 2)
    u = philox.uniform(stream, 10_000, np.float32)
    assert u.dtype == np.float32 and u.min() >= 0 and u.max() < 1
    n = philox.normal(stream, 10_000, np.float64)
    assert abs(n.mean()) < 0.05 and abs(n.std() - 1) < 0.05
    t = philox.truncated_normal(stream, 10_000, np.float32)
    assert np.abs(t).max() < 2


def test_the_c_float_functions_are_within_one_ulp_of_float64_rounded():
    x = np.linspace(1e-7, 1, 10_001, dtype=np.float32)
    for fn, ref in [(philox._logf, np.log), (philox._sinf, np.sin), (philox._cosf, np.cos)]:
        got = fn(x * np.float32(6.28) if fn is not philox._logf else x)
        arg = (x * np.float32(6.28) if fn is not philox._logf else x).astype(np.float64)
        want = ref(arg).astype(np.float32)
        assert np.all(np.abs(got - want) <= np.spacing(np.abs(want)))


def test_unchanged_puts_every_stream_back():
    tf.random.set_seed(5)
    g = tf.random.Generator.from_seed(3)
    with mrandom._unchanged():
        a = [tf.random.normal((2,)), tf.random.normal((2,), seed=1), g.normal((2,))]
    b = [tf.random.normal((2,)), tf.random.normal((2,), seed=1), g.normal((2,))]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x.numpy(), y.numpy())


def test_no_seed_at_all_is_random():
    tf.random.set_seed(None)
    f = tf.function(lambda: tf.random.uniform((100,)))
    assert not np.array_equal(tf.random.uniform((100,)).numpy(), tf.random.uniform((100,)).numpy())
    assert not np.array_equal(f().numpy(), f().numpy())


def test_a_draw_on_a_tape_passes_gradients_to_mean_and_stddev():
    mean, stddev = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([mean, stddev])
        x = tf.random.normal((4,), mean=mean, stddev=stddev, seed=1)
        y = tf.reduce_sum(x)
    assert float(tape.gradient(y, mean)) == 4.0
    z = (x.numpy() - 1.0) / 2.0  # the standard normals drawn
    assert float(tape.gradient(y, stddev)) == pytest.approx(float(z.sum()), rel=1e-6)


def test_keras_initializer_with_a_seed_repeats_and_without_takes_one_from_python_random():
    import random

    init = tf.keras.initializers.GlorotUniform(seed=3)
    np.testing.assert_array_equal(init((3, 4)).numpy(), init((3, 4)).numpy())
    random.seed(1)
    a = tf.keras.initializers.RandomNormal()
    random.seed(1)
    b = tf.keras.initializers.RandomNormal()
    assert a.seed == b.seed
    np.testing.assert_array_equal(a((5,)).numpy(), b((5,)).numpy())
    with pytest.raises(ValueError, match="integer"):
        tf.keras.initializers.RandomNormal(seed=1.5)
    with pytest.raises(ValueError, match="integer"):
        tf.keras.utils.set_random_seed("1")
