"""`keras.backend.clear_session` (also `keras.utils.clear_session`): Keras' global state reset,
so that the next layers are named from scratch ('dense', not 'dense_3'), as in Keras 3."""

import gc

from . import base_layer

__all__ = ["clear_session"]


def clear_session(free_memory=True):
    """Forget the names given so far to layers, metrics and losses."""
    base_layer._name_counts.clear()
    if free_memory:
        gc.collect()
