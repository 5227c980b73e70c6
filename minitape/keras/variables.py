"""Keras 3's variables: what a layer's `kernel` and `bias` are.

A Keras 3 variable is not a `tf.Variable`: it *holds* one (its `.value`) and passes every use
on to it. An op reads the `tf.Variable` underneath, so a tape watches a layer's weights as it
watches any trainable variable it sees read, and `tape.watched_variables()` lists the
`tf.Variable`s, named after the Keras path (`'dense/kernel:0'`). What differs, as in Keras 3:

* `isinstance(layer.kernel, tf.Variable)` is False; `name` is the short name (`'kernel'`),
  `path` the layers it was made in (`'dense/kernel'`);
* `tape.watch(layer.kernel)` is refused (TF's `ValueError`: not a tf.Tensor or tf.Variable);
  `tape.watch(layer.kernel.value)` works, and it is rarely needed: reading is watching;
* it is unhashable and has no `ref()` (use `id()` or the `tf.Variable`'s `ref()`);
* `v * x` (and `+`, `-`, `/`, `<`, ...) is Keras' op: both operands are first promoted to one
  dtype, so a float variable times an int tensor is float (`x * v` is the tensor's operator);
* inside the call of a layer whose policy is mixed ('mixed_float16'), reading a floating
  variable reads it cast to the layer's compute dtype (float16): Keras' *autocasting*, see
  `autocast_scope`. The cast is an op like any other, so the tape carries the gradient back
  through it to the float32 variable, and that gradient is float32.
"""

import contextlib

import numpy as np

from .. import dtypes
from ..ops import (
    add,
    cast,
    divide,
    floordiv,
    floormod,
    greater,
    greater_equal,
    less,
    less_equal,
    matmul,
    multiply,
    pow,
    subtract,
)
from ..tensor import TensorShape, _TensorLike, convert_to_tensor, is_tensor
from ..tensor import Variable as _TFVariable

__all__ = ["Variable", "autocast_scope"]

_AUTOCAST = [None]  # the dtype floating variables are read in, innermost scope last


@contextlib.contextmanager
def autocast_scope(dtype):
    """Read the floating variables made with `autocast=True` as `dtype` in this block (None:
    as they are). Layer.__call__ opens one around `call` (Keras 3's AutocastScope)."""
    _AUTOCAST.append(dtype)
    try:
        yield
    finally:
        _AUTOCAST.pop()


class Variable(_TensorLike):
    """A Keras 3 variable: `name`, `path`, `trainable`, `value` (the tf.Variable it holds),
    `numpy()`, `assign`, `assign_add`, `assign_sub`; the operators as a tensor's."""

    __slots__ = (
        "_variable",
        "_short_name",
        "_path",
        "_constraint",
        "_regularizer",
        "_overwrite_with_gradient",
        "_autocast",
    )
    __hash__ = None  # (as Keras 3's: unhashable)

    def __init__(
        self,
        initializer,
        shape=None,
        dtype=None,
        trainable=True,
        autocast=True,
        name=None,
        path=None,
    ):
        value = initializer(shape, dtype) if callable(initializer) else initializer
        self._short_name = name or "variable"
        self._path = path or self._short_name
        self._variable = _TFVariable(value, trainable=trainable, name=self._path, dtype=dtype)
        self._constraint = self._regularizer = None
        self._overwrite_with_gradient = False
        self._autocast = autocast

    # the tf.Variable underneath: every op and tape sees that one
    @property
    def _tf_variable(self):
        return self._variable

    def _read(self):
        value = self._variable._read()
        dtype = _AUTOCAST[-1]
        if dtype is not None and self._autocast and value.dtype.is_floating:
            return cast(value, dtype)
        return value

    def _read_value(self):
        return self._variable._read_value()

    @property
    def value(self):
        """The tf.Variable this variable holds (Keras 3's TensorFlow backend); inside an
        autocast scope, its value cast to the scope's dtype."""
        if _AUTOCAST[-1] is not None and self._autocast and self._variable.dtype.is_floating:
            return self._read()
        return self._variable

    @property
    def name(self):
        return self._short_name

    @property
    def path(self):
        return self._path

    @property
    def trainable(self):
        return self._variable.trainable

    @property
    def dtype(self):
        return self._variable.dtype.name  # (Keras 3 gives dtypes as strings: 'float32')

    @property
    def shape(self):
        return TensorShape(self._read_value().shape)

    @property
    def ndim(self):
        return len(self.shape)

    # Keras 3's other attributes, with its defaults and checks (minitape never distributes a
    # variable, and applies no constraint or regularizer by itself)
    aggregation = property(lambda self: "none", doc="How a distributed update adds up.")
    synchronization = property(lambda self: "auto", doc="When a distributed copy syncs.")

    @property
    def constraint(self):
        return self._constraint

    @constraint.setter
    def constraint(self, value):
        self._constraint = _callable_or_none("constraint", "keras.constraints.Constraint", value)

    @property
    def regularizer(self):
        return self._regularizer

    @regularizer.setter
    def regularizer(self, value):
        self._regularizer = _callable_or_none(
            "regularizer", "keras.regularizers.Regularizer", value
        )

    @property
    def overwrite_with_gradient(self):
        return self._overwrite_with_gradient

    @overwrite_with_gradient.setter
    def overwrite_with_gradient(self, value):
        if not isinstance(value, bool):
            raise TypeError(f"`overwrite_with_gradient` must be a boolean. Received: {value}")
        self._overwrite_with_gradient = value

    def numpy(self):
        return self._variable.numpy()

    # Keras 3 assigns as Keras computes: a value of another dtype is cast to the variable's,
    # `assign_add(x)` is `assign(self + x)` (so x broadcasts, and the sum is taken in the
    # dtype Keras promotes the two to), and `assign` returns the value it assigned
    def assign(self, value):
        value = _as_keras_tensor(value, self._variable.dtype)
        if tuple(value.shape) != tuple(self.shape):
            raise ValueError(
                "The shape of the target variable and the shape of the target value in "
                f"`variable.assign(value)` must match. variable.shape={self.shape}, "
                f"Received: value.shape={value.shape}. Target variable: {self}"
            )
        self._variable.assign(value)
        return value

    def assign_add(self, value):
        return self.assign(_promoted(add, self._variable, value))

    def assign_sub(self, value):
        return self.assign(_promoted(subtract, self._variable, value))

    @property
    def ref(self):
        raise AttributeError("'Variable' object has no attribute 'ref'")

    def __len__(self):
        raise TypeError("object of type 'Variable' has no len()")

    def __repr__(self):
        value = self.numpy()  # (a float scalar as the Python float it holds, as Keras 3 shows it)
        value = str(value.item() if value.ndim == 0 and value.dtype.kind == "f" else value)
        return (
            f"<Variable path={self._path}, shape={tuple(self.shape)}, dtype={self.dtype}, "
            f"value={value}>"
        )

    __str__ = __repr__


