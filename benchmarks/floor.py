"""How fast could W1 be? The smallest tape that works as minitape's does, timed beside it.

    python benchmarks/floor.py

W1 (`y = y*w + b`, 1000 times, d/dw and d/db) measures the cost of one recorded op. This file
holds the least Python that records and differentiates it the way minitape does:

- each use of a variable reads it into a tensor of its own (an object with a value and an id),
  and the tape notes that the read leads to the variable;
- each op makes an output tensor with a new id and appends one entry to the tape: the op, its
  inputs, and a record of its output (id, shape, dtype), not the output itself, so that an
  intermediate the program drops is freed (the record can be left out: `--no-record`);
- the backward walks the entries newest first, calls each op's numpy rules, and at the end
  adds each read's gradient to its variable, in the order of the reads (minitape's order, so
  the numbers are the same to the last bit).

Nothing else: no dtype or shape checks, no TF errors, no tracing, no notes for `explain`, one
tape, two ops. minitape's eager row cannot get below this floor; the ratio to numpy by hand
is printed for each, measured in one process (thread CPU time, best of several rounds).
"""

import itertools
import operator
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]

import numpy as np  # noqa: E402
import workloads as W  # noqa: E402

import minitape  # noqa: E402

new_id = itertools.count(1).__next__


class Tensor:
    __slots__ = ("_value", "_id")


class Record:  # what an entry keeps of its output
    __slots__ = ("_id", "_shape", "_dtype")


def tensor(value):
    t = object.__new__(Tensor)
    t._value, t._id = value, new_id()
    return t


class Variable:
    def __init__(self, value):
        self.snap, self.id = tensor(np.float64(value)), new_id()


class Tape:
    def __init__(self, variables):
        self.entries, self.reads = [], {}
        self.watched = {v.id for v in variables}


TAPE = None  # the tape that is recording (one, no threads)


def read(v):
    r = tensor(v.snap._value)
    if TAPE is not None and v.id in TAPE.watched:
        TAPE.watched.add(r._id)
        TAPE.reads[r._id] = v.id
    return r


def make_op(forward, rules, record=True):
    def op(x, y):
        y = read(y)  # (W1's second operand is always a variable)
        value = forward(x._value, y._value)
        out = tensor(value)
        tape = TAPE
        if tape is not None and (x._id in tape.watched or y._id in tape.watched):
            if record:
                kept = object.__new__(Record)
                kept._id, kept._shape, kept._dtype = out._id, value.shape, value.dtype
            else:
                kept = out._id
            tape.entries.append((rules, (x, y), kept))
            tape.watched.add(out._id)
        return out

    return op


MUL_RULES = (lambda g, x, y: g * y._value, lambda g, x, y: g * x._value)
ADD_RULES = (lambda g, x, y: g, lambda g, x, y: g)


def backward(tape, target, variables):
    grads = {target._id: np.float64(1.0)}
    get, watched = grads.get, tape.watched
    for i in range(len(tape.entries) - 1, -1, -1):
        rules, (x, y), kept = tape.entries[i]
        g = grads.pop(kept if type(kept) is int else kept._id, None)
        if g is None:
            continue
        rule_x, rule_y = rules
        if x._id in watched:
            gx, prev = rule_x(g, x, y), get(x._id)
            grads[x._id] = gx if prev is None else prev + gx
        if y._id in watched:
            gy, prev = rule_y(g, x, y), get(y._id)
            grads[y._id] = gy if prev is None else prev + gy
    for rid, vid in tape.reads.items():  # each read's gradient to its variable, in read order
        g = get(rid)
        if g is not None:
            prev = get(vid)
            grads[vid] = g if prev is None else prev + g
    return [grads.get(v.id) for v in variables]


def floor_w1(d, record=True):
    global TAPE
    mul = make_op(operator.mul, MUL_RULES, record)
    add = make_op(operator.add, ADD_RULES, record)
    w, b, x0, n = Variable(d["w"]), Variable(d["b"]), tensor(np.float64(d["x0"])), d["n"]

    def step():
        global TAPE
        TAPE = tape = Tape([w, b])
        y = x0
        for _ in range(n):
            y = add(mul(y, w), b)
        TAPE = None
        return backward(tape, y, [w, b])

    return step


def best_time(step, repeats=100, rounds=5):
    best = float("inf")
    for _ in range(rounds):
        t0 = time.thread_time()
        for _ in range(repeats):
            step()
        best = min(best, (time.thread_time() - t0) / repeats)
    return best


def main():
    d = W.data("W1")
    rows = {
        "numpy by hand": W.NUMPY["W1"](d),
        "the floor (an output record per entry)": floor_w1(d),
        "the floor, without output records": floor_w1(d, record=False),
        "minitape eager": W.TF_STYLE["W1"](minitape, lambda f: f, d),
    }
    expected = rows["numpy by hand"]()
    for step in rows.values():  # every row computes W1's gradients (to rounding)
        got = [np.asarray(getattr(g, "numpy", lambda g=g: g)()) for g in step()]
        np.testing.assert_allclose(got, expected, rtol=1e-9)
    times = {name: [] for name in rows}
    for _ in range(3):  # interleaved, so that a busy moment hits every row alike
        for name, step in rows.items():
            times[name].append(best_time(step))
    base = min(times["numpy by hand"])
    print("W1, thread CPU time per step (best), ratio to numpy by hand in this run:")
    for name in rows:
        t = min(times[name])
        print(f"  {name:42s} {t * 1e3:7.3f} ms   x{t / base:5.1f}")


if __name__ == "__main__":
    main()
