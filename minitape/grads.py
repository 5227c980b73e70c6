"""The VJP table: for every op, how the output's gradient `g` becomes its inputs' gradients.

One line per rule, `lambda g, ans, *inputs, **attrs: ...`, where `ans` is the op's output.
Every rule is written with minitape's own ops (`*`, `where`, `reduce_sum`, ...), never raw
numpy: that way the backward pass is itself recorded by any outer tape, and differentiating
a gradient (second derivatives, gradient penalties) needs nothing more.

Broadcasting: `x + y` with x of shape (3, 4) and y of shape (4,) uses each y[j] three times,
so y's gradient is g summed over the broadcast rows. `unbroadcast` does that for every
binary rule.

Edge conventions follow TF: relu'(0) = 0, abs'(0) = 0, a tie in maximum/minimum sends the
gradient to the first argument, reduce_max splits it equally among tied maxima, sign has a
zero gradient, round/floor/ceil have none (None), `where` routes g to the branch it chose.
"""

import functools

import numpy as np

from . import array_ops as a
from . import debugging as d
from . import linalg_ops as la
from . import nn_ops as n
from . import ops as o
from . import special_math_ops as s
from .array_ops import expand_dims, reshape, transpose
from .creation_ops import zeros_like
from .gen_ops import _mean_factor
from .indexed_slices import gather_gradient
from .math_ops import (
    cast,
    equal,
    greater,
    greater_equal,
    less,
    less_equal,
    logical_or,
    reduce_sum,
    where,
)
from .tape import TWINS, apply
from .tensor import Tensor


def unbroadcast(g, x):
    """Sum `g` down to the shape of `x`, undoing numpy-style broadcasting."""
    shape = x._value.shape
    gshape = g._value.shape
    if gshape == shape:
        return g
    summed = apply(o.Sum, g, axis=_broadcast_axes(gshape, shape), keepdims=False)
    return summed if summed._value.shape == shape else reshape(summed, shape)


@functools.lru_cache(maxsize=1024)
def _broadcast_axes(gshape, shape):
    """The axes along which `shape` was broadcast to `gshape`: the leading extra ones, and
    those where `shape` has 1 (sorted and valid, as Sum's attribute must be)."""
    lead = len(gshape) - len(shape)
    return tuple(range(lead)) + tuple(
        i + lead for i, d in enumerate(shape) if d == 1 and gshape[i + lead] != 1
    )


def _like_reduced(g, x, axis, keepdims):
    """Broadcast the gradient of a reduction back over the reduced axes of `x`."""
    shape = x._value.shape
    if not keepdims and axis is not None and g._value.ndim:  # (a scalar g broadcasts as is)
        g = reshape(g, [1 if i in axis else d for i, d in enumerate(shape)])
    return g if g._value.shape == shape else apply(o.BroadcastTo, g, shape=shape)


def _reduce_extreme(g, ans, x, axis, keepdims):
    """TF's rule for reduce_max/min: the gradient is shared equally among tied extremes."""
    picked = cast(equal(_like_reduced(ans, x, axis, keepdims), x), x.dtype)
    count = _like_reduced(reduce_sum(picked, axis=axis, keepdims=keepdims), x, axis, keepdims)
    return picked / count * _like_reduced(g, x, axis, keepdims)


def _not_zero(x):
    """1 where x is not 0, else 0, in x's dtype (xlogy's and xdivy's rule for x)."""
    return cast(o.not_equal(x, 0), x.dtype)


def _inverse(perm):
    return tuple(np.argsort(perm))


def _matmul_grad_a(g, ans, a, b, transpose_a=False, transpose_b=False):
    """a @ b: a's gradient is g @ b^T. With a and b used transposed (TF's MatMul attributes),
    the same product with the transposes moved onto the operands, as TF's rule writes it."""
    if transpose_a:
        return unbroadcast(o.matmul(b, g, transpose_a=transpose_b, transpose_b=True), a)
    return unbroadcast(o.matmul(g, b, transpose_b=not transpose_b), a)


