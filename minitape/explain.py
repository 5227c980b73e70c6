"""Why is my gradient None? Ask the tape: it holds the whole recording.

    from minitape import explain

    with tf.GradientTape() as tape:
        loss = ...
    print(explain.gradient(tape, loss, [w, b]))   # one plain sentence per source
    explain.draw(explain.gradient(tape, loss, w))  # the same, on the tape's graph
    grads = tape.gradient(loss, [w, b])           # the tape is still usable

A minitape tool, not part of TensorFlow (there, `tf.*` has nothing like it). For every source it
says whether `tape.gradient(target, sources)` gives a gradient, and if not (None, or zeros with
`unconnected_gradients="zero"`) where the path from the target back to the source breaks, with
the recorded op where it does:

- the source was never watched: a constant, a variable made with `trainable=False`, a tape made
  with `watch_accessed_variables=False`, or a variable never read while the tape recorded;
- the target is numpy or a Python number, or the path went through numpy / `.numpy()` /
  `float()` and came back as a fresh constant;
- an integer (or other non-float) dtype, at the source or on the way (`tf.cast(x, tf.int32)`);
- the target was computed outside the tape's block, or inside `stop_recording()`;
- `tf.stop_gradient`, or an op with no gradient (`tf.round`, `tf.sign`);
- the variable was replaced by a tensor (`v = v + 1`), or the value reached the target only
  through `assign`;
- another tape watched the source or recorded the target (nested tapes mixed up);
- the target truly does not depend on the source.

Call it before `tape.gradient` on a one-shot tape: the gradient call releases the recording,
and with it what there is to explain. It only reads the tape and changes nothing, so the tape
still answers its gradient call afterwards.

What it reads: the recording (`tape._entries`, `_watched`, `_variables`, `_reads`), and two
notes the tape keeps for it and for nothing else (`tape.py`): `tape._cuts`, where a watched
tensor left the recording (an op that cannot be recorded: a non-float output or
`StopGradient`; a `.numpy()`/`float()`/numpy call; an `assign`), and `tape._events`, the id
counter each time the tape started or stopped recording. Ids grow with every tensor made, so
comparing a tensor's id with them says whether the tape was recording when it was made. The
notes cost nothing on the recorded path; only where a path is cut is one appended.
"""

import gc
import sys
import textwrap

import numpy as np

from . import nest
from .context import STATE
from .tape import GradientTape, UnconnectedGradients, _backward, _unconnected
from .tape_args import target_tensor
from .tensor import Tensor, Variable, as_seen_by_tapes

__all__ = ["CAUSES", "Diagnosis", "Explanation", "gradient", "draw"]

# Every cause a diagnosis can name, with the short label drawn on the broken link.
CAUSES = {
    "connected": "connected",
    "not_watched": "not watched",
    "frozen": "trainable=False",
    "watch_accessed_off": "watch_accessed_variables=False",
    "not_float": "not a float",
    "target_not_a_tensor": "numpy target",
    "numpy": "left TF",
    "outside_block": "outside the block",
    "stop_recording": "stop_recording",
    "stop_gradient": "stop_gradient",
    "assign": "assign",
    "other_tape": "another tape",
    "no_gradient": "no gradient",
    "unconnected": "no path",
}


class Diagnosis:
    """What the explainer found for one source.

    `source`: its name; `cause`: one of `CAUSES` ("connected" when the gradient exists);
    `message`: one plain sentence; `entry`: the index in `tape._entries` of the recorded op
    where the path breaks (the last one the source's path reached), or None when the path
    breaks before any op was recorded; `op`: that op's name ("Mul#0", or None); `is_none`:
    whether `tape.gradient` gives None for this source (zeros with
    `unconnected_gradients="zero"`).
    """

    def __init__(self, source, cause, message, entry=None, op=None, is_none=True, **keys):
        self.source, self.cause, self.message = source, cause, message
        self.entry, self.op, self.is_none = entry, op, is_none
        self._keys = keys  # what `draw` needs: source/break/target tensor ids, path entries

    def __str__(self):
        return f"{self.source}: {self.message}"

    def __repr__(self):
        return f"<Diagnosis {self.source}: {self.cause}, op={self.op}>"


