"""Golden cases for control flow (cond, case, while_loop, folds, scan, map_fn, vectorized_map),
recompute_grad, grad_pass_through, get_static_value, variable assignments, forward mode
(tf.autodiff.ForwardAccumulator) and tf.test.compute_gradient, as TF 2.21 runs them eagerly."""

import collections

import numpy as np

from .cases import attempt, case, derivatives

Pair = collections.namedtuple("Pair", "j k")


# =============================================================================================
# tf.cond
# =============================================================================================
@case
def cf_cond_takes_true_branch(tf):
    x = tf.constant(2.0)
    return [tf.cond(x > 1, lambda: x * 2, lambda: x), tf.cond(x > 5, lambda: x * 2, lambda: -x)]


@case
def cf_cond_returns_branch_result_unchanged(tf):
    x = tf.constant(2.0)
    return [
        tf.cond(x > 1, lambda: [x * 2], lambda: [x]),
        tf.cond(x > 1, lambda: (x * 2,), lambda: (x,)),
        tf.cond(x > 1, lambda: {"a": x * 2}, lambda: {"a": x}),
        tf.cond(x > 1, lambda: 3, lambda: 4),
        tf.cond(x > 1, lambda: None, lambda: None),
        tf.cond(x > 1, lambda: x, lambda: x) is x,
    ]


@case
def cf_cond_pred_kinds(tf):
    x = tf.constant(2.0)
    preds = [
        True,
        0,
        1.0,
        np.bool_(False),
        tf.constant([True]),
        tf.constant(0),
        "yes",
        tf.Variable(False),
    ]
    return [tf.cond(p, lambda: x + 1, lambda: x - 1) for p in preds]


@case
def cf_cond_vector_pred(tf):
    x = tf.constant(2.0)
    return tf.cond(tf.constant([True, False]), lambda: x, lambda: x)


@case
def cf_cond_none_pred(tf):
    x = tf.constant(2.0)
    return tf.cond(None, lambda: x, lambda: x)


@case(message=True)
def cf_cond_noncallable_branches(tf):
    x = tf.constant(2.0)
    return [
        attempt(tf.cond, x > 1, x, lambda: x),
        attempt(tf.cond, x > 1, lambda: x, 3),
        attempt(tf.cond, x > 1, None, lambda: x),
        attempt(tf.cond, x > 1, lambda: x),
    ]


@case
def cf_cond_branches_may_differ(tf):
    x = tf.constant(2.0)
    return [tf.cond(x > 1, lambda: [x], lambda: x), tf.cond(x > 1, lambda: x, lambda: 1)]


@case
def cf_cond_gradient_only_taken_branch(tf):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.cond(x > 1, lambda: x * x, lambda: x * 3)
        z = tf.cond(x > 5, lambda: x * x, lambda: tf.constant(1.0))
    return [y, tape.gradient(y, x), z, tape.gradient(z, x)]


@case
def cf_cond_second_derivative(tf):
    x = tf.constant([0.5, -1.5])
    return derivatives(
        tf, lambda t: tf.cond(tf.reduce_sum(t) < 0, lambda: tf.sin(t) * t, lambda: t**3), x
    )


@case
def cf_cond_gradient_of_variable(tf):
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = tf.cond(v > 0, lambda: v * v, lambda: -v)
    return [y, tape.gradient(y, v)]


# =============================================================================================
# tf.case
# =============================================================================================
@case
def cf_case_first_true_and_default(tf):
    x = tf.constant(2.0)
    return [
        tf.case([(x > 1, lambda: x * 2), (x > 0, lambda: x * 3)], default=lambda: x),
        tf.case([(x > 5, lambda: x * 2)], default=lambda: -x),
        tf.case([(x > 5, lambda: x * 2), (x > 1, lambda: x * 3)]),
    ]


@case(message=True)
def cf_case_no_true_predicate_without_default(tf):
    x = tf.constant(2.0)
    return tf.case([(x > 5, lambda: x * 2), (x > 6, lambda: x * 3)])


@case(message=True)
def cf_case_exclusive_two_true(tf):
    x = tf.constant(2.0)
    return tf.case(
        [(x > 1, lambda: x * 2), (x > 0, lambda: x * 3)], default=lambda: x, exclusive=True
    )


@case
def cf_case_exclusive_one_true(tf):
    x = tf.constant(2.0)
    return tf.case(
        [(x > 1, lambda: x * 2), (x > 3, lambda: x * 3)], default=lambda: x, exclusive=True
    )


@case
def cf_case_unpacks_singletons_unless_strict(tf):
    x = tf.constant(2.0)
    return [
        tf.case([(x > 1, lambda: [x])], default=lambda: [x]),
        tf.case([(x > 1, lambda: [x])], default=lambda: [x], strict=True),
        tf.case([(x > 1, lambda: (x, x))], default=lambda: (x, x)),
    ]


