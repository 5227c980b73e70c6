"""Golden cases for input that TF refuses and minitape once accepted without a word: shapes
that are no shapes, dtypes an op has no kernel for, Python bools as narrow integers, object
arrays, a `dtype_hint` that is no dtype, Keras 3's dtype policies and optimizer arguments, an
optimizer used on variables it was not built with; and `embedding_lookup` of a tuple, which
TF reads as one table."""

import numpy as np

from .cases import attempt, case


@case(message=True)
def refuse_tensorshape_that_is_no_shape(tf):
    return [
        attempt(tf.TensorShape, [-1]),
        attempt(tf.TensorShape, [2, -3]),
        type(attempt(tf.TensorShape, [[1, 2]])).__name__,
        type(attempt(tf.TensorShape, [1.5])).__name__,
        type(attempt(tf.TensorShape, "ab")).__name__,
        type(attempt(tf.TensorShape)).__name__,
        tf.TensorShape(3).as_list(),
        tf.TensorShape([None, 2]).as_list(),
        tf.TensorShape((np.int64(4), 1)).as_list(),
    ]


@case(message=True)
def refuse_kernels_an_op_does_not_have(tf):
    ints = tf.constant([1, 2])
    return [
        attempt(tf.shape, ints, out_type=tf.float32),
        attempt(tf.shape, ints, out_type=tf.int8),
        attempt(tf.shape, ints, out_type=tf.bool),
        tf.shape(ints, out_type=tf.int64),
        tf.shape(ints, out_type=[]),
        attempt(tf.math.is_inf, tf.constant([1 + 2j])),
        attempt(tf.math.is_nan, tf.constant([1 + 2j])),
        attempt(tf.math.is_finite, tf.constant([1 + 2j])),
        attempt(tf.sign, tf.constant([1], dtype=tf.uint8)),
        attempt(tf.sign, tf.constant([True])),
        tf.sign(tf.constant([-3], dtype=tf.int8)),
        attempt(tf.argmax, tf.constant(["a", "b"])),
        attempt(tf.argmin, tf.constant([1 + 1j, 2])),
        tf.argmax(tf.constant([False, True])),
        attempt(tf.range, 3, dtype=tf.uint8),
        tf.range(3, dtype=tf.float16),
        tf.range(3, dtype=tf.int64),
    ]


@case
def refuse_range_without_a_cpu_kernel(tf):
    return [type(attempt(tf.range, 3, dtype=d)).__name__ for d in (tf.int8, tf.int16)]


@case(message=True)
def refuse_python_bools_as_narrow_integers(tf):
    i8 = tf.constant([1, 2], dtype=tf.int8)
    return [
        attempt(lambda: i8**True),
        attempt(lambda: i8 * False),
        attempt(lambda: tf.constant([1, 2], dtype=tf.int16) - True),
        attempt(tf.constant, True, dtype=tf.int8),
        attempt(tf.constant, [True, False], dtype=tf.int16),
        tf.constant([1, 2], dtype=tf.int32) ** True,
        tf.constant(True, dtype=tf.int64),
        i8**np.True_,
    ]


@case(message=True)
def refuse_object_arrays_an_op_reads_as_they_are(tf):
    return [
        attempt(tf.reduce_all, np.array([True, False], dtype=object)),
        attempt(tf.reduce_any, np.array([1, 0], dtype=object)),
        tf.reduce_all(np.array(["a", ""], dtype=object)),
        tf.reduce_all(np.array([True, False], dtype=object), axis=0),
        tf.logical_not(np.array([True, 1], dtype=object)),
        tf.constant(np.array([1, 0], dtype=object), dtype=tf.bool),
    ]


@case(message=True)
def refuse_dtype_hint_that_is_no_dtype(tf):
    return [
        attempt(tf.convert_to_tensor, 1.0, dtype_hint="bogus"),
        attempt(tf.convert_to_tensor, tf.constant(1.0), dtype_hint="bogus"),
        attempt(tf.convert_to_tensor, tf.Variable(1.0), dtype_hint=[]),
        tf.convert_to_tensor(1.0, dtype_hint=3),
        tf.convert_to_tensor(1, dtype_hint="float32"),
    ]


@case(message=True)
def refuse_keras_dtype_policies(tf):
    losses, layers = tf.keras.losses, tf.keras.layers
    return [
        attempt(losses.MeanSquaredError, dtype=3),
        attempt(losses.BinaryCrossentropy, dtype=True),
        attempt(losses.MeanSquaredError, dtype="bogus"),
        attempt(layers.Dense, 1, dtype=2.5),
        attempt(layers.Dense, 1, dtype="no_such_dtype"),
        losses.MeanSquaredError(dtype=tf.float64).dtype,
        losses.MeanSquaredError(dtype=np.float64).dtype,
        layers.Dense(1, dtype="float64").dtype,
        layers.Dense(1, dtype=float).dtype,
    ]


