"""A traced graph's nodes, and how they run again: `_execute` runs them through `apply` (so
that a tape records them), cond and while nodes included (`_run_cond`, `_run_while`, each
recorded on a tape as one op with a gradient of its own); `_compile` writes a graph out as
one straight-line Python function, and `ConcreteFunction` calls it (see `function.py` for
the whole story). The nodes are appended by `graph.Graph` while a function is traced.
"""

import numpy as np

from . import nest
from .array_ops import _LENGTH, concat, gather
from .context import STATE, next_id
from .control_flow import cond, while_loop
from .custom_gradient import _Cotangents, _unpack_op
from .dtypes import as_dtype
from .tape import GradientTape, Op, apply
from .tensor import Tensor, TensorShape, _snapshot

# --- the nodes ---------------------------------------------------------------------------------
# Every node is a 5-tuple (kind, what, input slots, attrs, output slot):
_OP = "op"  # ("op", op, in_slots, attrs, out)   out <- op.forward(*ins, **attrs)
_READ = "read"  # ("read", var, (), None, out)       out <- the variable's value now
_ASSIGN = "assign"  # ("assign", var, (slot,), how, None) var.assign/assign_add/assign_sub(slot)
# and the two control-flow nodes, whose `what` is a `_Branches` (sub-graphs) and whose output
# is a tuple of slots (None for a None result):
_COND = "cond"  # ("cond", branches, (pred, *captured), rebound, outs)   then or else graph
_WHILE = "while"  # ("while", branches, (*initial, *captured), rebound, outs)   test, body, ...
_CONTROL_FLOW = (_COND, _WHILE)
_TF_NAMES = {
    "assign": "AssignVariableOp",
    "assign_add": "AssignAddVariableOp",
    "assign_sub": "AssignSubVariableOp",
}


# --- replaying ----------------------------------------------------------------------------
def _execute(nodes, vals):
    """Run `nodes` through `apply` (so that active tapes record them), on the tensors in
    `vals` (a list, slot -> tensor), writing their results into it."""
    for kind, what, ins, attrs, out in nodes:
        if kind is _OP:
            vals[out] = apply(what, *[vals[i] for i in ins], **attrs)
        elif kind is _READ:
            vals[out] = what._read()
        elif kind is _ASSIGN:
            what._set(vals[ins[0]], attrs)
        else:  # a cond or while node (its `attrs`: slots its sub-graphs read, rebound)
            tracer = STATE.tracer
            if hasattr(tracer, "record_again"):  # (run while a graph is traced: a node there)
                results = tracer.record_again(kind, what, ins, vals)
            else:
                for old, slot in attrs:
                    vals[old] = vals[slot]
                results = _RUN[kind](what, ins, vals)
            for slot, t in zip(out, results):
                if slot is not None:
                    vals[slot] = t


def _run_cond(branches, ins, vals):
    """A cond node: run the branch its predicate picks. While a tape listens, a cond whose
    branches hold only ops, reads and such conds is recorded as *one* op (`_record_cond`),
    whose gradient is itself a cond: so a gradient taken inside a traced function is graph
    control flow too, and the function stays replayable."""
    then, orelse = branches.graphs
    graph = then if vals[ins[0]]._value else orelse
    captured = [vals[s] for s in ins[1:]]
    if STATE.tapes and branches.plain:
        saved = STATE.tapes
        STATE.tapes = []  # (the branch's own ops are not recorded: the one op stands for them)
        try:
            _execute(graph.nodes, vals)
        finally:
            STATE.tapes = saved
        results = [None if s is None else vals[s] for s in graph.outputs]
        return _record_cond(branches, vals[ins[0]], ins[1:], captured, results)
    _execute(graph.nodes, vals)
    results = [None if s is None else vals[s] for s in graph.outputs]
    return _node_outputs(branches, results, captured)