@case(message=True)
def cf_case_argument_errors(tf):
    x = tf.constant(2.0)
    return [
        attempt(tf.case, [(True, lambda: x)]),
        attempt(tf.case, [(tf.constant(1), lambda: x)]),
        attempt(tf.case, [(x > 1, 3)]),
        attempt(tf.case, 3),
        attempt(tf.case, [(x > 1,)]),
        attempt(tf.case, [], default=lambda: x),
        attempt(tf.case, [(x > 1, lambda: x)], default=3),
        attempt(tf.case, [(x > 5, lambda: x), (x > 1, lambda: x)], default=3),
    ]


@case
def cf_case_gradient(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.case([(x > 3, lambda: x**2), (x > 1, lambda: x**3)], default=lambda: x)
    return [y, tape.gradient(y, x)]


# =============================================================================================
# tf.while_loop
# =============================================================================================
@case
def cf_while_single_loop_var_structures(tf):
    return [
        tf.while_loop(lambda i: i < 3, lambda i: [i + 1], [tf.constant(0)]),
        tf.while_loop(lambda i: i < 3, lambda i: (i + 1,), [tf.constant(0)]),
        tf.while_loop(lambda i: i < 3, lambda i: (i + 1,), (tf.constant(0),)),
    ]


@case
def cf_while_body_returns_bare_tensor_for_list(tf):
    return tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)])


@case
def cf_while_bare_tensor_loop_vars(tf):
    return [
        attempt(tf.while_loop, lambda i: i < 3, lambda i: i + 1, tf.constant(1)),
        attempt(tf.while_loop, lambda i: i < 3, lambda i: i + 1, tf.constant(0)),
        attempt(tf.while_loop, lambda i: i < 3, lambda i: i + 1, 1),
        attempt(tf.while_loop, lambda a, b: a < 3, lambda a, b: (a + 1, b), tf.constant([1, 2])),
    ]


@case(message=True)
def cf_while_empty_loop_vars(tf):
    return tf.while_loop(lambda: True, lambda: (), [])


@case
def cf_while_python_numbers_come_back_as_tensors(tf):
    return [
        tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + i), [0, 0]),
        tf.while_loop(lambda i, s: i < 0, lambda i, s: (i + 1, s + i), [0, 0.5]),
    ]


@case
def cf_while_return_type_follows_body(tf):
    a = tf.while_loop(lambda i, j: i < 3, lambda i, j: (i + 1, j), [tf.constant(0), tf.constant(1)])
    b = tf.while_loop(lambda i, j: i < 3, lambda i, j: [i + 1, j], (tf.constant(0), tf.constant(1)))
    c = tf.while_loop(lambda i, j: i < 0, lambda i, j: [i + 1, j], (tf.constant(0), tf.constant(1)))
    return [a, b, c, type(a).__name__, type(b).__name__, type(c).__name__]


@case
def cf_while_maximum_iterations(tf):
    return [
        tf.while_loop(lambda i: True, lambda i: [i + 1], [tf.constant(0)], maximum_iterations=5),
        tf.while_loop(lambda i: True, lambda i: [i + 1], [tf.constant(0)], maximum_iterations=0),
        tf.while_loop(
            lambda i: True, lambda i: [i + 1], [tf.constant(0)], maximum_iterations=tf.constant(2)
        ),
        tf.while_loop(lambda i: True, lambda i: [i + 1], [tf.constant(0)], maximum_iterations=2.7),
        tf.while_loop(lambda i: True, lambda i: [i + 1], [tf.constant(0)], maximum_iterations=-1),
        tf.while_loop(lambda i: i < 2, lambda i: [i + 1], [tf.constant(0)], maximum_iterations=9),
    ]


@case
def cf_while_maximum_iterations_needs_same_structure(tf):
    return [
        attempt(
            tf.while_loop, lambda i: True, lambda i: i + 1, [tf.constant(0)], maximum_iterations=5
        ),
        attempt(
            tf.while_loop,
            lambda i: True,
            lambda i: (i + 1,),
            [tf.constant(0)],
            maximum_iterations=5,
        ),
        attempt(
            tf.while_loop,
            lambda i, j: True,
            lambda i, j: (i + 1, j),
            [tf.constant(0), tf.constant(1)],
            maximum_iterations=2,
        ),
    ]


@case(message=True)
def cf_while_argument_errors(tf):
    i0 = [tf.constant(0)]
    return [
        attempt(tf.while_loop, lambda i: True, lambda i: [i + 1], i0, maximum_iterations=[2]),
        attempt(tf.while_loop, True, lambda i: [i + 1], i0),
        attempt(tf.while_loop, lambda i: i < 3, 1, i0),
        attempt(tf.while_loop, lambda i: i < 3, lambda i: [i + 1], i0, parallel_iterations=0),
    ]


