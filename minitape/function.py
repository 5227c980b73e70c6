"""`minitape.function` (TF's `tf.function`): trace a Python function into a graph, replay it.

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = mse(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

The first call with a new *signature* (the shapes and dtypes of the tensor arguments, the
values of the other arguments) runs the Python body once, eagerly, while a `Graph` listens:
every op that runs is appended to it (`apply` calls `STATE.tracer.record`), and so is every
variable read and assignment. Later calls with the same signature do not run the Python code
at all: they replay that list of ops on the new inputs. So, as in TensorFlow:

* a Python side effect (`print`, appending to a list) happens only while tracing;
* a new input shape or dtype, or a new value of a Python argument, traces again
  (`f.experimental_get_tracing_count()` says how many traces there were);
* variables are captured by reference: a replay reads their *current* values and repeats
  the `assign`s; any other tensor from outside is captured by value, as a constant;
* random ops draw fresh numbers on every replay;
* the gradient ops of a tape used inside the function were recorded like any other op, so
  they are replayed too; and a tape around a call records the replayed ops.

Control flow on tensors: before tracing, the function is converted by AutoGraph
(`autograph.py`), as in TF, so that an `if`, `while` or `for` on a tensor becomes a graph
`cond` or `while` node (see `Graph.add_cond`): both branches are traced (their Python side
effects happen once), the outputs are tensors, and the replay decides on every call (the
compiled replay is an `if` / a `while` loop in `python_source`). A tape inside the function
records such a cond as one op whose gradient is a cond too, and such a loop as one op whose
gradient is a loop walking its iterations backwards. What a replay cannot repeat is a
gradient taken inside the function through a cond or loop that assigns variables or draws
random numbers (the trace's backward pass went through the branch and iterations that ran):
such a function runs as a fresh, thrown-away trace on every call -- TF's numbers, but its
Python side effects on every call.

What a replay cannot redo at all: Python reading a traced tensor's value (`float(x)`, an
index, `x.numpy()`, a variable's `.numpy()`, or an `if` AutoGraph left alone). Such a
function runs its Python code on every call instead: TF's numbers, one trace, eager speed,
and its Python side effects on every call. Keep such uses outside the function, or use ops
(`tf.where`, `tf.gather`, `tf.cast`), to keep the replay.

Why a replay is faster: eager execution checks and converts the arguments of every op in
Python, wraps every result in a tensor and asks every active tape whether to record it. A
graph is instead written out, once, as one straight-line Python function -- a line per op,
calling the op's numpy `forward` on plain numpy values (`concrete.python_source` shows it) --
and with no tape active a replay is one call of that function. (With a tape active, the
replay goes through `apply` op by op, so that the tape records.)

`f.get_concrete_function(x)` traces without changing any variable and returns the graph for
that signature; `print(f.get_concrete_function(x).graph)` lists it.
"""

import contextlib
import functools
import inspect
import types

import numpy as np

from . import nest
from .array_ops import _LENGTH, concat, gather
from .autograph import convert
from .context import STATE, next_id
from .control_flow import cond, while_loop
from .custom_gradient import _Cotangents, _unpack_op
from .dtypes import as_dtype
from .errors import InaccessibleTensorError, OperatorNotAllowedInGraphError
from .random import _unchanged
from .tape import GradientTape, Op, apply, logger
from .tensor import Tensor, TensorShape, Variable, _as_shape, _snapshot, convert_to_tensor

__all__ = [
    "function",
    "Function",
    "TensorSpec",
    "ConcreteFunction",
    "Graph",
    "init_scope",
    "run_functions_eagerly",
    "functions_run_eagerly",
]


@contextlib.contextmanager
def init_scope():
    """Step outside any function being traced and any active tape (TF's `tf.init_scope`).

    Code in here runs eagerly, once, and is recorded nowhere: it is where layers and
    optimizers create their variables, so that a traced function does not replay the random
    draw of a kernel's initial value on every call."""
    saved = STATE.tracer, STATE.tapes
    STATE.tracer, STATE.tapes = None, []
    try:
        yield
    finally:
        STATE.tracer, STATE.tapes = saved


_RUN_EAGERLY = [False]


def run_functions_eagerly(run_eagerly):
    """Debugging switch (TF's `tf.config.run_functions_eagerly`): while True, calling a
    `minitape.function` just runs its Python code -- prints, breakpoints and all."""
    _RUN_EAGERLY[0] = bool(run_eagerly)


def functions_run_eagerly():
    return _RUN_EAGERLY[0]


# --- the graph ----------------------------------------------------------------------------
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


