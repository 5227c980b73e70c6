"""A window into the tape: draw what a tape recorded, and step through its backward pass.

    from minitape import viz

    with tf.GradientTape() as tape:
        loss = (w * x + b - 5) ** 2
    viz.draw_tape(tape, names={"loss": loss})         # the recording as a graph
    walk = viz.backward_steps(tape, loss, [w, b])     # the backward pass, one op at a time
    print(walk.table())                               # ... as text
    viz.draw_backward(walk, 2)                        # ... as a picture of step 2
    grads = tape.gradient(loss, [w, b])               # the tape is still usable

Everything here only *reads* the tape: its recording (`tape._entries`, a list of
`(op, inputs, output, attrs)`), the ids it watches (`tape._watched`) and its watched variables
(`tape._variables`). In the graph, every node stands for one tensor: a source (a watched
variable or tensor), a constant that an op used (grey, no gradient flows into it), or the
output of one recorded op (labelled with TF's op name and the output's shape).

Needs matplotlib (and ipywidgets for `step_through`).
"""

import threading

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyBboxPatch

from . import nest
from .context import STATE
from .tape import TapeTensor, _backward
from .tape_args import target_tensor
from .tensor import Tensor, Variable, convert_to_tensor

__all__ = [
    "TapeGraph",
    "tape_graph",
    "draw_tape",
    "BackwardWalk",
    "Step",
    "backward_steps",
    "draw_backward",
    "step_through",
]

_COLORS = {"variable": "#c8e6c9", "watched": "#bbdefb", "op": "#fff8e1", "constant": "#eeeeee"}
_W, _H, _GAP, _DY = 1.9, 0.9, 1.1, 1.2  # box size, gap between columns, row spacing
_DRAWING = threading.Lock()  # matplotlib must not draw from two threads at once
_CHAR = 0.115  # width of one label character, in data units


def _fmt(v):
    """A short, stable text for a value: scalars with 4 significant digits, arrays abridged."""
    v = np.asarray(v)
    if v.ndim == 0:
        return f"{float(v):.4g}"
    if v.size <= 3:
        return "[" + ", ".join(f"{float(e):.3g}" for e in v.ravel()) + "]"
    return f"{tuple(v.shape)} array"


def _shape(t):
    return str(tuple(t.shape))


def _value(t):
    """A tensor's value; None for a TapeTensor (a tensor the recording did not keep)."""
    return getattr(t, "_value", None)


def _value_line(t, values):
    """A third label line with the value, for scalars (arrays would not fit in a box)."""
    if not values or len(t.shape) or _value(t) is None:
        return ""
    return f"\nvalue {_fmt(t._value)}"


# --- the graph ----------------------------------------------------------------------------
class Node:
    """One tensor in the picture. `kind`: 'variable', 'watched', 'constant' or 'op'."""

    def __init__(self, key, kind, label, shape, value, op=None, entry=None, name=None):
        self.key, self.kind, self.label, self.shape = key, kind, label, shape
        self.value, self.op, self.entry, self.name = value, op, entry, name

    @property
    def short(self):
        """How the step table refers to this node: its name, else e.g. 'Mul#2'."""
        if self.name:
            return self.name
        return f"{self.op}#{self.entry}" if self.kind == "op" else self.label.split("\n")[0]

    def __repr__(self):
        return f"Node({self.kind}, {self.short!r}, shape={self.shape})"


class TapeGraph:
    """A snapshot of a recording: `nodes` (key -> Node, keys are tensor ids), `edges`
    (input key, op key) in recording order, `pos` (key -> (x, y)) for drawing. It holds no
    reference to the tape, so it stays drawable after the tape has been released."""

    def __init__(self, nodes, edges):
        self.nodes, self.edges = nodes, edges
        lines = [line for n in nodes.values() for line in n.label.split("\n")]
        longest = max(map(len, lines), default=0)
        self.box_width = max(_W, _CHAR * longest + 0.3)  # all boxes as wide as the widest label
        self.pos = _layout(nodes, edges, self.box_width + _GAP)
        self.rads = _edge_rads(self)  # how much each arrow bends

    def ops(self):
        """The op names in recording order, e.g. ['Mul', 'AddV2', 'Sub', 'Pow']."""
        return [n.op for n in self.nodes.values() if n.kind == "op"]

    def sources(self):
        """The labels of the watched sources (variables by name)."""
        return [n.short for n in self.nodes.values() if n.kind in ("variable", "watched")]

    def __repr__(self):
        return f"<TapeGraph: {len(self.ops())} ops {self.ops()}, sources {self.sources()}>"


