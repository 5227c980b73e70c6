"""The differential fuzzer's calls: malformed and edge-case arguments for minitape's public
functions and methods, plus scripted misuse of tapes, optimizers, layers and losses.

Each call is data, `[function, [arg, ...], {keyword: arg}]`, whose args name values of `POOL`
(built afresh for each call, so no call sees another's variables). `generate()` makes the list
from a fixed seed; `record.py` runs it under TensorFlow 2.21 and stores each call with TF's
outcome in `record.json`; `test_fuzz.py` replays the stored calls against minitape. Imports
neither TensorFlow nor minitape: both are handed in as `tf`.
"""

import hashlib
import math
import random

import numpy as np

__all__ = ["POOL", "SCRIPTS", "generate", "run", "outcome", "call_id"]


def _ragged(tf):
    return [[1.0, 2.0], [3.0]]


def _selfref(tf):
    x = [1.0]
    x.append(x)
    return x


# Argument values, by name: each is made anew for every call.
POOL = {
    "None": lambda tf: None,
    "str": lambda tf: "abc",
    "str_0": lambda tf: "0",
    "bytes": lambda tf: b"xy",
    "True": lambda tf: True,
    "0": lambda tf: 0,
    "1": lambda tf: 1,
    "2": lambda tf: 2,
    "3": lambda tf: 3,
    "-1": lambda tf: -1,
    "-2": lambda tf: -2,
    "5": lambda tf: 5,
    "2**31": lambda tf: 2**31,
    "2**70": lambda tf: 2**70,
    "-2**70": lambda tf: -(2**70),
    "0.0": lambda tf: 0.0,
    "1.5": lambda tf: 1.5,
    "2.7": lambda tf: 2.7,
    "-0.5": lambda tf: -0.5,
    "inf": lambda tf: math.inf,
    "nan": lambda tf: math.nan,
    "1e300": lambda tf: 1e300,
    "complex": lambda tf: 1 + 2j,
    "[]": lambda tf: [],
    "[[]]": lambda tf: [[]],
    "[0]": lambda tf: [0],
    "[0,0]": lambda tf: [0, 0],
    "[1,0]": lambda tf: [1, 0],
    "[0.5]": lambda tf: [0.5],
    "[2.7,1]": lambda tf: [2.7, 1],
    "[2,3]": lambda tf: [2, 3],
    "[3,2]": lambda tf: [3, 2],
    "[-1]": lambda tf: [-1],
    "[2,-1]": lambda tf: [2, -1],
    "[1,'a']": lambda tf: [1, "a"],
    "[1.0,None]": lambda tf: [1.0, None],
    "[None]": lambda tf: [None],
    "[True,1]": lambda tf: [True, 1],
    "[1.0,2.0,3.0]": lambda tf: [1.0, 2.0, 3.0],
    "[1,2,3]": lambda tf: [1, 2, 3],
    "[[1.,2.,3.],[4.,5.,6.]]": lambda tf: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
    "ragged": _ragged,
    "selfref": _selfref,
    "(2,3)": lambda tf: (2, 3),
    "(1,'a')": lambda tf: (1, "a"),
    "{}": lambda tf: {},
    "dict": lambda tf: {"a": 1.0},
    "np_str": lambda tf: np.array(["a", "b", "c"]),
    "np_obj": lambda tf: np.array([1, "a", None], dtype=object),
    "np_c128": lambda tf: np.array([1 + 1j, 2.0, 3.0]),
    "np_u8": lambda tf: np.array([1, 2, 250], dtype=np.uint8),
    "np_f16": lambda tf: np.array([1.5, -2.0, 3.0], dtype=np.float16),
    "np_f64": lambda tf: np.array([0.5, -1.0, 2.0]),
    "np_i64": lambda tf: np.array([1, 0, 2], dtype=np.int64),
    "np_bool": lambda tf: np.array([True, False, True]),
    "np_f32_2x3": lambda tf: np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5,
    "np_int64_scalar": lambda tf: np.int64(3),
    "np_float64_scalar": lambda tf: np.float64(2.5),
    "f32_0d": lambda tf: tf.constant(1.5),
    "f32_3": lambda tf: tf.constant([0.5, -1.0, 2.0]),
    "f32_2x3": lambda tf: tf.constant([[1.0, -2.0, 3.0], [-4.0, 5.0, 0.25]]),
    "f32_2x3x1": lambda tf: tf.constant([[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]]]),
    "f32_0x3": lambda tf: tf.zeros([0, 3]),
    "f32_nan": lambda tf: tf.constant([math.nan, math.inf, -1.0]),
    "f64_3": lambda tf: tf.constant([0.5, -1.0, 2.0], dtype=tf.float64),
    "f16_3": lambda tf: tf.constant([0.5, -1.0, 2.0], dtype=tf.float16),
    "i32_0d": lambda tf: tf.constant(2),
    "i32_3": lambda tf: tf.constant([1, 0, 2]),
    "i32_2x3": lambda tf: tf.constant([[1, 2, 3], [4, 5, 6]]),
    "i64_3": lambda tf: tf.constant([1, 0, 2], dtype=tf.int64),
    "i64_0d": lambda tf: tf.constant(1, dtype=tf.int64),
    "u8_3": lambda tf: tf.constant([1, 0, 250], dtype=tf.uint8),
    "i8_3": lambda tf: tf.constant([1, 0, -3], dtype=tf.int8),
    "bool_0d": lambda tf: tf.constant(True),
    "bool_3": lambda tf: tf.constant([True, False, True]),
    "string_0d": lambda tf: tf.constant("abc"),
    "string_2": lambda tf: tf.constant(["ab", "c"]),
    "var_f32_3": lambda tf: tf.Variable([0.5, -1.0, 2.0]),
    "var_f32_0d": lambda tf: tf.Variable(1.5),
    "var_i32_3": lambda tf: tf.Variable([1, 0, 2]),
    "var_f64_2x3": lambda tf: tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=tf.float64),
    "var_str": lambda tf: tf.Variable("abc"),
    "tf.float32": lambda tf: tf.float32,
    "tf.float64": lambda tf: tf.float64,
    "tf.int32": lambda tf: tf.int32,
    "tf.int64": lambda tf: tf.int64,
    "tf.bool": lambda tf: tf.bool,
    "tf.string": lambda tf: tf.string,
    "tf.uint8": lambda tf: tf.uint8,
    "'float32'": lambda tf: "float32",
    "'float'": lambda tf: "float",
    "float": lambda tf: float,
    "int": lambda tf: int,
    "np.float32": lambda tf: np.float32,
    "np.dtype('<U3')": lambda tf: np.dtype("<U3"),
    "lambda": lambda tf: lambda *a, **k: 1.0,
}