def _record_cond(branches, pred, slots, captured, results):
    """Record a cond that ran as one op (`If`) on every tape that watches what its branches
    read (`captured`, the tensors at `slots`, and the variables). Its gradient is
    `cond(pred, <gradient through the then branch>, <... the else branch>)`, each the
    branch's ops run again under a tape of its own (`_branch_gradients`), zeros for what
    the branch does not use. Traced, that cond is a cond node, decided on every call; run
    eagerly, it runs the one branch."""
    live = [r for r in results if r is not None]
    if not live:
        return results  # (all None)
    inputs = captured + [v._read() for v in branches.variables]

    def vjp_all(g, ans, ins):
        upstream = _upstream(g, live)

        def through(graph):
            return lambda: _branch_gradients(graph, slots, captured, branches.variables, upstream)

        return list(cond(pred, through(branches.graphs[0]), through(branches.graphs[1])))

    outs = iter(_as_one_op("If", inputs, live, vjp_all))
    return [None if r is None else next(outs) for r in results]


def _branch_gradients(graph, slots, captured, variables, upstream):
    """The gradients of a branch's (or a loop body's) results, weighted by `upstream`, with
    respect to the tensors `captured` (at `slots`: what it captured, and a body's inputs) and
    the variables: its ops run again under a tape of their own."""
    vals = [None] * len(graph.specs)
    for slot, t in graph.constants.items():
        vals[slot] = t
    with GradientTape() as tape:
        for slot, t in zip(slots, captured):
            if t.dtype.is_floating:
                tape.watch(t)
            vals[slot] = t
        _execute(graph.nodes, vals)
    results = [vals[s] for s in graph.outputs if s is not None]
    floating = [i for i, r in enumerate(results) if r.dtype.is_floating]
    results, upstream = [results[i] for i in floating], [upstream[i] for i in floating]
    sources = captured + list(variables)
    differentiable = [i for i, x in enumerate(sources) if x.dtype.is_floating]
    grads = tape.gradient(
        results,
        [sources[i] for i in differentiable],
        output_gradients=upstream,
        unconnected_gradients="zero",
    )
    out = [None] * len(sources)
    for i, g in zip(differentiable, grads):
        out[i] = g
    return out


def _run_while(branches, ins, vals):
    """A while node: the test, then the body while the test holds (test and body read the
    loop variables from the same input slots). A node that `keeps_history` also returns,
    after the final loop variables, each one's values at the start of every iteration,
    stacked: what its gradient reads (`_record_while`)."""
    test, body = branches.graphs
    n = len(body.inputs)
    first = [vals[s] for s in ins[:n]]
    history = []
    one_op = branches.keeps_history and STATE.tapes
    saved = STATE.tapes
    if one_op:
        STATE.tapes = []  # (the iterations' own ops are not recorded: the one op stands for them)
    try:
        current = _iterate(test, body, first, vals, history)
    finally:
        STATE.tapes = saved
    if not branches.keeps_history:
        return _node_outputs(branches, current, [vals[s] for s in ins[n:]])
    stacked = [_stack_history([h[j]._value for h in history], first[j]._value) for j in range(n)]
    if any(h is None for h in stacked):
        # A loop variable changed shape (a `shape_invariants` loop): its values do not stack.
        # With a tape listening the iterations run again, their ops recorded as an eager
        # loop's are (a gradient taken inside the function then runs it as a trace on every
        # call: `_output_vjp`); the history slots stay empty (nothing reads them then).
        if one_op:
            current = _iterate(test, body, first, vals)
        return _node_outputs(branches, current, [vals[s] for s in ins[n:]]) + [None] * n
    stacked = [Tensor(h) for h in stacked]
    if not one_op:
        return [_snapshot(t._value, next_id()) for t in current] + stacked
    captured = (ins[n:], [vals[s] for s in ins[n:]])
    return _record_while(branches, first, captured, current, stacked)


def _iterate(test, body, current, vals, history=None):
    """Run a while node's test and body from the loop variables `current` until the test
    fails; return the final loop variables (and append each iteration's to `history`)."""
    while True:
        for slot, t in zip(body.inputs, current):
            vals[slot] = t
        _execute(test.nodes, vals)
        if not vals[test.outputs[0]]._value:
            return current
        if history is not None:
            history.append(current)
        _execute(body.nodes, vals)
        current = [vals[s] for s in body.outputs]


def _stack_history(values, first):
    """A loop variable's values at the start of each iteration, stacked (none: shape 0; None
    when its shape changed from one iteration to the next)."""
    if values:
        if any(np.shape(v) != np.shape(values[0]) for v in values):
            return None
        return np.stack(values)
    return np.zeros((0,) + np.shape(first), np.asarray(first).dtype)


