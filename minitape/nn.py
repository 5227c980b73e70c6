"""`tf.nn`: activations, `l2_loss`, `sigmoid_cross_entropy_with_logits`."""
from .ops import elu, relu, sigmoid, softplus, tanh  # noqa: F401
from .nn_impl import l2_loss, sigmoid_cross_entropy_with_logits  # noqa: F401