class Explanation:
    """The diagnoses of one `tape.gradient(target, sources)` call, in the order of the
    sources: `explanation[k]`, `len(...)`, iteration; `str()` gives one line per source."""

    def __init__(self, diagnoses, snapshot, names, target_label):
        self.diagnoses = diagnoses
        self._snapshot, self._names, self._target_label = snapshot, names, target_label

    def __getitem__(self, k):
        if isinstance(k, str):
            for d in self.diagnoses:
                if d.source == k:
                    return d
            raise KeyError(k)
        return self.diagnoses[k]

    def __len__(self):
        return len(self.diagnoses)

    def __iter__(self):
        return iter(self.diagnoses)

    def __str__(self):
        return "\n".join(str(d) for d in self.diagnoses)

    def __repr__(self):
        return f"<Explanation: {[d.cause for d in self.diagnoses]}>"


# --- naming -------------------------------------------------------------------------------
def _caller_names(frame):
    """Name -> object for the variables of the caller (locals first, then globals)."""
    found = {}
    if frame is None:
        return found
    for scope in (frame.f_locals, frame.f_globals):
        for name, obj in scope.items():
            if not name.startswith("_") and isinstance(obj, (Tensor, Variable, np.generic)):
                found.setdefault(id(obj), name)
    return found


def _namer(names, frame):
    given = {id(t): name for name, t in (names or {}).items()}
    by_id = {t._id: name for name, t in (names or {}).items() if isinstance(t, (Tensor, Variable))}
    in_caller = _caller_names(frame)

    def name_of(obj, fallback):
        if id(obj) in given:
            return given[id(obj)]
        if id(obj) in in_caller:
            return in_caller[id(obj)]
        if isinstance(obj, Variable):
            return obj.name.split(":")[0]
        return fallback

    return name_of, by_id


# --- the recording, read as a graph -------------------------------------------------------
class _Snapshot:
    """The recording as `viz.tape_graph` reads it (entries, watched ids, variables, reads)."""

    def __init__(self, tape):
        self._entries = list(tape._entries)
        self._watched = set(tape._watched)
        self._variables = dict(tape._variables)
        self._reads = dict(tape._reads)


def _reach(snapshot, key):
    """The ids the source `key` leads to along recorded ops, and those ops' indices."""
    reads = snapshot._reads
    ids = {key} | {r for r, v in reads.items() if v == key}
    used = []
    for i, (_op, inputs, out, _attrs) in enumerate(snapshot._entries):
        if any(x._id in ids for x in inputs):
            ids.add(out._id)
            used.append(i)
    return ids, used


def _ancestry(snapshot, target_ids):
    """The ids the targets were computed from along recorded ops (a variable's reads count as
    the variable), and those ops' indices."""
    reads = snapshot._reads
    ids = set(target_ids)
    used = []
    for i in range(len(snapshot._entries) - 1, -1, -1):
        _op, inputs, out, _attrs = snapshot._entries[i]
        if out._id in ids:
            used.append(i)
            for x in inputs:
                ids.add(x._id)
                if x._id in reads:
                    ids.add(reads[x._id])
    return ids, sorted(used)


def _dead_ends(snapshot, key, used, target_ids):
    """Where the source's recorded path stops: the source itself when no recorded op uses it,
    and each recorded result on its path that no later recorded op uses. Returns
    [(tensor id, entry index or None)], oldest first."""
    consumed = {x._id for _op, inputs, _out, _attrs in snapshot._entries for x in inputs}
    reads = snapshot._reads
    consumed |= {reads[r] for r in consumed if r in reads}
    ends = [] if key in consumed else [(key, None)]
    for i in used:
        out = snapshot._entries[i][2]
        if out._id not in consumed and out._id not in target_ids:
            ends.append((out._id, i))
    return ends


