"""minitape's AutoGraph: the converted code of several shapes of functions (to_code), and
that the converted functions compute what the Python code says, on Python values and on
tensors, traced and replayed."""

import numpy as np
import pytest

import minitape as tf
from minitape import autograph


def code_of(fn):
    return tf.autograph.to_code(fn)


def test_nested_ifs_become_nested_if_stmts():
    def f(x):
        if x > 0:
            if x > 10:
                y = x * 3.0
            else:
                y = x * 2.0
        else:
            y = -x
        return y

    code = code_of(f)
    assert code.startswith("def tf__f(x):")
    assert code.count("ag__.if_stmt(") == 2
    assert "nonlocal y" in code and "y = ag__.Undefined('y')" in code
    g = tf.function(f)
    assert [float(g(tf.constant(v))) for v in (20.0, 5.0, -1.0)] == [60.0, 10.0, 1.0]
    assert g.experimental_get_tracing_count() == 1


def test_while_with_several_variables():
    def f(x, n):
        s = 0.0
        i = 0
        while i < n:
            t = x * 2.0  # (a temporary of the body: not a loop variable)
            s = s + t
            i += 1
        return s, i

    code = code_of(f)
    assert "ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('s', 'i'), {})" in code
    g = tf.function(f)
    for n in (3, 0, 5):
        s, i = g(tf.constant(1.5), tf.constant(n))
        assert (float(s), int(i)) == (3.0 * n, n)
    assert g.experimental_get_tracing_count() == 1
    assert "while True:" in g.get_concrete_function(tf.constant(1.5), tf.constant(1)).python_source


def test_for_over_tf_range_is_a_while_loop_and_over_a_list_is_unrolled():
    def f(x, n):
        for i in tf.range(n):
            x = x + tf.cast(i, tf.float32)
        for k in [2.0, 3.0]:
            x = x * k
        return x

    code = code_of(f)
    assert "ag__.for_stmt(tf.range(n), None, loop_body," in code
    assert "{'iterate_names': 'i'}" in code and "{'iterate_names': 'k'}" in code
    g = tf.function(f)
    assert [float(g(tf.constant(1.0), tf.constant(n))) for n in (4, 0, 2)] == [42.0, 6.0, 12.0]
    assert g.experimental_get_tracing_count() == 1
    source = g.get_concrete_function(tf.constant(1.0), tf.constant(1)).python_source
    assert source.count("while True:") == 1  # (the list loop is unrolled: two Mul lines)
    assert source.count("Mul(") == 2


def test_if_on_python_values_stays_python():
    calls = []

    def f(x, training):
        if training:
            calls.append("then")
            return x * 2.0
        calls.append("else")
        return x

    g = tf.function(f)
    assert float(g(tf.constant(1.0), True)) == 2.0
    assert calls == ["then"]  # (only the branch Python took was traced)
    assert "Mul" in g.get_concrete_function(tf.constant(1.0), True).python_source
    assert "if " not in g.get_concrete_function(tf.constant(1.0), True).python_source


def test_a_variable_assigned_in_one_branch():
    def used_after(x):
        if x > 0:
            y = x
        return y

    def not_used_after(x):
        if x > 0:
            y = x  # noqa: F841
        return x

    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch"):
        tf.function(used_after)(tf.constant(1.0))
    assert "('y',)" in code_of(used_after)
    assert "()" in code_of(not_used_after)  # (y is no output of the cond)
    assert float(tf.function(not_used_after)(tf.constant(-1.0))) == -1.0
    # eagerly, a Python `if`: no complaint
    assert float(used_after(tf.constant(1.0))) == 1.0


def test_return_in_an_if_moves_the_rest_into_the_else_branch():
    def tent(x):
        if x < 1.0:
            return x**2
        return 3.0 - 2.0 * x

    code = code_of(tent)
    assert "retval_ = x ** 2" in code and "retval_ = 3.0 - 2.0 * x" in code
    assert "do_return" not in code and code.rstrip().endswith("return retval_")


