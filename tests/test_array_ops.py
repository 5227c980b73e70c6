"""array_ops.py: gather, embedding_lookup, one_hot, tile, repeat, split, unstack, sort,
argsort, einsum. Gradients against finite differences (first and second order, several
shapes); values from hand derivations (TF's own values are in the golden record,
tests/tf_golden/cases_nn.py)."""

import numpy as np
import pytest

import minitape as tf
from minitape.testing import check_grads

rng = np.random.default_rng(7)


def rand(*shape):
    return rng.uniform(-2.0, 2.0, size=shape)


# --- gradients, first and second order -------------------------------------------------------
GATHERS = {
    "axis0_repeats": (lambda p: tf.gather(p, [2, 0, 2, 1]), (3, 4)),
    "axis1": (lambda p: tf.gather(p, [[1, 1], [0, 3]], axis=1), (3, 4)),
    "axis_neg": (lambda p: tf.gather(p, [0, 0], axis=-1), (2, 3, 2)),
    "vector_scalar_index": (lambda p: tf.gather(p, 2), (4,)),
    "batch_dims1": (
        lambda p: tf.gather(p, [[0, 2, 2], [1, 1, 0]], axis=1, batch_dims=1),
        (2, 3, 2),
    ),
    "batch_dims1_axis2": (lambda p: tf.gather(p, [[1], [0]], axis=2, batch_dims=1), (2, 3, 2)),
    "batch_dims_neg": (lambda p: tf.gather(p, [[0, 1], [1, 1]], axis=1, batch_dims=-1), (2, 3)),
    "embedding_lookup": (lambda p: tf.nn.embedding_lookup(p, [[3, 0], [3, 3]]), (4, 2)),
    "embedding_lookup_sharded": (
        lambda p: tf.nn.embedding_lookup([p[:2], p[2:]], [3, 1, 2]),
        (4, 2),
    ),
    "embedding_lookup_max_norm": (
        lambda p: tf.nn.embedding_lookup(p, [1, 0], max_norm=0.5),
        (3, 2),
    ),
    "tile": (lambda x: tf.tile(x, [2, 3]), (2, 3)),
    "tile_ones": (lambda x: tf.tile(x, [1, 2, 1]), (2, 1, 3)),
    "tile_scalar": (lambda x: tf.tile(x, []), ()),
    "repeat_flat": (lambda x: tf.repeat(x, 2), (2, 3)),
    "repeat_counts": (lambda x: tf.repeat(x, [0, 3, 1], axis=1), (2, 3)),
    "split_count": (lambda x: tf.split(x, 2, axis=1), (3, 4)),
    "split_sizes": (lambda x: tf.split(x, [1, -1], axis=0)[1], (3, 4)),
    "unstack": (lambda x: tf.unstack(x, axis=-1), (3, 2)),
    "unstack_one_used": (lambda x: tf.unstack(x)[1] * 2.0, (3, 2)),
    "sort": (lambda x: tf.sort(x), (5,)),
    "sort_descending_axis0": (lambda x: tf.sort(x, axis=0, direction="DESCENDING"), (4, 3)),
    "sort_3d_middle_axis": (lambda x: tf.sort(x, axis=1), (2, 3, 2)),
}


@pytest.mark.parametrize("name", sorted(GATHERS))
def test_gradients(name):
    fn, shape = GATHERS[name]
    check_grads(fn, rand(*shape))


EINSUMS = {
    "ij,jk->ik": [(3, 4), (4, 2)],
    "bij,bjk->bik": [(2, 3, 4), (2, 4, 2)],
    "ij->ji": [(3, 4)],
    "ij->i": [(3, 4)],
    "ij->": [(3, 4)],
    "i,j->ij": [(3,), (4,)],
    "i,i->": [(4,)] * 2,
    "i,i": [(4,)] * 2,
    "ij,ij->ij": [(3, 4)] * 2,
    "ij,j->i": [(3, 4), (4,)],
    "...ij,jk->...ik": [(2, 3, 4), (4, 5)],
    "ij,kj->ik": [(3, 4), (2, 4)],
    "ijk->kj": [(2, 3, 4)],
    "ab,bc,cd->ad": [(2, 3), (3, 4), (4, 2)],
}


@pytest.mark.parametrize("equation", sorted(EINSUMS))
def test_einsum_gradients(equation):
    shapes = EINSUMS[equation]
    check_grads(lambda *xs: tf.einsum(equation, *xs), *[rand(*s) for s in shapes])


def test_gather_gradient_is_differentiable_in_g():
    """GatherGrad's own rule (a gather): an output_gradients path through it, third order."""
    check_grads(lambda p: tf.reduce_sum(tf.gather(p, [1, 1, 0]) ** 3), rand(3, 2), order=3)


# --- values and edge cases, by hand -----------------------------------------------------------
def test_gather_values_and_its_gradient_as_slices():
    p = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.gather(p, [2, 0, 2])
    assert y.numpy().tolist() == [[5, 6], [1, 2], [5, 6]]
    g = tape.gradient(y, p)
    assert isinstance(g, tf.IndexedSlices) and g.indices.numpy().tolist() == [2, 0, 2]
    assert tf.convert_to_tensor(g).numpy().tolist() == [[1, 1], [0, 0], [2, 2]]


