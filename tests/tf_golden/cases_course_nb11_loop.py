"""Golden cases for what notebook 11 (the custom training loop) says about TensorFlow: each
function records one claim the notebook makes (names course_nb11loop_...)."""

import warnings

import numpy as np

from .cases import attempt, case


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5], [0.0]], np.float32) + 0.1).astype(np.float32)
    return x, y


def _regularized_model(tf, x):
    tf.keras.utils.set_random_seed(0)
    l2 = tf.keras.regularizers.L2(0.01)
    model = tf.keras.Sequential(
        [
            tf.keras.layers.Dense(8, activation="relu", kernel_regularizer=l2, name="hidden"),
            tf.keras.layers.Dense(1, kernel_regularizer=l2, name="out"),
        ],
        name="net",
    )
    model(x[:1])
    return model


def _bn_model(tf, x):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential(
        [
            tf.keras.layers.Dense(8, activation="relu", name="hidden"),
            tf.keras.layers.BatchNormalization(name="bn"),
            tf.keras.layers.Dropout(0.5, name="drop"),
            tf.keras.layers.Dense(1, name="out"),
        ],
        name="bn_net",
    )
    model(x[:1])
    return model


@case
def course_nb11loop_model_losses(tf):
    # 11 §1: set_random_seed gives Keras' own initial weights; model.losses holds one penalty
    # per regulariser (0.01 * sum(kernel**2), no ½); evaluate's loss is the data loss plus them,
    # and so is fit's (one full batch at learning rate 0: the loss of these weights)
    x, y = _data()
    model = _regularized_model(tf, x)
    mse = tf.keras.losses.MeanSquaredError()
    data_loss = mse(y, model(x, training=True))
    model.compile(optimizer="sgd", loss="mse")
    return [
        [v.path for v in model.trainable_variables],
        model.get_layer("hidden").kernel,
        len(model.losses),
        list(model.losses),
        [0.01 * np.sum(layer.kernel.numpy() ** 2) for layer in model.layers],
        data_loss,
        data_loss + sum(model.losses),
        model.evaluate(x, y, batch_size=64, verbose=0),
        _fit_loss(tf, model, x, y),
    ]


def _fit_loss(tf, model, x, y):
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")
    history = model.fit(x, y, batch_size=64, epochs=1, shuffle=False, verbose=0)
    return history.history["loss"]


@case(message=True)
def course_nb11loop_none_gradients(tf):
    # 11 §2: a head the loss does not use gets None; apply_gradients skips those pairs and
    # updates the others; with every gradient None it raises ValueError with these words
    x, y = _data()
    model = _regularized_model(tf, x)
    aux = tf.keras.layers.Dense(1, name="aux")
    aux(x[:1])
    variables = model.trainable_variables + aux.trainable_variables
    mse = tf.keras.losses.MeanSquaredError()
    with tf.GradientTape() as tape:
        loss = mse(y, model(x, training=True)) + sum(model.losses)
    grads = tape.gradient(loss, variables)
    before = [v.numpy().copy() for v in variables]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tf.keras.optimizers.SGD(0.1).apply_gradients(zip(grads, variables))
    changed = [v.path for v, b in zip(variables, before) if not np.array_equal(v.numpy(), b)]
    aux_grads = [None, None]
    error = attempt(
        tf.keras.optimizers.SGD(0.1).apply_gradients, zip(aux_grads, aux.trainable_variables)
    )
    return [[v.path for v in variables], [g is None for g in grads], changed, error]


@case
def course_nb11loop_none_gradient_warning(tf):
    # 11 §2: the warning for some None gradients, with Python's warnings and these words,
    # naming a layer's variables by their paths
    a = tf.Variable([[1.0]])
    aux = tf.keras.layers.Dense(1, name="aux")
    aux(tf.ones((1, 1)))
    grads = [tf.constant([[1.0]]), None, None]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tf.keras.optimizers.SGD(0.1).apply_gradients(zip(grads, [a, *aux.trainable_variables]))
    return [f"{w.category.__name__}: {w.message}" for w in caught]


