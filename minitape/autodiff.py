"""`tf.autodiff`: forward mode (`ForwardAccumulator`, in `forwardprop.py`)."""

from .forwardprop import ForwardAccumulator  # noqa: F401
from .tape import GradientTape  # noqa: F401

__all__ = ["ForwardAccumulator", "GradientTape"]