def _names_by_id(names):
    out = {}
    for name, t in (names or {}).items():
        if isinstance(t, (Tensor, Variable)):
            out[t._id] = name
    return out


def tape_graph(tape, names=None, values=True):
    """The recording of `tape` as a TapeGraph. `names` maps labels to tensors, e.g.
    `{"y": y, "loss": loss}`, to name the nodes that stand for them; `values`: show the
    value of scalar tensors in their boxes."""
    if tape._entries is None:
        raise RuntimeError(
            "This tape holds no recording (never entered, or already released "
            "by a gradient() call on a non-persistent tape)."
        )
    named = _names_by_id(names)
    entries = list(tape._entries)
    variables = dict(tape._variables)
    watched = set(tape._watched)
    reads = tape._reads  # each read of a variable is drawn as the variable itself
    produced = {out._id: i for i, (op, ins, out, attrs) in enumerate(entries)}
    # An entry keeps only the tensors its gradient rules read (a TapeTensor for the others):
    # show each tensor by any full copy of it that is known (another entry, or `names`).
    known = {}
    for t in [t for _, ins, out, _ in entries for t in (*ins, out)] + list((names or {}).values()):
        if isinstance(t, Tensor) or (isinstance(t, TapeTensor) and t._id not in known):
            known[t._id] = t
    nodes, edges = {}, []

    def add_input(t):
        if t._id in reads:
            t = variables[reads[t._id]]._snap
        t = known.get(t._id, t)
        if t._id in nodes or t._id in produced:
            return
        name = named.get(t._id)
        if t._id in variables:
            name = name or variables[t._id].name.split(":")[0]
            head = name if name == "Variable" else f"{name} (Variable)"
            label = f"{head}\nshape={_shape(t)}{_value_line(t, values)}"
            nodes[t._id] = Node(t._id, "variable", label, _shape(t), _value(t), name=name)
        elif t._id in watched:
            label = f"{name or 'tensor'} (watched)\nshape={_shape(t)}{_value_line(t, values)}"
            nodes[t._id] = Node(t._id, "watched", label, _shape(t), _value(t), name=name)
        else:
            text = _value_line(t, True).strip() or f"shape={_shape(t)}"
            label = f"{name or 'constant'}\n{text}"
            nodes[t._id] = Node(t._id, "constant", label, _shape(t), _value(t), name=name)

    for i, (op, ins, out, _attrs) in enumerate(entries):
        for t in ins:
            add_input(t)
            edges.append((reads.get(t._id, t._id), out._id))
        name = named.get(out._id)
        head = f"{name} = {op.name}" if name else op.name
        out = known[out._id]
        label = f"{head}\nshape={_shape(out)}{_value_line(out, values)}"
        nodes[out._id] = Node(
            out._id, "op", label, _shape(out), _value(out), op=op.name, entry=i, name=name
        )
    # variables watched but never used still appear: sources with no path to anything
    for vid in sorted(variables):
        add_input(variables[vid]._snap)
    return TapeGraph(nodes, edges)


