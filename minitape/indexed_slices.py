"""`tf.IndexedSlices`: the gradient of a gather, kept as the rows it touched.

The gradient of `tf.gather(params, indices)` (along axis 0, without batch dimensions) is zero
except in the rows the gather took, so TF gives it sparse: `values` (one row per index, a
repeated index repeated), `indices` and `dense_shape`. `tape.gradient(loss, table)` after an
embedding lookup returns one, and so does an Embedding layer's gradient. What TF does with it:

* `tf.convert_to_tensor(g)`, and any op given one, densifies it: the rows are added into zeros
  of `dense_shape`, a repeated index getting the sum of its rows (TF's UnsortedSegmentSum).
* on the tape (`tape.py`, `SparseGradient`): the slices of two paths add up by concatenating
  them, slices and a dense gradient add up to a dense tensor (TF's aggregation rules, in
  `backprop.py`), and an op's gradient rule is given the dense tensor.
* optimizers (`keras/optimizers.py`), `tf.clip_by_norm` and `tf.clip_by_global_norm` take it
  as TF's do.

The densification is a recorded op whose gradient is a gather, and the slices' values are
made by recorded ops from the gather's output gradient: second derivatives through a gather
need nothing more.
"""

import collections
import warnings

import numpy as np

from . import dtypes as _dt
from .array_ops import GatherGrad, concat, reshape
from .context import STATE
from .math_ops import cast
from .tape import SparseGradient, apply
from .tensor import Tensor, TensorShape, convert_to_tensor

__all__ = ["IndexedSlices", "gather_gradient"]

_LARGE = 100_000_000  # TF warns when it densifies more elements than this (in a graph)


class IndexedSlices(SparseGradient):
    """A sparse stand-in for a dense tensor of shape `dense_shape`: row `indices[i]` of it is
    `values[i]` (rows given twice add up), every other row is zero."""

    def __init__(self, values, indices, dense_shape=None):
        self._values, self._indices, self._dense_shape = values, indices, dense_shape

    values = property(lambda self: self._values, doc="The rows, one per index.")
    indices = property(lambda self: self._indices, doc="Which row of the dense tensor each is.")
    dense_shape = property(lambda self: self._dense_shape, doc="The dense tensor's shape.")
    dtype = property(lambda self: self._values.dtype)
    device = property(lambda self: self._values.device)
    name = property(lambda self: self._values.name)

    @property
    def shape(self):
        if self._dense_shape is None:
            return TensorShape(None)
        return TensorShape(self._dims())

    def _dims(self):
        return tuple(int(d) for d in np.ravel(convert_to_tensor(self._dense_shape)._value))

    def __neg__(self):
        return IndexedSlices(-self._values, self._indices, self._dense_shape)

    def __str__(self):  # (TF's own words; its repr is Python's default, as here)
        shape = "" if self._dense_shape is None else f", dense_shape={self._dense_shape}"
        return f"IndexedSlices(indices={self._indices}, values={self._values}{shape})"

    # -- what the tape and conversion ask of it (see SparseGradient) -----------------------
    def __tf_tensor__(self, dtype=None, name=None):
        """The dense tensor these slices stand for (TF's `_indexed_slices_to_tensor`)."""
        if dtype is not None and _dt.as_dtype(dtype) != self.dtype:
            raise ValueError(
                "Incompatible tensor conversion requested to `dtype` "
                f"{_dt.as_dtype(dtype).name} for IndexedSlices ({self}) with dtype "
                f"{self.dtype.name}"
            )
        if self._dense_shape is None:
            raise ValueError(
                "Tensor conversion requested for IndexedSlices for argument `value` "
                f"without dense_shape: {self}"
            )
        shape = self._dims()
        if STATE.tracer is not None and int(np.prod(shape)) >= _LARGE:  # (TF: in a graph only)
            warnings.warn(
                f"Converting sparse IndexedSlices to a dense Tensor with {int(np.prod(shape))} "
                "elements. This may consume a large amount of memory.",
                stacklevel=2,
            )
        values, indices = convert_to_tensor(self._values), convert_to_tensor(self._indices)
        return apply(GatherGrad, values, indices, shape=shape, axis=0, batch_dims=0)

    def _parts(self):
        """These slices as a nest of tensors (what a traced function returns for them)."""
        return _Parts(self._values, self._indices, self._dense_shape)

    def _cast(self, dtype):
        """`tf.cast` of slices: slices of the cast values (TF's cast, and so Cast's gradient)."""
        return IndexedSlices(cast(self._values, dtype), self._indices, self._dense_shape)

    def _add(self, other):
        """Two paths' slices add up to their concatenation (TF's
        `AggregateIndexedSlicesGradients`: indices of two dtypes are both made int64)."""
        a, b = self._indices, other._indices
        if a.dtype != b.dtype:
            a, b = cast(a, _dt.int64), cast(b, _dt.int64)
        values = concat([self._values, other._values], axis=0)
        return IndexedSlices(values, concat([a, b], axis=0), self._dense_shape)


class _Parts(collections.namedtuple("_Parts", ["values", "indices", "dense_shape"])):
    """The parts of IndexedSlices, as a traced function's outputs hold them."""

    def _whole(self):
        return IndexedSlices(*self)


def gather_gradient(g, params_shape, indices):
    """The gradient of a gather along axis 0 (TF's `_GatherV2Grad`, and ResourceGather's):
    the output gradient `g`, one row per index, as slices of a tensor of `params_shape`."""
    n = int(np.prod(indices._value.shape))
    values = reshape(g, (n,) + tuple(params_shape[1:]))
    dense_shape = Tensor(np.array(params_shape, np.int32))
    return IndexedSlices(values, reshape(indices, (n,)), dense_shape)
