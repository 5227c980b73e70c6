"""`tf.nn`: activations, softmax, the cross-entropies, `conv2d`, `embedding_lookup`, `l2_loss`."""

from .nn_impl import l2_loss, sigmoid_cross_entropy_with_logits  # noqa: F401
from .nn_ops import (  # noqa: F401
    conv2d,
    embedding_lookup,
    gelu,
    leaky_relu,
    log_softmax,
    relu6,
    selu,
    silu,
    softmax,
    softmax_cross_entropy_with_logits,
    softsign,
    sparse_softmax_cross_entropy_with_logits,
    swish,
)
from .ops import elu, relu, sigmoid, softplus, tanh  # noqa: F401