def test_code_after_an_if_that_may_return_is_guarded():
    def f(x):
        if x > 0:
            if x > 10:
                return x
        x = x + 1.0
        return x

    code = code_of(f)
    assert "do_return = False" in code and "ag__.not_(do_return)" in code
    # on a tensor, the inner `if` returns in one branch only: TF 2.21's error, word for word
    with pytest.raises(ValueError, match="the else branch must also have a return statement"):
        tf.function(f)(tf.constant(20.0))
    assert [float(f(tf.constant(v))) for v in (20.0, 5.0, -1.0)] == [20.0, 6.0, 0.0]


def test_break_and_continue_become_flags():
    def f(n):
        s = 0
        i = 0
        while i < n:
            i += 1
            if i % 2 == 0:
                continue
            if i > 6:
                break
            s += i
        return s

    code = code_of(f)
    assert "break_ = False" in code and "continue_ = False" in code
    assert "ag__.and_(lambda: ag__.not_(break_), lambda: i < n)" in code
    g = tf.function(f)
    assert [int(g(tf.constant(n))) for n in (10, 5, 0)] == [9, 9, 0]  # 1 + 3 + 5, then 7 > 6
    assert g.experimental_get_tracing_count() == 1
    assert g.get_concrete_function(tf.constant(1)).graph.replayable


def test_a_for_loop_with_break_gets_an_extra_test():
    def f(n):
        s = 0
        for i in tf.range(n):
            if i > 2:
                break
            s += i
        return s

    assert "ag__.for_stmt(tf.range(n), lambda: ag__.not_(break_), loop_body" in code_of(f)
    g = tf.function(f)
    assert [int(g(tf.constant(n))) for n in (10, 2)] == [3, 1]
    assert g.get_concrete_function(tf.constant(1)).graph.replayable


def test_a_loop_that_returns_stays_python():
    def f(n):
        for i in tf.range(n):
            if i > 2:
                return i
        return -1

    code = code_of(f)
    assert "ag__.python_loop_iterate(tf.range(n), True)" in code and "for_stmt" not in code
    with pytest.raises(NotImplementedError, match="a return statement cannot be placed"):
        tf.function(f)(tf.constant(10))
    assert int(f(tf.constant(10))) == 3  # (eagerly, plain Python)


def test_conditional_expressions_and_boolean_operators():
    def f(x, y):
        z = x if x > y else y
        if x > 0 and not y > 0:
            z = z * 10.0
        return z

    code = code_of(f)
    assert "ag__.if_exp(x > y, lambda: x, lambda: y, 'x > y')" in code
    assert "ag__.and_(lambda: x > 0, lambda: ag__.not_(y > 0))" in code
    g = tf.function(f)
    assert [float(g(tf.constant(a), tf.constant(b))) for a, b in [(2.0, -1.0), (1.0, 3.0)]] == [
        20.0,
        3.0,
    ]
    assert g.experimental_get_tracing_count() == 1


def test_closures_defaults_and_globals_are_the_function_s():
    scale = tf.constant(3.0)

    def f(x, offset=1.0):
        if x > 0:
            x = x * scale + offset
        return np.float32(2.0) * x

    converted = autograph.convert(f)
    assert converted is not f and converted.__name__ == "f"
    assert float(converted(tf.constant(1.0))) == 8.0
    assert autograph.convert(lambda x: x).__name__ == "<lambda>"


def test_a_function_without_control_flow_is_not_converted():
    def f(x):
        return x * 2.0

    assert autograph.convert(f) is f
    assert code_of(f).startswith("def tf__f(x):")


def test_python_side_effects_of_both_branches_happen_at_tracing_only(capsys):
    @tf.function
    def f(x):
        if x > 0:
            print("then")
            y = x
        else:
            print("else")
            y = -x
        return y

    assert [float(f(tf.constant(v))) for v in (1.0, -2.0, 3.0)] == [1.0, 2.0, 3.0]
    assert capsys.readouterr().out == "then\nelse\n"


