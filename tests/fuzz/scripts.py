"""Scripted misuse of tapes, optimizers, layers and losses, and the issue's own examples: each
a function of the `tf` module that returns a result or raises."""

import numpy as np

SCRIPTS = {}


def script(fn):
    SCRIPTS[fn.__name__] = fn
    return fn


def _tape_of(tf, persistent=False):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=persistent) as tape:
        y = tf.reduce_sum(x * x)
    return tape, x, y


@script
def tape_gradient_twice(tf):
    tape, x, y = _tape_of(tf)
    tape.gradient(y, x)
    return tape.gradient(y, x)


@script
def tape_persistent_twice(tf):
    tape, x, y = _tape_of(tf, True)
    return [tape.gradient(y, x), tape.gradient(y, x)]


@script
def tape_persistent_str(tf):
    return tf.GradientTape(persistent="no")


@script
def tape_gradient_target_none(tf):
    tape, x, y = _tape_of(tf)
    return tape.gradient(None, x)


@script
def tape_gradient_sources_none(tf):
    tape, x, y = _tape_of(tf)
    return tape.gradient(y, None)


@script
def tape_gradient_source_python(tf):
    tape, x, y = _tape_of(tf)
    return tape.gradient(y, 1.0)


@script
def tape_gradient_source_str(tf):
    tape, x, y = _tape_of(tf)
    return tape.gradient(y, "x")


@script
def tape_gradient_target_python(tf):
    tape, x, y = _tape_of(tf)
    return tape.gradient(3.0, x)


@script
def tape_gradient_dict_sources(tf):
    tape, x, y = _tape_of(tf)
    return tape.gradient(y, {"a": x})


@script
def tape_watch_python_float(tf):
    with tf.GradientTape() as tape:
        tape.watch(1.0)


@script
def tape_watch_none(tf):
    with tf.GradientTape() as tape:
        tape.watch(None)


@script
def tape_watch_int_tensor(tf):
    x = tf.constant(3)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)


@script
def tape_stop_recording_exited(tf):
    tape, x, y = _tape_of(tf)
    with tape.stop_recording():
        pass


@script
def tape_reset_exited(tf):
    tape, x, y = _tape_of(tf)
    tape.reset()
    return tape.gradient(y, x)


@script
def tape_gradient_inside(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * x
        g = tape.gradient(y, x)
    return g


@script
def tape_output_gradients_str(tf):
    tape, x, y = _tape_of(tf)
    return tape.gradient(y, x, output_gradients="a")


@script
def tape_output_gradients_shape(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = x * x
    return tape.gradient(y, x, output_gradients=tf.ones([3]))


@script
def tape_unconnected_str(tf):
    tape, x, y = _tape_of(tf)
    return tape.gradient(y, x, unconnected_gradients="nope")


@script
def tape_jacobian_once(tf):
    tape, x, y = _tape_of(tf)
    return tape.jacobian(y, x)


@script
def tape_jacobian_none(tf):
    tape, x, y = _tape_of(tf)
    return tape.jacobian(None, x)


@script
def tape_batch_jacobian_rank1(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.batch_jacobian(y, x)


@script
def tape_watched_variables_after(tf):
    tape, x, y = _tape_of(tf)
    return [v.name for v in tape.watched_variables()]


@script
def tape_enter_twice(tf):
    tape = tf.GradientTape()
    with tape:
        with tape:
            pass


@script
def tape_watch_list_with_python(tf):
    with tf.GradientTape() as tape:
        tape.watch([tf.constant(1.0), 2.0])


@script
def optimizer_none_gradient(tf):
    v = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.1)
    opt.apply_gradients([(None, v)])
    return v


@script
def optimizer_float64_gradient(tf):
    v = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.1)
    opt.apply_gradients([(tf.constant([1.0, 1.0], dtype=tf.float64), v)])
    return v


@script
def optimizer_shape_mismatch(tf):
    v = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.1)
    opt.apply_gradients([(tf.constant([1.0, 1.0, 1.0]), v)])
    return v


@script
def optimizer_not_pairs(tf):
    v = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.1)
    opt.apply_gradients([tf.constant([1.0, 1.0])])
    return v


@script
def optimizer_tensor_not_variable(tf):
    opt = tf.keras.optimizers.SGD(0.1)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), tf.constant([1.0, 1.0]))])


@script
def optimizer_momentum_str_array(tf):
    return tf.keras.optimizers.SGD(momentum=np.array(["a"]))


@script
def optimizer_lr_str(tf):
    v = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(learning_rate="fast")
    opt.apply_gradients([(tf.constant([1.0, 1.0]), v)])
    return v


@script
def optimizer_adam_python_grads(tf):
    v = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.Adam(0.1)
    opt.apply_gradients([([1.0, 1.0], v)])
    return v


@script
def optimizer_int_variable(tf):
    v = tf.Variable([1, 2])
    opt = tf.keras.optimizers.SGD(0.1)
    opt.apply_gradients([(tf.constant([1, 1]), v)])
    return v


@script
def dense_call_none(tf):
    return tf.keras.layers.Dense(3)(None)


