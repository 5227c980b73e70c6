"""Golden cases: a gather's gradient as `tf.IndexedSlices`, and what takes one.

The gradient of `tf.gather` (axis 0, no batch dimensions), of `tf.nn.embedding_lookup` and of
an Embedding layer's table is an IndexedSlices in TF: `_slices` gives its parts (the record
cannot describe the object itself). Where slices meet a dense gradient, or an op's gradient,
the result is dense; Keras 3's optimizers update from them as Keras computes on TF (a
repeated index's rows are squared one by one in Adam's, RMSprop's and Adagrad's second
moments), and the clipping functions clip their values.
"""

import numpy as np

from .cases import attempt, case

TABLE = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


def _slices(tf, g):
    """An IndexedSlices as [its class name, values, indices, dense_shape, dense value]."""
    if g is None or type(g).__name__ != "IndexedSlices":
        return g
    return [type(g).__name__, g.values, g.indices, g.dense_shape, tf.convert_to_tensor(g)]


@case
def sparse_gather_gradient_of_a_variable_is_indexed_slices(tf):
    v = tf.Variable(TABLE)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(v, [0, 2, 0]) ** 2)
    g = tape.gradient(loss, v)
    return [_slices(tf, g), g.shape, g.dtype, str(g), str(-g)]


@case
def sparse_gather_gradient_of_a_watched_constant(tf):
    c = tf.constant(TABLE)
    out = []
    for indices in ([[1, 0]], tf.constant([2, 2], tf.int64), 1):
        with tf.GradientTape() as tape:
            tape.watch(c)
            loss = tf.reduce_sum(tf.gather(c, indices) * 3.0)
        out.append(_slices(tf, tape.gradient(loss, c)))
    return out


@case
def sparse_gather_along_other_axes_has_a_dense_gradient(tf):
    c = tf.constant(TABLE)
    stacked = tf.constant([TABLE, TABLE])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([c, stacked])
        along_1 = tf.reduce_sum(tf.gather(c, [1, 1], axis=1))
        batched = tf.reduce_sum(tf.gather(stacked, [[1, 0], [2, 2]], batch_dims=1))
        sorted_ = tf.reduce_sum(tf.sort(c[:, 0]) * [1.0, 2.0, 3.0])
        repeated = tf.reduce_sum(tf.repeat(c, [2, 0, 1], axis=0))
    return [
        tape.gradient(along_1, c),
        tape.gradient(batched, stacked),
        tape.gradient(sorted_, c),
        tape.gradient(repeated, c),
    ]


@case
def sparse_embedding_lookup_and_embedding_layer_gradients(tf):
    table = tf.Variable(TABLE)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.embedding_lookup(table, [[2, 0], [2, 2]]) ** 2)
    lookup = tape.gradient(loss, table)
    tf.keras.utils.set_random_seed(1)
    emb = tf.keras.layers.Embedding(4, 2, name="emb")
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(emb(tf.constant([1, 3, 1])) * [1.0, -2.0])
    layer = tape.gradient(loss, emb.trainable_variables)
    return [_slices(tf, lookup), [_slices(tf, g) for g in layer]]


@case
def sparse_slices_of_two_paths_concatenate(tf):
    v = tf.Variable(TABLE)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(v, [1])) + tf.reduce_sum(tf.gather(v, [2, 2]) * 3.0)
    return _slices(tf, tape.gradient(loss, v))


@case
def sparse_slices_of_two_paths_through_one_tensor(tf):
    v = tf.Variable(TABLE)
    with tf.GradientTape() as tape:
        a = v.read_value()
        loss = tf.reduce_sum(tf.gather(a, [1])) + tf.reduce_sum(tf.gather(a, [2, 2]) * 3.0)
    return _slices(tf, tape.gradient(loss, v))


@case
def sparse_slices_and_a_dense_gradient_add_up_dense(tf):
    v = tf.Variable(TABLE)
    with tf.GradientTape(persistent=True) as tape:
        both = tf.reduce_sum(tf.gather(v, [1])) + tf.reduce_sum(v * v)
        through_mul = tf.reduce_sum(tf.gather(v * 2.0, [1, 1]))
        int64_and_int32 = tf.reduce_sum(tf.gather(v, [0])) + tf.reduce_sum(
            tf.gather(v, tf.constant([1], tf.int64))
        )
        row = tf.gather(v, [2])
    mixed = tape.gradient(int64_and_int32, v)
    return [
        tape.gradient(both, v),
        tape.gradient(through_mul, v),
        tape.gradient([both, through_mul], v),
        _slices(tf, mixed),
        tape.gradient(row, v, output_gradients=tf.constant([[2.0, 3.0]])).values,
    ]


@case
def sparse_second_order_through_gather(tf):
    x = tf.constant(TABLE)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            loss = tf.reduce_sum(tf.gather(x, [0, 2, 0]) ** 3)
        g = inner.gradient(loss, x)
        dense = tf.reduce_sum(tf.convert_to_tensor(g) * [1.0, -1.0])
        of_values = tf.reduce_sum(g.values)
    return [
        _slices(tf, g),
        _slices(tf, outer.gradient(dense, x)),
        _slices(tf, outer.gradient(of_values, x)),
    ]


