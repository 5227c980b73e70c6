"""Every gradient rule against finite differences, first and second order, over broadcasting
shapes and axis/keepdims variants (inputs kept away from non-smooth points)."""

import itertools

import numpy as np
import pytest

import minitape as tf
from minitape import ops
from minitape.tape import apply
from minitape.testing import check_grads

rng = np.random.default_rng(42)
SHAPES = [(), (4,), (3, 4), (1, 4)]


def rand(shape, low=-2.0, high=2.0):
    return rng.uniform(low, high, size=shape)


def away_from_zero(shape):
    """Values in [0.3, 2] with random signs: no kinks at 0 for relu/abs/sign."""
    return rng.uniform(0.3, 2.0, size=shape) * rng.choice([-1.0, 1.0], size=shape)


def positive(shape):
    return rng.uniform(0.5, 2.0, size=shape)


UNARY = {
    "negative": (tf.negative, rand),
    "square": (tf.square, rand),
    "sqrt": (tf.sqrt, positive),
    "exp": (tf.exp, rand),
    "log": (tf.math.log, positive),
    "log1p": (tf.math.log1p, positive),
    "sin": (tf.sin, rand),
    "cos": (tf.cos, rand),
    "tan": (tf.math.tan, rand),
    "tanh": (tf.tanh, rand),
    "sigmoid": (tf.sigmoid, rand),
    "relu": (tf.nn.relu, away_from_zero),
    "elu": (tf.nn.elu, away_from_zero),
    "softplus": (tf.nn.softplus, rand),
    "abs": (tf.abs, away_from_zero),
    "identity": (tf.identity, rand),
    "neg_operator": (lambda x: -x, rand),
    "abs_operator": (lambda x: abs(x), away_from_zero),
    "square_operator": (lambda x: x**2, rand),
    "cube_operator": (lambda x: x**3, rand),
}


@pytest.mark.parametrize("shape", [(), (4,), (3, 4)])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name, shape):
    fn, gen = UNARY[name]
    check_grads(fn, gen(shape))


def _broadcastable_pairs():
    for a, b in itertools.product(SHAPES, SHAPES):
        try:
            np.broadcast_shapes(a, b)
            yield a, b
        except ValueError:
            pass


BINARY = {
    "add": (tf.add, rand, rand),
    "subtract": (tf.subtract, rand, rand),
    "multiply": (tf.multiply, rand, rand),
    "divide": (tf.divide, rand, away_from_zero),
    "divide_no_nan": (tf.math.divide_no_nan, rand, away_from_zero),
    "pow": (tf.pow, positive, rand),
    "add_operator": (lambda x, y: x + y, rand, rand),
    "matmul_free_mix": (lambda x, y: x * y - y / (1 + x * x), rand, rand),
}


@pytest.mark.parametrize("shapes", list(_broadcastable_pairs()), ids=str)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_broadcasting(name, shapes):
    fn, gen_a, gen_b = BINARY[name]
    check_grads(fn, gen_a(shapes[0]), gen_b(shapes[1]))


@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 4), (4,)), ((), (3, 4))], ids=str)
@pytest.mark.parametrize("fn", [tf.maximum, tf.minimum])
def test_maximum_minimum(fn, shapes):
    # Values on two interleaved grids: never tied, never closer than 0.1.
    a = rng.permutation(np.linspace(-2.0, 2.0, 12))[: int(np.prod(shapes[0]))].reshape(shapes[0])
    b = rng.permutation(np.linspace(-1.9, 2.1, 12))[: int(np.prod(shapes[1]))].reshape(shapes[1])
    assert np.min(np.abs(np.subtract(*np.broadcast_arrays(a, b)))) > 0.05
    check_grads(fn, a, b)


@pytest.mark.parametrize(
    "shapes", [((3, 4), (3, 4), (3, 4)), ((3, 4), (4,), ()), ((4,), (3, 4), (1, 4))], ids=str
)
def test_where(shapes):
    cond = tf.constant(rng.random(np.broadcast_shapes(*shapes)) > 0.5)
    check_grads(lambda x, y: tf.where(cond, x, y), rand(shapes[1]), rand(shapes[2]))


