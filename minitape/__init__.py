"""minitape: TensorFlow's GradientTape, in a few hundred readable lines of numpy.

    import minitape as tf

    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x ** 2
    tape.gradient(y, x)          # <tf.Tensor: shape=(), dtype=float32, numpy=6.0>

Where things are: `tensor.py` (Tensor, Variable, dtype rules), `tape.py` (recording and the
backward walk), `ops.py` (the operations, gathered from `math_ops.py`, `array_ops.py`,
`creation_ops.py`, ...), `grads.py` (one table of gradient rules), `testing.py`
(`check_grads`, a finite-difference checker).
"""

from . import dtypes, errors, nest  # noqa: F401
from .dtypes import (
    DType,
    as_dtype,
    bool,
    double,
    float16,
    float32,
    float64,
    half,
    int8,  # noqa: F401
    int16,
    int32,
    int64,
    string,
    uint8,
)
from .tensor import Tensor, TensorShape, Variable, constant, convert_to_tensor, is_tensor  # noqa: F401
from .tape import GradientTape, UnconnectedGradients  # noqa: F401
from .indexed_slices import IndexedSlices  # noqa: F401
from .custom_gradient import custom_gradient  # noqa: F401
from .ops import *  # noqa: F401,F403
from .ops import abs, pow, range, round  # noqa: F401  (TF's names, shadowing builtins on purpose)
from .array_ops import (
    argmax,
    argmin,
    argsort,
    einsum,
    gather,
    one_hot,
    pad,
    repeat,
    sort,  # noqa: F401
    split,
    tile,
)
from .array_ops import slice_ as slice  # noqa: F401
from .nn_ops import reduce_logsumexp  # noqa: F401
from .special_math_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh  # noqa: F401
from . import jacobians  # noqa: F401  (gives GradientTape its jacobian and batch_jacobian)
from . import grads  # noqa: F401  (fills in every op's gradient rule)
from . import debugging, linalg, math, nn, random, raw_ops  # noqa: F401
from .clip_ops import clip_by_global_norm, clip_by_norm  # noqa: F401
from .debugging import Assert  # noqa: F401
from .control_flow import (
    case,
    cond,
    foldl,
    foldr,
    get_static_value,
    map_fn,
    scan,  # noqa: F401
    switch_case,
    vectorized_map,
    while_loop,
)
from .recompute import grad_pass_through, recompute_grad  # noqa: F401
from . import autodiff, test  # noqa: F401
from .function import TensorSpec, function, init_scope  # noqa: F401
from . import autograph  # noqa: F401
from .module import Module, name_scope  # noqa: F401
from . import config  # noqa: F401
from . import data, keras, train  # noqa: F401

newaxis = None  # (x[:, tf.newaxis] adds an axis, as numpy's None does)

__version__ = "0.1.0"