def _record_while(branches, initial, captured, finals, history):
    """Record a while loop that ran as one op (`While`), from its initial loop variables, the
    tensors its body captured and the variables, to its final loop variables and their
    `history` (each one's values at the start of every iteration, stacked). Its gradient walks
    the iterations backwards, itself a while loop: at iteration k, the gradient of the body at
    the loop variables it started from (history row k), by `_branch_gradients`, plus what
    reached history row k itself. Traced, that loop is a while node too, and replays. The
    history it reads is the op's own output, so a tape that records the gradient sees how the
    history depends on the inputs: second derivatives hold."""
    body = branches.graphs[1]
    slots, tensors = captured
    n = len(initial)
    inputs = initial + tensors + [v._read() for v in branches.variables]
    sources = initial + tensors + list(branches.variables)
    # (the gradient's loop carries the gradients of the floating loop variables and sources)
    carried = [i for i in range(n) if initial[i].dtype.is_floating]
    summed = [i for i in range(n, len(sources)) if sources[i].dtype.is_floating]

    results = []  # (the op's outputs, once recorded: finals, then the history)

    def vjp_all(g, ans, ins):
        upstream = _upstream(g, finals)
        parts = g.parts if type(g) is _Cotangents else [g]

        # (row k of the history is row k + 1 of `padded`: the backward loop's body is traced
        # once even when the loop ran no iteration, at k = -1)
        def padded(stack):
            return concat(
                [Tensor(np.zeros_like(stack._value[:1], shape=(1,) + stack.shape[1:])), stack], 0
            )

        rows = [padded(h) for h in results[n:]]
        # (what reached each history row itself: only when a tape differentiates a gradient)
        reached = [None if u is None else padded(u) for u in parts[n:]]

        trace = getattr(STATE.tracer, "root", None)
        if trace is not None and any(r is not None for r in reached):
            # (a second derivative through the loop, taken inside the function: its ops are
            # shaped by the iterations that ran at this trace, so it cannot serve other counts)
            trace.unreplayable = "takes a second derivative through a tf.while_loop inside itself"

        def plus_reached(grad, i, k):
            return grad if reached[i] is None else grad + gather(reached[i], k + 1)

        def step(k, g_vars, g_sum):
            at_k = [gather(h, k + 1) for h in rows]
            weights = [Tensor(np.zeros_like(r._value)) for r in finals]
            for i, gv in zip(carried, g_vars):
                weights[i] = gv
            grads = _branch_gradients(
                body, body.inputs + list(slots), at_k + tensors, branches.variables, weights
            )
            return (
                k - 1,
                [plus_reached(grads[i], i, k) for i in carried],
                [a + grads[i] for a, i in zip(g_sum, summed)],
            )

        last = apply(_LENGTH, results[n]) - 1
        zeros = [Tensor(np.zeros_like(sources[i]._read_value())) for i in summed]
        _, g_vars, g_sum = while_loop(
            lambda k, g_vars, g_sum: k >= 0,
            step,
            (last, [upstream[i] for i in carried], zeros),
        )
        out = [None] * len(sources)
        for i, gv in zip(carried, g_vars):
            out[i] = gv
        for i, gs in zip(summed, g_sum):
            out[i] = gs
        return out

    results.extend(_as_one_op("While", inputs, finals + history, vjp_all))
    return results


def _as_one_op(name, inputs, results, vjp_all):
    """`results` (tensors already computed), recorded on the tapes as the outputs of one op
    from `inputs` whose gradient rule is `vjp_all(g, ans, inputs)`. Several results: one
    bundle op, unpacked by one op per result, as `custom_gradient` does (the rule then gets
    their gradients gathered: `_upstream`)."""
    if len(results) == 1:
        op = Op(name, lambda *values: results[0]._value)
        op.vjps = vjp_all
        return [apply(op, *inputs)]
    op = Op(name, lambda *values: np.float32(0))
    op.vjps = vjp_all
    bundle = apply(op, *inputs)
    return [apply(_unpack_op(name, i, len(results), r), bundle) for i, r in enumerate(results)]