@case
def cf_while_structure_changes(tf):
    c0 = [tf.constant(0), tf.constant(1)]
    return [
        attempt(tf.while_loop, lambda i, j: i < 3, lambda i, j: [i + 1, [j]], c0),
        attempt(tf.while_loop, lambda i, j: i < 3, lambda i, j: [i + 1], c0),
        attempt(
            tf.while_loop,
            lambda d: d["a"] < 3,
            lambda d: {"a": d["a"] + 1},
            [{"a": tf.constant(0)}],
        ),
        attempt(tf.while_loop, lambda i: i < 3, lambda i: None, [tf.constant(0)]),
    ]


@case
def cf_while_dtype_and_shape_may_change(tf):
    return [
        tf.while_loop(lambda i: i < 3, lambda i: [tf.cast(i, tf.float32) + 1], [tf.constant(0)]),
        tf.while_loop(
            lambda i, m: i < 2,
            lambda i, m: [i + 1, tf.concat([m, m], 0)],
            [tf.constant(0), tf.ones([1, 2])],
        ),
        tf.while_loop(
            lambda i, m: i < 2,
            lambda i, m: [i + 1, tf.concat([m, m], 0)],
            [tf.constant(0), tf.ones([1, 2])],
            shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 2])],
        ),
    ]


@case
def cf_while_namedtuple_and_variables(tf):
    v = tf.Variable(2.0)
    return [
        tf.while_loop(
            lambda i, p: i < 3,
            lambda i, p: (i + 1, Pair(p.j + p.k, p.j - p.k)),
            (tf.constant(0), Pair(tf.constant(1), tf.constant(2))),
        ),
        tf.while_loop(lambda x: x < 10, lambda x: [x * 2], [v]),
        tf.while_loop(lambda x: x < 0, lambda x: [x * 2], [v]),
    ]


@case
def cf_while_cond_results(tf):
    i0 = [tf.constant(0)]
    return [
        tf.while_loop(lambda i: False, lambda i: [i + 1], i0),
        tf.while_loop(lambda i: None, lambda i: [i + 1], i0),
        attempt(tf.while_loop, lambda i: i < 3, lambda i: [i + 1], [tf.constant([0, 5])]),
    ]


@case
def cf_while_accepts_graph_options(tf):
    return tf.while_loop(
        lambda i: i < 3,
        lambda i: [i + 1],
        [tf.constant(0)],
        parallel_iterations=1,
        swap_memory=True,
        name="w",
    )


@case
def cf_while_gradient_power(tf):
    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        _, y = tf.while_loop(lambda i, a: i < 4, lambda i, a: (i + 1, a * x), [0, tf.constant(1.0)])
    return [y, tape.gradient(y, x)]


@case
def cf_while_second_derivative(tf):
    x = tf.constant([0.5, 2.0])

    def f(t):
        return tf.while_loop(
            lambda i, a: i < 3, lambda i, a: (i + 1, tf.sin(a) + t), [tf.constant(0), t]
        )[1]

    return derivatives(tf, f, x)


@case
def cf_while_gradient_variable_and_data_dependent_length(tf):
    v = tf.Variable(1.1)
    with tf.GradientTape() as tape:
        n, y = tf.while_loop(
            lambda n, y: y < 3.0, lambda n, y: (n + 1, y * v), [tf.constant(0), tf.constant(1.0)]
        )
    return [n, y, tape.gradient(y, v)]


