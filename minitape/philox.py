"""Philox-4x32-10, the generator under every TensorFlow random op on CPU, and TF's fixed
transforms from its bits to numbers, in vectorised numpy.

Philox (Salmon et al., 2011) is a counter-based generator: a block of four 32-bit words is a
keyed bijection of a 128-bit counter, so block i of a stream is computed directly, without
the blocks before it. A stream is a key (64 bits) and a starting counter (128 bits).

How TF turns seeds into a key and a counter:

* Stateful ops (`tf.random.normal`, `uniform`, `truncated_normal`, `shuffle`, `categorical`)
  carry two seeds, `seed` and `seed2` (`random_seed.get_seed`). Their kernel's generator has
  key = `seed` (low word first) and counter = [0, 0, `seed2` low, `seed2` high]. The kernel
  lives in the eager kernel cache, so a second identical call continues where the first
  stopped: a call making n numbers takes the counter as it is and moves it on by 256 * n blocks
  (room for rejection sampling; a shuffle of n rows moves it by ceil((n - 1) / 4)).
* Stateless ops (`tf.random.stateless_normal`, ...) scramble their seed pair (s0, s1) once:
  one Philox block of counter [s0 low, s0 high, s1 low, s1 high] under the fixed key
  [0x3ec8f720, 0x02461e29]; its words 0 and 1 become the key, words 2 and 3 the high half of
  the counter (the low half starts at 0).

How TF turns a stream into numbers (random_distributions.h): the output is filled in groups,
group i from block counter + i. One block gives 4 float32 or int32 uniforms, 2 float64 or int64
uniforms, 4 float32 normals (Box-Muller on word pairs), 2 float64 normals (on word quadruples).
A float is made from mantissa bits: 1.0 with the word's low 23 (float32) or 52 (float64, from
two words) bits as mantissa, minus 1. A truncated normal cannot know how many words it needs,
so group i (4 float32 or 2 float64 numbers) starts at block counter + 256 * 4 * i / 4 (float64:
128 * i) and takes words one at a time, keeping the Box-Muller values with |x| < 2.
"""

import ctypes
import ctypes.util
import math

import numpy as np

__all__ = [
    "philox",
    "blocks",
    "Stream",
    "stateless_key_counter",
    "uniform",
    "normal",
    "truncated_normal",
    "uniform_int",
    "shuffle_permutation",
    "categorical",
]

_M32 = 0xFFFFFFFF
_M64 = (1 << 64) - 1
_MULTIPLIERS = (0xD2511F53, 0xCD9E8D57)
_KEY_STEPS = (0x9E3779B9, 0xBB67AE85)


def philox(counters, key):
    """Philox-4x32-10 of each row of `counters` (uint32, shape (n, 4)) under `key` (two
    32-bit ints): a uint32 array (n, 4)."""
    c = [counters[:, i].astype(np.uint64) for i in range(4)]
    k0, k1 = key
    for round_ in range(10):
        if round_:
            k0, k1 = (k0 + _KEY_STEPS[0]) & _M32, (k1 + _KEY_STEPS[1]) & _M32
        p0 = c[0] * np.uint64(_MULTIPLIERS[0])  # (32 x 32 bits: fits in 64)
        p1 = c[2] * np.uint64(_MULTIPLIERS[1])
        c = [
            (p1 >> np.uint64(32)) ^ c[1] ^ np.uint64(k0),
            p1 & np.uint64(_M32),
            (p0 >> np.uint64(32)) ^ c[3] ^ np.uint64(k1),
            p0 & np.uint64(_M32),
        ]
    return np.stack(c, axis=-1).astype(np.uint32)


def _words(value, n):
    """The low `n` 32-bit words of a Python int, low word first."""
    return [(value >> (32 * i)) & _M32 for i in range(n)]


def blocks(key, counter, offsets):
    """The blocks at counter + each of `offsets` (a 1-D array of block numbers) of the stream
    (key: a 64-bit int, counter: a 128-bit int): uint32 array (len(offsets), 4)."""
    offsets = np.asarray(offsets, dtype=np.uint64)
    lo = (offsets + np.uint64(counter & _M64)).astype(np.uint64)  # (wraps, like the C++)
    hi = np.uint64(counter >> 64) + (lo < offsets).astype(np.uint64)
    counters = np.stack(
        [lo & np.uint64(_M32), lo >> np.uint64(32), hi & np.uint64(_M32), hi >> np.uint64(32)],
        axis=-1,
    ).astype(np.uint32)
    return philox(counters, _words(key, 2))


