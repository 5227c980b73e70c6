"""Neural-network operations: softmax, log_softmax, logsumexp, the two softmax
cross-entropies, conv2d, and the activations Keras names (gelu, silu, selu, ...).

As in `ops.py`: each primitive is an `Op` with a numpy forward, its public function checks
and converts the arguments as TF 2.21 does, and the gradient rules are rows of the table in
`grads.py`. The cross-entropies are TF's fused ops: the loss, and (for the backward pass) the
"backprop" `softmax(logits) - labels` as an op of its own, whose gradient is the softmax
Jacobian: that is how TF's nested tapes get second derivatives from them.
"""

import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from . import dtypes as _dt
from . import ops as o
from .clip_ops import clip_by_norm
from .errors import AbortedError, InvalidArgumentError, UnimplementedError, invalid
from .gen_ops import _op
from .tape import apply
from .tensor import _TensorLike, convert_to_tensor, read, tf_type_name

__all__ = [
    "embedding_lookup",
    "softmax",
    "log_softmax",
    "reduce_logsumexp",
    "softmax_cross_entropy_with_logits",
    "sparse_softmax_cross_entropy_with_logits",
    "conv2d",
    "depthwise_conv2d",
    "erf",
    "gelu",
    "silu",
    "swish",
    "selu",
    "relu6",
    "leaky_relu",
    "softsign",
    "log_sigmoid",
]

_FLOATS = "half, bfloat16, float, double"


def _float_tensor(x, op_name, allowed=_FLOATS):
    t = read(x)
    if t._value.dtype.kind != "f":
        raise invalid(
            op_name,
            f"Value for attr 'T' of {tf_type_name(t._value.dtype)} is not in "
            f"the list of allowed values: {allowed}",
        )
    return t


# --- softmax and log_softmax ----------------------------------------------------------------
def _softmax(x, axis):
    if not x.size:
        return x.copy()  # (nothing to normalise)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _log_softmax(x, axis):
    if not x.size:
        return x.copy()
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


Softmax = _op("Softmax", _softmax)
LogSoftmax = _op("LogSoftmax", _log_softmax)


def _softmax_axis(axis, op_name):
    """softmax's `axis` as an int, refused as TF refuses it: a float reaches the op
    (InvalidArgumentError), a string, a bool tensor or a non-number does not get that far
    (TypeError); a Python bool is an int."""
    if isinstance(axis, (float, np.floating)) or (
        isinstance(axis, _TensorLike) and axis._read_value().dtype.kind == "f"
    ):
        raise invalid(op_name, f"axis must be an integer, got {axis!r}")
    if isinstance(axis, (str, bytes)) or (
        isinstance(axis, _TensorLike) and axis._read_value().dtype.kind not in "iu"
    ):
        raise TypeError(f"axis must be an integer, got {axis!r}")
    return int(axis)


def _softmax_args(logits, axis, op):
    t = _float_tensor(logits, op.name)
    nd = t._value.ndim
    if nd == 0 and op is LogSoftmax:
        raise invalid(op.name, "logits must have >= 1 dimension, got []")
    if nd == 0:
        raise AbortedError(None, op.name, f"Input dims must be <= 5 and >=1 [Op:{op.name}]")
    if axis is not None and not (axis == -1 or axis == nd - 1):
        # (TF compares the axis in Python first: an array of several values has no truth
        # value, ValueError; a dtype cannot be ordered, TypeError)
        if not -nd <= axis < nd:
            raise invalid(
                op.name,
                f"`dim` must be in the range [{-nd}, {nd}) where {nd} is the "
                f"number of dimensions in the input. Received: dim={axis}",
            )
    axis = -1 if axis is None else _softmax_axis(axis, op.name)
    if not -nd <= axis < nd:
        raise invalid(
            op.name,
            f"`dim` must be in the range [{-nd}, {nd}) where {nd} is the "
            f"number of dimensions in the input. Received: dim={axis}",
        )
    return apply(op, t, axis=axis % nd)


def softmax(logits, axis=None, name=None):
    """exp(logits) / sum(exp(logits)) along `axis` (the last by default): probabilities.
    Computed from `logits - max`, so large logits do not overflow."""
    return _softmax_args(logits, axis, Softmax)


