"""How `fit`, `evaluate` and `predict` walk through their data: Keras 3's data adapters and
epoch iterator.

Arrays (numpy arrays or tensors, or a tuple/list/dict of them) are cut into batches of
`batch_size` examples (32 by default), the last batch holding what is left. With
`shuffle=True` (fit's default) the examples are taken in the order of a random permutation,
drawn as Keras 3 draws it: a `RandomShuffle` of the indices 0..n-1 in its data pipeline. That
op's seeds are the global seed and 0 (its op seed in the pipeline's graph), and its kernel
starts again with each pass, so under `keras.utils.set_random_seed` (or `tf.random.set_seed`)
every epoch of every fit sees the same order, TF's own; without a global seed the order is
random. `shuffle="batch"` shuffles each batch's examples instead, from the same stream.

A `tf.data.Dataset` is walked as it is: each of its elements is a batch.

`steps_per_epoch` cuts an epoch short; the walk then goes on where it stopped at the next
epoch, and starts a new pass when the data runs out (with a warning when that cuts an epoch).
"""

import math
import secrets
import warnings

import numpy as np

from .. import nest, philox
from .. import random as random_module
from ..array_ops import gather
from ..data import Dataset
from ..tensor import Tensor, Variable, convert_to_tensor

__all__ = [
    "EpochIterator",
    "pack_x_y_sample_weight",
    "train_validation_split",
    "unpack_x_y_sample_weight",
]


def unpack_x_y_sample_weight(data):
    """(x, y, sample_weight) from what a step receives: a tuple (x,), (x, y) or
    (x, y, sample_weight), or x alone."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data
    raise ValueError(
        "Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, "
        f"found: {data}"
    )


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """What a step receives: x alone (or (x,) when x is a tuple or list), (x, y), or
    (x, y, sample_weight)."""
    if y is None:
        return (x,) if isinstance(x, (tuple, list)) else x
    return (x, y) if sample_weight is None else (x, y, sample_weight)


def _is_dataset(x):
    return isinstance(x, Dataset)


def _as_array(name, data):
    """numpy data as Keras' data adapter takes it: a tensor's values, floats as float32."""
    if isinstance(data, (Tensor, Variable)):
        data = convert_to_tensor(data).numpy()
    if not isinstance(data, np.ndarray):
        raise ValueError(f"Unrecognized data type: {name}={data} (of type {type(data)})")
    return data.astype(np.float32) if data.dtype.kind == "f" else data


def _arrays(name, data):
    return nest.map_structure(lambda a: _as_array(name, a), data)


def train_validation_split(arrays, validation_split):
    """(train, validation): the last `validation_split` of the examples held out, in order."""
    bad = [type(a) for a in nest.flatten(arrays) if a is not None and _is_dataset(a)]
    if bad:
        raise ValueError(
            "Argument `validation_split` is only supported for tensors or NumPy arrays."
            f"Found incompatible type in the input: {bad}"
        )
    flat = [a for a in nest.flatten(arrays) if a is not None]
    n = int(flat[0].shape[0])
    split_at = int(math.floor(n * (1.0 - validation_split)))
    if split_at == 0 or split_at == n:
        raise ValueError(
            f"Training data contains {n} samples, which is not sufficient to split it into a "
            "validation and training set as specified by "
            f"`validation_split={validation_split}`. Either provide more data, or a different "
            "value for the `validation_split` argument."
        )

    def part(start, end):
        return tuple(
            None if a is None else nest.map_structure(lambda t: t[start:end], a) for a in arrays
        )

    return part(0, split_at), part(split_at, n)


def class_weight_to_sample_weights(y, class_weight):
    """Each example's weight: the weight of its class (the index of y's largest value, or y
    itself rounded), 1.0 for a class not in `class_weight`."""
    y = np.asarray(y)
    if y.ndim > 1:
        y = np.argmax(y, axis=-1) if y.shape[-1] != 1 else np.squeeze(y, axis=-1)
    classes = np.round(y).astype("int32")
    return np.array([class_weight.get(int(c), 1.0) for c in classes], dtype=np.float32)


class _Arrays:
    """Arrays cut in batches, shuffled or not: one pass is one list of batches."""

    def __init__(self, x, y, sample_weight, batch_size, steps, shuffle, class_weight):
        x, y = _arrays("x", x), None if y is None else _arrays("y", y)
        if sample_weight is not None:
            if class_weight is not None:
                raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
            sample_weight = _arrays("sample_weight", sample_weight)
        if class_weight is not None:
            sample_weight = class_weight_to_sample_weights(y, class_weight)
        self.inputs = (x, y, sample_weight)
        sizes = [
            [int(a.shape[0]) for a in nest.flatten(part)]
            for part in self.inputs
            if part is not None
        ]
        if len({n for part in sizes for n in part}) > 1:
            raise ValueError(
                "Data cardinality is ambiguous. Make sure all arrays contain the same number of "
                "samples."
                + "".join(
                    f"'{label}' sizes: {', '.join(map(str, part))}\n"
                    for label, part in zip(["x", "y", "sample_weight"], sizes)
                )
            )
        self.n = n = sizes[0][0]
        if not batch_size:  # (None or 0: 32, or what makes `steps` batches)
            batch_size = int(math.ceil(n / steps)) if steps else 32
        if isinstance(batch_size, float):
            raise TypeError(
                "Expected int32 passed to parameter 'size' of op 'Slice', got a float "
                f"batch_size={batch_size}"
            )
        if batch_size < 0:
            raise ValueError(
                f"Invalid value in tensor used for shape: {n // batch_size} "
                f"(batch_size={batch_size} must be positive)"
            )
        self.batch_size, self.shuffle = batch_size, shuffle
        self.num_batches = int(math.ceil(n / batch_size))
        # (Keras' tf.data pipeline gives batches of an unknown size when the last is partial)
        self.any_batch_size = n % batch_size != 0

    def one_pass(self):
        """The batches of one pass over the data, as tensors: in order, in the order of a
        permutation (shuffle=True), or each batch's examples shuffled (shuffle="batch")."""
        kernel = _keras_shuffle_kernel() if self.shuffle else None
        order = np.arange(self.n, dtype=np.int64)
        if self.shuffle and self.shuffle != "batch":
            order = _shuffled(kernel, order)
        batches = []
        for start in range(0, self.n, self.batch_size):
            rows = order[start : start + self.batch_size]
            if self.shuffle == "batch":
                rows = _shuffled(kernel, rows)
            if not self.shuffle:
                cut = slice(start, start + self.batch_size)
                take = lambda a, cut=cut: convert_to_tensor(a[cut])  # noqa: E731
            else:
                rows = convert_to_tensor(rows)
                take = lambda a, rows=rows: gather(convert_to_tensor(a), rows)  # noqa: E731
            parts = [None if a is None else nest.map_structure(take, a) for a in self.inputs]
            batches.append(pack_x_y_sample_weight(*parts))
        return batches