def test_clip_by_value():
    x = np.array([-1.7, -0.4, 0.2, 0.9, 1.6])
    check_grads(lambda x, lo, hi: tf.clip_by_value(x, lo, hi), x, np.array(-0.5), np.array(1.0))


@pytest.mark.parametrize("name", ["TanhGrad", "SigmoidGrad"])
def test_fused_activation_gradient_ops(name):
    """tanh's and sigmoid's VJPs are single ops (TF's TanhGrad/SigmoidGrad), with rules of
    their own: checked directly, and through a third derivative of the activation."""
    op = getattr(ops, name)
    check_grads(lambda y, dy: apply(op, y, dy), rand((3, 4), -0.9, 0.9), rand((3, 4)))
    activation = tf.tanh if name == "TanhGrad" else tf.sigmoid
    check_grads(activation, rand((4,)), order=3)


REDUCTIONS = [tf.reduce_sum, tf.reduce_mean, tf.reduce_max, tf.reduce_min, tf.reduce_prod]
AXES = [None, 0, 1, -1, (0, 1), [1]]


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("fn", REDUCTIONS, ids=lambda f: f.__name__)
def test_reductions(fn, axis, keepdims):
    x = rng.permutation(np.linspace(-2, 2, 12)).reshape(3, 4)  # distinct values: no ties
    check_grads(lambda x: fn(x, axis=axis, keepdims=keepdims), x)


@pytest.mark.parametrize("fn", REDUCTIONS, ids=lambda f: f.__name__)
def test_reductions_of_scalar_and_vector(fn):
    check_grads(fn, np.array(1.3))
    check_grads(lambda x: fn(x, axis=0), rng.permutation(np.linspace(-1, 1, 4)))


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("fn", [tf.math.cumsum, tf.math.cumprod], ids=lambda f: f.__name__)
def test_cumulative(fn, axis, exclusive, reverse):
    check_grads(lambda x: fn(x, axis, exclusive=exclusive, reverse=reverse), away_from_zero((3, 4)))


def test_add_n_and_prod_with_a_zero():
    check_grads(lambda a, b: tf.add_n([a, b, a * b]), rand((3,)), rand((3,)))
    # the gradient of a product at a zero is the product of the others (no division by it)
    x = np.array([[1.5, 0.0, -2.0], [0.5, 2.0, 1.0]])
    check_grads(lambda x: tf.reduce_prod(x, axis=1), x, order=1)


@pytest.mark.parametrize("ord_", ["euclidean", 1, np.inf])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_norm(ord_, axis):
    x = away_from_zero((3, 4)) + np.arange(12).reshape(3, 4) * 0.01
    check_grads(lambda x: tf.norm(x, ord=ord_, axis=axis), x)


@pytest.mark.parametrize(
    "sa,sb,ta,tb",
    [
        ((3, 4), (4, 2), False, False),
        ((4, 3), (4, 2), True, False),
        ((3, 4), (2, 4), False, True),
        ((4, 3), (2, 4), True, True),
        ((2, 3, 4), (4, 5), False, False),
        ((2, 4, 3), (5, 4), True, True),
        ((2, 3, 4), (2, 4, 5), False, False),
        ((1, 1), (1, 3), False, False),
    ],
    ids=str,
)
def test_matmul(sa, sb, ta, tb):
    check_grads(lambda a, b: tf.matmul(a, b, transpose_a=ta, transpose_b=tb), rand(sa), rand(sb))
    if not (ta or tb):
        check_grads(lambda a, b: a @ b, rand(sa), rand(sb))


