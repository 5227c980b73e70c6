"""A traced function replays with the values of each call, never with the values it was traced
with: every call of the differential fuzzer (tests/fuzz) that TF answers with a value, run
inside `minitape.function` with its tensor arguments as the function's arguments, gives on a
second call with other values (same shapes and dtypes) what the same call gives eagerly.

This is the family of silent wrong answers in which an op read an argument's value into an
attribute or a new tensor the trace did not record (`tf.range(n)`, `tf.fill(dims, x)`, a list
of tensors packed on numpy): its replay repeated the first call's numbers. And a tape around
the second call gets the gradients the same call gets eagerly (the replay records op by op)."""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import minitape
from tests.fuzz import calls
from tests.fuzz.test_fuzz import _close

CALLS = json.loads((Path(__file__).parent / "fuzz" / "record.json").read_text())["calls"]

# Calls whose traced answer is not the eager one on purpose, as in TF's graph mode.
GRAPH_SEMANTICS = {
    "get_static_value": "an argument's value is unknown while tracing: None, as in TF",
    "is_tensor": "a traced function returns its Python bool as a tensor",
    "constant": "tf.constant of a traced tensor is TF's TypeError",
    "Variable": "a tf.function may create variables on its first call only",
    "keras.losses.BinaryCrossentropy": "a loss object is not a tensor a function can return",
}


# tf.cond calls whose two branches return different structures, dtypes or kinds: traced, both
# branches are traced into one graph cond, which TF's graph mode refuses (a Python number from
# one branch it returns as a tensor). Eagerly only the branch taken runs.
COND_BRANCHES_DIFFER = {
    f"cond(bool_0d, {a}, {b})"
    for a, b in [
        ("fn:dict", "fn:two"),
        ("fn:f64", "fn:two"),
        ("fn:int", "fn:two"),
        ("fn:list1", "fn:two"),
        ("fn:none", "fn:two"),
        ("fn:pair", "fn:two"),
        ("fn:str", "fn:two"),
        ("fn:one", "fn:dict"),
        ("fn:one", "fn:f64"),
        ("fn:one", "fn:int"),
        ("fn:one", "fn:list1"),
        ("fn:one", "fn:none"),
        ("fn:one", "fn:pair"),
        ("fn:one", "fn:str"),
        ("fn:one", "lambda"),
    ]
}


def _other(t):
    """Another value of `t`'s shape and dtype (None for dtypes with no obvious other value)."""
    v = t._value
    if v.dtype.kind == "f":
        return minitape.constant(v * 2 + 1)
    if v.dtype.kind in "iu":
        return minitape.constant((v + 1).astype(v.dtype))
    if v.dtype.kind == "b":
        return minitape.constant(~v)
    return None


def _replayable_calls():
    for cid, (call, expected) in CALLS.items():
        fn, args, kwargs = call
        if expected[0] != "returns" or fn.startswith(("script:", "~", "@")):
            continue
        if fn.startswith(calls.RANDOM):  # (a new draw on every call)
            continue
        if fn in GRAPH_SEMANTICS or cid in COND_BRANCHES_DIFFER:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = [calls._value(minitape, n) for n in [*args, *kwargs.values()]]
        if any(type(v) is minitape.Tensor and _other(v) is not None for v in values):
            yield cid


def _call(cid):
    """The call as a function of its tensor arguments (a list): (function, the recorded
    tensors, other values of theirs), or a skip when no tensor can be given another value."""
    fn, args, kwargs = CALLS[cid][0]
    a = [calls._value(minitape, n) for n in args]
    k = {key: calls._value(minitape, n) for key, n in kwargs.items()}
    places = [i for i, x in enumerate(a) if type(x) is minitape.Tensor]
    names = [key for key, x in k.items() if type(x) is minitape.Tensor]
    firsts = [a[i] for i in places] + [k[n] for n in names]
    others = [_other(t) for t in firsts]
    if any(o is None for o in others):
        pytest.skip("a tensor argument with no other value to give")
    target = calls._resolve(minitape, fn)

    def call_with(tensors):
        aa, kk = list(a), dict(k)
        for i, t in zip(places, tensors):
            aa[i] = t
        for n, t in zip(names, tensors[len(places) :]):
            kk[n] = t
        return target(*aa, **kk)

    return call_with, firsts, others


@pytest.mark.parametrize("cid", list(_replayable_calls()))
def test_a_traced_call_replays_with_the_new_values(cid):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call_with, firsts, others = _call(cid)
        try:
            eager = calls.outcome(call_with(others))
        except Exception:  # noqa: BLE001  (the other values are not valid input: nothing to compare)
            pytest.skip("the other values are refused eagerly")
        traced = minitape.function(call_with)
        traced(firsts)  # the trace, with the first values
        replayed = calls.outcome(traced(others))
    assert _close(replayed, eager), f"replayed {replayed}, eagerly {eager}"


def _gradients(f, xs, sources):
    """The gradients of sum(f(xs)) for `sources` (a list of xs' indices), or None if f's
    result is not a floating tensor."""
    with minitape.GradientTape() as tape:
        for j in sources:
            tape.watch(xs[j])
        result = f(xs)
        if type(result) is not minitape.Tensor or result._value.dtype.kind != "f":
            return None
        total = minitape.reduce_sum(result)
    grads = tape.gradient(total, [xs[j] for j in sources])
    return [None if g is None else g._value for g in grads]


@pytest.mark.parametrize("cid", list(_replayable_calls()))
def test_a_tape_around_a_replay_gets_the_eager_gradients(cid):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call_with, firsts, others = _call(cid)
        sources = [j for j, t in enumerate(others) if t._value.dtype.kind == "f"]
        try:
            eager = _gradients(call_with, others, sources) if sources else None
        except Exception:  # noqa: BLE001
            eager = None
        if eager is None:
            pytest.skip("no floating result, or no gradient to take eagerly")
        traced = minitape.function(call_with)
        traced(firsts)
        replayed = _gradients(traced, others, sources)
    assert [g is None for g in replayed] == [g is None for g in eager]
    for r, e in zip(replayed, eager):
        if e is not None:
            np.testing.assert_allclose(r, e, rtol=1e-6, equal_nan=True)


def test_the_check_catches_a_replay_of_stale_values():
    # (the check can fail: a function whose trace baked in its argument's value, as
    # tf.range(n) did, is caught)
    f = minitape.function(lambda n: minitape.constant(np.arange(int(n._value))))
    f(minitape.constant(2))
    assert not _close(calls.outcome(f(minitape.constant(3))), calls.outcome(np.arange(3)))
