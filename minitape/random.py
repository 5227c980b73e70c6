"""Random tensors, drawn as TensorFlow draws them: the same numbers, bit for bit.

Every draw comes from Philox streams computed as TF's CPU kernels compute them (`philox.py`
says how seeds become streams and streams become numbers). What picks the stream:

* `set_seed(s)` sets the global seed. An op given no `seed=` then takes an op seed from a
  Python `random.Random(s)` (TF's eager context does just this), so every later sequence of
  draws repeats, and two identical calls differ.
* An op's seeds (global, op) pick its kernel: the first call with those seeds (and the same
  op and dtypes) starts the stream, and every identical call continues it, as TF's cache of
  eager kernels does. `set_seed` empties that cache.
* No global seed: an op seed alone is paired with TF's default global seed (87654321); with
  neither, the stream is random.
* `stateless_normal` / `stateless_uniform` / `stateless_truncated_normal` take their stream
  from their seed pair alone: no state at all.

Draws are ops (with no inputs but a tensor to shuffle), so `minitape.function` replays them,
drawing anew on every call; their kernels' state lives here, in `_global`.
"""

import contextlib
import copy
import itertools
import random as _py_random
import secrets
import weakref

import numpy as np

from . import dtypes as _dt
from . import philox
from .array_ops import stack as _stack
from .context import STATE
from .creation_ops import zeros_like as _zeros_like
from .errors import NotFoundError as _NotFoundError
from .errors import UnimplementedError as _UnimplementedError
from .errors import invalid
from .math_ops import add as _add
from .math_ops import multiply as _multiply
from .math_ops import subtract as _subtract
from .op_args import _shape_arg
from .tape import Op, apply
from .tensor import convert_to_tensor as _convert_to_tensor
from .tensor import is_tensor as _is_tensor
from .tensor import read as _read

__all__ = [
    "set_seed",
    "normal",
    "uniform",
    "truncated_normal",
    "shuffle",
    "categorical",
    "stateless_normal",
    "stateless_uniform",
    "stateless_truncated_normal",
    "Generator",
    "get_global_generator",
    "set_global_generator",
    "create_rng_state",
]

DEFAULT_GRAPH_SEED = 87654321  # TF's global seed for an op seeded without one
_MAXINT32 = 2**31 - 1

# seed: the global seed as given (None: not set); rng: the Python generator of op seeds;
# kernels: (op, seed, seed2, dtypes...) -> the Philox stream of that op's kernel;
# generators: the state of each tf.random.Generator, [counter low, counter high, key].
_global = {"seed": None, "rng": None, "kernels": {}, "generators": {}}


@contextlib.contextmanager
def _unchanged():
    """Draws inside this block do not advance any generator (for a trace that changes nothing)."""
    saved = copy.deepcopy(_global)
    try:
        yield
    finally:
        _global.clear()
        _global.update(saved)


def set_seed(seed):
    """Set the global seed: every later sequence of draws (with or without op seeds) repeats.

    As TF, any value is taken here: the op seeds come from `random.Random(seed)` (an
    unhashable seed, such as a tensor, as `int(np.array(seed))`), and a seed that is no number
    fails at the next draw (`seed % (2**31 - 1)`, TF's truncation). (As in TF, the seed is kept
    even when making the generator fails.)"""
    _global["seed"] = seed
    try:
        hash(seed)
        rng = _py_random.Random(seed)
    except TypeError:
        rng = _py_random.Random(int(np.array(seed)))
    _global["rng"] = rng
    _global["kernels"] = {}  # (TF clears its kernel cache: streams start again)


def _truncate(seed):
    return seed % _MAXINT32  # (TF's own arithmetic: a string fails here, a float stays one)


