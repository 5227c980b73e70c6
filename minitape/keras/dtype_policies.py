"""How Keras 3 reads the `dtype=` of a layer or a loss: as a dtype policy, named by a string
('float32', 'float64', ...) or given as a dtype or a `DTypePolicy`; anything else is Keras'
ValueError. A layer made without a dtype takes the global policy
(`tf.keras.mixed_precision.set_global_policy`, 'float32' at first).

minitape has no mixed precision: a policy such as 'mixed_float16' (float16 computations on
float32 variables) is refused where it would be used, rather than computed in one dtype."""

from .. import dtypes

__all__ = [
    "DTypePolicy",
    "Policy",
    "global_policy",
    "set_global_policy",
    "layer_dtype",
    "policy_dtype",
]

_MIXED = ("mixed_float16", "mixed_bfloat16")


class DTypePolicy:
    """A layer's dtypes: `compute_dtype` (its computations and outputs) and `variable_dtype`
    (its weights), both the policy's own dtype in minitape."""

    def __init__(self, name=None):
        if name is None:
            name = global_policy().name
        if isinstance(name, DTypePolicy):
            name = name.name
        self._dtype = None if _is_mixed(name) else policy_dtype(name)
        self._name = name if isinstance(name, str) else self._dtype.name

    name = property(lambda self: self._name)
    compute_dtype = property(lambda self: self._dtype_name())
    variable_dtype = property(lambda self: self._dtype_name())

    def _dtype_name(self):
        return self.dtype.name

    @property
    def dtype(self):
        if self._dtype is None:
            raise NotImplementedError(
                f"minitape's Keras has no mixed precision: the policy {self._name!r} computes in "
                "float16 or bfloat16 on float32 variables, which minitape does not. Use "
                "'float32' (or 'float64')."
            )
        return self._dtype

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'

    def __eq__(self, other):
        return isinstance(other, DTypePolicy) and other._name == self._name

    def __hash__(self):
        return hash(self._name)


Policy = DTypePolicy  # (Keras' other name for it)


def _is_mixed(name):
    return isinstance(name, str) and name in _MIXED


_GLOBAL = []  # the global policy once set (none: 'float32')


def global_policy():
    """The policy of the layers made without a `dtype`."""
    return _GLOBAL[0] if _GLOBAL else DTypePolicy("float32")


def set_global_policy(policy):
    """Make `policy` (a name or a DTypePolicy) the one of layers made from now on without a
    `dtype`. A mixed policy is refused: minitape computes in one dtype."""
    if isinstance(policy, str):
        policy = DTypePolicy(policy)
    elif not isinstance(policy, DTypePolicy):
        raise ValueError(
            "Invalid `policy` argument. Expected the string name of a policy (such as "
            f"'mixed_float16') or a `DTypePolicy` instance. Received: policy={policy} (of "
            f"type {type(policy)})"
        )
    layer_dtype(policy)  # (a mixed policy: minitape's NotImplementedError, before it is used)
    _GLOBAL[:] = [policy]


def layer_dtype(dtype):
    """The `DType` a layer computes in and keeps its weights in, for its `dtype=` argument
    (None: the global policy's)."""
    if dtype is None:
        return global_policy().dtype
    if isinstance(dtype, DTypePolicy):
        return dtype.dtype
    if _is_mixed(dtype):
        return DTypePolicy(dtype).dtype  # (refused, saying why)
    return policy_dtype(dtype)


def policy_dtype(dtype):
    """The `DType` a loss computes in, for its `dtype=` argument (None: float32)."""
    if dtype is None:
        return dtypes.float32
    if isinstance(dtype, DTypePolicy):
        return dtype.dtype
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
