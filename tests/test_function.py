"""minitape.function: trace once per signature, replay without running the Python body."""

import weakref

import numpy as np
import pytest

import minitape as tf


# --- tracing and retracing ------------------------------------------------------------------
def test_python_body_runs_only_while_tracing(capsys):
    @tf.function
    def f(x):
        print("tracing f")
        return x * x + 1

    outs = [f(tf.constant(float(i))) for i in range(3)]
    assert [float(o) for o in outs] == [1.0, 2.0, 5.0]
    assert capsys.readouterr().out == "tracing f\n"
    assert f.experimental_get_tracing_count() == 1


def test_new_shape_dtype_or_python_value_retraces():
    trace_log = []

    @tf.function
    def f(x, power):
        trace_log.append((tuple(x.shape), x.dtype.name, power))
        return x**power

    f(tf.constant([1.0, 2.0]), 2)
    f(tf.constant([3.0, 4.0]), 2)  # same signature: replay
    assert f(tf.constant([3.0, 4.0]), 3).numpy().tolist() == [27.0, 64.0]  # new Python value
    f(tf.constant([1.0, 2.0, 3.0]), 2)  # new shape
    f(tf.constant([1.0, 2.0], dtype=tf.float64), 2)  # new dtype
    f(tf.constant([5.0, 6.0]), power=2)  # keyword: the same call as before
    assert trace_log == [
        ((2,), "float32", 2),
        ((2,), "float32", 3),
        ((3,), "float32", 2),
        ((2,), "float64", 2),
    ]
    assert f.experimental_get_tracing_count() == 4


def test_numpy_arguments_are_tensors():
    @tf.function
    def f(x):
        return tf.reduce_sum(x)

    assert float(f(np.array([1.0, 2.0]))) == 3.0
    assert float(f(np.array([5.0, 2.0]))) == 7.0  # replayed with the new values
    assert f(np.array([1.0, 2.0])).dtype == tf.float64
    assert f.experimental_get_tracing_count() == 1


def test_nested_structures_and_outputs():
    @tf.function
    def f(inputs, scale=2.0):
        return {
            "sum": (inputs["a"] + inputs["b"]) * scale,
            "none": None,
            "pair": (inputs["a"], 1.0),
        }

    out = f({"a": tf.constant(1.0), "b": tf.constant(2.0)})
    out = f({"a": tf.constant(3.0), "b": tf.constant(4.0)})
    assert float(out["sum"]) == 14.0 and out["none"] is None
    assert float(out["pair"][0]) == 3.0 and isinstance(out["pair"][1], tf.Tensor)
    assert f.experimental_get_tracing_count() == 1


def test_unhashable_python_arguments_and_weakrefs_are_refused_as_in_tf():
    @tf.function
    def f(x, options):
        return x

    with pytest.raises(TypeError, match="Could not generate a generic TraceType for {1, 2}"):
        f(tf.constant(1.0), {1, 2})
    with pytest.raises(TypeError, match="Could not generate a generic TraceType for set()"):
        f(tf.constant(1.0), [set()])
    with pytest.raises(TypeError, match="weakref input <weakref at .* not supported for tf"):
        f(tf.constant(1.0), weakref.ref(f))


def test_same_tensor_twice_then_two_different_tensors():
    @tf.function
    def f(a, b):
        return a - b

    x = tf.constant(5.0)
    assert float(f(x, x)) == 0.0
    assert float(f(tf.constant(5.0), tf.constant(1.0))) == 4.0


# --- state: variables, random ops --------------------------------------------------------------
def test_variables_are_captured_by_reference():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        return v * x

    assert float(f(tf.constant(2.0))) == 2.0
    v.assign(10.0)
    assert float(f(tf.constant(2.0))) == 20.0  # the replay reads v's current value


def test_assignments_are_replayed_in_order():
    counter = tf.Variable(0)
    v = tf.Variable(1.0)

    @tf.function
    def f():
        counter.assign_add(1)
        before = v * 1.0
        v.assign(v * 2.0)
        return before, v * 1.0  # reads before and after the assignment

    for _ in range(3):
        before, after = f()
    assert int(counter) == 3 and float(v) == 8.0
    assert (float(before), float(after)) == (4.0, 8.0)
    assert f.experimental_get_tracing_count() == 1