class Graph:
    """What one trace recorded: numbered value *slots*, and the nodes that fill them in order.

    A slot holds a tensor argument (`inputs`), a constant captured by value (`constants`), a
    variable's value as read, or an op's result. `print(graph)` lists the nodes.

    A `tf.cond` (or an `if` on a tensor, once AutoGraph converted it) records its two
    branches as *sub-graphs*: Graphs with a `parent`, whose nodes read the parent's slots
    directly (one numbering for all), recorded into one `cond` node; a `while` records its
    test and body the same way (see `trace_branch`, `add_cond`, `add_while`)."""

    def __init__(self, name, parent=None, scope=None, loop=False):
        self.name = name
        self.parent = parent
        self.loop = loop  # a loop's test or body (runs again and again)
        self.nodes = []
        self.inputs, self.input_names = [], []  # slots of the tensor arguments
        self.outputs = None  # the returned structure, slots for tensors
        self._slots = {}  # id(tensor) -> slot, while tracing
        self._old_values = {}  # var id -> (var, value before the trace)
        self.python_decided = False  # Python read a traced tensor's value (value_used)
        self._branches = 0  # sub-graphs traced from this one (names their random kernels)
        if parent is None:
            self.root = self
            self.constants = {}  # slot -> Tensor captured by value
            self.specs = []  # slot -> (shape, dtype name)
            self.structured_outputs = None  # the same structure, the traced tensors
            self.unreplayable = None  # why a replay could not redo this trace, once it is known
            self.created_variables = False
            self.has_control_flow = False  # recorded a cond or while node
            self.autograph = True  # (False: TF refuses a Python `if` on a traced tensor)
            self._first_id = next_id()  # variables with larger ids are new
            self._traced = []  # slot -> tensor (keeps those ids unique)
            self._reads = []  # the variable reads seen while tracing
            self._inner = set()  # ids of the tensors of finished branches and loop bodies
        else:  # a branch, a loop's test or body: slots and constants are the root's
            self.root = root = parent.root
            self.constants, self.specs, self._traced = root.constants, root.specs, root._traced
            self.kernel_scope = scope  # (its random ops draw from kernels of their own)

    # -- building --------------------------------------------------------------------------
    def _new_slot(self, tensor):
        slot = len(self._traced)
        self._traced.append(tensor)
        self._slots[id(tensor)] = slot
        self.specs.append((tuple(np.shape(tensor._value)), tensor._value.dtype.name))
        return slot

    def _find(self, key, within_loop=False):
        """The slot known by `key` (a tensor's id) here or in an enclosing graph, or None.
        `within_loop`: look no further out than the innermost loop test or body (a variable
        read outside a loop does not stand for its value in every iteration)."""
        graph = self
        while graph is not None:
            slot = graph._slots.get(key)
            if slot is not None:
                return slot
            if within_loop and graph.loop:
                return None
            graph = graph.parent
        return None

    def _slot(self, tensor):
        """The slot of a tensor; a tensor made outside the trace becomes a constant."""
        slot = self._find(id(tensor))
        if slot is None and id(tensor) in self.root._inner:
            raise InaccessibleTensorError(
                f"{tensor!r} is out of scope and cannot be used here. Use return values, "
                "explicit Python locals or TensorFlow collections to access it. (It was made "
                "inside a branch or a loop body, traced as a graph of its own.)"
            )
        if slot is None:
            slot = self.root._new_slot(tensor)
            self.constants[slot] = tensor
        return slot

    def add_input(self, tensor, name):
        """A stand-in for a tensor argument: a new object (an argument passed twice gets two
        slots) with the argument's id (so a tape around the call still sees the argument)."""
        stand_in = _snapshot(tensor._value, tensor._id)
        self.inputs.append(self._new_slot(stand_in))
        self.input_names.append(name)
        return stand_in

    # -- the three hooks the core calls while STATE.tracer is this graph ------------------
    def record(self, op, inputs, out, attrs):
        if op.name.startswith("CustomGradient"):  # its forward and gradient are Python closures
            self.root.unreplayable = "uses custom_gradient"
        ins = tuple(self._slot(x) for x in inputs)
        self.nodes.append((_OP, op, ins, attrs, self._new_slot(out)))

    def value_used(self, tensor):
        """Python used the value of a tensor that comes from the arguments or the variables:
        `float()`, `int()`, an index, `.numpy()`, or an `if` or `while` that AutoGraph did not
        convert. (TF makes a cast of `float()` and refuses `.numpy()`.) A replay of this trace
        could only repeat today's value, so the function runs its Python code on every call
        instead."""
        if self.depends_on_inputs(tensor):
            self.python_decided = True
            self.root.unreplayable = (
                "uses a tensor's value in Python (if, while, float(), .numpy(), ...)"
            )

    def refuses_truth(self, tensor):
        """`bool()` of a tensor, traced without AutoGraph: TF's error, for a traced tensor."""
        if not self.root.autograph and self.depends_on_inputs(tensor):
            raise OperatorNotAllowedInGraphError(_NO_BOOL)

    def depends_on_inputs(self, tensor):
        """Whether `tensor` is a variable, or was computed in this trace from its arguments
        or variables (a constant made outside is not: its value is known)."""
        if isinstance(tensor, Variable):
            return True
        slot = self._find(id(tensor))
        return slot is not None and slot not in self.constants

    @property
    def replayable(self):
        return self.unreplayable is None

    def variable_read(self, var, read):
        """`var` was read as the tensor `read`: every read of one value shares one slot."""
        self._note(var)
        slot = self._find(id(var._snap), within_loop=True)
        if slot is None or slot in self.constants:  # a value not read yet in this trace
            slot = self._new_slot(var._snap)
            self.nodes.append((_READ, var, (), None, slot))
        self._slots[id(read)] = slot
        self.root._reads.append(read)  # (kept alive, so that its id() stays its own)

    def variable_assigned(self, var, value, how):
        """Called just before `var` changes."""
        self._note(var)
        self._old_values.setdefault(var._id, (var, var._snap))
        if isinstance(value, (Tensor, Variable)):
            slot = self._slot(value if isinstance(value, Tensor) else value._read())
        else:  # Python or numpy data: a constant, converted as `assign` converts it
            slot = self._slot(convert_to_tensor(value, dtype=var.dtype))
        self.nodes.append((_ASSIGN, var, (slot,), how, None))

    def _note(self, var):
        if var._id > self.root._first_id:
            self.root.created_variables = True

    # -- control flow: sub-graphs ----------------------------------------------------------
    def trace_branch(self, fn, inputs=(), slots=None, loop=False):
        """Trace `fn()` into a new sub-graph of this one, *dry*: no tape records it, and every
        variable it assigns and every random stream it draws from is put back afterwards (TF
        builds both branches of a cond, and runs one). `inputs`: stand-in tensors of a loop's
        variables, which become the sub-graph's inputs (at `slots`, to share them with another
        sub-graph); `loop`: the sub-graph is a loop's test or body. Returns (the sub-graph,
        what `fn` returned)."""
        self._branches += 1
        scope = (getattr(self, "kernel_scope", None), self._branches)
        sub = Graph(self.name, parent=self, scope=scope, loop=loop)
        for i, t in enumerate(inputs):
            if slots is None:
                sub.inputs.append(sub._new_slot(t))
            else:
                sub._slots[id(t)] = slots[i]
                sub.inputs.append(slots[i])
        saved = STATE.tracer, STATE.tapes
        STATE.tracer, STATE.tapes = sub, []
        try:
            with _unchanged():
                result = fn()
        finally:
            STATE.tracer, STATE.tapes = saved
            for var, old in sub._old_values.values():
                var._snap = old
        return sub, result

    def add_cond(self, pred, then, orelse):
        """Record a cond node: `then` and `orelse` are (sub-graph, flat list of its results:
        tensors or None) from `trace_branch`. The branch `pred` picks runs now, for real (a
        tape records it); returns its results as new tensors."""
        graphs = (self._finish_branch(*then), self._finish_branch(*orelse))
        captured = sorted(set(_captured(graphs[0])) | set(_captured(graphs[1])))
        return self._add_node(_COND, _Branches(graphs), (self._slot(pred), *captured))

    def add_while(self, initial, test, body):
        """Record a while node: `initial` the loop variables (tensors), `test` (sub-graph, the
        predicate) and `body` (sub-graph, the new loop variables) from `trace_branch` with the
        same inputs. The loop runs now, for real; returns the final loop variables."""
        graphs = (self._finish_branch(*test), self._finish_branch(*body))
        captured = sorted(set(_captured(graphs[0])) | set(_captured(graphs[1])))
        slots = [self._slot(t) for t in initial]
        return self._add_node(_WHILE, _Branches(graphs), (*slots, *captured))[: len(slots)]

    def _finish_branch(self, sub, results):
        sub.outputs = [None if r is None else sub._slot(r) for r in results]
        made = list(sub.inputs)
        for kind, _, _, _, out in sub.nodes:
            if kind is _OP:
                made.append(out)
            elif kind in _CONTROL_FLOW:
                made += [s for s in out if s is not None]
        self.root._inner.update(id(self._traced[s]) for s in made)
        sub._prune()
        sub._slots = sub._old_values = None
        return sub

    def record_again(self, kind, branches, ins, vals):
        """A cond or while node of another graph, run again while this one is traced (the
        gradient of a cond recomputes its branch, which may hold conds): recorded here as a
        node with the same sub-graphs, which read the slots `ins` had there, rebound to this
        graph's slots of the same tensors."""
        new = tuple(self._slot(vals[s]) for s in ins)
        rebound = tuple((old, slot) for old, slot in zip(ins, new) if old != slot)
        return self._add_node(kind, branches, new, rebound)

    def _add_node(self, kind, branches, ins, rebound=()):
        for var in branches.assigned:  # (so that a dry trace can put them back)
            self._old_values.setdefault(var._id, (var, var._snap))
        if kind is _WHILE and STATE.tapes and branches.plain and branches.graphs[1].inputs:
            branches.keeps_history = True  # (a tape listens: its gradient will need them)
        self.root.has_control_flow = True
        vals = list(self._traced)  # slot -> tensor
        for old, slot in rebound:
            vals[old] = vals[slot]
        saved = STATE.tracer
        STATE.tracer = None  # (the node is recorded as one; its ops run through `apply`)
        try:
            outs = _RUN[kind](branches, ins, vals)
        finally:
            STATE.tracer = saved
        slots = tuple(None if t is None else self._new_slot(t) for t in outs)
        self.nodes.append((kind, branches, ins, rebound, slots))
        return outs

    # -- finishing -------------------------------------------------------------------------
    def set_outputs(self, result):
        """The returned structure, its tensors (and numbers, variables) as slots."""

        def slot_of(x):
            if x is None:
                return None
            return self._slot(x if isinstance(x, Tensor) else convert_to_tensor(x))

        self.outputs = nest.map_structure(slot_of, result)

    def traced_outputs(self):
        return nest.map_structure(lambda s: None if s is None else self._traced[s], self.outputs)

    def finish(self, undo_assignments=False):
        """End of the trace: optionally put the variables back, drop the unused ops, and
        forget the traced tensors (keeping the constants)."""
        if undo_assignments:
            for var, old in self._old_values.values():
                var._snap = old
        self._prune()
        self._slots = self._traced = self._old_values = self._reads = self._inner = None

    def _prune(self):
        """Drop the ops whose results nothing uses (say, a value computed only to be
        printed). Assignments and random draws stay: they change state."""
        needed = {s for s in nest.flatten(self.outputs) if s is not None}
        kept = []
        for node in reversed(self.nodes):
            kind, what, ins, _, out = node
            outs = out if kind in _CONTROL_FLOW else (out,)
            if _changes_state(node) or not needed.isdisjoint(outs):
                needed.update(ins)
                kept.append(node)
        self.nodes = kept[::-1]

    # -- reading it ------------------------------------------------------------------------
    def get_operations(self):
        """The nodes as (name, type) pairs, named as TF names graph operations."""
        counts, out = {}, []
        for kind, what, _, how, _ in self.nodes:
            if kind is _OP:
                kind_name = what.name
            elif kind is _READ:
                kind_name = "ReadVariableOp"
            elif kind is _ASSIGN:
                kind_name = _TF_NAMES[how]
            else:  # (TF's names: a cond or loop that changes no state is "stateless")
                kind_name = ("" if what.changes_state else "Stateless") + (
                    "If" if kind is _COND else "While"
                )
            n = counts.get(kind_name, 0)
            counts[kind_name] = n + 1
            out.append(Operation(kind_name if n == 0 else f"{kind_name}_{n}", kind_name))
        return out

    def _spec(self, slot):
        shape, dtype = self.specs[slot]
        return f"{dtype}{list(shape)}"

    def _ref(self, slot):
        """How a slot appears as an operand: small constants are written out."""
        t = self.constants.get(slot)
        if t is not None and np.size(t._value) <= 4:
            v = np.asarray(t._value)
            return str(v[()]) if v.ndim == 0 else np.array2string(v, separator=", ")
        return f"%{slot}"

    def __str__(self):
        args = ", ".join(f"{n}: {self._spec(s)}" for s, n in zip(self.inputs, self.input_names))
        lines = [f"{self.name}({args}):"]
        for s, n in zip(self.inputs, self.input_names):
            lines.append(f"    %{s} = {n}")
        for s in sorted(self.constants):
            if self._ref(s).startswith("%"):
                lines.append(f"    %{s} = constant  # {self._spec(s)}")
        lines += self._node_lines(self.nodes, "    ")
        result = nest.map_structure(lambda s: "None" if s is None else self._ref(s), self.outputs)
        lines.append(f"    return {result}".replace("'", ""))
        return "\n".join(lines)

    def _node_lines(self, nodes, pad):
        lines = []
        for kind, what, ins, attrs, out in nodes:
            if kind is _ASSIGN:
                lines.append(f"{pad}{what.name.split(':')[0]}.{attrs}({self._ref(ins[0])})")
                continue
            if kind in _CONTROL_FLOW:
                lines += [f"{pad}%{old} = %{slot}" for old, slot in attrs]
                lines += self._control_flow_lines(kind, what, ins, out, pad)
                continue
            if kind is _READ:
                text = f"read {what.name.split(':')[0]}"
            else:
                params = [self._ref(i) for i in ins] + [f"{k}={_fmt(v)}" for k, v in attrs.items()]
                text = f"{what.name}({', '.join(params)})"
            lines.append(f"{pad}%{out} = {text}".ljust(56) + f"  # {self._spec(out)}")
        return lines

    def _control_flow_lines(self, kind, branches, ins, outs, pad):
        """A cond as `if %p:` / `else:`, a while as `while:` ... `if not %p: break`, each
        branch ending with the slots it hands on (`-> ...`)."""
        inner = pad + "    "
        names = ", ".join("_" if s is None else f"%{s}" for s in outs) or "()"

        def handed_on(graph):
            results = ", ".join("None" if s is None else self._ref(s) for s in graph.outputs)
            return f"{inner}-> {results}"

        first, second = branches.graphs
        if kind is _COND:
            return [
                f"{pad}{names} = if {self._ref(ins[0])}:",
                *self._node_lines(first.nodes, inner),
                handed_on(first),
                f"{pad}else:",
                *self._node_lines(second.nodes, inner),
                handed_on(second),
            ]
        n = len(outs)
        start = ", ".join(self._ref(s) for s in ins[:n])
        loop_vars = ", ".join(f"%{s}" for s in first.inputs)
        return [
            f"{pad}{names} = while ({loop_vars} = {start}):",
            *self._node_lines(first.nodes, inner),
            f"{inner}if not {self._ref(first.outputs[0])}: break",
            *self._node_lines(second.nodes, inner),
            handed_on(second),
        ]