def log_softmax(logits, axis=None, name=None):
    """logits - log(sum(exp(logits))) along `axis`: the log of softmax, without its
    underflow (log_softmax of [1, 1000] is [-999, 0], where log(softmax) gives -inf)."""
    return _softmax_args(logits, axis, LogSoftmax)


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) over `axis`, computed as TF does: the max (where finite) is taken out
    first and added back, with its gradient stopped; so the gradient is softmax(x)."""
    x = read(input_tensor)
    if x._value.dtype.kind != "f":
        raise invalid(
            "IsFinite",
            f"Value for attr 'T' of {tf_type_name(x._value.dtype)} is not "
            "in the list of allowed values: bfloat16, half, float, double",
        )
    raw_max = o.reduce_max(x, axis=axis, keepdims=True)
    my_max = o.stop_gradient(o.where(o.is_finite(raw_max), raw_max, 0))
    result = o.log(o.reduce_sum(o.exp(x - my_max), axis=axis, keepdims=keepdims))
    if not keepdims:
        my_max = o.reshape(my_max, result._value.shape)
    return result + my_max


# --- the cross-entropies --------------------------------------------------------------------
def _xent(logits, labels):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_sum = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return np.sum(labels * (log_sum - shifted), axis=-1)


def _sparse_xent(logits, labels):
    return _xent(logits, labels[:, None] == np.arange(logits.shape[-1]))


SoftmaxXent = _op("SoftmaxCrossEntropyWithLogits", _xent)
SparseSoftmaxXent = _op("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent)
# the fused ops' second output, softmax(logits) - labels: what their gradient multiplies
XentBackprop = _op(
    "SoftmaxCrossEntropyWithLogits:backprop", lambda logits, labels: _softmax(logits, -1) - labels
)
SparseXentBackprop = _op(
    "SparseSoftmaxCrossEntropyWithLogits:backprop",
    lambda logits, labels: _softmax(logits, -1) - (labels[:, None] == np.arange(logits.shape[-1])),
)


def _flatten_outer(t):
    """A tensor as (everything else, last axis), as TF's _flatten_outer_dims."""
    shape = t._value.shape
    if len(shape) == 2:
        return t
    return o.reshape(t, (math.prod(shape[:-1]), shape[-1]))


def _move_to_end(t, axis):
    nd = t._value.ndim
    perm = [i for i in range(nd) if i != axis] + [axis]
    return o.transpose(t, perm)


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits)) along `axis`: one loss per example. Each row of
    `labels` should be a probability distribution (the gradient assumes it sums to 1, as
    TF's does). Gradients flow into the logits and into the labels."""
    logits = read(logits)
    labels = read(labels)
    if logits._value.dtype.kind != "f":
        raise invalid(
            "SoftmaxCrossEntropyWithLogits",
            f"Value for attr 'T' of "
            f"{tf_type_name(logits._value.dtype)} is not in the list of allowed "
            f"values: {_FLOATS}",
        )
    precise = o.cast(logits, "float32") if logits._value.dtype == np.float16 else logits
    labels = o.cast(labels, precise.dtype)
    nd = precise._value.ndim
    if nd == 0:
        raise invalid(
            "Slice",
            "Expected begin[0] == 0 (got -1) and size[0] == 0 (got 1) when input.dim_size(0) == 0",
        )
    axis = int(axis)
    if axis != -1 and axis % nd != nd - 1:
        precise, labels = _move_to_end(precise, axis % nd), _move_to_end(labels, axis % nd)
    out_shape = precise._value.shape[:-1]
    flat_logits = _flatten_outer(precise)
    flat_labels = _flatten_outer(labels) if labels._value.ndim else labels
    try:
        if (
            np.broadcast_shapes(flat_logits._value.shape, flat_labels._value.shape)
            != flat_logits._value.shape
            or flat_labels._value.ndim != 2
        ):
            raise ValueError
    except ValueError:
        raise invalid(
            "SoftmaxCrossEntropyWithLogits",
            "logits and labels must be broadcastable: "
            f"logits_size={_dims(flat_logits)} labels_size={_dims(flat_labels)}",
        ) from None
    cost = apply(SoftmaxXent, flat_logits, flat_labels)
    cost = o.reshape(cost, out_shape)
    return o.cast(cost, logits.dtype) if cost.dtype != logits.dtype else cost


def _dims(t):
    return "[" + ",".join(map(str, t._value.shape)) + "]"


def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    """-log_softmax(logits)[label] for integer class labels: one loss per example. `labels`
    has the shape of `logits` without its last axis. No gradient for the labels."""
    logits_arg = logits
    labels = read(labels)
    logits = read(logits)
    ls, gs = labels._value.shape, logits._value.shape  # (TF's Python checks shapes first)
    if not gs:
        raise ValueError(f"`logits` cannot be a scalar. Received logits={logits_arg}`")
    if len(ls) != len(gs) - 1:
        raise ValueError(
            "`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
            f"labels.shape={ls} of rank {len(ls)} and logits.shape={gs} of rank "
            f"{len(gs)}"
        )
    if ls != gs[:-1]:
        raise ValueError(
            "`labels.shape` must equal `logits.shape` except for the last "
            f"dimension. Received: labels.shape={ls} and logits.shape={gs}"
        )
    if labels._value.dtype.kind not in "iu":
        raise invalid(
            "SparseSoftmaxCrossEntropyWithLogits",
            f"Value for attr 'Tlabels' of "
            f"{tf_type_name(labels._value.dtype)} is not in the list of allowed "
            "values: int32, int64",
        )
    if logits._value.dtype.kind != "f":
        raise invalid(
            "SparseSoftmaxCrossEntropyWithLogits",
            f"Value for attr 'T' of "
            f"{tf_type_name(logits._value.dtype)} is not in the list of allowed "
            f"values: {_FLOATS}",
        )
    precise = o.cast(logits, "float32") if logits._value.dtype == np.float16 else logits
    n = gs[-1]
    lv = labels._value
    if lv.size and (lv.min() < 0 or lv.max() >= n):
        bad = lv[(lv < 0) | (lv >= n)].reshape(-1)[0]
        raise invalid(
            "SparseSoftmaxCrossEntropyWithLogits",
            f"Received a label value of {bad} which is outside the valid range of "
            f"[0, {n}).  Label values: {' '.join(map(str, lv.reshape(-1)))}",
        )
    flat_logits = o.reshape(precise, (-1, n)) if len(gs) != 2 else precise
    flat_labels = o.reshape(labels, (-1,)) if len(ls) != 1 else labels
    cost = o.reshape(apply(SparseSoftmaxXent, flat_logits, flat_labels), ls)
    return o.cast(cost, logits.dtype) if cost.dtype != logits.dtype else cost


# --- conv2d ---------------------------------------------------------------------------------
def _pads(size, k, stride, dilation, padding):
    """(output size, padding before, padding after) along one spatial axis; `padding` is
    "VALID", "SAME" or this axis's explicit (before, after)."""
    span = (k - 1) * dilation + 1
    if padding == "VALID":
        return (size - span) // stride + 1, 0, 0
    if isinstance(padding, tuple):
        before, after = padding
        return (size + before + after - span) // stride + 1, before, after
    out = -(-size // stride)
    total = max((out - 1) * stride + span - size, 0)
    return out, total // 2, total - total // 2


def _per_axis(padding):
    """The padding of the height and of the width: "VALID"/"SAME" for both, or an explicit
    ((top, bottom), (left, right))."""
    return (padding, padding) if isinstance(padding, str) else padding


def _windows(x, kh, kw, strides, dilations, padding):
    """The padded input's patches, (N, out_h, out_w, C, kh, kw), and the paddings."""
    (sh, sw), (dh, dw) = strides, dilations
    ph, pw = _per_axis(padding)
    oh, top, bottom = _pads(x.shape[1], kh, sh, dh, ph)
    ow, left, right = _pads(x.shape[2], kw, sw, dw, pw)
    if top or bottom or left or right:
        x = np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)))
    span_h, span_w = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    win = sliding_window_view(x, (span_h, span_w), axis=(1, 2))
    return win[:, ::sh, ::sw, :, ::dh, ::dw][:, :oh, :ow], (top, left), x.shape