def _matmul_grad_b(g, ans, a, b, transpose_a=False, transpose_b=False):
    """a @ b: b's gradient is a^T @ g (transposed operands as in `_matmul_grad_a`)."""
    if transpose_b:
        return unbroadcast(o.matmul(g, a, transpose_a=True, transpose_b=transpose_a), b)
    return unbroadcast(o.matmul(a, g, transpose_a=not transpose_a), b)


def _prod_grad(g, ans, x, axis, keepdims):
    """reduce_prod: each element's gradient is the product of the others, computed as TF does
    (the reduced axes moved first and flattened, then the product of the elements before and
    of those after each one: exclusive cumprods, so a zero is no division by zero)."""
    shape = x._value.shape
    g = _like_reduced(g, x, axis, keepdims)
    reduced = tuple(range(len(shape))) if axis is None else axis
    kept = tuple(i for i in range(len(shape)) if i not in reduced)
    perm = reduced + kept
    permuted = transpose(x, perm)
    n = int(np.prod([shape[i] for i in reduced]))
    flat = reshape(permuted, [n, -1])
    left = o.cumprod(flat, 0, exclusive=True)
    right = o.cumprod(flat, 0, exclusive=True, reverse=True)
    others = reshape(left * right, permuted._value.shape)
    return g * transpose(others, _inverse(perm))


def _cumprod_grad(g, ans, x, axis, exclusive, reverse):
    """TF's rule (divided by x, and 0 where x is 0: right away from zeros, as TF's)."""
    running = o.cumprod(x, axis, exclusive=exclusive, reverse=reverse)
    return o.divide_no_nan(o.cumsum(running * g, axis, exclusive=exclusive, reverse=not reverse), x)


def _split_concat(g, inputs, axis):
    """Each input of a concat gets its own slice of g."""
    out, start = [], 0
    for x in inputs:
        n = x._value.shape[axis]
        out.append(g[(slice(None),) * axis + (slice(start, start + n),)])
        start += n
    return out


def _grid(num, axis, ans):
    """linspace's weights of `stop`, 0 to 1 along `axis` (shaped to broadcast against its
    output): element i is start + (stop - start) * i / (num - 1)."""
    t = np.arange(num, dtype=ans._value.dtype) / max(num - 1, 1)
    return Tensor(t.reshape([-1 if i == axis else 1 for i in range(ans._value.ndim)]))


def _along_grid(g, weights, axis):
    """g weighted by the grid and summed over the grid's axis."""
    return reduce_sum(g * weights, axis=axis)


def _tile_grad(g, ans, x, multiples):
    """tile: g viewed as (m0, d0, m1, d1, ...), summed over the copies m0, m1, ..."""
    shape = x._value.shape
    copies = reshape(g, [v for m, d in zip(multiples, shape) for v in (m, d)])
    return reshape(reduce_sum(copies, axis=tuple(range(0, 2 * len(shape), 2))), shape)


def _einsum_grads(g, ans, inputs, equation):
    """Each operand's gradient is an einsum of g with the other operands ('ij,jk->ik': a's
    gradient is 'ik,jk->ij'). A subscript only this operand has was summed away: the
    gradient is the same all along it (broadcast back)."""
    lhs, out = equation.split("->")
    subs = lhs.split(",")
    grads = []
    for k, (x, sub) in enumerate(zip(inputs, subs)):
        others = [j for j in range(len(inputs)) if j != k]
        kept = "".join(c for c in sub if c in out or any(c in subs[j] for j in others))
        gx = a.einsum(
            ",".join([out] + [subs[j] for j in others]) + "->" + kept,
            g,
            *[inputs[j] for j in others],
        )
        if kept != sub:
            gx = o.broadcast_to(
                reshape(gx, [d if c in kept else 1 for c, d in zip(sub, x._value.shape)]),
                x._value.shape,
            )
        grads.append(gx)
    return grads


