"""Golden cases for ops and API that TensorFlow's own tests of the tape reach for: reduce_prod
(its gradient at zeros, and the second derivative TF's rule gives there), tan, add_n, cumsum
and cumprod, switch_case, tf.Module and the Keras Conv2D layer."""

import numpy as np

from .cases import attempt, case, derivatives


@case
def reduce_prod_and_its_derivatives_with_zeros(tf):
    # the gradient of a product is the product of the others, zeros included (no division);
    # the second derivative is TF's rule's (its cumprod rule divides by x: 0 where x is 0)
    x = tf.constant([[1.0, 0.0, 3.0], [2.0, 4.0, 0.0]])
    no_zeros = tf.constant([[1.5, -2.0, 0.5], [2.0, 0.25, -1.0]])
    return [
        derivatives(tf, tf.reduce_prod, x),
        derivatives(tf, lambda v: tf.reduce_prod(v, axis=1), x),
        derivatives(tf, lambda v: tf.reduce_prod(v, axis=0, keepdims=True), x),
        derivatives(tf, lambda v: tf.reduce_prod(v, axis=-1), no_zeros),
        derivatives(tf, tf.reduce_prod, tf.constant([0.0, 0.0, 2.0])),
        tf.reduce_prod(tf.constant([2, 3, 4])),
        tf.math.reduce_prod(tf.constant(5.0)),
        attempt(tf.reduce_prod, tf.constant([True])),
    ]


@case
def tan_and_its_derivatives(tf):
    x = tf.constant([-1.0, 0.0, 0.5, 1.2])
    return [derivatives(tf, tf.math.tan, x), tf.tan(tf.constant(0.5, tf.float64))]


@case(message=True)
def add_n_sums_a_list_and_each_input_gets_the_gradient(tf):
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = tf.add_n([a, b, a, [1.0, 1.0]])
    return [
        y,
        tape.gradient(y, [a, b]),
        tf.add_n([a]),
        tf.math.add_n([tf.constant(1), tf.constant(2)]),
        tf.add_n(tf.constant([1.0, 2.0])),
        attempt(tf.add_n, []),
        attempt(tf.add_n, [tf.constant([1.0]), tf.constant([1.0, 2.0])]),
        attempt(tf.add_n, [tf.constant([1.0]), tf.constant([1])]),
    ]


@case
def cumsum_and_cumprod_with_their_derivatives(tf):
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])

    def running(axis, exclusive, reverse):
        return lambda v: (
            tf.math.cumsum(v, axis, exclusive, reverse) ** 2
            + tf.math.cumprod(v, axis, exclusive=exclusive, reverse=reverse)
        )

    out = [
        derivatives(tf, running(axis, exclusive, reverse), x)
        for exclusive in (False, True)
        for reverse in (False, True)
        for axis in (0, 1, -1)
    ]
    out.append(tf.cumsum(tf.constant([1, 2, 3])))
    out.append(attempt(tf.math.cumsum, tf.constant([1.0, 2.0]), axis=3))
    return out


@case(message=True)
def switch_case_runs_one_branch(tf):
    branches = [lambda: tf.constant(10.0), lambda: tf.constant(20.0), lambda: tf.constant(30.0)]
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.switch_case(tf.constant(1), [lambda: x * 2.0, lambda: x * x])
    return [
        y,
        tape.gradient(y, x),
        tf.switch_case(tf.constant(-1), branches),
        tf.switch_case(tf.constant(7), branches, default=lambda: tf.constant(-1.0)),
        tf.switch_case(tf.constant(1, tf.int64), {1: branches[0], 0: branches[1]}),
        tf.switch_case(tf.constant(1), [(0, branches[0]), (1, branches[1])]),
        tf.switch_case(tf.constant(0), [lambda: 3.0, lambda: 4.0]),
        attempt(tf.switch_case, 1, branches),
        attempt(tf.switch_case, tf.constant(0), []),
        attempt(tf.switch_case, tf.constant(0), [1, 2]),
        attempt(tf.switch_case, tf.constant(0), {0: branches[0], 2: branches[1]}),
    ]


