"""Control flow as TF 2.21 runs it eagerly: `cond`, `case`, `while_loop`, `foldl`, `foldr`,
`scan`, `map_fn`, `vectorized_map`.

Eagerly, TF's control flow is Python control flow: `tf.cond(pred, f, g)` converts `pred` to a
tensor, looks at its value and calls *one* branch; `tf.while_loop` is a Python `while`. So a
tape records only the ops that actually ran (the branch taken, the iterations made), and a
gradient through them is the gradient of what happened -- nothing here has a gradient rule of
its own. The sequence functions (`foldl`, `scan`, `map_fn`, ...) read element `i` of their
inputs with an indexing op and put the results together with `stack`, both recorded, so
gradients reach the inputs through them.

Inside `minitape.function`, as in TF's graph mode, `cond` and `while_loop` build graph nodes
instead (`graph_cond`, `graph_while`): both branches, and the loop's test and body, are traced
once into sub-graphs, their results become tensors, and the replay decides again on every
call. So inside a function a branch's Python side effects happen at tracing (both
branches'), a Python number a branch returns is a tensor, a tensor used only by the branch
(or the iterations) that did not run gets a zero gradient, not None, and a body of a
one-element list of loop variables may return a bare tensor. (AutoGraph turns an `if` or
`while` on a tensor into these same calls.) The sequence functions below still run their
Python loops while tracing.

TF's eager quirks, kept on purpose (each checked against TF 2.21):

* `cond` returns what the branch returned, unchanged: a one-element list stays a list, a
  Python number stays a number, the very tensor `x` for `lambda: x`. Its `pred` may be any
  value whose truth Python can take (a number, a string, a shape-[1] tensor); a tensor of
  several elements raises numpy's ValueError, as in TF. Non-callable branches raise TypeError
  ("'true_fn' must be callable.").
* `case` (strict=False) unpacks one-element lists and tuples, `cond` does not. Without a
  default, the last pair is the default and an InvalidArgumentError says when no predicate
  holds. A predicate that is not a bool tensor raises the AttributeError of `Tensor.name`
  (TF's message wants the tensor's name, which an eager tensor has not).
* `while_loop` returns the structure the body returned (a tuple from a body returning a
  tuple, even for list loop variables); Python numbers and variables among the loop
  variables come back as tensors. `loop_vars` must be a list or tuple: a bare tensor goes
  through `not loop_vars` and `len(loop_vars)` (ValueError for a scalar 0, TypeError for
  another scalar). With `maximum_iterations` the body must return the loop variables'
  exact structure (a list for a list). `shape_invariants`, `parallel_iterations`,
  `back_prop` and `swap_memory` are accepted; eagerly they change nothing (in a traced
  function, `back_prop=False` stops the gradient at the loop's results, as TF's while_v2).
* `foldl`/`foldr`/`scan` of an empty sequence without initializer raise OutOfRangeError
  (reading element 0, or -1 for foldr); `map_fn` and `scan` convert each result to the
  output dtype (Python numbers are converted, a tensor of another dtype is an
  InvalidArgumentError) and require every result to have the first one's shape.
"""

import numpy as np

from . import nest
from .array_ops import stack
from .context import STATE
from .creation_ops import zeros
from .dtypes import as_dtype
from .errors import InvalidArgumentError, OpError, OutOfRangeError, invalid
from .logs import _log_deprecated_once
from .math_ops import logical_and, stop_gradient
from .tensor import Tensor, TensorShape, Variable, _traced, convert_to_tensor

__all__ = [
    "cond",
    "case",
    "switch_case",
    "while_loop",
    "foldl",
    "foldr",
    "scan",
    "map_fn",
    "vectorized_map",
    "get_static_value",
]


# --- nests ---------------------------------------------------------------------------------
def _is_nested(x):
    return isinstance(x, (list, tuple, dict))