def _conv2d(x, filters, strides, dilations, padding):
    kh, kw = filters.shape[:2]
    win, _, _ = _windows(x, kh, kw, strides, dilations, padding)
    return np.tensordot(win, filters, axes=([3, 4, 5], [2, 0, 1])).astype(x.dtype)


def _float32_if_half(a):
    """float16 as float32: TF's CPU kernels compute a float16 convolution in float32 and
    round once, at the end."""
    return a.astype(np.float32) if a.dtype == np.float16 else a


def _conv2d_backprop_input(g, filters, input_shape, strides, dilations, padding):
    """The gradient of conv2d for its input: each output's gradient spread back over the
    window it came from, through the filter (a "transposed convolution")."""
    dtype, g, filters = g.dtype, _float32_if_half(g), _float32_if_half(filters)
    return _spread_back(
        lambda i, j: g @ filters[i, j].T,
        filters.shape[:2],
        input_shape,
        strides,
        dilations,
        padding,
    ).astype(dtype)


def _spread_back(through, kernel_size, input_shape, strides, dilations, padding):
    """The gradient of a convolution for its input: `through(i, j)`, the output's gradient
    through the filter's tap (i, j), added back at the input positions that tap read."""
    kh, kw = kernel_size
    (sh, sw), (dh, dw) = strides, dilations
    _, h, w, _ = input_shape
    ph, pw = _per_axis(padding)
    oh, top, bottom = _pads(h, kh, sh, dh, ph)
    ow, left, right = _pads(w, kw, sw, dw, pw)
    out = np.zeros((input_shape[0], h + top + bottom, w + left + right, input_shape[3]))
    for i in range(kh):
        for j in range(kw):
            r, c = i * dh, j * dw
            out[:, r : r + sh * (oh - 1) + 1 : sh, c : c + sw * (ow - 1) + 1 : sw] += through(i, j)
    return out[:, top : top + h, left : left + w]


def _conv2d_backprop_filter(x, g, filter_shape, strides, dilations, padding):
    """The gradient of conv2d for its filter: each patch of the input times the gradient of
    the output it made, summed over the batch and the positions."""
    kh, kw = filter_shape[:2]
    win, _, _ = _windows(x, kh, kw, strides, dilations, padding)
    return np.tensordot(win, g, axes=([0, 1, 2], [0, 1, 2])).transpose(1, 2, 0, 3).astype(x.dtype)