def _upstream(g, results):
    """The gradients `_as_one_op`'s rule got for `results`, zeros for those no target used."""
    parts = g.parts if type(g) is _Cotangents else [g]
    return [Tensor(np.zeros_like(r._value)) if u is None else u for r, u in zip(results, parts)]


_RUN = {_COND: _run_cond, _WHILE: _run_while}


def _node_outputs(branches, results, captured):
    """A cond's or a loop's results, as new tensors. While a tape listens, each goes through
    `_OUTPUT`, whose gradient is the result's for it and *zero* for every tensor (and
    variable) the sub-graphs read from outside: so, as in TF's graphs, a tensor used only by
    the branch or the iterations that did not run gets a zero gradient, not None."""
    if not STATE.tapes:
        return [None if r is None else _snapshot(r._value, next_id()) for r in results]
    captured = captured + [v._read() for v in branches.variables]
    return [None if r is None else apply(_OUTPUT, r, *captured) for r in results]


def _output_forward(result, *captured):
    return result


def _output_vjp(g, ans, inputs):
    trace = getattr(STATE.tracer, "root", None)
    if trace is not None:
        # A gradient taken inside the function, through a cond or a loop: the ops of this
        # backward pass are those of the branch (the iterations) that ran at this trace, and
        # a replay would repeat them whatever its predicate. So the function runs as a trace
        # on every call instead (the numbers are TF's; its Python runs on every call).
        trace.unreplayable = "takes a gradient through an if, a while or a tf.cond inside itself"
    return [g] + [
        Tensor(np.zeros_like(x._value)) if x._value.dtype.kind in "fc" else None for x in inputs[1:]
    ]


_OUTPUT = Op("Identity", _output_forward)
_OUTPUT.vjps = _output_vjp