SHAPE_OPS = {
    "transpose": (lambda x: tf.transpose(x), (3, 4)),
    "transpose_perm": (lambda x: tf.transpose(x, perm=[1, 2, 0]), (2, 3, 4)),
    "reshape": (lambda x: tf.reshape(x, [2, -1]), (3, 4)),
    "reshape_to_scalar": (lambda x: tf.reshape(x, []), (1, 1)),
    "expand_dims": (lambda x: tf.expand_dims(x, 1), (3, 4)),
    "expand_dims_neg": (lambda x: tf.expand_dims(x, -1), (4,)),
    "squeeze": (lambda x: tf.squeeze(x), (1, 4)),
    "squeeze_axis": (lambda x: tf.squeeze(x, axis=0), (1, 4)),
    "broadcast_to": (lambda x: tf.broadcast_to(x, [3, 4]), (1, 4)),
    "index_int": (lambda x: x[1], (3, 4)),
    "index_slice": (lambda x: x[:, 1:3], (3, 4)),
    "index_step_neg": (lambda x: x[::-1, ::2], (3, 4)),
    "index_newaxis": (lambda x: x[None, 1, ...], (3, 4)),
    "index_bool_mask": (lambda x: x[tf.constant([True, False, True])] * 2.0, (3, 4)),
    "index_list_is_a_tuple": (lambda x: x[[2, 1]] * 2.0, (3, 4)),  # x[2, 1], as in TF
    "index_tensor": (lambda x: x[tf.constant(2)], (3, 4)),
    "unstack": (lambda x: tf.unstack(x, axis=1), (3, 4)),
}


@pytest.mark.parametrize("name", sorted(SHAPE_OPS))
def test_shape_ops(name):
    fn, shape = SHAPE_OPS[name]
    check_grads(fn, rand(shape))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat(axis):
    shapes = {
        0: [(2, 3), (1, 3), (3, 3)],
        1: [(2, 1), (2, 3), (2, 2)],
        -1: [(2, 1), (2, 3), (2, 2)],
    }[axis]
    check_grads(lambda a, b, c: tf.concat([a, b, c], axis=axis), *[rand(s) for s in shapes])


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_stack(axis):
    check_grads(lambda a, b: tf.stack([a, b], axis=axis), rand((3, 4)), rand((3, 4)))


def test_fill():
    check_grads(lambda v: tf.fill([2, 3], v), rand(()))


@pytest.mark.parametrize(
    "shapes, num, axis",
    [
        (((), ()), 5, 0),
        (((), ()), 2, 0),
        (((3,), (3,)), 4, 0),
        (((2, 1), (3,)), 4, -1),
        (((3,), ()), 5, 1),
    ],
)
def test_linspace(shapes, num, axis):
    check_grads(lambda a, b: tf.linspace(a, b, num, axis=axis), *[rand(s) for s in shapes])


def test_cast_round_trip():
    # float64 -> float64 is an identity; float64 -> float32 -> float64 loses precision, so the
    # rule is checked exactly instead of by finite differences.
    check_grads(lambda x: tf.cast(x, tf.float64) * x, rand((3,)))
    x = tf.constant([1.0, 2.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.cast(x, tf.float32) * 3.0)
    g = tape.gradient(y, x)
    assert g.dtype == tf.float64 and g.numpy().tolist() == [3.0, 3.0]


def test_composite_network():
    """A small MLP: matmul, broadcasting add, tanh, sigmoid, mean -- all second order."""

    def net(x, w1, b1, w2):
        h = tf.tanh(x @ w1 + b1)
        return tf.reduce_mean(tf.sigmoid(h @ w2))

    check_grads(net, rand((5, 3)), rand((3, 4)), rand((4,)), rand((4, 1)))


def test_third_order():
    check_grads(lambda x: tf.sin(x) * x**2, rand((3,)), order=3)


def test_custom_gradient_is_checked():
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)
        return tf.math.log(1 + e), lambda g: g * (1 - 1 / (1 + e))

    check_grads(log1pexp, rand((4,)))


# --- TF's conventions at non-smooth points (hand-derived expectations) --------------------
def grad_of(fn, *values):
    xs = [tf.constant(v) for v in values]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
    return tape.gradient(y, xs)


def test_relu_and_abs_have_zero_slope_at_zero():
    (g,) = grad_of(tf.nn.relu, [-1.0, 0.0, 2.0])
    assert g.numpy().tolist() == [0.0, 0.0, 1.0]
    (g,) = grad_of(tf.abs, [-1.0, 0.0, 2.0])
    assert g.numpy().tolist() == [-1.0, 0.0, 1.0]


