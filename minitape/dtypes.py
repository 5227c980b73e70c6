"""Data types, named and behaving as TensorFlow's (`tf.float32`, `tf.int32`, ...).

A `DType` is a thin label around a numpy dtype. TF's conversion rules are the ones a
learner trips over, so they live here in one place:

* a Python float becomes float32, a Python int int32, a Python bool bool;
* a numpy array keeps its own dtype (so `np.linspace` data is float64);
* in a binary op, a Python number, list or numpy array takes the *tensor's* dtype.
"""

import builtins
import warnings

import numpy as np

__all__ = [
    "DType",
    "as_dtype",
    "float16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "bool",
    "string",
]


class DType:
    """A TF-style dtype: `tf.float32.name == 'float32'`, comparable with numpy dtypes."""

    __slots__ = ("name", "as_numpy_dtype", "_np")

    def __init__(self, np_dtype, name=None):
        self._np = np.dtype(np_dtype)
        self.as_numpy_dtype = self._np.type
        self.name = name or self._np.name

    is_floating = property(lambda self: self._np.kind == "f")
    is_integer = property(lambda self: self._np.kind in "iu")
    is_bool = property(lambda self: self._np.kind == "b")
    is_complex = property(lambda self: self._np.kind == "c")
    base_dtype = property(lambda self: self)
    size = property(lambda self: self._np.itemsize)
    min = property(
        lambda self: np.finfo(self._np).min if self.is_floating else np.iinfo(self._np).min
    )
    max = property(
        lambda self: np.finfo(self._np).max if self.is_floating else np.iinfo(self._np).max
    )

    def __repr__(self):
        return f"tf.{self.name}"

    def __str__(self):  # (as TF's: print(x.dtype) shows <dtype: 'float32'>)
        return f"<dtype: '{self.name}'>"

    def __int__(self):  # TF's DataType enum value (as_dtype(1) is float32)
        return _ENUM[self.name]

    def __eq__(self, other):
        if isinstance(other, DType):
            return self._np == other._np
        try:
            return self._np == np.dtype(other)
        except TypeError:
            return False

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._np)

    def __reduce__(self):
        return as_dtype, (self.name,)


_BY_NP = {}


def _register(np_dtype, name=None):
    d = DType(np_dtype, name)
    _BY_NP[d._np] = d
    return d


float16 = half = _register(np.float16)
float32 = _register(np.float32)
float64 = double = _register(np.float64)
int8 = _register(np.int8)
int16 = _register(np.int16)
int32 = _register(np.int32)
int64 = _register(np.int64)
uint8 = _register(np.uint8)
bool = _register(np.bool_)  # noqa: A001  (TF's name)
string = _register(np.object_, "string")  # held as an object array of bytes, as TF's .numpy()

# Names TF accepts besides the dtypes' own, and the Python types it maps (float is float32
# there; int and str are refused: TF does not guess a width or an encoding).
_ALIASES = {
    "float": float32,
    "double": float64,
    "half": float16,
    "string": string,
    float: float32,
    builtins.bool: bool,
}


# TF's DataType enum: as_dtype(3) is int32, as in TF.
_ENUM = {
    "float32": 1,
    "float64": 2,
    "int32": 3,
    "uint8": 4,
    "int16": 5,
    "int8": 6,
    "string": 7,
    "complex64": 8,
    "int64": 9,
    "bool": 10,
    "uint16": 17,
    "complex128": 18,
    "float16": 19,
    "uint32": 22,
    "uint64": 23,
}


def as_dtype(value):
    """Turn `tf.float32`, `np.float32`, `'float32'`, `float` or a numpy dtype into a `DType`."""
    if isinstance(value, DType):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, (builtins.bool, np.bool_)):
        name = next((n for n, e in _ENUM.items() if e == value), None)
        if name is None:
            raise TypeError(
                f"Cannot convert the argument `type_value`: {value!r} to a TensorFlow DType."
            )
        return as_dtype(name)
    try:
        known = _ALIASES.get(value)
    except TypeError:  # (unhashable)
        known = None
    if known is not None:
        return known
    try:
        if (
            value is None
            or isinstance(value, (list, tuple, dict))  # (numpy reads them as record dtypes)
            or value is int
            or value is str
            or value is bytes
            or value is complex
            or isinstance(value, (float, np.number, np.bool_))  # (see _read_as_tf_does)
            or isinstance(value, str)
            and _numpy_name(value) != value
        ):
            raise TypeError
        npd = np.dtype(value)
    except (TypeError, ValueError):  # (numpy's ValueError: a tensor, say, is no dtype)
        found = _read_as_tf_does(value)
        if found is None:
            raise TypeError(
                f"Cannot convert the argument `type_value`: {value!r} to a TensorFlow DType."
            ) from None
        return found
    if npd.kind in "USO":
        return string
    try:
        return _BY_NP[npd]
    except KeyError:
        return _register(npd)


def _read_as_tf_does(value):
    """What TF's as_dtype makes of a value that is no dtype and no dtype's name, or None. TF
    looks the value up in a table keyed by the DataType enum values, so anything equal to
    one is that dtype (True and 1.0 are 1: float32; 2.0 is float64); then it takes the
    numpy `.dtype` of anything that has one (an array: `as_dtype(np.ones(3))` is float64)."""
    try:
        name = next((n for n, e in _ENUM.items() if e == value), None)
    except (TypeError, ValueError):  # (an array's == is element-wise)
        name = None
    if name is not None and isinstance(value, (builtins.bool, float, np.number, np.bool_)):
        return as_dtype(name)
    dtype = getattr(value, "dtype", None)
    if isinstance(dtype, np.dtype) and dtype.kind in "biufcUSO":
        return as_dtype(dtype)
    return None


def from_numpy(np_dtype):
    """Fast lookup used on every tensor's `.dtype`."""
    try:
        return _BY_NP[np_dtype]
    except KeyError:
        return as_dtype(np_dtype)


def _numpy_name(text):
    """The name of the numpy dtype `text` spells ('a' is 'bytes'), without numpy's warnings
    about its deprecated spellings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return np.dtype(text).name