def _softmax_jacobian(g, logits):
    """g times the softmax Jacobian at `logits` (TF's second-order term of the fused
    cross-entropies: their backprop `softmax - labels` differentiated)."""
    p = n.softmax(logits)
    return (g - reduce_sum(g * p, -1, keepdims=True)) * p


# fmt: off  (the table keeps its columns: one rule a line, inputs aligned)
def _convolution_rules(conv, by_input, by_filter):
    """The rules of a convolution and of its two gradient ops (conv2d's, depthwise_conv2d's):
    each is linear in both its inputs, so each rule is one of the three ops again."""
    return {
        conv: (
            lambda g, ans, x, f, **k: apply(by_input, g, f, input_shape=x._value.shape, **k),
            lambda g, ans, x, f, **k: apply(by_filter, x, g, filter_shape=f._value.shape, **k),
        ),
        by_input: (
            lambda gg, ans, g, f, input_shape, **k: apply(conv, gg, f, **k),
            lambda gg, ans, g, f, input_shape, **k: apply(
                by_filter, gg, g, filter_shape=f._value.shape, **k
            ),
        ),
        by_filter: (
            lambda gg, ans, x, g, filter_shape, **k: apply(
                by_input, g, gg, input_shape=x._value.shape, **k
            ),
            lambda gg, ans, x, g, filter_shape, **k: apply(conv, x, gg, **k),
        ),
    }