_NO_BOOL = (
    "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt the "
    "following resolutions to the problem: If you are running in Graph mode, use Eager "
    "execution mode or decorate this function with @tf.function. If you are using AutoGraph, "
    "you can try decorating this function with @tf.function. If that does not work, then you "
    "may be using an unsupported feature or your source code may not be visible to AutoGraph. "
    "See https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/"
    "g3doc/reference/limitations.md#access-to-source-code for more information."
)


class _Branches:
    """What a cond or while node runs: its two sub-graphs (then and else; test and body),
    the variables they read (which get a zero gradient when they did not run, as in TF) and
    assign, and whether they change state (assign or draw random numbers)."""

    def __init__(self, graphs):
        self.graphs = graphs
        self.variables, self.assigned = [], []
        for graph in graphs:
            for kind, what, _, _, _ in graph.nodes:
                if kind is _READ or kind is _ASSIGN:
                    found = self.variables if kind is _READ else self.assigned
                    if all(v is not what for v in found):
                        found.append(what)
                elif kind in _CONTROL_FLOW:
                    for name in ("variables", "assigned"):
                        found = getattr(self, name)
                        found += [v for v in getattr(what, name) if all(v is not f for f in found)]
        self.changes_state = any(_changes_state(n) for g in graphs for n in g.nodes)
        self.keeps_history = False  # (a while loop a tape may differentiate: see _run_while)
        # (ops, reads and such conds: the one-op recording of a cond can run them again)
        self.plain = not self.changes_state and all(
            n[0] is _OP or n[0] is _READ or (n[0] is _COND and n[1].plain)
            for g in graphs
            for n in g.nodes
        )