@case(message=True)
def module_finds_its_variables_and_submodules(tf):
    class Net(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.z = tf.Variable(1.0, name="z")
            self.a = [
                tf.Variable(2.0, name="a0"),
                {"k": tf.Variable(3.0, name="ak", trainable=False)},
            ]
            self.inner = tf.Module(name="inner")
            self.inner.w = tf.Variable(4.0, name="w")
            self.same = self.z
            self.dense = tf.keras.layers.Dense(1, name="d")  # (a Keras layer is not a Module)
            self.dense(tf.ones((1, 2)))

    net = Net()
    with tf.GradientTape() as tape:
        y = net.z * net.inner.w
    return [
        net.name,
        Net(name="other").name,
        [v.name for v in net.variables],
        [v.name for v in net.trainable_variables],
        [type(m).__name__ for m in net.submodules],
        tape.gradient(y, list(net.trainable_variables)),
        attempt(tf.Module, name="a b"),
    ]


@case
def keras_conv2d_layer(tf):
    x = tf.constant(np.arange(2 * 5 * 5 * 3, dtype=np.float32).reshape(2, 5, 5, 3) / 50)
    valid = tf.keras.layers.Conv2D(2, 3, name="cv", kernel_initializer="ones")
    same = tf.keras.layers.Conv2D(
        4,
        (3, 2),
        strides=2,
        padding="same",
        activation="relu",
        name="cs",
        kernel_initializer=tf.keras.initializers.Constant(0.1),
        bias_initializer="ones",
    )
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(same(valid(x)) ** 2)
    return [
        valid(x).shape,
        [(v.path, tuple(v.shape)) for v in valid.trainable_variables + same.trainable_variables],
        y,
        tape.gradient(y, valid.trainable_variables + same.trainable_variables),
    ]


@case(message=True)
def a_one_shot_tape_refuses_a_second_jacobian_first(tf):
    # TF asks first whether the tape still has its recording: a second jacobian or
    # batch_jacobian on a one-shot tape is its RuntimeError, whatever else is wrong with the
    # call (a list as source, a 1-d target, no pfor); batch_jacobian's words are its own
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])

    def second(call):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        tape.batch_jacobian(y, x)
        return attempt(call, tape, y)

    return [
        second(lambda tape, y: tape.batch_jacobian(y, [x])),
        second(lambda tape, y: tape.batch_jacobian(y[0], x)),
        second(lambda tape, y: tape.batch_jacobian(y, x, experimental_use_pfor=False)),
        second(lambda tape, y: tape.jacobian(y, [x])),
        second(lambda tape, y: tape.jacobian(y, x, experimental_use_pfor=False)),
    ]


@case
def custom_gradient_on_a_method_binds_self(tf):
    # the decorator on a method: self is bound into the function, not taken as an input
    class Scaled:
        def __init__(self):
            self.k = 3.0

        @tf.custom_gradient
        def double(self, x):
            def grad(dy):
                return dy * self.k

            return x * 2.0, grad

    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = Scaled().double(x)
    return [y, tape.gradient(y, x), Scaled.double.__name__]


@case
def function_objects_behave_as_functions(tf):
    # a tf.function keeps the function's name and docstring (an empty one when it has none),
    # and a functools.partial of it works where a function is expected (tf.foldl)
    import functools

    @tf.function
    def product(a, b):
        return a * b

    @tf.function
    def documented(a):
        """Twice a."""
        return 2 * a

    folded = tf.foldl(
        lambda acc, x: functools.partial(product, b=x)(acc),
        tf.constant([1.0, 2.0, 3.0]),
        initializer=tf.constant(1.0),
    )
    return [product.__name__, product.__doc__, documented.__doc__, folded]