# What a call's outcome needs no values for: random draws.
RANDOM = ("random.", "keras.initializers.", "keras.layers.Dense", "keras.Sequential")

_T = "f32_2x3"
# function -> its valid base call: positional args, keyword args (names in POOL)
FUNCS = {
    # creation and conversion
    "constant": (["[1.0,2.0,3.0]"], {}),
    "convert_to_tensor": (["[1.0,2.0,3.0]"], {}),
    "Variable": (["[1.0,2.0,3.0]"], {}),
    "zeros": (["[2,3]"], {}),
    "ones": (["[2,3]"], {}),
    "zeros_like": ([_T], {}),
    "ones_like": ([_T], {}),
    "fill": (["[2,3]", "1.5"], {}),
    "eye": (["2"], {}),
    "linspace": (["0.0", "1.5", "5"], {}),
    "range": (["5"], {}),
    "cast": ([_T, "tf.int32"], {}),
    "shape": ([_T], {}),
    "size": ([_T], {}),
    "rank": ([_T], {}),
    "as_dtype": (["tf.float32"], {}),
    "identity": ([_T], {}),
    "stop_gradient": ([_T], {}),
    "is_tensor": ([_T], {}),
    "get_static_value": ([_T], {}),
    # arithmetic
    "add": ([_T, "1.5"], {}),
    "subtract": ([_T, "1.5"], {}),
    "multiply": ([_T, "1.5"], {}),
    "divide": ([_T, "1.5"], {}),
    "truediv": (["i32_3", "i32_3"], {}),
    "math.divide_no_nan": ([_T, "1.5"], {}),
    "math.floordiv": (["i32_3", "2"], {}),
    "math.floormod": (["i32_3", "2"], {}),
    "pow": ([_T, "2"], {}),
    "maximum": ([_T, "0.0"], {}),
    "minimum": ([_T, "0.0"], {}),
    "equal": ([_T, "1.5"], {}),
    "not_equal": ([_T, "1.5"], {}),
    "less": ([_T, "1.5"], {}),
    "greater_equal": ([_T, "1.5"], {}),
    "logical_and": (["bool_3", "bool_3"], {}),
    "logical_or": (["bool_3", "bool_3"], {}),
    "math.logical_xor": (["bool_3", "bool_3"], {}),
    "logical_not": (["bool_3"], {}),
    "negative": ([_T], {}),
    "square": ([_T], {}),
    "sqrt": ([_T], {}),
    "exp": ([_T], {}),
    "math.log": ([_T], {}),
    "math.log1p": ([_T], {}),
    "sin": ([_T], {}),
    "cos": ([_T], {}),
    "tanh": ([_T], {}),
    "sigmoid": ([_T], {}),
    "nn.relu": ([_T], {}),
    "nn.elu": ([_T], {}),
    "math.softplus": ([_T], {}),
    "abs": ([_T], {}),
    "sign": ([_T], {}),
    "round": ([_T], {}),
    "floor": ([_T], {}),
    "math.ceil": ([_T], {}),
    "math.is_nan": ([_T], {}),
    "math.is_inf": ([_T], {}),
    "math.is_finite": ([_T], {}),
    "math.erf": ([_T], {}),
    "math.softmax": ([_T], {}),
    "math.log_sigmoid": ([_T], {}),
    "where": (["bool_3", "f32_3", "0.0"], {}),
    "clip_by_value": ([_T, "0.0", "1.5"], {}),
    "clip_by_norm": ([_T, "1.5"], {}),
    "clip_by_global_norm": (["[[1.0,2.0,3.0]]", "1.5"], {}),
    # shapes
    "matmul": ([_T, "np_f32_2x3"], {"transpose_b": "True"}),
    "transpose": ([_T], {"perm": "[1,0]"}),
    "reshape": ([_T, "[3,2]"], {}),
    "expand_dims": ([_T, "1"], {}),
    "squeeze": (["f32_2x3x1"], {"axis": "2"}),
    "broadcast_to": (["f32_3", "[2,3]"], {}),
    "concat": (["[[1.0,2.0,3.0]]", "0"], {}),
    "stack": (["[1.0,2.0,3.0]"], {"axis": "0"}),
    "unstack": ([_T], {"axis": "0"}),
    "tile": ([_T, "[2,3]"], {}),
    "repeat": ([_T, "2"], {"axis": "0"}),
    "split": ([_T, "3"], {"axis": "1"}),
    "gather": ([_T, "[1,0]"], {"axis": "0"}),
    "one_hot": (["i32_3", "3"], {}),
    "sort": ([_T], {"axis": "-1"}),
    "argsort": ([_T], {"axis": "-1"}),
    "einsum": (["'ij->ji'", _T], {}),
    # reductions
    "reduce_sum": ([_T], {"axis": "0"}),
    "reduce_mean": ([_T], {"axis": "0"}),
    "reduce_max": ([_T], {"axis": "0"}),
    "reduce_min": ([_T], {"axis": "0"}),
    "reduce_all": (["bool_3"], {"axis": "0"}),
    "reduce_any": (["bool_3"], {"axis": "0"}),
    "reduce_logsumexp": ([_T], {"axis": "0"}),
    "argmax": ([_T], {"axis": "0"}),
    "argmin": ([_T], {"axis": "0"}),
    "norm": ([_T], {"axis": "0"}),
    "linalg.global_norm": (["[[1.0,2.0,3.0]]"], {}),
    # nn
    "nn.softmax": ([_T], {}),
    "nn.log_softmax": ([_T], {}),
    "nn.relu6": ([_T], {}),
    "nn.leaky_relu": ([_T], {}),
    "nn.gelu": ([_T], {}),
    "nn.silu": ([_T], {}),
    "nn.selu": ([_T], {}),
    "nn.softsign": ([_T], {}),
    "nn.l2_loss": ([_T], {}),
    "nn.sigmoid_cross_entropy_with_logits": ([], {"labels": _T, "logits": _T}),
    "nn.softmax_cross_entropy_with_logits": ([], {"labels": _T, "logits": _T}),
    "nn.sparse_softmax_cross_entropy_with_logits": (
        [],
        {"labels": "i32_3", "logits": "np_f32_2x3"},
    ),
    "nn.embedding_lookup": ([_T, "[1,0]"], {}),
    # random (values not compared: only dtype and shape)
    "random.normal": (["[2,3]"], {}),
    "random.uniform": (["[2,3]"], {}),
    "random.shuffle": (["f32_3"], {}),
    "random.set_seed": (["1"], {}),
    # keras functions
    "keras.losses.mse": (["f32_3", "f32_3"], {}),
    "keras.losses.mae": (["f32_3", "f32_3"], {}),
    "keras.losses.binary_crossentropy": (["f32_3", "f32_3"], {}),
    "keras.losses.categorical_crossentropy": ([_T, _T], {}),
    "keras.activations.relu": ([_T], {}),
    "keras.activations.softmax": ([_T], {}),
    "keras.activations.get": (["'relu'"], {}),
    "keras.layers.Dense": (["3"], {}),
    "keras.optimizers.SGD": ([], {"learning_rate": "0.1"}),
    "keras.optimizers.Adam": ([], {"learning_rate": "0.1"}),
    "keras.losses.MeanSquaredError": ([], {}),
    "keras.losses.BinaryCrossentropy": ([], {"from_logits": "True"}),
    # methods of tensors and variables (the first arg is the object)
    "@__getitem__": ([_T, "0"], {}),
    "@__add__": ([_T, "1.5"], {}),
    "@__rmul__": ([_T, "1.5"], {}),
    "@__bool__": (["bool_0d"], {}),
    "@__len__": ([_T], {}),
    "@__int__": (["i32_0d"], {}),
    "@__float__": (["f32_0d"], {}),
    "@__index__": (["i32_0d"], {}),
    "@__iter__": ([_T], {}),
    "@numpy": ([_T], {}),
    "@__eq__": ([_T, "1.5"], {}),
    "@__matmul__": ([_T, "np_f32_2x3"], {}),
    "@assign": (["var_f32_3", "[1.0,2.0,3.0]"], {}),
    "@assign_add": (["var_f32_3", "[1.0,2.0,3.0]"], {}),
    "@assign_sub": (["var_f32_3", "[1.0,2.0,3.0]"], {}),
    # random, continued (last, so that the calls before them stay the same)
    "random.truncated_normal": (["[2,3]"], {}),
    "random.categorical": ([_T, "2"], {}),
    "random.stateless_normal": (["[2,3]", "[3,2]"], {}),
    "random.stateless_uniform": (["[2,3]", "[3,2]"], {}),
    "random.stateless_truncated_normal": (["[2,3]", "[3,2]"], {}),
    "keras.utils.set_random_seed": (["1"], {}),
    # tf.math's special functions, the array and nn ops beside them (last, as above)
    "math.acos": ([_T], {}),
    "math.acosh": ([_T], {}),
    "math.atanh": ([_T], {}),
    "math.expm1": ([_T], {}),
    "math.rsqrt": ([_T], {}),
    "math.reciprocal": ([_T], {}),
    "math.erfc": ([_T], {}),
    "math.lgamma": ([_T], {}),
    "math.digamma": ([_T], {}),
    "math.polygamma": (["1.0", _T], {}),
    "math.zeta": (["2.0", _T], {}),
    "math.atan2": ([_T, "1.5"], {}),
    "math.xlogy": ([_T, "1.5"], {}),
    "math.xdivy": ([_T, "1.5"], {}),
    "math.squared_difference": ([_T, "1.5"], {}),
    "math.reduce_euclidean_norm": ([_T], {"axis": "0"}),
    "math.reduce_variance": ([_T], {"axis": "0"}),
    "math.reduce_std": ([_T], {"axis": "0"}),
    "slice": ([_T, "[0,1]", "[1,2]"], {}),
    "pad": ([_T, "[[1,0],[0,1]]"], {}),
    "linalg.diag": (["f32_3"], {}),
    "linalg.diag_part": ([_T], {}),
    "linalg.trace": ([_T], {}),
    "nn.bias_add": ([_T, "f32_3"], {}),
    "nn.moments": ([_T, "[0]"], {}),
    "debugging.Assert": (["True", "[1.0,2.0,3.0]"], {}),
}
POOL["'ij->ji'"] = lambda tf: "ij->ji"
POOL["'relu'"] = lambda tf: "relu"
POOL["1.0"] = lambda tf: 1.0

