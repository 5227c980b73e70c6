"""`model.summary()`: Keras 3's table of layers, output shapes and parameter counts.

Keras draws it with the `rich` library, as wide as the terminal allows (88 columns for a
chain of layers, 108 with a "Connected to" column for a graph, at most the terminal's width
minus 4). The columns get fixed shares of that width, and when the table (with a space of
padding each side of a cell) is too wide, rich takes the excess from the columns evenly,
rounding as it goes; this module does the same arithmetic, so the table is Keras' own,
character for character (a text too long for its cell wraps at its spaces, as in rich,
and a word too long for it ends in '…').
"""

import math
import shutil
import textwrap

from .. import nest

__all__ = ["print_summary"]


def _ratio_reduce(total, widths):
    """rich's `ratio_reduce` with equal ratios: take `total` from `widths`, evenly."""
    result, remaining, ratio = [], total, len(widths)
    for width in widths:
        taken = min(width, round(remaining / ratio))
        result.append(width - taken)
        remaining -= taken
        ratio -= 1
    return result


def _column_widths(positions, line_length):
    """The cells' widths (padding included) rich gives columns at these shares of the line."""
    widths, current = [], 0
    for pos in positions:
        width = int(pos * line_length) - current
        if width < 4:
            raise ValueError("Insufficient console width to print summary.")
        widths.append(width)
        current += width
    padded = [w + 2 for w in widths]
    room = line_length - (len(widths) + 1)  # (the vertical rules)
    if sum(padded) > room:
        padded = _ratio_reduce(sum(padded) - room, padded)
    return padded


def _cell_lines(text, width, align):
    """A cell's lines: the text wrapped at spaces to fit between a space each side (a word
    too long ends in '…'), each line left or right within."""
    inner = width - 2
    lines = textwrap.wrap(text, inner, break_long_words=False) or [""]
    lines = [t if len(t) <= inner else t[: inner - 1] + "…" for t in lines]
    return [" " + (t.rjust(inner) if align == "right" else t.ljust(inner)) + " " for t in lines]


def _table(header, rows, widths, aligns):
    def rule(left, fill, mid, right):
        return left + mid.join(fill * w for w in widths) + right

    def lines(cells, bar):
        parts = [_cell_lines(c, w, a) for c, w, a in zip(cells, widths, aligns)]
        height = max(len(p) for p in parts)
        parts = [p + [" " * w] * (height - len(p)) for p, w in zip(parts, widths)]
        return [bar + bar.join(row) + bar for row in zip(*parts)]

    out = [rule("┏", "━", "┳", "┓"), *lines(header, "┃"), rule("┡", "━", "╇", "┩")]
    for i, row in enumerate(rows):
        if i:
            out.append(rule("├", "─", "┼", "┤"))
        out.extend(lines(row, "│"))
    out.append(rule("└", "─", "┴", "┘"))
    return out


def _shape_text(shape):
    return "(" + ", ".join(str(d) for d in shape) + ")"


def _output_shape(layer):
    """The layer's output shape as Keras prints it: from its last symbolic call, else from
    the call that built it, else '?'."""
    nodes = getattr(layer, "_inbound_nodes", [])
    if nodes:
        outputs = nest.map_structure(lambda t: _shape_text(t.shape), nodes[-1].outputs)
    elif getattr(layer, "_built_output", None) is not None:
        outputs = layer._built_output
    else:
        return "?"
    flat = nest.flatten(outputs)
    return flat[0] if len(flat) == 1 else str(outputs).replace("'", "")


def _params(layer):
    if not layer.built:
        return "0 (unbuilt)"
    return f"{layer.count_params():,}"


def _count(weights):
    return int(sum(math.prod(int(d) for d in w.shape) for w in weights))


def _memory(weights):
    """Keras' `readable_memory_size` of the weights' bytes."""
    size = 0.0
    for w in {id(w): w for w in weights}.values():
        dtype = str(w.dtype)
        bits = int("".join(c for c in dtype if c.isdigit()) or 8) if dtype != "bool" else 8
        size += math.prod(int(d) for d in w.shape) * bits
    size /= 8
    for unit in ["B", "KB", "MB", "GB", "TB"]:
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def _connections(layer, nodes):
    """'dense[0][0], other[0][0]': the layers (their call and output) feeding this one."""
    found = []
    for node in getattr(layer, "_inbound_nodes", []):
        if node not in nodes:
            continue
        for t in node.parents():
            source = t.node.layer
            node_index = source._inbound_nodes.index(t.node) if not t.node.is_input else 0
            tensor_index = [id(o) for o in nest.flatten(t.node.outputs)].index(id(t))
            found.append(f"{source.name}[{node_index}][{tensor_index}]")
    return ", ".join(found) or "-"


def _is_chain(model):
    """Keras prints a graph with branches or merges with a "Connected to" column."""
    nodes = getattr(model, "_nodes", None)
    if nodes is None:
        return True
    depth = {}
    for node in reversed(nodes):  # (called last = nearest the outputs)
        depth.setdefault(node.order, 0)
        for t in node.parents():
            depth[t.node.order] = max(depth.get(t.node.order, 0), depth[node.order] + 1)
    per_depth = {}
    for d in depth.values():
        per_depth[d] = per_depth.get(d, 0) + 1
    if any(n > 1 for n in per_depth.values()) or any(len(n.parents()) > 1 for n in nodes):
        return False
    return all(sum(n.layer is layer for n in nodes) <= 1 for layer in model.layers)


def print_summary(model, line_length=None, positions=None, print_fn=None):
    chain = _is_chain(model)
    if chain:
        default, positions = 88, positions or [0.45, 0.80, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
        aligns = ["left", "left", "right"]
    else:
        default, positions = 108, positions or [0.3, 0.56, 0.74, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        aligns = ["left", "left", "right", "left"]
    line_length = line_length or min(default, shutil.get_terminal_size().columns - 4)
    widths = _column_widths(positions, line_length)
    nodes = getattr(model, "_nodes", [])
    rows = []
    for layer in model.layers:
        row = [f"{layer.name} ({type(layer).__name__})", _output_shape(layer), _params(layer)]
        if not chain:
            row.append(_connections(layer, nodes))
        rows.append(row)
    trainable, frozen = model.trainable_weights, model.non_trainable_weights
    console = shutil.get_terminal_size().columns  # (rich crops what is wider)
    lines = [f'Model: "{model.name}"'] + [
        line[:console] for line in _table(header, rows, widths, aligns)
    ]
    totals = [("Total params", trainable + frozen), ("Trainable params", trainable)]
    totals.append(("Non-trainable params", frozen))
    optimizer = getattr(model, "optimizer", None) if getattr(model, "compiled", False) else None
    if optimizer is not None and getattr(optimizer, "built", False):
        totals[0] = ("Total params", trainable + frozen + list(optimizer.variables))
        totals.append(("Optimizer params", list(optimizer.variables)))
    for label, weights in totals:
        lines.append(f" {label}: {_count(weights):,} ({_memory(weights)})")
    text = "\n".join(lines) + "\n"
    if print_fn is None:
        print(text, end="")
    else:
        print_fn(text)
