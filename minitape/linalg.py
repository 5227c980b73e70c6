"""`tf.linalg`: matrix products and norms."""
from .ops import eye, matmul, norm, transpose  # noqa: F401