@script
def dense_call_str(tf):
    return tf.keras.layers.Dense(3)("abc")


@script
def dense_call_dict(tf):
    return tf.keras.layers.Dense(3)({"a": 1.0})


@script
def dense_call_rank1(tf):
    return tf.keras.layers.Dense(3)(tf.ones([4])).shape


@script
def dense_call_int(tf):
    return tf.keras.layers.Dense(3)(tf.ones([2, 4], dtype=tf.int32)).dtype


@script
def dense_call_list(tf):
    return tf.keras.layers.Dense(3)([[1.0, 2.0]]).shape


@script
def dense_units_zero(tf):
    return tf.keras.layers.Dense(0)(tf.ones([2, 4])).shape


@script
def dense_units_negative(tf):
    return tf.keras.layers.Dense(-1)


@script
def dense_units_float(tf):
    return tf.keras.layers.Dense(2.5)


@script
def dense_units_str(tf):
    return tf.keras.layers.Dense("3")


@script
def dense_activation_unknown(tf):
    return tf.keras.layers.Dense(3, activation="nope")


@script
def dense_two_input_sizes(tf):
    layer = tf.keras.layers.Dense(3)
    layer(tf.ones([2, 4]))
    return layer(tf.ones([2, 5]))


@script
def sequential_not_layers(tf):
    return tf.keras.Sequential([3])


@script
def loss_mse_int_pred(tf):
    return tf.keras.losses.mse(tf.constant([1.0, 2.0]), tf.constant([1, 3]))


@script
def loss_mae_int_both(tf):
    return tf.keras.losses.mae(tf.constant([1, 2]), tf.constant([1, 4]))


@script
def loss_mse_shape_mismatch(tf):
    return tf.keras.losses.mse(tf.ones([2, 3]), tf.ones([2, 4]))


@script
def loss_object_none(tf):
    return tf.keras.losses.MeanSquaredError()(None, tf.ones([2]))


@script
def loss_object_str(tf):
    return tf.keras.losses.MeanSquaredError()("a", tf.ones([2]))


@script
def loss_bce_from_logits_str(tf):
    return tf.keras.losses.BinaryCrossentropy(from_logits=True)(tf.ones([2]), tf.zeros([2]))


@script
def loss_reduction_unknown(tf):
    return tf.keras.losses.MeanSquaredError(reduction="nope")


@script
def loss_sparse_float_labels(tf):
    return tf.keras.losses.sparse_categorical_crossentropy(
        tf.constant([0.0, 1.0]), tf.ones([2, 3]) / 3
    )


@script
def loss_sparse_label_out_of_range(tf):
    return tf.keras.losses.sparse_categorical_crossentropy(tf.constant([0, 5]), tf.ones([2, 3]) / 3)


# --- the issue's examples --------------------------------------------------------------------
@script
def issue_unstack_axis_2(tf):
    return tf.unstack(tf.ones([2, 3]), axis=2)


@script
def issue_unstack_scalar(tf):
    return tf.unstack(tf.constant(1.0))


@script
def issue_concat_scalars(tf):
    return tf.concat([tf.constant(1.0), tf.constant(2.0)], 0)


@script
def issue_concat_none(tf):
    return tf.concat([tf.ones([2]), None], 0)


@script
def issue_range_delta_0(tf):
    return tf.range(5, delta=0)


@script
def issue_transpose_scalar_perm(tf):
    return tf.transpose(tf.constant(1.0), perm=[5])


@script
def issue_linspace_axis_5(tf):
    return tf.linspace(0.0, 1.0, 5, axis=5)


@script
def issue_int64_times_2_70(tf):
    return tf.constant([1, 2], dtype=tf.int64) * 2**70


@script
def issue_argmin_axis_2_70(tf):
    return tf.argmin(tf.ones([2, 3]), axis=2**70)


@script
def issue_constant_shape_str(tf):
    return tf.constant(1.0, shape=(1, "a"))


@script
def issue_variable_str_assign_sub(tf):
    return tf.Variable("abc").assign_sub([1.0])


@script
def issue_variable_str_assign_int(tf):
    return tf.Variable("abc").assign(2**31)


@script
def issue_cast_to_unicode(tf):
    return tf.cast(tf.constant([1, 2]), np.dtype("<U3"))


@script
def issue_add_none(tf):
    return tf.add(tf.ones([2]), None)


@script
def issue_stack_with_none(tf):
    return tf.stack([1.0, None])


@script
def issue_add_np_int_float_list(tf):
    return tf.add(np.int64(3), [1.5, 2.5])


@script
def issue_zeros_float_shape(tf):
    return tf.zeros([2.7, 1])


@script
def issue_reshape_float_shape(tf):
    return tf.reshape(tf.ones([6]), [2.0, 3.0])


@script
def issue_expand_dims_float(tf):
    return tf.expand_dims(tf.ones([2]), 1.5)


@script
def issue_eye_float(tf):
    return tf.eye(2.5)


@script
def issue_perm_float(tf):
    return tf.transpose(tf.ones([2, 3]), perm=[1.5, 0])


@script
def issue_logical_and_int(tf):
    return tf.logical_and(tf.constant([1, 0]), tf.constant([1, 1]))


