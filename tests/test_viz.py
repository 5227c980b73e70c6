import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import minitape as tf  # noqa: E402
from minitape import viz  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def first_tape():
    x, w, b = tf.Variable(3.0, name="x"), tf.Variable(2.0, name="w"), tf.Variable(1.0, name="b")
    with tf.GradientTape() as tape:
        y = w * x + b
        loss = (y - 5) ** 2
    return tape, (x, w, b, y, loss)


def by_label(graph):
    return {n.short: k for k, n in graph.nodes.items()}


# --- the graph ----------------------------------------------------------------------------
def test_graph_of_the_first_tape():
    tape, (x, w, b, y, loss) = first_tape()
    g = viz.tape_graph(tape, names={"y": y, "loss": loss})
    assert g.ops() == ["Mul", "AddV2", "Sub", "Pow"]
    assert sorted(g.sources()) == ["b", "w", "x"]
    kinds = sorted(n.kind for n in g.nodes.values())
    assert kinds == ["constant"] * 2 + ["op"] * 4 + ["variable"] * 3
    k = by_label(g)
    consts = {float(n.value): key for key, n in g.nodes.items() if n.kind == "constant"}
    assert set(consts) == {5.0, 2.0}
    assert sorted(g.edges) == sorted(
        [
            (k["w"], k["Mul#0"]),
            (k["x"], k["Mul#0"]),
            (k["Mul#0"], k["y"]),
            (k["b"], k["y"]),
            (k["y"], k["Sub#2"]),
            (consts[5.0], k["Sub#2"]),
            (k["Sub#2"], k["loss"]),
            (consts[2.0], k["loss"]),
        ]
    )
    assert g.nodes[k["loss"]].label.splitlines() == ["loss = Pow", "shape=()", "value 4"]
    assert g.nodes[k["w"]].label.splitlines()[0] == "w (Variable)"
    # sources are left of the ops that use them, and every op is right of its inputs
    for a, c in g.edges:
        assert g.pos[a][0] < g.pos[c][0]


def test_graph_shapes_watched_tensors_and_reuse():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    kernel = tf.Variable(np.ones((2, 4), np.float32), name="kernel")
    frozen = tf.Variable(2.0, trainable=False, name="frozen")
    unused = tf.Variable(7.0, name="unused")
    with tf.GradientTape() as tape:
        tape.watch(x)
        unused.numpy()  # not read through an op: never watched
        _ = unused + 0.0  # read: watched, but nothing uses the result
        h = tf.matmul(x, kernel)
        z = h * h * frozen
        out = tf.reduce_sum(z)
    g = viz.tape_graph(tape, names={"x": x, "out": out})
    assert g.ops() == ["AddV2", "MatMul", "Mul", "Mul", "Sum"]
    k = by_label(g)
    assert g.nodes[k["x"]].kind == "watched"
    assert g.nodes[k["kernel"]].kind == "variable"
    assert g.nodes[k["unused"]].kind == "variable"
    assert g.nodes[k["MatMul#1"]].label.splitlines() == ["MatMul", "shape=(3, 4)"]
    # h * h: two edges from the same node; the non-trainable variable is a constant
    assert g.edges.count((k["MatMul#1"], k["Mul#2"])) == 2
    frozen_keys = [
        key
        for key, n in g.nodes.items()
        if n.kind == "constant" and n.shape == "()" and float(n.value) == 2.0
    ]
    assert len(frozen_keys) == 1 and (frozen_keys[0], k["Mul#3"]) in g.edges
    assert (k["Mul#3"], k["out"]) in g.edges


def test_released_tape_cannot_be_drawn():
    tape, (x, w, b, y, loss) = first_tape()
    tape.gradient(loss, [w, b])
    with pytest.raises(RuntimeError, match="no recording"):
        viz.tape_graph(tape)


# --- the backward walk --------------------------------------------------------------------
def test_walk_of_the_first_tape():
    tape, (x, w, b, y, loss) = first_tape()
    walk = viz.backward_steps(tape, loss, [w, b], names={"y": y, "loss": loss})
    assert [s.op for s in walk] == ["seed", "Pow", "Sub", "AddV2", "Mul"]
    k = by_label(walk.graph)
    last = walk[-1]
    assert [(key, float(v)) for key, v, _ in last.sent] == [(k["w"], 12.0), (k["x"], 8.0)]
    assert float(walk[3].grads[k["b"]]) == 4.0 and k["w"] not in walk[3].grads
    assert [float(v) for v in walk.gradients] == [12.0, 4.0]
    assert walk.describe(4) == "step 4: Mul (Mul#0) gets gradient 4, sends 12 to w, 8 to x"
    table = walk.table()
    assert "loss (Pow)" in table and table.count("\n") == 7  # header + 7 rows
    # the one-shot tape was only read: it still answers its one call, and only one
    dw, db = tape.gradient(loss, [w, b])
    assert (float(dw), float(db)) == (12.0, 4.0)
    with pytest.raises(RuntimeError):
        tape.gradient(loss, [w, b])
    with pytest.raises(RuntimeError):
        viz.backward_steps(tape, loss, [w, b])


