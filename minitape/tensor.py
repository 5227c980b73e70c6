"""`Tensor` (an immutable numpy value with an id) and `Variable` (mutable state).

A tensor is just a numpy value plus a unique id. The id is how tapes refer to it: a tape
keeps a set of the ids it watches, and an op's output is watched when one of its inputs is.
A `Variable` keeps one id for its whole life; each assignment stores a new immutable
snapshot under that same id, so gradients from every read add up on the variable while each
recorded op still sees the value it really used.
"""

import numbers
import operator
import sys

import numpy as np

from . import dtypes as _dt
from .context import NAME_SCOPE, STATE, next_id
from .errors import InvalidArgumentError, invalid

__all__ = ["Tensor", "Variable", "TensorShape", "constant", "convert_to_tensor", "is_tensor"]


class TensorShape(tuple):
    """A tuple of dimensions that prints like TF's (`TensorShape([3, 4])`). `TensorShape(dims)`
    checks the dimensions as TF does; minitape's own code, which has a numpy shape in hand,
    makes one with `TensorShape._of(shape)`, unchecked."""

    __slots__ = ()

    def __new__(cls, dims):
        return tuple.__new__(cls, _as_shape(dims))

    @classmethod
    def _of(cls, shape):
        return tuple.__new__(cls, shape)

    def as_list(self):
        return list(self)

    @property
    def rank(self):
        return len(self)

    ndims = rank

    def num_elements(self):
        return int(np.prod(self)) if self else 1

    # -- compatibility: a None dimension is compatible with any (TF's rules, for known ranks)
    def is_compatible_with(self, other):
        other = _as_shape(other)
        return len(self) == len(other) and all(
            a is None or b is None or a == b for a, b in zip(self, other)
        )

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def merge_with(self, other):
        """The shape both describe (a dimension known in either is known)."""
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {TensorShape(other)} are not compatible")
        return TensorShape._of(tuple(a if a is not None else b for a, b in zip(self, other)))

    def most_specific_compatible_shape(self, other):
        """The most specific shape compatible with both (None where they differ)."""
        other = _as_shape(other)
        if len(self) != len(other):
            raise ValueError(f"Shapes {self} and {other} must have the same rank")
        return TensorShape._of(tuple(a if a == b else None for a, b in zip(self, other)))

    def is_fully_defined(self):
        return None not in self

    def assert_is_fully_defined(self):
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def assert_has_rank(self, rank):
        if len(self) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_same_rank(self, other):
        other = TensorShape(other)
        if len(self) != len(other):
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def with_rank(self, rank):
        self.assert_has_rank(rank)
        return self

    def with_rank_at_least(self, rank):
        if len(self) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank):
        if len(self) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def concatenate(self, other):
        return TensorShape._of(tuple(self) + _as_shape(other))

    def __repr__(self):
        return f"TensorShape({list(self)})"

    def __str__(self):
        return tuple.__repr__(self)

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return TensorShape._of(item) if isinstance(key, slice) else item

    def __eq__(self, other):
        try:
            return tuple(self) == tuple(other)
        except TypeError:
            return NotImplemented

    __hash__ = tuple.__hash__


# TF's short names for dtypes in op error messages ("expected to be a float tensor but is a
# double tensor").
_TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half", "object": "string"}


def tf_type_name(np_dtype):
    return _TF_TYPE_NAMES.get(np_dtype.name, np_dtype.name)