# --- a Python list that holds tensors: TF packs it with ops, which a tape records ----------------
@case
def autopack_gradients_reach_the_tensors_in_a_list(tf):
    x = tf.constant(2.0)
    v = tf.Variable(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        results = [
            tf.reduce_sum([x, x * 3]),
            tf.convert_to_tensor([x, 1.0]) * 2.0,
            tf.reduce_sum(tf.stack([[x, 2.0], [3.0, x]])),
            tf.reduce_sum([[x, 2.0], [3.0, x]]),
            tf.reduce_sum(tf.convert_to_tensor([[x, x], [x, x]])),
            tf.matmul([[x, 1.0]], [[x], [2.0]]),
            tf.reduce_sum(tf.convert_to_tensor([v, 2.0], dtype=tf.float64)),
            tf.constant(3.0) * [x, v],
        ]
    grads = [tape.gradient(r, [x, v]) for r in results]
    return [results, grads]


@case
def autopack_inside_a_traced_function_is_replayed(tf):
    @tf.function
    def total(x):
        return tf.reduce_sum([x, x * 3])

    return [
        total(tf.constant(2.0)),
        total(tf.constant(5.0)),
        total.experimental_get_tracing_count(),
    ]


@case
def autopack_forward_mode(tf):
    x = tf.constant(2.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = tf.reduce_sum([x * x, 3.0])
    return [y, acc.jvp(y)]


# --- ops whose arguments become values of a new tensor: fill, linspace, range, eye, ones ------
@case
def fill_and_linspace_gradients(tf):
    x = tf.constant(2.0)
    start = tf.constant([0.0, 1.0, 2.0])
    stop = tf.constant(4.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, start, stop])
        filled = tf.fill([2, 3], x) * tf.constant([1.0, 2.0, 3.0])
        grid = tf.linspace(x, 10.0, 5) ** 2
        wide = tf.linspace(start, stop, 4, axis=-1) * tf.constant([1.0, -1.0, 2.0, 0.5])
        two = tf.linspace(x, stop, 2)
    return [
        filled,
        tape.gradient(filled, x),
        grid,
        tape.gradient(grid, x),
        wide,
        tape.gradient(wide, [start, stop]),
        tape.gradient(two, [x, stop]),
    ]


@case
def fill_forward_mode(tf):
    x = tf.constant(2.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = tf.reduce_sum(tf.fill([3], x) * x)
    return [y, acc.jvp(y)]


@case
def traced_function_with_value_arguments_to_creation_ops(tf):
    # range's limit, eye's size, ones' shape and fill's value from the function's arguments:
    # the second call must use its own values, not the first call's
    outs = []
    for fn in (
        lambda n: tf.reduce_sum(tf.range(n)),
        lambda n: tf.reduce_sum(tf.eye(n)),
        lambda n: tf.reduce_sum(tf.ones([n, 2])),
        lambda n: tf.reduce_sum(tf.fill([2], tf.cast(n, tf.float32))),
        lambda n: tf.reduce_sum(tf.linspace(0.0, tf.cast(n, tf.float32), 3)),
    ):
        f = tf.function(fn)
        outs.append([f(tf.constant(4)), f(tf.constant(6))])
    return outs


@case  # (TF's message adds where in the user's code: compared by class)
def function_constant_of_a_traced_tensor_is_refused(tf):
    # inside tf.function an argument is a graph tensor: tf.constant cannot copy it (a replay
    # would repeat the traced value); a tensor from outside is fine
    outside = tf.constant([3.0])

    @tf.function
    def copies(x):
        return tf.constant(x) * 1.0

    @tf.function
    def uses_outside(x):
        return tf.constant(outside) + x

    return [attempt(copies, tf.constant(2.0)), uses_outside(tf.constant(1.0))]


@case(message=True)
def keras_variable_attributes(tf):
    # the attributes of a layer's Keras 3 variable that code reads, with Keras' defaults and checks
    layer = tf.keras.layers.Dense(3)
    layer.build((None, 2))
    k = layer.kernel
    before = [k.ndim, layer.bias.ndim, k.constraint, k.regularizer, k.aggregation]
    before += [k.synchronization, k.overwrite_with_gradient]
    k.overwrite_with_gradient = True
    k.regularizer = abs
    return before + [
        k.overwrite_with_gradient,
        k.regularizer is abs,
        attempt(setattr, k, "overwrite_with_gradient", 1),
        attempt(setattr, k, "regularizer", 0.1),
        attempt(setattr, k, "constraint", "max_norm"),
    ]


@case(message=True)
def keras_variable_assigns_as_keras_computes(tf):
    # Keras 3 casts a value of another dtype, broadcasts in assign_add/assign_sub (self + x),
    # checks assign's shape itself, and returns the value it assigned
    layer = tf.keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="zeros", name="d")
    layer.build((None, 2))
    b, k = layer.bias, layer.kernel
    out = [b.assign(tf.constant([1.0, 2.0, 3.0], tf.float64))]
    out.append(b.assign_add(tf.constant([0.5, 0.25, 1e-9], tf.float64)))
    out.append(b.assign_sub(tf.constant(1.0, tf.float64)))
    out.append(b.assign_add(tf.constant([1, 2, 3])))
    out.append(b.assign_add(1))
    out.append(k.assign_add(tf.constant([1.0, 2.0, 3.0])))
    out.append(k.assign_sub([[1.0], [2.0]]))
    out += [b.numpy(), k.numpy()]
    out.append(attempt(b.assign, tf.constant(5.0)))
    out.append(type(attempt(b.assign_add, tf.constant([5.0, 1.0]))).__name__)
    return out


@case
def switch_case_default_and_vectorized_map_sizes(tf):
    # a default that is not None is called for an index out of range, whatever it is; and
    # vectorized_map over elements of different lengths fails gathering from the shorter one
    branches = [lambda: tf.constant(1.0), lambda: tf.constant(2.0)]
    return [
        tf.switch_case(tf.constant(5), branches),
        tf.switch_case(tf.constant(0), branches, default=[]),
        type(attempt(tf.switch_case, tf.constant(5), branches, default=[])).__name__,
        type(attempt(tf.switch_case, tf.constant(-1), branches, default=0)).__name__,
        tf.vectorized_map(lambda a: a[0] * a[1], (tf.ones([3]), tf.ones([3]) * 2.0)),
        type(
            attempt(tf.vectorized_map, lambda a: a[0] + a[1], (tf.ones([3]), tf.ones([4])))
        ).__name__,
        type(
            attempt(tf.vectorized_map, lambda a: a[0] + a[1], (tf.ones([4]), tf.ones([2])))
        ).__name__,
    ]


@case
def keras_clear_session_names_layers_from_scratch(tf):
    tf.keras.layers.Dense(1)
    before = tf.keras.layers.Dense(1).name != "dense"
    tf.keras.backend.clear_session()
    first = tf.keras.layers.Dense(1).name
    tf.keras.utils.clear_session()
    return [before, first, tf.keras.layers.Dense(1).name, tf.keras.layers.Dense(1).name]


@case
def keras_compile_metrics_as_a_dict_for_the_one_output(tf):
    tf.keras.backend.clear_session()
    tf.keras.utils.set_random_seed(0)
    inp = tf.keras.Input((2,))
    model = tf.keras.Model(inp, tf.keras.layers.Dense(1, name="out")(inp))
    x, y = np.ones((4, 2), np.float32), np.ones((4, 1), np.float32)
    model.compile(optimizer="sgd", loss="mse", metrics={"out": ["mae"]})
    metrics = model.fit(x, y, epochs=2, verbose=0, shuffle=False).history
    model.compile(optimizer="sgd", loss="mse", weighted_metrics={"out": "mae"})
    weighted = model.fit(x, y, epochs=1, verbose=0, shuffle=False).history
    return [metrics, weighted]


@case
def keras_fit_adds_the_regularizer_losses(tf):
    # compute_loss adds sum(model.losses) (kernel, bias and activity regularizers) to the
    # compiled loss, in fit and in evaluate, as Keras 3 does
    tf.keras.backend.clear_session()
    tf.keras.utils.set_random_seed(1)
    l2 = tf.keras.regularizers.l2
    model = tf.keras.Sequential(
        [
            tf.keras.Input((3,)),
            tf.keras.layers.Dense(4, activation="relu", kernel_regularizer=l2(0.01)),
            tf.keras.layers.Dense(1, bias_regularizer="l1", activity_regularizer=l2(0.1)),
        ]
    )
    x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3)
    y = np.arange(8, dtype=np.float32).reshape(8, 1) / 8
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, epochs=3, batch_size=4, verbose=0, shuffle=False).history
    return [history, model.evaluate(x, y, verbose=0)]


@case(message=True)
def keras_variables_wherever_a_tape_takes_a_tensor(tf):
    # the TF guide's Jacobian of a layer's kernel, and the other places a tape takes a tensor:
    # a layer's Keras 3 variable is read as the tf.Variable it holds
    tf.keras.backend.clear_session()
    tf.keras.utils.set_random_seed(2)
    layer = tf.keras.layers.Dense(3, activation="sigmoid")
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape(persistent=True) as tape:
        y = layer(x)
    return [
        tape.jacobian(y, layer.kernel),
        tape.jacobian(y, layer.trainable_variables),
        tape.gradient(layer.kernel, layer.kernel),
        tape.gradient(y, {"k": layer.kernel, "b": layer.bias}),
        attempt(tape.batch_jacobian, y, layer.kernel),
    ]
