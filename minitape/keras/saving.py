"""`model.save_weights(path)` and `model.load_weights(path)`, with Keras 3's rules for the
file's name (it must end in `.weights.h5`).

minitape writes its own files, not HDF5: a numpy `.npz` archive under the name given, so that
the course needs nothing it does not already install (Keras 3 would need h5py). minitape
cannot read the `.weights.h5` files Keras writes, and Keras cannot read minitape's. The
weights are stored in the order of `model.weights` and loaded into a model made the same way.
"""

import os

import numpy as np

__all__ = ["save_weights", "load_weights"]

_SUFFIX = ".weights.h5"


def save_weights(model, filepath, overwrite=True):
    """Write the values of `model.weights` to `filepath` (a name ending in `.weights.h5`)."""
    filepath = os.fspath(filepath)
    if not filepath.endswith(_SUFFIX):
        raise ValueError(f"The filename must end in `{_SUFFIX}`. Received: filepath={filepath}")
    if not overwrite and os.path.exists(filepath):
        answer = input(f"[WARNING] {filepath} already exists - overwrite? [y/n]")
        if answer.strip().lower() not in ("y", "yes"):
            return
    values = {f"{i}": w.numpy() for i, w in enumerate(model.weights)}
    paths = np.array([getattr(w, "path", w.name) for w in model.weights], dtype=str)
    with open(filepath, "wb") as f:
        np.savez(f, _minitape_paths=paths, **values)


def load_weights(model, filepath, skip_mismatch=False):
    """Assign the values `save_weights` wrote at `filepath` to `model.weights`, in order."""
    filepath = os.fspath(filepath)
    if not filepath.endswith((_SUFFIX, ".keras", ".h5")):
        raise ValueError(
            f"File format not supported: filepath={filepath}. Keras 3 only supports V3 "
            "`.keras` files, `.weights.h5` files, legacy H5 format files (`.h5` extension), "
            "or Orbax checkpoints."
        )
    if not os.path.exists(filepath):
        raise FileNotFoundError(
            2,
            f"Unable to synchronously open file (unable to open file: name = '{filepath}', "
            "errno = 2, error message = 'No such file or directory', flags = 0, o_flags = 0)",
        )
    try:
        with open(filepath, "rb") as f:
            saved = dict(np.load(f, allow_pickle=False))
        count = len(saved) - 1
        values = [saved[f"{i}"] for i in range(count)]
    except (ValueError, OSError, KeyError):
        raise ValueError(
            f"{filepath} was not written by minitape's save_weights: minitape reads only its "
            "own weight files (numpy archives), not the HDF5 files of Keras"
        ) from None
    weights = model.weights
    bad = [(w, v) for w, v in zip(weights, values) if tuple(np.shape(v)) != tuple(w.shape)]
    if (bad or len(values) != len(weights)) and not skip_mismatch:
        detail = (
            f"the file holds {len(values)} weights, the model has {len(weights)}"
            if len(values) != len(weights)
            else "The shape of the target variable and the shape of the target value in "
            f"`variable.assign(value)` must match. variable.shape={tuple(bad[0][0].shape)}, "
            f"Received: value.shape={tuple(np.shape(bad[0][1]))}"
        )
        raise ValueError(f"A total of {max(len(bad), 1)} objects could not be loaded. {detail}")
    for w, v in zip(weights, values):
        if tuple(np.shape(v)) == tuple(w.shape):
            w.assign(v)
