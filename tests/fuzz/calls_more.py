"""The fuzzer's calls for the API families beyond array ops and math: control flow (`cond`,
`case`, `while_loop`, the folds, `scan`, `map_fn`, `vectorized_map`), forward mode
(`ForwardAccumulator`), `custom_gradient`/`recompute_grad`/`grad_pass_through`, the tape's
methods with bad arguments, `tf.function`, `check_numerics`, `linalg.matvec`, `nn.conv2d`,
`test.compute_gradient`, Keras models' weights, optimizers' `apply_gradients` and Keras loss
objects.

Same form as calls.py: a call is `[function, [arg, ...], {keyword: arg}]` whose args name values
of `MORE` (or of calls.POOL). A function whose name starts with `~` is a small harness below
(it builds a tape, a model or an optimizer and calls the method with the fuzzed arguments);
names starting with `$` stand for the harness's own tensors (its target, its source, the
upstream gradient), and a `Build` value is made from the harness's variables. Each slot of a
base call is replaced in turn by each of its own candidates (mistakes a learner makes with that
argument) and by a few values sampled from the general pool.
"""

import random

import numpy as np

__all__ = ["MORE", "HARNESS", "FUNCS_MORE", "generate_more"]


class Slot:
    """Stands for one of the harness's own tensors (`$y`, `$x`, `$dy`)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


class Build:
    """A value the harness makes from its own variables: `fn(v, w)`."""

    def __init__(self, fn):
        self.fn = fn


def fill(value, slots):
    """`value` with each Slot replaced by the harness's tensor of that name (in nests too)."""
    if isinstance(value, Slot):
        return slots[value.name]
    if isinstance(value, list):
        return [fill(v, slots) for v in value]
    if isinstance(value, tuple):
        return tuple(fill(v, slots) for v in value)
    if isinstance(value, dict):
        return {k: fill(v, slots) for k, v in value.items()}
    return value


def _f(make):
    """A pool entry whose value is a function made with `tf` (a callable argument)."""
    return lambda tf: make(tf)


def _raise(*a):
    raise ValueError("raised by the function itself")


def _inc(tf):
    def inc(*a):
        return a[0] + 1 if len(a) == 1 else [v + 1 for v in a]

    return inc


