"""The operations, gathered: every public op function (`tf.add`, `tf.reshape`, `tf.zeros`, ...)
and every primitive `Op`, from the files that define them, and Python's operators on tensors
and variables (`+`, `*`, `@`, `x[i]`, ...), which are these functions.

Where each lives, along TF's own lines:

- `gen_ops.py`: the primitives, each an `Op` (a name as TF calls it and a numpy forward);
- `op_args.py`: what the ops accept (their arguments converted and checked, TF's errors);
- `math_ops.py`: arithmetic, casts, comparisons and logic, matmul, reductions;
- `array_ops.py`: shapes (reshape, transpose, concat, stack, indexing, ...) and the families a
  classifier needs (gather, one_hot, tile, split, sort, einsum, ...);
- `creation_ops.py`: zeros, ones, fill, linspace, range, eye, shape, size, rank;
- `linalg_ops.py`: norm.

Each public function checks and converts its arguments, then calls `tape.apply`, which runs
the primitive's forward and records it on any tape that watches an input. The gradient rules
of the primitives live in one table, in `grads.py`.
"""

from .array_ops import *  # noqa: F403
from .array_ops import getitem
from .creation_ops import *  # noqa: F403
from .gen_ops import *  # noqa: F403
from .gen_ops import Op
from .linalg_ops import norm  # noqa: F401
from .math_ops import *  # noqa: F403
from .math_ops import (
    _equality,
    _mul_operator,
    _rev,
    abs,
    add,
    divide,
    equal,
    floordiv,
    floormod,
    greater,
    greater_equal,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    matmul,
    multiply,
    negative,
    not_equal,
    pow,
    subtract,
)
from .tensor import Tensor, Variable, _TensorLike

for _name, _fn in {
    "__add__": add,
    "__radd__": _rev(add, "AddV2"),
    "__sub__": subtract,
    "__rsub__": _rev(subtract, "Sub"),
    "__mul__": _mul_operator,
    "__rmul__": _rev(multiply, "Mul"),
    "__truediv__": divide,
    "__rtruediv__": _rev(divide, "RealDiv"),
    "__floordiv__": floordiv,
    "__rfloordiv__": _rev(floordiv, "FloorDiv"),
    "__mod__": floormod,
    "__rmod__": _rev(floormod, "FloorMod"),
    "__pow__": pow,
    "__rpow__": _rev(pow, "Pow"),
    "__matmul__": matmul,
    "__rmatmul__": _rev(matmul, "MatMul"),
    "__neg__": negative,
    "__abs__": abs,
    "__lt__": less,
    "__le__": less_equal,
    "__gt__": greater,
    "__ge__": greater_equal,
    "__eq__": _equality(equal, False),
    "__ne__": _equality(not_equal, True),
    "__getitem__": getitem,
    "__and__": logical_and,
    "__rand__": _rev(logical_and, "LogicalAnd"),
    "__or__": logical_or,
    "__ror__": _rev(logical_or, "LogicalOr"),
    "__xor__": logical_xor,
    "__rxor__": _rev(logical_xor, "LogicalXor"),
    "__invert__": logical_not,
}.items():
    setattr(_TensorLike, _name, _fn)

Tensor.__hash__ = Variable.__hash__ = _TensorLike.__hash__

# The public functions (the Op objects themselves are in `minitape.raw_ops`, as TF keeps its
# ops in `tf.raw_ops`: the top level holds functions only).
__all__ = [
    n
    for n in dir()
    if not n.startswith("_")
    and not isinstance(globals()[n], Op)
    and n
    not in {
        "np",
        "builtins",
        "math",
        "re",
        "apply",
        "Op",
        "STATE",
        "invalid",
        "UnimplementedError",
        "operand",
        "read",
        "tf_type_name",
        "convert_to_tensor",
        "Tensor",
        "Variable",
        "TensorShape",
    }
]