def _other_tapes(tape, key):
    """Other tapes, still alive, that watch (or watched, before releasing) the tensor `key`.
    They are found among the live objects: slow, but only done when asked."""
    found = []
    for obj in gc.get_objects():
        if type(obj) is GradientTape and obj is not tape:
            watched = obj._watched if obj._watched is not None else obj._released_watched
            if key in watched:
                found.append(obj)
    return found


def _recording_at(tape, key):
    """Whether `tape` was recording when the tensor with id `key` was made, and if not, why:
    returns None (recording), "before", "pause" or "exit" (the block had ended, or a one-shot
    tape had stopped at its gradient call)."""
    state = "before"
    for at, why in tape._events:
        if at > key:
            break
        state = why
    return {"enter": None, "resume": None, "before": "before", "pause": "pause"}.get(state, "exit")


# --- the explainer ------------------------------------------------------------------------
def gradient(tape, target, sources, unconnected_gradients="none", names=None):
    """Explain `tape.gradient(target, sources)`: an `Explanation` with one `Diagnosis` per
    source (flattened, as `tape.gradient` flattens them). `names` maps labels to tensors, e.g.
    `{"loss": loss}`, as in `minitape.viz`; otherwise the caller's variable names are used
    (a variable's own name after that). The tape is only read: it can still answer
    `gradient()` afterwards.

    Raises TypeError when `tape` is not a GradientTape or a source is not a tensor or a
    variable, RuntimeError when the tape holds no recording (not entered yet, or released
    by its one `gradient()` call: explain before that call), ValueError for an unknown
    `unconnected_gradients`."""
    if not isinstance(tape, GradientTape):
        raise TypeError(f"explain.gradient needs a tf.GradientTape, got {type(tape).__name__}")
    if tape._entries is None:
        raise RuntimeError(
            "This tape holds no recording: it was never entered, or a one-shot tape has "
            "released it in its gradient() call. Call explain.gradient before tape.gradient "
            "(or make the tape persistent=True)."
        )
    if target is None:
        raise TypeError("explain.gradient needs a target, got None")
    unconnected = _unconnected(unconnected_gradients)
    # (a Keras 3 variable is explained as the tf.Variable it holds, as the tape sees it)
    flat_sources = [as_seen_by_tapes(s) for s in nest.flatten(sources)]
    for s in flat_sources:
        if not isinstance(s, (Tensor, Variable)):
            raise TypeError(
                f"Each source must be a tf.Tensor or tf.Variable, got {s!r} of type "
                f"{type(s).__name__}"
            )
    name_of, names_by_id = _namer(names, sys._getframe(1))
    flat_targets = nest.flatten(target)
    tensors = [target_tensor(t) for t in flat_targets if isinstance(t, (Tensor, Variable))]
    strangers = [t for t in flat_targets if not isinstance(t, (Tensor, Variable))]
    target_label = (
        name_of(flat_targets[0], "the target") if len(flat_targets) == 1 else "the target"
    )
    snapshot = _Snapshot(tape)
    grads = _gradients(snapshot, tensors, flat_sources) if not strangers else {}
    word = "zero" if unconnected is UnconnectedGradients.ZERO else "None"
    context = _Context(tape, snapshot, tensors, strangers, target_label, names_by_id, word)
    diagnoses = []
    for k, s in enumerate(flat_sources):
        label = name_of(s, f"source {k}" if len(flat_sources) > 1 else "the source")
        diagnoses.append(context.diagnose(s, label, grads.get(s._id)))
    names = dict(names or {})
    if tensors and len(flat_targets) == 1:
        names.setdefault(target_label, tensors[0])
    return Explanation(diagnoses, snapshot, names, target_label)


def _gradients(snapshot, targets, sources):
    """The tape's own backward walk, run on the snapshot, recording on no tape."""
    if not targets:
        return {}
    saved_tapes, saved_tracer = list(STATE.tapes), STATE.tracer
    STATE.tapes.clear()
    STATE.tracer = None
    try:
        seeds = [Tensor(np.ones_like(t._value)) for t in targets]
        keep = {s._id for s in sources}
        return _backward(
            snapshot._entries, snapshot._watched, targets, seeds, keep, snapshot._reads
        )
    finally:
        STATE.tapes[:] = saved_tapes
        STATE.tracer = saved_tracer