@case(message=True)
def refuse_optimizer_clipping_twice(tf):
    opts = tf.keras.optimizers
    return [
        attempt(opts.SGD, clipnorm=1.0, clipvalue=0.5),
        attempt(opts.SGD, clipnorm=1.0, global_clipnorm=2.0),
        attempt(opts.Adam, clipvalue=1.0, global_clipnorm=1.0),
        type(opts.SGD(clipvalue=0.5)).__name__,
    ]


@case
def refuse_optimizer_on_variables_it_was_not_built_with(tf):
    v, w = tf.Variable(1.0), tf.Variable(2.0)
    sgd = tf.keras.optimizers.SGD(0.5)
    sgd.apply_gradients([(tf.constant(1.0), v), (None, w)])  # built on v and w
    sgd.apply_gradients([(tf.constant(1.0), w)])
    stranger = tf.Variable(3.0)
    adam = tf.keras.optimizers.Adam(0.1)
    adam.apply_gradients([(tf.constant(1.0), v)])
    built = tf.keras.optimizers.SGD(0.5)
    built.build([v])
    return [
        v,
        w,
        attempt(sgd.apply_gradients, [(tf.constant(1.0), stranger)]),
        attempt(adam.apply_gradients, [(tf.constant(1.0), w)]),
        attempt(built.apply_gradients, [(tf.constant(1.0), w)]),
        stranger,
        w,
    ]


@case
def optimizer_built_on_a_layers_keras_variables_updates_them(tf):
    layer = tf.keras.layers.Dense(2, kernel_initializer="ones")
    layer.build((None, 3))
    sgd = tf.keras.optimizers.SGD(0.5)
    sgd.build(layer.trainable_variables)
    sgd.apply([tf.ones((3, 2)), tf.constant([1.0, -1.0])])  # (no variables: the built ones)
    return [layer.kernel.numpy(), layer.bias.numpy(), sgd.iterations]


@case(message=True)
def refuse_to_build_an_optimizer_on_a_tensor_or_a_number(tf):
    return [
        attempt(tf.keras.optimizers.SGD(0.1).build, [tf.constant(1.0)]),
        attempt(tf.keras.optimizers.Adam(0.1).build, [1.0]),
    ]


@case(message=True)
def keras_optimizers_have_no_minimize(tf):
    # (Keras 3's optimizers update from gradients only: apply_gradients or apply)
    w = tf.Variable(3.0)
    return [
        attempt(lambda: tf.keras.optimizers.SGD(0.25).minimize(lambda: w * w, [w])),
        attempt(lambda: tf.keras.optimizers.Adam().minimize),
        w,
    ]


@case
def embedding_lookup_of_a_tuple_is_one_table(tf):
    shards = [tf.constant([[1.0, 2.0]]), tf.constant([[3.0, 4.0]])]
    return [
        tf.nn.embedding_lookup(((1, 2), (3, 4)), [1]),
        tf.nn.embedding_lookup((2, 3), [1, 0]),
        tf.nn.embedding_lookup(tuple(shards), [1]),
        tf.nn.embedding_lookup(shards, [1]),
    ]


@case(message=True)
def dtype_given_as_an_array_a_bool_or_an_enum_number(tf):
    """TF's as_dtype reads an array by its dtype and looks anything else up among the DataType
    enum values (True and 1.0 are 1: float32; 2.0 is float64); zeros_like/ones_like first
    compare the argument with the input's dtype, where an array's truth is numpy's."""
    x = tf.constant([[1.0, -2.0, 3.0]])
    names = [
        tf.as_dtype(v).name
        for v in (np.array([1, 2], np.uint8), np.array([0.5]), np.array(["a"]), True, 1.0, 2.0)
    ]
    return [
        names,
        tf.as_dtype(np.float64(2.5)).name,
        tf.as_dtype(np.float64(3.0)).name,
        attempt(tf.as_dtype, False),
        attempt(tf.as_dtype, 1.5),
        attempt(tf.as_dtype, bytes),
        attempt(tf.as_dtype, complex),
        tf.cast(x, np.array([1, 0, 2], dtype=np.int64)),
        tf.cast(x, True),
        tf.zeros([2], dtype=np.array([True, False])),
        tf.ones([2], dtype=2.0),
        tf.eye(2, dtype=np.array([1], np.int64)),
        tf.zeros_like(x, dtype=True),
        tf.ones_like(x, dtype=2.0),
        tf.zeros_like(x, dtype=np.array([2.0])),
        tf.ones_like(x, dtype=np.array([[1]])),
        attempt(tf.zeros_like, x, dtype=np.array([1, 2], np.uint8)),
        attempt(tf.ones_like, x, dtype=np.zeros(0)),
        type(attempt(tf.zeros_like, x, dtype=tf.constant([1]))).__name__,
        tf.one_hot(tf.constant([1, 0]), 2, dtype=np.array([2.0])),
        attempt(tf.one_hot, tf.constant([1, 0]), 2, dtype=np.ones(3)),
        attempt(tf.one_hot, tf.constant([1, 0]), 2, dtype=np.array(["a", "b"])),
        tf.shape(x, out_type=0),
        tf.shape(x, out_type=tf.zeros([0])),
        attempt(tf.shape, x, out_type=np.ones(3)),
        attempt(tf.ones, [2], dtype=tf.string),
        attempt(tf.ones_like, tf.constant(["a"])),
        attempt(tf.size, x, out_type=tf.string),
        type(attempt(tf.range, 3, dtype=np.complex128)).__name__,
    ]


