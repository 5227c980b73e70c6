"""How Keras 3 reads the `dtype=` of a layer or a loss: as a dtype policy, named by a string
('float32', 'float64', ...) or given as a dtype; anything else is Keras' ValueError."""

from .. import dtypes


def policy_dtype(dtype):
    """The `DType` a layer or loss computes in, for its `dtype=` argument."""
    if dtype is None:
        return dtypes.float32
    if isinstance(dtype, str):
        try:
            return dtypes.as_dtype(dtype)
        except TypeError:
            raise ValueError(
                f"Cannot convert '{dtype}' to a mixed precision DTypePolicy. Valid policies "
                "include 'mixed_float16', 'mixed_bfloat16', and the name of any float dtype "
                "such as 'float32'."
            ) from None
    try:
        if isinstance(dtype, (int, float, complex)):  # (a number is no dtype for Keras)
            raise TypeError
        return dtypes.as_dtype(dtype)
    except TypeError:
        raise ValueError(
            "Cannot interpret `dtype` argument. Expected a string or an instance of "
            f"DTypePolicy. Received: dtype={dtype}"
        ) from None