VJPS = {
    o.Add: (lambda g, ans, x, y: unbroadcast(g, x), lambda g, ans, x, y: unbroadcast(g, y)),
    o.Sub: (lambda g, ans, x, y: unbroadcast(g, x), lambda g, ans, x, y: unbroadcast(-g, y)),
    o.Mul: (lambda g, ans, x, y: unbroadcast(g * y, x), lambda g, ans, x, y: unbroadcast(g * x, y)),
    o.Div: (
        lambda g, ans, x, y: unbroadcast(g / y, x),
        lambda g, ans, x, y: unbroadcast(-g * x / (y * y), y),
    ),
    o.DivNoNan: (
        lambda g, ans, x, y: unbroadcast(o.divide_no_nan(g, y), x),
        lambda g, ans, x, y: unbroadcast(g * o.divide_no_nan(o.divide_no_nan(-x, y), y), y),
    ),
    o.Pow: (
        lambda g, ans, x, y: unbroadcast(g * y * x ** (y - 1), x),
        lambda g, ans, x, y: unbroadcast(g * ans * where(x > 0, o.log(where(x > 0, x, 1)), 0), y),
    ),
    o.Maximum: (
        lambda g, ans, x, y: unbroadcast(where(greater_equal(x, y), g, 0), x),
        lambda g, ans, x, y: unbroadcast(where(greater_equal(x, y), 0, g), y),
    ),
    o.Minimum: (
        lambda g, ans, x, y: unbroadcast(where(less_equal(x, y), g, 0), x),
        lambda g, ans, x, y: unbroadcast(where(less_equal(x, y), 0, g), y),
    ),
    o.Neg: (lambda g, ans, x: -g,),
    o.Square: (lambda g, ans, x: g * 2 * x,),
    o.Sqrt: (lambda g, ans, x: apply(o.SqrtGrad, ans, g),),  # g * 0.5 / ans
    o.SqrtGrad: (
        lambda g, ans, y, dy: -(g / y) * ans,
        lambda g, ans, y, dy: apply(o.SqrtGrad, y, g),
    ),
    o.Exp: (lambda g, ans, x: g * ans,),
    o.Log: (lambda g, ans, x: g / x,),
    o.Log1p: (lambda g, ans, x: g / (1 + x),),
    o.Sin: (lambda g, ans, x: g * o.cos(x),),
    o.Cos: (lambda g, ans, x: -g * o.sin(x),),
    o.Tan: (lambda g, ans, x: g * o.square(1 / o.cos(x)),),  # g sec²x
    o.Tanh: (lambda g, ans, x: apply(o.TanhGrad, ans, g),),  # g * (1 - ans**2)
    o.TanhGrad: (
        lambda g, ans, y, dy: g * -2.0 * dy * y,
        lambda g, ans, y, dy: apply(o.TanhGrad, y, g),
    ),
    o.Sigmoid: (lambda g, ans, x: apply(o.SigmoidGrad, ans, g),),  # g * ans * (1 - ans)
    o.SigmoidGrad: (
        lambda g, ans, y, dy: g * dy - 2.0 * (g * dy) * y,
        lambda g, ans, y, dy: apply(o.SigmoidGrad, y, g),
    ),
    o.Relu: (lambda g, ans, x: apply(o.ReluGrad, g, ans),),  # g where x > 0, as ans > 0 there
    o.ReluGrad: (
        lambda g, ans, dy, x: apply(o.ReluGrad, g, x),
        lambda g, ans, dy, x: zeros_like(x),
    ),  # constant almost everywhere
    o.Elu: (lambda g, ans, x: apply(o.EluGrad, g, ans),),  # g, or g (ans + 1) if x <= 0
    o.EluGrad: (
        lambda g, ans, dy, y: apply(o.EluGrad, g, y),
        lambda g, ans, dy, y: where(y < 0, g * dy, 0),
    ),
    o.Softplus: (lambda g, ans, x: g * o.sigmoid(x),),
    o.Abs: (lambda g, ans, x: g * o.sign(x),),
    o.Sign: (lambda g, ans, x: zeros_like(x),),
    o.Round: (None,),
    o.Floor: (None,),
    o.Ceil: (None,),
    o.FloorDiv: (None, None),
    o.FloorMod: (
        lambda g, ans, x, y: unbroadcast(g, x),
        lambda g, ans, x, y: unbroadcast(-g * o.floor(x / y), y),
    ),
    o.Identity: (lambda g, ans, x: g,),
    o.Cast: (lambda g, ans, x, dtype: cast(g, x.dtype),),  # (slices cast as slices: o.Cast.sparse)
    o.Select: (
        None,
        lambda g, ans, c, x, y: unbroadcast(where(c, g, 0), x),
        lambda g, ans, c, x, y: unbroadcast(where(c, 0, g), y),
    ),
    o.ClipByValue: (
        lambda g, ans, x, lo, hi: where(logical_or(less(x, lo), greater(x, hi)), 0, g),
        lambda g, ans, x, lo, hi: unbroadcast(where(less(x, lo), g, 0), lo),
        lambda g, ans, x, lo, hi: unbroadcast(where(greater(x, hi), g, 0), hi),
    ),
    o.MatMul: (_matmul_grad_a, _matmul_grad_b),
    o.Transpose: (lambda g, ans, x, perm: transpose(g, _inverse(perm)),),
    o.Reshape: (lambda g, ans, x, shape: reshape(g, x.shape),),
    o.ExpandDims: (lambda g, ans, x, shape: reshape(g, x.shape),),
    o.Squeeze: (lambda g, ans, x, shape: reshape(g, x.shape),),
    o.BroadcastTo: (lambda g, ans, x, shape: unbroadcast(g, x),),
    o.Fill: (lambda g, ans, value, shape: unbroadcast(g, value),),
    o.LinSpace: (
        lambda g, ans, start, stop, num, axis: unbroadcast(
            _along_grid(g, 1.0 - _grid(num, axis, ans), axis), start
        ),
        lambda g, ans, start, stop, num, axis: unbroadcast(
            _along_grid(g, _grid(num, axis, ans), axis), stop
        ),
    ),
    o.Sum: (lambda g, ans, x, axis, keepdims: _like_reduced(g, x, axis, keepdims),),
    o.Prod: (_prod_grad,),
    o.Cumsum: (
        lambda g, ans, x, axis, exclusive, reverse: o.cumsum(
            g, axis, exclusive=exclusive, reverse=not reverse
        ),
    ),
    o.Cumprod: (_cumprod_grad,),
    o.Mean: (
        lambda g, ans, x, axis, keepdims: _like_reduced(
            g / _mean_factor(x._value, ans._value), x, axis, keepdims
        ),
    ),
    o.Max: (_reduce_extreme,),
    o.Min: (_reduce_extreme,),
    o.StridedSlice: (lambda g, ans, x, key: apply(o.IndexGrad, g, key=key, shape=x._value.shape),),
    o.IndexGrad: (lambda g, ans, gx, key, shape: g[key],),
    # ops with any number of inputs: one rule returns every input's gradient
    o.Concat: lambda g, ans, inputs, axis: _split_concat(g, inputs, axis),
    o.AddN: lambda g, ans, inputs: [g] * len(inputs),
    # a deliberate stop: no rule at all, so the op is never recorded and its output is
    # watched by no tape (ops on it are not recorded either), as in TF
    o.StopGradient: None,
    # no gradient: ops with boolean or integer results
    **{
        op: (None,)
        for op in (
            o.LogicalNot,
            o.IsNan,
            o.IsInf,
            o.IsFinite,
            o.All,
            o.Any,
            o.Where,
        )
    },
    o.Pack: lambda g, ans, inputs, axis: [
        g[(slice(None),) * axis + (i,)] for i in range(len(inputs))
    ],
    # array_ops.py
    a.Gather: (
        lambda g, ans, p, i, axis, batch_dims: (
            gather_gradient(g, p._value.shape, i)  # (TF's IndexedSlices, see indexed_slices.py)
            if axis == 0 and batch_dims == 0
            else apply(a.GatherGrad, g, i, shape=p._value.shape, axis=axis, batch_dims=batch_dims)
        ),
        None,
    ),
    a.GatherGrad: (
        lambda g, ans, gp, i, shape, axis, batch_dims: apply(
            a.Gather, g, i, axis=axis, batch_dims=batch_dims
        ),
        None,
    ),
    a.Tile: (_tile_grad,),
    a.OneHot: (None, None, None),  # TF: no gradient for indices, on_value or off_value
    a.ArgSort: (None,),
    a.ArgMax: (None,),
    a.ArgMin: (None,),
    a.Einsum: _einsum_grads,
    a.Pad: (  # (the padding's own value gets no gradient, as in TF)
        lambda g, ans, x, paddings, constant: g[
            tuple(slice(p, p + d) for (p, _), d in zip(paddings, x._value.shape))
        ],
    ),
    a.MirrorPad: (
        lambda g, ans, x, paddings, mode: apply(
            a.MirrorPadGrad, g, paddings=paddings, mode=mode, shape=x._value.shape
        ),
    ),
    a.MirrorPadGrad: (
        lambda gg, ans, g, paddings, mode, shape: apply(
            a.MirrorPad, gg, paddings=paddings, mode=mode
        ),
    ),
    la.MatrixDiag: (lambda g, ans, v, rows, cols: apply(la.MatrixDiagPart, g),),
    la.MatrixDiagPart: (
        lambda g, ans, x: apply(la.MatrixDiag, g, rows=x._value.shape[-2], cols=x._value.shape[-1]),
    ),
    # nn_ops.py
    n.Softmax: (lambda g, ans, x, axis: (g - reduce_sum(g * ans, axis, keepdims=True)) * ans,),
    n.LogSoftmax: (lambda g, ans, x, axis: g - reduce_sum(g, axis, keepdims=True) * o.exp(ans),),
    n.SoftmaxXent: (
        lambda g, ans, z, y: unbroadcast(expand_dims(g, -1) * apply(n.XentBackprop, z, y), z),
        lambda g, ans, z, y: unbroadcast(expand_dims(g, -1) * -n.log_softmax(z), y),
    ),
    n.XentBackprop: (
        lambda g, ans, z, y: unbroadcast(_softmax_jacobian(g, z), z),
        lambda g, ans, z, y: zeros_like(y),
    ),  # TF: zeros, not the -g of the math
    n.SparseSoftmaxXent: (
        lambda g, ans, z, y: expand_dims(g, -1) * apply(n.SparseXentBackprop, z, y),
        None,
    ),
    n.SparseXentBackprop: (lambda g, ans, z, y: _softmax_jacobian(g, z), None),
    **_convolution_rules(n.Conv2D, n.Conv2DBackpropInput, n.Conv2DBackpropFilter),
    **_convolution_rules(
        n.DepthwiseConv2dNative,
        n.DepthwiseConv2dNativeBackpropInput,
        n.DepthwiseConv2dNativeBackpropFilter,
    ),
    n.MaxPool: (lambda g, ans, x, **k: apply(n.MaxPoolGrad, x, ans, g, **k),),
    n.MaxPoolGrad: (
        lambda gg, ans, x, y, g, **k: zeros_like(x),
        lambda gg, ans, x, y, g, **k: zeros_like(y),
        lambda gg, ans, x, y, g, **k: apply(n.MaxPoolGradGrad, x, y, gg, **k),
    ),  # (TF: the window's maximum moves nothing to first order)
    n.MaxPoolGradGrad: (
        lambda gg, ans, x, y, g, **k: zeros_like(x),
        lambda gg, ans, x, y, g, **k: zeros_like(y),
        lambda gg, ans, x, y, g, **k: apply(n.MaxPoolGrad, x, y, gg, **k),
    ),
    n.AvgPool: (lambda g, ans, x, **k: apply(n.AvgPoolGrad, g, input_shape=x._value.shape, **k),),
    n.AvgPoolGrad: (lambda gg, ans, g, input_shape, **k: apply(n.AvgPool, gg, **k),),
    d.CheckNumerics: (
        lambda g, ans, x, message: d.check_numerics(
            g,
            f"Not a number (NaN) or infinity (Inf) values detected in gradient. "
            f"{message.encode()!r}",
        ),
    ),
    n.Erf: (lambda g, ans, x: g * (2 / np.sqrt(np.pi)) * o.exp(-o.square(x)),),
    n.Selu: (lambda g, ans, x: apply(n.SeluGrad, g, ans),),
    n.SeluGrad: (
        lambda gg, ans, g, y: apply(n.SeluGrad, gg, y),
        lambda gg, ans, g, y: where(y < 0, gg * g, zeros_like(g)),
    ),
    n.Relu6: (lambda g, ans, x: apply(n.Relu6Grad, g, ans),),  # (0 < ans < 6 where 0 < x < 6)
    n.Relu6Grad: (
        lambda gg, ans, g, x: apply(n.Relu6Grad, gg, x),
        lambda gg, ans, g, x: zeros_like(x),
    ),
    n.LeakyRelu: (lambda g, ans, x, alpha: apply(n.LeakyReluGrad, g, x, alpha=alpha),),
    n.LeakyReluGrad: (
        lambda gg, ans, g, x, alpha: apply(n.LeakyReluGrad, gg, x, alpha=alpha),
        lambda gg, ans, g, x, alpha: zeros_like(x),
    ),
    n.Softsign: (lambda g, ans, x: apply(n.SoftsignGrad, g, x),),
    n.SoftsignGrad: (n._no_gradient("SoftsignGrad"), n._no_gradient("SoftsignGrad")),
    # special_math_ops.py
    s.Acos: (lambda g, ans, x: -g * s.rsqrt(1 - o.square(x)),),
    s.Asin: (lambda g, ans, x: g * s.rsqrt(1 - o.square(x)),),
    s.Atan: (lambda g, ans, x: g * s.reciprocal(1 + o.square(x)),),
    s.Acosh: (lambda g, ans, x: g / s.sinh(ans),),
    s.Asinh: (lambda g, ans, x: g / s.cosh(ans),),
    s.Atanh: (lambda g, ans, x: g * s.reciprocal(1 - o.square(x)),),
    s.Sinh: (lambda g, ans, x: g * s.cosh(x),),
    s.Cosh: (lambda g, ans, x: g * s.sinh(x),),
    s.Expm1: (lambda g, ans, x: g * o.exp(x),),
    s.Rsqrt: (lambda g, ans, x: g * -0.5 * ans * ans * ans,),  # (TF's RsqrtGrad)
    s.Reciprocal: (lambda g, ans, x: -g * ans * ans,),  # (TF's ReciprocalGrad)
    s.Erfc: (lambda g, ans, x: -g * (2 / np.sqrt(np.pi)) * o.exp(-o.square(x)),),
    s.Lgamma: (lambda g, ans, x: g * s.digamma(x),),
    s.Digamma: (lambda g, ans, x: g * s.polygamma(o.ones_like(x), x),),
    s.Polygamma: (None, lambda g, ans, a, x: unbroadcast(g * s.polygamma(a + 1, x), x)),
    s.Zeta: (None, lambda g, ans, x, q: unbroadcast(-x * s.zeta(x + 1, q) * g, q)),
    s.Atan2: (
        lambda g, ans, y, x: unbroadcast(x * (g / (o.square(x) + o.square(y))), y),
        lambda g, ans, y, x: unbroadcast(-y * (g / (o.square(x) + o.square(y))), x),
    ),
    s.Xlogy: (
        lambda g, ans, x, y: unbroadcast(s.xlogy(_not_zero(x), y) * g, x),
        lambda g, ans, x, y: unbroadcast(s.xdivy(x, y) * g, y),
    ),
    s.Xdivy: (
        lambda g, ans, x, y: unbroadcast(s.xdivy(_not_zero(x), y) * g, x),
        lambda g, ans, x, y: unbroadcast(s.xdivy(-x, o.square(y)) * g, y),
    ),
    s.SquaredDifference: (
        lambda g, ans, x, y: unbroadcast(2 * g * (x - y), x),
        lambda g, ans, x, y: unbroadcast(-(2 * g * (x - y)), y),
    ),
    s.EuclideanNorm: (  # (TF's: x / (norm / g), so a zero norm gives nan, as in TF)
        lambda g, ans, x, axis, keepdims: (
            x / (_like_reduced(ans, x, axis, keepdims) / _like_reduced(g, x, axis, keepdims))
        ),
    ),
}
# fmt: on