def _assert_same_structure(a, b):
    """TF's `nest.assert_same_structure` (types checked): ValueError where one side nests and
    the other does not, or the lengths or keys differ; TypeError for two kinds of sequence."""
    if _is_nested(a) != _is_nested(b):
        raise ValueError(
            f"The two structures don't have the same nested structure.\n\nFirst "
            f"structure: {a!r}\n\nSecond structure: {b!r}"
        )
    if not _is_nested(a):
        return
    if type(a) is not type(b) and not (isinstance(a, dict) and isinstance(b, dict)):
        raise TypeError(
            f"The two structures don't have the same sequence type. Input structure "
            f"has type {type(a)}, while shallow structure has type {type(b)}."
        )
    if isinstance(a, dict):
        if sorted(a) != sorted(b):
            raise ValueError(
                f"The two dictionaries don't have the same set of keys. First "
                f"structure has keys {sorted(a)}, while second structure has keys "
                f"{sorted(b)}."
            )
        for k in a:
            _assert_same_structure(a[k], b[k])
        return
    if len(a) != len(b):
        raise ValueError(
            f"The two structures don't have the same nested structure.\n\nFirst "
            f"structure: {a!r}\n\nSecond structure: {b!r}"
        )
    for x, y in zip(a, b):
        _assert_same_structure(x, y)


def _read_variables(structure):
    """Variables in a nest become tensors (TF's convert_variables_to_tensors)."""
    return nest.map_structure(lambda x: x._read() if isinstance(x, Variable) else x, structure)


def _unpack_if_singleton(result):
    if isinstance(result, (list, tuple)) and len(result) == 1:
        return result[0]
    return result


def _callable_name(fn):
    return fn.__name__  # (an AttributeError for most non-callables, as in TF)


# --- cond and case -------------------------------------------------------------------------
def cond(pred, true_fn=None, false_fn=None, name=None):
    """`true_fn()` if `pred` is true, else `false_fn()`: only that branch runs (and is
    recorded by a tape)."""
    if true_fn is None:
        raise TypeError("cond(): 'true_fn' argument required")
    if false_fn is None:
        raise TypeError("cond(): 'false_fn' argument required")
    return _cond(pred, true_fn, false_fn, strict=True)


def _cond(pred, true_fn, false_fn, strict):
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    graph = tracing_graph()
    if graph is not None:
        if isinstance(pred, bool):
            raise TypeError("pred must not be a Python bool", pred)
        result = graph_cond(graph, pred, true_fn, false_fn)
        return result if strict else _unpack_if_singleton(result)
    pred = convert_to_tensor(pred)
    result = true_fn() if bool(pred) else false_fn()  # (bool(): a trace hears it)
    return result if strict else _unpack_if_singleton(result)


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """`branch_fns[branch_index]()`; an index out of range calls `default`, or the last branch
    (TF's `tf.switch_case`). Only that branch runs, and a tape records only it."""
    if not isinstance(branch_index, (Tensor, Variable)):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    if not branch_index.dtype.is_integer:
        raise TypeError(f"'branch_index' must be an integer Tensor, got {branch_index.dtype}")
    fns = _branches_in_order(branch_fns)
    if branch_index.shape.rank != 0:  # (TF fails choosing between the branches)
        raise InvalidArgumentError(
            None, "Select", "'then' must be at least a vector, but saw shape: [] [Op:Select]"
        )
    i = int(branch_index)  # (int(): a trace hears it)
    return (fns[i] if 0 <= i < len(fns) else fns[-1] if default is None else default)()


def _branches_in_order(branch_fns):
    """switch_case's branches as a list, index order: a list of functions, or `(index, fn)`
    pairs or a dict whose indices are 0, 1, ..., n - 1 in any order (TF's checks)."""
    if isinstance(branch_fns, (list, tuple)) and branch_fns and callable(branch_fns[0]):
        pairs = list(enumerate(branch_fns))
    elif isinstance(branch_fns, dict):
        pairs = list(branch_fns.items())
    else:
        pairs = list(branch_fns)
        for entry in pairs:
            if not (isinstance(entry, tuple) and len(entry) == 2):
                raise TypeError(f"Each entry in 'branch_fns' must be a 2-tuple. Received {entry}.")
    if not pairs:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    keys = sorted(key for key, _ in pairs)
    if keys != list(range(len(pairs))):
        found = "{" + ",".join(map(str, keys)) + "}"
        raise ValueError(
            f"branch indices (keys) must form contiguous range of [0 to {len(pairs)}) but "
            f"found {found}"
        )
    for key, fn in pairs:
        if not callable(fn):
            raise TypeError(f"fn for branch {key} must be callable.")
    return [fn for _, fn in sorted(pairs, key=lambda pair: pair[0])]


