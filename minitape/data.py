"""`tf.data`: the input pipelines of TF's tutorials, element by element in Python.

    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(100, seed=0).batch(32)
    for x_batch, y_batch in ds:             # tensors, a new pass (and shuffle) each time
        ...
    model.fit(ds, epochs=3)                 # each element is one batch

A Dataset is a recipe: iterating it makes a fresh iterator, which pulls elements from the
iterators of the datasets it was made from. An element is a nest (tuple, dict) of tensors;
`element_spec` gives their shapes and dtypes (a batch's first dimension is None unless
`drop_remainder=True`), `cardinality()` their number (`INFINITE_CARDINALITY`, -1, after a
`repeat()`; `UNKNOWN_CARDINALITY`, -2, after a `filter`).

`shuffle(buffer_size, seed)` gives TF's order bit for bit: TF's ShuffleDataset keeps a buffer
of `buffer_size` elements and outputs, each step, the one at position `r % len(buffer)` (r the
next 32-bit word of a Philox stream), moving the buffer's first element into its place and
filling the buffer again from the input. Its seeds are `tf.random`'s (the op seed, the global
seed, or random without either); with `reshuffle_each_iteration=True` (the default) each new
iterator takes its seeds from a second Philox stream, two words at a time, so each pass over
the data is shuffled anew, and the same way in every run.

`map(fn)` traces `fn` with `minitape.function` (a Python `print` in it runs when it is traced,
not for every element), once when `map` is called if the element's shapes are known, as TF
traces it then. `prefetch` and `cache` change nothing here (the order is the same in TF).
A Dataset iterated inside a `tf.function` makes that function run its Python code on every
call (each call starts a new pass, as TF's graph does), rather than replay the elements of its
first call.
"""

import types

import numpy as np

from . import nest, philox
from . import random as random_module
from .context import STATE
from .dtypes import as_dtype
from .errors import InvalidArgumentError
from .function import TensorSpec, function
from .tensor import Tensor, Variable, convert_to_tensor

__all__ = [
    "AUTOTUNE",
    "Dataset",
    "INFINITE_CARDINALITY",
    "Options",
    "UNKNOWN_CARDINALITY",
    "experimental",
]

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


class Options:
    """`tf.data.Options()`: settings of how TF runs a pipeline (threads, optimizations,
    sharding); accepted by `with_options` and changing nothing here."""

    def __init__(self):
        self.deterministic = None
        self.experimental_optimization = types.SimpleNamespace()
        self.experimental_distribute = types.SimpleNamespace()
        self.threading = types.SimpleNamespace()


# (older tutorials' spellings)
experimental = types.SimpleNamespace(
    AUTOTUNE=AUTOTUNE,
    INFINITE_CARDINALITY=INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY=UNKNOWN_CARDINALITY,
    cardinality=lambda dataset: dataset.cardinality(),
)


def _spec_of(element):
    return nest.map_structure(lambda t: TensorSpec(t.shape, t.dtype), element)


def _tensors(structure):
    """A nest of tensors from what TF takes as one: tuples and dicts are structure, a list or
    an array is one tensor."""
    if isinstance(structure, tuple):
        return (
            type(structure)(*[_tensors(s) for s in structure])
            if hasattr(structure, "_fields")
            else tuple(_tensors(s) for s in structure)
        )
    if isinstance(structure, dict):
        return {k: _tensors(v) for k, v in structure.items()}
    return convert_to_tensor(structure)


def _as_int(value, name):
    """An int argument as TF converts it to an int64 tensor: a float or a string fails."""
    if isinstance(value, (Tensor, Variable)):
        value = value.numpy()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        if not (isinstance(value, np.ndarray) and value.dtype.kind in "iu" and value.ndim == 0):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int64")
    return int(value)