for _op, _rules in VJPS.items():
    _op.vjps = _rules


# --- numpy twins of the rules, for a backward walk that nothing records ---------------------
# The one exception to "every rule is written with minitape's ops", kept because it pays:
# without it W1 takes 57% more instructions per step, W2 10%, W3 18% (callgrind).
# When no tape, trace or accumulator listens, `GradientTape.gradient` walks with numpy values
# (`tape._bare_step`): the common ops then use these twins of their rules above, which do
# the same arithmetic with the same numpy functions (each op's own `forward`), minus the
# tensors that no one would record. `g` is a numpy value; `ans` and the inputs are the
# recorded tensors, as above. tests/test_grads.py checks every twin against its rule, bit for
# bit, on random shapes and dtypes. An op without twins uses its rules, on tensors.
def _unbroadcast_value(g, x):
    """`unbroadcast` on a numpy value."""
    shape = x._value.shape
    if g.shape == shape:
        return g
    summed = o.Sum.forward(g, _broadcast_axes(g.shape, shape), False)
    return summed if summed.shape == shape else o.Reshape.forward(summed, shape)


def _like_reduced_value(g, x, axis, keepdims):
    """`_like_reduced` on a numpy value."""
    shape = x._value.shape
    if not keepdims and axis is not None and g.ndim:
        new = tuple([1 if i in axis else d for i, d in enumerate(shape)])
        g = g if new == g.shape else o.Reshape.forward(g, new)
    return g if g.shape == shape else o.BroadcastTo.forward(g, shape)