def get_seed(op_seed):
    """The (seed, seed2) pair of an op given `op_seed`, as TF's `random_seed.get_seed` makes
    it; (None, None), 'random', when neither seed is set. Without an op seed: in eager mode
    the next number of the Python generator `set_seed` made, in a function being traced the
    count of such ops before it in the graph (0, 1, 2, ...)."""
    global_seed = _global["seed"]
    if global_seed is not None:
        if op_seed is None:
            graph = STATE.tracer
            if graph is None:
                op_seed = _global["rng"].randint(0, _MAXINT32)
            else:
                op_seed = graph.__dict__.get("random_seeds_used", 0)
                graph.random_seeds_used = op_seed + 1
        seeds = _truncate(global_seed), _truncate(op_seed)
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, _truncate(op_seed)
    else:
        seeds = None, None
    # (0, 0) would mean 'random' to the kernel
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _attrs(seeds):
    """The seeds as the op's int attributes seed and seed2 (None is 0), converted as TF's op
    wrappers convert them: int(), and TypeError for what int() refuses."""
    out = []
    for name, value in zip(("seed", "seed2"), seeds):
        try:
            out.append(0 if value is None else int(value))
        except (TypeError, ValueError):
            raise TypeError(f"Expected int for argument '{name}' not {value!r}.") from None
    return tuple(out)


def _kernel_instance():
    """Which kernel a draw uses besides its op, seeds and dtypes: eager ops share TF's kernel
    cache (None); each random op of a traced function has a kernel of its own, named by its
    function, signature and place in the graph."""
    graph = STATE.tracer
    if graph is None:
        return None
    n = graph.__dict__.get("random_ops", 0)
    graph.random_ops = n + 1
    return (getattr(graph, "kernel_scope", id(graph)), n)


def _kernel(key):
    """The stream of the kernel `key` = ((op, instance), seed, seed2, dtypes...): made on
    first use."""
    stream = _global["kernels"].get(key)
    if stream is None:
        seed, seed2 = key[1], key[2]
        if seed == 0 and seed2 == 0:  # no seed at all: a random stream
            seed, seed2 = secrets.randbits(64), secrets.randbits(64)
        stream = _global["kernels"][key] = philox.Stream.from_seeds(seed, seed2)
    return stream


def _size(shape):
    if any(d < 0 for d in shape):
        raise ValueError(f"Dimension {min(shape)} must be >= 0")
    return int(np.prod(shape, dtype=np.int64))


def _stateful(draw):
    """The forward of a stateful random op: a kernel's stream, moved on by 256 blocks per
    output (TF's reservation), then `draw(stream, size, dtype)`."""

    def forward(shape, dtype, seed, seed2, kernel):
        size = _size(shape)
        stream = _kernel((kernel, seed, seed2, np.dtype(dtype).name))
        return draw(stream.reserve(256 * size), size, dtype).reshape(shape)

    return forward


RandomStandardNormal = Op("RandomStandardNormal", _stateful(philox.normal))
RandomUniform = Op("RandomUniform", _stateful(philox.uniform))
TruncatedNormal = Op("TruncatedNormal", _stateful(philox.truncated_normal))
RandomUniformInt = Op(
    "RandomUniformInt",
    lambda shape, dtype, seed, seed2, kernel, lo, hi: _stateful(
        lambda stream, size, dtype: philox.uniform_int(stream, size, lo, hi, dtype)
    )(shape, dtype, seed, seed2, kernel),
)


