"""Golden cases: Keras 3's mixed precision on TF 2.21's CPU kernels -- the 'mixed_float16'
policy (float16 computations on float32 variables), how a layer casts its inputs and, while it
runs, its variables (autocasting), the layers that compute in float32 anyway (normalization,
a layer given dtype='float32'), losses and metrics in float32, and `compile` wrapping the
optimizer in a LossScaleOptimizer (names keras_mixed_...).

Run eagerly, a mixed model's steps are TF's in these cases at the golden record's default
tolerances (float16 within one rounding, float32 within 1e-5 relative). A step TF traces
(`tf.function`, `fit` unless run_eagerly) is not: TF's graph optimizer rearranges the
optimizer's float32 update, one rounding apart from the eager one, and float16 rounding then
magnifies that over the next steps (a weight one float32 ulp away can round to another float16).
The traced variants are checked on what this cannot move: dtypes, the loss scale, the step
counts, and the first step's losses."""

import numpy as np

from .cases import attempt, case

RNG = np.random.default_rng(7)
X = RNG.normal(size=(12, 6)).astype(np.float32)
LABELS = RNG.integers(0, 3, size=(12,))
IMAGES = RNG.normal(size=(4, 6, 6, 2)).astype(np.float32)
TOKENS = np.array([[1, 3, 0], [2, 2, 4]])


class _Mixed:
    """Set the global policy to 'mixed_float16' for a `with` block, then back to float32."""

    def __init__(self, tf):
        self.mp = tf.keras.mixed_precision

    def __enter__(self):
        self.mp.set_global_policy("mixed_float16")
        return self.mp

    def __exit__(self, *exc):
        self.mp.set_global_policy("float32")


def _dtypes(xs):
    return [None if x is None else str(x.dtype) for x in xs]


@case
def keras_mixed_policy_dtypes(tf):
    mp = tf.keras.mixed_precision
    policy = mp.Policy("mixed_float16")
    out = [repr(policy), policy.name, policy.compute_dtype, policy.variable_dtype]
    tf.keras.utils.set_random_seed(2)
    with _Mixed(tf):
        dense = tf.keras.layers.Dense(2, name="d")
        own = tf.keras.layers.Dense(2, dtype="float32", name="d32")
        given = tf.keras.layers.Dense(2, dtype=policy, name="dp")
        y, y32 = dense(X), own(X)
        out += [
            repr(mp.global_policy()),
            [repr(dense.dtype_policy), dense.dtype, dense.compute_dtype, dense.variable_dtype],
            [repr(own.dtype_policy), own.dtype, own.compute_dtype, own.variable_dtype],
            repr(given.dtype_policy),
            _dtypes([y, y32, dense.kernel, dense.bias, own.kernel]),
            [dense.kernel.value.dtype.name, type(dense.kernel.dtype).__name__],
            y,
        ]
    out.append(repr(mp.global_policy()))
    return out


@case
def keras_mixed_dense_values_and_gradients(tf):
    tf.keras.utils.set_random_seed(1)
    with _Mixed(tf):
        dense = tf.keras.layers.Dense(4, activation="relu")
        out = tf.keras.layers.Dense(3, activation="sigmoid")
        with tf.GradientTape() as tape:
            h = dense(X)
            y = out(h)
            loss = tf.keras.losses.MeanSquaredError()(tf.ones((12, 3)), y)
        variables = dense.trainable_variables + out.trainable_variables
        grads = tape.gradient(loss, variables)
    return [_dtypes([h, y, loss]), h, y, loss, _dtypes(grads), grads]