def _assertion_failed(condition, message, values):
    data = ", ".join(str(bool(v)) for v in values)
    return InvalidArgumentError(
        None,
        "Assert",
        f"Expected '{condition!s}' to be true. Summarized data: b'{message}'\n{data}",
    )


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The result of the first `fn` whose `pred` is true, or of `default` (TF's `tf.case`)."""
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError(
            f"'pred_fn_pairs' must be a list, tuple, or dict. Received: {type(pred_fn_pairs)}"
        )
    if isinstance(pred_fn_pairs, dict):
        if not exclusive:
            raise ValueError(
                "Unordered dictionaries are not supported for the 'pred_fn_pairs' "
                "argument when `exclusive=False` and eager mode is enabled."
            )
        pred_fn_pairs = list(pred_fn_pairs.items())
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        pred, fn = pair
        if type(pred) is Tensor:
            if pred._value.dtype != np.bool_:
                raise TypeError("pred must be Tensor of type bool: %s" % pred.name)
        else:
            raise TypeError("pred must be a Tensor, got: %s" % pred)
        if not callable(fn):
            raise TypeError("fn for pred %s must be callable." % pred.name)
    predicates, actions = zip(*pred_fn_pairs)
    predicates, actions = list(predicates), list(actions)
    if default is None:  # the last pair is the default; it checks its predicate
        last_pred, last_action = predicates.pop(), actions.pop()
        all_preds = predicates + [last_pred]

        def default():
            if not bool(last_pred):
                raise _assertion_failed(
                    last_pred, "Input error: None of conditions evaluated as True:", all_preds
                )
            return last_action()

    if exclusive and sum(bool(p) for p in predicates) > 1:
        names = ", ".join("?" for _ in predicates)
        raise _assertion_failed(
            Tensor(np.bool_(False)),
            f"Input error: exclusive=True: more than 1 conditions ({names}) evaluated as True:",
            predicates,
        )
    return _case_level(predicates, actions, default, 0, strict)


def _case_level(predicates, actions, default, i, strict):
    """Level i of TF's nest of conds: cond(pred[i], fn[i], <level i + 1, or default>)."""
    if i == len(predicates):
        return default()
    if i + 1 == len(predicates):
        false_fn = default
    else:

        def false_fn():
            return _case_level(predicates, actions, default, i + 1, strict)

    return _cond(predicates[i], actions[i], false_fn, strict)


# --- in a graph ----------------------------------------------------------------------------
def tracing_graph():
    """The `minitape.function` graph being traced right now, or None (eagerly)."""
    tracer = STATE.tracer
    return tracer if hasattr(tracer, "add_cond") else None


def _branch_results(result):
    """A branch's results as a graph hands them on: tensors (a Python number or a variable
    becomes one); None stays None."""

    def output(x):
        if x is None or isinstance(x, Tensor):
            return x
        return convert_to_tensor(x)

    return nest.map_structure(output, result)


def graph_cond(graph, pred, true_fn, false_fn, check=None):
    """`cond` while a function is traced: as TF's graph mode, *both* branches are traced
    (their Python side effects happen, once), into sub-graphs of one cond node, and their
    results become tensors; the branch `pred` picks runs (see `Graph.add_cond`). `check(a,
    b)` may refuse the two branches' results first (AutoGraph's words for its variables)."""
    pred = convert_to_tensor(pred)
    taken = bool(pred._value)
    try:
        then = graph.trace_branch(lambda: _branch_results(true_fn()))
        orelse = graph.trace_branch(lambda: _branch_results(false_fn()))
    except OpError:
        # An op of a branch failed on today's values (the branch that does not run, say,
        # indexing past the end): TF's symbolic trace would not. This trace cannot hold that
        # branch: the taken one runs as Python, and the function on every call.
        graph.value_used(pred)
        return _branch_results(true_fn() if taken else false_fn())
    if check is not None:
        check(then[1], orelse[1])
    _same_branch_structure(then[1], orelse[1])
    outs = graph.add_cond(
        pred, (then[0], nest.flatten(then[1])), (orelse[0], nest.flatten(orelse[1]))
    )
    return nest.pack_sequence_as(then[1], outs)


def _same_branch_structure(a, b):
    message = (
        "true_fn and false_fn arguments to tf.cond must have the same number, type, and "
        "overall structure of return values."
    )
    try:
        _assert_same_structure(a, b)
    except (TypeError, ValueError) as e:
        raise type(e)(f"{message}\n\n{e}") from None
    for x, y in zip(nest.flatten(a), nest.flatten(b)):
        if (x is None) != (y is None) or (x is not None and x.dtype != y.dtype):
            raise TypeError(f"{message}\n\ntrue_fn returned {x!r}, false_fn returned {y!r}")


def graph_while(graph, cond, body, loop_vars, shape_invariants=None):
    """`while_loop` while a function is traced: as TF's graph mode, the test and the body
    are traced once each (with the loop variables as inputs) into one while node, which runs
    the loop (see `Graph.add_while`); the loop variables become tensors, and the result has
    the structure of `loop_vars`. A body of one loop variable may return it bare.

    A loop variable's shape must stay the same (or compatible with its `shape_invariants`),
    as TF's graph requires; one computed from the arguments is checked by rank only (where
    TF may know only part of it).

    Returns None when the test or the body decided something in Python on a traced value
    (`if` on a tensor AutoGraph did not convert, `int(i)`): their one trace could not stand
    for every iteration, so the caller runs the loop in Python instead."""
    loop_vars_flat = nest.flatten(loop_vars)
    initial = [convert_to_tensor(x) for x in loop_vars_flat]
    stand_ins = [Tensor(t._value) for t in initial]
    packed = nest.pack_sequence_as(loop_vars, stand_ins)

    def run_body():
        new = body(*packed)
        if len(initial) == 1 and not _is_nested(new):
            new = [new]
        _assert_same_structure(list(loop_vars), list(new))
        return [convert_to_tensor(x) for x in nest.flatten(_read_variables(new))]

    test = graph.trace_branch(lambda: convert_to_tensor(cond(*packed)), stand_ins, loop=True)
    try:
        new = graph.trace_branch(run_body, stand_ins, test[0].inputs, loop=True)
    except OpError:  # (the body fails on the loop variables' first values: see graph_cond)
        return None
    if test[0].python_decided or new[0].python_decided:
        return None
    invariants = None if shape_invariants is None else _leaves_as(loop_vars, shape_invariants)
    for i, (a, b) in enumerate(zip(initial, new[1])):
        if a.dtype != b.dtype:
            raise TypeError(
                f"Loop variable {i} enters the loop with dtype {a.dtype.name} but has dtype "
                f"{b.dtype.name} after one iteration"
            )
        before, after = a._value.shape, b._value.shape
        if invariants is not None:
            kept = TensorShape(invariants[i]).is_compatible_with(after)
        else:
            kept = before == after or (
                len(before) == len(after) and graph.depends_on_inputs(loop_vars_flat[i])
            )
        if not kept:
            raise ValueError(
                f"Input tensor `{graph._tf_name(loop_vars_flat[i])}` enters the loop with shape "
                f"{before}, but has shape {after} after one iteration. To allow the shape to "
                "vary across iterations, use the `shape_invariants` argument of tf.while_loop "
                "to specify a less-specific shape."
            )
    outs = graph.add_while(initial, (test[0], [test[1]]), new)
    return nest.pack_sequence_as(loop_vars, outs)


def _leaves_as(structure, other):
    """The items of `other` (shape invariants) at the places of `structure`'s leaves."""
    if isinstance(structure, dict):
        return [leaf for k in sorted(structure) for leaf in _leaves_as(structure[k], other[k])]
    if isinstance(structure, (list, tuple)):
        return [leaf for s, o in zip(structure, other) for leaf in _leaves_as(s, o)]
    return [other]


# --- while_loop ----------------------------------------------------------------------------
def while_loop(
    cond,
    body,
    loop_vars,
    shape_invariants=None,
    parallel_iterations=10,
    back_prop=True,
    swap_memory=False,
    maximum_iterations=None,
    name=None,
):
    """`while cond(*loop_vars): loop_vars = body(*loop_vars)`, as TF runs it eagerly (while a
    function is traced: `graph_while`)."""
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    loop_vars = _read_variables(loop_vars)
    if not loop_vars:
        raise ValueError("'loop_vars' must be provided.")
    if not back_prop:
        _log_deprecated_once(
            "while_loop back_prop",
            "calling while_loop (from minitape.control_flow) with back_prop=False",
            "back_prop=False is deprecated. Consider using tf.stop_gradient instead.\n"
            "Instead of:\nresults = tf.while_loop(c, b, vars, back_prop=False)\nUse:\n"
            "results = tf.nest.map_structure(tf.stop_gradient, tf.while_loop(c, b, vars))",
        )
    len(loop_vars)  # (TF asks: a scalar tensor or a number fails here with a TypeError)
    if maximum_iterations is not None:
        maximum_iterations = convert_to_tensor(maximum_iterations)
        if maximum_iterations._value.ndim != 0:
            raise ValueError(
                f"'maximum_iterations' must be a scalar. Received shape: {maximum_iterations.shape}"
            )
        limit = int(maximum_iterations._value)
        user_cond, user_body = cond, body
        loop_vars = (0, loop_vars)
        if shape_invariants is not None:
            shape_invariants = ((), shape_invariants)

        def cond(i, lv):
            return logical_and(i < limit, user_cond(*lv))

        def body(i, lv):
            return (i + 1, user_body(*lv))

    graph = tracing_graph()
    if graph is not None:
        result = graph_while(graph, cond, body, loop_vars, shape_invariants)
        if result is not None:
            result = result[1] if maximum_iterations is not None else result
            # (as TF's graph loop: back_prop=False stops the results' gradients; eagerly, TF
            # ignores it)
            return result if back_prop else nest.map_structure(stop_gradient, result)
    structure = list(loop_vars)
    while cond(*loop_vars):
        loop_vars = body(*loop_vars)
        _assert_same_structure(structure, list(loop_vars))
    loop_vars = nest.map_structure(convert_to_tensor, loop_vars)
    return loop_vars[1] if maximum_iterations is not None else loop_vars


# --- sequences: folds, scan, map_fn --------------------------------------------------------
class _Elements:
    """A tensor read element by element (TF's TensorArray after `unstack`)."""

    def __init__(self, tensor, n):
        self.tensor, self.n = tensor, n

    def read(self, i):
        if i < 0:
            raise OutOfRangeError(
                None,
                "TensorArrayReadV3",
                f"Reading from negative indices (index {i}) is not allowed.",
            )
        if i >= self.n:
            raise OutOfRangeError(
                None,
                "TensorArrayReadV3",
                f"Tried to read from index {i} but array size is: {self.n}",
            )
        return self.tensor[i]


class _Results:
    """The results of a scan or map_fn, written one by one and stacked (TF's TensorArray):
    converted to its dtype, all of one shape (the first one's, or `shape` if given)."""

    def __init__(self, dtype, shape=None):
        self.dtype, self.shape, self.values = dtype, shape, []

    def write(self, value):
        if isinstance(value, (Tensor, Variable)):
            value = convert_to_tensor(value)
        else:
            value = convert_to_tensor(value, dtype_hint=self.dtype)
        if value.dtype != self.dtype:
            raise InvalidArgumentError(
                None,
                "TensorArrayWriteV3",
                f"TensorArray dtype is "
                f"{self.dtype.name} but Op is trying to write dtype "
                f"{value.dtype.name}",
            )
        if self.shape is not None and tuple(value.shape) != tuple(self.shape):
            raise ValueError(
                f"Incompatible shape for value ({value.shape}), expected ({self.shape})"
            )
        if self.shape is None:
            self.shape = value.shape
        self.values.append(value)

    def stack(self, order=None):
        if not self.values:
            return zeros((0,) + tuple(self.shape or ()), dtype=self.dtype)
        values = self.values if order is None else [self.values[i] for i in order]
        return stack(values)


def _first_dim(tensor):
    return tensor.shape[0]  # (IndexError for a scalar, as TF's)


def _check_same_length(tensors):
    n = tensors[0]._value.shape[0]
    for t in tensors[1:]:
        if t._value.ndim and t._value.shape[0] != n:
            raise ValueError(f"Dimensions {n} and {t._value.shape[0]} are not compatible")


def foldl(
    fn,
    elems,
    initializer=None,
    parallel_iterations=10,
    back_prop=True,
    swap_memory=False,
    name=None,
):
    """a = initializer (or elems[0]); for each element x: a = fn(a, x); return a."""
    return _fold(fn, elems, initializer, parallel_iterations, reverse=False)


def foldr(
    fn,
    elems,
    initializer=None,
    parallel_iterations=10,
    back_prop=True,
    swap_memory=False,
    name=None,
):
    """foldl from the last element to the first."""
    return _fold(fn, elems, initializer, parallel_iterations, reverse=True)


def _fold(fn, elems, initializer, parallel_iterations, reverse):
    if not callable(fn):
        raise TypeError(
            f"{_callable_name(fn)} is not callable. Please provide a callable function."
        )
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    n = _first_dim(flat[0])
    arrays = nest.pack_sequence_as(elems, [_Elements(t, n) for t in flat])
    if not reverse:
        i, a = (1, None) if initializer is None else (0, initializer)
        if initializer is None:
            a = nest.map_structure(lambda e: e.read(0), arrays)

        def step(i, a):
            return [i + 1, fn(a, nest.map_structure(lambda e: e.read(i), arrays))]

        _, result = while_loop(
            lambda i, a: i < n,
            step,
            [i, a],
            parallel_iterations=parallel_iterations,
            maximum_iterations=n,
        )
        return result
    if initializer is None:
        i = n - 1
        a = nest.map_structure(lambda e: e.read(i), arrays)
    else:
        i, a = n, initializer

    def step_back(i, a):
        i -= 1
        return [i, fn(a, nest.map_structure(lambda e: e.read(i), arrays))]

    _, result = while_loop(
        lambda i, a: i > 0,
        step_back,
        [i, a],
        parallel_iterations=parallel_iterations,
        maximum_iterations=n,
    )
    return result


def scan(
    fn,
    elems,
    initializer=None,
    parallel_iterations=10,
    back_prop=True,
    swap_memory=False,
    infer_shape=True,
    reverse=False,
    name=None,
):
    """Every intermediate `a` of a foldl (of a foldr with reverse=True), stacked."""
    if not callable(fn):
        raise TypeError(
            f"{_callable_name(fn)} is not callable. Please provide a callable function."
        )
    template = elems if initializer is None else initializer
    elems_nested, out_nested = _is_nested(elems), _is_nested(template)
    flat = [convert_to_tensor(e) for e in (nest.flatten(elems) if elems_nested else [elems])]
    n = flat[0].shape[0]
    arrays = [_Elements(t, n) for t in flat]

    def pack_in(values):
        return nest.pack_sequence_as(elems, values) if elems_nested else values[0]

    def pack_out(values):
        return nest.pack_sequence_as(template, values) if out_nested else values[0]

    if initializer is None:
        a = [e.read(n - 1 if reverse else 0) for e in arrays]
        first = 1
    else:
        a = [
            convert_to_tensor(x)
            for x in (nest.flatten(initializer) if out_nested else [initializer])
        ]
        first = 0
    results = [_Results(x.dtype, x.shape if infer_shape else None) for x in a]
    order = []
    if initializer is None:
        for r, x in zip(results, a):
            r.write(x)
        order.append(n - 1 if reverse else 0)
    indices = range(n - 1 - first, -1, -1) if reverse else range(first, n)
    for i in indices:
        out = fn(pack_out(a), pack_in([e.read(i) for e in arrays]))
        _assert_same_structure(template, out)
        a = nest.flatten(out) if out_nested else [out]
        for r, x in zip(results, a):
            r.write(x)
        order.append(i)
    _check_same_length(flat)
    position = np.argsort(order)  # (a reversed scan wrote from the last index down)
    return pack_out([r.stack(position) for r in results])


def map_fn(
    fn,
    elems,
    dtype=None,
    parallel_iterations=None,
    back_prop=True,
    swap_memory=False,
    infer_shape=True,
    name=None,
    fn_output_signature=None,
):
    """`stack([fn(x) for x in elems])`, over the first dimension of every tensor in `elems`.

    Results must have the structure and dtypes of `fn_output_signature` (or `dtype`), by
    default those of `elems`."""
    if fn_output_signature is None:
        fn_output_signature = dtype
    if not callable(fn):
        raise TypeError(
            f"The provided function {_callable_name(fn)} is not callable.fn must be callable."
        )
    elems = _read_variables(elems)
    flat = nest.flatten(elems)
    if not flat:
        raise ValueError(
            "elems must be a Tensor or (possibly nested) sequence of Tensors. "
            f"Got {elems}, which does not contain any Tensors."
        )
    flat = [convert_to_tensor(e) for e in flat]
    if flat[0]._value.ndim < 1:
        raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
    _check_same_length(flat)
    n = flat[0]._value.shape[0]
    if fn_output_signature is None:
        specs, template = [(t.dtype, None) for t in flat], elems
    else:
        specs = [_spec(s) for s in nest.flatten(fn_output_signature)]
        template = fn_output_signature
    results = [_Results(d, s if infer_shape else None) for d, s in specs]
    arrays = [_Elements(t, n) for t in flat]
    if parallel_iterations and parallel_iterations < 1:  # (TF: `or 10`, then while_loop's check)
        raise TypeError("'parallel_iterations' must be a positive integer.")
    for i in range(n):
        out = fn(nest.pack_sequence_as(elems, [e.read(i) for e in arrays]))
        _assert_same_structure(template, out)
        for r, x in zip(results, nest.flatten(out)):
            r.write(x)
    return nest.pack_sequence_as(template, [r.stack() for r in results])


def _spec(s):
    """A dtype, or a spec with `.dtype` and `.shape` (TF's TensorSpec): (dtype, shape)."""
    if (
        hasattr(s, "shape")
        and hasattr(s, "dtype")
        and not isinstance(s, (Tensor, Variable, type))  # (np.float32 is a dtype)
    ):
        shape = s.shape
        return s.dtype, (None if shape is None else tuple(shape))
    return as_dtype(s), None


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """`fn` applied to every slice `elems[i]`, results stacked (TF vectorizes the loop with
    pfor; the values, shapes and gradients are those of the loop)."""
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    sizes = [t._value.shape[0] for t in flat]  # (IndexError for a scalar, as TF)
    n = max(sizes)  # (TF loops over the longest: gathering from a shorter one fails, once fn ran)
    if n == 0:  # TF traces fn once to learn its output: call it on one zero slice
        probe = nest.pack_sequence_as(elems, [zeros(t.shape[1:], t.dtype) for t in flat])
        out = fn(probe)
        return nest.map_structure(
            lambda r: zeros((0,) + tuple(convert_to_tensor(r).shape), convert_to_tensor(r).dtype),
            out,
        )
    outs = []
    for i in range(n):
        if i == min(sizes):
            raise invalid("GatherV2", f"indices[{i}] = {i} is not in [0, {i})")
        outs.append(fn(nest.pack_sequence_as(elems, [t[i] for t in flat])))
    flat_outs = [[convert_to_tensor(x) for x in nest.flatten(o)] for o in outs]
    return nest.pack_sequence_as(outs[0], [stack(list(col)) for col in zip(*flat_outs)])


# --- static values -------------------------------------------------------------------------
def get_static_value(tensor, partial=False):
    """The value of `tensor` as numpy if it is known without running anything, else None.

    Eagerly every tensor's value is known (`x.numpy()`); a variable's is not (it may change:
    None, as in TF); anything that is not a tensor is returned as it is. While
    `minitape.function` traces, an argument of the function and every op result computed from
    one are None, as in TF's graph mode; tensors made outside any op (a constant,
    `tf.shape(x)`) keep their value."""
    if isinstance(tensor, Variable):
        return None
    if not isinstance(tensor, Tensor):
        return tensor
    if STATE.tracer is not None and _traced(tensor):
        return None
    return tensor.numpy()