def test_tensors_from_outside_are_constants():
    c = tf.constant(3.0)

    @tf.function
    def f(x):
        return x + c

    f(tf.constant(0.0))
    c = tf.constant(100.0)  # rebinding the Python name does not change the graph
    assert float(f(tf.constant(1.0))) == 4.0


def test_random_ops_draw_fresh_numbers_like_eager():
    def draw():
        return tf.random.normal((3,), seed=1)

    tf.random.set_seed(3)
    eager = [draw().numpy() for _ in range(3)]
    f = tf.function(draw)
    tf.random.set_seed(3)
    traced = [f().numpy() for _ in range(3)]
    assert not np.array_equal(traced[1], traced[2])
    for a, b in zip(eager, traced):  # the same seeds: the same stream, continued call by call
        assert np.array_equal(a, b)
    tf.random.set_seed(3)  # (and set_seed starts the function's stream again)
    assert np.array_equal(f().numpy(), traced[0])


def test_random_ops_without_op_seed_are_seeded_by_their_place_in_the_graph():
    # As in TF: in a traced function, the op seed is the graph's count of unseeded random ops
    # (0, 1, ...), not the next number of the eager generator.
    tf.random.set_seed(3)
    f = tf.function(lambda: (tf.random.normal((3,)), tf.random.normal((3,))))
    a, b = f()
    tf.random.set_seed(3)
    assert np.array_equal(a.numpy(), tf.random.normal((3,), seed=0).numpy())
    assert np.array_equal(b.numpy(), tf.random.normal((3,), seed=1).numpy())


def test_non_differentiable_ops_are_replayed_not_frozen():
    @tf.function
    def f(x):
        return (
            tf.reduce_any(tf.math.is_nan(x)),
            tf.argmax(x),
            tf.stop_gradient(x) * 2.0,
            tf.logical_not(x > 0),
            tf.where(x > 0),
        )

    f(tf.constant([1.0, 2.0]))
    has_nan, arg, stopped, not_pos, where = f(tf.constant([-1.0, np.nan]))
    assert bool(has_nan) and int(arg) == 0 and np.isnan(stopped.numpy()[1])  # (NaN never wins)
    assert not_pos.numpy().tolist() == [True, True]
    assert where.numpy().tolist() == []


def test_variables_created_in_a_retrace_raise():
    @tf.function
    def f(x):
        return tf.Variable(1.0) * x

    # TF traces a first call that creates variables twice; the second trace creates one more
    # variable, and that is refused at once (checked against TF 2.21)
    with pytest.raises(ValueError, match="singleton tf.Variables created on the first call"):
        f(tf.constant(1.0))


# --- gradients ------------------------------------------------------------------------------------
def test_tape_inside_the_function():
    w = tf.Variable([1.0, -2.0])

    @tf.function
    def grad_of_loss(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.nn.relu(w * x))
        return tape.gradient(loss, w)

    assert grad_of_loss(tf.constant([3.0, 1.0])).numpy().tolist() == [3.0, 0.0]
    # replayed on new inputs: relu's gradient mask is recomputed, not frozen
    assert grad_of_loss(tf.constant([-3.0, -1.0])).numpy().tolist() == [0.0, -1.0]
    w.assign([-1.0, 2.0])
    assert grad_of_loss(tf.constant([3.0, 1.0])).numpy().tolist() == [0.0, 1.0]
    assert grad_of_loss.experimental_get_tracing_count() == 1


def test_tape_around_a_call_trace_and_replay():
    w = tf.Variable(2.0)

    @tf.function
    def f(x):
        return tf.sin(x) * w

    for x0 in (0.5, 1.5):  # first call traces, second replays
        x = tf.constant(x0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x) * 3.0
        dx, dw = tape.gradient(y, [x, w])
        assert float(dx) == pytest.approx(3 * 2 * np.cos(x0), rel=1e-6)
        assert float(dw) == pytest.approx(3 * np.sin(x0), rel=1e-6)
    assert f.experimental_get_tracing_count() == 1