S = Slot
MORE = {
    # the base arguments of tf.slice and tf.pad (not sampled into other calls)
    "[0,1]": lambda tf: [0, 1],
    "[1,2]": lambda tf: [1, 2],
    "[[1,0],[0,1]]": lambda tf: [[1, 0], [0, 1]],
    # callables
    "fn:true": _f(lambda tf: lambda *a: True),
    "fn:tf_true": _f(lambda tf: lambda *a: tf.constant(True)),
    "fn:one": _f(lambda tf: lambda *a: tf.constant(1.0)),
    "fn:two": _f(lambda tf: lambda *a: tf.constant(2.0)),
    "fn:none": _f(lambda tf: lambda *a: None),
    "fn:str": _f(lambda tf: lambda *a: "a"),
    "fn:noarg": _f(lambda tf: lambda: tf.constant(1.0)),
    "fn:id": _f(lambda tf: lambda x: x),
    "fn:sq": _f(lambda tf: lambda x: x * x),
    "fn:add": _f(lambda tf: lambda a, x: a + x),
    "fn:pair": _f(lambda tf: lambda *a: (tf.constant(1.0), tf.constant(2.0))),
    "fn:list1": _f(lambda tf: lambda *a: [tf.constant(1.0)]),
    "fn:int": _f(lambda tf: lambda *a: tf.constant(1)),
    "fn:f64": _f(lambda tf: lambda *a: tf.constant(1.0, dtype=tf.float64)),
    "fn:vec": _f(lambda tf: lambda *a: tf.constant([1.0, 2.0])),
    "fn:raise": _f(lambda tf: _raise),
    "fn:lt3": _f(lambda tf: lambda *a: a[0] < 3),
    "fn:inc": _f(_inc),
    "fn:grow": _f(lambda tf: lambda *a: tf.stack([a[0], a[0]])),
    "fn:dict": _f(lambda tf: lambda *a: {"a": tf.constant(1.0)}),
    "fn:bool_vec": _f(lambda tf: lambda *a: tf.constant([True, False])),
    "fn:np": _f(lambda tf: lambda *a: np.float32(1.0)),
    "fn:float": _f(lambda tf: lambda *a: 1.0),
    # structures of tensors
    "[f32_3,f32_3]": lambda tf: [tf.constant([0.5, -1.0, 2.0]), tf.constant([1.0, 1.0, 1.0])],
    "(f32_3,f32_2x3)": lambda tf: (tf.constant([0.5, -1.0, 2.0]), tf.ones([2, 3])),
    "(f32_3,i32_3)": lambda tf: (tf.constant([0.5, -1.0, 2.0]), tf.constant([1, 0, 2])),
    "{'a':f32_3}": lambda tf: {"a": tf.constant([0.5, -1.0, 2.0])},
    "[f32_3,None]": lambda tf: [tf.constant([0.5, -1.0, 2.0]), None],
    "{'a':f32_3,'b':'x'}": lambda tf: {"a": tf.constant([0.5, -1.0, 2.0]), "b": "x"},
    "(var_f32_3,1.0)": lambda tf: (tf.Variable([0.5, -1.0, 2.0]), 1.0),
    "[[f32_3,'a']]": lambda tf: [[tf.constant([0.5, -1.0, 2.0]), "a"]],
    "[f32_3,i32_3]": lambda tf: [tf.constant([0.5, -1.0, 2.0]), tf.constant([1, 0, 2])],
    "[var_f32_3]": lambda tf: [tf.Variable([0.5, -1.0, 2.0])],
    "[f32_3]": lambda tf: [tf.constant([0.5, -1.0, 2.0])],
    "[f64_3]": lambda tf: [tf.constant([0.5, -1.0, 2.0], dtype=tf.float64)],
    "[i32_3]": lambda tf: [tf.constant([1, 0, 2])],
    "f32_4x4": lambda tf: tf.reshape(tf.range(16, dtype=tf.float32), [4, 4]),
    "f32_1x4x4x1": lambda tf: tf.reshape(tf.range(16, dtype=tf.float32), [1, 4, 4, 1]),
    "f64_1x4x4x1": lambda tf: tf.reshape(tf.range(16, dtype=tf.float64), [1, 4, 4, 1]),
    "i32_1x4x4x1": lambda tf: tf.reshape(tf.range(16), [1, 4, 4, 1]),
    "f32_2x2x1x1": lambda tf: tf.constant([[[[1.0]], [[-1.0]]], [[[0.5]], [[2.0]]]]),
    "f32_2x2x3x1": lambda tf: tf.ones([2, 2, 3, 1]),
    "f64_2x2x1x1": lambda tf: tf.ones([2, 2, 1, 1], dtype=tf.float64),
    "i32_2x2x1x1": lambda tf: tf.ones([2, 2, 1, 1], dtype=tf.int32),
    # control-flow arguments
    "lv:[0]": lambda tf: [tf.constant(0)],
    "lv:0": lambda tf: tf.constant(0),
    "lv:(0,1.0)": lambda tf: (tf.constant(0), tf.constant(1.0)),
    "lv:[f32_3]": lambda tf: [tf.constant([0.5, -1.0, 2.0])],
    "var_i32_0d": lambda tf: tf.Variable(0),
    "[True]": lambda tf: [True],
    "pairs:ok": lambda tf: [
        (tf.constant(False), lambda: tf.constant(1.0)),
        (tf.constant(True), lambda: tf.constant(2.0)),
    ],
    "pairs:two_true": lambda tf: [
        (tf.constant(True), lambda: tf.constant(1.0)),
        (tf.constant(True), lambda: tf.constant(2.0)),
    ],
    "pairs:pybool": lambda tf: [(True, lambda: tf.constant(1.0))],
    "pairs:not_callable": lambda tf: [(tf.constant(True), 1.0)],
    "pairs:not_pairs": lambda tf: [tf.constant(True)],
    "pairs:triple": lambda tf: [(tf.constant(True), lambda: tf.constant(1.0), 1)],
    "pairs:vec_pred": lambda tf: [(tf.constant([True, False]), lambda: tf.constant(1.0))],
    "pairs:int_pred": lambda tf: [(tf.constant(1), lambda: tf.constant(1.0))],
    "pairs:dict": lambda tf: {tf.constant(True): lambda: tf.constant(1.0)},
    "pairs:none_false": lambda tf: [(tf.constant(False), lambda: tf.constant(1.0))],
    "pairs:mixed_types": lambda tf: [
        (tf.constant(False), lambda: tf.constant(1.0)),
        (tf.constant(True), lambda: tf.constant(2)),
    ],
    "tf.UnconnectedGradients.ZERO": lambda tf: tf.UnconnectedGradients.ZERO,
    "'zero'": lambda tf: "zero",
    "'none'": lambda tf: "none",
    "'ZERO'": lambda tf: "ZERO",
    "'sum'": lambda tf: "sum",
    "'mean'": lambda tf: "mean",
    "'sum_over_batch_size'": lambda tf: "sum_over_batch_size",
    "'auto'": lambda tf: "auto",
    "'SUM'": lambda tf: "SUM",
    "'False'": lambda tf: "False",
    "False": lambda tf: False,
    "'msg'": lambda tf: "msg",
    "'SAME'": lambda tf: "SAME",
    "'VALID'": lambda tf: "VALID",
    "'same'": lambda tf: "same",
    "'FULL'": lambda tf: "FULL",
    "'EXPLICIT'": lambda tf: "EXPLICIT",
    "'NHWC'": lambda tf: "NHWC",
    "'NCHW'": lambda tf: "NCHW",
    "'nhwc'": lambda tf: "nhwc",
    "'NDHWC'": lambda tf: "NDHWC",
    "[1,1,1,1]": lambda tf: [1, 1, 1, 1],
    "[1,2,2,1]": lambda tf: [1, 2, 2, 1],
    "[2,1,1,1]": lambda tf: [2, 1, 1, 1],
    "[1,1,1]": lambda tf: [1, 1, 1],
    "[1,1,1,1,1]": lambda tf: [1, 1, 1, 1, 1],
    "[2,2]": lambda tf: [2, 2],
    "[1,1]": lambda tf: [1, 1],
    "[1.5,1]": lambda tf: [1.5, 1],
    "paddings": lambda tf: [[0, 0], [1, 1], [1, 1], [0, 0]],
    "(tf.float32,)": lambda tf: (tf.float32,),
    "[tf.float32,tf.float32]": lambda tf: [tf.float32, tf.float32],
    "{'a':tf.float32}": lambda tf: {"a": tf.float32},
    # $: the harness's own tensors
    "$x": lambda tf: S("x"),
    "$y": lambda tf: S("y"),
    "$z": lambda tf: S("z"),
    "$dy": lambda tf: S("dy"),
    "[$y,$y]": lambda tf: [S("y"), S("y")],
    "[$y,$z]": lambda tf: [S("y"), S("z")],
    "[$y,None]": lambda tf: [S("y"), None],
    "[$y,1.0]": lambda tf: [S("y"), 1.0],
    "{'a':$y}": lambda tf: {"a": S("y")},
    "[$x,$x]": lambda tf: [S("x"), S("x")],
    "[$x,None]": lambda tf: [S("x"), None],
    "[$x,1.0]": lambda tf: [S("x"), 1.0],
    "{'a':$x}": lambda tf: {"a": S("x")},
    "($x,)": lambda tf: (S("x"),),
    "[[$x]]": lambda tf: [[S("x")]],
    "[$dy]": lambda tf: [S("dy")],
    "[1.5]": lambda tf: [1.5],
    "[str]": lambda tf: ["abc"],
    "[$dy,$dy]": lambda tf: [S("dy"), S("dy")],
    "[$dy,$dy,$dy]": lambda tf: [S("dy"), S("dy"), S("dy")],
    "[$dy,None]": lambda tf: [S("dy"), None],
    "[None,None]": lambda tf: [None, None],
    "($dy,)": lambda tf: (S("dy"),),
    "(f32_2x3,$dy)": lambda tf: (tf.ones([2, 3]), S("dy")),
    "($y,fn:id)": lambda tf: (S("y"), lambda dy: dy),
    "[$y,fn:id]": lambda tf: [S("y"), lambda dy: dy],
    "($y,1.5)": lambda tf: (S("y"), 1.5),
    "($y,fn:id,1)": lambda tf: (S("y"), lambda dy: dy, 1),
    "(1.5,fn:id)": lambda tf: (1.5, lambda dy: dy),
    "($y,fn:noarg)": lambda tf: (S("y"), lambda: None),
    "(None,fn:id)": lambda tf: (None, lambda dy: dy),
    # input signatures
    "sig:f32[3]": lambda tf: [tf.TensorSpec([3], tf.float32)],
    "sig:f32[None]": lambda tf: [tf.TensorSpec([None], tf.float32)],
    "sig:f32[2]": lambda tf: [tf.TensorSpec([2], tf.float32)],
    "sig:i32[3]": lambda tf: [tf.TensorSpec([3], tf.int32)],
    "sig:f32[]": lambda tf: [tf.TensorSpec([], tf.float32)],
    "sig:two": lambda tf: [tf.TensorSpec([3], tf.float32), tf.TensorSpec([3], tf.float32)],
    "sig:spec": lambda tf: tf.TensorSpec([3], tf.float32),
    "sig:dtype": lambda tf: [tf.float32],
    "sig:nested": lambda tf: [[tf.TensorSpec([3], tf.float32)]],
    # Keras weights (for a Dense(2) layer on 3 inputs)
    "w:ok": lambda tf: [np.ones((3, 2), np.float32), np.zeros(2, np.float32)],
    "w:short": lambda tf: [np.ones((3, 2), np.float32)],
    "w:long": lambda tf: [np.ones((3, 2)), np.zeros(2), np.zeros(2)],
    "w:shape": lambda tf: [np.ones((2, 3)), np.zeros(2)],
    "w:bias_shape": lambda tf: [np.ones((3, 2)), np.zeros(3)],
    "w:f64": lambda tf: [np.ones((3, 2)), np.zeros(2)],
    "w:int": lambda tf: [np.ones((3, 2), np.int64), np.zeros(2, np.int64)],
    "w:lists": lambda tf: [[[1.0, 2.0]] * 3, [0.5, 0.5]],
    "w:tensors": lambda tf: [tf.ones([3, 2]), tf.zeros([2])],
    "w:str": lambda tf: [np.ones((3, 2)), "ab"],
    "w:scalar_bias": lambda tf: [np.ones((3, 2)), 0.0],
    "w:none": lambda tf: [np.ones((3, 2)), None],
    "w:tuple": lambda tf: (np.ones((3, 2)), np.zeros(2)),
    "w:rank3": lambda tf: [np.ones((3, 2, 1)), np.zeros(2)],
    # Keras layers
    "layer:dense": lambda tf: tf.keras.layers.Dense(2),
    "layer:dense_shape": lambda tf: tf.keras.layers.Dense(2, input_shape=(3,)),
    "layer:seq": lambda tf: tf.keras.Sequential([tf.keras.layers.Dense(2)]),
    "[layer:dense]": lambda tf: [tf.keras.layers.Dense(2)],
    "class:Dense": lambda tf: tf.keras.layers.Dense,
    # optimizers' (gradient, variable) pairs, from the harness's variables v (trainable, [2])
    # and w (not trainable, [2])
    "gv:ok": lambda tf: Build(lambda v, w: [(tf.constant([1.0, 1.0]), v)]),
    "gv:none": lambda tf: Build(lambda v, w: [(None, v)]),
    "gv:none_and_ok": lambda tf: Build(lambda v, w: [(None, w), (tf.constant([1.0, 1.0]), v)]),
    "gv:swapped": lambda tf: Build(lambda v, w: [(v, tf.constant([1.0, 1.0]))]),
    "gv:swapped_vars": lambda tf: Build(lambda v, w: [(v, w)]),
    "gv:flat": lambda tf: Build(lambda v, w: [tf.constant([1.0, 1.0]), v]),
    "gv:triple": lambda tf: Build(lambda v, w: [(tf.constant([1.0, 1.0]), v, v)]),
    "gv:nontrainable": lambda tf: Build(lambda v, w: [(tf.constant([1.0, 1.0]), w)]),
    "gv:tensor": lambda tf: Build(
        lambda v, w: [(tf.constant([1.0, 1.0]), tf.constant([1.0, 2.0]))]
    ),
    "gv:shape": lambda tf: Build(lambda v, w: [(tf.constant([1.0, 1.0, 1.0]), v)]),
    "gv:broadcast": lambda tf: Build(lambda v, w: [(tf.constant(1.0), v)]),
    "gv:int": lambda tf: Build(lambda v, w: [(tf.constant([1, 1]), v)]),
    "gv:numpy": lambda tf: Build(lambda v, w: [(np.ones(2, np.float32), v)]),
    "gv:list": lambda tf: Build(lambda v, w: [([1.0, 1.0], v)]),
    "gv:float": lambda tf: Build(lambda v, w: [(1.0, v)]),
    "gv:str": lambda tf: Build(lambda v, w: [("ab", v)]),
    "gv:zip": lambda tf: Build(lambda v, w: zip([tf.constant([1.0, 1.0])], [v])),
    "gv:dup": lambda tf: Build(
        lambda v, w: [(tf.constant([1.0, 1.0]), v), (tf.constant([1.0, 1.0]), v)]
    ),
    "gv:empty": lambda tf: Build(lambda v, w: []),
    "gv:nested": lambda tf: Build(lambda v, w: [[(tf.constant([1.0, 1.0]), v)]]),
    "gv:dict": lambda tf: Build(lambda v, w: {"v": (tf.constant([1.0, 1.0]), v)}),
    "gv:pair_not_list": lambda tf: Build(lambda v, w: (tf.constant([1.0, 1.0]), v)),
    "gv:nan": lambda tf: Build(lambda v, w: [(tf.constant([float("nan"), 1.0]), v)]),
    "gv:int_var": lambda tf: Build(lambda v, w: [(tf.constant([1, 1]), tf.Variable([1, 2]))]),
    # dtypes given as what TF reads through their dtype or as a DataType enum value
    "2.0": lambda tf: 2.0,
    "np_f64_1": lambda tf: np.array([2.0]),
    "np_f64_0d": lambda tf: np.array(2.0),
    "np_i64_1x1": lambda tf: np.array([[1]]),
    "np_empty": lambda tf: np.zeros(0),
    "np.float64(3.0)": lambda tf: np.float64(3.0),
    "bytes_type": lambda tf: bytes,
    "complex_type": lambda tf: complex,
    # Python sequences TF converts
    "deep70": lambda tf: _nest(2.0, 70),
    "deep70_bool": lambda tf: _nest(True, 70),
    "deep70_int": lambda tf: _nest(1, 70),
    "[i32_3,f32_3]": lambda tf: [tf.constant([1, 0, 2]), tf.constant([0.5, -1.0, 2.0])],
    "[f32_3,[1,0,2]]": lambda tf: [tf.constant([0.5, -1.0, 2.0]), [1, 0, 2]],
    "[[i32_3],f32_3]": lambda tf: [[tf.constant([1, 0, 2])], tf.constant([0.5, -1.0, 2.0])],
    "[f32_3,np_f64]": lambda tf: [tf.constant([0.5, -1.0, 2.0]), np.array([1.0, 2.0, 3.0])],
    "[f32_3,string_2]": lambda tf: [tf.constant([0.5, -1.0]), tf.constant(["ab", "c"])],
    "[f32_3,f32_2x3]": lambda tf: [tf.constant([0.5, -1.0, 2.0]), tf.ones([2, 3])],
    "[f32_0d,np_f64_0d]": lambda tf: [tf.constant(1.5), np.array(2.0)],
    "[var_f32_3,i32_3]": lambda tf: [tf.Variable([0.5, -1.0, 2.0]), tf.constant([1, 0, 2])],
    "[2**70,1]": lambda tf: [2**70, 1],
    "[2**70,1.5]": lambda tf: [2**70, 1.5],
    "2**63": lambda tf: 2**63,
    "2**1030": lambda tf: 2**1030,
    # axes and perms TF reads by their values
    "[[0]]": lambda tf: [[0]],
    "[[[1]]]": lambda tf: [[[1]]],
    "[[5]]": lambda tf: [[5]],
    "[[0,1]]": lambda tf: [[0, 1]],
    "[-1,0]": lambda tf: [-1, 0],
    "[-1,-2]": lambda tf: [-1, -2],
    "[1,-2]": lambda tf: [1, -2],
    "[-3,0]": lambda tf: [-3, 0],
    "[-1,1]": lambda tf: [-1, 1],
    "[2,0]": lambda tf: [2, 0],
    "c128_2": lambda tf: tf.constant([1 + 1j, 2.0]),
    # Keras identifiers
    "'sgd'": lambda tf: "sgd",
    "'SGD'": lambda tf: "SGD",
    "'zeros'": lambda tf: "zeros",
    "'GlorotUniform'": lambda tf: "GlorotUniform",
    "'MeanSquaredError'": lambda tf: "MeanSquaredError",
    "'mse'": lambda tf: "mse",
    "'nope'": lambda tf: "nope",
    "cfg:SGD": lambda tf: {"class_name": "SGD"},
    "cfg:sgd_empty": lambda tf: {"class_name": "sgd", "config": {}},
    "cfg:SGD_momentum": lambda tf: {"class_name": "SGD", "config": {"momentum": 0.5}},
    "cfg:SGD_unknown": lambda tf: {"class_name": "SGD", "config": {"nope": 0.5}},
    "cfg:Adam": lambda tf: {"class_name": "Adam"},
    "cfg:Nope": lambda tf: {"class_name": "Nope"},
    "cfg:no_class": lambda tf: {"config": {}},
    "cfg:MeanSquaredError": lambda tf: {"class_name": "MeanSquaredError"},
    "cfg:mean_squared_error": lambda tf: {"class_name": "mean_squared_error"},
    "cfg:BCE_logits": lambda tf: {
        "class_name": "BinaryCrossentropy",
        "config": {"from_logits": True},
    },
    "cfg:Zeros": lambda tf: {"class_name": "Zeros", "config": {}},
    "cfg:zeros": lambda tf: {"class_name": "zeros"},
    "cfg:Constant": lambda tf: {"class_name": "Constant", "config": {"value": 2.0}},
    "class:SGD": lambda tf: tf.keras.optimizers.SGD,
    "class:MeanSquaredError": lambda tf: tf.keras.losses.MeanSquaredError,
    "class:Zeros": lambda tf: tf.keras.initializers.Zeros,
    "obj:SGD": lambda tf: tf.keras.optimizers.SGD(),
}