def _layout(nodes, edges, dx):
    """Columns by depth (sources left, each op right of its inputs); rows by a barycentre pass."""
    inputs = {}
    for a, b in edges:
        inputs.setdefault(b, []).append(a)
    depth = {}
    for k, n in nodes.items():  # nodes are in creation order: inputs come first
        if n.kind == "op":
            ds = [depth[a] for a in inputs.get(k, []) if nodes[a].kind != "constant"]
            depth[k] = 1 + max(ds, default=0)
        elif n.kind != "constant":
            depth[k] = 0
    for k, n in nodes.items():  # a constant sits just left of its first consumer
        if n.kind == "constant":
            users = [b for a, b in edges if a == k]
            depth[k] = min(depth[u] for u in users) - 1 if users else 0
    cols = {}
    for k in nodes:
        cols.setdefault(depth[k], []).append(k)
    pos = {}
    for d in sorted(cols):
        col = cols[d]
        if d > 0:  # order by the mean row of the inputs/consumers

            def bary(k):
                near = [pos[a][1] for a in inputs.get(k, []) if a in pos]
                near += [pos[b][1] for a, b in edges if a == k and b in pos]
                return np.mean(near) if near else 0.0

            col.sort(key=lambda k: -bary(k))
        for j, k in enumerate(col):
            pos[k] = (d * dx, ((len(col) - 1) / 2 - j) * _DY)
    # a second pass pulls each column's rows towards its neighbours, keeping the order
    for d in sorted(cols):
        col = cols[d]
        for k in col:
            near = [pos[a][1] for a in inputs.get(k, [])] + [pos[b][1] for a, b in edges if a == k]
            if near:
                pos[k] = (pos[k][0], 0.5 * pos[k][1] + 0.5 * float(np.mean(near)))
        ys = sorted(col, key=lambda k: -pos[k][1])
        for upper, lower in zip(ys, ys[1:]):  # keep boxes apart
            if pos[upper][1] - pos[lower][1] < _DY:
                pos[lower] = (pos[lower][0], pos[upper][1] - _DY)
    return pos


# --- drawing ------------------------------------------------------------------------------
_UNIT = 0.7  # inches per data unit, the same across and up: arrows bend as computed


def _extent(graph):
    """Data limits that hold every box and every bent arrow."""
    xs = [p[0] for p in graph.pos.values()] or [0.0]
    ys = [p[1] for p in graph.pos.values()] or [0.0]
    lo, hi = min(ys) - _H / 2 - 0.55, max(ys) + _H / 2 + 0.35
    t = np.linspace(0, 1, 21)
    for (a, b), rad in zip(graph.edges, graph.rads):
        if rad:
            _, py = _curve(*_ends(graph.pos[a], graph.pos[b], graph.box_width, 0.0), rad, t)
            lo, hi = min(lo, py.min() - 0.2), max(hi, py.max() + 0.2)
    return min(xs) - graph.box_width / 2 - 0.3, max(xs) + graph.box_width / 2 + 0.3, lo, hi


def _new_axes(graph, ax, title):
    """A figure sized so one data unit is _UNIT inches (shrunk for big graphs), or the given
    axes. Returns (figure, axes, font scale)."""
    x0, x1, y0, y1 = _extent(graph)
    if ax is None:
        head = 0.45 if title else 0.05  # inches kept for the title
        w, h = max(3.0, _UNIT * (x1 - x0)), max(1.2, _UNIT * (y1 - y0))
        shrink = min(1.0, 12.0 / w, 8.0 / (h + head))  # very big graphs: shrink to fit
        fig = plt.figure(figsize=(w * shrink, (h + head) * shrink))
        ax = fig.add_axes((0.0, 0.0, 1.0, h / (h + head)))
    fig = ax.figure
    ax.set_axis_off()
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    if title:
        ax.set_title(title, fontsize=11)
    box = ax.get_position()
    fw, fh = fig.get_size_inches()
    scale = min(1.0, box.width * fw / (_UNIT * (x1 - x0)), box.height * fh / (_UNIT * (y1 - y0)))
    return fig, ax, scale


def _draw_node(ax, node, xy, width, face=None, edge="#555555", lw=1.0, bold=False, scale=1.0):
    x, y = xy
    style = "round,pad=0.02,rounding_size=0.12"
    ax.add_patch(
        FancyBboxPatch(
            (x - width / 2, y - _H / 2),
            width,
            _H,
            boxstyle=style,
            facecolor=face or _COLORS[node.kind],
            edgecolor=edge,
            linewidth=lw,
            linestyle="--" if node.kind == "constant" else "-",
        )
    )
    ax.text(
        x,
        y,
        node.label,
        ha="center",
        va="center",
        fontsize=9 * scale,
        fontweight="bold" if bold else "normal",
        family="monospace",
    )


