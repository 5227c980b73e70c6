"""Forward mode: every op of the VJP table gets its JVP from its VJP rule (the double-backward
trick); each is checked against finite differences and against jacobian @ tangent. Expected
values of the nesting tests are derived by hand."""

import contextlib

import numpy as np
import pytest

import minitape as tf
from minitape import array_ops, debugging, grads, linalg_ops, nn_ops, ops, special_math_ops
from minitape.tape import apply
from minitape.testing import check_jvp

rng = np.random.default_rng(7)


def rand(shape, low=-2.0, high=2.0):
    return rng.uniform(low, high, size=shape)


def positive(shape):
    return rng.uniform(0.5, 2.0, size=shape)


def away(shape):
    return rng.uniform(0.3, 2.0, size=shape) * rng.choice([-1.0, 1.0], size=shape)


def distinct(shape):
    return rng.permutation(np.linspace(-2, 2, int(np.prod(shape)))).reshape(shape)


S = (3, 4)
LABELS = tf.constant(rng.dirichlet(np.ones(4), 3))
CONV = {"strides": (1, 1), "dilations": (1, 1), "padding": "SAME"}
CHOICE = tf.constant(rng.random(S) > 0.5)
# op -> (function of tensors, input generators); one entry per op of grads.VJPS with a rule
POOL = {"ksize": (2, 2), "strides": (1, 1), "padding": "SAME"}
BY_OP = {
    ops.Add: (tf.add, [rand, lambda s: rand((4,))]),
    ops.Sub: (tf.subtract, [rand, rand]),
    ops.Mul: (tf.multiply, [rand, lambda s: rand((4,))]),
    ops.Div: (tf.divide, [rand, away]),
    ops.DivNoNan: (tf.math.divide_no_nan, [rand, away]),
    ops.Pow: (tf.pow, [positive, rand]),
    ops.Maximum: (tf.maximum, [distinct, lambda s: distinct(s) + 0.05]),
    ops.Minimum: (tf.minimum, [distinct, lambda s: distinct(s) + 0.05]),
    ops.Neg: (tf.negative, [rand]),
    ops.Square: (tf.square, [rand]),
    ops.Sqrt: (tf.sqrt, [positive]),
    ops.Exp: (tf.exp, [rand]),
    ops.Log: (tf.math.log, [positive]),
    ops.Log1p: (tf.math.log1p, [positive]),
    ops.Sin: (tf.sin, [rand]),
    ops.Tan: (tf.math.tan, [rand]),
    ops.Cos: (tf.cos, [rand]),
    ops.Tanh: (tf.tanh, [rand]),
    ops.TanhGrad: (lambda y, dy: apply(ops.TanhGrad, y, dy), [lambda s: rand(s, -0.9, 0.9), rand]),
    ops.Sigmoid: (tf.sigmoid, [rand]),
    ops.SigmoidGrad: (
        lambda y, dy: apply(ops.SigmoidGrad, y, dy),
        [lambda s: rand(s, 0.1, 0.9), rand],
    ),
    ops.Relu: (tf.nn.relu, [away]),
    ops.Elu: (tf.nn.elu, [away]),
    ops.Softplus: (tf.nn.softplus, [rand]),
    ops.Abs: (tf.abs, [away]),
    ops.Sign: (lambda x: tf.sign(x) * x, [away]),
    ops.FloorMod: (
        lambda x, y: tf.math.floormod(x, y),
        [lambda s: rng.uniform(0.1, 0.9, s) + rng.integers(0, 3, s), lambda s: np.ones(s)],
    ),
    ops.Identity: (tf.identity, [rand]),
    ops.Cast: (lambda x: tf.cast(tf.cast(x, tf.float32), tf.float64), [lambda s: np.full(s, 0.5)]),
    ops.Select: (lambda x, y: tf.where(CHOICE, x, y), [rand, rand]),
    ops.ClipByValue: (
        lambda x: tf.clip_by_value(x, -0.5, 1.0),
        [lambda s: np.linspace(-1.75, 1.55, 12).reshape(s)],
    ),
    ops.MatMul: (lambda a, b: tf.matmul(a, b, transpose_b=True), [rand, rand]),
    ops.Transpose: (tf.transpose, [rand]),
    ops.Reshape: (lambda x: tf.reshape(x, [4, 3]), [rand]),
    ops.ExpandDims: (lambda x: tf.expand_dims(x, 1), [rand]),
    ops.Squeeze: (lambda x: tf.squeeze(x[None]), [rand]),
    ops.BroadcastTo: (lambda x: tf.broadcast_to(x[0], [2, 3, 4]), [rand]),
    ops.Fill: (lambda x: tf.fill([2, 3], x[0, 0]), [rand]),
    ops.LinSpace: (lambda x, y: tf.linspace(x, y, 4, axis=1), [rand, rand]),
    ops.Sum: (lambda x: tf.reduce_sum(x, 1), [rand]),
    ops.Prod: (lambda x: tf.reduce_prod(x, 1), [away]),
    ops.Cumsum: (lambda x: tf.math.cumsum(x, 1, exclusive=True), [rand]),
    ops.Cumprod: (lambda x: tf.math.cumprod(x, 0, reverse=True), [away]),
    ops.Mean: (lambda x: tf.reduce_mean(x, 0, keepdims=True), [rand]),
    ops.Max: (lambda x: tf.reduce_max(x, 1), [distinct]),
    ops.Min: (lambda x: tf.reduce_min(x), [distinct]),
    ops.StridedSlice: (lambda x: x[1:, ::2], [rand]),
    ops.IndexGrad: (lambda g: apply(ops.IndexGrad, g, key=(slice(1, None),), shape=(4, 4)), [rand]),
    ops.Concat: (lambda x, y: tf.concat([x, y, x], 0), [rand, rand]),
    ops.Pack: (lambda x, y: tf.stack([x, y], 1), [rand, rand]),
    ops.AddN: (lambda x, y: tf.add_n([x, y, x]), [rand, rand]),
    # the fused gradient ops (their own VJPs give second derivatives)
    ops.ReluGrad: (lambda g, x: apply(ops.ReluGrad, g, x), [rand, away]),
    ops.EluGrad: (lambda g, y: apply(ops.EluGrad, g, y), [rand, lambda s: rand(s, -0.9, 2.0)]),
    ops.SqrtGrad: (lambda y, g: apply(ops.SqrtGrad, y, g), [positive, rand]),
    # array and nn families
    array_ops.Gather: (lambda p: tf.gather(p, [2, 0, 2], axis=1), [rand]),
    array_ops.GatherGrad: (
        lambda g: apply(
            array_ops.GatherGrad, g, tf.constant([2, 0, 2]), shape=(3, 4), axis=1, batch_dims=0
        ),
        [lambda s: rand((3, 3))],
    ),
    array_ops.Tile: (lambda x: tf.tile(x, [2, 1]), [rand]),
    array_ops.Einsum: (lambda a, b: tf.einsum("ij,kj->ik", a, b), [rand, rand]),
    array_ops.Pad: (lambda x: tf.pad(x, [[1, 0], [0, 2]], constant_values=3.0), [rand]),
    array_ops.MirrorPad: (lambda x: tf.pad(x, [[2, 1], [1, 3]], "REFLECT"), [rand]),
    array_ops.MirrorPadGrad: (
        lambda g: apply(
            array_ops.MirrorPadGrad, g, paddings=((2, 1), (1, 3)), mode="SYMMETRIC", shape=(3, 4)
        ),
        [lambda s: rand((6, 8))],
    ),
    linalg_ops.MatrixDiag: (tf.linalg.diag, [rand]),
    linalg_ops.MatrixDiagPart: (tf.linalg.diag_part, [rand]),
    nn_ops.Softmax: (tf.nn.softmax, [rand]),
    nn_ops.LogSoftmax: (tf.nn.log_softmax, [rand]),
    nn_ops.SoftmaxXent: (
        lambda z, y: tf.nn.softmax_cross_entropy_with_logits(y, z),
        [rand, lambda s: rng.dirichlet(np.ones(s[-1]), s[0])],
    ),
    # (softmax - labels, differentiated for the logits only: as TF, its rule gives the labels
    # no gradient through it)
    nn_ops.XentBackprop: (lambda z: apply(nn_ops.XentBackprop, z, LABELS), [rand]),
    nn_ops.SparseSoftmaxXent: (
        lambda z: tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([1, 0, 3]), z),
        [rand],
    ),
    nn_ops.SparseXentBackprop: (
        lambda z: apply(nn_ops.SparseXentBackprop, z, tf.constant([1, 0, 3])),
        [rand],
    ),
    nn_ops.Conv2D: (
        lambda x, f: tf.nn.conv2d(x, f, 1, "SAME"),
        [lambda s: rand((1, 3, 4, 2)), lambda s: rand((2, 2, 2, 3))],
    ),
    nn_ops.Conv2DBackpropInput: (
        lambda g, f: apply(nn_ops.Conv2DBackpropInput, g, f, input_shape=(1, 3, 4, 2), **CONV),
        [lambda s: rand((1, 3, 4, 3)), lambda s: rand((2, 2, 2, 3))],
    ),
    nn_ops.Conv2DBackpropFilter: (
        lambda x, g: apply(nn_ops.Conv2DBackpropFilter, x, g, filter_shape=(2, 2, 2, 3), **CONV),
        [lambda s: rand((1, 3, 4, 2)), lambda s: rand((1, 3, 4, 3))],
    ),
    nn_ops.DepthwiseConv2dNative: (
        lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME"),
        [lambda s: rand((1, 3, 4, 2)), lambda s: rand((2, 2, 2, 3))],
    ),
    nn_ops.DepthwiseConv2dNativeBackpropInput: (
        lambda g, f: apply(
            nn_ops.DepthwiseConv2dNativeBackpropInput, g, f, input_shape=(1, 3, 4, 2), **CONV
        ),
        [lambda s: rand((1, 3, 4, 6)), lambda s: rand((2, 2, 2, 3))],
    ),
    nn_ops.DepthwiseConv2dNativeBackpropFilter: (
        lambda x, g: apply(
            nn_ops.DepthwiseConv2dNativeBackpropFilter, x, g, filter_shape=(2, 2, 2, 3), **CONV
        ),
        [lambda s: rand((1, 3, 4, 2)), lambda s: rand((1, 3, 4, 6))],
    ),
    nn_ops.MaxPool: (lambda x: tf.nn.max_pool2d(x, 2, 1, "SAME"), [lambda s: rand((1, 3, 4, 2))]),
    nn_ops.MaxPoolGrad: (
        lambda x, y, g: apply(nn_ops.MaxPoolGrad, x, y, g, **POOL),
        [lambda s: rand((1, 3, 4, 2))] * 3,
    ),
    nn_ops.MaxPoolGradGrad: (
        lambda x, y, gg: apply(nn_ops.MaxPoolGradGrad, x, y, gg, **POOL),
        [lambda s: rand((1, 3, 4, 2))] * 3,
    ),
    nn_ops.AvgPool: (lambda x: tf.nn.avg_pool2d(x, 2, 1, "SAME"), [lambda s: rand((1, 3, 4, 2))]),
    nn_ops.AvgPoolGrad: (
        lambda g: apply(nn_ops.AvgPoolGrad, g, input_shape=(1, 3, 4, 2), **POOL),
        [lambda s: rand((1, 3, 4, 2))],
    ),
    nn_ops.Erf: (tf.math.erf, [rand]),
    debugging.CheckNumerics: (lambda x: tf.debugging.check_numerics(x, "x"), [rand]),
    nn_ops.Selu: (tf.nn.selu, [away]),
    nn_ops.SeluGrad: (
        lambda g, y: apply(nn_ops.SeluGrad, g, y),
        [rand, lambda s: rand(s, -1.5, 2.0)],
    ),
    nn_ops.Relu6: (tf.nn.relu6, [lambda s: rand(s, -1.0, 7.0)]),
    nn_ops.Relu6Grad: (
        lambda g, x: apply(nn_ops.Relu6Grad, g, x),
        [rand, lambda s: rand(s, -1.0, 7.0)],
    ),
    nn_ops.LeakyRelu: (lambda x: tf.nn.leaky_relu(x, 0.1), [away]),
    nn_ops.LeakyReluGrad: (lambda g, x: apply(nn_ops.LeakyReluGrad, g, x, alpha=0.1), [rand, away]),
    # special_math_ops.py
    special_math_ops.Acos: (tf.math.acos, [lambda s: rand(s, -0.9, 0.9)]),
    special_math_ops.Asin: (tf.math.asin, [lambda s: rand(s, -0.9, 0.9)]),
    special_math_ops.Atan: (tf.math.atan, [rand]),
    special_math_ops.Acosh: (tf.math.acosh, [lambda s: rand(s, 1.2, 3.0)]),
    special_math_ops.Asinh: (tf.math.asinh, [rand]),
    special_math_ops.Atanh: (tf.math.atanh, [lambda s: rand(s, -0.9, 0.9)]),
    special_math_ops.Sinh: (tf.math.sinh, [rand]),
    special_math_ops.Cosh: (tf.math.cosh, [rand]),
    special_math_ops.Expm1: (tf.math.expm1, [rand]),
    special_math_ops.Rsqrt: (tf.math.rsqrt, [positive]),
    special_math_ops.Reciprocal: (tf.math.reciprocal, [away]),
    special_math_ops.Erfc: (tf.math.erfc, [rand]),
    special_math_ops.Lgamma: (tf.math.lgamma, [positive]),
    special_math_ops.Digamma: (tf.math.digamma, [positive]),
    special_math_ops.Polygamma: (
        lambda x: tf.math.polygamma(tf.constant(2.0, tf.float64), x),
        [positive],
    ),
    special_math_ops.Zeta: (lambda q: tf.math.zeta(tf.constant(3.0, tf.float64), q), [positive]),
    special_math_ops.Atan2: (tf.math.atan2, [rand, away]),
    special_math_ops.Xlogy: (tf.math.xlogy, [rand, positive]),
    special_math_ops.Xdivy: (tf.math.xdivy, [rand, away]),
    special_math_ops.SquaredDifference: (tf.math.squared_difference, [rand, rand]),
    special_math_ops.EuclideanNorm: (lambda x: tf.math.reduce_euclidean_norm(x, 1), [away]),
}
# As in TF, softsign has no forward mode: its JVP would differentiate SoftsignGrad, which has
# no gradient (LookupError in both).
NO_FORWARD_MODE = {nn_ops.Softsign, nn_ops.SoftsignGrad}
NOT_DIFFERENTIABLE = {
    op
    for op, rules in grads.VJPS.items()
    if rules is None or (type(rules) is tuple and all(r is None for r in rules))
}