# -- the operators, as Keras 3's: `v * x` is keras.ops.multiply(v, x), both operands first
# promoted to one dtype (`_result_dtype`). The reflected ones (`x * v`) are the tensor's, as
# TF tries the tensor's operator first.
def _promoted(op, a, b, at_least_float=False):
    """`op(a, b)` with both cast to the dtype Keras promotes them to."""
    a, b = _operand(a), _operand(b)
    dtype = _result_dtype(a, b, at_least_float)
    return op(_as_keras_tensor(a, dtype), _as_keras_tensor(b, dtype))


def _operand(x):
    """A Python number stays one (Keras types it weakly); anything else becomes a tensor of
    its own dtype (a numpy float64 array stays float64)."""
    if isinstance(x, (bool, int, float, complex)) or is_tensor(x):
        return x
    return convert_to_tensor(x)


def _result_dtype(a, b, at_least_float=False):
    """Keras 3's result_type for two operands: a Python number takes the other's dtype (a
    float number with an integer tensor: float32); a float wins over an integer or a bool;
    two floats, or two integers, give the wider (numpy's rule)."""
    strong = [x.dtype for x in (a, b) if not isinstance(x, (bool, int, float, complex))]
    weak = [type(x) for x in (a, b) if isinstance(x, (bool, int, float, complex))]
    if len(strong) == 2 and strong[0] != strong[1]:
        x, y = (np.dtype(d.as_numpy_dtype) for d in strong)
        if x.kind in "biu" and y.kind in "fc":
            dtype = dtypes.as_dtype(y)
        elif y.kind in "biu" and x.kind in "fc":
            dtype = dtypes.as_dtype(x)
        else:
            dtype = dtypes.as_dtype(np.promote_types(x, y))
    else:  # (one operand is always the variable: there is a strong dtype)
        dtype = strong[0]
        kind = np.dtype(dtype.as_numpy_dtype).kind
        if (float in weak and kind in "biu") or (int in weak and kind == "b"):
            dtype = dtypes.float32 if float in weak else dtypes.int32
    if at_least_float and not (dtype.is_floating or dtype.is_complex):
        return dtypes.float32
    return dtype


def _operator(op, at_least_float=False):
    def operator(self, other):
        return _promoted(op, self._read(), other, at_least_float)  # (read: autocast)

    operator.__name__ = op.__name__
    return operator


for _name, _op, _floats in (
    ("__add__", add, False),
    ("__sub__", subtract, False),
    ("__mul__", multiply, False),
    ("__truediv__", divide, True),
    ("__floordiv__", floordiv, False),
    ("__mod__", floormod, False),
    ("__pow__", pow, False),
    ("__matmul__", matmul, False),
    ("__lt__", less, False),
    ("__le__", less_equal, False),
    ("__gt__", greater, False),
    ("__ge__", greater_equal, False),
):
    setattr(Variable, _name, _operator(_op, _floats))


def _callable_or_none(attribute, example, value):
    if value is not None and not callable(value):
        raise ValueError(
            f"Invalid value for attribute `{attribute}`. Expected a callable (such as a "
            f"`{example}` instance) or `None`. Received: {attribute}={value}"
        )
    return value


def _as_keras_tensor(value, dtype):
    """Keras' convert_to_tensor: a tensor of another dtype is cast, anything else converted."""
    if is_tensor(value) and value.dtype != dtype:
        return cast(value, dtype)
    return convert_to_tensor(value, dtype=dtype)