# keyword names worth fuzzing wherever a function takes them
KEYWORDS = (
    "axis",
    "dtype",
    "shape",
    "keepdims",
    "perm",
    "num",
    "delta",
    "output_type",
    "batch_dims",
    "out_type",
    "seed",
    "momentum",
    "depth",
    "activation",
)


def _resolve(tf, name):
    obj = tf
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def run(tf, call):
    """Run one call spec against `tf` (TensorFlow or minitape); returns the result or raises."""
    fn, args, kwargs = call
    if fn.startswith("script:"):
        return SCRIPTS[fn[7:]](tf)
    a = [_value(tf, n) for n in args]
    k = {key: _value(tf, n) for key, n in kwargs.items()}
    if fn.startswith("~"):
        return HARNESS[fn[1:]](tf, *a, **k)
    if fn.startswith("@"):
        obj, *rest = a
        result = getattr(obj, fn[1:])(*rest, **k)
        return list(result) if fn == "@__iter__" else result
    return _resolve(tf, fn)(*a, **k)


def _value(tf, name):
    return (POOL[name] if name in POOL else MORE[name])(tf)


def call_id(call):
    fn, args, kwargs = call
    inner = [*args, *(f"{k}={v}" for k, v in kwargs.items())]
    return f"{fn}({', '.join(inner)})"