class Dataset:
    """The base of every dataset: `_make_iterator()` gives a fresh Python iterator of
    elements; `_cardinality` their number; `element_spec` their shapes and dtypes."""

    _cardinality = UNKNOWN_CARDINALITY

    # -- sources ---------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        """One element per row of the tensors (they must have the same first dimension)."""
        return _Slices(_tensors(tensors))

    @staticmethod
    def from_tensors(tensors, name=None):
        """One element: the tensors themselves."""
        return _Source([_tensors(tensors)], name="_TensorDataset")

    @staticmethod
    def range(*args, output_type="int64", name=None, **kwargs):
        """range(stop), range(start, stop) or range(start, stop, step): int64 scalars (or
        `output_type`; TF ignores other keyword arguments, `dtype=` among them)."""
        dtype = as_dtype(output_type)
        values = np.arange(*[_as_int(a, "range") for a in args], dtype=dtype.as_numpy_dtype)
        return _Source(
            [convert_to_tensor(v) for v in values], TensorSpec((), dtype), "_RangeDataset"
        )

    @staticmethod
    def zip(*datasets, name=None):
        """Elements side by side, as a tuple (or the structure of `datasets`), until the
        shortest ends."""
        if len(datasets) == 1 and not isinstance(datasets[0], Dataset):
            datasets = datasets[0]
        return _Zip(datasets)

    # -- transformations -------------------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        if not callable(map_func):
            raise ValueError(
                f"Argument `func` must be a callable. Received func={map_func} (of type "
                f"{type(map_func)})"
            )
        return _Map(self, map_func, num_parallel_calls is not None)

    def filter(self, predicate, name=None):
        return _Filter(self, predicate)

    def batch(
        self,
        batch_size,
        drop_remainder=False,
        num_parallel_calls=None,
        deterministic=None,
        name=None,
    ):
        batched = _Batch(self, _as_int(batch_size, "batch_size"), bool(drop_remainder))
        if num_parallel_calls is not None:
            batched._name = "_ParallelBatchDataset"
        return batched

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
        return _Shuffle(self, _as_int(buffer_size, "buffer_size"), seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None):
        return _Repeat(self, -1 if count is None else _as_int(count, "count"))

    def take(self, count, name=None):
        return _Take(self, _as_int(count, "count"))

    def skip(self, count, name=None):
        return _Skip(self, _as_int(count, "count"))

    def enumerate(self, start=0, name=None):
        return Dataset.zip((_Count(_as_int(start, "start")), self))

    def concatenate(self, dataset, name=None):
        return _Concatenate(self, dataset)

    def prefetch(self, buffer_size, name=None):
        return _Same(self, "_PrefetchDataset")  # (TF's overlaps work; it keeps the order)

    def cache(self, filename="", name=None):
        return _Same(self, "CacheDataset")  # (here the elements are made again each pass)

    def with_options(self, options, name=None):
        return _Same(self, "_OptionsDataset")

    # -- reading ---------------------------------------------------------------------------
    def _make_iterator(self):
        """A new iterator: the input's iterator is made now (as TF makes it when its own
        iterator is made), the elements are pulled as they are needed."""
        return self._walk(self._input._make_iterator())

    def __iter__(self):
        graph = STATE.tracer
        if graph is not None:  # (each call of the function must start a new pass)
            graph.root.unreplayable = "iterates a tf.data.Dataset"
        return iter(self._make_iterator())

    def as_numpy_iterator(self):
        for element in self:
            yield nest.map_structure(lambda t: t.numpy(), element)

    def cardinality(self):
        return convert_to_tensor(np.int64(self._cardinality))

    def __len__(self):
        if self._cardinality == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if self._cardinality == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return self._cardinality

    def __bool__(self):
        return True

    @property
    def element_spec(self):
        return self._spec

    _name = "Dataset"  # (the name of TF's class, which repr shows)

    def __repr__(self):
        return f"<{self._name} element_spec={self.element_spec}>"


class _Source(Dataset):
    def __init__(self, elements, spec=None, name="_TensorDataset"):
        self._elements, self._name = elements, name
        self._cardinality = len(elements)
        self._spec = spec if spec is not None else _spec_of(elements[0])

    def _make_iterator(self):
        return iter(self._elements)


class _Same(Dataset):
    """The elements of `input_dataset`, unchanged (prefetch, cache, with_options)."""

    def __init__(self, input_dataset, name):
        self._input, self._name = input_dataset, name
        self._spec, self._cardinality = input_dataset.element_spec, input_dataset._cardinality

    def _make_iterator(self):
        return self._input._make_iterator()


class _Count(Dataset):
    """start, start + 1, ...: int64 scalars, without end."""

    _name = "_RangeDataset"

    _cardinality = INFINITE_CARDINALITY

    def __init__(self, start):
        self._start, self._spec = start, TensorSpec((), "int64")

    def _make_iterator(self):
        n = self._start
        while True:
            yield convert_to_tensor(np.int64(n))
            n += 1


class _Slices(Dataset):
    _name = "_TensorSliceDataset"

    def __init__(self, tensors):
        leaves = nest.flatten(tensors)
        if any(t.shape.rank == 0 for t in leaves):
            raise ValueError("Unbatching a tensor is only supported for rank >= 1")
        sizes = {int(t.shape[0]) for t in leaves}
        if len(sizes) > 1:
            raise ValueError(
                "Dimensions "
                + " and ".join(str(int(t.shape[0])) for t in leaves)
                + " are not compatible"
            )
        self._tensors = tensors
        self._cardinality = sizes.pop()
        self._spec = nest.map_structure(lambda t: TensorSpec(t.shape[1:], t.dtype), tensors)

    def _make_iterator(self):
        values = [t.numpy() for t in nest.flatten(self._tensors)]
        for i in range(self._cardinality):
            yield nest.pack_sequence_as(self._tensors, [convert_to_tensor(v[i]) for v in values])


