"""`tf.math`: element-wise math, reductions and comparisons (the same functions as the top level)."""
from .ops import (abs, add, ceil, cos, divide, divide_no_nan, equal, exp, floor,  # noqa: F401
                  floordiv, floormod, greater, greater_equal, is_finite, is_inf, is_nan, less, less_equal, log, log1p,
                  logical_and, logical_not, logical_or, logical_xor, maximum, minimum, multiply,
                  negative, not_equal, pow, reduce_all, reduce_any, reduce_max, reduce_mean,
                  reduce_min, reduce_sum, round, sigmoid, sign, sin, softplus, sqrt, square,
                  subtract, tanh, truediv)
from .array_ops import argmax, argmin  # noqa: F401
from .nn_ops import erf, log_sigmoid, log_softmax, reduce_logsumexp, softmax  # noqa: F401