def test_nested_tapes_inside_give_second_derivatives():
    @tf.function
    def second(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = x**3
            dy = inner.gradient(y, x)
        return dy, outer.gradient(dy, x)

    for x0 in (2.0, -1.0):
        dy, d2y = second(tf.constant(x0))
        assert (float(dy), float(d2y)) == (3 * x0**2, 6 * x0)


def test_learning_rate_change_is_seen_by_a_traced_step():
    w = tf.Variable(0.0)
    opt = tf.keras.optimizers.SGD(1.0)

    @tf.function
    def step():
        opt.apply_gradients([(tf.constant(1.0), w)])

    step()
    opt.learning_rate = 0.5
    step()
    assert float(w) == -1.5 and int(opt.iterations) == 2


# --- the graph, and the other entry points ----------------------------------------------------
def test_get_concrete_function_traces_without_side_effects_and_lists_the_graph(capsys):
    v = tf.Variable([[1.0, 2.0]])

    @tf.function
    def f(x):
        print("tracing")
        y = tf.matmul(x, v, transpose_b=True)
        v.assign_sub(0.5 * v)
        return y

    with tf.GradientTape() as tape:
        cf = f.get_concrete_function(tf.ones((3, 2)))
    assert v.numpy().tolist() == [[1.0, 2.0]]  # tracing changed nothing
    assert tape.watched_variables() == ()  # and recorded nothing
    assert capsys.readouterr().out == "tracing\n"
    listing = str(cf.graph)
    assert "f(x: float32[3, 2])" in listing and "read Variable" in listing
    assert "MatMul(%0, %" in listing and ".assign_sub(%" in listing and "return %" in listing
    types = [op.type for op in cf.graph.get_operations()]
    assert (
        types[:1] == ["ReadVariableOp"] and "MatMul" in types and types[-1] == "AssignSubVariableOp"
    )
    assert cf.pretty_printed_signature() == "f(x: float32[3, 2]) -> float32[3, 1]"
    assert cf(tf.ones((3, 2))).numpy().tolist() == [[3.0]] * 3  # calling it replays
    assert v.numpy().tolist() == [[0.5, 1.0]]
    f(tf.ones((3, 2)))
    assert f.experimental_get_tracing_count() == 1 and capsys.readouterr().out == ""
    with pytest.raises(TypeError, match="traced for f"):
        cf(tf.ones((4, 2)))


def test_listing_writes_attributes_readably():
    @tf.function
    def f(x):
        return tf.cast(x[1:, 0] + x[:, ::2][0, 0], tf.float64)

    listing = str(f.get_concrete_function(tf.ones((3, 2))).graph)
    assert "StridedSlice(%0, key=(1:, 0))" in listing and "key=(:, ::2)" in listing
    assert "Cast(%4, dtype=float64)" in listing


def test_replay_is_one_straight_line_python_function():
    w = tf.Variable([1.0, 2.0], name="w")
    odd = [tf.Variable(1.0, name=n) for n in ("w", "replay", "s1", "return", "Mul")]

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((w * x - 1.0) ** 2) + sum(v * 0.5 for v in odd)
        g = tape.gradient(loss, w)
        w.assign_sub(0.1 * g)
        return loss, g

    x = tf.constant([0.5, -1.0])
    cf = step.get_concrete_function(x)
    lines = cf.python_source.splitlines()
    assert lines[0] == "def replay(s0):" and lines[-1].startswith("    return {")
    # one line per node, except ops on constants only, which were computed once, beforehand
    constant, folded = set(cf.graph.constants), 0
    for kind, _what, ins, _, out in cf.graph.nodes:
        if kind == "op" and ins and all(i in constant for i in ins):
            constant.add(out)
            folded += 1
    assert folded and len(lines) == 2 + len(cf.graph.nodes) - folded
    assert "    s1 = v_w._snap._value" in lines and "v_w._set(" in cf.python_source
    assert "v_w_2" in cf.python_source and "v_replay" in cf.python_source  # same-named, odd names
    assert "Mul(" in cf.python_source and "Sum(" in cf.python_source
    # and it computes what eager computes, step after step
    w_eager, w_start = tf.Variable(w.numpy()), w.numpy()
    for _ in range(3):
        loss, g = step(x)
        with tf.GradientTape() as tape:
            eager_loss = tf.reduce_sum((w_eager * x - 1.0) ** 2) + sum(v * 0.5 for v in odd)
        eager_g = tape.gradient(eager_loss, w_eager)
        w_eager.assign_sub(0.1 * eager_g)
        assert loss.numpy() == eager_loss.numpy() and np.array_equal(g.numpy(), eager_g.numpy())
    assert np.array_equal(w.numpy(), w_eager.numpy()) and not np.array_equal(w.numpy(), w_start)


def test_unused_ops_are_pruned_but_random_draws_stay():
    @tf.function
    def f(x):
        unused = tf.exp(x)  # noqa: F841
        tf.random.uniform(())
        return x + 1.0

    types = [op.type for op in f.get_concrete_function(tf.constant(1.0)).graph.get_operations()]
    assert types == ["RandomUniform", "AddV2"]


def test_python_control_flow_on_values_decides_on_every_call():
    # AutoGraph makes the `if` a graph cond: the replay decides on every call
    def absolute(x):
        if x > 0:
            return x
        return -x

    converted = tf.function(absolute)
    assert [float(converted(tf.constant(v))) for v in (2.0, -3.0)] == [2.0, 3.0]
    concrete = converted.get_concrete_function(tf.constant(1.0))
    assert float(concrete(tf.constant(-4.0))) == 4.0 and "if s" in concrete.python_source
    assert converted.experimental_get_tracing_count() == 1
    # without AutoGraph, Python may not ask a traced tensor for its truth (TF's error)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="as a Python `bool`"):
        tf.function(absolute, autograph=False)(tf.constant(2.0))


def test_other_uses_of_a_value_give_tf_s_numbers_too():
    # float() (TF's autograph casts), .numpy() and a tensor's value as a Python int (TF
    # refuses these): minitape runs the Python code again rather than repeat the traced value
    @tf.function
    def f(x):
        return x * float(x) + x * x.numpy() + sum(x for _ in range(int(x.numpy())))

    assert [float(f(tf.constant(v))) for v in (2.0, 5.0)] == [12.0, 75.0]
    v = tf.Variable(1.0)

    @tf.function
    def g(x):
        return x * v.numpy()  # a variable's value may change between calls

    assert float(g(tf.constant(2.0))) == 2.0
    v.assign(3.0)
    assert float(g(tf.constant(2.0))) == 6.0


def test_a_decision_on_a_python_value_or_a_constant_still_replays():
    @tf.function
    def f(x, scale):
        if scale > 1:  # a Python argument: part of the signature
            return x * scale
        if tf.constant(True):  # a constant made inside: the same on every call
            return x
        return -x

    f(tf.constant(1.0), 2)
    assert f.get_concrete_function(tf.constant(1.0), 2).graph.replayable
    assert f.get_concrete_function(tf.constant(1.0), 0).graph.replayable


def test_run_functions_eagerly_for_debugging(capsys):
    @tf.function
    def f(x):
        print("running")
        return x

    tf.config.run_functions_eagerly(True)
    try:
        f(tf.constant(1.0))
        f(tf.constant(1.0))
    finally:
        tf.config.run_functions_eagerly(False)
    assert capsys.readouterr().out == "running\nrunning\n"
    assert f.experimental_get_tracing_count() == 0


def test_decorating_a_method_and_calling_forms():
    class Scaler:
        def __init__(self, k):
            self.k = tf.Variable(k)

        @tf.function
        def __call__(self, x):
            return self.k * x

    a, b = Scaler(2.0), Scaler(3.0)
    assert float(a(tf.constant(1.0))) == 2.0 and float(b(tf.constant(1.0))) == 3.0
    assert float(a(tf.constant(5.0))) == 10.0
    g = tf.function(lambda x: x * 2)
    h = tf.function()(lambda x: x * 3)
    assert float(g(tf.constant(1.0))) == 2.0 and float(h(tf.constant(1.0))) == 3.0


def test_a_function_called_inside_another_is_part_of_its_graph():
    @tf.function
    def inner(x):
        return x * 2.0

    @tf.function
    def outer(x):
        return inner(x) + 1.0

    assert float(outer(tf.constant(1.0))) == 3.0
    assert float(outer(tf.constant(2.0))) == 5.0
    assert outer.experimental_get_tracing_count() == 1


def test_custom_gradient_runs_as_python(capsys):
    @tf.custom_gradient
    def clip_grad(x):
        return tf.identity(x), lambda g: tf.clip_by_value(g, -1.0, 1.0)

    @tf.function
    def f(x):
        return clip_grad(x) * 1.0

    assert float(f(tf.constant(2.0))) == 2.0
    assert "cannot replay" in capsys.readouterr().err
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x) * 10.0
    assert float(y) == 30.0 and float(tape.gradient(y, x)) == 1.0