def _depthwise(x, filters, strides, dilations, padding):
    """Each input channel convolved with its own filters (kh, kw, channels, multiplier): the
    output's channel c * multiplier + m is channel c through filter m."""
    kh, kw, c, m = filters.shape
    win, _, _ = _windows(x, kh, kw, strides, dilations, padding)
    out = np.einsum("nhwcij,ijcm->nhwcm", win, filters)
    return out.reshape(out.shape[:3] + (c * m,)).astype(x.dtype)


def _depthwise_backprop_input(g, filters, input_shape, strides, dilations, padding):
    g = g.reshape(g.shape[:3] + filters.shape[2:])
    return _spread_back(
        lambda i, j: (g * filters[i, j]).sum(-1),
        filters.shape[:2],
        input_shape,
        strides,
        dilations,
        padding,
    ).astype(g.dtype)


def _depthwise_backprop_filter(x, g, filter_shape, strides, dilations, padding):
    kh, kw, c, m = filter_shape
    win, _, _ = _windows(x, kh, kw, strides, dilations, padding)
    g = g.reshape(g.shape[:3] + (c, m))
    return np.einsum("nhwcij,nhwcm->ijcm", win, g).astype(x.dtype)


Conv2D = _op("Conv2D", _conv2d)
Conv2DBackpropInput = _op("Conv2DBackpropInput", _conv2d_backprop_input)
Conv2DBackpropFilter = _op("Conv2DBackpropFilter", _conv2d_backprop_filter)
DepthwiseConv2dNative = _op("DepthwiseConv2dNative", _depthwise)
DepthwiseConv2dNativeBackpropInput = _op(
    "DepthwiseConv2dNativeBackpropInput", _depthwise_backprop_input
)
DepthwiseConv2dNativeBackpropFilter = _op(
    "DepthwiseConv2dNativeBackpropFilter", _depthwise_backprop_filter
)


def _pair(value, name):
    """TF's strides/dilations (its `_get_sequence`): None is 1; one value, or a list of 1, 2
    or 4 (N, H, W, C) entries, each an int attribute (a float truncated, as TF's make_int)."""
    if value is None:
        return 1, 1
    v = (
        list(value)
        if isinstance(value, (list, tuple, str)) or hasattr(value, "__len__")
        else [value]
    )
    if len(v) not in (1, 2, 4):
        raise ValueError(
            f"{name} should be of length 1, 2 or 4. Received: {name}={value} of length {len(v)}"
        )
    v = [_int_attr(s, name) for s in v]
    if len(v) == 4:
        if v[0] != 1 or v[3] != 1:  # (TF's kernel: Unimplemented for strides)
            raise (UnimplementedError if name == "strides" else InvalidArgumentError)(
                None,
                "Conv2D",
                f"Current implementation does not yet support {name} in "
                "the batch and depth dimensions.",
            )
        return v[1], v[2]
    return (v[0], v[0]) if len(v) == 1 else (v[0], v[1])


def _int_attr(value, name):
    if isinstance(value, (str, bytes)):
        raise TypeError(f"Expected int for argument '{name}' not {value!r}.")
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"Expected int for argument '{name}' not {value!r}.") from None