def _nest(value, depth):
    for _ in range(depth):
        value = [value]
    return value


# --- harnesses ---------------------------------------------------------------------------
HARNESS = {}


def harness(name):
    def register(fn):
        HARNESS[name] = fn
        return fn

    return register


def _tape(tf):
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = x * x
        z = tf.constant([1.0, 1.0])
    return tape, {"x": x, "y": y, "z": z}


@harness("tape.gradient")
def _gradient(tf, target, sources, **kw):
    tape, s = _tape(tf)
    return tape.gradient(fill(target, s), fill(sources, s), **fill(kw, s))


@harness("tape.jacobian")
def _jacobian(tf, target, sources, **kw):
    tape, s = _tape(tf)
    return tape.jacobian(fill(target, s), fill(sources, s), **fill(kw, s))


@harness("tape.batch_jacobian")
def _batch_jacobian(tf, target, source, **kw):
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = tf.ones([2, 2])
    s = {"x": x, "y": y, "z": z}
    return tape.batch_jacobian(fill(target, s), fill(source, s), **fill(kw, s))


@harness("tape.watch")
def _watch(tf, tensor):
    with tf.GradientTape() as tape:
        tape.watch(tensor)
    return len(tape.watched_variables())


@harness("ForwardAccumulator")
def _accumulator(tf, primals, tangents):
    acc = tf.autodiff.ForwardAccumulator(primals, tangents)
    with acc:
        ys = [v * 2.0 for v in tf.nest.flatten(primals) if tf.is_tensor(v)]
    return acc.jvp(ys)