@case
def course_nb11loop_training_state(tf):
    # 11 §3: BatchNormalization's moving statistics and Dropout's seed are non-trainable
    # variables; Dropout in both modes; only a training forward pass moves the moving mean
    # (not inference, not apply_gradients), to 0.99 * 0 + 0.01 * the batch mean of its input;
    # trainable=False removes a layer's variables from
    # trainable_variables, stop_gradient gives them None; a frozen BN layer does not move
    x, y = _data()
    model = _bn_model(tf, x)
    hidden, bn, drop, out = model.layers
    mse = tf.keras.losses.MeanSquaredError()
    record = [
        [v.path for v in model.trainable_variables],
        # (Dropout's seed generator is named seed_generator_N, N counting the earlier ones)
        [v.path.rsplit("/", 1)[-1] for v in model.non_trainable_variables],
    ]
    ones = tf.ones((1, 8))
    record += [drop(ones, training=False), drop(ones, training=True)]
    moved = []

    def watch(name, action):
        before = bn.moving_mean.numpy().copy()
        result = action()
        if not np.array_equal(before, bn.moving_mean.numpy()):
            moved.append(name)
        return result

    watch("inference", lambda: model(x, training=False))
    with tf.GradientTape() as tape:
        loss = mse(y, watch("training", lambda: model(x, training=True)))
    record += [bn.moving_mean.numpy().copy(), 0.01 * np.mean(hidden(x).numpy(), axis=0)]
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer = tf.keras.optimizers.SGD(0.1)
    watch("apply", lambda: optimizer.apply_gradients(zip(grads, model.trainable_variables)))
    record += [moved, bn.moving_mean]
    hidden.trainable = False
    record.append([v.path for v in model.trainable_variables])
    hidden.trainable = True
    with tf.GradientTape() as tape:
        features = tf.stop_gradient(hidden(x))
        loss = mse(y, out(drop(bn(features, training=True), training=True)))
    grads = tape.gradient(loss, model.trainable_variables)
    record.append([g is None for g in grads])
    bn.trainable = False
    before = bn.moving_mean.numpy().copy()
    model(x, training=True)
    record.append(bool(np.array_equal(before, bn.moving_mean.numpy())))
    return record


@case
def course_nb11loop_nested_sources(tf):
    # 11 §4: gradient() returns the structure of its sources (a dict, a dict of lists);
    # tf.nest.flatten orders a dict by its sorted keys
    w = tf.Variable([1.0, 2.0])
    b = tf.Variable(0.5)
    with tf.GradientTape(persistent=True) as tape:
        loss = tf.reduce_sum(w * w) + 3.0 * b
    return [
        tape.gradient(loss, {"w": w, "b": b}),
        tape.gradient(loss, {"layer": [w, b], "other": (b,)}),
        tf.nest.flatten({"w": [1, 2], "b": (3,)}),
        tf.linalg.global_norm([tf.constant([3.0, 4.0]), tf.constant([12.0])]),
    ]


@case(rtol=1e-4)
def course_nb11loop_accumulation(tf):
    # 11 §5 and §7: 4 equal micro-batches, summed and divided by 4, give the big batch's
    # gradient; micro-batches of 40, 16 and 8 with compute_average_loss over 64, summed, too
    x, y = _data()
    model = _regularized_model(tf, x)
    mse = tf.keras.losses.MeanSquaredError()

    def grads_of(xb, yb):
        with tf.GradientTape() as tape:
            loss = mse(yb, model(xb, training=True)) + sum(model.losses)
        return tape.gradient(loss, model.trainable_variables)

    big = grads_of(x, y)
    parts = [grads_of(x[i * 16 : (i + 1) * 16], y[i * 16 : (i + 1) * 16]) for i in range(4)]
    averaged = [sum(gs) / 4 for gs in zip(*parts)]
    total = [tf.zeros_like(v) for v in model.trainable_variables]
    for part in (slice(0, 40), slice(40, 56), slice(56, 64)):
        with tf.GradientTape() as tape:
            per_example = tf.reduce_mean(tf.square(y[part] - model(x[part])), axis=1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=64)
        total = [t + g for t, g in zip(total, tape.gradient(loss, model.trainable_variables))]
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.reduce_mean(tf.square(y - model(x)), axis=1))
    whole = tape.gradient(loss, model.trainable_variables)
    return [
        big,
        averaged,
        all(np.allclose(a.numpy(), g.numpy(), atol=1e-6) for a, g in zip(averaged, big)),
        all(np.allclose(t.numpy(), g.numpy(), atol=1e-6) for t, g in zip(total, whole)),
    ]


