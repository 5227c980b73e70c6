"""`tf.raw_ops`: the primitive ops themselves, beside the functions that call them.

Each is a minitape `Op` (its `name` is TF's name for it, its `forward` the numpy code, its
`vjps` the rules of `grads.py`), under the name the package gives it: `raw_ops.Mul`,
`raw_ops.MatMul`, `raw_ops.ReluGrad`, ... They are not called directly as TF's raw ops are
(`tf.raw_ops.Mul(x=..., y=...)`): `minitape.tape.apply(raw_ops.Mul, x, y)` runs one and
records it, which is what `tf.multiply` does after checking its arguments.
"""

from . import array_ops, debugging, linalg_ops, nn_ops, ops, random, special_math_ops
from .tape import Op

__all__ = sorted(
    {
        name
        for module in (ops, array_ops, nn_ops, debugging, random, special_math_ops, linalg_ops)
        for name, value in vars(module).items()
        if isinstance(value, Op) and not name.startswith("_")
    }
)
for _module in (ops, array_ops, nn_ops, debugging, random, special_math_ops, linalg_ops):
    for _name in __all__:
        if isinstance(getattr(_module, _name, None), Op):
            globals()[_name] = getattr(_module, _name)
del _module, _name