class _Context:
    """What every source's diagnosis shares: the tape, its snapshot, the targets."""

    def __init__(self, tape, snapshot, targets, strangers, target_label, names_by_id, word):
        self.tape, self.snapshot, self.targets, self.strangers = tape, snapshot, targets, strangers
        self.target, self.names_by_id, self.word = target_label, names_by_id, word
        self.target_ids = {t._id for t in targets}
        self.ancestry_ids, self.ancestry = _ancestry(snapshot, self.target_ids)

    def op_label(self, entry):
        """'Mul#0', or 'Mul#0 (y)' when the caller named its result."""
        if entry is None:
            return None
        op, _inputs, out, _attrs = self.snapshot._entries[entry]
        name = self.names_by_id.get(out._id)
        return f"{op.name}#{entry}" + (f" ({name})" if name else "")

    def diagnose(self, source, label, grad):
        tape, snap, key = self.tape, self.snapshot, source._id
        reach_ids, used = _reach(snap, key) if key in snap._watched else ({key}, [])
        keys = dict(src=key, targets=self.target_ids, path=[], brk=None, reach=reach_ids)
        d_of = f"d({self.target})/d({label})"

        def found(cause, message, brk=None, entry=None):
            keys.update(brk=brk, path=_path_to(snap, reach_ids, used, brk))
            return Diagnosis(label, cause, message, entry, self.op_label(entry), **keys)

        if grad is not None:
            path = [i for i in used if i in set(self.ancestry)]
            keys.update(path=path)
            ops = f"{len(path)} recorded op{'s' if len(path) != 1 else ''}"
            return Diagnosis(
                label,
                "connected",
                f"{d_of} is not None: the tape has a path from {label} to {self.target} ({ops}).",
                is_none=False,
                **keys,
            )
        head = f"{d_of} is {self.word}:"
        if self.word == "None":
            fine = 'if that is right, unconnected_gradients="zero" gives 0 instead of None.'
        else:
            fine = "if that is right, zero is the answer."
        ends = _dead_ends(snap, key, used, self.target_ids)
        last_entry = ends[-1][1] if ends else None
        if self.strangers:
            kind = type(self.strangers[0])
            kind = kind.__name__ if kind.__module__ == "builtins" else f"numpy.{kind.__name__}"
            exit_ = self._python_exit(ends)
            where = (
                f"; the path from {label} left TensorFlow at {self._at(exit_, label)}"
                if exit_ is not None
                else ""
            )
            return found(
                "target_not_a_tensor",
                f"{d_of} cannot be taken: {self.target} is a {kind}, not a tensor, computed "
                f"outside TensorFlow (numpy, .numpy() or float()){where}, and no tape can "
                "follow it there; use tf. functions instead.",
                *(exit_ or (None, None)),
            )
        value = source._read_value()
        if value.dtype.kind not in "fc":
            return found(
                "not_float",
                f"{head} {label} is {value.dtype.name}, and only floating tensors carry "
                f"gradients (the tape refused to watch it); make it a float (3.0, or "
                f"dtype=tf.float32).",
            )
        if key not in snap._watched:
            return self._not_watched(source, label, head, fine, found)
        # Watched: follow the recording to where the path stops.
        cut = self._cut(ends)
        on_tape = bool(self.target_ids & snap._watched)
        if not on_tape:
            if any(_other_tapes(tape, t._id) for t in self.targets):
                return found(
                    "other_tape",
                    f"{head} {self.target} was recorded on another tape, not on this one "
                    f"(nested or successive tapes mixed up?): ask the tape that recorded it, "
                    f"or compute {self.target} inside this tape's block.",
                    *self._brk(ends),
                )
            when = {_recording_at(tape, t._id) for t in self.targets} - {None}
            if "pause" in when:
                return found(
                    "stop_recording",
                    f"{head} {self.target} was computed inside tape.stop_recording(), so the "
                    f"tape did not record it{self._after(ends, label)}; compute it outside "
                    "stop_recording().",
                    *self._brk(ends),
                )
            if when:
                side = (
                    "before the tape's block began"
                    if when == {"before"}
                    else "after the tape had stopped recording (its with block had ended)"
                )
                return found(
                    "outside_block",
                    f"{head} {self.target} was computed {side}{self._after(ends, label)}; "
                    "compute it inside the block.",
                    *self._brk(ends),
                )
        blocked = self._no_rule(reach_ids, used)
        if blocked is not None:
            op_name = self.snapshot._entries[blocked][0].name
            return found(
                "no_gradient",
                f"{head} the recorded path from {label} goes through {self.op_label(blocked)}, "
                f"which has no gradient (TF defines none for {op_name}); "
                "use a differentiable op there, or a straight-through estimator.",
                self.snapshot._entries[blocked][2]._id,
                blocked,
            )
        if cut is not None:
            return self._cut_found(cut, label, head, found)
        paused = self._paused_after(ends)
        if paused is not None:
            return found(
                "stop_recording",
                f"{head} the path from {label} stops at {self._at(paused, label)}: what used "
                "it next ran inside tape.stop_recording(), which the tape did not record; "
                "compute it outside stop_recording().",
                *paused,
            )
        if last_entry is None:
            hint = (
                " (if it was used before tape.watch, watch it earlier)"
                if isinstance(source, Tensor)
                else ""
            )
            message = (
                f"{head} {self.target} does not depend on {label}: the tape recorded no "
                f"operation that uses it{hint}; {fine}"
            )
            return found("unconnected", message, key, None)
        return found(
            "unconnected",
            f"{head} {self.target} does not depend on {label}: its recorded path stops at "
            f"{self.op_label(last_entry)}, whose result nothing recorded uses; {fine}",
            *self._brk(ends),
        )

    # -- the kinds of break ----------------------------------------------------------------
    def _not_watched(self, source, label, head, fine, found):
        """The source is not watched by this tape."""
        tape = self.tape
        if _other_tapes(tape, source._id):
            return found(
                "other_tape",
                f"{head} {label} is watched by another tape, not by this one (nested tapes "
                f"mixed up?): each tape watches for itself, so call this tape's "
                f"watch({label}) too, or ask the other tape.",
            )
        if isinstance(source, Variable):
            if tape._watch_accessed and not source.trainable:
                return found(
                    "frozen",
                    f"{head} {label} was made with trainable=False, so the tape did not "
                    f"watch it; call tape.watch({label}) (or make it trainable).",
                )
            if not tape._watch_accessed:
                return found(
                    "watch_accessed_off",
                    f"{head} the tape was made with watch_accessed_variables=False and "
                    f"{label} was not passed to tape.watch; call tape.watch({label}).",
                )
            if self.target_ids & self.snapshot._watched:  # the target itself is recorded
                return found(
                    "unconnected",
                    f"{head} {self.target} does not depend on {label}: the tape never saw "
                    f"{label} read while it recorded (if it should, read it inside the "
                    f"block); {fine}",
                )
            return found(
                "outside_block",
                f"{head} {label} was never read while the tape was recording: what uses it "
                "ran outside the tape's with block (or inside stop_recording()); compute "
                "it inside the block.",
            )
        return found(
            "not_watched",
            f"{head} {label} is a tf.Tensor the tape never watched (a tensor is watched "
            f"only through tape.watch({label}), before it is used; if {label} was a "
            f"tf.Variable, `{label} = {label} + ...` replaced it with a tensor: use "
            "assign_add instead).",
        )

    def _cut_found(self, cut, label, head, found):
        kind, what, at_key, detail = cut
        entry = self._entry_of(at_key)
        at = self._at((at_key, entry), label)
        if kind == "python":
            return found(
                "numpy",
                f"{head} the path from {label} left TensorFlow at {at} (a numpy function, "
                ".numpy() or float() took its value), so what came back is a new constant; "
                "use tf. functions instead.",
                at_key,
                entry,
            )
        if kind == "assign":
            return found(
                "assign",
                f"{head} the path from {label} ends at {at}, which was stored in the "
                f"variable {what.split(':')[0]} by assign: assign keeps the value, not how "
                "it was computed; keep it as a tensor (h = ...) instead.",
                at_key,
                entry,
            )
        if what == "StopGradient":
            return found(
                "stop_gradient",
                f"{head} tf.stop_gradient was applied to {at}, and it sends no gradient "
                "back (on purpose); remove it if the gradient should flow.",
                at_key,
                entry,
            )
        return found(
            "not_float",
            f"{head} the path from {label} is cut where {what} turns {at} into {detail}: "
            "only floating tensors carry gradients; keep it a float.",
            at_key,
            entry,
        )

    # -- helpers ---------------------------------------------------------------------------
    def _entry_of(self, key):
        for i, (_op, _inputs, out, _attrs) in enumerate(self.snapshot._entries):
            if out._id == key:
                return i
        return None

    def _at(self, brk, label):
        """How a sentence names a break point: 'the result of Mul#0 (y)', or the source."""
        key, entry = brk
        return f"the result of {self.op_label(entry)}" if entry is not None else label

    def _brk(self, ends):
        """The break to report among the dead ends: the newest."""
        return ends[-1] if ends else (None, None)

    def _after(self, ends, label):
        key, entry = self._brk(ends)
        if entry is None:
            return ""
        return f"; the recorded path from {label} stops at {self.op_label(entry)}"

    def _cut(self, ends):
        """The newest note of a cut at one of the dead ends, or None."""
        keys = {k for k, _ in ends}
        keys |= {r for r, v in self.snapshot._reads.items() if v in keys}  # (a variable's reads)
        cuts = [c for c in self.tape._cuts if c[2] in keys]
        return cuts[-1] if cuts else None

    def _python_exit(self, ends):
        keys = {k for k, _ in ends}
        for kind, _what, key, _detail in reversed(self.tape._cuts):
            if kind == "python" and key in keys:
                return key, self._entry_of(key)
        return None

    def _no_rule(self, reach_ids, used):
        """The newest recorded op on a path from the source to the target that has no
        gradient rule for the input the path comes through (Round, Sign, ...), or None."""
        on_path = set(self.ancestry)
        for i in reversed(used):
            if i not in on_path:
                continue
            op, inputs, _out, _attrs = self.snapshot._entries[i]
            if type(op.vjps) is tuple:
                for x, rule in zip(inputs, op.vjps):
                    if rule is None and x._id in reach_ids:
                        return i
        return None

    def _paused_after(self, ends):
        """The newest dead end made while recording and followed by a stop_recording()."""
        pauses = [at for at, why in self.tape._events if why == "pause"]
        for key, entry in reversed(ends):
            if any(at > key for at in pauses):
                return key, entry
        return None