def _float16_uniform(stream, size, dtype):
    """float16 uniforms: TF makes them from the low 16 bits of each word (10 mantissa bits)."""
    words = stream.blocks(np.arange(-(-size // 4))).reshape(-1)[:size]
    bits = ((words & np.uint32(0x3FF)) | np.uint32(15 << 10)).astype(np.uint16)
    return bits.view(np.float16) - np.float16(1.0)


def _uniform_floats(stream, size, dtype):
    if np.dtype(dtype) == np.float16:
        return _float16_uniform(stream, size, dtype)
    return philox.uniform(stream, size, dtype)


RandomUniform.forward = _stateful(_uniform_floats)


def _float_dtype(dtype, what):
    d = _dt.as_dtype(dtype)
    if not d.is_floating:
        # (TF fails converting the default mean 0.0 to that dtype)
        raise TypeError(
            f"Cannot convert 0.0 to EagerTensor of dtype {d.name} (random.{what} "
            "needs a floating dtype)"
        )
    return d


def _invalid_shape(op_name):
    """A shape that is not integers reaches TF's random kernels: their InvalidArgumentError."""
    return lambda message: invalid(op_name, message)


def _shape(shape, op_name):
    """The shape of a draw, as TF's kernels take it: a vector of integers (a scalar, even an
    integer, is refused)."""
    if type(shape) is int and not -(2**63) <= shape < 2**63:
        raise ValueError(f"shape = {shape} is out of range for an int64")
    if (
        isinstance(shape, (bool, int, float, np.generic))
        or (isinstance(shape, np.ndarray) and shape.ndim == 0)
        or (_is_tensor(shape) and shape.shape.rank == 0)
    ):
        raise invalid(op_name, "shape must be a vector of {int32,int64}, got shape []")
    if _all_bools(shape):  # (TF converts [True] to a bool tensor, which the kernel refuses)
        raise invalid(
            op_name,
            "Value for attr 'Tshape' of bool is not in the list of allowed values: int32, int64",
        )
    return _shape_arg(shape, _invalid_shape(op_name), by_op=False)


def _all_bools(shape):
    if isinstance(shape, (list, tuple)):
        return len(shape) > 0 and all(isinstance(s, (bool, np.bool_)) for s in shape)
    return (isinstance(shape, np.ndarray) or _is_tensor(shape)) and shape.dtype == bool


def _scale_shift(rnd, stddev, mean):
    """rnd * stddev + mean, as TF adds them: two ops of the output's dtype (so a tape watching
    `mean` or `stddev` gets their gradients)."""
    return _add(_multiply(rnd, stddev), mean)


def _draw(op, shape, d, seed, seeds=None, **attrs):
    seed1, seed2 = _attrs(get_seed(seed) if seeds is None else seeds)
    return apply(
        op,
        shape=shape,
        dtype=d._np,
        seed=seed1,
        seed2=seed2,
        kernel=(op.name, _kernel_instance()),
        **attrs,
    )


def normal(shape, mean=0.0, stddev=1.0, dtype=_dt.float32, seed=None, name=None):
    """Samples from N(mean, stddev**2) with the given shape."""
    d = _float_dtype(dtype, "normal")
    shape = _shape(shape, "RandomStandardNormal")
    mean, stddev = _convert_to_tensor(mean, dtype=d), _convert_to_tensor(stddev, dtype=d)
    rnd = _draw(RandomStandardNormal, shape, d, seed)
    return _scale_shift(rnd, stddev, mean)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_dt.float32, seed=None, name=None):
    """Samples from N(mean, stddev**2) cut at two standard deviations: a value further from
    the mean is drawn again."""
    d = _float_dtype(dtype, "truncated_normal")
    shape = _shape(shape, "TruncatedNormal")
    mean, stddev = _convert_to_tensor(mean, dtype=d), _convert_to_tensor(stddev, dtype=d)
    rnd = _draw(TruncatedNormal, shape, d, seed)
    return _scale_shift(rnd, stddev, mean)


_UNIFORM_DTYPES = ("float16", "bfloat16", "float32", "float64", "int32", "int64")


def uniform(shape, minval=0, maxval=None, dtype=_dt.float32, seed=None, name=None):
    """Samples from U[minval, maxval) (maxval defaults to 1 for floats)."""
    d = _dt.as_dtype(dtype)
    if d.name not in _UNIFORM_DTYPES:
        raise ValueError(
            f"Argument `dtype` got invalid value {d!r}. Accepted dtypes are "
            f"({', '.join('tf.' + n for n in _UNIFORM_DTYPES)})."
        )
    if maxval is None:
        if d.is_integer:
            raise ValueError("Must specify maxval for integer dtype " + repr(d))
        maxval = 1
    shape = _shape(shape, "RandomUniformInt" if d.is_integer else "RandomUniform")
    # (TF skips the arithmetic for [0, 1): minval and maxval given as the ints 0 and 1)
    minval_is_zero = isinstance(minval, int) and minval == 0
    maxval_is_one = isinstance(maxval, int) and maxval == 1
    if not minval_is_zero or not maxval_is_one or d.is_integer:
        minval = _convert_to_tensor(minval, dtype=d)
        maxval = _convert_to_tensor(maxval, dtype=d)
    if d.is_integer:
        seeds = get_seed(seed)  # (taken before the kernel checks the bounds, as in TF)
        lo, hi = _int_bounds(minval, maxval, "RandomUniformInt")
        return _draw(RandomUniformInt, shape, d, seed, seeds, lo=lo, hi=hi)
    result = _draw(RandomUniform, shape, d, seed)
    if minval_is_zero:
        return result if maxval_is_one else _multiply(result, maxval)
    return _add(_multiply(result, _subtract(maxval, minval)), minval)


def _int_bounds(minval, maxval, op_name):
    """The bounds of an integer draw, checked as TF's kernel checks them."""
    for what, t in (("minval", minval), ("maxval", maxval)):
        if t.shape.rank != 0:
            raise invalid(op_name, f"{what} must be 0-D, got shape {list(t.shape)}")
    lo, hi = int(minval.numpy()), int(maxval.numpy())
    if not lo < hi:
        raise invalid(op_name, f"Need minval < maxval, got {lo} >= {hi}")
    return lo, hi


def _shuffle(x, seed, seed2, kernel):
    if x.size <= 1 or x.ndim == 0 or x.shape[0] <= 1:
        return x.copy()  # (nothing to shuffle: TF returns it as it is, and draws nothing)
    n = x.shape[0]
    stream = _kernel((kernel, seed, seed2, x.dtype.name)).reserve((n - 1 + 3) // 4)
    return x[philox.shuffle_permutation(stream, n)]


RandomShuffle = Op("RandomShuffle", _shuffle)
RandomShuffle.vjps = (None,)  # not differentiable


def shuffle(value, seed=None, name=None):
    """A copy of `value` with its first dimension shuffled (not differentiable)."""
    value = _read(value)
    seed1, seed2 = _attrs(get_seed(seed))
    kernel = ("RandomShuffle", _kernel_instance())
    return apply(RandomShuffle, value, seed=seed1, seed2=seed2, kernel=kernel)


def _multinomial(logits, num_samples, seed, seed2, kernel, output_dtype):
    batch = logits.shape[0]
    if batch * num_samples == 0:
        return np.zeros((batch, num_samples), output_dtype)  # (TF draws nothing then)
    stream = _kernel((kernel, seed, seed2, logits.dtype.name, np.dtype(output_dtype).name))
    stream = stream.reserve(256 * batch * ((num_samples + 3) // 4 * 4) * 2)  # (2 words each)
    return philox.categorical(stream, logits, num_samples).astype(output_dtype)


Multinomial = Op("Multinomial", _multinomial)
Multinomial.vjps = (None,)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """`num_samples` class indices for each row of `logits` (batch, classes), each class
    drawn with probability softmax(logits) (not differentiable)."""
    logits = _convert_to_tensor(logits)
    d = _dt.as_dtype(dtype) if dtype else _dt.int64
    if d not in (_dt.int32, _dt.int64):
        raise ValueError(
            f"Argument `dtype` got invalid value {d!r}. Accepted dtypes are (tf.int32, tf.int64)."
        )
    seed1, seed2 = _attrs(get_seed(seed))
    if _is_tensor(num_samples) and num_samples.dtype != _dt.int32:
        raise invalid(
            "Multinomial",
            f"cannot compute Multinomial as input #1(zero-based) was expected to be a int32 "
            f"tensor but is a {num_samples.dtype.name} tensor",
        )
    n = _convert_to_tensor(num_samples, dtype=_dt.int32)
    if not (logits.dtype.is_floating or logits.dtype.is_integer):
        raise invalid(
            "Multinomial",
            f"Value for attr 'T' of {logits.dtype.name} is not in the list of allowed values",
        )
    if not logits.dtype.is_floating:  # (TF registers the op for integers, with no kernel)
        raise _NotFoundError(
            None,
            "Multinomial",
            f"Could not find device for node: {{{{node Multinomial}}}} = Multinomial"
            f"[T=DT_{logits.dtype.name.upper()}, output_dtype=DT_{d.name.upper()}, "
            f"seed={seed1}, seed2={seed2}]",
        )
    if logits.shape.rank != 2:
        raise invalid("Multinomial", f"logits should be a matrix, got shape {list(logits.shape)}")
    if n.shape.rank != 0:
        raise invalid("Multinomial", f"num_samples should be a scalar, got shape {list(n.shape)}")
    n = int(n.numpy())
    if n < 0:
        raise invalid("Multinomial", f"num_samples should be non-negative, got {n}")
    if logits.shape[1] == 0:
        raise invalid("Multinomial", "num_classes should be positive, got 0")
    return apply(
        Multinomial,
        logits,
        num_samples=n,
        seed=seed1,
        seed2=seed2,
        kernel=("Multinomial", _kernel_instance()),
        output_dtype=d._np,
    )


# --- stateless ops: the stream from the seed pair alone ------------------------------------
def _stateless(draw):
    """The forward of a stateless op: its seed is an input (a traced function replays it with
    each call's seed), made into the stream's key and counter as TF's
    StatelessRandomGetKeyCounter makes them."""

    def forward(seed, shape, dtype):
        s0, s1 = (int(v) for v in np.asarray(seed).reshape(-1))
        size = _size(shape)
        return draw(philox.stateless_key_counter(s0, s1), size, dtype).reshape(shape)

    return forward


StatelessRandomNormalV2 = Op("StatelessRandomNormalV2", _stateless(philox.normal))
StatelessRandomUniformV2 = Op("StatelessRandomUniformV2", _stateless(_uniform_floats))
StatelessTruncatedNormalV2 = Op("StatelessTruncatedNormalV2", _stateless(philox.truncated_normal))
StatelessRandomUniformIntV2 = Op(
    "StatelessRandomUniformIntV2",
    lambda seed, shape, dtype, lo, hi: _stateless(
        lambda stream, size, dtype: philox.uniform_int(stream, size, lo, hi, dtype)
    )(seed, shape, dtype),
)


def _full_int(stream, size, dtype):
    dtype = np.dtype(dtype)
    if dtype.itemsize == 8:
        b = stream.blocks(np.arange(-(-size // 2)))
        bits = b[:, 0::2].astype(np.uint64) | (b[:, 1::2].astype(np.uint64) << np.uint64(32))
        return bits.reshape(-1)[:size].view(dtype)
    return stream.blocks(np.arange(-(-size // 4))).reshape(-1)[:size].view(dtype)


StatelessRandomUniformFullIntV2 = Op("StatelessRandomUniformFullIntV2", _stateless(_full_int))


def _seed_pair(seed, op_name):
    """A stateless op's seed: a shape [2] integer tensor (int32 or int64; an int32 seed is read
    as TF reads it, sign-extended). Converted as TF's StatelessRandomGetKeyCounter takes it: a
    Python number as int64, numpy integers cast to int64, anything else by the default rules,
    then its dtype checked."""
    op_name = "StatelessRandomGetKeyCounter"
    if isinstance(seed, (bool, int, float)) or (
        isinstance(seed, np.ndarray) and seed.dtype.kind in "iub"
    ):
        t = _convert_to_tensor(seed, dtype=_dt.int64)
    else:
        t = _convert_to_tensor(seed)
    if t.dtype not in (_dt.int32, _dt.int64):
        raise invalid(
            op_name,
            f"Value for attr 'Tseed' of {t.dtype.name.replace('32', '')} is not in the list of "
            "allowed values: int32, int64",
        )
    if t.shape != (2,):
        raise invalid(op_name, f"seed must have shape [2], not {list(t.shape)}")
    return t


# TF's stateless ops take `alg` as 1 (Philox), 2 (ThreeFry) or 3 (auto-select, Philox on a CPU),
# or by name; 1 and 3 give the same stream on a CPU
_STATELESS_ALGORITHMS = {"philox": 1, "threefry": 2, "autoselect": 3}


def _stateless_algorithm(alg):
    """`alg` as TF's stateless ops check it (random_ops_util.convert_alg_to_int), as an int."""
    if alg is None:
        return 3
    names = ("philox", "threefry", "auto_select")
    if isinstance(alg, str):
        key = alg.strip().lower().replace("-", "").replace("_", "")
        if key not in _STATELESS_ALGORITHMS:
            raise ValueError(_unsupported_algorithm(alg, names))
        return _STATELESS_ALGORITHMS[key]
    alg = getattr(alg, "value", alg)  # (an Algorithm enum)
    if not isinstance(alg, int):
        raise TypeError(
            f"Can't convert argument `alg` (of value {alg} and type {type(alg)}) to int."
        )
    if alg not in (1, 2, 3):
        raise ValueError(_unsupported_algorithm(alg, (1, 2, 3)))
    return int(alg)


def _unsupported_algorithm(alg, names):
    philox, threefry, auto_select = names
    return (
        f"Argument `alg` got unsupported value {alg}. Supported values are {philox} for the "
        f"Philox algorithm, {threefry} for the ThreeFry algorithm, and {auto_select} for "
        "auto-selection."
    )


def _stateless_draw(op, shape, seed, d, alg, **attrs):
    shape = _shape(shape, op.name)
    alg = _stateless_algorithm(alg)
    seed = _seed_pair(seed, op.name)
    if alg == 2:  # (TF makes ThreeFry's counter one word long, which its CPU kernels refuse)
        raise invalid(
            op.name,
            "counter must be a vector with length at least 2; got shape: [1]. (Note that "
            "batched counters are not supported yet.)",
        )
    return apply(op, seed, shape=shape, dtype=d._np, **attrs)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None, alg=None):
    """Samples from N(mean, stddev**2): the same for the same `seed` (two integers), always."""
    d = _float_dtype(dtype, "stateless_normal")
    mean, stddev = _convert_to_tensor(mean, dtype=d), _convert_to_tensor(stddev, dtype=d)
    rnd = _stateless_draw(StatelessRandomNormalV2, shape, seed, d, alg)
    return _scale_shift(rnd, stddev, mean)


def stateless_truncated_normal(
    shape, seed, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None, alg=None
):
    """`truncated_normal`, the same for the same `seed` (two integers), always."""
    d = _float_dtype(dtype, "stateless_truncated_normal")
    mean, stddev = _convert_to_tensor(mean, dtype=d), _convert_to_tensor(stddev, dtype=d)
    rnd = _stateless_draw(StatelessTruncatedNormalV2, shape, seed, d, alg)
    return _scale_shift(rnd, stddev, mean)


_STATELESS_UNIFORM_DTYPES = _UNIFORM_DTYPES + ("uint32", "uint64")


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=_dt.float32, name=None, alg=None):
    """Samples from U[minval, maxval): the same for the same `seed` (two integers), always.
    For integers, `minval=None, maxval=None` gives the full range of the dtype."""
    d = _dt.as_dtype(dtype)
    if d.name not in _STATELESS_UNIFORM_DTYPES:
        raise ValueError(
            f"Argument `dtype` got invalid value {d!r}. Accepted dtypes are "
            f"({', '.join('tf.' + n for n in _STATELESS_UNIFORM_DTYPES)})."
        )
    if d.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(
                f"For integer `dtype` argument {d!r}, argument `minval` and `maxval` must be "
                f"both None or not None. Got `minval`={minval} and `maxval`={maxval}."
            )
        if minval is not None and d.name in ("uint32", "uint64"):
            raise ValueError(
                f"Argument `dtype` got invalid value {d!r} when argument `minval` is not "
                "None. Please don't use unsigned integers in this case."
            )
    elif maxval is None:
        maxval = 1
    if d.is_integer and minval is None:
        return _stateless_draw(StatelessRandomUniformFullIntV2, shape, seed, d, alg)
    minval, maxval = _convert_to_tensor(minval, dtype=d), _convert_to_tensor(maxval, dtype=d)
    if d.is_integer:
        lo, hi = _int_bounds(minval, maxval, "StatelessRandomUniformIntV2")
        return _stateless_draw(StatelessRandomUniformIntV2, shape, seed, d, alg, lo=lo, hi=hi)
    rnd = _stateless_draw(StatelessRandomUniformV2, shape, seed, d, alg)
    return _add(_multiply(rnd, _subtract(maxval, minval)), minval)


# --- tf.random.Generator: a stream of its own --------------------------------------------
_M64 = (1 << 64) - 1
_STATE_SIZE = 3  # Philox: the counter (two 64-bit words), then the key
_ALGORITHMS = {1: 1, 3: 1, "philox": 1, "auto_select": 1}  # (on CPU, auto_select is Philox)
_generator_ids = itertools.count()


def _forget(generator_id):
    _global["generators"].pop(generator_id, None)


def _state_words(seed):
    """A generator's state from a seed, as TF's create_rng_state makes it: an int is cut into
    64-bit words, low first (so a small seed is the counter, with key 0); anything else is
    read as int64s, its first three kept, zeros put on the left of a shorter one."""
    if isinstance(seed, int):
        words = []
        for _ in range(_STATE_SIZE):
            words.append(seed & _M64)
            seed >>= 64
        return words
    seed = _convert_to_tensor(seed)
    if seed.dtype.name == "string":
        raise _UnimplementedError(None, "Cast", "Cast string to int64 is not supported [Op:Cast]")
    values = seed.numpy().astype(np.int64).reshape(-1)[:_STATE_SIZE]
    words = [int(v) & _M64 for v in values.tolist()]
    return [0] * (_STATE_SIZE - len(words)) + words


def _algorithm(alg):
    key = alg.strip().lower().replace("-", "").replace("_", "") if isinstance(alg, str) else alg
    key = {"autoselect": "auto_select"}.get(key, key)
    key = getattr(key, "value", key)  # (an Algorithm enum)
    if key not in _ALGORITHMS:
        raise ValueError(
            f"Argument `alg` got unsupported value {alg}. Supported values are 1 for the "
            "Philox algorithm and 3 for auto-selection (minitape has no ThreeFry)."
        )
    return _ALGORITHMS[key]


def _generator_stream(generator_id, size):
    """The generator's stream as it is, then its counter moved on by 256 blocks per output
    (TF's RngReadAndSkip)."""
    c0, c1, key = _global["generators"][generator_id]
    counter = c0 | c1 << 64
    moved = (counter + 256 * size) & ((1 << 128) - 1)
    _global["generators"][generator_id] = [moved & _M64, moved >> 64, key]
    return philox.Stream(key, counter)


def _generated(draw):
    def forward(shape, dtype, generator):
        size = _size(shape)
        return draw(_generator_stream(generator, size), size, dtype).reshape(shape)

    return forward


StatefulStandardNormalV2 = Op("StatefulStandardNormalV2", _generated(philox.normal))
StatefulUniform = Op("StatefulUniform", _generated(_uniform_floats))
StatefulTruncatedNormal = Op("StatefulTruncatedNormal", _generated(philox.truncated_normal))
StatefulUniformFullInt = Op("StatefulUniformFullInt", _generated(_full_int))
StatefulUniformInt = Op(
    "StatefulUniformInt",
    lambda shape, dtype, generator, lo, hi: _generated(
        lambda stream, size, dtype: philox.uniform_int(stream, size, lo, hi, dtype)
    )(shape, dtype, generator),
)


class Generator:
    """`tf.random.Generator`: random numbers from a Philox stream of its own, as TF's.

    `Generator.from_seed(s)` starts the stream at counter s, key 0 (TF's create_rng_state);
    every draw of n numbers takes the stream where it is and moves its counter on by 256 * n
    blocks. `split(k)` draws k int64 keys and makes k generators with those keys, counter 0.
    Its draws are ops, so `minitape.function` replays them. (`state` is a tensor of the three
    int64 words, not a variable.)"""

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            if state is not None or alg is not None:
                raise ValueError("When `copy_from` is not None, `state` and `alg` must be None.")
            words, alg = list(_global["generators"][copy_from._id]), copy_from.algorithm
        else:
            if state is None or alg is None:
                raise ValueError("When `copy_from` is None, `state` and `alg` must not be None.")
            words = _state_words(state)
        self._alg = _algorithm(alg)
        self._id = next(_generator_ids)
        _global["generators"][self._id] = words
        weakref.finalize(self, _forget, self._id)

    @classmethod
    def from_seed(cls, seed, alg=None):
        return cls(state=seed, alg=1 if alg is None else alg)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        words = [secrets.randbits(64) for _ in range(_STATE_SIZE)]
        return cls(state=[w - (1 << 64) if w >> 63 else w for w in words], alg=alg or 1)

    def reset(self, state):
        _global["generators"][self._id] = _state_words(state)

    def reset_from_seed(self, seed):
        self.reset(seed)

    @property
    def state(self):
        words = [w - (1 << 64) if w >> 63 else w for w in _global["generators"][self._id]]
        return _convert_to_tensor(np.array(words, dtype=np.int64))

    @property
    def algorithm(self):
        return self._alg

    @property
    def key(self):
        return self.state[-1]

    def skip(self, delta):
        """Move the counter on by 256 * delta blocks; returns the state before."""
        before = self.state
        _generator_stream(self._id, int(delta))
        return before

    def _draw(self, op, shape, dtype, **attrs):
        return apply(op, shape=_shape(shape, op.name), dtype=dtype._np, generator=self._id, **attrs)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None):
        d = _float_dtype(dtype, "Generator.normal")
        mean, stddev = _convert_to_tensor(mean, dtype=d), _convert_to_tensor(stddev, dtype=d)
        return _scale_shift(self._draw(StatefulStandardNormalV2, shape, d), stddev, mean)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None):
        d = _float_dtype(dtype, "Generator.truncated_normal")
        mean, stddev = _convert_to_tensor(mean, dtype=d), _convert_to_tensor(stddev, dtype=d)
        return _scale_shift(self._draw(StatefulTruncatedNormal, shape, d), stddev, mean)

    def uniform(self, shape, minval=0, maxval=None, dtype=_dt.float32, name=None):
        d = _dt.as_dtype(dtype)
        if d.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(
                    f"For integer dtype {d!r}, minval and maxval must be both `None` or both "
                    f"non-`None`; got minval={minval} and maxval={maxval}"
                )
        elif maxval is None:
            maxval = 1
        if d.is_integer and minval is None:
            return self.uniform_full_int(shape, d)
        minval, maxval = _convert_to_tensor(minval, dtype=d), _convert_to_tensor(maxval, dtype=d)
        if d.is_integer:
            lo, hi = _int_bounds(minval, maxval, "StatelessRandomUniformIntV2")
            return self._draw(StatefulUniformInt, shape, d, lo=lo, hi=hi)
        rnd = self._draw(StatefulUniform, shape, d)
        return _add(_multiply(rnd, _subtract(maxval, minval)), minval)

    def uniform_full_int(self, shape, dtype="uint64", name=None):
        """Integers over the dtype's whole range (minitape has no unsigned 32- and 64-bit
        dtypes: give dtype=tf.int64 or tf.int32)."""
        return self._draw(StatefulUniformFullInt, shape, _dt.as_dtype(dtype))

    def make_seeds(self, count=1):
        """A (2, count) int64 tensor of seeds for the stateless ops: keys drawn from this
        generator over zeros."""
        keys = self.uniform_full_int([count], _dt.int64)
        return _stack([keys, _zeros_like(keys)])

    def split(self, count=1):
        """`count` new generators, independent of this one (their keys drawn from it)."""
        keys = self.uniform_full_int([count], _dt.int64).numpy().tolist()
        return [Generator(state=[0, 0, key], alg=self._alg) for key in keys]


_global_generator = [None]


def get_global_generator():
    """The generator of the program (made from a random state on first use, as in TF)."""
    if _global_generator[0] is None:
        _global_generator[0] = Generator.from_non_deterministic_state()
    return _global_generator[0]


def set_global_generator(generator):
    _global_generator[0] = generator


def create_rng_state(seed, alg):
    """The state `Generator.from_seed(seed, alg)` starts from, as an int64 tensor."""
    _algorithm(alg)
    words = [w - (1 << 64) if w >> 63 else w for w in _state_words(seed)]
    return _convert_to_tensor(np.array(words, dtype=np.int64))