@case(message=True)
def python_lists_holding_tensors_of_other_dtypes(tf):
    """TF packs a list that holds tensors: cast to the dtype asked for (an op's other operand),
    else one Pack of tensors that must agree, else each tensor must have the first's dtype."""
    f, i = tf.constant([0.5, -1.0]), tf.constant([1, 2])
    return [
        tf.add(np.array([0.5, 2.0]), [f, i]),
        tf.multiply(np.float64(2.0), [f, i]),
        tf.constant([1.0, 2.0], tf.float64) + [f, i],
        tf.convert_to_tensor([f, i], dtype=tf.float64),
        tf.convert_to_tensor([f, [1, 0]], dtype=tf.float32),
        tf.convert_to_tensor([tf.constant(1.0), np.array(2.0)]),
        tf.convert_to_tensor([tf.constant(1.0), 2], dtype_hint=tf.int32),
        attempt(tf.convert_to_tensor, [f, i]),
        attempt(tf.add, [f, i], np.array([0.5, 2.0])),
        attempt(tf.convert_to_tensor, [[tf.constant(1)], tf.constant([1.0])]),
        attempt(tf.convert_to_tensor, [tf.constant([1.0]), tf.constant([1.0, 2.0])]),
        attempt(tf.convert_to_tensor, [tf.constant([1, 0]), [1.5, 2.0]]),
        attempt(tf.add, np.array([0.5, 2.0]), [f, tf.constant(["a", "b"])]),
        attempt(tf.clip_by_value, np.array([0.5, 2.0, 1.0]), [f, f, f], 1.5),
    ]


@case(message=True)
def python_lists_deeper_than_numpy_and_ints_beyond_int64(tf):
    """A list nested 70 deep is a tensor TF can hold (up to 254 dimensions) but not turn into
    numpy: reduced over every axis, or asked its shape, it is fine. An int beyond int64 becomes
    a float where a floating dtype is asked for."""
    deep = 2.0
    for _ in range(70):
        deep = [deep]
    return [
        tf.reduce_sum(deep),
        tf.reduce_max(deep),
        tf.reduce_all(_nest(True, 70)),
        tf.shape(deep),
        tf.size(deep),
        tf.rank(deep),
        tf.convert_to_tensor(2**70, dtype=tf.float32),
        tf.constant([2**70, 1.5], dtype=tf.float64),
        tf.linspace(0.0, 2**70, 3),
        tf.keras.losses.mae(2**70, tf.constant([0.5, -1.0])),
        attempt(tf.convert_to_tensor, 2**70),
        attempt(tf.convert_to_tensor, 2**70, dtype=tf.int64),
        attempt(tf.convert_to_tensor, 2**1030, dtype=tf.float64),
    ]


def _nest(value, depth):
    for _ in range(depth):
        value = [value]
    return value


@case(message=True)
def axes_and_perms_tf_reads_by_their_values(tf):
    """expand_dims takes any axis holding one value ([[0]]); transpose a perm with negative
    entries (counted from the end, once); a reduction an axis of any rank ([[]] is no axis)."""
    x = tf.constant([[1.0, -2.0, 3.0], [-4.0, 5.0, 0.25]])
    b = tf.constant([True, False, True])
    return [
        tf.expand_dims(x, [[0]]),
        tf.expand_dims(x, [2]),
        attempt(tf.expand_dims, x, [0, 1]),
        attempt(tf.expand_dims, x, [[5]]),
        tf.transpose(x, perm=[-1, 0]),
        tf.transpose(tf.reshape(tf.range(6), [1, 2, 3]), perm=[-1, 0, -2]),
        attempt(tf.transpose, x, perm=[-1]),
        attempt(tf.transpose, x, perm=[-3, 0]),
        attempt(tf.transpose, x, perm=[-1, 1]),
        tf.reduce_any(b, axis=[[]]),
        tf.reduce_sum(x, axis=[[1]]),
        tf.reduce_mean(x, axis=[[0, 1]]),
        tf.keras.losses.binary_crossentropy(
            tf.constant([0.5, 0.2]), tf.constant([0.5, 0.9]), axis=[[]]
        ),
        _complex(tf.sigmoid(np.array([1 + 1j, 2.0, -1000.0]))),
        _complex(tf.sigmoid(tf.constant(1 - 2j))),
    ]