def _ends(a, b, width, offset):
    (x0, y0), (x1, y1) = a, b
    sign = 1 if x1 > x0 else -1
    return (x0 + sign * width / 2, y0 + offset), (x1 - sign * width / 2, y1 + offset)


def _curve(start, end, rad, t):
    """Points of matplotlib's arc3 curve: a quadratic Bezier whose control point is the
    chord's middle moved sideways by rad * the chord."""
    (sx, sy), (ex, ey) = start, end
    cx, cy = (sx + ex) / 2 + rad * (ey - sy), (sy + ey) / 2 - rad * (ex - sx)
    return (
        (1 - t) ** 2 * sx + 2 * (1 - t) * t * cx + t**2 * ex,
        (1 - t) ** 2 * sy + 2 * (1 - t) * t * cy + t**2 * ey,
    )


def _route(graph, a, b, offset=0.0, rads=(0.0, -0.3, 0.3, -0.5, 0.5, -0.8, 0.8)):
    """The first bend (rad) for which the arrow a -> b passes through no other box."""
    start, end = _ends(graph.pos[a], graph.pos[b], graph.box_width, offset)
    t = np.linspace(0.03, 0.97, 40)
    others = [p for k, p in graph.pos.items() if k not in (a, b)]
    half_w, half_h = graph.box_width / 2 + 0.05, _H / 2 + 0.05
    for rad in rads:
        px, py = _curve(start, end, rad, t)
        hits = [np.any((np.abs(px - x) < half_w) & (np.abs(py - y) < half_h)) for x, y in others]
        if not any(hits):
            return rad
    return rads[0]


def _arrow(ax, graph, a, b, color="#777777", lw=1.0, rad=0.0, label=None, offset=0.0, scale=1.0):
    """An arrow from node `a` to node `b`, edge to edge, `offset` below the boxes' centres."""
    start, end = _ends(graph.pos[a], graph.pos[b], graph.box_width, offset)
    ax.annotate(
        "",
        xy=end,
        xytext=start,
        arrowprops=dict(
            arrowstyle="-|>",
            color=color,
            lw=lw,
            shrinkA=1,
            shrinkB=1,
            connectionstyle=f"arc3,rad={rad}",
        ),
    )
    if label:
        ax.text(
            *_curve(start, end, rad, 0.5),
            label,
            color=color,
            fontsize=9 * scale,
            ha="center",
            va="center",
            family="monospace",
            bbox=dict(facecolor="white", edgecolor="none", pad=0.5, alpha=0.8),
        )


def _edge_rads(graph):
    """A bend for every edge: repeated edges (x * x uses x twice) are bent apart, and an edge
    that would run through another box goes around it."""
    edges = graph.edges
    total = {e: edges.count(e) for e in set(edges)}
    seen, out = {}, []
    for e in edges:
        k = seen.get(e, 0)
        seen[e] = k + 1
        out.append(_route(graph, *e) if total[e] == 1 else 0.25 * (k - (total[e] - 1) / 2))
    return out


def draw_tape(tape, names=None, ax=None, title="What the tape recorded", values=True):
    """Draw a tape's recording (or a TapeGraph): sources on the left (variables green,
    watched tensors blue), constants grey and dashed, recorded ops as boxes 'OpName / shape',
    arrows from each input to the op that used it. Returns the matplotlib Figure."""
    graph = tape if isinstance(tape, TapeGraph) else tape_graph(tape, names, values)
    fig, ax, scale = _new_axes(graph, ax, title)
    if not graph.nodes:
        ax.text(
            0.5,
            0.5,
            "(the tape recorded nothing)",
            ha="center",
            va="center",
            transform=ax.transAxes,
            fontsize=10,
            color="#777777",
        )
    for (a, b), rad in zip(graph.edges, graph.rads):
        _arrow(ax, graph, a, b, rad=rad)
    for k, node in graph.nodes.items():
        _draw_node(ax, node, graph.pos[k], graph.box_width, scale=scale)
    return fig