# =============================================================================================
# foldl, foldr, scan
# =============================================================================================
@case
def cf_foldl_foldr_values(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    m = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return [
        tf.foldl(lambda a, x: a + x, e),
        tf.foldl(lambda a, x: a * x, e, initializer=tf.constant(2.0)),
        tf.foldl(lambda a, x: a - x, e),
        tf.foldr(lambda a, x: a - x, e),
        tf.foldr(lambda a, x: a * 10 + x, e, initializer=tf.constant(0.0)),
        tf.foldl(lambda a, x: a + x, m),
    ]


@case
def cf_fold_python_initializer(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    return [
        tf.foldl(lambda a, x: a + x, e, initializer=0.0),
        tf.foldl(lambda a, x: a + 1, e, initializer=0),
        tf.foldr(lambda a, x: a + 1, e, initializer=0),
    ]


@case(message=True)
def cf_fold_empty(tf):
    z = tf.zeros([0])
    return [
        attempt(tf.foldl, lambda a, x: a + x, z),
        attempt(tf.foldr, lambda a, x: a + x, z),
        tf.foldl(lambda a, x: a + x, z, initializer=tf.constant(5.0)),
        tf.foldr(lambda a, x: a + x, z, initializer=tf.constant(5.0)),
    ]


@case
def cf_fold_nests(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    return [
        tf.foldl(lambda a, x: a + x[0] * x[1], (e, e), initializer=tf.constant(0.0)),
        tf.foldl(lambda a, x: a, (e, e)),
        tf.foldl(
            lambda a, x: (a[0] + x, a[1] * x), e, initializer=(tf.constant(0.0), tf.constant(1.0))
        ),
        attempt(
            tf.foldl,
            lambda a, x: [a[0] + x, a[1]],
            e,
            initializer=(tf.constant(0.0), tf.constant(1.0)),
        ),
    ]


@case
def cf_fold_errors(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    return [
        attempt(tf.foldl, 3, e),
        attempt(tf.foldr, 3, e),
        attempt(tf.foldl, lambda a, x: a + x, tf.constant(1.0)),
    ]


@case
def cf_foldl_gradient(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(e)
        y = tf.foldl(lambda a, x: a * x + tf.sin(x), e, initializer=tf.constant(1.0))
    return [y, tape.gradient(y, e)]


@case
def cf_foldr_gradient_second_order(tf):
    e = tf.constant([0.5, -1.0, 2.0])
    return derivatives(tf, lambda t: tf.foldr(lambda a, x: a * x + x * x, t), e)


@case
def cf_scan_values(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    return [
        tf.scan(lambda a, x: a + x, e),
        tf.scan(lambda a, x: a + x, e, initializer=tf.constant(10.0)),
        tf.scan(lambda a, x: a + x, e, reverse=True),
        tf.scan(lambda a, x: a * x, e, initializer=tf.constant(2.0), reverse=True),
        tf.scan(lambda a, x: a + x, e, initializer=0.0),
        tf.scan(lambda a, x: a + 1, e, initializer=0),
    ]


@case
def cf_scan_nests(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    return [
        tf.scan(
            lambda a, x: (a[0] + x, a[1] * x), e, initializer=(tf.constant(0.0), tf.constant(1.0))
        ),
        tf.scan(lambda a, x: a + x[0] * x[1], (e, e), initializer=tf.constant(0.0)),
        tf.scan(lambda a, x: (a[0] + x[1], a[1] * x[0]), (e, e)),
        attempt(tf.scan, lambda a, x: (a, a), e, initializer=tf.constant(0.0)),
    ]


@case(message=True)
def cf_scan_empty(tf):
    z = tf.zeros([0])
    return [
        attempt(tf.scan, lambda a, x: a + x, z),
        attempt(tf.scan, lambda a, x: a + x, z, reverse=True),
        tf.scan(lambda a, x: a + x, z, initializer=tf.constant(1.0)),
        tf.scan(lambda a, x: a + x, tf.zeros([0, 2]), initializer=tf.zeros([2])),
    ]


@case(message=True)
def cf_scan_result_dtype_and_shape(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    return [
        attempt(tf.scan, lambda a, x: tf.cast(a, tf.int32), e, initializer=tf.constant(0.0)),
        attempt(tf.scan, lambda a, x: tf.concat([a, [x]], 0), e, initializer=tf.constant([0.0])),
        tf.scan(lambda a, x: 2, tf.constant([1, 2]), initializer=tf.constant(0)),
    ]


@case
def cf_scan_gradient(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(e)
        s = tf.scan(lambda a, x: a * x, e)
        r = tf.scan(lambda a, x: a + x * x, e, reverse=True)
        y = tf.reduce_sum(s * tf.constant([1.0, 10.0, 100.0]))
    return [s, r, tape.gradient(y, e), tape.gradient(r, e)]


@case
def cf_scan_second_derivative(tf):
    e = tf.constant([0.3, -0.7, 1.1])
    return derivatives(tf, lambda t: tf.scan(lambda a, x: tf.tanh(a + x), t), e)


# =============================================================================================
# map_fn and vectorized_map
# =============================================================================================
@case
def cf_map_fn_values(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    m = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return [
        tf.map_fn(lambda t: t * t, e),
        tf.map_fn(lambda r: tf.reduce_sum(r), m),
        tf.map_fn(lambda t: (t[0], t[1] * 2), (e, e)),
        tf.map_fn(lambda t: t * 2, np.array([1.0, 2.0])),
        tf.map_fn(lambda t: t * 2, tf.constant([1, 2])),
        tf.map_fn(lambda t: t * 2, tf.Variable([1.0, 2.0])),
        tf.map_fn(lambda r: r[::-1], m),
    ]


@case
def cf_map_fn_output_signature(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    return [
        tf.map_fn(lambda t: tf.cast(t, tf.int32), e, fn_output_signature=tf.int32),
        tf.map_fn(lambda t: tf.cast(t, tf.int32), e, dtype=tf.int32),
        tf.map_fn(
            lambda t: (t, tf.cast(t, tf.int32)), e, fn_output_signature=(tf.float32, tf.int32)
        ),
        tf.map_fn(lambda t: t, e, dtype=tf.float32, fn_output_signature=tf.float32),
        tf.map_fn(lambda t: (t[0] + t[1],), (e, e), fn_output_signature=(tf.float32,)),
    ]


@case
def cf_map_fn_python_results_take_signature_dtype(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    return [
        tf.map_fn(lambda t: 1.0, e),
        tf.map_fn(lambda t: 1, e),
        tf.map_fn(lambda t: 1, e, fn_output_signature=tf.int32),
    ]


@case(message=True)
def cf_map_fn_dtype_errors(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    return [
        attempt(tf.map_fn, lambda t: tf.cast(t, tf.int32), e),
        attempt(tf.map_fn, lambda t: t, e, fn_output_signature=tf.int32),
    ]


@case(message=True)
def cf_map_fn_shape_errors(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    return [
        attempt(tf.map_fn, lambda t: t * 2, tf.constant(1.0)),
        attempt(tf.map_fn, lambda t: t * 2, [1.0, 2.0]),
        attempt(tf.map_fn, lambda t: t[0], (e, tf.constant([1.0, 2.0]))),
        attempt(tf.map_fn, lambda t: tf.ones(tf.cast(t, tf.int32)), e),
    ]


@case
def cf_map_fn_structure_errors(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    return [
        attempt(tf.map_fn, lambda t: t[0] * t[1], (e, e)),
        attempt(tf.map_fn, lambda d: d["a"] + d["b"], {"a": e, "b": e}),
        attempt(tf.map_fn, 3, e),
    ]


@case
def cf_map_fn_empty(tf):
    return [tf.map_fn(lambda t: t * 2, tf.zeros([0, 2])), tf.map_fn(lambda t: t, tf.zeros([0]))]


@case
def cf_map_fn_gradient(tf):
    m = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    w = tf.Variable([0.5, -1.0])
    with tf.GradientTape() as tape:
        tape.watch(m)
        y = tf.map_fn(lambda r: tf.reduce_sum(tf.sin(r) * w), m)
        loss = tf.reduce_sum(y * tf.constant([1.0, 2.0, 3.0]))
    return [y, tape.gradient(loss, [m, w])]


@case
def cf_map_fn_second_derivative(tf):
    e = tf.constant([0.5, 1.5])
    return derivatives(tf, lambda t: tf.map_fn(lambda x: x**3 + tf.exp(x), t), e)


@case
def cf_vectorized_map_values(tf):
    e = tf.constant([1.0, 2.0, 3.0])
    m = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return [
        tf.vectorized_map(lambda t: t * t, e),
        tf.vectorized_map(lambda r: tf.reduce_sum(r), m),
        tf.vectorized_map(lambda t: t[0] * t[1], (e, e)),
        tf.vectorized_map(lambda t: tf.constant(1.0), e),
        tf.vectorized_map(lambda r: tf.matmul(r[None], tf.ones([2, 3])), m),
        tf.vectorized_map(lambda r: tf.reduce_sum(r), m, fallback_to_while_loop=False),
        tf.vectorized_map(lambda t: 1.0, e),
        tf.vectorized_map(lambda t: t * e, e),
        tf.vectorized_map(lambda t: (t, t * 2), e),
    ]


@case
def cf_vectorized_map_edges(tf):
    return [
        tf.vectorized_map(lambda t: t * 2, tf.zeros([0, 2])),
        attempt(tf.vectorized_map, lambda t: t * 2, tf.constant(1.0)),
        attempt(tf.vectorized_map, 3, tf.constant([1.0])),
    ]


@case
def cf_vectorized_map_gradient(tf):
    m = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(m)
        y = tf.vectorized_map(lambda r: tf.reduce_sum(r * r) * r[0], m)
    return [y, tape.gradient(y, m)]


# =============================================================================================
# recompute_grad, grad_pass_through, get_static_value, assignments
# =============================================================================================
@case
def rg_reads_variable(tf):
    x = tf.constant(2.0)
    v = tf.Variable(3.0)
    f = tf.recompute_grad(lambda a: tf.sin(a) * v)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return [y, tape.gradient(y, [x, v])]


@case
def rg_intermediates_not_kept_during_the_forward_call(tf):
    # f reads a variable: no tape (not even the one that hears which variables f reads) keeps
    # f's intermediates alive while f runs
    import weakref

    w = tf.Variable([1.0])
    refs, alive = [], []

    def block(h):
        for _ in range(10):
            h = tf.tanh(h * w)
            refs.append(weakref.ref(h))
        alive.append(sum(r() is not None for r in refs))
        return h

    x = tf.constant([0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(block)(x)
    return [alive[0], y, tape.gradient(y, [x, w])]


@case
def rg_same_tensor_twice_and_dtypes(tf):
    x = tf.constant(2.0)
    xd = tf.constant(2.0, tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, xd])
        y = tf.recompute_grad(lambda a, b: a * b + tf.exp(a))(x, x)
        z = tf.recompute_grad(lambda a, b: tf.cast(a, tf.float64) * b)(x, xd)
    return [y, tape.gradient(y, x), z, tape.gradient(z, [x, xd])]


@case
def rg_second_order(tf):
    x = tf.constant(2.0)
    return derivatives(tf, tf.recompute_grad(lambda a: a**3), x)


@case
def rg_third_order_matrix(tf):
    x = tf.constant([0.5, -1.0])
    w = tf.constant([[1.0, 2.0], [-0.5, 0.3]])
    f = tf.recompute_grad(lambda a: tf.reduce_sum(tf.tanh(tf.matmul(w, a[:, None])) ** 2))
    return derivatives(tf, f, x, order=3)


@case
def rg_several_results(tf):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a = tf.recompute_grad(lambda t: (t * 2, t * 3))(x)
        b = tf.recompute_grad(lambda t: [t * 2, t * t])(x)
    return [a, tape.gradient(a, x), b, tape.gradient(b, x), tape.gradient(b[1], x)]


@case
def rg_arguments(tf):
    x = tf.constant(2.0)
    v = tf.Variable(3.0)
    w = tf.Variable(2.0)
    out = []
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(lambda a, s=1.0: a * s)(x, s=2.0)
    out.append(tape.gradient(y, x))
    with tf.GradientTape() as tape:
        y = tf.recompute_grad(lambda a: a * v)(x)
    out.append(tape.gradient(y, [x, v]))
    with tf.GradientTape() as tape:
        y = tf.recompute_grad(lambda a: a * v)(2.0)
    out += [y, tape.gradient(y, v)]
    with tf.GradientTape() as tape:
        y = tf.recompute_grad(lambda a: a * a)(w)
    out += [y, tape.gradient(y, w)]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(lambda a, n: a * tf.cast(n, tf.float32))(x, tf.constant(3))
    out += [y, tape.gradient(y, x)]
    return out


@case
def rg_unused_variable_gets_zero(tf):
    x = tf.constant(2.0)
    w = tf.Variable(5.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(lambda a: a * 2 + 0 * tf.stop_gradient(w))(x)
    return tape.gradient(y, [x, w])


@case
def rg_runs_f_again_for_the_gradient(tf):
    calls = []
    x = tf.constant(2.0)

    def f(a):
        calls.append(1)
        return a * a

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(f)(x)
    before = len(calls)
    g = tape.gradient(y, x)
    return [before, len(calls), g]


@case
def rg_matches_plain_function(tf):
    x = tf.constant([[0.3, -0.2, 0.9]])
    ws = [
        tf.Variable(np.linspace(-1, 1, 9).reshape(3, 3).astype(np.float32) * (k + 1))
        for k in range(3)
    ]

    def block(h):
        for w in ws:
            h = tf.tanh(h @ w)
        return tf.reduce_sum(h**2)

    out = []
    for f in (block, tf.recompute_grad(block)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        out.append([y, tape.gradient(y, [x] + ws)])
    return out


@case
def gpt_identity_gradient(tf):
    x = tf.constant(2.0)
    w = tf.Variable(2.0)
    out = []
    with tf.GradientTape() as tape:
        y = tf.grad_pass_through(lambda a: tf.round(a * 1.3))(w)
    out += [y, tape.gradient(y, w)]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.grad_pass_through(lambda a: a**2)(x)
    out += [y, tape.gradient(y, x)]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.grad_pass_through(lambda a: tf.reduce_sum(a * tf.ones([3])))(x)
    out += [y, tape.gradient(y, x)]
    return out


@case
def gpt_assign_and_variables(tf):
    w = tf.Variable(2.0)
    v = tf.Variable(3.0)
    x = tf.constant(1.5)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a = tf.grad_pass_through(w.assign)(tf.constant(5.0))
        b = tf.grad_pass_through(lambda t: t * v)(x)
    return [a, tape.gradient(a, w), b, tape.gradient(b, [x, v])]


@case(message=True)
def gpt_several_results(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.grad_pass_through(lambda a: (a**2, a * 3))(x)
    return tape.gradient(y, x)


@case
def gpt_second_order_is_none(tf):
    x = tf.constant(2.0)
    return derivatives(tf, tf.grad_pass_through(lambda a: a**3), x)


@case
def gpt_vector(tf):
    x = tf.constant([0.4, 1.6, -2.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.grad_pass_through(tf.round)(x) * tf.constant([1.0, 2.0, 3.0])
    return [y, tape.gradient(y, x)]


@case
def static_value_eager(tf):
    return [
        tf.get_static_value(tf.constant([1, 2])),
        tf.get_static_value(tf.constant(1.5)),
        tf.get_static_value(tf.Variable(1.0)),
        tf.get_static_value(3),
        tf.get_static_value([1, 2]),
        tf.get_static_value(np.float32(2)),
        tf.get_static_value(None),
        tf.get_static_value(tf.constant(2), partial=True),
        tf.get_static_value(tf.constant([1.0]) * 2),
    ]


@case
def static_value_inside_function(tf):
    @tf.function
    def inside(a):
        return [
            tf.get_static_value(a) is None,
            tf.get_static_value(tf.constant(3.0)),
            tf.get_static_value(a * 2) is None,
            tf.get_static_value(tf.shape(a)),
        ]

    return inside(tf.constant([1.0, 2.0]))


@case
def assign_ops_are_not_differentiable(tf):
    w = tf.Variable(2.0)
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a = w.assign(x * 2)
        y = w * 1.0
        z = w.assign_add(x)
        s = w.assign_sub(x * x)
        u = w * x
    return [
        a,
        tape.gradient(a, [x, w]),
        tape.gradient(y, [x, w]),
        tape.gradient(z, [x, w]),
        tape.gradient(s, [x, w]),
        tape.gradient(u, [x, w]),
    ]


@case
def assign_values_gradient_of_variable_itself(tf):
    w = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        a = w.assign(3.0)
        b = w.assign_add(1.0)
        c = w.assign_sub(0.5)
        y = w * 2
    return [w, tape.gradient(a, w), tape.gradient(b, w), tape.gradient(c, w), tape.gradient(y, w)]


# =============================================================================================
# tf.test.compute_gradient
# =============================================================================================
@case
def cg_shapes_and_dtypes(tf):
    return [
        tf.test.compute_gradient(lambda x: x * x, [tf.constant(3.0)]),
        tf.test.compute_gradient(lambda x, y: x * y, [tf.constant([1.0, 2.0]), tf.constant(3.0)]),
        tf.test.compute_gradient(lambda x: x**3, [tf.constant([1.0, 2.0], tf.float64)]),
        tf.test.compute_gradient(
            lambda x: tf.matmul(x, x), [tf.constant([[1.0, 2.0], [3.0, 4.0]])]
        ),
        tf.test.compute_gradient(lambda x: tf.reduce_sum(x**2), [tf.constant([1.0, 2.0, 3.0])]),
    ]


@case
def cg_float64_sin(tf):
    return tf.test.compute_gradient(
        lambda x: tf.sin(x) * x, [tf.constant([1.0, 2.0, -0.5], tf.float64)]
    )


@case
def cg_arguments(tf):
    return [
        tf.test.compute_gradient(lambda x: x * x, [tf.constant(3.0)], delta=0.1),
        tf.test.compute_gradient(lambda x: x * x, [np.array([1.0, 2.0])]),
        tf.test.compute_gradient(lambda x: x * x, [1.0]),
        tf.test.compute_gradient(lambda x: x * x, (tf.constant(3.0),)),
        tf.test.compute_gradient(lambda x, y: x * 2, [tf.constant(3.0), tf.constant(1.0)]),
        tf.test.compute_gradient(lambda x: x * x, [tf.Variable(3.0)]),
        tf.test.compute_gradient(lambda x: x * x, [tf.constant(3.0, tf.float16)]),
    ]


@case
def while_loop_in_function_second_derivatives(tf):
    # a tf.while_loop traced in a tf.function, differentiated twice: by nested tapes around the
    # call, by one persistent tape (with a variable the body reads), and by nested tapes inside
    # the function, whose trace serves two points
    v = tf.Variable(1.5)

    @tf.function
    def cube(x):
        body = lambda i, y: (i + 1, y * x)  # noqa: E731
        return tf.while_loop(lambda i, y: i < 3, body, [0, tf.constant(1.0)])[1]

    @tf.function
    def mixed(x):
        body = lambda i, y: (i + 1, y * x + v * y)  # noqa: E731
        return tf.while_loop(lambda i, y: i < 3, body, [0, tf.constant(1.0)])[1]

    @tf.function
    def inside(x, n):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                body = lambda i, y: (i + 1, y * x)  # noqa: E731
                y = tf.while_loop(lambda i, y: i < n, body, [0, tf.constant(1.0)])[1]
            g = t1.gradient(y, x)
        return g, t2.gradient(g, x)

    x = tf.constant(2.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = cube(x)
        g = t1.gradient(y, x)
    out = [y, g, t2.gradient(g, x)]
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = mixed(x)
        gx, gv = t.gradient(y, [x, v])
    out += [y, gx, gv, t.gradient(gx, [x, v]), t.gradient(gv, v)]
    out += [inside(x, tf.constant(3)), inside(tf.constant(3.0), tf.constant(4))]
    return out + [inside.experimental_get_tracing_count()]


@case
def while_loop_in_function_from_tfs_while_v2_tests(tf):
    # the patterns of TF's while_v2 tests: two loops in a row, back_prop=False (a graph loop's
    # results stop their gradients; eagerly TF ignores it), a loop variable that grows
    # (shape_invariants) with the tape around and inside, a cond in the body twice
    # differentiated, and a gradient used by a second loop
    x = tf.constant(2.0)

    def grad_of(f, *args):
        with tf.GradientTape() as t:
            t.watch(args[0])
            y = f(*args)
        return [y, t.gradient(y, args[0])]

    @tf.function
    def two_loops(x):
        y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), [0, x])[1]
        return tf.while_loop(lambda i, z: i < 2, lambda i, z: (i + 1, z + y * y), [0, y])[1]

    def no_backprop(x):
        return tf.while_loop(lambda v: v < 100.0, lambda v: (v * x,), (x,), back_prop=False)[0]

    def growing(x):
        i = tf.constant(0)
        invariants = [i.shape, tf.TensorShape([None])]
        body = lambda i, s: (i + 1, tf.concat([s, s * x], 0))  # noqa: E731
        s = tf.while_loop(lambda i, s: i < 3, body, [i, tf.reshape(x, [1])], invariants)[1]
        return tf.reduce_sum(s)

    @tf.function
    def growing_inside(x):
        return grad_of(growing, x)

    @tf.function
    def cond_in_loop(x):
        body = lambda i, y: (i + 1, tf.cond(y > 5.0, lambda: y * 0.5, lambda: y * x))  # noqa: E731
        return tf.while_loop(lambda i, y: i < 4, body, [0, x])[1]

    @tf.function
    def iterated(x):
        g = grad_of(
            lambda x: tf.while_loop(
                lambda i, y: i < 2, lambda i, y: (i + 1, tf.sin(y) * x), [0, x]
            )[1],
            x,
        )[1]
        return grad_of(
            lambda x: tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, y * g), [0, x])[1], x
        )

    with tf.GradientTape() as t2:
        t2.watch(x)
        y, g = grad_of(cond_in_loop, x)
    return [
        grad_of(two_loops, x),
        grad_of(tf.function(no_backprop), x),
        grad_of(no_backprop, x),
        grad_of(tf.function(growing), x),
        growing_inside(x),
        growing_inside(tf.constant(3.0)),
        [y, g, t2.gradient(g, x)],
        iterated(x),
    ]


@case
def while_loop_in_function_from_tfs_control_flow_ops_tests(tf):
    # testWhileGrad_Shape, _BaseShape, _Square (with a cond after the loop) and a body that
    # stops part of its gradient, each with the tape inside a tf.function
    def traced_gradient(loop):
        @tf.function
        def run(x):
            with tf.GradientTape() as t:
                t.watch(x)
                target = loop(x)
            return t.gradient(target, x)

        return run

    def growing(x):  # v is [2.0], then as long as x
        invariants = [tf.TensorShape([]), tf.TensorShape(None)]
        body = lambda i, v: [i + 1, x * v]  # noqa: E731
        return tf.while_loop(lambda i, v: i < 5, body, [0, tf.constant([2.0])], invariants)[1]

    def no_iteration(x):
        r = tf.while_loop(
            lambda v: tf.constant(False), lambda v: [v * x], [tf.constant([2.0, 2.0])]
        )
        return [r, tf.square(x)]

    def square_then_cond(v):
        r = tf.while_loop(lambda v: v < 100.0, tf.square, [v])[0]
        return tf.cond(tf.less(1, 2), lambda: r, lambda: v)

    def partly_stopped(x):
        body = lambda i, v: [i + 1, tf.stop_gradient(v * x) + v]  # noqa: E731
        return tf.while_loop(lambda i, v: i < 3, body, [0, x])[1]

    return [
        traced_gradient(growing)(tf.constant([3.0, 4.0])),
        traced_gradient(no_iteration)(tf.constant([1.0, 2.0])),
        traced_gradient(square_then_cond)(tf.constant(2.0)),
        traced_gradient(partly_stopped)(tf.constant(2.0)),
    ]


@case
def cg_inputs_in_any_memory_layout(tf):
    # numpy inputs that are not C-contiguous: the numerical Jacobian must still move each element
    a = np.array([[1.0, -2.0, 3.0], [0.5, -1.5, 2.5]])
    layouts = [
        np.asfortranarray(a),
        np.ascontiguousarray(a.T).T,
        np.broadcast_to(a[:1], a.shape),
    ]
    return [tf.test.compute_gradient(lambda x: tf.nn.relu(x) * x, [x]) for x in layouts] + [
        tf.test.compute_gradient(lambda x, y: tf.where(x > 0, x, y) * y, [layouts[0], a])
    ]


@case
def cg_errors(tf):
    return [
        attempt(tf.test.compute_gradient, lambda x: x * x, tf.constant(3.0)),
        attempt(tf.test.compute_gradient, lambda x: x * 2, [tf.constant(3)]),
        attempt(tf.test.compute_gradient, lambda x: (x, x), [tf.constant(3.0)]),
    ]


@case(message=True)
def cg_empty_output_gradient_checked_once(tf):
    # an empty y has no rows to check, so TF runs the gradient once and checks its shape and zeros
    @tf.custom_gradient
    def wrong_shape(x):
        return x[:0] * 1.0, lambda dy: tf.ones([2, 2])

    @tf.custom_gradient
    def nonzero(x):
        return x[:0] * 1.0, lambda dy: tf.ones_like(x)

    x = [np.ones(3, np.float32)]
    return [
        tf.test.compute_gradient(lambda v: v[:0] * 2.0, x),
        attempt(tf.test.compute_gradient, wrong_shape, x),
        attempt(tf.test.compute_gradient, nonzero, x),
        type(attempt(tf.test.compute_gradient, lambda v: tf.zeros([0]), x)).__name__,
    ]


@case(message=True)
def cg_integer_argument_message(tf):
    return tf.test.compute_gradient(lambda x: x * 2, [tf.constant(3)])


from . import cases_forwardprop  # noqa: E402, F401  (forward-mode cases, registered on import)