@harness("ForwardAccumulator.jvp")
def _jvp(tf, target, **kw):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0, 0.5])) as acc:
        y = x * x
        z = tf.constant([1.0, 1.0])
    s = {"x": x, "y": y, "z": z}
    return acc.jvp(fill(target, s), **fill(kw, s))


@harness("custom_gradient")
def _custom_gradient(tf, grad_result):
    """f(x) = x * x whose gradient function returns `grad_result` ($dy: the upstream)."""

    @tf.custom_gradient
    def f(x):
        return x * x, lambda dy: fill(grad_result, {"dy": dy})

    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


@harness("custom_gradient2")
def _custom_gradient2(tf, grad_result):
    """f(x, y) = x * y whose gradient function returns `grad_result`."""

    @tf.custom_gradient
    def f(a, b):
        return a * b, lambda dy: fill(grad_result, {"dy": dy})

    a, b = tf.constant([1.0, 2.0, 3.0]), tf.constant([4.0, 5.0, 6.0])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = f(a, b)
    return tape.gradient(y, [a, b])


@harness("custom_gradient_forward")
def _custom_gradient_forward(tf, returns):
    """A custom_gradient function that returns `returns` ($y: x * x) instead of a pair."""

    @tf.custom_gradient
    def f(x):
        return fill(returns, {"y": x * x})

    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


@harness("custom_gradient_vars")
def _custom_gradient_vars(tf, var_grads):
    """f(x) = x * v for a variable v; the gradient function returns (dy * v, var_grads)."""
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            return dy * v, fill(var_grads, {"dy": tf.reduce_sum(dy * x)})

        return x * v, grad

    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = f(x)
    return tape.gradient(y, v)


def _differentiate(tf, wrapped, arg):
    with tf.GradientTape() as tape:
        if tf.is_tensor(arg):
            tape.watch(arg)
        y = wrapped(arg)
    if tf.is_tensor(arg) and tf.is_tensor(y):
        return [y, tape.gradient(y, arg)]
    return y


@harness("recompute_grad")
def _recompute(tf, f, arg):
    return _differentiate(tf, tf.recompute_grad(f), arg)


@harness("grad_pass_through")
def _pass_through(tf, f, arg):
    return _differentiate(tf, tf.grad_pass_through(f), arg)


@harness("function")
def _function(tf, f, arg, **kw):
    return tf.function(f, **kw)(arg)


@harness("function_twice")
def _function_twice(tf, first, second, **kw):
    g = tf.function(lambda x: tf.nest.map_structure(lambda t: t * 2, x), **kw)
    return [g(first), g(second)]


def _dense_model(tf):
    return tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])


@harness("Sequential.set_weights")
def _set_weights(tf, weights):
    model = _dense_model(tf)
    model.set_weights(weights)
    return model.get_weights()


@harness("Dense.set_weights")
def _dense_set_weights(tf, weights):
    layer = tf.keras.layers.Dense(2)
    layer.build((None, 3))
    layer.set_weights(weights)
    return layer.get_weights()


@harness("Sequential.add")
def _add(tf, layer):
    model = tf.keras.Sequential()
    model.add(layer)
    return len(model.layers)