@case
def keras_mixed_autocast_inside_call(tf):
    seen = []

    class Scale(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
            self.raw = self.add_weight(
                shape=(input_shape[-1],), initializer="ones", autocast=False, name="raw"
            )

        def call(self, inputs):
            seen.append(_dtypes([inputs, self.w.value, tf.convert_to_tensor(self.w)]))
            seen.append(_dtypes([self.raw.value]))
            return inputs * self.w

    with _Mixed(tf):
        layer = Scale()
        x = tf.constant(X[:2])
        with tf.GradientTape() as tape:
            y = layer(x)
        grads = tape.gradient(y, layer.trainable_variables)
        outside = _dtypes([layer.w.value, tf.convert_to_tensor(layer.w)])
    return [seen, outside, _dtypes([x, y]), y, _dtypes(grads), grads]


def _guide_functional_model_fit(tf, run_eagerly):
    # tensorflow.org/guide/mixed_precision, on 12 examples of 6 features (the guide: MNIST)
    keras, layers, mixed_precision = tf.keras, tf.keras.layers, tf.keras.mixed_precision
    tf.keras.utils.set_random_seed(3)
    policy = mixed_precision.Policy("mixed_float16")
    mixed_precision.set_global_policy(policy)
    try:
        inputs = keras.Input(shape=(6,), name="digits")
        dense1 = layers.Dense(8, activation="relu", name="dense_1")
        x = dense1(inputs)
        dense2 = layers.Dense(8, activation="relu", name="dense_2")
        x = dense2(x)
        shown = [str(dense1.dtype_policy), x.dtype, dense1.kernel.dtype]
        shown.append(attempt(lambda: x.dtype.name))  # (the guide's Keras 2 spelling)
        wrong = layers.Dense(3, activation="softmax", name="predictions")(x)
        x = layers.Dense(3, name="dense_logits")(x)
        outputs = layers.Activation("softmax", dtype="float32", name="predictions")(x)
        outputs = layers.Activation("linear", dtype="float32")(outputs)
        shown += [wrong.dtype, outputs.dtype]
        model = keras.Model(inputs=inputs, outputs=outputs)
        model.compile(
            loss="sparse_categorical_crossentropy",
            optimizer=keras.optimizers.RMSprop(),
            metrics=["accuracy"],
            run_eagerly=run_eagerly,
        )
        opt = model.optimizer
        shown += [type(opt).__name__, opt.name, type(opt.inner_optimizer).__name__]
        history = model.fit(X, LABELS, batch_size=4, epochs=2, validation_split=0.25, verbose=0)
        scores = model.evaluate(X, LABELS, verbose=0)
        predicted = model.predict(X[:3], verbose=0)
        state = [opt.dynamic_scale, opt.iterations, opt.step_counter]
    finally:
        mixed_precision.set_global_policy("float32")
    return [shown, history.history, scores, predicted, state, model.get_weights()]


@case
def keras_mixed_guide_functional_model_fit(tf):
    return _guide_functional_model_fit(tf, run_eagerly=True)


@case
def keras_mixed_guide_functional_model_fit_traced(tf):
    shown, history, _, predicted, state, weights = _guide_functional_model_fit(tf, False)
    return [shown, sorted(history), str(predicted.dtype), state, [str(w.dtype) for w in weights]]


def _guide_custom_training_loop(tf, traced):
    keras, layers, mixed_precision = tf.keras, tf.keras.layers, tf.keras.mixed_precision
    tf.keras.utils.set_random_seed(4)
    mixed_precision.set_global_policy("mixed_float16")
    try:
        inputs = keras.Input(shape=(6,))
        x = layers.Dense(8, activation="relu")(inputs)
        x = layers.Dense(3)(x)
        outputs = layers.Activation("softmax", dtype="float32")(x)
        model = keras.Model(inputs=inputs, outputs=outputs)
        optimizer = mixed_precision.LossScaleOptimizer(keras.optimizers.RMSprop())
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy()
        missing = [
            attempt(lambda: optimizer.get_scaled_loss),  # (the guide's Keras 2 names)
            attempt(lambda: optimizer.get_unscaled_gradients),
        ]

        def train_step(x, y):
            with tf.GradientTape() as tape:
                predictions = model(x)
                loss = loss_object(y, predictions)
                scaled_loss = optimizer.scale_loss(loss)
            scaled_gradients = tape.gradient(scaled_loss, model.trainable_variables)
            optimizer.apply_gradients(zip(scaled_gradients, model.trainable_variables))
            return loss, scaled_loss, scaled_gradients[-1]

        if traced:
            train_step = tf.function(train_step)  # (the guide's @tf.function)
        dataset = tf.data.Dataset.from_tensor_slices((X, LABELS)).batch(4)
        losses = []
        for _epoch in range(2):
            epoch_loss_avg = tf.keras.metrics.Mean()
            accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
            for x, y in dataset:
                loss, scaled, last = train_step(x, y)
                epoch_loss_avg(loss)
                accuracy.update_state(y, model(x, training=False))
                losses.append([loss, scaled, last])
            losses.append([epoch_loss_avg.result(), accuracy.result()])
    finally:
        mixed_precision.set_global_policy("float32")
    return [missing, losses, optimizer.dynamic_scale, model.get_weights()]


@case
def keras_mixed_guide_custom_training_loop(tf):
    return _guide_custom_training_loop(tf, traced=False)


@case
def keras_mixed_guide_custom_training_loop_traced(tf):
    missing, losses, scale, weights = _guide_custom_training_loop(tf, traced=True)
    return [missing, losses[0], scale, [str(w.dtype) for w in weights]]


@case
def keras_mixed_layers_forward_and_gradients(tf):
    tf.keras.utils.set_random_seed(5)
    with _Mixed(tf):
        model = tf.keras.Sequential(
            [
                tf.keras.Input((6, 6, 2)),
                tf.keras.layers.Conv2D(3, 3, padding="same", use_bias=False),
                tf.keras.layers.BatchNormalization(),
                tf.keras.layers.LeakyReLU(),
                tf.keras.layers.MaxPooling2D(),
                tf.keras.layers.Dropout(0.5),
                tf.keras.layers.Flatten(),
                tf.keras.layers.LayerNormalization(),
                tf.keras.layers.Dense(2),
            ]
        )
        x = tf.constant(IMAGES)
        steps = []
        with tf.GradientTape() as tape:
            y = model(x, training=True)
            loss = tf.reduce_mean(tf.square(tf.cast(y, tf.float32)))
        grads = tape.gradient(loss, model.trainable_variables)
        steps.append([_dtypes([y, loss]), y, loss])
        steps.append([_dtypes(model.weights), _dtypes(grads), grads])
        steps.append(model.non_trainable_weights)
        inference = model(x, training=False)
        steps.append([_dtypes([inference]), inference])
        pooled = tf.keras.layers.GlobalAveragePooling2D()(x)
        steps.append([_dtypes([pooled]), pooled])
    return steps


@case
def keras_mixed_embedding_and_losses(tf):
    tf.keras.utils.set_random_seed(6)
    with _Mixed(tf):
        emb = tf.keras.layers.Embedding(5, 3)
        with tf.GradientTape() as tape:
            e = emb(TOKENS)
            loss = tf.reduce_sum(tf.cast(e, tf.float32) ** 2)
        grad = tape.gradient(loss, emb.embeddings)
        y16 = tf.constant([[0.2, 0.7], [0.9, 0.1]], tf.float16)
        losses = [
            tf.keras.losses.MeanSquaredError()(tf.zeros((2, 2)), y16),
            tf.keras.losses.BinaryCrossentropy()(tf.ones((2, 2)), y16),
            tf.keras.losses.MeanAbsoluteError(dtype="float16")(tf.zeros((2, 2)), y16),
        ]
        metric = tf.keras.metrics.Mean()
        metric.update_state(y16)
        acc = tf.keras.metrics.BinaryAccuracy()
        acc.update_state(tf.ones((2, 2)), y16)
        reg = tf.keras.layers.Dense(2, kernel_regularizer="l2", activity_regularizer="l1")
        reg(X[:2])
    return [
        _dtypes([e, grad, emb.embeddings]),
        e,
        [type(grad).__name__],
        _dtypes(losses),
        losses,
        [metric.result(), acc.result(), metric.dtype],
        _dtypes(reg.losses),
        reg.losses,
    ]


@case
def keras_mixed_policy_arguments(tf):
    mp = tf.keras.mixed_precision
    return [
        attempt(mp.Policy, "mixed_float32"),
        attempt(mp.Policy, 16),
        repr(mp.Policy("float16")),
        mp.Policy("float16").compute_dtype,
        [repr(tf.keras.layers.Dense(1, dtype="mixed_float16").dtype_policy)],
    ]


@case
def keras_config_dtype_policy_names(tf):
    config, mp = tf.keras.config, tf.keras.mixed_precision
    first = [repr(config.dtype_policy()), config.floatx()]
    try:
        config.set_dtype_policy("mixed_float16")
        mixed = [repr(mp.global_policy()), repr(mp.dtype_policy())]
        mixed.append(tf.keras.layers.Dense(1).compute_dtype)
        bad = attempt(config.set_dtype_policy, 3)
    finally:
        mp.set_dtype_policy("float32")
    return [first, mixed, bad, repr(config.dtype_policy())]


@case
def keras_mixed_bfloat16_policy(tf):
    policy = tf.keras.mixed_precision.Policy("mixed_bfloat16")
    return [policy.compute_dtype, policy.variable_dtype]


@case
def float16_sigmoid_and_its_gradient_round_as_tf_kernels(tf):
    # (checked to the float16 tolerance, but equal to the bit: sizes with and without a tail
    # past the kernel's packets of 8, and values where e^x overflows float16)
    out = []
    for n in (24, 36, 1001):
        z = tf.constant((np.sin(np.arange(n) * 1.7) * 9).astype(np.float16))
        dy = tf.constant((np.cos(np.arange(n) * 0.3) * 0.01).astype(np.float16))
        with tf.GradientTape() as tape:
            tape.watch(z)
            y = tf.sigmoid(z)
        out.append([y, tape.gradient(y, z, output_gradients=dy)])
    edges = tf.constant(np.array([-20, -11, 11.1, 12, 65504, np.inf, -np.inf], np.float16))
    return [out, tf.sigmoid(edges)]


@case
def float16_bias_add_gradient_adds_up_in_float32(tf):
    x = tf.constant((np.sin(np.arange(64 * 3)) * 50).astype(np.float16).reshape(64, 3))
    b = tf.constant(np.array([0.1, -0.2, 0.3], np.float16))
    with tf.GradientTape() as tape:
        tape.watch(b)
        y = tf.nn.bias_add(x, b)
        z = y * y
    nchw = tf.nn.bias_add(
        tf.reshape(x[:16], (2, 2, 4, 3)), tf.constant([1.0, 2.0], tf.float16), "NCHW"
    )
    return [y, tape.gradient(z, b), nchw]


@case
def keras_mixed_bfloat16_layer(tf):
    layer = tf.keras.layers.Dense(2, dtype="mixed_bfloat16")
    return [layer.compute_dtype, layer(X).dtype]


@case
def keras_mixed_generator_and_text_model_steps(tf):
    # a DCGAN-style generator (Dense, BatchNormalization, Reshape, Conv2DTranspose with tanh)
    # and a small text classifier (Embedding, Flatten, a float32 sigmoid), two Adam steps each
    layers = tf.keras.layers
    tf.keras.utils.set_random_seed(8)
    with _Mixed(tf):
        generator = tf.keras.Sequential(
            [
                tf.keras.Input((4,)),
                layers.Dense(2 * 2 * 3, use_bias=False),
                layers.BatchNormalization(),
                layers.LeakyReLU(),
                layers.Reshape((2, 2, 3)),
                layers.Conv2DTranspose(1, 3, strides=2, padding="same", activation="tanh"),
            ]
        )
        text = tf.keras.Sequential(
            [
                tf.keras.Input((3,), dtype="int32"),
                layers.Embedding(5, 2),
                layers.Flatten(),
                layers.Dense(1),
                layers.Activation("sigmoid", dtype="float32"),
            ]
        )
        noise = tf.constant(RNG.normal(size=(3, 4)).astype(np.float32))
        bce, labels = tf.keras.losses.BinaryCrossentropy(), tf.constant([[1.0], [0.0]])
        out = []
        for model, x, loss_fn in [
            (generator, noise, lambda y: tf.reduce_mean(tf.cast(y, tf.float32) ** 2)),
            (text, TOKENS, lambda y: bce(labels, y)),
        ]:
            opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.Adam(0.01))
            for _ in range(2):
                with tf.GradientTape() as tape:
                    y = model(x, training=True)
                    loss = loss_fn(y)
                    scaled = opt.scale_loss(loss)
                grads = tape.gradient(scaled, model.trainable_variables)
                opt.apply_gradients(zip(grads, model.trainable_variables))
                out.append([_dtypes([y, loss]), y, loss, _dtypes(grads)])
            out.append(model.get_weights())
    return out