def _changes_state(node):
    kind, what = node[0], node[1]
    if kind is _OP:
        return what.name.startswith(_STATEFUL)
    return kind is _ASSIGN or (kind in _CONTROL_FLOW and what.changes_state)


def _captured(graph):
    """The slots a sub-graph reads from the graphs around it (constants included)."""
    made, read = set(graph.inputs), set(graph.outputs)
    for kind, _, ins, _, out in graph.nodes:
        read.update(ins)
        made.update(out if kind in _CONTROL_FLOW else (out,))
    return [s for s in read - made if s is not None]


class Operation(tuple):
    """(name, type) of one graph node."""

    __slots__ = ()

    def __new__(cls, name, type_):
        return tuple.__new__(cls, (name, type_))

    name = property(lambda self: self[0])
    type = property(lambda self: self[1])

    def __repr__(self):
        return f"<Operation {self.name!r} type={self.type}>"


def _fmt(v):
    """An op attribute, readably: dtypes by name, slices as a:b."""
    if isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic)):
        return np.dtype(v).name
    if isinstance(v, slice):
        text = f"{'' if v.start is None else v.start}:{'' if v.stop is None else v.stop}"
        return text if v.step is None else f"{text}:{v.step}"
    if isinstance(v, tuple):
        return "(" + ", ".join(map(_fmt, v)) + ("," if len(v) == 1 else "") + ")"
    return repr(v)


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
    current = [vals[s] for s in ins[:n]]
    history = []
    one_op = branches.keeps_history and STATE.tapes
    saved = STATE.tapes
    if one_op:
        STATE.tapes = []  # (the iterations' own ops are not recorded: the one op stands for them)
    try:
        while True:
            for slot, t in zip(body.inputs, current):
                vals[slot] = t
            _execute(test.nodes, vals)
            if not vals[test.outputs[0]]._value:
                break
            history.append(current)
            _execute(body.nodes, vals)
            current = [vals[s] for s in body.outputs]
    finally:
        STATE.tapes = saved
    if not branches.keeps_history:
        return _node_outputs(branches, current, [vals[s] for s in ins[n:]])
    first = [vals[s] for s in ins[:n]]
    stacked = [
        Tensor(_stack_history([h[j]._value for h in history], first[j]._value)) for j in range(n)
    ]
    if not one_op:
        return [_snapshot(t._value, next_id()) for t in current] + stacked
    captured = (ins[n:], [vals[s] for s in ins[n:]])
    return _record_while(branches, first, captured, current, stacked) + stacked