def test_input_signature_converts_and_refuses_as_tf():
    # (the fuzzer records these under TF 2.21: tests/fuzz, `~function(...)`)
    with pytest.raises(TypeError, match="must be a possibly nested sequence of TensorSpec"):
        tf.function(lambda x: x, input_signature=[None])
    with pytest.raises(TypeError, match="must be either a tuple or a list"):
        tf.function(lambda x: x, input_signature=tf.TensorSpec([3]))
    f = tf.function(lambda x: x * x, input_signature=[tf.TensorSpec([None], tf.float32)])
    assert f([1, 2, 3]).dtype == tf.float32  # converted to the spec's dtype
    assert f(np.ones(2)).dtype == tf.float32
    with pytest.raises(TypeError, match="Can not cast TensorSpec"):
        f(tf.constant([1, 2]))  # a tensor of another dtype is not cast
    with pytest.raises(TypeError, match="Can not cast TensorSpec"):
        f(tf.ones([2, 2]))
    with pytest.raises(TypeError, match="extra type constraints"):
        tf.function(lambda x: x, input_signature=[tf.TensorSpec([]), tf.TensorSpec([])])(1.0)
    with pytest.raises(TypeError, match="missing type constraint for x"):
        tf.function(lambda x: x, input_signature=[])(1.0)
    assert repr(tf.TensorSpec([None, 3], name="x")) == (
        "TensorSpec(shape=(None, 3), dtype=tf.float32, name='x')"
    )


