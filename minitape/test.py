"""`tf.test`: `compute_gradient` (TF's Jacobian checker, in `testing.py`)."""

from .testing import compute_gradient  # noqa: F401

__all__ = ["compute_gradient"]