# --- the backward pass, one step at a time ------------------------------------------------
class Step:
    """One step of the backward walk.

    `entry`: index of the recorded op handled (None for step 0, the seed); `op`: its name;
    `node`: the key of its node; `upstream`: the gradient arriving at its output (numpy);
    `sent`: list of (input key, value sent to it, that input's accumulated gradient after
    adding it); `grads`: every node's accumulated gradient after this step (key -> numpy).
    """

    def __init__(self, entry, op, node, upstream, sent, grads):
        self.entry, self.op, self.node, self.upstream = entry, op, node, upstream
        self.sent, self.grads = sent, grads

    def __repr__(self):
        return f"<Step {self.op} entry={self.entry} sends to {len(self.sent)} input(s)>"


class BackwardWalk:
    """The steps of one backward pass (`steps`, a list; `walk[k]` is step k), the graph
    they run on (`graph`), and the resulting gradients for the sources (`gradients`, numpy
    values or None, in the order of the sources given)."""

    def __init__(self, graph, steps, gradients, target_key):
        self.graph, self.steps, self.gradients = graph, steps, gradients
        self.target_key = target_key

    def __len__(self):
        return len(self.steps)

    def __getitem__(self, k):
        return self.steps[k]

    def _short(self, key):
        node = self.graph.nodes.get(key)
        return "target" if node is None else node.short

    def describe(self, k):
        """One line saying what step k does."""
        s, name = self.steps[k], self._short
        if s.entry is None:
            return f"step 0: start with d{name(s.node)}/d{name(s.node)} = {_fmt(s.upstream)}"
        to = ", ".join(f"{_fmt(v)} to {name(key)}" for key, v, _ in s.sent) or "nothing"
        return f"step {k}: {s.op} ({name(s.node)}) gets gradient {_fmt(s.upstream)}, sends {to}"

    def table(self):
        """All steps as a fixed-format text table."""
        name = self._short
        lines = [
            f"{'step':<6}{'node (op)':<20}{'grad in':>9}   {'-> input':<12}{'sent':>9}{'total':>9}"
        ]
        for k, s in enumerate(self.steps):
            if s.entry is None:
                lines.append(f"{k:<6}{name(s.node) + ' (seed)':<20}{_fmt(s.upstream):>9}")
                continue
            head = f"{k:<6}{name(s.node) + ' (' + s.op + ')':<20}{_fmt(s.upstream):>9}   "
            if not s.sent:
                lines.append(head + "(no watched input)")
            for j, (key, v, total) in enumerate(s.sent):
                lines.append(
                    (head if j == 0 else " " * len(head))
                    + f"{name(key):<12}{_fmt(v):>9}{_fmt(total):>9}"
                )
        return "\n".join(lines)

    def __repr__(self):
        return f"<BackwardWalk: {len(self.steps)} steps>"