def test_maximum_minimum_ties_go_to_the_first_argument():
    gx, gy = grad_of(tf.maximum, [1.0, 2.0, 3.0], [1.0, 5.0, 0.0])
    assert gx.numpy().tolist() == [1.0, 0.0, 1.0] and gy.numpy().tolist() == [0.0, 1.0, 0.0]
    gx, gy = grad_of(tf.minimum, [1.0, 2.0], [1.0, 0.0])
    assert gx.numpy().tolist() == [1.0, 0.0] and gy.numpy().tolist() == [0.0, 1.0]


def test_reduce_max_splits_ties_equally():
    (g,) = grad_of(tf.reduce_max, [3.0, 1.0, 3.0, 3.0])
    assert np.allclose(g.numpy(), [1 / 3, 0, 1 / 3, 1 / 3])
    (g,) = grad_of(lambda x: tf.reduce_min(x, axis=1), [[1.0, 1.0], [0.0, 2.0]])
    assert g.numpy().tolist() == [[0.5, 0.5], [1.0, 0.0]]


def test_where_routes_the_gradient_to_the_chosen_branch():
    cond = tf.constant([True, False, True])
    gx, gy = grad_of(lambda x, y: tf.where(cond, x, y) * 2.0, [1.0, 1.0, 1.0], [5.0, 5.0, 5.0])
    assert gx.numpy().tolist() == [2.0, 0.0, 2.0] and gy.numpy().tolist() == [0.0, 2.0, 0.0]


def test_where_does_not_hide_nan_in_the_unchosen_branch_like_tf():
    # TF's well-known pitfall: where(x > 0, log(x), 0) has a nan gradient at x = 0 because
    # log's rule runs for every element (0 * inf = nan). The fix: make the input safe first.
    (g,) = grad_of(lambda x: tf.where(x > 0, tf.math.log(x), 0.0), [0.0, 1.0])
    assert np.isnan(g.numpy()[0]) and g.numpy()[1] == 1.0
    (g,) = grad_of(lambda x: tf.where(x > 0, tf.math.log(tf.where(x > 0, x, 1.0)), 0.0), [0.0, 1.0])
    assert g.numpy().tolist() == [0.0, 1.0]


def test_sign_has_zero_gradient_round_and_floor_none():
    (g,) = grad_of(tf.sign, [-2.0, 3.0])
    assert g.numpy().tolist() == [0.0, 0.0]
    for fn in (tf.round, tf.floor, tf.math.ceil):
        (g,) = grad_of(fn, [1.2, 2.7])
        assert g is None


def test_sqrt_at_zero_is_inf_and_pow_base_zero():
    (g,) = grad_of(tf.sqrt, [0.0])
    assert np.isinf(g.numpy()[0])
    gx, gy = grad_of(tf.pow, [0.0], [2.0])
    assert gx.numpy().tolist() == [0.0] and gy.numpy().tolist() == [0.0]  # log(x) := 0 at x <= 0