def _call(fn, element):
    """fn(*element) for a tuple element (TF's convention), fn(element) otherwise."""
    if isinstance(element, tuple) and not hasattr(element, "_fields"):
        return fn(*element)
    return fn(element)


class _Map(Dataset):
    def __init__(self, input_dataset, map_func, parallel=False):
        self._input = input_dataset
        self._name = "_ParallelMapDataset" if parallel else "_MapDataset"
        self._fn = function(map_func)
        self._cardinality = input_dataset._cardinality
        self._spec = None
        if all(None not in s.shape.as_list() for s in nest.flatten(input_dataset.element_spec)):
            self._spec = self._traced_spec()  # traced now, as TF traces it: the shapes are known

    def _traced_spec(self):
        """The output's spec, from a trace of the function on zeros of the input's shapes (an
        unknown dimension, a batch's, taken as 1 and left unknown in the output)."""
        specs = self._input.element_spec
        zeros = nest.map_structure(
            lambda s: convert_to_tensor(
                np.zeros([1 if d is None else d for d in s.shape.as_list()], s.dtype.as_numpy_dtype)
            ),
            specs,
        )
        args = zeros if isinstance(zeros, tuple) else (zeros,)
        out = self._fn.get_concrete_function(*args).graph.structured_outputs
        return _relaxed(_spec_of(_tensors(out)), specs)

    @property
    def element_spec(self):
        if self._spec is None:
            self._spec = self._traced_spec()
        return self._spec

    def _walk(self, source):
        for element in source:
            yield _tensors(_call(self._fn, element))


def _relaxed(spec, input_spec):
    """The spec of a map's output when its input had unknown dimensions: the first
    dimension unknown too, where the input's was (a batch)."""
    unknown = any(
        s.shape is not None and s.shape.rank and s.shape[0] is None
        for s in nest.flatten(input_spec)
    )
    if not unknown:
        return spec
    return nest.map_structure(
        lambda s: TensorSpec([None] + s.shape.as_list()[1:], s.dtype) if s.shape.rank else s, spec
    )


class _Filter(Dataset):
    _name = "_FilterDataset"

    def __init__(self, input_dataset, predicate):
        self._input, self._predicate = input_dataset, function(predicate)
        self._spec = input_dataset.element_spec
        self._cardinality = (
            INFINITE_CARDINALITY
            if input_dataset._cardinality == INFINITE_CARDINALITY
            else UNKNOWN_CARDINALITY
        )

    def _walk(self, source):
        for element in source:
            if bool(_call(self._predicate, element)):
                yield element


class _Batch(Dataset):
    _name = "_BatchDataset"

    def __init__(self, input_dataset, batch_size, drop_remainder):
        if batch_size <= 0:
            raise InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        self._input, self._size, self._drop = input_dataset, batch_size, drop_remainder
        n = input_dataset._cardinality
        if n < 0:
            self._cardinality = n
        else:
            self._cardinality = n // batch_size if drop_remainder else -(-n // batch_size)
        first = batch_size if drop_remainder else None
        self._spec = nest.map_structure(
            lambda s: TensorSpec([first] + s.shape.as_list(), s.dtype), input_dataset.element_spec
        )

    def _walk(self, source):
        batch = []
        for element in source:
            batch.append(element)
            if len(batch) == self._size:
                yield _stack(batch)
                batch = []
        if batch and not self._drop:
            yield _stack(batch)


def _stack(elements):
    columns = zip(*[nest.flatten(e) for e in elements])
    return nest.pack_sequence_as(
        elements[0], [convert_to_tensor(np.stack([t.numpy() for t in c])) for c in columns]
    )


class _Words:
    """32-bit words one at a time from a Philox stream (TF's SingleSampleAdapter)."""

    def __init__(self, seed, seed2):
        self._stream, self._buffer = philox.Stream.from_seeds(seed, seed2), []

    def __call__(self):
        if not self._buffer:
            self._buffer = self._stream.blocks(np.arange(64)).reshape(-1).tolist()
            self._stream.skip(64)
        return self._buffer.pop(0)