def _complex(t):
    """A complex tensor as its dtype and rounded parts (the record holds real numbers)."""
    v = t.numpy()
    return [t.dtype.name, np.round(v.real, 6).tolist(), np.round(v.imag, 6).tolist()]


@case
def jacobian_of_a_numpy_target_is_unconnected(tf):
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
    return [
        tape.jacobian(np.array([0.5, -1.0, 2.0]), x),
        tape.jacobian(np.float64(2.0), x),
        tape.jacobian(y, x),
    ]


@case(message=True)
def a_variable_operand_gives_its_dtype_as_a_tensor_does(tf):
    """numpy data or a Python number beside a variable takes the variable's dtype (TF's eager
    fast path); a Python list first is converted first, and the variable must then match."""
    v = tf.Variable([1, 0, 2])
    return [
        tf.maximum(np.array([0.5, -1.0, 2.0]), v),
        tf.multiply(np.array([0.5, -1.0, 2.0]), v),
        tf.equal(np.array([1.0, 0.0, 3.0]), v),
        attempt(tf.multiply, 1.5, v),
        attempt(tf.multiply, [0.5, -1.0, 2.0], v),
        tf.multiply([1, 0, 2], v),
        type(attempt(tf.add, np.array([0.5, -1.0, 2.0]), v)).__name__,
    ]


@case(message=True)
def python_lists_mixing_bools_and_numbers(tf):
    """[True, 1] is converted where a wide number dtype is asked for or hinted (True is 1), and
    refused where none is (no dtype, an op's input, Keras' cast of y_true) or where the dtype is
    bool, a string or a narrow integer."""
    x = tf.ones([2])
    return [
        tf.convert_to_tensor([True, 1], dtype=tf.float64),
        tf.convert_to_tensor([1.5, True], dtype=tf.float32),
        tf.convert_to_tensor([True, 1], dtype_hint=tf.int32),
        tf.constant([[True], [1]], dtype=tf.int64),
        x + [True, 1],
        tf.multiply(tf.ones([2], tf.int32), [True, 1]),
        tf.zeros([True, 2]),
        tf.repeat(tf.ones([2, 3]), [True, 1], axis=0),
        tf.keras.losses.mae([True, 1], tf.constant([0.5, 2.0])),
        attempt(tf.convert_to_tensor, [True, 1]),
        attempt(tf.convert_to_tensor, [True, 1], dtype=tf.int8),
        attempt(tf.convert_to_tensor, [True, 1.5], dtype=tf.int32),
        attempt(tf.convert_to_tensor, [1, True, 2.5], dtype=tf.int32),
        attempt(tf.reshape, tf.ones([1]), [True, 1]),
        attempt(tf.tile, x, [True]),
        attempt(tf.reduce_sum, x, axis=[True, 0]),
        attempt(tf.nn.sigmoid_cross_entropy_with_logits, labels=[True, 1], logits=x),
        attempt(tf.keras.losses.binary_crossentropy, [True, 1], x),
        attempt(tf.clip_by_value, tf.ones([2, 3]), [True, 1], 1.5),
    ]


@case(message=True)
def keras_3_refuses_unknown_keyword_arguments(tf):
    # Keras 3: a layer or model given a keyword it does not know raises ValueError naming them;
    # Sequential takes only layers, trainable and name (a dtype is a TypeError); an optimizer
    # says which arguments it did not recognise
    return [
        attempt(tf.keras.layers.Dense, 3, foo=1),
        attempt(tf.keras.layers.Layer, foo=1),
        attempt(tf.keras.Model, foo=1),
        attempt(tf.keras.Sequential, [tf.keras.layers.Dense(1)], dtype="float64"),
        attempt(tf.keras.optimizers.SGD, 0.1, foo=1),
        attempt(tf.keras.optimizers.Adam, 0.1, momentum=0.5),
        tf.keras.Sequential([tf.keras.layers.Dense(1)], name="m", trainable=False).trainable,
    ]