def _padding_arg(padding):
    """TF's `convert_padding`: "VALID" or "SAME" (any other string is the op's
    InvalidArgumentError), or a list of 4 (before, after) pairs (explicit padding, none in
    the batch and depth dimensions), returned as ((top, bottom), (left, right))."""
    if padding == "EXPLICIT":
        raise ValueError(
            "'EXPLICIT' is not a valid value for `padding`. To use explicit padding, "
            "`padding` must be a list."
        )
    if isinstance(padding, (list, tuple)):
        for pair in padding:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise ValueError(
                    "When `padding` is a list, each element of `padding` must be a list/tuple "
                    f"of size 2. Received: padding={padding}."
                )
        if len(padding) != 4:
            raise ValueError(
                f"When padding is a list, it must be of size 4. Received: padding={padding} "
                f"of size {len(padding)}."
            )
        pads = [[_int_attr(p, "explicit_paddings") for p in pair] for pair in padding]
        if pads[0] != [0, 0] or pads[3] != [0, 0]:
            raise invalid(
                "Conv2D",
                "Nonzero explicit padding in the batch or depth dimensions is not supported",
            )
        if min(min(p) for p in pads) < 0:
            raise invalid("Conv2D", f"All explicit paddings must be non-negative: {pads}")
        return tuple(pads[1]), tuple(pads[2])
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    if padding not in ("VALID", "SAME"):
        raise invalid(
            "Conv2D",
            f"Value for attr 'padding' of \"{padding}\" is not in the list "
            'of allowed values: "SAME", "VALID", "EXPLICIT"',
        )
    return padding


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    """2-D convolution (a cross-correlation, as in every framework) of NHWC `input` with
    `filters` of shape (height, width, in channels, out channels). `padding` "VALID" uses
    only full windows; "SAME" pads with zeros so that the output has ceil(size / stride)
    positions. Its gradients are convolutions too (Conv2DBackpropInput/Filter), themselves
    differentiable.

    `data_format="NCHW"` (channels first; TF's oneDNN CPU kernel takes it) is the NHWC
    convolution between two transposes, its strides and dilations read in NCHW order. A
    filter with fewer input channels than the input is a grouped convolution: the input's
    channels in `groups` = channels / filter's channels consecutive groups, each convolved
    with its share of the output channels (TF's `groups` of Keras' Conv2D)."""
    x, f = _conv_operands(input, filters, "Conv2D")
    if data_format == "NCHW":
        out = conv2d(
            o.transpose(x, [0, 2, 3, 1]),
            f,
            _nchw_to_nhwc(strides),
            _nchw_to_nhwc(padding) if isinstance(padding, (list, tuple)) else padding,
            "NHWC",
            _nchw_to_nhwc(dilations),
        )
        return o.transpose(out, [0, 3, 1, 2])
    _check_data_format(data_format, "Conv2D")
    c, (fc, out_channels) = x._value.shape[3], f._value.shape[2:]
    if fc == 0 or c % fc:
        raise invalid(
            "Conv2D", f"input depth must be evenly divisible by filter depth: {c} vs {fc}"
        )
    groups = c // fc
    if out_channels % groups:
        raise invalid(
            "Conv2D",
            "output depth must be evenly divisible by number of groups: "
            f"{out_channels} vs {groups}",
        )
    padding, strides, dilations = _window_args(x, f, strides, padding, dilations, "Conv2D")
    attrs = {"strides": strides, "dilations": dilations, "padding": padding}
    if groups == 1:
        return apply(Conv2D, x, f, **attrs)
    pairs = zip(o.split(x, groups, axis=3), o.split(f, groups, axis=3))
    return o.concat([apply(Conv2D, xg, fg, **attrs) for xg, fg in pairs], 3)


def depthwise_conv2d(
    input,  # noqa: A002
    filter,  # noqa: A002
    strides,
    padding,
    data_format=None,
    dilations=None,
    name=None,
):
    """Depthwise 2-D convolution: each of the NHWC input's channels convolved with its own
    `channel_multiplier` filters, `filter` of shape (height, width, in channels, multiplier);
    the output has in channels * multiplier channels (channel c's come together). `strides`
    has 4 entries (NHWC), `dilations` (TF's `rate`) 1 or 2. Its gradients are again
    depthwise convolutions (DepthwiseConv2dNativeBackpropInput/Filter), as conv2d's."""
    x, f = _conv_operands(input, filter, "DepthwiseConv2dNative", ints=False)
    if data_format == "NCHW":
        out = depthwise_conv2d(
            o.transpose(x, [0, 2, 3, 1]),
            f,
            _nchw_to_nhwc(strides),
            padding,
            "NHWC",
            dilations,
        )
        return o.transpose(out, [0, 3, 1, 2])
    _check_data_format(data_format, "DepthwiseConv2dNative")
    if not isinstance(strides, (list, tuple)) or len(strides) != 4:
        raise invalid(
            "DepthwiseConv2dNative", "Sliding window strides field must specify 4 or 5 dimensions"
        )
    c, fc = x._value.shape[3], f._value.shape[2]
    if fc != c:
        raise invalid(
            "DepthwiseConv2dNative",
            f"input depth must be evenly divisible by filter depth: {c} vs {fc}",
        )
    padding, strides, dilations = _window_args(
        x, f, strides, padding, dilations, "DepthwiseConv2dNative"
    )
    return apply(DepthwiseConv2dNative, x, f, strides=strides, dilations=dilations, padding=padding)


def _nchw_to_nhwc(value):
    """Strides, dilations or explicit paddings of 4 entries in NCHW order, in NHWC order."""
    if isinstance(value, (list, tuple)) and len(value) == 4:
        return [value[0], value[2], value[3], value[1]]
    return value


def _check_data_format(data_format, op):
    if data_format is None:
        return
    if not isinstance(data_format, str):
        raise TypeError(f"Expected string for argument 'data_format' not {data_format!r}.")
    if data_format not in ("NHWC", "NCHW"):
        raise invalid(
            op,
            f"Value for attr 'data_format' of \"{data_format}\" is not in the list of allowed "
            'values: "NHWC", "NCHW"',
        )


