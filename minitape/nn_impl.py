"""`tf.nn` functions built from other ops: `l2_loss`, `sigmoid_cross_entropy_with_logits`,
`bias_add` and `moments`.

Both are written with minitape's own ops, in the same order as TensorFlow writes them, so the
values and the gradients (even at awkward points such as a logit of exactly 0) are TF's.
"""

from . import ops as o
from .errors import invalid
from .tensor import Tensor, Variable, convert_to_tensor, operand, read

__all__ = [
    "l2_loss",
    "sigmoid_cross_entropy_with_logits",
    "bias_add",
    "moments",
    "compute_average_loss",
]


def l2_loss(t, name=None):
    """Half the squared L2 norm, `sum(t ** 2) / 2` (the gradient is simply `t`).

    The usual weight penalty: `loss + 1e-4 * sum(tf.nn.l2_loss(w) for w in weights)`."""
    t = convert_to_tensor(t)
    if not t.dtype.is_floating:
        raise invalid(
            "L2Loss",
            f"Value for attr 'T' of {t.dtype.name} is not in the list of "
            "allowed values: half, bfloat16, float, double",
        )
    return o.reduce_sum(o.square(t)) / 2


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Binary cross-entropy of `sigmoid(logits)` against `labels`, computed stably.

    `-z*log(sigmoid(x)) - (1-z)*log(1-sigmoid(x))` simplifies to
    `max(x, 0) - x*z + log(1 + exp(-|x|))`, which never takes the log of 0 or overflows exp.
    """
    if labels is None or logits is None:
        raise ValueError("Both labels= and logits= must be provided.")
    logits = convert_to_tensor(logits)
    if not isinstance(labels, (Tensor, Variable)):  # (TF converts each on its own and
        # checks the shapes before the dtypes)
        labels = convert_to_tensor(labels)
    if labels.shape != logits.shape:
        raise ValueError(
            f"`logits` and `labels` must have the same shape, received ({logits.shape} vs "
            f"{labels.shape})."
        )
    labels = operand(labels, logits, "SigmoidCrossEntropyWithLogits")
    zeros = o.zeros_like(logits)
    cond = logits >= zeros
    relu_logits = o.where(cond, logits, zeros)  # max(x, 0)
    neg_abs_logits = o.where(cond, -logits, logits)  # -|x|
    return relu_logits - logits * labels + o.log1p(o.exp(neg_abs_logits))


def bias_add(value, bias, data_format=None, name=None):
    """`value + bias`, the 1-D `bias` added along the channel axis: the last one, or the
    second with `data_format` "NC..." (checked as TF's BiasAdd checks them; its gradient for
    `bias` is g summed over every other axis, as the broadcast add gives it)."""
    # (the two share one dtype: a tensor's, Python data converted to it, as TF's op does)
    if isinstance(bias, (Tensor, Variable)) and not isinstance(value, (Tensor, Variable)):
        bias = read(bias)
        value = operand(value, bias, "BiasAdd")
    else:
        value = read(value)
    bias = operand(bias, value, "BiasAdd")
    vshape, bshape = value._value.shape, bias._value.shape
    dims = lambda shape: "[" + ",".join(map(str, shape)) + "]"  # noqa: E731
    if len(vshape) < 2:
        raise invalid("BiasAdd", f"Input tensor must be at least 2D: {dims(vshape)}")
    if len(bshape) != 1:
        raise invalid("BiasAdd", f"Biases must be 1D: {dims(bshape)}")
    channels_first = isinstance(data_format, str) and data_format.startswith("NC")
    axis = 1 if channels_first else len(vshape) - 1
    if bshape[0] != vshape[axis]:
        raise invalid(
            "BiasAdd",
            "Must provide as many biases as the last dimension of the input tensor: "
            f"{dims(bshape)} vs. {dims(vshape)}",
        )
    if channels_first:
        bias = o.reshape(bias, [-1] + [1] * (len(vshape) - 2))
    if value.dtype.name == "float16":
        # TF's BiasAddGrad adds a float16 gradient up in float32, rounding once at the end.
        # Adding in float32 and casting back gives that gradient, and the same sum (a float16
        # add rounds its exact result once too).
        return o.cast(o.add(o.cast(value, "float32"), o.cast(bias, "float32")), "float16")
    return o.add(value, bias)


def moments(x, axes, shift=None, keepdims=False, name=None):
    """(mean, variance) of `x` over `axes`, as TF computes them: the variance is the mean of
    the squared differences from the mean, with the mean's own gradient stopped there (so a
    gradient through the variance does not flow back through the mean)."""
    if not isinstance(x, (Tensor, Variable)):  # (TF reads x.dtype first, unconverted)
        raise AttributeError(f"'{type(x).__name__}' object has no attribute 'dtype'")
    x = read(x)
    y = o.cast(x, "float32") if x.dtype.name == "float16" else x
    mean = o.reduce_mean(y, axes, keepdims=True)
    variance = o.reduce_mean(o.square(y - o.stop_gradient(mean)), axes, keepdims=True)
    if not keepdims:
        mean, variance = o.squeeze(mean, axes), o.squeeze(variance, axes)
    if x.dtype.name == "float16":
        return o.cast(mean, "float16"), o.cast(variance, "float16")
    return mean, variance


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """sum(per_example_loss * sample_weight) / global_batch_size: the loss of a batch that
    adds up to the mean over the global batch (one replica here, so the batch's own size by
    default)."""
    loss = convert_to_tensor(per_example_loss)
    dtype = loss.dtype
    if len(loss.shape) == 0:
        raise ValueError(
            "Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1."
        )
    if sample_weight is not None:
        loss = loss * o.cast(sample_weight, dtype)
    if global_batch_size is None:
        global_batch_size = loss.shape[0]
    size = convert_to_tensor(global_batch_size)
    if len(size.shape) != 0:
        raise invalid("AssertRank", "global_batch_size must be scalar.")
    if not size.dtype.is_integer:
        raise TypeError(f"global_batch_size must be an integer. Received dtype: {size.dtype}")
    if int(size) <= 0:
        raise invalid("assert_positive", "global_batch_size must be positive.")
    return o.reduce_sum(loss) / o.cast(size, dtype)