@pytest.mark.parametrize("op", sorted(grads.VJPS, key=lambda o: o.name), ids=lambda o: o.name)
def test_every_op_jvp(op):
    if op in NOT_DIFFERENTIABLE or op in NO_FORWARD_MODE:
        with pytest.raises(LookupError) if op is nn_ops.Softsign else contextlib.nullcontext():
            if op is nn_ops.Softsign:
                x = tf.constant([1.0, 2.0])
                with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0])) as acc:
                    acc.jvp(tf.nn.softsign(x))
        return
    assert op in BY_OP, f"{op.name} needs an entry in BY_OP: every op's JVP is checked"
    fn, gens = BY_OP[op]
    args = [g(S) for g in gens]
    # (through float32, finite differences need a larger step and a looser tolerance)
    check_jvp(fn, *args, **({"eps": 1e-2, "rtol": 1e-4, "atol": 1e-6} if op is ops.Cast else {}))
    # and against jacobian @ tangent
    xs = [tf.constant(a) for a in args]
    ts = [rng.standard_normal(a.shape) for a in args]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = fn(*xs)
    expected = sum(
        np.tensordot(tape.jacobian(y, x, unconnected_gradients="zero").numpy(), t, axes=t.ndim)
        for x, t in zip(xs, ts)
    )
    with tf.autodiff.ForwardAccumulator(xs, [tf.constant(t) for t in ts]) as acc:
        y = fn(*xs)
    np.testing.assert_allclose(
        acc.jvp(y, unconnected_gradients="zero").numpy(),
        expected,
        rtol=1e-6 if op is ops.Cast else 1e-10,
        atol=1e-12,
    )