class Stream:
    """A Philox generator's state: `key` (64 bits) and `counter` (128 bits), as Python ints."""

    __slots__ = ("key", "counter")

    def __init__(self, key, counter):
        self.key, self.counter = key & _M64, counter & ((1 << 128) - 1)

    @classmethod
    def from_seeds(cls, seed, seed2):
        """The generator of a stateful kernel with attributes seed and seed2."""
        return cls(seed & _M64, (seed2 & _M64) << 64)

    def skip(self, n):
        """Move on by n blocks (TF's `Skip`)."""
        self.counter = (self.counter + n) & ((1 << 128) - 1)

    def reserve(self, n):
        """A copy of this stream, then move this one on by n blocks (`ReserveSamples128`)."""
        copy = Stream(self.key, self.counter)
        self.skip(n)
        return copy

    def blocks(self, offsets):
        return blocks(self.key, self.counter, offsets)

    def words(self, n):
        """The first n 32-bit words of the stream, in order."""
        return self.blocks(np.arange((n + 3) // 4)).reshape(-1)[:n]

    def __repr__(self):
        return f"Stream(key={self.key:#x}, counter={self.counter:#x})"

    def __deepcopy__(self, memo):
        return Stream(self.key, self.counter)


def stateless_key_counter(seed0, seed1):
    """A stateless op's stream from its seed pair (int64 values; negative ones as TF casts
    them, two's complement)."""
    counter = np.array([_words(seed0 & _M64, 2) + _words(seed1 & _M64, 2)], dtype=np.uint32)
    mix = philox(counter, (0x3EC8F720, 0x02461E29))[0].tolist()
    return Stream(mix[0] | mix[1] << 32, (mix[2] | mix[3] << 32) << 64)


# --- from words to numbers -------------------------------------------------------------------
def _float32(words):
    """Uniform [0, 1) float32s from 32-bit words: 1.0 with 23 mantissa bits, minus 1."""
    bits = (words & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)
    return bits.view(np.float32) - np.float32(1.0)


def _float64(hi, lo):
    """Uniform [0, 1) float64s from pairs of words (20 mantissa bits from hi, 32 from lo)."""
    bits = ((hi & np.uint32(0xFFFFF)).astype(np.uint64) << np.uint64(32)) | lo.astype(np.uint64)
    return (bits | np.uint64(1023 << 52)).view(np.float64) - 1.0


def _c_float_functions():
    """The C library's float32 logf, sinf and cosf, which TF's kernels call. They are not
    correctly rounded (glibc's differ from the float64 result rounded to float32 for about 1%
    of inputs), so numpy's functions would not give TF's last bits; called one element at a
    time through ctypes (about 0.3 us each). Without a C math library: float64, rounded."""
    path = ctypes.util.find_library("m") or ctypes.util.find_library("c")
    try:
        lib = ctypes.CDLL(path)
        fns = [getattr(lib, name) for name in ("logf", "sinf", "cosf")]
    except (OSError, AttributeError, TypeError):
        return None
    for fn in fns:
        fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return fns


_C_FLOAT = _c_float_functions()


def _float32_function(index, numpy_fn):
    def apply(x):
        x = np.asarray(x, dtype=np.float32)
        if _C_FLOAT is None:
            return numpy_fn(x.astype(np.float64)).astype(np.float32)
        flat = x.reshape(-1).tolist()
        out = np.fromiter(map(_C_FLOAT[index], flat), dtype=np.float32, count=len(flat))
        return out.reshape(x.shape)

    return apply


_logf = _float32_function(0, np.log)
_sinf = _float32_function(1, np.sin)
_cosf = _float32_function(2, np.cos)


def _libm(fn, x):
    """A float64 function of the C library (Python's math module calls it), element by
    element: numpy's own may differ in the last bit."""
    return np.fromiter(map(fn, x.reshape(-1).tolist()), dtype=np.float64, count=x.size).reshape(
        x.shape
    )


def _box_muller_float32(x0, x1):
    """TF's BoxMullerFloat: two float32 normals from two words, in float32 arithmetic (the
    angle is 2 * M_PI, a double, times the uniform, rounded to float32)."""
    u1 = np.maximum(_float32(x0), np.float32(1.0e-7))
    v1 = (2.0 * math.pi * _float32(x1).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2.0) * _logf(u1))
    return _sinf(v1) * u2, _cosf(v1) * u2


def _box_muller_float64(x0, x1, x2, x3):
    """TF's BoxMullerDouble: two float64 normals from four words."""
    u1 = np.maximum(_float64(x0, x1), 1.0e-7)
    v1 = 2 * math.pi * _float64(x2, x3)
    u2 = np.sqrt(-2.0 * _libm(math.log, u1))
    return _libm(math.sin, v1) * u2, _libm(math.cos, v1) * u2


def _fixed(stream, size, per_block, make):
    """`size` numbers, `per_block` from each block of the stream in turn."""
    groups = -(-size // per_block)
    return make(stream.blocks(np.arange(groups))).reshape(-1)[:size]


def uniform(stream, size, dtype):
    """Uniform [0, 1) floats (float32 or float64), as TF's UniformDistribution."""
    if np.dtype(dtype) == np.float64:
        return _fixed(stream, size, 2, lambda b: _float64(b[:, 0::2], b[:, 1::2]))
    out = _fixed(stream, size, 4, _float32)
    return out if np.dtype(dtype) == np.float32 else out.astype(dtype)


def normal(stream, size, dtype):
    """Standard normals, as TF's NormalDistribution (Box-Muller)."""
    if np.dtype(dtype) == np.float64:
        return _fixed(
            stream,
            size,
            2,
            lambda b: np.stack(_box_muller_float64(*b.T), axis=-1),
        )
    out = _fixed(
        stream,
        size,
        4,
        lambda b: np.stack(_box_muller_float32(b[:, 0::2], b[:, 1::2]), axis=-1).reshape(-1, 4),
    )
    return out if np.dtype(dtype) == np.float32 else out.astype(dtype)


def _pair_candidates(words, dtype):
    """Box-Muller values from consecutive words (rows: groups), in the order TF tries them."""
    if dtype == np.float64:
        f0, f1 = _box_muller_float64(*(words[:, i::4].reshape(-1) for i in range(4)))
        shape = (words.shape[0], -1)
        return np.stack([f0.reshape(shape), f1.reshape(shape)], axis=-1).reshape(shape)
    f0, f1 = _box_muller_float32(words[:, 0::2], words[:, 1::2])
    return np.stack([f0, f1], axis=-1).reshape(words.shape[0], -1)


def truncated_normal(stream, size, dtype):
    """Standard normals within (-2, 2), as TF's TruncatedNormalDistribution: each group starts
    256 words-per-output apart and keeps the first accepted Box-Muller values."""
    wide = np.dtype(dtype) == np.float64
    per_group, skip = (2, 128) if wide else (4, 256)
    groups = -(-size // per_group)
    out = np.empty((groups, per_group), np.float64 if wide else np.float32)
    todo = np.arange(groups)
    n_blocks = 2 if wide else 1
    while todo.size:
        starts = (todo * skip).astype(np.uint64)
        offsets = (starts[:, None] + np.arange(n_blocks, dtype=np.uint64)).reshape(-1)
        words = stream.blocks(offsets).reshape(todo.size, -1)
        candidates = _pair_candidates(words, np.float64 if wide else np.float32)
        accepted = np.abs(candidates) < 2.0
        done = accepted.sum(axis=1) >= per_group
        for row in np.flatnonzero(done):
            out[todo[row]] = candidates[row][accepted[row]][:per_group]
        todo = todo[~done]
        n_blocks *= 2  # (rare: a group that needs more words than tried)
    out = out.reshape(-1)[:size]
    return out if out.dtype == np.dtype(dtype) else out.astype(dtype)


def uniform_int(stream, size, lo, hi, dtype):
    """Integers in [lo, hi), as TF's UniformDistribution for int32 / int64: lo + bits % range
    (bits: one word for int32, two for int64; slightly biased unless the range is a power of
    two, as in TF)."""
    if np.dtype(dtype) == np.int64:
        rng = np.uint64((hi - lo) & _M64)
        b = stream.blocks(np.arange(-(-size // 2)))
        bits = b[:, 0::2].astype(np.uint64) | (b[:, 1::2].astype(np.uint64) << np.uint64(32))
        r = bits.reshape(-1)[:size] % rng
        return (r + np.uint64(lo & _M64)).view(np.int64)
    rng = np.uint32((hi - lo) & _M32)
    r = stream.blocks(np.arange(-(-size // 4))).reshape(-1)[:size] % rng
    return (r + np.uint32(lo & _M32)).view(np.int32)


def shuffle_permutation(stream, n):
    """The order TF's RandomShuffle gives n rows: Fisher-Yates, row i swapped with row
    i + word_i % (n - i), one word per step."""
    perm = np.arange(n)
    if n <= 1:
        return perm
    words = stream.words(n - 1) % np.arange(n, 1, -1, dtype=np.uint32)
    for i, j in enumerate(words.tolist()):
        perm[i], perm[i + j] = perm[i + j], perm[i]
    return perm


def categorical(stream, logits, num_samples):
    """Class indices drawn from each row of `logits`, as TF's Multinomial on CPU: a float64
    running sum of exp(logit - max) (non-finite logits left out), and for each sample the first
    class whose running sum exceeds uniform * total, the uniform a float64 from two words. The
    rows take their words one after the other (TF's kernel when it runs the rows in one piece,
    as it does for small batches)."""
    batch, classes = logits.shape
    words = stream.words(2 * batch * num_samples).reshape(batch, num_samples, 2)
    out = np.empty((batch, num_samples), dtype=np.int64)
    for b in range(batch):
        row = logits[b]
        finite = np.isfinite(row)
        top = row[finite].max() if finite.any() else np.finfo(row.dtype).min
        terms = np.exp(row.astype(np.float64) - float(top))
        cdf = np.cumsum(np.where(finite, terms, 0.0))
        to_find = _float64(words[b, :, 0], words[b, :, 1]) * cdf[-1]
        out[b] = np.searchsorted(cdf, to_find, side="right")
    return out