def generate(seed=15):
    """The calls, deterministically: each function's base call, then each of its arguments
    (and each fuzzable keyword) replaced in turn by a sample of the pool."""
    rng = random.Random(seed)
    pool = sorted(POOL, key=str)
    calls = []
    for fn, (args, kwargs) in FUNCS.items():
        calls.append([fn, list(args), dict(kwargs)])
        slots = [("pos", i) for i in range(len(args))] + [("kw", k) for k in kwargs]
        slots += [("kw", k) for k in KEYWORDS if k not in kwargs and _takes(fn, k)]
        for kind, where in slots:
            for name in rng.sample(pool, 14 if kind == "pos" and where == 0 else 9):
                a, k = list(args), dict(kwargs)
                if kind == "pos":
                    a[where] = name
                else:
                    k[where] = name
                calls.append([fn, a, k])
    calls += [["script:" + name, [], {}] for name in SCRIPTS]
    calls += generate_more(POOL)
    seen, unique = set(), []
    for c in calls:
        if call_id(c) not in seen:
            seen.add(call_id(c))
            unique.append(c)
    return unique


# which of KEYWORDS each function takes (TF's signatures; kept by hand so that the generator
# needs neither library)
_TAKES = {
    "axis": {
        "reduce_sum",
        "reduce_mean",
        "reduce_max",
        "reduce_min",
        "reduce_all",
        "reduce_any",
        "reduce_logsumexp",
        "argmax",
        "argmin",
        "norm",
        "concat",
        "stack",
        "unstack",
        "squeeze",
        "sort",
        "argsort",
        "gather",
        "one_hot",
        "repeat",
        "split",
        "linspace",
        "nn.softmax",
        "nn.log_softmax",
        "math.softmax",
        "keras.activations.softmax",
        "keras.losses.categorical_crossentropy",
        "keras.losses.binary_crossentropy",
    },
    "dtype": {
        "constant",
        "convert_to_tensor",
        "Variable",
        "zeros",
        "ones",
        "zeros_like",
        "ones_like",
        "eye",
        "range",
        "one_hot",
        "random.normal",
        "random.uniform",
        "random.truncated_normal",
        "random.categorical",
        "random.stateless_normal",
        "random.stateless_uniform",
        "random.stateless_truncated_normal",
    },
    "shape": {"constant"},
    "keepdims": {
        "reduce_sum",
        "reduce_mean",
        "reduce_max",
        "norm",
        "math.reduce_euclidean_norm",
        "math.reduce_variance",
        "math.reduce_std",
    },
    "perm": {"transpose"},
    "num": {"unstack"},
    "delta": {"range"},
    "output_type": {"argmax", "argmin"},
    "batch_dims": {"gather"},
    "out_type": {"shape", "size"},
    "seed": {
        "random.normal",
        "random.uniform",
        "random.shuffle",
        "random.truncated_normal",
        "random.categorical",
    },
    "momentum": {"keras.optimizers.SGD"},
    "depth": set(),
    "activation": {"keras.layers.Dense"},
}