class _Shuffle(Dataset):
    _name = "_ShuffleDataset"

    def __init__(self, input_dataset, buffer_size, seed, reshuffle_each_iteration):
        if buffer_size <= 0:
            raise InvalidArgumentError(None, None, "buffer_size must be greater than zero.")
        self._input, self._buffer_size = input_dataset, buffer_size
        self._spec, self._cardinality = input_dataset.element_spec, input_dataset._cardinality
        seeds = random_module.get_seed(seed)
        if seeds == (None, None) or seeds == (0, 0):  # no seed: a random one
            rng = np.random.default_rng()
            seeds = tuple(int(s) for s in rng.integers(1, 2**63, size=2))
        else:
            seeds = tuple(int(s) for s in seeds)
        self._seeds = seeds
        self._reshuffle = reshuffle_each_iteration is not False
        self._seed_words = _Words(*seeds) if self._reshuffle else None

    def _make_iterator(self):
        seeds = (self._seed_words(), self._seed_words()) if self._reshuffle else self._seeds
        return self._walk(_Words(*seeds))  # (its input's iterator is made at the first pull)

    def _walk(self, words):
        size = self._buffer_size
        buffer, source = [], self._input._make_iterator()
        exhausted = False
        while True:
            while not exhausted and len(buffer) < size:
                element = next(source, _END)
                if element is _END:
                    exhausted = True
                else:
                    buffer.append(element)
            if not buffer:
                return
            k = words() % len(buffer)
            yield buffer[k]
            buffer[k] = buffer[0]
            del buffer[0]


_END = object()


class _Repeat(Dataset):
    _name = "_RepeatDataset"

    def __init__(self, input_dataset, count):
        self._input, self._count = input_dataset, count
        self._spec = input_dataset.element_spec
        n = input_dataset._cardinality
        if count == 0 or n == 0:
            self._cardinality = 0
        elif count < 0 or n == INFINITE_CARDINALITY:
            self._cardinality = INFINITE_CARDINALITY
        else:
            self._cardinality = n * count if n >= 0 else UNKNOWN_CARDINALITY

    def _make_iterator(self):
        return self._walk(self._input._make_iterator() if self._count != 0 else iter(()))

    def _walk(self, source):
        done = 0
        while self._count < 0 or done < self._count:
            empty = True
            if done:
                source = self._input._make_iterator()
            for element in source:
                empty = False
                yield element
            if empty:
                return  # (an empty input repeated forever is still empty)
            done += 1


class _Take(Dataset):
    _name = "_TakeDataset"

    def __init__(self, input_dataset, count):
        self._input, self._count = input_dataset, count
        self._spec = input_dataset.element_spec
        n = input_dataset._cardinality
        if count < 0:
            self._cardinality = n
        elif n == UNKNOWN_CARDINALITY:
            self._cardinality = UNKNOWN_CARDINALITY
        else:
            self._cardinality = count if n == INFINITE_CARDINALITY else min(n, count)

    def _walk(self, source):
        for i, element in enumerate(source):
            if 0 <= self._count <= i:
                return
            yield element


class _Skip(Dataset):
    _name = "_SkipDataset"

    def __init__(self, input_dataset, count):
        self._input, self._count = input_dataset, count
        self._spec = input_dataset.element_spec
        n = input_dataset._cardinality
        if n < 0:
            self._cardinality = n
        else:
            self._cardinality = 0 if count < 0 else max(n - count, 0)

    def _walk(self, source):
        for i, element in enumerate(source):
            if self._count >= 0 and i >= self._count:
                yield element


class _Zip(Dataset):
    _name = "_ZipDataset"

    def __init__(self, datasets):
        self._datasets = datasets
        flat = nest.flatten(datasets) if not isinstance(datasets, Dataset) else [datasets]
        self._flat = [d for d in flat]
        for d in self._flat:
            if not isinstance(d, Dataset):
                raise TypeError(
                    "Invalid `datasets`. `datasets` is expected to be a (nested) structure of "
                    f"`tf.data.Dataset` objects. Received: {datasets}"
                )
        counts = [d._cardinality for d in self._flat]
        finite = [c for c in counts if c >= 0]
        if finite:
            self._cardinality = min(finite)
        elif UNKNOWN_CARDINALITY in counts:
            self._cardinality = UNKNOWN_CARDINALITY
        else:
            self._cardinality = INFINITE_CARDINALITY
        self._spec = nest.pack_sequence_as(datasets, [d.element_spec for d in self._flat])

    def _make_iterator(self):
        return self._walk([d._make_iterator() for d in self._flat])

    def _walk(self, iterators):
        while True:
            elements = [next(it, _END) for it in iterators]
            if any(e is _END for e in elements):
                return
            yield nest.pack_sequence_as(self._datasets, elements)


class _Concatenate(Dataset):
    _name = "_ConcatenateDataset"

    def __init__(self, first, second):
        self._first, self._second = first, second
        self._spec = first.element_spec
        a, b = first._cardinality, second._cardinality
        if INFINITE_CARDINALITY in (a, b):
            self._cardinality = INFINITE_CARDINALITY
        elif UNKNOWN_CARDINALITY in (a, b):
            self._cardinality = UNKNOWN_CARDINALITY
        else:
            self._cardinality = a + b

    def _make_iterator(self):
        return self._walk(self._first._make_iterator())

    def _walk(self, first):
        yield from first
        yield from self._second._make_iterator()