class _Ref:
    """A hashable handle on a tensor or variable (TF's `x.ref()`): tensors themselves are
    unhashable because `==` is element-wise."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def deref(self):
        return self._obj

    def __hash__(self):
        return self._obj._id

    def __eq__(self, other):
        return isinstance(other, _Ref) and other._obj is self._obj

    def __repr__(self):
        return f"<Reference wrapping {self._obj!r}>"


# The tensor arguments of a trace whose type leaves sizes open: id -> a function of the frame
# that asks, giving the shape it sees (graph.py's `_seen_shape`; see function.py).
_OPEN_SHAPES = {}


class _TensorLike:
    """What tensors and variables share: read-only properties and Python protocols.

    The operators (`+`, `*`, `@`, `x[i]`, ...) are attached in `ops.py`, where they are
    the very same functions as `minitape.add`, `minitape.multiply`, ...
    """

    __slots__ = ()
    __array_priority__ = 100  # numpy defers to us: ndarray + tensor -> tensor

    @property
    def shape(self):
        if _OPEN_SHAPES and id(self) in _OPEN_SHAPES:  # (an argument of a relaxed trace)
            return _OPEN_SHAPES[id(self)](sys._getframe(1))
        return TensorShape._of(self._read_value().shape)

    @property
    def dtype(self):
        return _dt.from_numpy(self._read_value().dtype)

    def get_shape(self):
        if _OPEN_SHAPES and id(self) in _OPEN_SHAPES:
            return _OPEN_SHAPES[id(self)](sys._getframe(1))
        return self.shape

    def _value_for_python(self):
        """The value, for Python to decide or compute with (`if t:`, `float(t)`, `t.numpy()`).
        Inside tf.function the trace hears of it: a replay could not redo such a use, so the
        function will run its Python code on every call (see `function.py`)."""
        if STATE.tracer is not None:
            STATE.tracer.value_used(self)
        for tape in STATE.tapes:  # a watched value leaves TF here: a note for minitape.explain
            if self._id in tape._watched:
                tape._cuts.append(("python", None, self._id, None))
        return self._read_value()

    def numpy(self):
        """The value as numpy: a copy for arrays, a numpy scalar for 0-d (as in TF)."""
        v = self._value_for_python()
        return v.copy() if isinstance(v, np.ndarray) and v.ndim else v[()]

    def ref(self):
        return _Ref(self)

    def __array__(self, dtype=None, copy=None):
        # np.mean(tensor) and friends see a plain array: the result is numpy, not a tensor,
        # and no tape ever hears about it.
        return np.asarray(self._value_for_python(), dtype=dtype)

    def __hash__(self):
        raise TypeError(
            f"{type(self).__name__} is unhashable. Instead, use tensor.ref() as the key."
        )

    def _refused(self, use):
        """While a function is traced: TF's error where TF would refuse `use` ("bool",
        "iterate", "len") of this tensor (`Graph.refuses`)."""
        refuses = getattr(STATE.tracer, "refuses", None)
        if refuses is not None:
            refuses(self, use)

    def __bool__(self):
        self._refused("bool")
        v = self._value_for_python()
        return bool(v) if v.size else False  # (TF: an empty tensor is False)

    def __float__(self):
        return float(self._value_for_python())

    def __int__(self):
        return int(self._value_for_python())

    def __index__(self):
        v = self._value_for_python()
        if v.ndim:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        if v.dtype.kind not in "iu":  # (TF fails inside numpy, with numpy's words)
            raise AttributeError(
                f"'numpy.{v.dtype.name}' object has no attribute '__index__' "
                "(only an integer tensor can be used as an index)"
            )
        return int(v)

    def __format__(self, spec):
        v = self._read_value()
        if v.ndim == 0:
            return format(v[()], spec)
        if spec:
            raise TypeError("unsupported format string passed to numpy.ndarray.__format__")
        return str(self)

    def __len__(self):
        self._refused("len")
        v = self._read_value()
        if v.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return v.shape[0]

    def __iter__(self):
        self._refused("iterate")
        if self._read_value().ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        return (self[i] for i in range(len(self)))

    def __reduce__(self):
        return constant, (self.numpy(),)


def _numpy_text(value, is_repr):
    if value.ndim == 0:  # (TF's repr of a scalar is its Python value's: 27.299999237060547
        scalar = value[()]  # for a float32 27.3, whose str is numpy's, 27.3)
        text = repr(scalar.item()) if is_repr and hasattr(scalar, "item") else str(scalar)
    else:
        text = repr(value) if is_repr else str(value)
    return "\n" + text if "\n" in text else text


class Tensor(_TensorLike):
    """An immutable value. Create one with `minitape.constant(...)` or by running an op."""

    __slots__ = ("_value", "_id", "__weakref__")

    def __init__(self, value):
        self._value = value  # a numpy array, or a numpy scalar when 0-d; never mutated
        self._id = next_id()  # the name tapes know it by

    def _read_value(self):
        return self._value

    @property
    def ndim(self):
        return self._value.ndim

    @property
    def name(self):
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")

    def __repr__(self):
        v = self._value
        return (
            f"<tf.Tensor: shape={tuple(v.shape)}, dtype={_dt.from_numpy(v.dtype).name}, "
            f"numpy={_numpy_text(v, True)}>"
        )

    def __str__(self):
        v = self._value
        return (
            f"tf.Tensor({_numpy_text(v, False)}, shape={tuple(v.shape)}, "
            f"dtype={_dt.from_numpy(v.dtype).name})"
        )


_new_tensor = object.__new__


def _snapshot(value, ident):
    """A tensor carrying a variable's id: what an op sees when it reads the variable."""
    t = Tensor.__new__(Tensor)
    t._value = value
    t._id = ident
    return t


