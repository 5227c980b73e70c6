"""How Keras 3 reads the `dtype=` of a layer or a loss: as a dtype policy, named by a string
('float32', 'float64', 'mixed_float16', ...) or given as a dtype or a `DTypePolicy`; anything
else is Keras' ValueError. A layer made without a dtype takes the global policy
(`tf.keras.mixed_precision.set_global_policy`, 'float32' at first).

A policy has two dtypes: `compute_dtype`, what a layer computes in and outputs, and
`variable_dtype`, what it keeps its weights in. They are one dtype but for 'mixed_float16'
(float16 computations on float32 weights, base_layer.py says how a layer does it).
'mixed_bfloat16' can be named, but no layer can use it: minitape has no bfloat16."""

from .. import dtypes

__all__ = [
    "DTypePolicy",
    "Policy",
    "global_policy",
    "set_global_policy",
    "policy_of",
    "policy_dtype",
]

_MIXED = {"mixed_float16": ("float16", "float32"), "mixed_bfloat16": ("bfloat16", "float32")}


class DTypePolicy:
    """A layer's dtypes: `compute_dtype` (its computations and outputs) and `variable_dtype`
    (its weights), as strings."""

    def __init__(self, name=None):
        if name is None:
            name = global_policy().name
        if not isinstance(name, str):
            raise TypeError(
                "'name' must be a string, such as 'mixed_float16'. "
                f"Received: name={name} (of type {type(name)})"
            )
        if name in _MIXED:
            self._compute, self._variable = _MIXED[name]
        else:
            self._compute = self._variable = policy_dtype(name).name
        self._name = name

    name = property(lambda self: self._name)
    compute_dtype = property(lambda self: self._compute)
    variable_dtype = property(lambda self: self._variable)

    def _usable(self):
        """This policy, if minitape can compute with it (not bfloat16)."""
        if self._compute == "bfloat16":
            raise NotImplementedError(
                f"minitape has no bfloat16, so no layer can use the policy {self._name!r}: "
                "use 'mixed_float16' (or 'float32')."
            )
        return self

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
    `dtype`."""
    if isinstance(policy, str):
        policy = DTypePolicy(policy)
    elif not isinstance(policy, DTypePolicy):
        raise ValueError(
            "Invalid `policy` argument. Expected the string name of a policy (such as "
            f"'mixed_float16') or a `DTypePolicy` instance. Received: policy={policy} (of "
            f"type {type(policy)})"
        )
    _GLOBAL[:] = [policy._usable()]


def policy_of(dtype):
    """The DTypePolicy of a layer given `dtype=dtype` (None: the global policy)."""
    if dtype is None:
        return global_policy()
    if isinstance(dtype, DTypePolicy):
        return dtype._usable()
    if isinstance(dtype, str) and dtype in _MIXED:
        return DTypePolicy(dtype)._usable()
    return DTypePolicy(policy_dtype(dtype).name)


def policy_dtype(dtype):
    """The `DType` a loss computes in, for its `dtype=` argument (None: float32)."""
    if dtype is None:
        return dtypes.float32
    if isinstance(dtype, DTypePolicy):
        return dtypes.as_dtype(dtype._usable().compute_dtype)
    if isinstance(dtype, str) and dtype in _MIXED:
        return dtypes.as_dtype(DTypePolicy(dtype)._usable().compute_dtype)
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
