"""Golden cases: the Keras parts of TensorFlow's "Advanced automatic differentiation" guide
(tensorflow.org/guide/advanced_autodiff), its code as written, seeded."""

from .cases import case


@case
def tutorial_advanced_autodiff_batch_jacobian_with_batchnorm(tf):
    tf.keras.utils.set_random_seed(0)
    x = tf.random.normal([7, 5])

    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
    bn = tf.keras.layers.BatchNormalization()
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)

    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = layer1(x)
        y = bn(y, training=True)
        y = layer2(y)

    j = tape.jacobian(y, x)
    jb = tape.batch_jacobian(y, x)
    j_sum = tf.reduce_sum(j, axis=2)
    j_select = tf.einsum("bxby->bxy", j)
    return [
        y.shape,
        j.shape,
        j_sum.shape,
        j_select.shape,
        jb.shape,
        tf.reduce_max(abs(jb - j_select)),
        jb[0],
        [v.numpy() for v in bn.non_trainable_variables],
    ]


@case
def tutorial_advanced_autodiff_hessian_of_a_network(tf):
    tf.keras.utils.set_random_seed(1)
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.relu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.relu)

    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            x = layer1(x)
            x = layer2(x)
            loss = tf.reduce_mean(x**2)

        g = t1.gradient(loss, layer1.kernel)

    h = t2.jacobian(g, layer1.kernel)
    n_params = tf.reduce_prod(layer1.kernel.shape)
    g_vec = tf.reshape(g, [n_params, 1])
    h_mat = tf.reshape(h, [n_params, n_params])
    return [g.shape, h.shape, loss, g_vec[:5], h_mat[:3, :3], tf.reduce_sum(h_mat)]
