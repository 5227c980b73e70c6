"""Scripted misuse inside tf.function (AutoGraph's refusals, input_signature), Conv2D's other
arguments, a float64 Keras metric and bfloat16 inputs: each a function of the `tf` module that
returns a result or raises."""

import numpy as np

from .scripts import script


def _traced(tf, fn, x, **kw):
    return tf.function(fn, **kw)(x)


def _if_positive(x):
    if x > 0:
        return x
    return -x


def _summed(x):
    r = 0.0
    for v in x:
        r += v
    return r


@script
def autograph_bool_of_tensor(tf):
    return _traced(tf, lambda x: bool(x > 0), tf.constant(1.0))


@script
def autograph_assert_on_tensor(tf):
    def f(x):
        assert x > 0
        return x

    return _traced(tf, f, tf.constant(1.0))


@script
def autograph_enumerate_tensor(tf):
    def f(t):
        r = 0.0
        for _i, v in enumerate(t):
            r += v
        return r

    return _traced(tf, f, tf.constant([1.0, 2.0]))


@script
def autograph_zip_tensor(tf):
    def f(t):
        return [a for a, _ in zip(t, t)]

    return _traced(tf, f, tf.constant([1.0, 2.0]))


@script
def autograph_loop_variable_changes_shape(tf):
    def f(x):
        v = tf.constant([1.0])
        for _i in tf.range(x):
            v = tf.concat([v, v], 0)
        return v

    return _traced(tf, f, tf.constant(2))


@script
def while_loop_variable_changes_shape_in_graph(tf):
    def body(i, v):
        return i + 1, tf.concat([v, v], 0)

    return tf.function(lambda: tf.while_loop(lambda i, v: i < 2, body, (0, tf.constant([1.0]))))()


@script
def autograph_loop_variable_changes_dtype(tf):
    def f(x):
        v = tf.constant(0)
        for _i in tf.range(x):
            v = tf.cast(v, tf.float32)
        return v

    return _traced(tf, f, tf.constant(2))


@script
def autograph_if_on_int_tensor(tf):
    return _traced(tf, _if_positive_of_value, tf.constant(3))


@script
def autograph_if_on_nan_tensor(tf):
    return _traced(tf, _if_positive_of_value, tf.constant(float("nan")))


@script
def autograph_if_on_string_tensor(tf):
    return _traced(tf, _if_positive_of_value, tf.constant("a"))


def _if_positive_of_value(x):
    if x:
        return 1
    return 2


def _one_if(x):
    return 1 if x else 2


@script
def autograph_if_expression_on_int_tensor(tf):
    return _traced(tf, _one_if, tf.constant(3))


@script
def autograph_if_expression_in_lambda_on_int_tensor(tf):
    return _traced(tf, lambda x: 1 if x else 2, tf.constant(3))


@script
def autograph_train_step_if_on_tensor_under_fit(tf):
    class Model(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            return {"z": 1.0 if tf.reduce_sum(data[0]) > 0 else 2.0}

    model = Model()
    model.compile(optimizer="sgd", loss="mse")
    x = np.ones((2, 1), "float32")
    return model.fit(x, x, verbose=0).history


@script
def autograph_off_len_of_tensor(tf):
    return _traced(tf, lambda x: len(x), tf.constant([1.0]), autograph=False)


@script
def autograph_off_for_over_tensor(tf):
    return _traced(tf, _summed, tf.constant([1.0]), autograph=False)


@script
def autograph_do_not_convert_if_on_tensor(tf):
    return _traced(tf, tf.autograph.experimental.do_not_convert(_if_positive), tf.constant(1.0))


@script
def autograph_for_else_over_tensor(tf):
    def f(x):
        r = 0.0
        for v in x:
            r += v
        else:
            r += 1.0
        return r

    return _traced(tf, f, tf.constant([1.0]))


@script
def autograph_while_else_on_tensor(tf):
    def f(x):
        while x < 3:
            x += 1
        else:
            x += 10
        return x

    return _traced(tf, f, tf.constant(0))


@script
def autograph_method_if_on_tensor_converted(tf):
    class Holder:
        def method(self, y):
            return _if_positive(y)

    holder = Holder()
    return _traced(tf, lambda x: holder.method(x), tf.constant(-2.0))


@script
def input_signature_shorter_than_parameters(tf):
    f = tf.function(lambda x, y: x + y, input_signature=[tf.TensorSpec([], tf.float32)])
    return f(tf.constant(1.0), tf.constant(2.0))


@script
def keras_metric_mean_float64(tf):
    m = tf.keras.metrics.Mean(dtype="float64")
    m.update_state([1.0, 2.0])
    return [m.result(), m.dtype]


def _conv(tf, **kw):
    x = tf.reshape(tf.range(2 * 6 * 6 * 4, dtype=tf.float32), (2, 6, 6, 4)) / 100.0
    tf.keras.utils.set_random_seed(0)
    return tf.keras.layers.Conv2D(4, 3, **kw)(x)


@script
def conv2d_dilation_rate_2(tf):
    return _conv(tf, dilation_rate=2)


@script
def conv2d_groups_2(tf):
    return _conv(tf, groups=2)


@script
def conv2d_groups_3(tf):
    return _conv(tf, groups=3)


@script
def conv2d_channels_first(tf):
    return _conv(tf, data_format="channels_first")


@script
def conv2d_dilation_and_strides(tf):
    return _conv(tf, dilation_rate=2, strides=2)


@script
def nn_conv2d_dilations(tf):
    x = tf.ones((1, 5, 5, 1))
    return tf.nn.conv2d(x, tf.ones((2, 2, 1, 1)), 1, "VALID", dilations=2)


@script
def nn_depthwise_conv2d(tf):
    x = tf.reshape(tf.range(25, dtype=tf.float32), (1, 5, 5, 1))
    return tf.nn.depthwise_conv2d(x, tf.ones((2, 2, 1, 2)), [1, 1, 1, 1], "VALID")


@script
def bfloat16_add(tf):
    x = tf.constant([1.5, 2.0], dtype="bfloat16")
    return x + x


@script
def bfloat16_matmul(tf):
    x = tf.constant([[1.5, 2.0]], dtype="bfloat16")
    return tf.matmul(x, tf.transpose(x))


@script
def bfloat16_reduce_sum(tf):
    return tf.reduce_sum(tf.constant([1.5, 2.0], dtype="bfloat16"))


@script
def bfloat16_softmax(tf):
    return tf.nn.softmax(tf.constant([1.5, 2.0], dtype="bfloat16"))
