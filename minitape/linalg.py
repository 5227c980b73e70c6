"""`tf.linalg`: matrix products and norms."""

from .array_ops import einsum  # noqa: F401
from .clip_ops import global_norm  # noqa: F401
from .ops import eye, matmul, norm, transpose  # noqa: F401
