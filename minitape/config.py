"""`tf.config`: how `minitape.function` runs (eagerly, for debugging, or replaying graphs)."""

from .function import functions_run_eagerly, run_functions_eagerly  # noqa: F401