@script
def issue_is_nan_int(tf):
    return tf.math.is_nan(tf.constant([1, 2]))


@script
def issue_square_bool(tf):
    return tf.square(True)


@script
def issue_round_bool(tf):
    return tf.round(True)


@script
def issue_negative_uint8(tf):
    return tf.negative(tf.constant([1, 2], dtype=tf.uint8))


@script
def issue_reduce_axis_str(tf):
    return tf.reduce_sum(tf.ones([2, 3]), axis="0")


@script
def issue_reduce_axis_float(tf):
    return tf.reduce_sum(tf.ones([2, 3]), axis=[0.5])


@script
def issue_reduce_axis_duplicate(tf):
    return tf.reduce_sum(tf.ones([2, 3]), axis=[0, 0])


@script
def issue_argmax_output_float(tf):
    return tf.argmax(tf.ones([2, 3]), output_type=tf.float32)


@script
def issue_ones_dtype_none(tf):
    return tf.ones([2], dtype=None)


@script
def issue_cast_none(tf):
    return tf.cast(tf.ones([2]), None)


@script
def issue_assign_add_broadcast(tf):
    return tf.Variable([1.0, 2.0, 3.0]).assign_add(2.5)


@script
def issue_getitem_list(tf):
    return tf.constant([[1.0, 2.0], [3.0, 4.0]])[[0, 0]]


@script
def issue_cast_string(tf):
    return tf.cast(tf.ones([2]), tf.string)


@script
def issue_fill_non_scalar(tf):
    return tf.fill([2], [1.0, 2.0])


@script
def issue_range_negative(tf):
    return tf.range(-2)


@script
def issue_truediv_int32_int64(tf):
    return tf.truediv(tf.constant([1, 2]), tf.constant([1, 2], dtype=tf.int64))


@script
def issue_mse_int_pred(tf):
    return tf.keras.losses.mse(tf.constant([1.0, 2.0]), tf.constant([2, 2]))


@script
def issue_dtype_python_float(tf):
    return tf.as_dtype(float)


@script
def issue_dtype_str_float(tf):
    return tf.constant(1, dtype="float")


@script
def issue_clip_reversed(tf):
    return tf.clip_by_value(tf.constant([-1.0, 0.5, 2.0]), 0.0, -float("inf"))


@script
def issue_string_dtype_name(tf):
    return tf.constant(["a"]).dtype.name


@script
def issue_reduce_max_empty(tf):
    return [tf.reduce_max(tf.zeros([0])), tf.reduce_min(tf.zeros([0]))]


@script
def issue_bool_of_empty(tf):
    return bool(tf.zeros([0]))


@script
def issue_where_int_condition(tf):
    return tf.where(tf.constant([1, 0]), 1.0, 2.0)


@script
def issue_constant_str(tf):
    return [tf.constant("abc"), tf.Variable("abc")]


@script
def issue_rank_bytes(tf):
    return tf.rank(b"xy")


@script
def issue_stack_empty(tf):
    return tf.stack([])


@script
def issue_set_seed_tensor(tf):
    tf.random.set_seed(tf.constant(3))
    return tf.random.uniform([2]).shape


@script
def issue_set_seed_negative(tf):
    tf.random.set_seed(-3)
    return tf.random.uniform([2]).shape


@script
def issue_seed_tensor(tf):
    return tf.random.uniform([2], seed=tf.constant(3)).shape


@script
def issue_apply_gradients_float64(tf):
    return optimizer_float64_gradient(tf)


@script
def issue_batch_jacobian_rank1(tf):
    return tape_batch_jacobian_rank1(tf)


@script
def issue_stop_recording_exited(tf):
    return tape_stop_recording_exited(tf)


@script
def issue_selfref_list(tf):
    x = [1.0]
    x.append(x)
    return tf.constant(x)


@script
def issue_dense_none(tf):
    return tf.keras.layers.Dense(3)(None)


# Keras loss objects map over y_true and y_pred as structures (Keras 3's tree.map_structure)
@script
def loss_object_list_labels_tensor_predictions(tf):
    return tf.keras.losses.MeanSquaredError()([0.0, 1.0, 1.0], tf.constant([0.2, 0.7, 0.9]))


@script
def loss_object_tensor_labels_list_predictions(tf):
    return tf.keras.losses.BinaryCrossentropy()(tf.constant([0.0, 1.0]), [0.2, 0.7])


@script
def loss_object_lists_of_another_shape(tf):
    loss = tf.keras.losses.SparseCategoricalCrossentropy()
    return loss([1, 0], [[0.2, 0.7], [0.9, 0.4]])


@script
def loss_object_lists_of_the_same_shape(tf):
    return tf.keras.losses.MeanAbsoluteError()([0.0, 1.0], [0.5, 0.25])


@script
def loss_object_tuple_labels(tf):
    return tf.keras.losses.MeanSquaredError()((0.0, 1.0), tf.constant([0.5, 0.25]))


# (fit, callbacks and tf.data; tf.function, Conv2D and bfloat16)
from . import scripts_autograph, scripts_training  # noqa: E402, F401