def test_sort_and_repeat_have_dense_gradients_as_in_tf():
    x = tf.constant([3.0, 1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        s, r = tf.sort(x), tf.repeat(x, [2, 0, 1])
    assert type(tape.gradient(s, x)) is tf.Tensor
    assert tape.gradient(r, x).numpy().tolist() == [2, 0, 1]


def test_gather_errors():
    p = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 2 is not in"):
        tf.gather(p, [0, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0,0\] = -1"):
        tf.gather(p, [[-1]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tindices"):
        tf.gather(p, [0.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least rank 3"):
        tf.gather(p, [0], axis=2)


def test_one_hot():
    y = tf.one_hot([0, 2, -1, 3], 3)
    assert y.dtype == tf.float32
    assert y.numpy().tolist() == [[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]]
    z = tf.one_hot([1], 2, on_value=5, off_value=-1)
    assert z.dtype == tf.int32 and z.numpy().tolist() == [[-1, 5]]
    assert tf.one_hot([[0, 1]], 2, axis=0).shape == (2, 1, 2)
    with pytest.raises(TypeError, match="does not match"):
        tf.one_hot([0], 2, on_value=1, off_value=0.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="depth must be non-negative"):
        tf.one_hot([0], -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="TI"):
        tf.one_hot([0.0], 2)


def test_one_hot_has_no_gradient():
    on = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(on)
        y = tf.one_hot([0, 1], 2, on_value=on, off_value=0.0)
    assert tape.gradient(y, on) is None


def test_tile_repeat_split_values():
    x = tf.constant([[1, 2], [3, 4]])
    assert tf.tile(x, [1, 2]).numpy().tolist() == [[1, 2, 1, 2], [3, 4, 3, 4]]
    assert tf.repeat(x, 2).numpy().tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    assert tf.repeat(x, [2, 0], axis=0).numpy().tolist() == [[1, 2], [1, 2]]
    assert [p.numpy().tolist() for p in tf.split(x, [1, -1], axis=1)] == [[[1], [3]], [[2], [4]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="evenly divide"):
        tf.split(tf.zeros([3]), 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="only be one -1"):
        tf.split(tf.zeros([3]), [-1, -1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="vector of length 2"):
        tf.tile(x, [2])
    with pytest.raises(TypeError, match="must be of type integer"):
        tf.repeat(x, 1.5)


def test_sort_and_argsort():
    v = tf.constant([3.0, 1.0, 2.0, 1.0, np.nan])
    assert np.array_equal(tf.sort(v).numpy(), [1, 1, 2, 3, np.nan], equal_nan=True)
    assert np.array_equal(
        tf.sort(v, direction="DESCENDING").numpy(), [3, 2, 1, 1, np.nan], equal_nan=True
    )
    assert tf.argsort(v).numpy().tolist() == [1, 3, 2, 0, 4]  # ties keep their order
    assert tf.argsort(v, direction="DESCENDING").numpy().tolist() == [0, 2, 1, 3, 4]
    assert tf.argsort(v).dtype == tf.int32
    with pytest.raises(ValueError, match="direction"):
        tf.sort(v, direction="UP")
    w = tf.constant([3.0, 1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(w)
        s = tf.sort(w) * tf.constant([1.0, 10.0, 100.0])
        order = tf.cast(tf.argsort(w), tf.float32)
    assert tape.gradient(s, w).numpy().tolist() == [100, 1, 10]  # back where it came from
    assert tape.gradient(order, w) is None


def test_einsum_values():
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert tf.einsum("ij,jk->ik", a, a).numpy().tolist() == [[7, 10], [15, 22]]
    assert tf.einsum("ij->ji", a).numpy().tolist() == [[1, 3], [2, 4]]
    assert tf.einsum("ij", a).numpy().tolist() == [[1, 2], [3, 4]]
    assert tf.einsum("ji", a).numpy().tolist() == [[1, 3], [2, 4]]  # implicit: sorted letters
    assert tf.linalg.einsum("i,i->", a[0], a[1]).numpy() == 11


def test_repeat_and_shuffle_of_a_scalar_as_in_tf():
    # (recorded under TF 2.21 in tests/fuzz/record.json)
    assert tf.repeat(3, 2, axis=0).numpy().tolist() == [3, 3]
    assert tf.repeat(tf.ones([2, 1]), np.array([1.0, 2.0]), axis=0).shape == (3, 1)
    with pytest.raises(TypeError, match="Argument `axis` must be an int"):
        tf.repeat(tf.ones([2, 3]), 2, axis=tf.constant(1))
    assert float(tf.random.shuffle(1.5)) == 1.5


# --- slice, pad, the diagonal ------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad_gradients(mode):
    check_grads(
        lambda x: tf.pad(x, [[2, 1], [1, 3]], mode) ** 2, np.linspace(-1, 2, 12).reshape(3, 4)
    )


def test_pad_reflect_and_symmetric_by_hand():
    m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert tf.pad(m, [[1, 0], [1, 0]], "REFLECT").numpy().tolist() == [
        [4.0, 3.0, 4.0],
        [2.0, 1.0, 2.0],
        [4.0, 3.0, 4.0],
    ]
    assert tf.pad(m, [[0, 0], [2, 0]], "SYMMETRIC").numpy().tolist() == [
        [2.0, 1.0, 1.0, 2.0],
        [4.0, 3.0, 3.0, 4.0],
    ]


def test_slice_and_its_gradient():
    x = np.arange(24.0).reshape(2, 3, 4)
    got = tf.slice(tf.constant(x), [0, 1, 1], [2, 2, -1]).numpy()
    assert got.tolist() == x[:, 1:3, 1:].tolist()
    check_grads(lambda t: tf.slice(t, [1, 0, 2], [1, 3, 2]) ** 2, x)


@pytest.mark.parametrize("shape", [(3,), (2, 3)])
def test_diag_and_diag_part_gradients(shape):
    check_grads(lambda v: tf.linalg.diag(v) ** 2, rng.standard_normal(shape))
    check_grads(lambda m: tf.linalg.diag_part(m) ** 2, rng.standard_normal(shape + (4,)))