@harness("Sequential")
def _sequential(tf, layers):
    model = tf.keras.Sequential(layers)
    return len(model.layers)


def _apply(tf, optimizer, grads_and_vars):
    v = tf.Variable([1.0, 2.0])
    w = tf.Variable([3.0, 4.0], trainable=False)
    if isinstance(grads_and_vars, Build):
        grads_and_vars = grads_and_vars.fn(v, w)
    optimizer.apply_gradients(grads_and_vars)
    return [v, w]


@harness("SGD.apply_gradients")
def _sgd_apply(tf, grads_and_vars):
    return _apply(tf, tf.keras.optimizers.SGD(0.1), grads_and_vars)


@harness("Adam.apply_gradients")
def _adam_apply(tf, grads_and_vars):
    return _apply(tf, tf.keras.optimizers.Adam(0.1), grads_and_vars)


def _loss(tf, cls, y_true, y_pred, kw):
    return getattr(tf.keras.losses, cls)(**kw)(tf.constant(y_true), tf.constant(y_pred))


@harness("losses.MeanSquaredError")
def _mse(tf, **kw):
    return _loss(tf, "MeanSquaredError", [[0.0, 1.0], [1.0, 0.0]], [[0.2, 0.7], [0.9, 0.4]], kw)


@harness("losses.BinaryCrossentropy")
def _bce(tf, **kw):
    return _loss(tf, "BinaryCrossentropy", [[0.0, 1.0], [1.0, 0.0]], [[0.2, 0.7], [0.9, 0.4]], kw)


@harness("losses.CategoricalCrossentropy")
def _cce(tf, **kw):
    return _loss(
        tf, "CategoricalCrossentropy", [[0.0, 1.0], [1.0, 0.0]], [[0.2, 0.7], [0.9, 0.4]], kw
    )


@harness("losses.SparseCategoricalCrossentropy")
def _scce(tf, **kw):
    return _loss(tf, "SparseCategoricalCrossentropy", [1, 0], [[0.2, 0.7], [0.9, 0.4]], kw)


# --- base calls and each slot's candidates -------------------------------------------------
_FNS = ["fn:none", "fn:str", "fn:noarg", "fn:pair", "fn:int", "fn:dict", "fn:raise", "None", "1.5"]
_PRED = ["True", "1", "0", "1.5", "None", "str", "f32_0d", "bool_3", "i32_0d", "np_bool"]
_PRED += ["var_f32_0d", "[True]", "fn:tf_true", "string_0d"]
_ELEMS = ["f32_0d", "[1.0,2.0,3.0]", "[]", "f32_0x3", "None", "str", "(f32_3,f32_2x3)"]
_ELEMS += ["{'a':f32_3}", "i32_3", "np_f64", "string_2", "(f32_3,i32_3)"]
_PAR = ["str", "-1", "0", "1.5", "None", "f32_0d", "i32_0d", "True"]
_UNCONNECTED = ["'zero'", "'ZERO'", "tf.UnconnectedGradients.ZERO", "'nope'", "None", "1"]
_UNCONNECTED += ["True", "str", "tf.float32"]
_TARGETS = ["[$y,$y]", "{'a':$y}", "1.5", "str", "f32_3", "[$y,None]", "$x", "i32_3", "$z"]
_TARGETS += ["[$y,1.0]", "[1.0,2.0,3.0]", "np_f64", "np_float64_scalar", "np_f32_2x3"]
_SOURCES = ["[$x,$x]", "{'a':$x}", "[$x,None]", "[$x,1.0]", "($x,)", "f32_3", "str", "None"]
_SOURCES += ["$y", "[[$x]]", "i32_3", "1.5"]
_SIGNATURES = ["sig:f32[3]", "sig:f32[None]", "sig:f32[2]", "sig:i32[3]", "sig:f32[]", "sig:two"]
_SIGNATURES += ["sig:spec", "sig:dtype", "sig:nested", "[]", "str", "1.5"]
_REDUCTION = ["'sum'", "'none'", "'mean'", "'sum_over_batch_size'", "'auto'", "'SUM'", "None"]
_REDUCTION += ["1", "str", "True", "tf.float32", "[]"]
_FROM_LOGITS = ["True", "False", "str", "'False'", "None", "1", "1.5", "f32_0d", "bool_0d"]
_FROM_LOGITS += ["[]", "bool_3"]
_GV = sorted(k for k in MORE if k.startswith("gv:")) + ["None", "str", "1.5", "[]"]
_WEIGHTS = sorted(k for k in MORE if k.startswith("w:")) + ["None", "[]", "str", "f32_3"]
_LAYERS = ["layer:dense", "layer:dense_shape", "layer:seq", "[layer:dense]", "class:Dense"]
_LAYERS += ["fn:sq", "None", "str", "1.5", "f32_3", "dict"]

_AS_DTYPE = ["np_u8", "np_f64", "np_str", "np_obj", "np_bool", "np_c128", "np_f16", "np_i64"]
_AS_DTYPE += ["np_float64_scalar", "np_int64_scalar", "np.float64(3.0)", "np_f64_1", "np_empty"]
_AS_DTYPE += ["np_i64_1x1", "True", "False", "1.0", "2.0", "1", "3", "0", "1.5", "f32_3"]
_AS_DTYPE += ["f32_0x3", "var_f32_0d", "bytes_type", "complex_type", "'float32'", "None"]
_SEQS = ["[f32_3,i32_3]", "[i32_3,f32_3]", "[f32_3,[1,0,2]]", "[[i32_3],f32_3]"]
_SEQS += ["[f32_3,np_f64]", "[f32_3,string_2]", "[f32_3,f32_2x3]", "[f32_0d,np_f64_0d]"]
_SEQS += ["[var_f32_3,i32_3]", "(f32_3,i32_3)", "[2**70,1]", "[2**70,1.5]", "2**70", "2**63"]
_DEEP = ["deep70", "deep70_bool", "deep70_int"]
_AXES = ["[[]]", "[[0]]", "[[0,1]]", "[[[1]]]", "[0]"]
_PERMS = ["[-1,0]", "[-1,-2]", "[1,-2]", "[-1]", "[-3,0]", "[-1,1]", "[2,0]"]
_BIG = ["2**70", "-2**70", "2**63", "2**1030", "[2**70,1]"]
_KERAS_IDS = ["None", "cfg:SGD", "cfg:sgd_empty", "cfg:SGD_momentum", "cfg:SGD_unknown"]
_KERAS_IDS += ["cfg:Adam", "cfg:Nope", "cfg:no_class", "cfg:MeanSquaredError", "cfg:zeros"]
_KERAS_IDS += ["cfg:mean_squared_error", "cfg:BCE_logits", "cfg:Zeros", "cfg:Constant", "{}"]
_KERAS_IDS += ["'SGD'", "'MeanSquaredError'", "'GlorotUniform'", "'nope'", "class:SGD"]
_KERAS_IDS += ["class:MeanSquaredError", "class:Zeros", "obj:SGD", "1.5", "dict"]