def _path_to(snapshot, reach_ids, used, brk):
    """The recorded ops on the source's path that lead to the break `brk` (a tensor id)."""
    if brk is None:
        return []
    ids = {brk}
    path = []
    for i in reversed(used):
        _op, inputs, out, _attrs = snapshot._entries[i]
        if out._id in ids:
            path.append(i)
            ids.update(x._id for x in inputs if x._id in reach_ids)
    return sorted(path)


# --- the picture --------------------------------------------------------------------------
def draw(explanation, source=0, ax=None):
    """Draw one diagnosis on the tape's graph (`minitape.viz`): the recorded path from the
    source (green when it reaches the target), the target's own recorded ancestry, the op
    where the path breaks (red), and the missing link from there to the target (a red dashed
    arrow, labelled with the cause). `source` is an index or a source's name. Returns the
    matplotlib Figure."""
    from . import viz

    d = explanation[source]
    snapshot, names = explanation._snapshot, dict(explanation._names)
    keys = d._keys
    graph = viz.tape_graph(snapshot, names)
    nodes, edges = dict(graph.nodes), list(graph.edges)
    src, brk = keys["src"], keys["brk"]
    if src not in nodes:  # a source no recorded op used: drawn on its own
        kind = "variable" if src in snapshot._variables else "watched"
        kind = kind if src in snapshot._watched else "constant"
        nodes[src] = viz.Node(src, kind, f"{d.source}\n(source)", "", None, name=d.source)
    target_keys = [k for k in keys["targets"] if k in nodes]
    if target_keys:
        target = target_keys[0]
    else:  # the target is not on this tape: a box of its own
        target = "target"
        label = f"{explanation._target_label}\n(not recorded)"
        nodes[target] = viz.Node(target, "op", label, "", None, op="?", name="target")
    missing = None
    if d.is_none:
        start = brk if brk in nodes else src
        missing = (start, target)
        order = list(nodes)  # the layout places a node right of its inputs, in this order:
        if order.index(start) < order.index(target):  # an arrow that goes back is drawn only
            edges.append(missing)
    layout = viz.TapeGraph(nodes, edges)
    fig, ax, scale = _axes_with_caption(viz, layout, ax, str(d))
    source_path = _edges_on(snapshot, keys["path"], keys["reach"])
    target_path = set()
    if d.is_none:
        target_path = _edges_on(snapshot, _ancestry(snapshot, keys["targets"])[1])
    for (a, b), rad in zip(layout.edges, layout.rads):
        if (a, b) == missing:
            continue
        if (a, b) in source_path:  # the source's path: green to the target, blue to the break
            color, lw = ("#2e7d32", 2.2) if not d.is_none else ("#1565c0", 2.2)
        elif (a, b) in target_path:  # what the target was recorded from
            color, lw = "#555555", 1.8
        else:
            color, lw = "#cccccc", 1.0
        viz._arrow(ax, layout, a, b, color=color, lw=lw, rad=rad)
    if missing is not None:
        start, end = viz._ends(layout.pos[missing[0]], layout.pos[target], layout.box_width, 0)
        ax.annotate(
            "",
            xy=end,
            xytext=start,
            arrowprops=dict(arrowstyle="-|>", color="#c62828", lw=2.0, ls="--", shrinkA=1),
        )
        ax.text(
            (start[0] + end[0]) / 2,
            (start[1] + end[1]) / 2,
            f"✗ {CAUSES[d.cause]}",
            color="#c62828",
            fontsize=9 * scale,
            ha="center",
            va="center",
            family="monospace",
            bbox=dict(facecolor="white", edgecolor="#c62828", pad=1.5),
        )
    for k, node in nodes.items():
        style = {}
        if k == target:
            style = dict(edge="#c62828" if d.is_none else "#2e7d32", lw=2.5, bold=True)
        if k == src:
            style = dict(edge="#1565c0", lw=2.5, bold=True)
        if d.is_none and k == brk and k != src:
            style = dict(face="#ffcdd2", edge="#c62828", lw=2.5, bold=True)
        viz._draw_node(ax, node, layout.pos[k], layout.box_width, scale=scale, **style)
    return fig


def _axes_with_caption(viz, layout, ax, caption):
    """viz's axes for the graph, with the diagnosis above it, wrapped (a new figure grows
    by the caption's height; given axes get it as their title)."""
    text = "\n".join(textwrap.wrap(caption, 80))
    if ax is not None:
        return viz._new_axes(layout, ax, text)
    fig, ax, scale = viz._new_axes(layout, None, None)
    w, h = fig.get_size_inches()
    head = 0.22 * (text.count("\n") + 1) + 0.15
    fig.set_size_inches(max(w, 7.0), h + head)
    ax.set_position((0.0, 0.0, 1.0, h / (h + head)))
    fig.text(0.5, 1 - 0.08 / (h + head), text, ha="center", va="top", fontsize=10)
    return fig, ax, scale


def _edges_on(snapshot, entries, only=None):
    """The edges (input key, output key) of the recorded ops `entries` (from the inputs in
    `only`, if given), a read of a variable drawn as the variable."""
    reads = snapshot._reads
    out = set()
    for i in entries:
        _op, inputs, o, _attrs = snapshot._entries[i]
        for x in inputs:
            if only is None or x._id in only:
                out.add((reads.get(x._id, x._id), o._id))
    return out