def _reshaped_value(g, x):
    shape = x._value.shape
    return g if g.shape == shape else o.Reshape.forward(g, shape)


def _with_tensors(rule):
    """A twin that is the rule itself, on a tensor (for a rule not worth writing twice)."""
    return lambda g, *args, **attrs: rule(Tensor(g), *args, **attrs)._value


def _matmul_value_a(g, ans, a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        return _unbroadcast_value(o.MatMul.forward(b._value, g, transpose_b, True), a)
    return _unbroadcast_value(o.MatMul.forward(g, b._value, False, not transpose_b), a)


def _matmul_value_b(g, ans, a, b, transpose_a=False, transpose_b=False):
    if transpose_b:
        return _unbroadcast_value(o.MatMul.forward(g, a._value, True, transpose_a), b)
    return _unbroadcast_value(o.MatMul.forward(a._value, g, not transpose_a, False), b)


# Add's, Sub's and Mul's twins look at the shape themselves: the common case, no broadcasting,
# then costs no further call.
def _mul_value_x(g, ans, x, y):
    gx = g * y._value
    return gx if gx.shape == x._value.shape else _unbroadcast_value(gx, x)


def _mul_value_y(g, ans, x, y):
    gy = g * x._value
    return gy if gy.shape == y._value.shape else _unbroadcast_value(gy, y)


def _sub_value_y(g, ans, x, y):
    gy = -g
    return gy if gy.shape == y._value.shape else _unbroadcast_value(gy, y)


# fmt: off
BARE = {
    o.Add: (
        lambda g, ans, x, y: g if g.shape == x._value.shape else _unbroadcast_value(g, x),
        lambda g, ans, x, y: g if g.shape == y._value.shape else _unbroadcast_value(g, y),
    ),
    o.Sub: (
        lambda g, ans, x, y: g if g.shape == x._value.shape else _unbroadcast_value(g, x),
        _sub_value_y,
    ),
    o.Mul: (_mul_value_x, _mul_value_y),
    o.Div: (
        lambda g, ans, x, y: _unbroadcast_value(g / y._value, x),
        lambda g, ans, x, y: _unbroadcast_value(-g * x._value / (y._value * y._value), y),
    ),
    o.Pow: (
        lambda g, ans, x, y: _unbroadcast_value(
            g * y._value * o.Pow.forward(x._value, y._value - 1), x
        ),
        _with_tensors(VJPS[o.Pow][1]),
    ),
    o.Neg: (lambda g, ans, x: -g,),
    o.Square: (lambda g, ans, x: g * 2 * x._value,),
    o.Sqrt: (lambda g, ans, x: o.SqrtGrad.forward(ans._value, g),),
    o.Exp: (lambda g, ans, x: g * ans._value,),
    o.Log: (lambda g, ans, x: g / x._value,),
    o.Tanh: (lambda g, ans, x: o.TanhGrad.forward(ans._value, g),),
    o.TanhGrad: (
        lambda g, ans, y, dy: g * -2.0 * dy._value * y._value,
        lambda g, ans, y, dy: o.TanhGrad.forward(y._value, g),
    ),
    o.Sigmoid: (lambda g, ans, x: o.SigmoidGrad.forward(ans._value, g),),
    o.Relu: (lambda g, ans, x: o.ReluGrad.forward(g, ans._value),),
    o.Identity: (lambda g, ans, x: g,),
    o.MatMul: (_matmul_value_a, _matmul_value_b),
    o.Transpose: (lambda g, ans, x, perm: g.transpose(_inverse(perm)),),
    o.Reshape: (lambda g, ans, x, shape: _reshaped_value(g, x),),
    o.ExpandDims: (lambda g, ans, x, shape: _reshaped_value(g, x),),
    o.Squeeze: (lambda g, ans, x, shape: _reshaped_value(g, x),),
    o.BroadcastTo: (lambda g, ans, x, shape: _unbroadcast_value(g, x),),
    o.Sum: (lambda g, ans, x, axis, keepdims: _like_reduced_value(g, x, axis, keepdims),),
    o.Mean: (
        lambda g, ans, x, axis, keepdims: _like_reduced_value(
            g / g.dtype.type(_mean_factor(x._value, ans._value)), x, axis, keepdims
        ),
    ),
}
# fmt: on

o.Cast.sparse = True  # (its rule casts a gather's slices as slices, as TF's _CastGrad does)

for _op, _twins in BARE.items():
    TWINS[_op, _op.vjps] = _twins  # (the op's own rules, set again later, find them here)
    _op.bare = _twins