def test_concrete_function_output_signature():
    """output_dtypes / output_shapes / structured_outputs follow the returned structure; a
    Python number is returned as a tensor (int32 here), None as None (its shape unknown)."""

    @tf.function
    def f(x, n):
        return {"y": x * 2.0, "pair": (tf.cast(x, tf.int32), None), "n": n}

    cf = f.get_concrete_function(tf.constant([[1.0, 2.0, 3.0]]), 3)
    assert cf.output_dtypes == {"y": tf.float32, "pair": (tf.int32, None), "n": tf.int32}
    shapes = cf.output_shapes
    assert shapes["y"] == tf.TensorShape([1, 3]) and shapes["n"] == tf.TensorShape([])
    assert shapes["pair"][1].rank is None and repr(shapes["pair"][1]) == "TensorShape(None)"
    out = cf.structured_outputs
    assert out["pair"][1] is None and tf.is_tensor(out["n"]) and out["y"].shape == (1, 3)


# --- the trace key: TF's types of a call ------------------------------------------------------
def test_relaxed_trace_shows_none_to_the_function_and_computes_on_the_values():
    seen = []

    @tf.function(reduce_retracing=True)
    def f(x, w):
        seen.append((tuple(x.shape), tuple(x.get_shape().as_list())))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_mean(x * w + tf.ones_like(x)) + tf.reduce_sum(x[:1] * x[-1:])
        return y, tape.gradient(y, x)

    w = tf.constant(3.0)
    for n in (2, 3, 4, 5):
        x = tf.range(float(n))
        y, g = f(x, w)
        xs = x.numpy()
        expected = np.full(n, 3.0 / n, np.float32)
        expected[0] += xs[-1]
        expected[-1] += xs[0]
        assert np.isclose(float(y), xs.mean() * 3 + 1 + xs[0] * xs[-1])
        assert np.allclose(g.numpy(), expected)
    assert f.experimental_get_tracing_count() == 2
    assert seen[0] == ((2,), (2,)) and set(seen[1:]) == {((None,), (None,))}