def _compile(graph):
    """Turn the graph into straight-line Python: one line per node, numpy values in local
    variables. This is the fast replay (no tape, no outer trace listening): no per-op
    checks, no tensors, no bookkeeping -- only each op's numpy `forward`, in order (a cond
    node becomes an `if`/`else`, a while node a `while` loop).

    Returns the source (`concrete.python_source`, worth printing once) and the function.
    Its arguments are the values of the tensor arguments; it returns {slot: value} for the
    graph's outputs. An op whose inputs are all constants (say, the 1/n of a mean's
    gradient) gives the same value on every call, so it is computed once, here, and becomes
    a constant too (random ops excepted: they draw anew on every call)."""
    env = {}  # the generated function's global names
    known = {}  # slot -> its name in the source
    constant = set(graph.constants)  # slots whose value is known now
    for slot, t in graph.constants.items():
        known[slot] = f"c{slot}"
        env[known[slot]] = t._value
    args = [f"s{slot}" for slot in graph.inputs]
    known.update(zip(graph.inputs, args))

    def emit(nodes, pad, lines):
        for kind, what, ins, attrs, out in nodes:
            if kind is _ASSIGN:
                var = _global_name(env, "v_" + what.name.split(":")[0], what)
                lines.append(f"{pad}{var}._set({known[ins[0]]}, {attrs!r})")
            elif kind is _READ:
                var = _global_name(env, "v_" + what.name.split(":")[0], what)
                known[out] = f"s{out}"
                lines.append(f"{pad}s{out} = {var}._snap._value")
            elif kind is _COND:
                then, orelse = what.graphs
                rebind(attrs, pad, lines)
                lines.append(f"{pad}if {known[ins[0]]}:")
                emit_branch(then, out, pad + "    ", lines)
                lines.append(f"{pad}else:")
                emit_branch(orelse, out, pad + "    ", lines)
            elif kind is _WHILE:
                test, body = what.graphs
                rebind(attrs, pad, lines)
                for slot in body.inputs:
                    known[slot] = f"s{slot}"
                if body.inputs:
                    starts = ins[: len(body.inputs)]
                    lines.append(f"{pad}{_tuple(known, body.inputs)} = {_tuple(known, starts)}")
                keeps = what.keeps_history
                if keeps:
                    env["stack_history"] = _stack_history
                    lines.append(f"{pad}h{out[0]} = []")
                lines.append(f"{pad}while True:")
                emit(test.nodes, pad + "    ", lines)
                lines.append(f"{pad}    if not {known[test.outputs[0]]}:")
                lines.append(f"{pad}        break")
                if keeps:
                    lines.append(f"{pad}    h{out[0]}.append(({_tuple(known, body.inputs)},))")
                emit_branch(body, body.inputs, pad + "    ", lines)
                if keeps:  # (each loop variable's values, for the loop's gradient)
                    n = len(body.inputs)
                    for j, (slot, start) in enumerate(zip(out[n:], ins)):
                        known[slot] = f"s{slot}"
                        history = f"[h[{j}] for h in h{out[0]}]"
                        lines.append(f"{pad}s{slot} = stack_history({history}, {known[start]})")
                handed = [(o, i) for o, i in zip(out, body.inputs) if o is not None]
                for o, _ in handed:
                    known[o] = f"s{o}"
                if handed:
                    outs, ins_ = zip(*handed)
                    lines.append(f"{pad}{_tuple(known, outs)} = {_tuple(known, ins_)}")
            elif ins and constant.issuperset(ins) and not what.name.startswith(_STATEFUL):
                constant.add(out)
                known[out] = f"c{out}"
                env[known[out]] = what.forward(*[env[known[i]] for i in ins], **attrs)
            else:
                fname = _global_name(env, what.name, what.forward)
                params = [known[i] for i in ins]
                for name, value in attrs.items():
                    if _is_literal(value):
                        params.append(f"{name}={value!r}")
                    else:
                        env[f"a{out}_{name}"] = value
                        params.append(f"{name}=a{out}_{name}")
                known[out] = f"s{out}"
                lines.append(f"{pad}s{out} = {fname}({', '.join(params)})")

    def rebind(rebound, pad, lines):
        """The slots a node of another graph read, given this graph's values."""
        for old, slot in rebound:
            known[old] = f"s{old}"
            lines.append(f"{pad}s{old} = {known[slot]}")

    def emit_branch(sub, targets, pad, lines):
        """A sub-graph's nodes, then its results handed on to the slots `targets`."""
        before = len(lines)
        emit(sub.nodes, pad, lines)
        handed = [(t, r) for t, r in zip(targets, sub.outputs) if t is not None]
        for t, _ in handed:
            known.setdefault(t, f"s{t}")
        if handed:
            ts, rs = zip(*handed)
            lines.append(f"{pad}{_tuple(known, ts)} = {_tuple(known, rs)}")
        if len(lines) == before:
            lines.append(f"{pad}pass")

    lines = []
    emit(graph.nodes, "    ", lines)
    results = sorted({s for s in nest.flatten(graph.outputs) if s is not None})
    lines.append("    return {" + ", ".join(f"{s}: {known[s]}" for s in results) + "}")
    source = f"def replay({', '.join(args)}):\n" + "".join(f"{line}\n" for line in lines)
    exec(compile(source, f"<minitape.function {graph.name}>", "exec"), env)
    return source, env["replay"]


def _tuple(known, slots):
    """`a, b` for an assignment of several slots, `a` for one."""
    return ", ".join(known[s] for s in slots)


def _global_name(env, name, obj):
    """A name for `obj` in the generated code's globals: `name` made an identifier, made
    unique if another object already has it. (Variables' names start with `v_`, ops' with a
    capital: neither can be taken for a keyword, `replay`, or the `s`/`c`/`a` names.)"""
    base = "".join(c if c.isalnum() else "_" for c in name)
    candidate, n = base, 1
    while env.get(candidate, obj) is not obj:
        n += 1
        candidate = f"{base}_{n}"
    env[candidate] = obj
    return candidate


# Ops that change state with every run (random draws from a kernel's stream): never pruned
# nor computed once.
_STATEFUL = ("Random", "TruncatedNormal", "Multinomial", "Stateful")


def _is_literal(value):
    """Whether `repr(value)` is Python source for the very same value."""
    if isinstance(value, tuple):
        return all(map(_is_literal, value))
    return value is None or type(value) in (bool, int, str)