@case(message=True)
def sparse_conversions_and_what_refuses_slices(tf):
    v = tf.Variable(TABLE)
    with tf.GradientTape(persistent=True) as tape:
        y = tf.gather(v, [2, 0, 2])
        loss = tf.reduce_sum(y * y)
    g = tape.gradient(loss, v)
    no_shape = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([0]))
    return [
        tf.convert_to_tensor(g),
        tf.math.add_n([g, g]),
        tf.math.add_n([g, tf.ones((3, 2))]),
        tf.add(g, g),
        tf.reduce_sum(g),
        tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([2, 2])).shape,
        attempt(lambda: g + g),
        attempt(lambda: g * 2.0),
        attempt(tf.convert_to_tensor, no_shape),
        attempt(tf.convert_to_tensor, g, tf.float64),
        attempt(tape.gradient, g, v),
    ]


@case
def sparse_clip_by_norm_and_by_global_norm(tf):
    v = tf.Variable(TABLE)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(v, [0, 2, 0]) ** 2)
    g = tape.gradient(loss, v)
    clipped, norm = tf.clip_by_global_norm([g, tf.constant([1.0]), None], 1.0)
    return [
        _slices(tf, tf.clip_by_norm(g, 1.0)),
        [_slices(tf, c) for c in clipped],
        norm,
        tf.linalg.global_norm([g]),
    ]


OPTIMIZERS = {
    "sgd": lambda tf: tf.keras.optimizers.SGD(0.1),
    "sgd_momentum": lambda tf: tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True),
    "adam": lambda tf: tf.keras.optimizers.Adam(0.1),
    "rmsprop": lambda tf: tf.keras.optimizers.RMSprop(0.1),
    "rmsprop_centered": lambda tf: tf.keras.optimizers.RMSprop(0.1, momentum=0.5, centered=True),
    "adagrad": lambda tf: tf.keras.optimizers.Adagrad(0.1),
    "adamw": lambda tf: tf.keras.optimizers.AdamW(0.05, weight_decay=0.1, amsgrad=True),
    "adam_clipnorm": lambda tf: tf.keras.optimizers.Adam(0.1, global_clipnorm=1.0),
}


def _steps(tf, make, sparse):
    v = tf.Variable(TABLE)
    opt = make(tf)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(v, [1, 1, 2]) ** 2)
        g = tape.gradient(loss, v)
        opt.apply_gradients([(g if sparse else tf.convert_to_tensor(g), v)])
    return v


for _name, _make in OPTIMIZERS.items():

    def _optimizer_case(tf, make=_make):
        return [_steps(tf, make, sparse=True), _steps(tf, make, sparse=False)]

    case(_optimizer_case, name=f"sparse_keras_{_name}_applies_slices_as_keras_does")


@case(rtol=1e-5)  # (the losses are float32 values, given as Python floats)
def sparse_keras_fit_of_an_embedding_model(tf):
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential(
        [
            tf.keras.Input((2,), dtype="int32"),
            tf.keras.layers.Embedding(5, 3, name="emb"),
            tf.keras.layers.Flatten(name="flat"),
            tf.keras.layers.Dense(1, name="out"),
        ]
    )
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    x = np.array([[0, 1], [1, 1], [4, 2], [3, 3]], np.int32)
    y = np.array([[1.0], [0.0], [-1.0], [2.0]], np.float32)
    history = model.fit(x, y, epochs=3, batch_size=2, shuffle=False, verbose=0)
    return [history.history["loss"], model.get_layer("emb").embeddings.numpy()]


@case
def sparse_forward_mode_through_gather_and_reverse_over_it(tf):
    x = tf.constant(TABLE)
    with tf.autodiff.ForwardAccumulator(
        x, tf.constant([[1.0, 2.0], [3.0, 5.0], [0.5, 0.0]])
    ) as acc:
        y = tf.gather(x, [1, 1, 0]) * 2.0
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as inner:
            z = tf.gather(x, [2, 2, 0]) ** 2
        jvp = inner.jvp(z)
    return [acc.jvp(y), _slices(tf, tape.gradient(jvp, x))]


@case
def sparse_slices_returned_by_a_traced_function(tf):
    # a tf.function returns a gather's gradient as IndexedSlices, as it was made; Adam then
    # updates from them sparsely (the row given twice counts twice)
    p = tf.Variable(np.arange(8.0, dtype=np.float32).reshape(4, 2))

    @tf.function
    def f(i):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(p, i) ** 2)
        return {"g": tape.gradient(y, p), "y": y}

    out = []
    for i in ([0, 2], [1, 1]):
        r = f(tf.constant(i))
        out.append([type(r["g"]).__name__, r["g"].values, r["g"].indices, r["g"].dense_shape])
    tf.keras.optimizers.Adam(0.1).apply_gradients([(f(tf.constant([1, 1]))["g"], p)])
    return [out, p, f.experimental_get_tracing_count()]