@case
def course_nb11loop_optimizer_clipping(tf):
    # 11 §6: clipnorm clips each gradient, global_clipnorm all together (as
    # tf.clip_by_global_norm does), clipvalue each entry
    gradients = [tf.constant([3.0, 4.0]), tf.constant([12.0])]
    out = []
    for clipping in ({"clipnorm": 1.0}, {"global_clipnorm": 1.0}, {"clipvalue": 0.5}):
        a, c = tf.Variable([0.0, 0.0]), tf.Variable([0.0])
        tf.keras.optimizers.SGD(1.0, **clipping).apply_gradients(zip(gradients, [a, c]))
        out.append([a, c])
    out.append(list(tf.clip_by_global_norm(gradients, 1.0)))
    return out


@case
def course_nb11loop_loss_scale_optimizer(tf):
    # 11 §7: float16 underflows at 1e-8; LossScaleOptimizer starts at 2**15, scale_loss
    # multiplies, apply_gradients divides; an inf step is skipped (iterations unchanged) and
    # halves the scale; three in a row from the start: 4096 and no step (exercise 3); the scale
    # doubles after dynamic_growth_steps (2000) finite steps in a row; float16's smallest
    # positive number is about 6e-8
    tiny = tf.constant(1e-8)
    record = [tf.cast(tiny, tf.float16), tf.cast(tiny * 32768, tf.float16)]
    record.append(tf.cast(tf.constant([6e-8, 2e-8]), tf.float16))
    v = tf.Variable(1.0)
    optimizer = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1))
    with tf.GradientTape() as tape:
        loss = v * v
        scaled = optimizer.scale_loss(loss)
    grads = tape.gradient(scaled, [v])
    optimizer.apply_gradients(zip(grads, [v]))
    record += [scaled, grads, v, optimizer.dynamic_scale, optimizer.iterations]
    optimizer.apply_gradients(zip([tf.constant(np.inf)], [v]))
    record += [v, optimizer.dynamic_scale, optimizer.iterations]
    w = tf.Variable(1.0)
    fresh = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1))
    for _ in range(3):
        fresh.apply_gradients(zip([tf.constant(np.inf)], [w]))
    record += [float(fresh.dynamic_scale), int(fresh.iterations.numpy()), w]
    growing = tf.keras.mixed_precision.LossScaleOptimizer(
        tf.keras.optimizers.SGD(0.1), dynamic_growth_steps=2
    )
    for _ in range(2):
        growing.apply_gradients(zip([tf.constant(1.0)], [w]))
    return record + [optimizer.dynamic_growth_steps, float(growing.dynamic_scale)]


@case
def course_nb11loop_compute_average_loss(tf):
    # 11 §7: without global_batch_size, the mean over the examples given; with it, the sum
    # over the global batch size
    per_example = tf.constant([1.0, 2.0, 3.0, 4.0])
    return [
        tf.nn.compute_average_loss(per_example),
        tf.nn.compute_average_loss(per_example, global_batch_size=8),
    ]


@case
def course_nb11loop_exercises(tf):
    # 11's exercises: Keras' L2(0.05) of [[1, 2], [3, 4]] is 1.5; micro-batches of 3 and 1 of a
    # mean loss weigh 3/4 and 1/4
    layer = tf.keras.layers.Dense(
        2, use_bias=False, kernel_regularizer=tf.keras.regularizers.L2(0.05)
    )
    layer(tf.ones((1, 2)))
    layer.kernel.assign([[1.0, 2.0], [3.0, 4.0]])
    w = tf.Variable([[0.5], [-1.0]])
    x = tf.constant([[1.0, 2.0], [0.0, 1.0], [3.0, -1.0], [2.0, 2.0]])
    y = tf.constant([[1.0], [0.0], [2.0], [-1.0]])

    def grad(rows):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.gather(y, rows) - tf.gather(x, rows) @ w))
        return tape.gradient(loss, w)

    return [sum(layer.losses), 0.75 * grad([0, 1, 2]) + 0.25 * grad([3]), grad([0, 1, 2, 3])]
