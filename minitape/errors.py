"""TensorFlow's runtime error classes (`tf.errors.*`), raised where TF raises them.

TF reports a failed op (mismatched shapes, mixed dtypes) as `InvalidArgumentError`, a
subclass of `OpError`; Python-level misuse (a wrong argument type, a bad option) is
`TypeError` / `ValueError`, and misuse of a tape's life cycle is `RuntimeError`.
"""

__all__ = [
    "OpError",
    "InvalidArgumentError",
    "UnimplementedError",
    "NotFoundError",
    "OutOfRangeError",
    "AbortedError",
    "OperatorNotAllowedInGraphError",
    "InaccessibleTensorError",
]


class OpError(Exception):
    """An op failed while running. `message` holds TF's text, `op` the op's name."""

    def __init__(self, node_def=None, op=None, message=""):
        super().__init__(message)
        self.message = message
        self.op = op
        self.node_def = node_def

    def __str__(self):
        return self.message


class InvalidArgumentError(OpError):
    """An op received an argument it cannot use: incompatible shapes or dtypes."""


class UnimplementedError(OpError):
    """An op has no implementation for these arguments."""


class NotFoundError(OpError):
    """TF knows the op but has no kernel for these dtypes on this device (round of a complex)."""


class AbortedError(OpError):
    """An op gave up (TF's softmax of a scalar: "Input dims must be <= 5 and >=1")."""


def invalid(op_name, text):
    """Build the error the way TF words it: '<text> [Op:<name>]'."""
    return InvalidArgumentError(None, op_name, f"{text} [Op:{op_name}]")


class OutOfRangeError(OpError):
    """An op read past the end of its input (an empty sequence to fold or scan)."""


class OperatorNotAllowedInGraphError(TypeError):
    """Python asked for a traced tensor's truth inside a function traced without AutoGraph
    (`tf.function(f, autograph=False)`): TF's graph tensors have no value to give."""


class InaccessibleTensorError(ValueError):
    """A tensor made inside a branch or a loop body of a traced function was used outside it
    (kept in a Python list, say): in TF's graph it exists only inside that branch's graph."""