def _takes(fn, keyword):
    return fn in _TAKES.get(keyword, ())


# --- outcomes ---------------------------------------------------------------------------------
def _digest(arr):
    """A few numbers that pin an array's values down (rounded, so float noise does not count)."""
    arr = np.asarray(arr)
    if arr.dtype.kind == "O" or arr.dtype.kind in "SU":
        return hashlib.sha1(
            repr(
                [bytes(x) if isinstance(x, (bytes, np.bytes_)) else str(x) for x in arr.reshape(-1)]
            ).encode()
        ).hexdigest()[:10]
    flat = arr.reshape(-1)
    if flat.dtype.kind == "c":
        flat = np.concatenate([flat.real, flat.imag])
    flat = flat.astype(np.float64)
    head = [_num(v) for v in flat[:6]]
    return head if flat.size <= 6 else head + [_num(np.sum(flat[np.isfinite(flat)]))]


def _num(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return float(f"{v:.4g}")


def outcome(result, values=True):
    """A compact JSON description of a result: kinds, dtypes, shapes, a digest of values."""
    if result is None or isinstance(result, (bool, int, float, str, bytes)):
        if isinstance(result, float):
            return ["py", "float", _num(result)]
        if isinstance(result, bytes):
            return ["py", "bytes", result.decode(errors="replace")]
        return result if result is None else ["py", type(result).__name__, result]
    if type(result).__name__ == "TensorShape":  # (before tuples: minitape's is a tuple)
        return ["shape", None if result.rank is None else list(result)]
    if isinstance(result, (list, tuple)):
        if any(r is result for r in result):
            return [type(result).__name__, "holds itself"]
        return [type(result).__name__, [outcome(r, values) for r in result]]
    if isinstance(result, dict):
        return ["dict", {str(k): outcome(v, values) for k, v in sorted(result.items(), key=str)}]
    if isinstance(result, (np.ndarray, np.generic)):
        return [
            "ndarray",
            result.dtype.name,
            list(np.shape(result)),
            _digest(result) if values else None,
        ]
    cls = type(result).__name__
    if cls == "DType":
        return ["dtype", result.name]
    if hasattr(result, "numpy") and hasattr(result, "dtype") and hasattr(result, "shape"):
        kind = (
            "variable"
            if any(c.__name__.endswith("Variable") for c in type(result).__mro__)
            else "tensor"
        )
        value = np.asarray(result.numpy())
        return [kind, result.dtype.name, list(value.shape), _digest(value) if values else None]
    return ["object", cls]


def outcome_of(tf, call):
    """The outcome of running `call`: ["raises", class name] or ["returns", outcome]."""
    try:
        result = run(tf, call)
    except Exception as e:  # noqa: BLE001  (an exception is an outcome like any other)
        return ["raises", type(e).__name__]
    values = not call[0].startswith(RANDOM)
    try:
        return ["returns", outcome(result, values)]
    except Exception as e:  # noqa: BLE001
        return ["broken result", f"{type(e).__name__}: {e}"]


from .calls_more import HARNESS, MORE, generate_more  # noqa: E402
from .scripts import SCRIPTS  # noqa: E402