def _keras_shuffle_kernel():
    """The Philox stream of the RandomShuffle in Keras 3's array pipeline: seeds (global
    seed, 0) (its op seed in the pipeline's graph), a new kernel for each pass (each epoch
    of each fit starts it again); random without a global seed. shuffle=True draws one
    permutation of all the examples from it, shuffle="batch" one per batch, in turn."""
    if random_module._global["seed"] is None:
        return philox.Stream.from_seeds(secrets.randbits(31), secrets.randbits(31))
    return philox.Stream.from_seeds(*random_module.get_seed(0))


def _shuffled(kernel, rows):
    """`rows` in the order TF's RandomShuffle gives them, its words taken from `kernel`."""
    n = len(rows)
    if n <= 1:
        return rows
    return rows[philox.shuffle_permutation(kernel.reserve((n - 1 + 3) // 4), n)]


class _DatasetData:
    """A tf.data.Dataset: a pass is a new iterator over it; each element is a batch."""

    def __init__(self, dataset, y, sample_weight, shuffle, class_weight):
        for name, arg, what in (
            ("y", y, "the targets"),
            ("sample_weights", sample_weight, "the sample weights"),
        ):
            if arg is not None:
                raise ValueError(
                    f"When providing `x` as a tf.data.Dataset, `{name}` should not be passed. "
                    f"Instead, {what} should be included as part of the tf.data.Dataset."
                )
        if shuffle:
            warnings.warn(
                "`shuffle=True` was passed, but will be ignored since the data `x` was provided "
                "as a tf.data.Dataset. The Dataset is expected to already be shuffled (via "
                "`.shuffle(buffer_size)`).",
                stacklevel=4,
            )
        self.dataset, self.class_weight = dataset, class_weight
        count = int(dataset.cardinality())
        self.num_batches = count if count >= 0 else None
        specs = nest.flatten(dataset.element_spec)  # (batch(n) without drop_remainder: None)
        self.any_batch_size = any(spec.shape.rank and spec.shape[0] is None for spec in specs)

    def one_pass(self):
        """A new iterator over the dataset, made now (a reshuffling dataset draws its seeds
        now: Keras makes the next epoch's iterator as soon as a pass ends)."""
        elements = iter(self.dataset)
        if self.class_weight is None:
            return elements
        return (self._weighted(data) for data in elements)

    def _weighted(self, data):
        """(x, y, the weight of each example's class), as Keras maps a dataset: the weights
        in a table indexed by the class (argmax of a one-hot y, else y rounded), 1.0 for a
        class not given; a class past the table fails as TF's gather does."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        if sample_weight is not None:
            raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
        table = [self.class_weight.get(c, 1.0) for c in range(max(self.class_weight) + 1)]
        labels = y.numpy()
        if labels.ndim >= 2:
            if labels.shape[-1] > 1:
                labels = np.argmax(labels, axis=-1)
            else:
                labels = np.squeeze(labels, axis=-1)
        classes = convert_to_tensor(np.round(labels).astype(np.int32))
        return x, y, gather(convert_to_tensor(np.array(table, np.float32)), classes)


class EpochIterator:
    """`enumerate_epoch()` walks one epoch's steps (Keras 3's EpochIterator)."""

    def __init__(
        self,
        x,
        y=None,
        sample_weight=None,
        batch_size=None,
        steps_per_epoch=None,
        shuffle=False,
        class_weight=None,
    ):
        self.steps_per_epoch = steps_per_epoch
        if _is_dataset(x):
            self.data = _DatasetData(x, y, sample_weight, shuffle, class_weight)
        else:
            self.data = _Arrays(
                x, y, sample_weight, batch_size, steps_per_epoch, shuffle, class_weight
            )
        self._num_batches = self.data.num_batches
        self._current, self._steps_seen = None, 0

    @property
    def num_batches(self):
        return self.steps_per_epoch or self._num_batches

    @property
    def any_batch_size(self):
        """Whether the steps see batches of an unknown size (None), as tf.data gives them."""
        return self.data.any_batch_size

    def reset(self):
        self._current, self._steps_seen = None, 0

    def _new_pass(self):
        self._current, self._steps_seen = iter(self.data.one_pass()), 0

    def enumerate_epoch(self, steps_per_execution=1):
        """(first step, last step, batches) for each execution of one epoch: up to
        `steps_per_execution` batches each (the last step is first + steps_per_execution - 1
        even when the data ends sooner, as in Keras)."""
        per = steps_per_execution
        steps = self.steps_per_epoch or self._num_batches or -1
        if steps < 0:  # a dataset of unknown length: until it ends
            self._new_pass()
            step = 0
            while True:
                batches = self._take(per)
                if not batches:
                    break
                self._steps_seen = step + per
                yield step, step + per - 1, batches
                step += per
            self._num_batches = self._num_batches or step
            _interrupted_warning()  # (Keras learns the length so, and says so)
            self._current = None
            return
        if self._current is None or self.steps_per_epoch is None:
            self._new_pass()
        for step in range(0, steps, per):
            if self._num_batches and self._steps_seen >= self._num_batches:
                if self.steps_per_epoch:
                    _interrupted_warning()
                break
            self._steps_seen += per
            batches = self._take(per)
            if not batches:  # (a dataset shorter than it said)
                _interrupted_warning()
                self._current = None
                return
            yield step, step + per - 1, batches
        if self._num_batches and self._steps_seen >= self._num_batches:
            self._new_pass()

    def _take(self, n):
        batches = []
        for _ in range(n):
            batch = next(self._current, None)
            if batch is None:
                break
            batches.append(batch)
        return batches


def _interrupted_warning():
    warnings.warn(
        "Your input ran out of data; interrupting training. Make sure that your dataset or "
        "generator can generate at least `steps_per_epoch * epochs` batches. You may need to "
        "use the `.repeat()` function when building your dataset.",
        stacklevel=2,  # (where the walk ran out, as Keras points into its iterator)
    )
