"""Golden cases: the Keras layers the TF tutorials use, the functional API and regularizers.

Every layer is named (Keras numbers unnamed layers in the order a program makes them, so a
name would depend on the cases run before) and every random start is seeded with
`tf.keras.utils.set_random_seed`, so the initial weights and the dropout masks are TF's own.
A gradient of an Embedding's table is an IndexedSlices in TF: the cases give it through
`tf.convert_to_tensor`, its dense value.
"""

import numpy as np

from .cases import attempt, case


def _x(tf, *shape):
    """A fixed float32 input with distinct values of both signs."""
    n = int(np.prod(shape))
    return tf.constant(((np.arange(n) * 7 % 11) - 5.0).reshape(shape) / 4.0, tf.float32)


def _grads(tf, layer, x, training=None):
    """[output, d sum(output**2) / d [x, trainable variables...]]."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        kwargs = {} if training is None else {"training": training}
        y = layer(x, **kwargs)
        loss = tf.reduce_sum(y * y)
    return [y, tape.gradient(loss, [x] + list(layer.trainable_variables))]


@case
def keras_layers_flatten_and_reshape(tf):
    x = _x(tf, 2, 3, 2)
    flat = tf.keras.layers.Flatten(name="flat")
    reshape = tf.keras.layers.Reshape((2, -1), name="reshape")
    return [
        _grads(tf, flat, x),
        _grads(tf, reshape, x),
        tf.keras.layers.Reshape((3, 4), name="r34")(tf.ones((2, 12))).shape,
        attempt(tf.keras.layers.Reshape, (-1, -1), name="bad"),
    ]


@case
def keras_layers_activations(tf):
    x = _x(tf, 2, 5)
    return [
        _grads(tf, tf.keras.layers.ReLU(name="relu"), x),
        _grads(tf, tf.keras.layers.ReLU(max_value=0.6, negative_slope=0.1, name="r2"), x),
        _grads(tf, tf.keras.layers.LeakyReLU(name="leaky"), x),
        _grads(tf, tf.keras.layers.LeakyReLU(negative_slope=0.2, name="leaky2"), x),
        _grads(tf, tf.keras.layers.Activation("tanh", name="act"), x),
        attempt(tf.keras.layers.ReLU, max_value=-1.0),
        attempt(tf.keras.layers.LeakyReLU, negative_slope=-0.1),
    ]


@case
def keras_dropout_seeded_masks(tf):
    tf.keras.utils.set_random_seed(0)
    drop = tf.keras.layers.Dropout(0.5, name="drop")
    x = _x(tf, 3, 4)
    first = _grads(tf, drop, x, training=True)
    second = drop(x, training=True)
    return [
        first,
        second,
        drop(x),
        drop(x, training=False),
        [v.numpy() for v in drop.variables],
        [len(drop.weights), len(drop.non_trainable_variables)],
        tf.keras.layers.Dropout(0.3, noise_shape=(1, 4), seed=7, name="d3")(x, training=True),
        tf.keras.layers.Dropout(0.0, name="d0")(x, training=True),
        attempt(tf.keras.layers.Dropout, 1.5),
    ]


@case
def keras_dropout_inherits_training(tf):
    """A Dropout called inside a subclassed model's call without `training` gets the model's."""

    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__(name="net")
            self.dense = tf.keras.layers.Dense(4, name="dense", kernel_initializer="ones")
            self.drop = tf.keras.layers.Dropout(0.5, seed=3, name="drop")

        def call(self, x, training=False):
            return self.drop(self.dense(x))

    net = Net()
    x = _x(tf, 2, 3)
    return [net(x), net(x, training=True), net(x, training=False)]


@case
def keras_batchnorm_training_and_inference(tf):
    bn = tf.keras.layers.BatchNormalization(name="bn")
    x = _x(tf, 4, 3) * tf.constant([1.0, 2.0, 3.0]) + tf.constant([0.5, -1.0, 2.0])
    training = _grads(tf, bn, x, training=True)
    after_one = [v.numpy() for v in bn.weights]
    bn(x, training=True)
    return [
        training,
        after_one,
        [v.numpy() for v in bn.non_trainable_weights],
        _grads(tf, bn, x),
        [[v.name, v.path, v.trainable] for v in bn.weights],
        [v.path for v in bn.trainable_variables],
    ]


@case
def keras_batchnorm_options_and_frozen(tf):
    x = _x(tf, 2, 3, 2)
    bn = tf.keras.layers.BatchNormalization(
        axis=1, momentum=0.5, epsilon=0.01, center=False, name="bn1"
    )
    out = _grads(tf, bn, x, training=True)
    frozen = tf.keras.layers.BatchNormalization(name="bn2")
    frozen(x)
    frozen.trainable = False
    y = frozen(x + 1.0, training=True)
    return [
        out,
        [v.numpy() for v in bn.weights],
        y,
        [v.numpy() for v in frozen.weights],
        [len(frozen.trainable_weights), len(frozen.non_trainable_weights)],
    ]


@case
def keras_layernorm(tf):
    x = _x(tf, 2, 3, 4)
    last = tf.keras.layers.LayerNormalization(name="ln")
    both = tf.keras.layers.LayerNormalization(axis=[1, 2], epsilon=0.1, name="ln2")
    return [
        _grads(tf, last, x),
        _grads(tf, both, x),
        [v.path for v in both.weights],
        [v.shape for v in both.weights],
    ]


@case
def keras_embedding_seeded_lookup(tf):
    tf.keras.utils.set_random_seed(1)
    emb = tf.keras.layers.Embedding(5, 3, name="emb")
    ids = tf.constant([[0, 2], [4, 2]])
    with tf.GradientTape() as tape:
        y = emb(ids)
        loss = tf.reduce_sum(y * y)
    g = tape.gradient(loss, emb.embeddings)
    return [
        y,
        emb.embeddings.numpy(),
        tf.convert_to_tensor(g),
        emb(np.array([1.0, -1.0])),
        emb.embeddings.path,
        attempt(tf.keras.layers.Embedding, 0, 3),
    ]


@case
def keras_merge_and_global_pooling(tf):
    a, b = _x(tf, 2, 3), _x(tf, 2, 3) * 2.0 + 1.0
    images = _x(tf, 2, 2, 3, 2)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b, images])
        cat = tf.keras.layers.Concatenate(name="cat")([a, b])
        cat0 = tf.keras.layers.Concatenate(axis=0, name="cat0")([a, b])
        total = tf.keras.layers.Add(name="add")([a, b, a])
        pooled = tf.keras.layers.GlobalAveragePooling2D(name="gap")(images)
        kept = tf.keras.layers.GlobalAveragePooling2D(keepdims=True, name="gap2")(images)
    return [
        [cat, cat0, total, pooled, kept],
        tape.gradient(tf.reduce_sum(cat * cat), [a, b]),
        tape.gradient(tf.reduce_sum(total * total), [a, b]),
        tape.gradient(tf.reduce_sum(pooled * pooled), images),
    ]


@case
def keras_functional_model(tf):
    tf.keras.utils.set_random_seed(0)
    inputs = tf.keras.Input(shape=(3,), name="features")
    h = tf.keras.layers.Dense(4, activation="relu", name="hidden")(inputs)
    h = tf.keras.layers.BatchNormalization(name="norm")(h)
    h = tf.keras.layers.Dropout(0.25, name="drop")(h)
    outputs = tf.keras.layers.Dense(1, name="out")(h)
    model = tf.keras.Model(inputs, outputs, name="mlp")
    x = _x(tf, 5, 3)
    with tf.GradientTape() as tape:
        y = model(x, training=True)
        loss = tf.reduce_mean(y * y)
    return [
        [inputs.shape, h.shape, outputs.shape, inputs.dtype],
        [layer.name for layer in model.layers],
        [v.path for v in model.weights],
        [v.path for v in model.trainable_variables],
        [v.path for v in model.non_trainable_weights],
        y,
        tape.gradient(loss, model.trainable_variables),
        model(x),
        model.predict(x, verbose=0),
    ]


@case
def keras_functional_multi_input_output_and_nested(tf):
    tf.keras.utils.set_random_seed(2)
    a = tf.keras.Input(shape=(2,), name="a")
    b = tf.keras.Input(shape=(3,), name="b")
    joined = tf.keras.layers.Concatenate(name="join")([a, b])
    first = tf.keras.layers.Dense(2, name="first")(joined)
    second = tf.keras.layers.Dense(1, name="second")(tf.keras.layers.Add(name="sum")([a, first]))
    inner = tf.keras.Model([a, b], [first, second], name="inner")
    x = tf.keras.Input(shape=(2,), name="x")
    y = tf.keras.Input(shape=(3,), name="y")
    p, q = inner([x, y])
    outer = tf.keras.Model({"x": x, "y": y}, q, name="outer")
    xs, ys = _x(tf, 2, 2), _x(tf, 2, 3)
    with tf.GradientTape() as tape:
        out = outer({"x": xs, "y": ys})
        loss = tf.reduce_sum(out)
    return [
        inner([xs, ys]),
        out,
        [v.path for v in outer.trainable_variables],
        tape.gradient(loss, outer.trainable_variables),
        [layer.name for layer in inner.layers],
        [layer.name for layer in outer.layers],
        p.shape,
    ]


@case
def keras_sequential_with_input(tf):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential(
        [
            tf.keras.Input(shape=(2,)),
            tf.keras.layers.Dense(3, name="d1"),
            tf.keras.layers.LeakyReLU(name="lr"),
            tf.keras.layers.Dense(1, name="d2"),
        ],
        name="seq",
    )
    return [
        [layer.name for layer in model.layers],
        [v.path for v in model.weights],
        model(_x(tf, 2, 2)),
    ]


@case
def keras_trainable_false(tf):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential(
        [tf.keras.layers.Dense(2, name="a"), tf.keras.layers.Dense(1, name="b")], name="s"
    )
    x = _x(tf, 3, 2)
    model(x)
    model.layers[0].trainable = False
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x))
    frozen = [v.path for v in model.trainable_variables]
    grads = tape.gradient(loss, model.trainable_variables)
    watched = sorted(v.name for v in tape.watched_variables())
    model.trainable = False
    all_frozen = [len(model.trainable_variables), len(model.non_trainable_variables)]
    model.trainable = True
    return [frozen, grads, watched, all_frozen, len(model.trainable_variables)]


@case
def keras_regularizers(tf):
    w = tf.constant([[1.0, -2.0], [0.5, 3.0]])
    w64 = tf.cast(w, tf.float64)
    r = tf.keras.regularizers
    return [
        r.l1(0.1)(w),
        r.l2(0.1)(w),
        r.l1_l2(l1=0.1, l2=0.2)(w),
        r.L1L2()(w),
        r.l1(0.1)(w64),
        r.l2(0.1)(w64),
        r.get("l2")(w),
        r.get("L1")(w),
        attempt(lambda: r.get("l1_l2")(w)),
        attempt(r.get, "nope"),
        attempt(r.l2, -1.0),
        r.get(None),
    ]


@case
def keras_model_losses(tf):
    tf.keras.utils.set_random_seed(0)

    class Noisy(tf.keras.layers.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x) * 0.01)
            return x

    inputs = tf.keras.Input(shape=(2,))
    h = tf.keras.layers.Dense(
        3,
        kernel_regularizer=tf.keras.regularizers.l2(0.1),
        bias_regularizer="l1",
        activity_regularizer=tf.keras.regularizers.l1(0.05),
        name="reg",
    )(inputs)
    out = tf.keras.layers.Dense(1, name="plain")(Noisy(name="noisy")(h))
    model = tf.keras.Model(inputs, out)
    before = len(model.losses)
    x = _x(tf, 4, 2)
    with tf.GradientTape() as tape:
        y = model(x, training=True)
        losses = model.losses
        total = tf.reduce_sum(y) + tf.add_n(losses)
    first = [losses, len(losses)]
    model(x)
    return [
        before,
        first,
        len(model.losses),
        tape.gradient(total, model.trainable_variables),
        attempt(tf.keras.layers.Layer(name="l").add_loss, 1.0),
    ]


def _summary(model, **kwargs):
    lines = []
    model.summary(print_fn=lambda text, **kw: lines.append(text), **kwargs)
    return lines


@case(message=True)
def keras_model_summary_tables(tf):
    tf.keras.utils.set_random_seed(0)
    inputs = tf.keras.Input(shape=(3,), name="features")
    h = tf.keras.layers.Dense(4, activation="relu", name="hidden")(inputs)
    h = tf.keras.layers.BatchNormalization(name="norm")(h)
    chain = tf.keras.Model(inputs, tf.keras.layers.Dense(1, name="out")(h), name="mlp")
    a = tf.keras.Input(shape=(2,), name="a")
    b = tf.keras.Input(shape=(3,), name="b")
    joined = tf.keras.layers.Concatenate(name="join")([a, b])
    graph = tf.keras.Model([a, b], tf.keras.layers.Dense(1, name="o")(joined), name="two")
    seq = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(3, name="d1")], name="s")
    unbuilt = tf.keras.Sequential([tf.keras.layers.Dense(3, name="d9")], name="unbuilt")

    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__(name="net")
            self.flat = tf.keras.layers.Flatten(name="flat")
            self.d = tf.keras.layers.Dense(2, name="dd")

        def call(self, x):
            return self.d(self.flat(x))

    net = Net()
    net(tf.ones((1, 3, 1)))
    return [
        _summary(chain, line_length=76),
        _summary(graph, line_length=76),
        _summary(seq, line_length=76),
        _summary(seq, line_length=60),
        _summary(unbuilt, line_length=76),
        _summary(net, line_length=90),
        _summary(unbuilt, line_length=60),
        _summary(
            tf.keras.Sequential(
                [tf.keras.layers.Dense(3, name="a_long_name_for_a_dense")], name="l"
            ),
            line_length=50,
        ),
    ]


@case
def keras_conv2d_transpose(tf):
    tf.keras.utils.set_random_seed(3)
    x = _x(tf, 2, 3, 3, 2)
    same = tf.keras.layers.Conv2DTranspose(4, 3, strides=2, padding="same", name="up")
    valid = tf.keras.layers.Conv2DTranspose(
        1, (2, 3), strides=(2, 1), activation="tanh", name="up2", bias_initializer="ones"
    )
    filters = tf.reshape(tf.range(3 * 3 * 4 * 2, dtype=tf.float32), (3, 3, 4, 2)) / 20.0
    with tf.GradientTape() as tape:
        tape.watch([x, filters])
        y = tf.nn.conv2d_transpose(x, filters, (2, 7, 7, 4), 2, "VALID")
        loss = tf.reduce_sum(y * y)
    return [
        _grads(tf, same, x),
        _grads(tf, valid, x),
        [v.shape for v in same.weights],
        tf.nn.conv2d_transpose(x, filters, [2, 6, 6, 4], [1, 2, 2, 1], "SAME"),
        y,
        tape.gradient(loss, [x, filters]),
    ]


@case
def keras_normalization_second_derivatives(tf):
    """tf.nn.moments holds the mean constant in the variance: TF's second derivatives are not
    the exact ones, and minitape's are TF's."""
    ln = tf.keras.layers.LayerNormalization(name="ln")
    bn = tf.keras.layers.BatchNormalization(name="bn")
    x = _x(tf, 3, 4)
    out = []
    for f in (lambda t: ln(t), lambda t: bn(t, training=True)):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(f(x) ** 3)
            g = inner.gradient(y, x)
            s = tf.reduce_sum(g * g)
        out.append([g, outer.gradient(s, x)])
    return out


@case
def keras_pooling_layers_and_ops(tf):
    x = _x(tf, 2, 5, 4, 2)
    ties = tf.constant([[[[1.0], [1.0]], [[0.0], [1.0]]]])
    out = []
    for layer in (
        tf.keras.layers.MaxPooling2D(name="mp"),
        tf.keras.layers.MaxPooling2D((3, 2), strides=(2, 1), padding="same", name="mp2"),
        tf.keras.layers.AveragePooling2D((2, 2), name="ap"),
        tf.keras.layers.AveragePooling2D(3, strides=2, padding="same", name="ap2"),
        tf.keras.layers.GlobalMaxPooling2D(name="gmp"),
    ):
        out.append(_grads(tf, layer, x))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.nn.max_pool2d(x, 2, 1, "SAME") ** 2)
        g = inner.gradient(y, x)
        s = tf.reduce_sum(g * g)
    with tf.GradientTape() as tape:
        tape.watch(ties)
        m = tf.nn.max_pool2d(ties, 2, 2, "VALID")
    return [
        out,
        [g, outer.gradient(s, x)],
        [m, tape.gradient(m, ties)],
        tf.nn.avg_pool2d(x, [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
        attempt(tf.keras.layers.AveragePooling2D),
    ]


@case
def keras_image_layers_lambda_and_extras(tf):
    x = _x(tf, 1, 3, 4, 2)
    out = [
        _grads(tf, tf.keras.layers.UpSampling2D((2, 3), name="up"), x),
        _grads(tf, tf.keras.layers.ZeroPadding2D(((1, 0), (2, 1)), name="zp"), x),
        _grads(tf, tf.keras.layers.Cropping2D(((1, 0), (1, 2)), name="crop"), x),
        _grads(tf, tf.keras.layers.Lambda(lambda t: t * 2.0 + 1.0, name="lam"), x),
        attempt(tf.keras.layers.Cropping2D, -1),
    ]
    v = _x(tf, 3, 4)
    return [
        out,
        tf.math.reduce_std(v),
        tf.math.reduce_std(v, axis=0),
        tf.math.reduce_variance(v, axis=1, keepdims=True),
        attempt(tf.math.reduce_std, tf.constant([1, 2])),
        tf.config.list_physical_devices("GPU"),
        [d.device_type for d in tf.config.list_physical_devices()],
        [d.name for d in tf.config.list_physical_devices("CPU")],
    ]


@case(message=True)
def keras_model_get_layer(tf):
    inputs = tf.keras.Input(shape=(2,), name="in")
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, name="d")(inputs), name="m")
    return [
        model.get_layer("d").name,
        model.get_layer(index=0).name,
        attempt(model.get_layer, "nope"),
        attempt(model.get_layer, index=5),
        attempt(model.get_layer),
        attempt(model.get_layer, "d", 1),
        [t.shape for t in [model.input, model.output]],
    ]


@case
def nn_compute_average_loss(tf):
    per_example = tf.constant([1.0, 2.0, 3.0, 6.0])
    return [
        tf.nn.compute_average_loss(per_example),
        tf.nn.compute_average_loss(per_example, global_batch_size=8),
        tf.nn.compute_average_loss(per_example, sample_weight=[1.0, 0.0, 2.0, 0.5]),
        tf.nn.compute_average_loss(per_example, sample_weight=0.5, global_batch_size=2),
        tf.nn.compute_average_loss(tf.constant([[1.0, 2.0], [3.0, 4.0]])),
        attempt(tf.nn.compute_average_loss, tf.constant(1.0)),
        attempt(tf.nn.compute_average_loss, per_example, global_batch_size=2.0),
    ]


@case(message=True)
def keras_loss_scale_optimizer(tf):
    tf.keras.utils.set_random_seed(0)
    w = tf.Variable([1.0, -2.0])
    opt = tf.keras.mixed_precision.LossScaleOptimizer(
        tf.keras.optimizers.SGD(0.1), initial_scale=8.0, dynamic_growth_steps=2
    )
    before = opt.scale_loss(tf.constant(3.0))
    log = []
    for factor in (1.0, 1.0, 1.0, float("inf"), 1.0):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w) * factor
            scaled = opt.scale_loss(loss)
        grads = tape.gradient(scaled, [w])
        opt.apply_gradients(zip(grads, [w]))
        log.append(
            [w.numpy(), opt.dynamic_scale.numpy(), opt.step_counter.numpy(), opt.iterations.numpy()]
        )
    return [
        before,
        log,
        opt.learning_rate.numpy(),
        attempt(
            tf.keras.mixed_precision.LossScaleOptimizer, tf.keras.optimizers.SGD(), clipnorm=1.0
        ),
        attempt(
            tf.keras.mixed_precision.LossScaleOptimizer, tf.keras.optimizers.SGD(), dynamic=False
        ),
    ]


@case(message=True)
def keras_softmax_rescaling_and_add_weight(tf):
    x = _x(tf, 2, 3)

    class Scaled(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(
                shape=(input_shape[-1],), initializer="ones", trainable=True, name="w"
            )
            self.c = self.add_weight((), "zeros", "float32", trainable=False, name="c")
            self.error = attempt(self.add_weight, (), "zeros", "float32", False)

        def call(self, inputs):
            return inputs * self.w + self.c

    layer = Scaled(name="scaled")
    return [
        _grads(tf, tf.keras.layers.Softmax(name="sm"), x),
        _grads(tf, tf.keras.layers.Softmax(axis=0, name="sm0"), x),
        tf.keras.layers.Rescaling(1.0 / 255, name="rs")(tf.constant([[0, 128, 255]], tf.uint8)),
        tf.keras.layers.Rescaling(2.0, offset=-1.0, name="rs2")(x),
        _grads(tf, layer, x),
        [[v.path, v.trainable] for v in layer.weights],
        layer.error,
    ]


@case(message=True)
def keras_layer_name_and_trainable_are_checked(tf):
    # Keras 3 checks a layer's name (a string without '/') and trainable (a bool) when it is made
    dense = tf.keras.layers.Dense
    return [
        attempt(dense, 2, name="a/b"),
        attempt(dense, 2, name=3),
        attempt(dense, 2, trainable="yes"),
        attempt(dense, 2, trainable=1),
        dense(2, name="").name,
        dense(2, trainable=False).trainable,
    ]