class ConcreteFunction:
    """The graph traced for one signature; calling it replays the graph."""

    def __init__(self, graph, function, key):
        self.graph = graph
        self._function, self._key = function, key
        self.function_type = key[0]  # (the traced type it serves: see function.py)
        self._tensors = [None] * len(graph.specs)  # slot values for the recorded replay
        for slot, t in graph.constants.items():
            self._tensors[slot] = t
        self.python_source, self._replay = _compile(graph)

    def __call__(self, *args, **kwargs):
        key, found, bound = self._function._signature(args, kwargs)
        if key == self._key:
            return self._call_flat(found.tensors)
        return self._function._call_under(self, key, found, bound)

    @property
    def variables(self):
        """The variables the graph reads or assigns (TF: those it captures), in the order it
        first uses them."""
        found = []

        def visit(nodes):
            for kind, what, _, _, _ in nodes:
                if kind is _READ or kind is _ASSIGN:
                    if all(v is not what for v in found):
                        found.append(what)
                elif kind in _CONTROL_FLOW:
                    for graph in what.graphs:
                        visit(graph.nodes)

        visit(self.graph.nodes)
        return tuple(found)

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    def _call_flat(self, tensors):
        if not self.graph.replayable:
            raise NotImplementedError(
                f"{self.graph.name!r} {self.graph.unreplayable}: minitape.function cannot "
                "replay it."
            )
        if STATE.tapes or STATE.tracer is not None:
            return self._replay_recorded(tensors)
        return self._replay_numpy(tensors)

    def _replay_numpy(self, tensors):
        """The fast path (nothing is listening): one call of the compiled replay."""
        vals = self._replay(*[t._value for t in tensors])
        outputs = self.graph.outputs
        out = nest.map_structure(lambda s: None if s is None else Tensor(vals[s]), outputs)
        return whole(out) if self.graph.composite_outputs else out

    def _replay_recorded(self, tensors):
        """With a tape (or an outer trace) active: every op through `apply`, so it records."""
        vals = self._tensors.copy()
        for slot, t in zip(self.graph.inputs, tensors):
            vals[slot] = t
        _execute(self.graph.nodes, vals)
        out = nest.map_structure(lambda s: None if s is None else vals[s], self.graph.outputs)
        return whole(out) if self.graph.composite_outputs else out

    @property
    def structured_outputs(self):
        """What the traced function returned, in its structure: a tensor for each tensor (and
        each number) it returned, None for None. (TF gives symbolic graph tensors; minitape
        the tensors of the trace, with the same dtypes and shapes.)"""
        return self.graph.structured_outputs

    @property
    def output_dtypes(self):
        """The dtype of each output, in the returned structure (None for None)."""
        specs = self.graph.specs
        return nest.map_structure(
            lambda s: None if s is None else as_dtype(specs[s][1]), self.graph.outputs
        )

    @property
    def output_shapes(self):
        """The shape of each output, in the returned structure (an unknown shape for None)."""
        specs = self.graph.specs
        return nest.map_structure(
            lambda s: _UnknownShape() if s is None else TensorShape(specs[s][0]), self.graph.outputs
        )

    def pretty_printed_signature(self):
        g = self.graph
        args = ", ".join(f"{n}: {g._spec(s)}" for s, n in zip(g.inputs, g.input_names))
        out = nest.map_structure(lambda s: "None" if s is None else g._spec(s), g.outputs)
        return f"{g.name}({args}) -> {out}".replace("'", "")

    def __repr__(self):
        return f"<ConcreteFunction {self.pretty_printed_signature()}>"


class _UnknownShape(TensorShape):
    """TF's TensorShape(None), an unknown shape: no rank, no dimensions (the shape of a
    traced function's None output, or of an argument whose trace leaves the rank open)."""

    __slots__ = ()
    rank = ndims = None

    def __new__(cls):
        return tuple.__new__(cls)

    def as_list(self):
        raise ValueError("as_list() is not defined on an unknown TensorShape.")

    def __repr__(self):
        return "TensorShape(None)"

    def __str__(self):
        return "<unknown>"


_UnknownShape.__name__ = _UnknownShape.__qualname__ = "TensorShape"  # (as TF names its type)


def whole(structure):
    """`structure` with each returned composite's parts (a namedtuple with `_whole`, such as a
    gather's slices) made into the composite again."""
    if hasattr(structure, "_whole"):
        return structure._whole()
    if isinstance(structure, dict):
        return type(structure)((k, whole(v)) for k, v in structure.items())
    if isinstance(structure, (list, tuple)):
        items = [whole(x) for x in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else type(structure)(items)
    return structure