def _stack_history(values, first):
    """A loop variable's values at the start of each iteration, stacked (none: shape 0)."""
    if values:
        return np.stack(values)
    return np.zeros((0,) + np.shape(first), np.asarray(first).dtype)


def _record_while(branches, initial, captured, finals, history):
    """Record a while loop that ran as one op (`While`), from its initial loop variables, the
    tensors its body captured and the variables, to its final loop variables. Its gradient
    walks the iterations backwards, itself a while loop: at iteration k, the gradient of the
    body at the loop variables it started from (`history`, row k), by `_branch_gradients`.
    Traced, that loop is a while node too, and replays."""
    body = branches.graphs[1]
    slots, tensors = captured
    n = len(initial)
    inputs = initial + tensors + [v._read() for v in branches.variables]
    sources = initial + tensors + list(branches.variables)
    # (the gradient's loop carries the gradients of the floating loop variables and sources)
    carried = [i for i in range(n) if initial[i].dtype.is_floating]
    summed = [i for i in range(n, len(sources)) if sources[i].dtype.is_floating]

    def vjp_all(g, ans, ins):
        upstream = _upstream(g, finals)

        # (row k of the history is row k + 1 of `padded`: the backward loop's body is traced
        # once even when the loop ran no iteration, at k = -1)
        padded = [
            concat([Tensor(np.zeros_like(h._value[:1], shape=(1,) + h.shape[1:])), h], 0)
            for h in history
        ]

        def step(k, g_vars, g_sum):
            at_k = [gather(h, k + 1) for h in padded]
            weights = [Tensor(np.zeros_like(r._value)) for r in finals]
            for i, gv in zip(carried, g_vars):
                weights[i] = gv
            grads = _branch_gradients(
                body, body.inputs + list(slots), at_k + tensors, branches.variables, weights
            )
            return (
                k - 1,
                [grads[i] for i in carried],
                [a + grads[i] for a, i in zip(g_sum, summed)],
            )

        last = apply(_LENGTH, history[0]) - 1
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

    return _as_one_op("While", inputs, finals, vjp_all)


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
        self._tensors = [None] * len(graph.specs)  # slot values for the recorded replay
        for slot, t in graph.constants.items():
            self._tensors[slot] = t
        self.python_source, self._replay = _compile(graph)

    def __call__(self, *args, **kwargs):
        key, tensors, _, _ = self._function._signature(args, kwargs)
        if key != self._key:
            raise TypeError(
                f"This concrete function of {self.graph.name!r} was traced for "
                f"{self.pretty_printed_signature()}; the arguments given do not "
                f"match (different shapes, dtypes or Python values)."
            )
        return self._call_flat(tensors)

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
        return nest.map_structure(
            lambda s: None if s is None else Tensor(vals[s]), self.graph.outputs
        )

    def _replay_recorded(self, tensors):
        """With a tape (or an outer trace) active: every op through `apply`, so it records."""
        vals = self._tensors.copy()
        for slot, t in zip(self.graph.inputs, tensors):
            vals[slot] = t
        _execute(self.graph.nodes, vals)
        return nest.map_structure(lambda s: None if s is None else vals[s], self.graph.outputs)

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
    """TF's TensorShape(None), the shape of a None output: no rank, no dimensions."""

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


