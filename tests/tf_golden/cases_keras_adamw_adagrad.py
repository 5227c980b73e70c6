"""Golden cases: Keras 3's AdamW and Adagrad, a few steps of each (their update rules,
defaults, `weight_decay`, the accumulator's start and `iterations`)."""

from .cases import attempt, case


def _three_steps(tf, opt):
    """Three steps on w = [1, -2, 3] (a Keras 3 layer's kernel too) of the loss sum(w**3 / 3)."""
    w = tf.Variable([1.0, -2.0, 3.0])
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w**3 / 3.0)
        opt.apply_gradients([(tape.gradient(loss, w), w)])
    return [w, opt.iterations]


@case
def keras_adamw_steps_and_defaults(tf):
    default = tf.keras.optimizers.AdamW()
    return [
        _three_steps(tf, tf.keras.optimizers.AdamW()),
        _three_steps(tf, tf.keras.optimizers.AdamW(0.1, weight_decay=0.5, beta_1=0.5)),
        _three_steps(tf, tf.keras.optimizers.AdamW(0.1, weight_decay=0.0, amsgrad=True)),
        [default.weight_decay, default.beta_1, default.beta_2, default.epsilon],
        default.learning_rate,
    ]


@case(message=True)
def keras_adamw_needs_a_weight_decay(tf):
    return attempt(tf.keras.optimizers.AdamW, weight_decay=None)


@case
def keras_adagrad_steps_and_defaults(tf):
    default = tf.keras.optimizers.Adagrad()
    return [
        _three_steps(tf, tf.keras.optimizers.Adagrad()),
        _three_steps(tf, tf.keras.optimizers.Adagrad(0.5, initial_accumulator_value=0.0)),
        _three_steps(tf, tf.keras.optimizers.Adagrad(0.2, epsilon=0.5, weight_decay=0.1)),
        [default.initial_accumulator_value, default.epsilon],
        default.learning_rate,
    ]


@case
def keras_adamw_and_adagrad_by_name_train_a_dense_layer(tf):
    out = []
    for name in ("adamw", "adagrad"):
        tf.keras.utils.set_random_seed(2)
        model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, name="d")])
        model.compile(optimizer=name, loss="mse")
        x = tf.constant([[1.0, 2.0], [-1.0, 0.5], [0.0, 1.0], [2.0, -1.0]])
        y = tf.constant([[1.0], [0.0], [-1.0], [0.5]])
        history = model.fit(x, y, epochs=2, batch_size=2, shuffle=False, verbose=0)
        out.append([history.history["loss"], model.get_layer("d").kernel.numpy()])
    return out


@case(message=True)
def keras_adamw_exclude_from_weight_decay(tf):
    import numpy as np

    tf.keras.utils.set_random_seed(0)
    first, second = tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)
    model = tf.keras.Sequential([tf.keras.Input((3,)), first, second])
    opt = tf.keras.optimizers.AdamW(learning_rate=0.1, weight_decay=0.5)
    opt.exclude_from_weight_decay(var_list=[first.kernel], var_names=["bias"])
    x = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]], np.float32)
    for _ in range(2):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
    return [model.get_weights(), attempt(opt.exclude_from_weight_decay, var_names=["kernel"])]


@case
def keras_optimizer_default_names(tf):
    tf.keras.backend.clear_session()
    opt = tf.keras.optimizers
    made = [opt.SGD(), opt.Adam(), opt.Adam(), opt.AdamW(), opt.Adagrad(), opt.RMSprop()]
    return [
        [o.name for o in made],
        opt.SGD(name="mine").name,
        opt.get("rmsprop").name,
        tf.keras.mixed_precision.LossScaleOptimizer(opt.SGD()).name,
    ]


@case
def keras_optimizer_variables_names_and_order(tf):
    import numpy as np

    tf.keras.backend.clear_session()
    w = tf.Variable([1.0, 2.0], name="w")
    dense = tf.keras.layers.Dense(2, name="hid")
    dense(np.ones((1, 3), np.float32))
    opt = tf.keras.optimizers
    made = [
        opt.SGD(0.1, momentum=0.9),
        opt.SGD(0.1),
        opt.Adam(amsgrad=True),
        opt.AdamW(),
        opt.Adagrad(),
        opt.RMSprop(centered=True, momentum=0.5),
    ]
    out = []
    for o in made:
        o.apply_gradients([(tf.constant([0.1, 0.2]), w), (tf.ones((3, 2)), dense.kernel)])
        out.append([o.name, [v.name for v in o.variables], [v.path for v in o.variables]])
    scaled = tf.keras.mixed_precision.LossScaleOptimizer(opt.SGD(momentum=0.5))
    scaled.apply_gradients([(tf.constant([0.1, 0.2]), w)])
    out.append([[v.path for v in scaled.variables], [v.numpy() for v in scaled.variables]])
    out.append([repr(made[0].iterations), repr(made[0].learning_rate), repr(scaled.dynamic_scale)])
    out.append([isinstance(made[0].iterations, tf.Variable), repr(made[0].variables[2])])
    return out
