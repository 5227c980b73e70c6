"""Two `tf.nn` functions built from other ops: `l2_loss` and `sigmoid_cross_entropy_with_logits`.

Both are written with minitape's own ops, in the same order as TensorFlow writes them, so the
values and the gradients (even at awkward points such as a logit of exactly 0) are TF's.
"""

from . import ops as o
from .errors import invalid
from .tensor import Tensor, Variable, convert_to_tensor, operand

__all__ = ["l2_loss", "sigmoid_cross_entropy_with_logits"]


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