def check_against_tape(make):
    """`make()` returns (tape, target, sources) for a persistent tape."""
    tape, target, sources = make()
    walk = viz.backward_steps(tape, target, sources)
    expected = tape.gradient(target, sources)
    assert len(walk.gradients) == len(expected)
    for got, want in zip(walk.gradients, expected):
        if want is None:
            assert got is None
        else:
            np.testing.assert_allclose(got, want.numpy(), rtol=1e-6)
    # the last snapshot holds the same totals
    for s, want in zip(sources, expected):
        if want is not None:
            np.testing.assert_allclose(walk[-1].grads[s._id], want.numpy(), rtol=1e-6)
    return walk


def test_walk_matches_gradient_with_reuse_broadcasting_and_unconnected():
    def make():
        tf.random.set_seed(1)
        x = tf.random.normal((5, 3))
        kernel = tf.Variable(tf.random.normal((3, 2)), name="kernel")
        bias = tf.Variable([0.1, -0.2], name="bias")
        spare = tf.Variable(1.0, name="spare")
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            h = tf.tanh(tf.matmul(x, kernel) + bias)  # bias broadcast over 5 rows
            loss = tf.reduce_mean(h * h) + tf.reduce_sum(h[:, 0]) * tf.reduce_max(x)
        return tape, loss, [kernel, bias, x, spare]

    walk = check_against_tape(make)
    assert walk.gradients[3] is None


def test_walk_matches_gradient_for_a_variable_used_twice_and_integer_source():
    def make():
        v = tf.Variable(1.5)
        n = tf.constant(3)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(n)
            y = v * v + tf.sin(v) * tf.cast(n, tf.float32)
        return tape, y, [v, n]

    walk = check_against_tape(make)
    assert walk.gradients[1] is None


def test_walk_is_not_recorded_on_an_active_outer_tape():
    x = tf.Variable(2.0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = x**3
        n_outer, n_inner = len(outer._entries), len(inner._entries)
        walk = viz.backward_steps(inner, y, x)
        assert (len(outer._entries), len(inner._entries)) == (n_outer, n_inner)
        dy = inner.gradient(y, x)  # this one is recorded by `outer`
    assert float(walk.gradients[0]) == float(dy) == 12.0
    assert float(outer.gradient(dy, x)) == 12.0


# --- drawing ------------------------------------------------------------------------------
def test_drawings_return_figures():
    tape, (x, w, b, y, loss) = first_tape()
    fig = viz.draw_tape(tape, names={"y": y, "loss": loss})
    assert isinstance(fig, matplotlib.figure.Figure)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "loss = Pow\nshape=()\nvalue 4" in texts and "w (Variable)\nshape=()\nvalue 2" in texts
    walk = viz.backward_steps(tape, loss, [w, b], names={"loss": loss})
    for k in range(len(walk)):
        fig = viz.draw_backward(walk, k)
        assert isinstance(fig, matplotlib.figure.Figure)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "grad 12" in texts and "grad 8" in texts and fig.axes[0].get_title().startswith("step 4")
    fig.canvas.draw()  # really render it


def test_draw_on_given_axes_and_step_through_widget():
    tape, (x, w, b, y, loss) = first_tape()
    fig, (a1, a2) = plt.subplots(1, 2)
    walk = viz.backward_steps(tape, loss, [w, b])
    assert viz.draw_tape(walk.graph, ax=a1) is fig
    assert viz.draw_backward(walk, 1, ax=a2) is fig
    box = viz.step_through(walk)
    slider = box.children[0]
    assert (slider.min, slider.max) == (0, 4)


def test_an_arrow_that_would_cross_a_box_goes_around_it():
    s = tf.Variable(3.0, name="s")
    with tf.GradientTape() as tape:
        y = s * s + s  # s -> AddV2 would run straight through the Mul box
    g = viz.tape_graph(tape, names={"y": y})
    k = by_label(g)
    assert g.ops() == ["Mul", "AddV2"]
    bends = dict(zip(g.edges, g.rads))
    assert bends[(k["s"], k["y"])] != 0.0 and bends[(k["Mul#0"], k["y"])] == 0.0
    assert sorted(g.rads[:2]) == [-0.125, 0.125]  # s * s: two arrows, bent apart


def test_empty_recording_draws_a_note():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        x * 2.0  # nothing watched: nothing recorded
    fig = viz.draw_tape(tape)
    assert "(the tape recorded nothing)" in [t.get_text() for t in fig.axes[0].texts]


def test_backward_steps_show_a_gathers_slices_as_their_dense_value():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.reduce_sum(tf.gather(v, [1, 1]) * 2.0)
    walk = viz.backward_steps(tape, y, [v])
    assert walk.gradients[0].tolist() == [[0, 0], [4, 4]]
    assert walk.steps[-1].grads[v._id].tolist() == [[0, 0], [4, 4]]