# function -> (positional args, keyword args, {slot: candidates}); slot is an index or a
# keyword (fuzzed even when the base call leaves it out)
FUNCS_MORE = {
    # control flow
    "cond": (
        ["bool_0d", "fn:one", "fn:two"],
        {},
        {
            0: _PRED,
            1: [*_FNS, "fn:f64", "fn:vec", "fn:list1", "lambda", "fn:id"],
            2: [*_FNS, "fn:f64", "fn:vec", "fn:list1", "lambda", "fn:id"],
        },
    ),
    "case": (
        ["pairs:ok"],
        {"default": "fn:one"},
        {
            0: sorted(k for k in MORE if k.startswith("pairs:")) + ["[]", "None", "fn:one"],
            "default": [*_FNS, "fn:f64", "fn:vec", "lambda"],
            "exclusive": ["True", "str", "1", "None"],
        },
    ),
    "while_loop": (
        ["fn:lt3", "fn:inc", "lv:[0]"],
        {"maximum_iterations": "5"},
        {
            0: [*_FNS, "fn:true", "fn:tf_true", "fn:bool_vec", "fn:one", "lambda"],
            1: [*_FNS, "fn:f64", "fn:grow", "fn:list1", "fn:id", "fn:vec", "lambda", "fn:np"],
            2: ["lv:0", "lv:(0,1.0)", "lv:[f32_3]", "0", "[]", "None", "[0]", "dict"],
            "maximum_iterations": [
                *["1.5", "-1", "0", "str", "None", "i32_0d", "f32_0d", "True", "[2,3]"],
                *["i64_0d", "2**70", "i32_3"],
            ],
            "parallel_iterations": _PAR,
        },
    ),
    "foldl": (
        ["fn:add", "f32_3"],
        {},
        {
            0: [*_FNS, "fn:id", "fn:vec", "fn:f64", "lambda"],
            1: _ELEMS,
            "initializer": ["0.0", "f32_3", "str", "i32_0d", "[1.0,None]", "f32_2x3", "f64_3"],
            "parallel_iterations": _PAR,
        },
    ),
    "foldr": (
        ["fn:add", "f32_3"],
        {},
        {
            0: [*_FNS, "fn:id", "fn:vec", "fn:f64", "lambda"],
            1: _ELEMS,
            "initializer": ["0.0", "f32_3", "str", "i32_0d", "[1.0,None]", "f32_2x3", "f64_3"],
        },
    ),
    "scan": (
        ["fn:add", "f32_3"],
        {},
        {
            0: [*_FNS, "fn:id", "fn:vec", "fn:f64", "lambda"],
            1: _ELEMS,
            "initializer": ["0.0", "f32_3", "str", "i32_0d", "f32_2x3", "f64_3"],
            "reverse": ["True", "str", "1", "None", "f32_0d"],
        },
    ),
    "map_fn": (
        ["fn:sq", "f32_3"],
        {},
        {
            0: [*_FNS, "fn:vec", "fn:f64", "lambda", "fn:np", "fn:float"],
            1: _ELEMS,
            "fn_output_signature": [
                *["tf.float32", "tf.int32", "tf.string", "str", "1.5", "'float32'", "float"],
                *["(tf.float32,)", "[tf.float32,tf.float32]", "{'a':tf.float32}", "None"],
                *["np.float32", "f32_3"],
            ],
            "parallel_iterations": _PAR,
        },
    ),
    "vectorized_map": (
        ["fn:sq", "f32_3"],
        {},
        {
            0: ["fn:none", "fn:str", "fn:noarg", "fn:pair", "None", "1.5", "fn:vec", "fn:np"],
            1: ["f32_0d", "[1.0,2.0,3.0]", "None", "str", "(f32_3,f32_2x3)", "i32_3"],
        },
    ),
    # forward mode
    "~ForwardAccumulator": (
        ["f32_3", "f32_3"],
        {},
        {
            0: ["var_f32_3", "[f32_3,f32_3]", "i32_3", "1.5", "None", "str", "[1.0,2.0,3.0]"]
            + ["f64_3", "{'a':f32_3}", "f32_2x3", "np_f64"],
            1: ["f32_2x3", "f64_3", "i32_3", "[f32_3,f32_3]", "1.5", "None", "[1.0,2.0,3.0]"]
            + ["str", "{'a':f32_3}", "f32_0d", "np_f64", "[f32_3]"],
        },
    ),
    "~ForwardAccumulator.jvp": (
        ["$y"],
        {},
        {
            0: ["$z", "1.5", "None", "str", "[$y,$z]", "f32_3", "var_f32_3", "dict", "[$y,1.0]"]
            + ["$x", "{'a':$y}"],
            "unconnected_gradients": _UNCONNECTED,
        },
    ),
    # custom gradients
    "~custom_gradient": (
        ["$dy"],
        {},
        {
            0: ["None", "[$dy,$dy]", "f32_2x3", "f64_3", "i32_3", "1.5", "str", "[1.0,2.0,3.0]"]
            + ["($dy,)", "[]", "dict", "f32_0d", "[$dy,None]"],
        },
    ),
    "~custom_gradient2": (
        ["[$dy,$dy]"],
        {},
        {0: ["$dy", "[$dy,$dy,$dy]", "[$dy,None]", "[None,None]", "(f32_2x3,$dy)", "None"]},
    ),
    "~custom_gradient_forward": (
        ["($y,fn:id)"],
        {},
        {
            0: ["$y", "None", "[$y,fn:id]", "($y,1.5)", "($y,fn:id,1)", "(1.5,fn:id)"]
            + ["($y,fn:noarg)", "(None,fn:id)", "1.5"],
        },
    ),
    "~custom_gradient_vars": (
        ["[$dy]"],
        {},
        {0: ["[]", "None", "[$dy,$dy]", "$dy", "[None]", "[f32_3]", "[1.5]", "[str]"]},
    ),
    "~recompute_grad": (
        ["fn:sq", "f32_3"],
        {},
        {
            0: ["fn:none", "fn:str", "fn:pair", "fn:noarg", "1.5", "None", "lambda", "fn:int"]
            + ["fn:dict", "fn:np"],
            1: ["1.5", "[1.0,2.0,3.0]", "str", "None", "i32_3", "var_f32_3", "(f32_3,f32_2x3)"],
        },
    ),
    "~grad_pass_through": (
        ["fn:sq", "f32_3"],
        {},
        {
            0: ["fn:none", "fn:str", "fn:pair", "fn:noarg", "1.5", "None", "lambda", "fn:int"],
            1: ["1.5", "[1.0,2.0,3.0]", "str", "None", "i32_3", "var_f32_3"],
        },
    ),
    # the tape's methods
    "~tape.gradient": (
        ["$y", "$x"],
        {},
        {
            0: _TARGETS,
            1: _SOURCES,
            "output_gradients": ["f32_3", "f32_2x3", "f64_3", "i32_3", "[f32_3]", "1.5"]
            + ["[1.0,2.0,3.0]", "f32_0d", "[f32_3,f32_3]", "None", "bool_3", "np_f64"],
            "unconnected_gradients": _UNCONNECTED,
        },
    ),
    "~tape.jacobian": (
        ["$y", "$x"],
        {},
        {
            0: _TARGETS,
            1: _SOURCES,
            "unconnected_gradients": _UNCONNECTED,
            "parallel_iterations": _PAR + ["2"],
            "experimental_use_pfor": ["False", "str", "1", "None", "0", "f32_0d", "bool_0d"],
        },
    ),
    "~tape.batch_jacobian": (
        ["$y", "$x"],
        {},
        {
            0: ["$z", "1.5", "str", "None", "[$y,$y]", "f32_2x3", "i32_2x3", "$x"],
            1: ["$y", "[$x,$x]", "None", "str", "f32_2x3", "1.5", "{'a':$x}"],
            "unconnected_gradients": _UNCONNECTED,
            "parallel_iterations": _PAR,
            "experimental_use_pfor": ["False", "str", "1", "None"],
        },
    ),
    "~tape.watch": (
        ["f32_3"],
        {},
        {
            0: ["[f32_3,None]", "{'a':f32_3,'b':'x'}", "(var_f32_3,1.0)", "[[f32_3,'a']]"]
            + ["i32_3", "str", "np_f64", "[f32_3,i32_3]", "selfref", "dict", "f64_3"]
            + ["string_0d", "bool_3", "f16_3", "[var_f32_3]", "var_f32_3", "[]", "{}"]
            + ["var_i32_3", "1.5", "[1.0,2.0,3.0]", "None"],
        },
    ),
    # tf.function
    "~function": (
        ["fn:sq", "f32_3"],
        {},
        {
            0: ["fn:none", "fn:str", "fn:pair", "fn:noarg", "fn:dict", "1.5", "None", "fn:np"]
            + ["lambda", "str"],
            1: ["1.5", "[1.0,2.0,3.0]", "str", "None", "i32_3", "(f32_3,f32_3)"]
            + ["{'a':f32_3}", "var_f32_3"],
            "input_signature": _SIGNATURES,
        },
    ),
    "~function_twice": (
        ["f32_3", "f32_3"],
        {},
        {
            1: ["[f32_3,f32_3]", "{'a':f32_3}", "1.5", "i32_3", "f32_2x3", "str", "None"],
            "input_signature": _SIGNATURES,
        },
    ),
    # numerics, matvec, conv2d, compute_gradient
    "debugging.check_numerics": (
        ["f32_3", "'msg'"],
        {},
        {
            0: ["f32_nan", "i32_3", "1.5", "[1.0,2.0,3.0]", "str", "None", "bool_3", "f64_3"]
            + ["string_2", "np_f64", "f16_3", "nan", "var_f32_3"],
            1: ["1.5", "None", "str", "1", "bytes", "[]", "f32_0d", "string_0d"],
        },
    ),
    "linalg.matvec": (
        ["f32_2x3", "f32_3"],
        {},
        {
            0: ["f32_3", "f32_0d", "i32_2x3", "np_f32_2x3", "[[1.,2.,3.],[4.,5.,6.]]", "str"]
            + ["None", "var_f64_2x3", "f32_2x3x1", "f32_4x4"],
            1: ["[1.0,2.0,3.0]", "f32_2x3", "i32_3", "f64_3", "f32_0d", "[0.5]", "None"]
            + ["np_f64", "str"],
            "transpose_a": ["True", "str", "None", "1"],
        },
    ),
    "nn.conv2d": (
        ["f32_1x4x4x1", "f32_2x2x1x1"],
        {"strides": "1", "padding": "'VALID'"},
        {
            0: ["f32_2x3", "f32_2x3x1", "f64_1x4x4x1", "i32_1x4x4x1", "str", "None"],
            1: ["f32_2x2x3x1", "f32_2x3", "f64_2x2x1x1", "i32_2x2x1x1", "None", "f32_4x4"],
            "strides": ["2", "[1,1,1,1]", "[1,2,2,1]", "[2,2]", "[1,1]", "[1,1,1]", "0"]
            + ["-1", "1.5", "str", "None", "[2,1,1,1]", "[1,1,1,1,1]", "[1.5,1]"],
            "padding": ["'SAME'", "'same'", "'FULL'", "1", "None", "paddings", "'EXPLICIT'"],
            "data_format": ["'NHWC'", "'NCHW'", "'nhwc'", "'NDHWC'", "None", "1"],
            "dilations": ["1", "2", "[1,2,2,1]", "[2,2]", "0", "1.5", "str", "None"]
            + ["[2,1,1,1]", "[1,1,1,1]"],
        },
    ),
    "test.compute_gradient": (
        ["fn:sq", "[f32_3]"],
        {},
        {
            0: ["fn:none", "fn:str", "fn:noarg", "fn:pair", "fn:int", "1.5", "None"],
            1: ["f32_3", "[1.0,2.0,3.0]", "[i32_3]", "[]", "None", "[f32_3,f32_3]", "str"]
            + ["[f64_3]"],
            "delta": ["1e300", "0", "str", "-0.5", "f32_0d", "None", "0.0"],
        },
    ),
    # Keras
    "~Sequential.set_weights": (["w:ok"], {}, {0: _WEIGHTS}),
    "~Dense.set_weights": (["w:ok"], {}, {0: _WEIGHTS}),
    "~Sequential.add": (["layer:dense"], {}, {0: _LAYERS}),
    "~Sequential": (["[layer:dense]"], {}, {0: _LAYERS + ["[]", "(2,3)"]}),
    "~SGD.apply_gradients": (["gv:ok"], {}, {0: _GV}),
    "~Adam.apply_gradients": (["gv:ok"], {}, {0: _GV}),
    "~losses.MeanSquaredError": ([], {}, {"reduction": _REDUCTION}),
    "~losses.BinaryCrossentropy": (
        [],
        {},
        {"reduction": _REDUCTION, "from_logits": _FROM_LOGITS},
    ),
    "~losses.CategoricalCrossentropy": (
        [],
        {},
        {"reduction": _REDUCTION, "from_logits": _FROM_LOGITS},
    ),
    "~losses.SparseCategoricalCrossentropy": (
        [],
        {},
        {"reduction": _REDUCTION, "from_logits": _FROM_LOGITS},
    ),
    # dtypes given as arrays, bools and numbers (issue 26): TF's as_dtype reads an array by
    # its .dtype and anything equal to a DataType enum value as that dtype
    "as_dtype": (["tf.float32"], {}, {0: _AS_DTYPE}),
    "cast": (["f32_2x3", "tf.int32"], {}, {1: _AS_DTYPE}),
    "zeros_like": (["f32_2x3"], {}, {"dtype": _AS_DTYPE}),
    "ones_like": (["f32_2x3"], {}, {"dtype": _AS_DTYPE}),
    "zeros": (["[2,3]"], {}, {"dtype": _AS_DTYPE}),
    "ones": (["[2,3]"], {}, {"dtype": _AS_DTYPE + ["tf.string"]}),
    "eye": (["2"], {}, {"dtype": _AS_DTYPE}),
    "range": (["5"], {}, {"dtype": _AS_DTYPE}),
    "one_hot": (["i32_3", "3"], {}, {"dtype": _AS_DTYPE}),
    "shape": (["f32_2x3"], {}, {0: _DEEP, "out_type": _AS_DTYPE + ["[]", "0", "False"]}),
    "size": (["f32_2x3"], {}, {0: _DEEP, "out_type": _AS_DTYPE + ["tf.string", "tf.int64"]}),
    "rank": (["f32_2x3"], {}, {0: _DEEP}),
    "convert_to_tensor": (
        ["[1.0,2.0,3.0]"],
        {},
        {0: _SEQS, "dtype": _AS_DTYPE + ["tf.float64", "tf.int32", "tf.float16"]},
    ),
    "constant": (["[1.0,2.0,3.0]"], {}, {0: _SEQS, "dtype": _AS_DTYPE}),
    "Variable": (["[1.0,2.0,3.0]"], {}, {"dtype": _AS_DTYPE}),
    # Python sequences TF converts: lists of tensors of other dtypes beside numpy operands,
    # nests deeper than numpy's 64 dimensions, ints beyond int64 where floats are asked for
    "add": (["np_f64", "f32_3"], {}, {0: _SEQS, 1: _SEQS}),
    "multiply": (["np_f64", "f32_3"], {}, {0: _SEQS, 1: _SEQS}),
    "subtract": (["f64_3", "f32_3"], {}, {1: _SEQS}),
    "maximum": (["np_f64", "f32_3"], {}, {1: _SEQS}),
    "equal": (["np_f64", "f32_3"], {}, {1: _SEQS}),
    "clip_by_value": (["np_f64", "0.0", "1.5"], {}, {1: _SEQS, 2: _SEQS}),
    "reduce_sum": (["f32_2x3"], {}, {0: _DEEP, "axis": _AXES}),
    "reduce_mean": (["f32_2x3"], {}, {0: _DEEP, "axis": _AXES}),
    "reduce_max": (["f32_2x3"], {}, {0: _DEEP, "axis": _AXES}),
    "reduce_min": (["f32_2x3"], {}, {0: _DEEP}),
    "reduce_all": (["bool_3"], {}, {0: _DEEP, "axis": _AXES}),
    "reduce_any": (["bool_3"], {}, {0: _DEEP, "axis": _AXES}),
    "linspace": (["0.0", "1.5", "5"], {}, {0: _BIG, 1: _BIG, 2: _BIG}),
    "keras.losses.mae": (["f32_3", "f32_3"], {}, {0: _BIG, 1: _BIG}),
    "keras.losses.mse": (["f32_3", "f32_3"], {}, {0: _BIG, 1: _BIG}),
    # axes and perms TF reads by their values
    "expand_dims": (["f32_2x3", "1"], {}, {1: _AXES + ["[0,1]", "[]", "[[5]]", "[-1]"]}),
    "transpose": (["f32_2x3"], {"perm": "[1,0]"}, {"perm": _PERMS}),
    # complex numbers
    "sigmoid": (["f32_3"], {}, {0: ["np_c128", "complex", "c128_2"]}),
    "math.sigmoid": (["f32_3"], {}, {0: ["np_c128", "complex", "c128_2"]}),
    "nn.sigmoid": (["f32_3"], {}, {0: ["np_c128", "complex", "c128_2"]}),
    "keras.activations.sigmoid": (["f32_3"], {}, {0: ["np_c128", "c128_2"]}),
    "math.log_sigmoid": (["f32_3"], {}, {0: ["np_c128", "c128_2"]}),
    # Keras 3's get() and Dense's units
    "keras.optimizers.get": (["'sgd'"], {}, {0: _KERAS_IDS}),
    "keras.losses.get": (["'mse'"], {}, {0: _KERAS_IDS}),
    "keras.initializers.get": (["'zeros'"], {}, {0: _KERAS_IDS + ["np_f64", "f32_3"]}),
    "keras.activations.get": (["'relu'"], {}, {0: ["None", "'nope'", "cfg:Nope", "1.5"]}),
    "keras.layers.Dense": (
        ["3"],
        {},
        {
            0: ["True", "False", "np_int64_scalar", "3.0"],
            "dtype": ["'mixed_float32'", "'nope'", "1.5", "3", "f32_3", "'int32'"],
        },
    ),
    # dtype policies (only names that fail: a valid one would change the global policy)
    "keras.mixed_precision.Policy": (
        ["'mixed_float16'"],
        {},
        {0: ["None", "1.5", "3", "True", "'mixed_float32'", "'nope'", "'float8'", "f32_3"]},
    ),
    "keras.mixed_precision.set_global_policy": (
        ["'float32'"],
        {},
        {0: ["None", "1.5", "3", "'mixed_float32'", "'nope'", "f32_3", "[]"]},
    ),
    # products, running sums and products, tan, add_n
    "reduce_prod": (
        ["f32_2x3"],
        {},
        {0: ["i32_3", "bool_3", "string_2", "np_c128", "[]"], "axis": _AXES + ["2", "-3"]},
    ),
    "math.cumsum": (
        ["f32_2x3"],
        {},
        {
            0: ["i32_3", "bool_3", "string_2", "f32_0d"],
            "axis": ["1", "-1", "2", "-3", "1.5", "[0]"],
        },
    ),
    "math.cumprod": (
        ["f32_2x3"],
        {"exclusive": "True"},
        {"reverse": ["True", "None", "'yes'"], "axis": ["1", "2", "i32_3"]},
    ),
    "math.tan": (["f32_3"], {}, {0: ["i32_3", "bool_3", "np_c128", "f64_3", "string_2"]}),
    "add_n": (
        ["[f32_3,f32_3]"],
        {},
        {0: _SEQS + ["[]", "[f32_3]", "f32_3", "[f32_3,f32_2x3]", "[i32_3,i32_3]", "None"]},
    ),
}


def generate_more(general_pool, seed=16):
    """The calls, deterministically: each base call, then each slot replaced in turn by each of
    its candidates and by two values sampled from the general pool."""
    rng = random.Random(seed)
    pool = sorted(general_pool, key=str)
    calls = []
    for fn, (args, kwargs, slots) in FUNCS_MORE.items():
        calls.append([fn, list(args), dict(kwargs)])
        for where, candidates in slots.items():
            for name in [*candidates, *rng.sample(pool, 2)]:
                a, k = list(args), dict(kwargs)
                if isinstance(where, int):
                    a[where] = name
                else:
                    k[where] = name
                calls.append([fn, a, k])
    return calls