# --- the decorator ------------------------------------------------------------------------
_NOT_TRACED = object()


class _Identity:
    """An unhashable Python argument in a cache key: equal only to itself (and kept alive
    by the key, so its id is never reused while the trace is cached)."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self):
        return id(self.obj)

    def __eq__(self, other):
        return isinstance(other, _Identity) and other.obj is self.obj


def _key(x, path, tensors, names):
    """A hashable summary of one argument, for the trace cache: tensors (and numpy arrays)
    by shape and dtype -- they are collected in `tensors` --, variables by identity,
    containers by their items, any other Python value by value (or identity)."""
    if isinstance(x, np.ndarray):
        x = convert_to_tensor(x)
    if isinstance(x, Tensor):
        tensors.append(x)
        names.append(path)
        return ("Tensor", x._value.shape, x._value.dtype.str)
    if isinstance(x, Variable):
        return ("Variable", x._id)
    if isinstance(x, dict):
        return (type(x),) + tuple(
            (k, _key(v, f"{path}[{k!r}]", tensors, names)) for k, v in x.items()
        )
    if isinstance(x, (list, tuple)):
        return (type(x),) + tuple(_key(v, f"{path}[{i}]", tensors, names) for i, v in enumerate(x))
    try:
        hash(x)
        return (type(x), x)
    except TypeError:
        return _Identity(x)


def _substitute(x, stand_ins):
    """`x` with each tensor (or numpy array) replaced by the next stand-in (`_key`'s order)."""
    if isinstance(x, (Tensor, np.ndarray)):
        return next(stand_ins)
    if isinstance(x, dict):
        return type(x)((k, _substitute(v, stand_ins)) for k, v in x.items())
    if isinstance(x, (list, tuple)):
        items = [_substitute(v, stand_ins) for v in x]
        return type(x)(*items) if hasattr(x, "_fields") else type(x)(items)
    return x


class TensorSpec:
    """The shape and dtype a tensor argument must have (`input_signature=[TensorSpec(...)]`);
    a dimension of None takes any size, a shape of None any rank."""

    def __init__(self, shape, dtype="float32", name=None):
        self._dims = None if shape is None else _as_shape(shape)
        self.dtype = as_dtype(dtype)
        self.name = name

    @property
    def shape(self):
        return TensorShape(self._dims) if self._dims is not None else None

    def is_compatible_with(self, tensor):
        """Whether `tensor` (a Tensor or a TensorSpec) fits: same dtype, fitting shape."""
        dims = tensor._dims if isinstance(tensor, TensorSpec) else tuple(tensor.shape)
        if tensor.dtype != self.dtype:
            return False
        if self._dims is None or dims is None:
            return True
        return len(dims) == len(self._dims) and all(
            a is None or b is None or a == b for a, b in zip(self._dims, dims)
        )

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and (self._dims, self.dtype, self.name) == (
            other._dims,
            other.dtype,
            other.name,
        )

    __hash__ = None

    def __repr__(self):
        shape = "None" if self._dims is None else str(tuple(self._dims))
        return f"TensorSpec(shape={shape}, dtype={self.dtype!r}, name={self.name!r})"


def _check_signature(input_signature):
    """TF's checks of `input_signature` when the function is made: a list or tuple whose
    leaves are all TensorSpecs."""
    if not isinstance(input_signature, (list, tuple)):
        raise TypeError(
            f"input_signature must be either a tuple or a list, got {type(input_signature)}."
        )
    bad = [x for x in nest.flatten(input_signature) if not isinstance(x, TensorSpec)]
    if bad:
        raise TypeError(
            "input_signature must be a possibly nested sequence of TensorSpec objects, got "
            f"invalid args {bad} with types {[type(x) for x in bad]}."
        )
    return tuple(input_signature)


def _bind_to_spec(value, spec):
    """`value` converted to fit `spec` (a TensorSpec or a nest of them), or TypeError."""
    if isinstance(spec, TensorSpec):
        if isinstance(value, (Tensor, Variable)):
            tensor = convert_to_tensor(value)
        elif isinstance(value, (list, tuple, dict)) and any(
            isinstance(v, (Tensor, Variable)) for v in nest.flatten(value)
        ):
            raise TypeError(f"Can not cast {value!r} to a Tensor")
        else:
            try:
                tensor = convert_to_tensor(value, dtype=spec.dtype)
            except (TypeError, ValueError) as e:
                raise TypeError(str(e)) from None
        if not spec.is_compatible_with(tensor):
            have = TensorSpec(tensor.shape, tensor.dtype)
            raise TypeError(f"Can not cast {have!r} to {spec!r}")
        return tensor
    if isinstance(spec, dict):
        if not isinstance(value, dict) or sorted(value) != sorted(spec):
            raise TypeError(f"Can not cast {value!r} to dict type.")
        return {k: _bind_to_spec(value[k], spec[k]) for k in spec}
    if not isinstance(value, (list, tuple)) or len(value) != len(spec):
        raise TypeError(f"Can not cast {value!r} to {type(spec).__name__} type.")
    return type(spec)(_bind_to_spec(v, s) for v, s in zip(value, spec))


class Function:
    """A Python function plus its traced graphs, one per call signature."""

    def __init__(self, python_function, input_signature=None, autograph=True):
        if not callable(python_function):
            raise TypeError(f"{python_function!r} is not a callable object")
        functools.update_wrapper(self, python_function)
        if self.__doc__ is None:
            self.__doc__ = ""  # (as TF's: a function without a docstring has an empty one)
        self.python_function = python_function
        self.input_signature = input_signature
        try:
            self._py_signature = inspect.signature(python_function)
        except (TypeError, ValueError):
            self._py_signature = None
        self._graphs = {}  # signature key -> ConcreteFunction
        self._tracing_count = 0
        self._autograph = bool(autograph)
        self._converted = None  # what is traced: see _python()

    def __get__(self, instance, owner):
        """`@tf.function` on a method: `self` becomes the first argument."""
        return self if instance is None else types.MethodType(self, instance)

    def _signature(self, args, kwargs):
        """(key, tensor arguments, their names, bound arguments) for one call."""
        if self._py_signature is None:
            bound = inspect.Signature(
                [
                    inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
                    inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD),
                ]
            ).bind(*args, **kwargs)
        else:
            bound = self._py_signature.bind(*args, **kwargs)
        tensors, names = [], []
        key = tuple(
            (name, _key(value, name, tensors, names)) for name, value in bound.arguments.items()
        )
        return key, tensors, names, bound

    def _bind_signature(self, args, kwargs):
        """The arguments converted to `input_signature`'s specs (TF's TypeErrors if they do
        not fit): a call with fixed shapes and dtypes."""
        params = list(self._py_signature.parameters) if self._py_signature else []
        specs = self.input_signature
        if len(specs) > len(params):
            raise TypeError(
                f"input_signature contains {len(specs) - len(params)} extra type constraints."
            )
        if len(specs) < len(params):
            raise TypeError(f"input_signature missing type constraint for {params[len(specs)]}")
        bound = self._py_signature.bind(*args, **kwargs)
        try:
            for name, spec in zip(params, specs):
                bound.arguments[name] = _bind_to_spec(bound.arguments[name], spec)
        except TypeError as e:
            raise TypeError(
                f"Binding inputs to tf.function failed due to `{e}`. Received args: {args} "
                f"and kwargs: {kwargs} for signature: {specs}."
            ) from None
        return bound.args, bound.kwargs

    def __call__(self, *args, **kwargs):
        if self.input_signature is not None:
            args, kwargs = self._bind_signature(args, kwargs)
        if _RUN_EAGERLY[0]:  # debugging: the Python code as written, eagerly
            return self.python_function(*args, **kwargs)
        if STATE.tracer is not None:
            # Called while another function is traced: run the (converted) Python code (the
            # outer trace records its ops like any others).
            return self._python()(*args, **kwargs)
        key, tensors, names, bound = self._signature(args, kwargs)
        concrete = self._graphs.get(key, _NOT_TRACED)
        if concrete is _NOT_TRACED:
            outputs = self._trace(key, tensors, names, bound)
            if self._tracing_count == 1 and self._graphs[key].graph.created_variables:
                # As TF: a function that creates variables on its first call is traced twice,
                # once to create them and once more without (the graph it then runs). The
                # second trace is dry: it changes no variable and draws no random number.
                with _unchanged():
                    self._trace(*self._signature(args, kwargs), dry=True)
            return outputs
        if not concrete.graph.replayable:
            return self._run_unreplayable(concrete.graph, args, kwargs)
        return concrete._call_flat(tensors)

    def _python(self):
        """The Python function to trace: AutoGraph's conversion of it (`autograph.py`), or
        the function itself with `autograph=False` (or when it cannot be converted)."""
        if self._converted is None:
            if self._autograph:
                self._converted = convert(self.python_function)
            else:
                self._converted = self.python_function
        return self._converted

    def _run_unreplayable(self, graph, args, kwargs):
        """A call of a function whose trace cannot be replayed: its Python code again. If
        that code built conds or loops, it runs as a trace that is thrown away (so that they
        keep TF's graph semantics: tensors out, both branches traced, zero gradients for what
        did not run)."""
        if not graph.has_control_flow:
            return self._python()(*args, **kwargs)
        scratch = Graph(self.__name__)
        scratch.kernel_scope = graph.kernel_scope
        saved = STATE.tracer
        STATE.tracer = scratch
        try:
            scratch.set_outputs(self._python()(*args, **kwargs))
            return scratch.traced_outputs()
        finally:
            STATE.tracer = saved

    def _trace(self, key, tensors, names, bound, dry=False):
        """Run the Python function once with a Graph listening; return what it returned.
        `dry`: put every variable back afterwards (for `get_concrete_function`)."""
        graph = Graph(self.__name__)
        graph.autograph = self._autograph
        # (the random ops of every trace for this signature draw from the same kernels: the
        # graph that is replayed continues the streams its first, variable-making trace began)
        graph.kernel_scope = (id(self), key)
        stand_ins = iter([graph.add_input(t, n) for t, n in zip(tensors, names)])
        for name, value in bound.arguments.items():
            bound.arguments[name] = _substitute(value, stand_ins)
        saved_tapes, saved_tracer = STATE.tapes, STATE.tracer
        STATE.tracer = graph
        if dry:
            STATE.tapes = []  # a trace that changes nothing records nothing either
        try:
            result = self._python()(*bound.args, **bound.kwargs)
            graph.set_outputs(result)
            outputs = graph.structured_outputs = graph.traced_outputs()
        finally:
            STATE.tracer, STATE.tapes = saved_tracer, saved_tapes
            graph.finish(undo_assignments=dry)
        if self._tracing_count and graph.created_variables:
            raise ValueError(
                "tf.function only supports singleton tf.Variables created on the "
                "first call. Make sure the tf.Variable is only created once or "
                "created outside tf.function. See https://www.tensorflow.org/guide/"
                "function#creating_tfvariables for more information."
            )
        if graph.unreplayable == "uses custom_gradient":  # (TF replays it: say why we cannot)
            logger.warning(
                "%s uses custom_gradient, which minitape.function cannot replay: "
                "it will run as plain Python on every call.",
                self.__name__,
            )
        self._tracing_count += 1
        self._graphs[key] = ConcreteFunction(graph, self, key)
        return outputs

    def get_concrete_function(self, *args, **kwargs):
        """The graph for these arguments (traced now if needed, without changing any
        variable). `print(f.get_concrete_function(x).graph)` lists its ops."""
        key, tensors, names, bound = self._signature(args, kwargs)
        if key not in self._graphs:
            self._trace(key, tensors, names, bound, dry=True)
        return self._graphs[key]

    def experimental_get_tracing_count(self):
        """How many times the Python code was traced (once per new signature)."""
        return self._tracing_count

    def __repr__(self):
        return f"<minitape.function {self.__name__}>"


def function(
    func=None,
    input_signature=None,
    autograph=True,
    jit_compile=None,
    reduce_retracing=False,
    experimental_relax_shapes=None,
):
    """Compile `func` into a replayable graph: `@tf.function` or `tf.function(f)`.

    `input_signature` (a list of `TensorSpec`s, one per argument) fixes what the arguments
    must be: each is converted to its spec's dtype, and one that does not fit raises TF's
    TypeError. `autograph=False` traces the Python code as it is written, without converting
    its `if`/`while`/`for` on tensors (see `autograph.py`). `jit_compile`,
    `reduce_retracing` are accepted and ignored; minitape always traces once per exact
    signature."""
    if input_signature is not None:
        input_signature = _check_signature(input_signature)
    if func is None:
        return functools.partial(Function, input_signature=input_signature, autograph=autograph)
    return Function(func, input_signature, autograph)