def _conv_operands(input, filters, op, ints=True):  # noqa: A002
    """The input and filter of a convolution, 4-dimensional tensors of one floating dtype
    (or int32, where `ints`), with TF's errors."""
    x = read(input)
    f = read(filters) if isinstance(filters, _TensorLike) else convert_to_tensor(filters, x.dtype)
    if x._value.dtype.kind != "f" and not (ints and x._value.dtype == np.int32):
        raise invalid(
            op,
            f"Value for attr 'T' of {tf_type_name(x._value.dtype)} is not in "
            f"the list of allowed values: {_FLOATS}{', int32' if ints else ''}",
        )
    if f._value.dtype != x._value.dtype:
        raise invalid(
            op,
            f"cannot compute {op} as input #1(zero-based) was expected to "
            f"be a {tf_type_name(x._value.dtype)} tensor but is a "
            f"{tf_type_name(f._value.dtype)} tensor",
        )
    if x._value.ndim != 4:
        raise ValueError(f"input must be 4-dimensional{list(x._value.shape)}")
    if f._value.ndim != 4:
        raise invalid(op, f"filter must be 4-dimensional: {list(f._value.shape)}")
    return x, f


def _window_args(x, f, strides, padding, dilations, op):
    """A convolution's padding, strides and dilations (height, width), checked as TF's kernel
    checks them against the NHWC input `x` and the filter `f`."""
    padding = _padding_arg(padding)
    strides = _pair(strides, "strides")
    dilations = (1, 1) if dilations is None else _pair(dilations, "dilations")
    if min(strides) < 1 or min(dilations) < 1:
        raise invalid(op, "Sliding window strides and dilations must be positive.")
    _, h, w, _ = x._value.shape
    kh, kw = f._value.shape[:2]
    ph, pw = _per_axis(padding)
    for size, k, s, d, p in (
        (h, kh, strides[0], dilations[0], ph),
        (w, kw, strides[1], dilations[1], pw),
    ):
        span = (k - 1) * d + 1
        if p != "SAME":
            size += sum(p) if isinstance(p, tuple) else 0
        if p != "SAME" and size < span:
            raise invalid(
                op,
                f"Computed output size would be negative: "
                f"{(size - span) // s + 1} [input_size: {size}, "
                f"effective_filter_size: {span}, stride: {s}]",
            )
    return padding, strides, dilations


# --- activations (as TF's tf.nn and tf.math write them) -------------------------------------
_erf = np.frompyfunc(math.erf, 1, 1)
Erf = _op("Erf", lambda x: _erf(x).astype(x.dtype) if np.ndim(x) else x.dtype.type(math.erf(x)))


def erf(x, name=None):
    """The error function, 2/sqrt(pi) * integral of exp(-t**2) from 0 to x."""
    return apply(Erf, _float_tensor(x, "Erf"))


def gelu(features, approximate=False, name=None):
    """x * P(X <= x) for a standard normal X: 0.5 x (1 + erf(x / sqrt 2)), or with
    `approximate=True` its tanh approximation (TF's two formulas)."""
    features = read(features)
    if features._value.dtype.kind != "f":  # (TF's Python code checks this first)
        raise ValueError(
            "`features.dtype` must be a floating point tensor."
            f"Received:features.dtype={features.dtype!r}"
        )
    x = _float_tensor(features, "Gelu")
    if approximate:
        coeff = 0.044715
        return 0.5 * x * (1.0 + o.tanh(0.7978845608028654 * (x + coeff * o.pow(x, 3))))
    return 0.5 * x * (1.0 + erf(x / 1.4142135623730951))


def silu(features, beta=1.0, name=None):
    """x * sigmoid(beta * x) (also called swish)."""
    x = _float_tensor(features, "Sigmoid")
    return x * o.sigmoid(beta * x) if beta != 1.0 else x * o.sigmoid(x)


swish = silu

_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


Selu = _op(
    "Selu",
    lambda x: np.where(x > 0, _SELU_SCALE * x, _SELU_SCALE * _SELU_ALPHA * np.expm1(x)).astype(
        x.dtype
    ),
)
# TF's SeluGrad reads the output y: g * scale where y >= 0 (so at x = 0 too), else g * (y + s*a)
SeluGrad = _op(
    "SeluGrad",
    lambda g, y: np.where(y < 0, g * (y + _SELU_SCALE * _SELU_ALPHA), g * _SELU_SCALE).astype(
        g.dtype
    ),
)


def selu(features, name=None):
    """scale * elu(x) with TF's alpha for the negative part: self-normalising networks."""
    return apply(Selu, _float_tensor(features, "Selu"))


# relu6 and leaky_relu as TF's ops: their gradients are ops (Relu6Grad, LeakyReluGrad) whose
# own gradient for x is zeros (not None: a second derivative is a computed 0, as in TF)
Relu6 = _op("Relu6", lambda x: np.minimum(np.maximum(x, 0), 6).astype(x.dtype))
Relu6Grad = _op("Relu6Grad", lambda g, x: g * ((x > 0) & (x < 6)))
LeakyRelu = _op("LeakyRelu", lambda x, alpha: np.where(x > 0, x, alpha * x).astype(x.dtype))
LeakyReluGrad = _op(
    "LeakyReluGrad", lambda g, x, alpha: np.where(x > 0, g, alpha * g).astype(g.dtype)
)


