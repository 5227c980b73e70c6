"""`tf.train.Checkpoint`: save the variables of models, optimizers and variables to a file
and put them back, and `tf.train.latest_checkpoint`.

    ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
    path = ckpt.save("ckpts/ckpt")       # 'ckpts/ckpt-1', then 'ckpts/ckpt-2', ...
    ckpt.restore(path)                   # the values of that moment, back in place

minitape writes its own files, not TF's: a numpy `.npz` archive at `<path>.index` (and,
for `save`, the `checkpoint` file that names the latest one, as TF's does). minitape cannot
read TF's checkpoints, and TF cannot read minitape's. Each object is stored as its list of
variables in order (a model's `variables`, an optimizer's `variables`: its step count,
learning rate and slots), and restored into an object made the same way. An optimizer's
slots that do not exist yet when restoring are left alone, as in Keras 3 on TF.
"""

import os

import numpy as np

from .errors import NotFoundError
from .tensor import Variable, as_seen_by_tapes, held_variable

__all__ = ["Checkpoint", "CheckpointLoadStatus", "latest_checkpoint"]

_STATE_FILE = "checkpoint"  # (the file in a checkpoints' folder naming the latest, as TF's)


def _variables_of(name, obj):
    """The variables an object contributes to a checkpoint, in a fixed order."""
    if isinstance(obj, Variable) or held_variable(obj) is not None:
        return [as_seen_by_tapes(obj)]
    if isinstance(obj, Checkpoint):
        return [v for key, v in obj._variables()]
    variables = getattr(obj, "variables", None)
    if variables is None or isinstance(obj, (int, float, str, np.ndarray)):
        raise ValueError(
            f"`Checkpoint` was expecting {name} to be a trackable object (an object derived "
            f"from `Trackable`), got {obj}. If you believe this object should be trackable "
            "(i.e. it is part of the TensorFlow Python API and manages state), please open "
            "an issue."
        )
    return [as_seen_by_tapes(v) for v in (variables() if callable(variables) else variables)]


class CheckpointLoadStatus:
    """What `restore` and `read` return: the checks TF offers on what was restored."""

    def __init__(self, unused, unmatched):
        self._unused, self._unmatched = unused, unmatched

    def assert_consumed(self):
        """Every value of the file was restored into a variable, and every variable got one."""
        if self._unused or self._unmatched:
            raise AssertionError(
                f"Unresolved object in checkpoint: values not restored {self._unused}, "
                f"variables not given a value {self._unmatched}"
            )
        return self

    def assert_existing_objects_matched(self):
        if self._unmatched:
            raise AssertionError(f"Variables not given a value: {self._unmatched}")
        return self

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        return None


class Checkpoint:
    """Groups objects to save and restore together: `Checkpoint(model=m, optimizer=opt)`."""

    def __init__(self, root=None, **kwargs):
        self._objects = dict(kwargs)
        if root is not None:
            self._objects["root"] = root
        for name, obj in self._objects.items():
            _variables_of(name, obj)  # (TF refuses what it cannot track when it is given)
        self._save_counter = None

    @property
    def save_counter(self):
        """How many times `save` was called (a variable, made by the first save)."""
        if self._save_counter is None:
            self._save_counter = Variable(0, trainable=False, dtype="int64", name="save_counter")
        return self._save_counter

    def _variables(self):
        return [
            (f"{name}/{i}", v)
            for name, obj in self._objects.items()
            for i, v in enumerate(_variables_of(name, obj))
        ]

    # -- writing ---------------------------------------------------------------------------
    def write(self, file_prefix, options=None):
        """Write the variables' values under `file_prefix`; returns `file_prefix`."""
        file_prefix = os.fspath(file_prefix)
        folder = os.path.dirname(file_prefix)
        if folder:
            os.makedirs(folder, exist_ok=True)
        values = {key: v.numpy() for key, v in self._variables()}
        if self._save_counter is not None:
            values["save_counter"] = self._save_counter.numpy()
        with open(file_prefix + ".index", "wb") as f:
            np.savez(f, **values)
        return file_prefix

    def save(self, file_prefix, options=None):
        """`write` to `<file_prefix>-<n>`, n counting the saves, and note it as the latest in
        the folder's `checkpoint` file; returns the path written."""
        self.save_counter.assign_add(1)
        path = self.write(f"{os.fspath(file_prefix)}-{int(self.save_counter.numpy())}")
        folder = os.path.dirname(path) or "."
        with open(os.path.join(folder, _STATE_FILE), "w") as f:
            f.write(f'model_checkpoint_path: "{os.path.basename(path)}"\n')
        return path

    # -- reading ---------------------------------------------------------------------------
    def read(self, save_path, options=None):
        """Put the values written at `save_path` back into the variables."""
        save_path = os.fspath(save_path)
        try:
            with open(save_path + ".index", "rb") as f:
                saved = dict(np.load(f, allow_pickle=False))
        except FileNotFoundError:
            raise NotFoundError(
                None,
                None,
                f"Error when restoring from checkpoint or SavedModel at {save_path}: "
                "Unsuccessful TensorSliceReader constructor: Failed to find any matching "
                f"files for {save_path}\nPlease double-check that the path is correct. You "
                "may be missing the checkpoint suffix (e.g. the '-1' in 'path/to/ckpt-1').",
            ) from None
        except (ValueError, OSError):
            raise ValueError(
                f"{save_path}.index was not written by minitape: minitape reads only its own "
                "checkpoints (numpy archives), not TensorFlow's"
            ) from None
        unmatched = []
        for key, v in self._variables():
            if key not in saved:
                unmatched.append(key)
                continue
            value = saved.pop(key)
            self._check_shape(value, v)
            v.assign(value)
        self._restore_later(saved)
        counter = saved.pop("save_counter", None)
        if counter is not None:
            self.save_counter.assign(counter)
        return CheckpointLoadStatus(sorted(saved), unmatched)

    restore = read

    def _restore_later(self, saved):
        """Values for variables an object has not made yet (an optimizer's slots, made by its
        first step) are kept by the object and given to each variable as it is made."""
        for name, obj in self._objects.items():
            later = getattr(obj, "_restore_later", None)
            if later is None:
                continue
            prefix = f"{name}/"
            for key in [k for k in saved if k.startswith(prefix)]:
                later[int(key[len(prefix) :])] = saved.pop(key)

    @staticmethod
    def _check_shape(value, v):
        if value.shape != tuple(v.shape):
            raise ValueError(
                f"Received incompatible tensor with shape {value.shape} when attempting to "
                f"restore variable with shape {tuple(v.shape)} and name {v.name}."
            )


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The path of the latest `save` in `checkpoint_dir`, or None if there is none."""
    state = os.path.join(os.fspath(checkpoint_dir), latest_filename or _STATE_FILE)
    if not os.path.exists(state):
        return None
    with open(state) as f:
        for line in f:
            if line.startswith("model_checkpoint_path:"):
                name = line.split(":", 1)[1].strip().strip('"')
                return os.path.join(os.fspath(checkpoint_dir), name)
    return None
