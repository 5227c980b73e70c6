"""`tf.nn`: activations, softmax, the cross-entropies, `conv2d`, `embedding_lookup`, `l2_loss`,
`bias_add`, `moments`."""

from .nn_impl import (  # noqa: F401
    bias_add,
    compute_average_loss,
    l2_loss,
    moments,
    sigmoid_cross_entropy_with_logits,
)
from .nn_ops import (  # noqa: F401
    avg_pool2d,
    conv2d,
    conv2d_transpose,
    depthwise_conv2d,
    embedding_lookup,
    gelu,
    leaky_relu,
    log_softmax,
    max_pool2d,
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