def relu6(features, name=None):
    """min(max(x, 0), 6)."""
    return apply(Relu6, read(features))


def leaky_relu(features, alpha=0.2, name=None):
    """x for x > 0, alpha * x below (integers are made float32 first, as in TF)."""
    t = read(features)
    if t._value.dtype.kind in "iu":
        t = o.cast(t, _dt.float32)
    return apply(LeakyRelu, t, alpha=float(alpha))


Softsign = _op("Softsign", lambda x: x / (1 + np.abs(x)))
SoftsignGrad = _op("SoftsignGrad", lambda g, x: g / np.square(1 + np.abs(x)))


def softsign(features, name=None):
    """x / (1 + |x|). As in TF, it has a first derivative but no second (SoftsignGrad has no
    gradient rule: asking for one raises LookupError)."""
    return apply(Softsign, _float_tensor(features, "Softsign"))


def _no_gradient(op_name):
    """A rule that refuses, as TF does for an op with no registered gradient."""

    def rule(*args, **kwargs):
        raise LookupError(f"gradient registry has no entry for: {op_name}")

    return rule


def log_sigmoid(x, name=None):
    """log(sigmoid(x)) = -softplus(-x), without the underflow."""
    return -o.softplus(-_float_tensor(x, "Softplus"))


# --- conv2d_transpose -----------------------------------------------------------------------
def conv2d_transpose(
    input,  # noqa: A002
    filters,
    output_shape,
    strides,
    padding="SAME",
    data_format="NHWC",
    dilations=None,
    name=None,
):
    """The transpose of conv2d (what its gradient does to the output's gradient): `input` of
    shape (N, h, w, in) spread through `filters` of shape (height, width, out, in) onto an
    output of `output_shape` (N, H, W, out). TF computes it as Conv2DBackpropInput, whose
    gradients are convolutions again."""
    x = read(input)
    f = read(filters) if isinstance(filters, _TensorLike) else convert_to_tensor(filters, x.dtype)
    if data_format != "NHWC":
        raise invalid(
            "Conv2DBackpropInput",
            f"The Conv2D op on the CPU supports data_format 'NHWC' only, got {data_format!r}",
        )
    shape = tuple(int(d) for d in np.asarray(read(output_shape)._value).reshape(-1))
    if len(shape) != 4 or shape[3] != f._value.shape[2] or x._value.shape[3] != f._value.shape[3]:
        raise invalid(
            "Conv2DBackpropInput",
            f"Conv2DSlowBackpropInput: input and filter must have the same depth and the "
            f"output shape {list(shape)} must be 4-D with filter's out channels",
        )

    def pair(v, default):
        v = default if v is None else v
        v = [v] if isinstance(v, int) else list(v)
        return (v[0], v[0]) if len(v) == 1 else (v[1], v[2]) if len(v) == 4 else tuple(v)

    return apply(
        Conv2DBackpropInput,
        x,
        f,
        input_shape=shape,
        strides=pair(strides, 1),
        dilations=pair(dilations, 1),
        padding=padding,
    )


# --- max_pool2d / avg_pool2d ----------------------------------------------------------------
def _pool_windows(x, ksize, strides, padding, fill):
    """The windows of `x` padded with `fill`, (N, out_h, out_w, C, kh, kw), and the padding
    before each spatial axis."""
    (kh, kw), (sh, sw) = ksize, strides
    oh, top, bottom = _pads(x.shape[1], kh, sh, 1, padding)
    ow, left, right = _pads(x.shape[2], kw, sw, 1, padding)
    if top or bottom or left or right:
        x = np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)), constant_values=fill)
    win = sliding_window_view(x, (kh, kw), axis=(1, 2))[:, ::sh, ::sw][:, :oh, :ow]
    return win, (top, left), x.shape


def _argmax_positions(x, ksize, strides, padding):
    """For each output of max pooling: the flat index, in the padded input, of the first
    maximum of its window in row-major order (where TF's MaxPoolGrad sends the gradient)."""
    (kh, kw), (sh, sw) = ksize, strides
    win, pads, padded = _pool_windows(x, ksize, strides, padding, -np.inf)
    n, oh, ow, c = win.shape[:4]
    first = win.reshape(n, oh, ow, c, kh * kw).argmax(-1)
    rows = np.arange(oh)[None, :, None, None] * sh + first // kw
    cols = np.arange(ow)[None, None, :, None] * sw + first % kw
    batch = np.arange(n)[:, None, None, None]
    chan = np.arange(c)[None, None, None, :]
    return np.ravel_multi_index((batch, rows, cols, chan), padded), pads, padded


def _max_pool_grad(x, y, g, ksize, strides, padding):
    flat, (top, left), padded = _argmax_positions(x, ksize, strides, padding)
    out = np.bincount(flat.ravel(), g.ravel(), np.prod(padded)).astype(g.dtype)
    h, w = x.shape[1:3]
    return out.reshape(padded)[:, top : top + h, left : left + w]


