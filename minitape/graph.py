"""Tracing: `Graph`, the listener that a traced function's ops, variable reads and
assignments, conds and while loops are appended to while its Python body runs once (see
`function.py` for the whole story; `replay.py` runs and compiles what it recorded).
"""

import functools
import sys

import numpy as np

from . import nest
from .autograph_frames import is_minitape, tf_would_convert
from .context import STATE, next_id
from .errors import InaccessibleTensorError, OperatorNotAllowedInGraphError
from .logs import _PACKAGE
from .random import _unchanged
from .replay import (
    _ASSIGN,
    _COND,
    _CONTROL_FLOW,
    _OP,
    _READ,
    _RUN,
    _STATEFUL,
    _TF_NAMES,
    _WHILE,
    _UnknownShape,
    whole,
)
from .tape import SparseGradient
from .tensor import _OPEN_SHAPES, Tensor, TensorShape, Variable, _snapshot, convert_to_tensor


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
        self.composite_outputs = False  # it returned a gather's slices (in parts, see below)
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

    def add_input(self, tensor, name, dims=None):
        """A stand-in for a tensor argument: a new object (an argument passed twice gets two
        slots) with the argument's id (so a tape around the call still sees the argument).
        `dims`: the shape the traced function sees, when the trace's type leaves sizes open."""
        stand_in = _snapshot(tensor._value, tensor._id)
        if dims != tensor._value.shape:
            _OPEN_SHAPES[id(stand_in)] = functools.partial(_seen_shape, stand_in, dims)
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

    def refuses(self, tensor, use):
        """TF's error for `bool(x)`, `for v in x` or `len(x)` (`use`: "bool", "iterate",
        "len") of a traced tensor, in code TF runs as it is (not converted by AutoGraph: with
        `autograph=False`, under `do_not_convert`, a Keras layer's `call`, ...; see
        `autograph_frames`). Where TF would have converted the code, nothing: the value is
        read in Python (`value_used`)."""
        if not self.depends_on_inputs(tensor):
            return
        caller = sys._getframe(3)  # (the code calling bool(), iter() or len())
        if is_minitape(caller.f_code):  # (minitape's own way of computing, not the user's)
            return
        if self.root.autograph and tf_would_convert(caller):
            return
        if use == "len":
            raise TypeError(
                f"len is not well defined for a symbolic Tensor ({self._tf_name(tensor)}). "
                "Please call `x.shape` rather than `len(x)` for shape information."
            )
        raise OperatorNotAllowedInGraphError(_NOT_ALLOWED.format(_USES[use]))

    def _tf_name(self, tensor):
        """TF's name of a traced tensor, where minitape knows it (an argument's)."""
        slot = self._find(id(tensor))
        if slot in self.root.inputs:
            return f"{self.root.input_names[self.root.inputs.index(slot)]}:0"
        return "Tensor:0"

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
        """The returned structure, its tensors (and numbers, variables) as slots; a gather's
        slices (TF's IndexedSlices) are returned as slices: their parts' slots, made whole
        again by `whole` on the way out."""

        def parts_of(x):
            if isinstance(x, SparseGradient):
                self.composite_outputs = True
                return x._parts()
            return x

        def slot_of(x):
            if x is None:
                return None
            return self._slot(x if isinstance(x, Tensor) else convert_to_tensor(x))

        if any(isinstance(x, SparseGradient) for x in nest.flatten(result)):
            result = nest.map_structure(parts_of, result)
        self.outputs = nest.map_structure(slot_of, result)

    def traced_outputs(self):
        traced = nest.map_structure(lambda s: None if s is None else self._traced[s], self.outputs)
        return whole(traced) if self.composite_outputs else traced

    def finish(self, undo_assignments=False):
        """End of the trace: optionally put the variables back, drop the unused ops, and
        forget the traced tensors (keeping the constants)."""
        if undo_assignments:
            for var, old in self._old_values.values():
                var._snap = old
        for slot in self.inputs:
            _OPEN_SHAPES.pop(id(self._traced[slot]), None)
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


_USES = {
    "bool": "Using a symbolic `tf.Tensor` as a Python `bool`",
    "iterate": "Iterating over a symbolic `tf.Tensor`",
}
_NOT_ALLOWED = (
    "{} is not allowed. You can attempt the "
    "following resolutions to the problem: If you are running in Graph mode, use Eager "
    "execution mode or decorate this function with @tf.function. If you are using AutoGraph, "
    "you can try decorating this function with @tf.function. If that does not work, then you "
    "may be using an unsupported feature or your source code may not be visible to AutoGraph. "
    "See https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/"
    "g3doc/reference/limitations.md#access-to-source-code for more information."
)


def _seen_shape(tensor, dims, caller):
    """The shape of a tensor argument whose trace leaves sizes open, as the code in `caller`
    (a frame) sees it: the traced function, TF's static shape (`dims`: None where open, None
    for an unknown rank); minitape's own code, which computes on the value, the value's."""
    if caller.f_code.co_filename.startswith(_PACKAGE):
        return TensorShape._of(tensor._value.shape)
    return _UnknownShape() if dims is None else TensorShape._of(dims)


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