def test_a_gradient_inside_through_a_cond_is_a_cond_and_replays():
    log = []

    @tf.function
    def f(x, a):
        with tf.GradientTape() as tape:
            tape.watch([x, a])
            log.append("traced")
            y = x * 2.0 if x > 0 else a * 3.0
        return tape.gradient(y, [x, a])

    one = tf.constant(1.0)
    assert [float(g) for g in f(tf.constant(2.0), one)] == [2.0, 0.0]
    assert [float(g) for g in f(tf.constant(-2.0), one)] == [0.0, 3.0]
    assert f.experimental_get_tracing_count() == 1 and log == ["traced"]
    source = f.get_concrete_function(tf.constant(2.0), one).python_source
    # (one `if`: the gradient's cond; the forward cond's result is not returned: pruned)
    assert source.count("if s") == 1 and "Greater(s0" in source


def test_a_gradient_inside_through_a_loop_is_a_loop_and_replays():
    log = []

    @tf.function
    def f(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            while n > 0:
                log.append("body")
                y = y * x
                n -= 1
        return tape.gradient(y, x)

    assert [float(f(tf.constant(2.0), tf.constant(n))) for n in (0, 1, 2)] == [1.0, 4.0, 12.0]
    assert f.experimental_get_tracing_count() == 1 and log == ["body"]
    concrete = f.get_concrete_function(tf.constant(2.0), tf.constant(1))
    assert concrete.graph.replayable and concrete.python_source.count("while True:") == 2
    assert float(concrete(tf.constant(3.0), tf.constant(3))) == 108.0  # 4 x^3


def test_a_gradient_inside_through_nested_conds_replays():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            if x < 0:
                y = -x
            elif x < 1:
                y = x * x
            else:
                y = 3.0 * x
        return tape.gradient(y, x)

    assert [float(f(tf.constant(v))) for v in (-2.0, 0.5, 3.0)] == [-1.0, 1.0, 3.0]
    concrete = f.get_concrete_function(tf.constant(0.5))
    assert concrete.graph.replayable and f.experimental_get_tracing_count() == 1
    assert float(concrete(tf.constant(0.25))) == 0.5


def _helper_with_an_if(x):
    if x > 1.0:
        x = tf.sqrt(x)
    return x


def test_the_user_s_functions_it_calls_are_converted_too():
    def f(x):
        return _helper_with_an_if(x * 2.0) + tf.abs(x)

    code = code_of(f)
    assert "ag__.converted_call(_helper_with_an_if, x * 2.0)" in code
    assert "tf.abs(x)" in code  # (a library's function: called as it is)
    g = tf.function(f)
    assert [float(g(tf.constant(v))) for v in (2.0, 0.25)] == [4.0, 0.75]
    assert g.get_concrete_function(tf.constant(1.0)).graph.replayable


def _countdown(n):
    for i in range(n, 0, -1):
        if i % 2:
            yield i


def test_generators_are_left_as_they_are():
    assert autograph.convert(_countdown) is _countdown

    @tf.function
    def f(x):
        return x * sum(_countdown(5))

    assert float(f(tf.constant(1.0))) == 9.0


def test_code_minitape_leaves_in_python_where_tf_converts_it_is_not_refused():
    # a loop whose `break` sits in a `try` (minitape leaves it to Python; TF converts it),
    # and a method with an `if` on a tensor (TF converts it; minitape runs it as Python)
    class Halver:
        def half_if_big(self, y):
            if y > 4.0:
                return y / 2.0
            return y

    halver = Halver()

    @tf.function
    def f(x):
        total = tf.constant(0.0)
        for v in x:
            try:
                if v > 2.0:
                    break
            finally:
                pass
            total += v
        return total + halver.half_if_big(x[0] * 10.0)

    assert float(f(tf.constant([1.0, 2.0, 3.0]))) == 8.0
    assert float(f(tf.constant([0.5, 5.0]))) == 3.0


def test_refusals_name_what_tf_names():
    @tf.function(autograph=False)
    def length(x):
        return len(x)

    with pytest.raises(TypeError, match=r"symbolic Tensor \(x:0\)"):
        length(tf.constant([1.0]))

    @tf.function
    def scalar_length(x):
        return len(x)

    assert int(scalar_length(tf.constant([1.0, 2.0]))) == 2
    with pytest.raises(ValueError, match="len requires a non-scalar tensor"):
        scalar_length(tf.constant(1.0))
