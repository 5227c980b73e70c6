"""`tf.nn`: activations."""
from .ops import elu, relu, sigmoid, softplus, tanh  # noqa: F401