def test_relaxed_rank_is_an_unknown_shape():
    seen = []

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        seen.append((str(x.shape), x.shape.rank))
        return tf.reduce_sum(x)

    assert [float(f(tf.ones(s))) for s in ([], [2], [2, 3])] == [1.0, 2.0, 6.0]
    assert f.experimental_get_tracing_count() == 1
    assert set(seen) == {("<unknown>", None)}


def test_a_type_is_served_by_its_most_specific_trace():
    @tf.function
    def f(x):
        return x * 2

    f(tf.ones([3]))
    general = f.get_concrete_function(tf.TensorSpec([None]))
    assert f.experimental_get_tracing_count() == 2
    assert f.get_concrete_function(tf.ones([3])) is not general  # the exact trace wins
    assert general(tf.ones([5])).numpy().tolist() == [2.0] * 5
    with pytest.raises(TypeError, match="traced for f"):
        general(tf.ones([2, 2]))
    assert f.experimental_get_tracing_count() == 2


def test_method_gets_a_function_per_instance():
    class Counter(tf.Module):
        def __init__(self, start):
            super().__init__()
            self.start, self.v = start, None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(self.start)
            self.v.assign_add(x)
            return self.v.read_value()

    a, b = Counter(1.0), Counter(10.0)
    assert [float(a(tf.constant(1.0))), float(b(tf.constant(1.0))), float(a(tf.constant(1.0)))] == [
        2.0,
        11.0,
        3.0,
    ]
    assert a.__call__ is a.__call__ and a.__call__ is not b.__call__
    assert Counter.__call__.experimental_get_tracing_count() == 0


def test_concrete_function_lists_its_variables():
    w, u = tf.Variable(2.0), tf.Variable(1.0, trainable=False)

    @tf.function
    def f(x):
        if x > 0:  # (read in both branches: listed once)
            y = x * w
        else:
            y = x / w
        u.assign_add(1.0)
        return y

    concrete = f.get_concrete_function(tf.constant(1.0))
    assert concrete.variables == (w, u) or [id(v) for v in concrete.variables] == [id(w), id(u)]
    assert [id(v) for v in concrete.trainable_variables] == [id(w)]
    assert float(u) == 1.0  # (traced without changing it)


def test_retracing_warning_is_logged_twice_at_most(capsys):
    @tf.function
    def f(x):
        return x

    for n in range(1, 9):
        f(tf.ones([n]))
    lines = [line for line in capsys.readouterr().err.splitlines() if "retracing" in line]
    assert [line.split(" calls to")[0] for line in lines] == [
        "WARNING:minitape:5 out of the last 5",
        "WARNING:minitape:6 out of the last 6",
    ]


def test_returning_what_cannot_be_a_tensor_is_tfs_type_error():
    @tf.function
    def f(x):
        return {x.dtype.name}

    with pytest.raises(TypeError, match="found return value of type set, which is not a Tensor"):
        f(tf.constant(1.0))


# --- a while loop's gradient inside a traced function ----------------------------------------
# (its second and third derivatives, against TF: golden case
# fn_while_loop_second_derivative_inside_a_function)
def _power(x, n):
    return tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), (0, tf.ones_like(x)))[1]


def test_a_traced_while_loop_checks_against_finite_differences():
    from minitape.testing import check_grads

    traced = tf.function(lambda x: _power(x, 3) + tf.sin(x))
    check_grads(traced, tf.constant([0.5, -1.2], tf.float64))


def test_back_prop_false_stops_the_gradient_of_a_traced_loop_only():
    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda y: y < 10.0, lambda y: (y * x,), (x,), back_prop=False)[0]
        return tape.gradient(y, x)

    assert grad(tf.constant(2.0)) is None
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:  # (eagerly it changes nothing, as in TF)
        tape.watch(x)
        y = tf.while_loop(lambda y: y < 10.0, lambda y: (y * x,), (x,), back_prop=False)[0]
    assert float(tape.gradient(y, x)) == 32.0  # y = x**4