class Variable(_TensorLike):
    """Mutable state: model parameters. Reading a trainable variable inside an active tape
    makes that tape watch it (unless the tape was made with `watch_accessed_variables=False`).
    `assign`, `assign_add` and `assign_sub` change the value in place and are not
    differentiable: the new value has no recorded history, as in TF."""

    __slots__ = ("_snap", "_id", "_trainable", "_name", "__weakref__")

    def __init__(self, initial_value=None, trainable=True, name=None, dtype=None, **_ignored):
        if initial_value is None:
            raise ValueError("The initial_value must be specified.")
        if callable(initial_value):
            initial_value = initial_value()
        value = convert_to_tensor(initial_value, dtype=dtype)._value
        self._id = next_id()
        self._snap = _snapshot(_compact(np.array(value)), self._id)
        self._trainable = bool(trainable)
        base = NAME_SCOPE.name + (name or "Variable")  # (tf.name_scope's prefix)
        self._name = base + ":0"

    # -- reading -------------------------------------------------------------------------
    def _read(self):
        """The current value as a new tensor (each read is a tensor of its own, as TF's
        ReadVariableOp), telling every active tape and trace that we were read."""
        read = _new_tensor(Tensor)  # (`Tensor(value)`, minus the call to __init__)
        read._value, read._id = self._snap._value, next_id()
        vid = self._id
        tapes, tracer = STATE.now
        for tape in tapes:
            if vid not in tape._variables:  # a first read: the tape may start watching us
                tape._variable_read(self, read)
            elif vid in tape._watched:  # watched: this read leads back to us
                tape._watched.add(read._id)
                tape._reads[read._id] = vid
        if tracer is not None:
            tracer.variable_read(self, read)
        return read

    def _read_value(self):
        return self._snap._value

    # As TF's variables: no len() (iterating works) and no format spec (use float(v)).
    def __len__(self):
        raise TypeError("object of type 'ResourceVariable' has no len()")

    def __iter__(self):
        return iter(self._read())

    def __format__(self, spec):
        if spec:
            raise TypeError("unsupported format string passed to ResourceVariable.__format__")
        return str(self)

    def value(self):
        return self._read()

    read_value = value

    @property
    def trainable(self):
        return self._trainable

    @property
    def name(self):
        return self._name

    @property
    def handle(self):
        return self

    # -- writing -------------------------------------------------------------------------
    def _set(self, value, how, read_value=True):
        old = self._snap._value
        new = value._value if type(value) is Tensor else None
        # (the common case, a tensor of our dtype and shape, needs nothing converted or checked)
        if new is None or new.dtype is not old.dtype or new.shape != old.shape:
            if new is None or new.dtype != old.dtype:
                new = self._in_own_dtype(value)
            if new.shape != old.shape:  # (TF's words, spaces as TF has them)
                if how == "assign":
                    raise ValueError(
                        f"Cannot assign value to variable ' {self._name}': Shape "
                        f"mismatch.The variable shape {tuple(old.shape)}, and the "
                        f"assigned value shape {tuple(new.shape)} are incompatible."
                    )
                op = "AssignAddVariableOp" if how == "assign_add" else "AssignSubVariableOp"
                dims = ["[" + ",".join(map(str, shape)) + "]" for shape in (old.shape, new.shape)]
                raise invalid(
                    op,
                    f"Cannot update variable with shape {dims[0]} using a Tensor with "
                    f"shape {dims[1]}, shapes must be equal.",
                )
        if how == "assign_sub":
            new = old - new
        elif how == "assign_add":
            new = old + new
        tapes, tracer = STATE.now
        for tape in tapes:  # (an assignment is an access: the tape may watch us)
            tape._variable_read(self)
            if isinstance(value, _TensorLike) and value._id in tape._watched:
                # the path of a watched value ends here: a note for minitape.explain
                tape._cuts.append(("assign", self._name, value._id, self._id))
        if tracer is not None:  # told before the change: a trace can still see the old value
            tracer.variable_assigned(self, value, how)
        if how == "assign" and type(new) is np.ndarray:
            new = new.copy()  # our own copy (a sum or difference already is one; scalars
            # are immutable)
        snap = _new_tensor(Tensor)  # (`_snapshot(new, self._id)`, minus a call)
        snap._value, snap._id = new, self._id
        self._snap = snap
        if not read_value:
            return None
        unread = _new_tensor(_UnreadVariable)  # (`_UnreadVariable(self)`, minus a call)
        unread._of = self
        return unread

    def _in_own_dtype(self, value):
        """`value` as a numpy value of this variable's dtype, or TF's error."""
        dtype = self._snap._value.dtype
        if dtype.kind == "f" and (type(value) is float or type(value) is int):
            return dtype.type(value)  # (a Python number, quickly)
        if (
            dtype.kind == "i"
            and dtype.itemsize >= 4
            and type(value) is int
            and -_I31 <= value < _I31
        ):
            return dtype.type(value)  # (a small Python int into int32 or int64, quickly)
        return convert_to_tensor(value, dtype=_dt.from_numpy(dtype))._value

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._set(value, "assign", read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._set(delta, "assign_add", read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._set(delta, "assign_sub", read_value)

    def __repr__(self):
        v = self._snap._value
        return (
            f"<tf.Variable '{self._name}' shape={tuple(v.shape)} "
            f"dtype={_dt.from_numpy(v.dtype).name}, "
            f"numpy={_numpy_text(v, True)}>"
        )

    def __str__(self):
        return repr(self)


class _UnreadVariable(Variable):
    """What `assign` returns, as TF's eager `assign` does: the variable under the name
    'UnreadVariable'. Reading it reads the variable now; assigning it assigns the variable;
    a tape sees the variable."""

    __slots__ = ("_of",)

    _snap = property(lambda self: self._of._snap)
    _id = property(lambda self: self._of._id)
    _trainable = property(lambda self: self._of._trainable)
    _name = property(lambda self: "UnreadVariable")
    name = _name

    def _read(self):
        return self._of._read()

    def _set(self, value, how, read_value=True):
        return self._of._set(value, how, read_value)


def bool_flag(value, name):
    """A flag that must be True or False (GradientTape's `persistent`: TF takes any truthy
    value there and then fails inside, an InternalError on the second gradient call)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"`{name}` must be a bool (True or False), got {value!r}")


def is_tensor(x):
    return isinstance(x, (Tensor, Variable))


def held_variable(x):
    """The tf.Variable that `x` holds if `x` is a Keras 3 variable (ops and tapes see that one,
    as TF's do through its `.value`), else None."""
    return getattr(x, "_tf_variable", None)


def as_seen_by_tapes(x):
    """`x`, or the tf.Variable it holds if it is a Keras 3 variable."""
    held = held_variable(x)
    return x if held is None else held


# -- conversion ------------------------------------------------------------------------------
# TF's rules for turning Python and numpy data into tensors, in one place:
#
# * numpy data keeps its dtype (np.linspace data is float64); asked for another dtype, it is
#   cast (truncating floats, as numpy's astype does);
# * Python data: bools -> bool, ints -> int32 (int64 past int32's range), floats (or ints and
#   floats mixed) -> float32, strings -> string, complex -> complex128. Bools mixed with
#   numbers, None inside a list, or ragged lists are errors;
# * Python data asked for a dtype: ints wrap into integer dtypes (-1 -> 255 for uint8), but a
#   float is never truncated into an integer and nothing but a bool becomes a bool.
_INT32, _INT64 = np.iinfo(np.int32), np.iinfo(np.int64)
_I31 = 2**31
_FLOAT32_MAX = float(np.finfo(np.float32).max)


def _unsupported(value):
    return ValueError(
        f"Attempt to convert a value ({value!r}) with an unsupported type "
        f"({type(value)}) to a Tensor."
    )


def _cannot(value, npd):
    return TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {tf_type_name(npd)}")


def _leaves(value):
    """The leaves of nested lists/tuples."""
    for v in value:
        if isinstance(v, (list, tuple)):
            yield from _leaves(v)
        else:
            yield v


def _as_strings(arr):
    """Strings as TF holds them: bytes, in an object array (`.numpy()` gives b'abc')."""
    flat = np.empty(arr.size, dtype=object)
    flat[:] = [s.encode() if isinstance(s, str) else bytes(s) for s in arr.reshape(-1)]
    return flat.reshape(arr.shape)


def _from_python(value, npd=None):
    """Python data as a numpy value by TF's rules (see above); `npd` is the dtype asked for."""
    try:
        arr = np.array(value)
    except ValueError as e:  # numpy refuses ragged nests ("inhomogeneous shape")
        if "maximum number of dimension" in str(e):
            raise too_deep(value, npd) from None
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    except RecursionError:  # (a list that holds itself)
        raise ValueError(
            "Can't convert a Python sequence that contains itself to Tensor."
        ) from None
    except OverflowError:
        raise ValueError(
            "Can't convert Python sequence with out-of-range integer to Tensor."
        ) from None
    kind = arr.dtype.kind
    if isinstance(value, (list, tuple)) and arr.size:
        leaf_types = {type(v) for v in _leaves(value)}
        if (
            bool in leaf_types
            and len(leaf_types) > 1
            or type(None) in leaf_types
            or kind in "US"
            and not leaf_types <= {str, bytes}
        ):
            if npd is not None and leaf_types <= {bool, int, float} and kind not in "US":
                return _bools_among_numbers(value, npd)
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    if kind == "O":
        leaves = list(_leaves(value) if arr.ndim else [value])
        if npd is not None and npd.kind in "fc" and _real_numbers(leaves):
            return _big_ints_as(value, npd)  # (ints beyond int64 asked to be floats)
        if all(isinstance(v, int) for v in leaves):
            raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
        if isinstance(value, (list, tuple)):
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
        raise _unsupported(value)
    if kind == "u" and arr.size and arr.max() > _INT64.max and not (npd and npd.kind in "fc"):
        raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
    if npd is None:
        if kind == "f":
            if arr.size and np.any(np.abs(arr[np.isfinite(arr)]) > _FLOAT32_MAX):
                raise ValueError(
                    "Can't convert Python sequence with a value out of range for a "
                    "double-precision float."
                )
            return arr.astype(np.float32)
        if kind in "iu":
            big = arr.size and (arr.min() < _INT32.min or arr.max() > _INT32.max)
            return arr.astype(np.int64 if big else np.int32)
        if kind == "c":
            return arr.astype(np.complex128)
        if kind == "b":
            return arr
        if kind in "US":
            return _as_strings(arr)
        raise _unsupported(value)
    want = npd.kind
    if not arr.size and kind == "f" and isinstance(value, (list, tuple)):
        return _as_strings(arr) if want == "O" else arr.astype(npd)  # ([] has any dtype)
    if kind in "US":
        if want == "O":
            return _as_strings(arr)
        raise _cannot(value, npd)
    if (
        want == "O"
        or want == "b"
        and kind != "b"
        or want in "iu"
        and kind in "fc"
        or kind == "b"  # (TF turns Python bools into int32 and int64, not narrower ints)
        and (want == "u" or want == "i" and npd.itemsize < 4)
        or want == "f"
        and kind == "c"
    ):
        raise _cannot(value, npd)
    return arr.astype(npd)


def _bools_among_numbers(value, npd):
    """A list mixing bools with numbers, which TF converts only where a wide number dtype is
    asked for (bools as 1 and 0): any float or complex dtype; int32 or int64 when the rest are
    ints in range (a float there is its TypeError, or "mixed types" when a bool comes first).
    A bool, string or narrower integer dtype refuses the mix, as does no dtype."""
    leaves = list(_leaves(value))
    mixed = ValueError("Can't convert Python sequence with mixed types to Tensor.")
    if npd.kind in "fc":
        return np.array(value, dtype=np.float64).astype(npd)
    if npd.kind != "i" or npd.itemsize < 4:
        raise mixed
    if any(type(v) is float for v in leaves):
        if type(leaves[0]) is bool:
            raise mixed
        raise _cannot(value, npd)
    info = np.iinfo(npd)
    if not all(info.min <= v <= info.max for v in leaves):
        raise mixed
    return np.array(value, dtype=npd)


def _real_numbers(leaves):
    return all(type(v) is int or type(v) is float for v in leaves)


def _big_ints_as(value, npd):
    """Python numbers, some of them ints beyond int64, as floats (or complex) of dtype `npd`:
    TF converts them where a floating dtype is asked for (2**70 as float32 is 1.18e21, inf
    as float16) and refuses only an int beyond float64's range."""
    try:
        arr = np.array(value, dtype=np.float64)
    except OverflowError:
        raise ValueError(
            "Can't convert Python sequence with out-of-range integer to Tensor."
        ) from None
    with np.errstate(over="ignore"):
        return arr.astype(npd)


def nest_shape(value):
    """The shape of a (rectangular) nest of lists, read along its first entries."""
    shape, v = [], value
    while isinstance(v, (list, tuple)):
        shape.append(len(v))
        if not v:
            break
        v = v[0]
    return shape, v


def too_deep(value, npd=None):
    """The error for a Python nest deeper than numpy's 64 dimensions (a TF tensor may have up
    to 254, but TF cannot make a numpy value of it either; it checks the values first)."""
    shape, v = nest_shape(value)
    depth = len(shape)
    if npd is not None:
        try:
            _from_python(v, npd)
        except TypeError:
            return _cannot(value, npd)
    if isinstance(v, (str, bytes)):
        return ValueError("number of dimensions must be within [0, 64]")
    return InvalidArgumentError(
        None,
        None,
        f"Cannot convert tensor with {depth} dimensions to NumPy array. NumPy arrays can have "
        "at most 64 dimensions",
    )


def _from_numpy(value, npd=None):
    """numpy data: its own dtype, or cast to `npd` the way numpy casts (TF's conversion
    force-casts numpy data to the dtype asked for: floats truncate, strings are parsed as
    numbers, objects become bools by their truth value); nothing becomes a string but strings."""
    kind = value.dtype.kind
    if npd is not None and npd.kind != "O" and kind in "USO":
        return np.asarray(value).astype(npd)  # (numpy's ValueError for 'a' as a number)
    if kind in "USO":
        if kind == "O" and not all(isinstance(v, (str, bytes)) for v in np.ravel(value)):
            bad = next(v for v in np.ravel(value) if not isinstance(v, (str, bytes)))
            raise ValueError(
                f"Failed to convert a NumPy array to a Tensor (Unsupported object "
                f"type {type(bad).__name__})."
            )
        if npd is not None and npd.kind != "O":
            raise _cannot(value, npd)
        return _as_strings(np.asarray(value))
    if npd is None:
        return np.array(value)
    if npd.kind == "O":
        raise _cannot(value, npd)
    return np.asarray(value).astype(npd)


def _to_numpy(value, dtype=None, pack=True):
    """A fresh numpy value for `value`, following TF's dtype rules. With `pack`, a list that
    holds tensors is packed into one (convert_to_tensor does; tf.constant does not)."""
    npd = None if dtype is None else _dt.as_dtype(dtype)._np
    if isinstance(value, (np.ndarray, np.generic)):
        return _from_numpy(value, npd)
    try:
        holds_tensors = isinstance(value, (list, tuple)) and any(
            isinstance(v, _TensorLike) for v in _leaves(value)
        )
    except RecursionError:  # (a list that holds itself)
        raise ValueError(
            "Can't convert a Python sequence that contains itself to Tensor."
        ) from None
    if holds_tensors:
        if not pack:
            raise ValueError(
                "tf.constant cannot convert a list that holds tensors: use "
                "tf.stack (or tf.convert_to_tensor)"
            )
        return _autopack(value, npd)
    if isinstance(value, (numbers.Number, list, tuple, str, bytes, np.bool_)):
        return _from_python(value, npd)
    if hasattr(value, "__array__"):  # (array-like objects are converted as TF does: by
        # calling their __array__; a numpy type such as np.float32 fails there, TypeError)
        return _from_numpy(np.asarray(value.__array__()), npd)
    raise _unsupported(value)


def _autopack(value, npd):
    """A list that holds tensors, packed as TF packs it (its `_autopacking_conversion_function`):
    in the dtype asked for, to which every tensor is cast first, or else in the dtype of the
    first tensor. A list whose entries are all tensors is one Pack op (which refuses entries of
    another dtype or shape, InvalidArgumentError); in any other list a tensor of another dtype
    is a TypeError, and the other entries are converted to the dtype."""
    first = next(v for v in _leaves(value) if isinstance(v, _TensorLike))
    have = first._read_value().dtype
    if npd is not None and npd != have:
        value = _cast_tensors(value, npd)
    return _pack_nest(value, have if npd is None else npd).view(np.ndarray)


def _cast_tensors(value, npd):
    if isinstance(value, (list, tuple)):
        return [_cast_tensors(v, npd) for v in value]
    if isinstance(value, _TensorLike):  # (TF's Cast: a string to a number is its Unimplemented)
        return _PACKING["cast"](value, _dt.from_numpy(npd))
    return value


# A list that holds tensors is packed with ops (Cast, Pack), which live above this file: ops.py
# registers them here, as TF's array_ops registers its autopacking conversion function with
# tensor_conversion_registry.
_PACKING = {}  # "cast": ops.cast, "autopack": ops.autopack


def register_packing(cast, autopack):
    """Called once by ops.py: the ops that convert a list holding tensors."""
    _PACKING.update(cast=cast, autopack=autopack)


def _pack_nest(value, npd):
    """One level of TF's `_autopacking_helper`: a numpy array when the level held a tensor
    (then packed), else the list as it is, for the level above to convert whole."""
    if all(isinstance(v, _TensorLike) for v in value):
        return _pack([v._read_value() for v in value])
    parts, packed = [], []  # (each entry, and whether it is a packed tensor's value)
    for v in value:
        if isinstance(v, _TensorLike):
            if v._read_value().dtype != npd:
                raise TypeError(
                    f"Cannot convert a list containing a tensor of dtype <dtype: "
                    f"'{_dt.from_numpy(v._read_value().dtype).name}'> to <dtype: "
                    f"'{_dt.from_numpy(npd).name}'> (Tensor is: {v!r})"
                )
            parts.append(v._read_value())
            packed.append(True)
        elif isinstance(v, (list, tuple)):
            part = _pack_nest(v, npd)
            parts.append(part)
            packed.append(isinstance(part, _Packed))
        else:
            parts.append(v)
            packed.append(False)
    if not any(packed):
        return parts
    return _pack([p if k else _to_numpy(p, npd, False) for p, k in zip(parts, packed)])


class _Packed(np.ndarray):
    """The value of a packed level (so that the level above knows it from numpy data)."""


def _dims(shape):
    return "[" + ",".join(map(str, shape)) + "]"


def _pack(values):
    """TF's Pack of numpy values: one dtype and one shape, those of the first."""
    first = np.asarray(values[0])
    for i, v in enumerate(values[1:], 1):
        v = np.asarray(v)
        if v.dtype != first.dtype:
            raise invalid(
                "Pack",
                f"cannot compute Pack as input #{i}(zero-based) was expected to be a "
                f"{tf_type_name(first.dtype)} tensor but is a {tf_type_name(v.dtype)} tensor",
            )
        if v.shape != first.shape:
            raise invalid(
                "Pack",
                f"Shapes of all inputs must match: values[0].shape = {_dims(first.shape)} != "
                f"values[{i}].shape = {_dims(v.shape)}",
            )
    return np.stack([np.asarray(v) for v in values]).view(_Packed)


def _compact(arr):
    """A fresh 0-d array as a numpy scalar: the same value, but arithmetic on numpy scalars
    takes numpy's fast scalar path (~30 ns instead of ~300 ns through an array ufunc). (A 0-d
    string stays an array: its scalar would be plain bytes, with no dtype.)"""
    return arr[()] if arr.ndim == 0 and arr.dtype.kind != "O" else arr


def _as_shape(shape):
    """`shape` as a tuple of dimensions, checked as TF's TensorShape checks them: a list or
    any iterable of dimensions, or one dimension; each an integer (anything with `__index__`,
    such as a numpy int or an integer tensor) or None."""
    if not isinstance(shape, (list, tuple)):
        try:
            shape = list(shape)
        except TypeError:
            shape = [shape]
    dims = []
    for d in shape:
        if d is not None:
            try:
                d = operator.index(d)
            except (TypeError, AttributeError):  # (a float tensor's __index__: AttributeError)
                raise TypeError(
                    "Dimension value must be integer or None or have an __index__ method, got "
                    f"value '{d!r}' with type '{type(d)}'"
                ) from None
            if d < 0:
                raise ValueError(f"Dimension {d} must be >= 0")
        dims.append(d)
    return tuple(dims)


def _traced(t):
    """Whether `t` is one of the tensors of the function being traced: an argument, or a
    result of an op recorded in the trace (TF's symbolic graph tensors, whose values are not
    known while tracing), rather than a value known now (a tensor from outside, a constant)."""
    depends = getattr(STATE.tracer, "depends_on_inputs", None)  # (a minitape.function Graph)
    return depends is not None and not isinstance(t, Variable) and depends(t)


def constant(value, dtype=None, shape=None, name=None):
    """A new tensor holding a copy of `value` (TF's dtype rules; `shape` reshapes or fills)."""
    if isinstance(value, _TensorLike):
        if STATE.tracer is not None and _traced(value):  # (a replay could not copy it anew)
            raise TypeError("Expected any non-tensor type, but got a tensor instead.")
        have = value._read_value()
        if dtype is not None and _dt.as_dtype(dtype)._np != have.dtype:
            raise TypeError(
                f"Expected tensor {have} with dtype {_dt.as_dtype(dtype)!r}, but got "
                f"dtype {_dt.from_numpy(have.dtype)!r}."
            )
        arr = np.array(have)
    else:
        arr = _to_numpy(value, dtype, pack=False)
    if shape is not None:
        arr = np.asarray(arr)
        shape = _as_shape(shape)
        if None in shape:
            raise TypeError(
                f"Eager execution of tf.constant with unsupported shape. Tensor {arr} "
                f"(converted from {value!r}) has {arr.size} elements, but got `shape` "
                f"{shape} with None elements)."
            )
        if arr.size == 1:
            arr = np.full(shape, arr.reshape(()), dtype=arr.dtype)
        elif arr.size == int(np.prod(shape)):
            arr = arr.reshape(shape)
        else:
            raise TypeError(
                f"Eager execution of tf.constant with unsupported shape. Tensor "
                f"{value!r} (converted from {value!r}) has {arr.size} elements, "
                f"but got `shape` {shape} with {int(np.prod(shape))} elements)."
            )
    return Tensor(_compact(arr))


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """`value` as a Tensor: tensors pass through, variables are read, the rest is converted.
    `dtype_hint` is tried first and dropped if the value cannot have it."""
    if dtype_hint is not None:
        dtype_hint = _dt.as_dtype(dtype_hint)  # (TF reads it first, even for a tensor)
    if type(value) is Tensor and dtype is None:
        return value
    if isinstance(value, (Tensor, Variable)):
        have = value._read_value().dtype
        if dtype is not None and _dt.as_dtype(dtype)._np != have:
            raise ValueError(
                f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} "
                f"for {type(value).__name__} with dtype {have.name}: {value!r}"
            )
        return value if type(value) is Tensor else value._read()
    if value is None:
        raise _unsupported(value)
    if held_variable(value) is not None:  # (a Keras variable reads its tf.Variable, autocast)
        return convert_to_tensor(value._read(), dtype, dtype_hint)
    if hasattr(type(value), "__tf_tensor__"):  # (TF's protocol: a gather's IndexedSlices)
        return value.__tf_tensor__(dtype, name)
    if dtype is None and dtype_hint is not None:
        try:
            return _converted(value, dtype_hint)
        except (TypeError, ValueError):
            pass
    return _converted(value, dtype)


def _converted(value, dtype):
    """Python or numpy data as a new Tensor, by `_to_numpy`'s rules (and with its errors).

    A list that holds tensors, `[x, x * 3.0]`, is packed as TF packs it. TF packs with ops
    (Cast and Pack), so a tape sees the tensors in the list and a traced function replays the
    packing with the call's values; here too, while a tape, an accumulator or a trace
    listens: the value is checked and computed on numpy first, then made again by recorded
    ops (`ops.autopack`). When nothing listens, the numpy value is the answer."""
    arr = _compact(_to_numpy(value, dtype))
    if isinstance(value, (list, tuple)) and (STATE.tapes or STATE.tracer is not None):
        if any(isinstance(v, _TensorLike) for v in _leaves(value)):
            return _PACKING["autopack"](value, _dt.from_numpy(arr.dtype))
    return Tensor(arr)


def operand(x, like, op_name, hint=False):
    """Convert one operand of a binary op: a tensor must match `like`'s dtype; anything else
    (Python number, list, numpy array) is converted to `like`'s dtype, as TF's operators do.
    With `hint` (TF's `+`), that dtype is only a hint: data that cannot have it is converted
    by the default rules, and the op then refuses the mismatch."""
    if type(x) is Tensor:
        pass
    elif isinstance(x, Variable):
        x = x._read()
    elif held_variable(x) is not None:
        x = x._read()
    else:
        npd = like._value.dtype
        if (type(x) is float or type(x) is int) and npd.kind == "f":  # `1 - x`, quickly
            return Tensor(npd.type(x))
        if hasattr(type(x), "__tf_tensor__"):  # (an IndexedSlices: its dense tensor)
            return operand(x.__tf_tensor__(), like, op_name, hint)
        try:
            return _converted(x, npd)
        except (TypeError, ValueError):
            if not hint:
                raise
            x = convert_to_tensor(x)
    xd, ld = x._value.dtype, like._value.dtype
    if xd is not ld and xd != ld:
        raise invalid(
            op_name,
            f"cannot compute {op_name} as input #1(zero-based) was expected "
            f"to be a {tf_type_name(ld)} tensor but is a {tf_type_name(xd)} tensor",
        )
    return x


def read(x):
    """Any tensor-like argument as a Tensor (variables are read; Python data converted)."""
    if type(x) is Tensor:
        return x
    if isinstance(x, Variable):
        return x._read()
    return convert_to_tensor(x)