def backward_steps(tape, target, sources, names=None):
    """Replay the backward pass of `tape.gradient(target, sources)` one recorded op at a time.

    It follows the same rules as the tape's own backward walk (newest entry first; an op whose
    output has no gradient yet is skipped, because it does not lead to the target; gradients
    arriving at the same tensor add up), but keeps every intermediate gradient for display.

    It only *reads* the recording and never releases it: even a one-shot (non-persistent) tape
    can still answer its one `gradient()` call afterwards. Call it before that call, while the
    recording exists. The gradient ops it runs are recorded on no tape (not even an outer one).
    `names` labels nodes as in `tape_graph`; an unnamed target is called "target".
    """
    targets = [target_tensor(t) for t in nest.flatten(target)]
    names = dict(names or {})
    if targets and targets[0]._id not in _names_by_id(names):
        names.setdefault("target", targets[0])
    graph = tape_graph(tape, names)
    entries, watched = list(tape._entries), set(tape._watched)
    flat_sources = nest.flatten(sources)
    saved_tapes, saved_tracer = list(STATE.tapes), STATE.tracer
    STATE.tapes.clear()
    STATE.tracer = None
    try:
        # The tape's own backward sweep, told to keep every gradient (nothing is popped) and
        # to report each step; the running totals are snapshotted after each one.
        seeds = [Tensor(np.ones_like(t._value)) for t in targets]
        totals = {}
        for t, seed in zip(targets, seeds):
            totals[t._id] = seed._value if t._id not in totals else totals[t._id] + seed._value
        first = targets[0]
        steps = [Step(None, "seed", first._id, np.ones_like(first._value), [], dict(totals))]

        reads = tape._reads  # a gradient sent to a read of a variable is shown on the variable

        def on_step(i, op, out, g, sent):
            shown = []
            for x, gx, total in sent:
                xid = reads.get(x._id, x._id)
                gx = _dense(gx)
                total = _dense(total) if xid == x._id or xid not in totals else totals[xid] + gx
                totals[xid] = total
                shown.append((xid, gx, total))
            steps.append(Step(i, op.name, out._id, _dense(g), shown, dict(totals)))

        keep = watched | {t._id for t in targets}
        grads = _backward(entries, watched, targets, seeds, keep, reads, on_step)
    finally:
        STATE.tapes[:] = saved_tapes
        STATE.tracer = saved_tracer
    gradients = [None if grads.get(s._id) is None else _dense(grads[s._id]) for s in flat_sources]
    return BackwardWalk(graph, steps, gradients, targets[0]._id)


def _dense(g):
    """A gradient's numpy value (a gather's IndexedSlices shown as the dense value)."""
    return convert_to_tensor(g)._value


def draw_backward(walk, k, ax=None):
    """Draw step `k` of a BackwardWalk: the op being handled in orange, red arrows from it to
    the inputs it sends gradients to (labelled with the values sent), and under every node
    the gradient accumulated there so far. Returns the matplotlib Figure."""
    graph, step = walk.graph, walk.steps[k]
    fig, ax, scale = _new_axes(graph, ax, walk.describe(k))
    for (a, b), rad in zip(graph.edges, graph.rads):
        _arrow(ax, graph, a, b, color="#cccccc", rad=rad)
    repeats = {}
    for key, value, _ in step.sent:  # x * x sends to x twice: two arrows, one lower
        j = repeats[key] = repeats.get(key, -1) + 1
        offset = -0.16 - 0.2 * j
        _arrow(
            ax,
            graph,
            step.node,
            key,
            color="#c62828",
            lw=2.0,
            offset=offset,
            scale=scale,
            rad=-_route(graph, key, step.node, offset),
            label=_fmt(value),
        )
    for key, node in graph.nodes.items():
        if key == step.node and step.entry is not None:
            style = dict(face="#ffb74d", edge="#e65100", lw=2.5, bold=True)  # the op handled
        elif key in repeats:
            style = dict(edge="#c62828", lw=2.5)  # receiving
        else:
            style = {}
        _draw_node(ax, node, graph.pos[key], graph.box_width, scale=scale, **style)
        if key in step.grads:
            x, y = graph.pos[key]
            ax.text(
                x,
                y - _H / 2 - 0.05,
                f"grad {_fmt(step.grads[key])}",
                ha="center",
                va="top",
                fontsize=8.5 * scale,
                color="#c62828",
                family="monospace",
            )
    return fig


def step_through(walk, description="backward step"):
    """An ipywidgets slider over the steps of `walk`, redrawing `draw_backward` for each."""
    import ipywidgets as widgets

    slider = widgets.IntSlider(
        value=0,
        min=0,
        max=len(walk) - 1,
        description=description,
        style={"description_width": "initial"},
        layout=widgets.Layout(width="420px"),
    )

    def show(k):
        with _DRAWING:  # JupyterLab may deliver slider events on a second thread
            draw_backward(walk, k)
            plt.show()

    out = widgets.interactive_output(show, {"k": slider})
    return widgets.VBox([slider, out])
