"""`tf.keras.config`: Keras 3's global settings that minitape has: the dtype policy of layers
made without a `dtype` (`set_dtype_policy("mixed_float16")`, dtype_policies.py), and `floatx`,
the default float dtype, which is float32."""

from .dtype_policies import global_policy as dtype_policy
from .dtype_policies import set_global_policy as set_dtype_policy

__all__ = ["dtype_policy", "set_dtype_policy", "floatx"]


def floatx():
    """The default float dtype, as a string: 'float32'."""
    return "float32"