def _max_pool_grad_grad(x, y, gg, ksize, strides, padding):
    flat, (top, left), padded = _argmax_positions(x, ksize, strides, padding)
    full = np.zeros(padded, gg.dtype)
    full[:, top : top + x.shape[1], left : left + x.shape[2]] = gg
    return full.ravel()[flat]


def _avg_pool(x, ksize, strides, padding):
    win, _, _ = _pool_windows(x, ksize, strides, padding, 0)
    ones = np.ones((1,) + x.shape[1:3] + (1,), x.dtype)
    counts, _, _ = _pool_windows(ones, ksize, strides, padding, 0)
    return (win.sum((4, 5)) / counts.sum((4, 5))).astype(x.dtype)


def _avg_pool_grad(g, input_shape, ksize, strides, padding):
    (kh, kw), (sh, sw) = ksize, strides
    ones = np.ones((1,) + tuple(input_shape[1:3]) + (1,), g.dtype)
    counts, (top, left), padded = _pool_windows(ones, ksize, strides, padding, 0)
    share = g / counts.sum((4, 5))
    out = np.zeros((input_shape[0],) + padded[1:3] + (input_shape[3],), g.dtype)
    oh, ow = g.shape[1:3]
    for i in range(kh):
        for j in range(kw):
            out[:, i : i + sh * (oh - 1) + 1 : sh, j : j + sw * (ow - 1) + 1 : sw] += share
    return out[:, top : top + input_shape[1], left : left + input_shape[2]]


MaxPool = _op(
    "MaxPool",
    lambda x, ksize, strides, padding: _pool_windows(x, ksize, strides, padding, -np.inf)[0].max(
        (4, 5)
    ),
)
MaxPoolGrad = _op("MaxPoolGrad", _max_pool_grad)
MaxPoolGradGrad = _op("MaxPoolGradGrad", _max_pool_grad_grad)
AvgPool = _op("AvgPool", _avg_pool)
AvgPoolGrad = _op("AvgPoolGrad", _avg_pool_grad)


def _pool_pair(value, name, op_name):
    """ksize or strides as TF takes them: an int, or a list of 1, 2 or 4 (N, H, W, C) ints."""
    v = [value] if isinstance(value, int) else [int(d) for d in value]
    if len(v) == 1:
        return (v[0], v[0])
    if len(v) == 2:
        return tuple(v)
    if len(v) == 4:
        if v[0] != 1 or v[3] != 1:
            raise invalid(
                op_name, "Pooling is not yet supported on the batch nor channel dimension."
            )
        return (v[1], v[2])
    raise ValueError(
        f"`{name}` should be of length 1, 2 or 4. Received: {name}={value} of length {len(v)}"
    )


def _pool(op, op_name, input, ksize, strides, padding, data_format):  # noqa: A002
    x = read(input)
    if data_format not in ("NHWC", None):
        raise invalid(op_name, f"Default {op_name}Op only supports NHWC on device type CPU")
    if len(x._value.shape) != 4:
        raise invalid(op_name, f"input must be 4-dimensional{list(x._value.shape)}")
    if padding not in ("VALID", "SAME"):
        raise ValueError(f"`padding` must be 'VALID' or 'SAME'; got {padding!r}")
    k = _pool_pair(ksize, "ksize", op_name)
    s = _pool_pair(strides, "strides", op_name)
    return apply(op, x, ksize=k, strides=s, padding=padding)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The maximum of each `ksize` window of an NHWC input, every `strides` positions ("SAME"
    pads with -inf). Its gradient goes to the first maximum of each window, as TF's."""
    return _pool(MaxPool, "MaxPool", input, ksize, strides, padding, data_format)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The mean of each `ksize` window of an NHWC input ("SAME": of the positions inside the
    input, the padding not counted, as TF's)."""
    return _pool(AvgPool, "AvgPool", input, ksize, strides, padding, data_format)


# --- embedding_lookup (TF's embedding_ops) ----------------------------------------------
def embedding_lookup(params, ids, max_norm=None, name=None):
    """Rows of the embedding table `params` at `ids` (a gather along axis 0). A list of
    tables is one table cut in consecutive pieces (TF 2's "div" strategy: the first table
    holds the first ids). With `max_norm`, each row found is scaled down to that L2 norm if
    it is longer. Only a Python list is read as pieces: anything else, a tuple included, is one
    table (as TF reads it)."""
    if isinstance(params, list):
        tables = [read(t) for t in params]
        table = tables[0] if len(tables) == 1 else o.concat(tables, axis=0)
    else:
        table = read(params)
    rows = o.gather(table, ids)
    if max_norm is None:
        return rows
    axes = list(range(read(ids)._value.ndim, rows._value.ndim))
    return clip_by_norm(rows, max_norm, axes=axes)