# --- the numpy twins of the rules (grads.BARE), bit for bit -----------------------------------
def _twin_cases():
    """(name, k, function of tensors, inputs as (maker, shape)): every op with twins, on
    shapes that broadcast, reduce and transpose."""
    pairs = BROADCAST_PAIRS
    u = lambda f, *shapes, make=rand: [(f, [(make, s)]) for s in shapes]  # noqa: E731
    cases = {
        "Add": [(tf.add, [(rand, a), (rand, b)]) for a, b in pairs],
        "Sub": [(tf.subtract, [(rand, a), (rand, b)]) for a, b in pairs],
        "Mul": [(tf.multiply, [(rand, a), (rand, b)]) for a, b in pairs],
        "Div": [(tf.divide, [(rand, a), (away_from_zero, b)]) for a, b in pairs],
        "Pow": [(tf.pow, [(positive, a), (rand, b)]) for a, b in pairs]
        + [(lambda x, p=p: x**p, [(positive, (3, 4))]) for p in (2, 3, 0.5, 1.7, -1)],
        "Neg": u(tf.negative, (), (3, 4)),
        "Square": u(tf.square, (), (3, 4)),
        "Sqrt": u(tf.sqrt, (), (3, 4), make=positive),
        "Exp": u(tf.exp, (), (3, 4)),
        "Log": u(tf.math.log, (), (3, 4), make=positive),
        "Tanh": u(tf.tanh, (), (3, 4)),
        "Sigmoid": u(tf.sigmoid, (), (3, 4)),
        "Relu": u(tf.nn.relu, (), (3, 4), make=away_from_zero),
        "Identity": u(tf.identity, (), (3, 4)),
        "TanhGrad": [
            (lambda y, dy: apply(ops.TanhGrad, y, dy), [(rand, s), (rand, s)]) for s in [(), (3, 4)]
        ],
        "MatMul": [
            (
                lambda a, b, ta=ta, tb=tb: tf.matmul(a, b, transpose_a=ta, transpose_b=tb),
                [(rand, _t(sa, ta)), (rand, _t(sb, tb))],
            )
            for ta, tb in itertools.product([False, True], repeat=2)
            for sa, sb in [((3, 4), (4, 5)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5))]
        ],
        "Transpose": u(tf.transpose, (3, 4), (2, 3, 4)),
        "Reshape": u(lambda x: tf.reshape(x, [1, -1]), (3, 4), (1,), ()),
        "ExpandDims": u(lambda x: tf.expand_dims(x, 0), (3, 4), ()),
        "Squeeze": u(tf.squeeze, (3, 1, 4), (1,)),
        "BroadcastTo": u(lambda x: tf.broadcast_to(x, [2, 3, 4]), (3, 4), (1, 4), ()),
        "Sum": [
            (lambda x, a=a, k=k: tf.reduce_sum(x, axis=a, keepdims=k), [(rand, s)])
            for s in [(3, 4), ()]
            for a in (None, 0, -1, [0, 1])
            for k in (False, True)
            if s or a is None
        ],
        "Mean": [
            (lambda x, a=a, k=k: tf.reduce_mean(x, axis=a, keepdims=k), [(rand, s)])
            for s in [(3, 4), (), (7, 5)]
            for a in (None, 0, -1)
            for k in (False, True)
            if s or a is None
        ],
    }
    return [(name, k, f, inputs) for name, fs in cases.items() for k, (f, inputs) in enumerate(fs)]


BROADCAST_PAIRS = [((3, 4), (3, 4)), ((3, 4), (4,)), ((1, 4), (3, 1)), ((), (2, 3)), ((), ())]


def _t(shape, transposed):
    return shape[:-2] + (shape[-1], shape[-2]) if transposed else shape


def test_every_op_with_twins_is_tested():
    from minitape.grads import BARE

    assert {op.name for op in BARE} == {
        getattr(ops, name).name for name, *_ in _twin_cases()
    } and all(op.bare is BARE[op] for op in BARE)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize(
    "name, k, f, inputs", _twin_cases(), ids=[f"{c[0]}-{c[1]}" for c in _twin_cases()]
)
def test_the_numpy_twins_of_the_rules_match_them_bit_for_bit(name, k, f, inputs, dtype):
    op = getattr(ops, name)
    inputs = [tf.constant(np.asarray(make(shape), dtype)[()]) for make, shape in inputs]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(inputs)
        f(*inputs)
    entry = [e for e in tape._entries if e[0] is op][-1]  # (as recorded: kept or not)
    _, recorded, ans, attrs = entry
    shape = ans._value.shape if isinstance(ans, tf.Tensor) else ans._shape
    for g in [np.asarray(rand(shape), dtype)[()], np.asarray(rand(shape), dtype)]:  # (0-d: both)
        for rule, twin in zip(op.vjps, op.bare):
            want = rule(tf.Tensor(g), ans, *recorded, **attrs)._value
            got = twin(g, ans, *recorded, **attrs)
            assert type(got) is type(want) and got.dtype == want.dtype
            assert got.shape == want.shape and got.tobytes() == want.tobytes()


def test_other_rules_have_no_twins_and_the_own_rules_get_theirs_back():
    rules = ops.Mul.vjps
    try:
        ops.Mul.vjps = (lambda g, ans, x, y: g * y, lambda g, ans, x, y: g * x)
        assert ops.Mul.bare is None  # (a bare sweep then uses the new rules, on tensors)
        x = tf.constant([1.0, 2.0])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2.0, 4.0])
    finally:
        ops.Mul.vjps = rules
    from minitape.grads import BARE

    assert ops.Mul.bare is BARE[ops.Mul]