def test_no_tangent_for_ops_without_gradient():
    x = tf.constant([1.2, -0.4])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        outs = [tf.round(x), tf.floor(x), tf.cast(x, tf.int32), tf.stop_gradient(x), tf.sign(x)]
    assert acc.jvp(outs) == [None] * 5


def test_forward_over_reverse_hessian_vector_product():
    # y = sum(x^3): H = diag(6x), H @ t = 6 x t
    x, t = tf.constant([1.0, 2.0]), tf.constant([0.5, -1.0])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x**3)
        g = tape.gradient(y, x)
    np.testing.assert_allclose(acc.jvp(g).numpy(), [3.0, -12.0])


def test_reverse_over_forward():
    # j = sum(3 x^2 t): dj/dx = 6 x t, dj/dt = 3 x^2
    x, t = tf.constant([1.0, 2.0]), tf.constant([0.5, -1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, t])
        with tf.autodiff.ForwardAccumulator(x, t) as acc:
            y = tf.reduce_sum(x**3)
        j = acc.jvp(y)
    np.testing.assert_allclose(j.numpy(), -10.5)
    np.testing.assert_allclose(tape.gradient(j, x).numpy(), [3.0, -12.0])
    np.testing.assert_allclose(tape.gradient(j, t).numpy(), [3.0, 12.0])


def test_nested_accumulators_give_second_directional_derivative():
    # y = x^3 elementwise: inner jvp 3x^2 u, outer jvp of that 6 x u t
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([0.5, -1.0])) as outer:
        with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as inner:
            y = x**3
        j = inner.jvp(y)
    np.testing.assert_allclose(j.numpy(), [3.0, 12.0])
    np.testing.assert_allclose(outer.jvp(j).numpy(), [3.0, -12.0])
    assert inner.jvp(j) is None  # the inner accumulator does not hear its own JVP ops


def test_accumulator_inside_function_trace_replays_jvp():
    @tf.function
    def f(x):
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
            y = tf.sin(x)
        return acc.jvp(y)

    for v in ([0.0, 1.0], [2.0, 3.0]):
        np.testing.assert_allclose(f(tf.constant(v)).numpy(), np.cos(v), rtol=1e-6)
    assert f.experimental_get_tracing_count() == 1


def test_the_state_is_restored_after_an_error():
    from minitape.context import STATE

    x = tf.constant(1.0)
    with pytest.raises(ZeroDivisionError):
        with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)):
            _ = 1 / 0
    assert STATE.tracer is None
