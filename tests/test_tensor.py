"""Tensors, variables and TF's dtype rules."""

import numpy as np
import pytest

import minitape as tf
from minitape.errors import InvalidArgumentError


# --- dtypes -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value,dtype",
    [
        (1.5, tf.float32),
        (2, tf.int32),
        (True, tf.bool),
        ([1.0, 2.0], tf.float32),
        ([1, 2], tf.int32),
        (2**40, tf.int64),
        (np.float64(1.0), tf.float64),
        (np.ones(2, np.float16), tf.float16),
        (np.linspace(0, 1, 3), tf.float64),
        (np.arange(3), tf.int64),
    ],
)
def test_constant_dtype_rules(value, dtype):
    assert tf.constant(value).dtype == dtype


def test_dtype_objects():
    assert tf.float32.name == "float32" and tf.float32.is_floating and not tf.int32.is_floating
    assert tf.as_dtype("float64") == tf.float64 and tf.float32 == np.float32
    assert repr(tf.float32) == "tf.float32"


def test_python_and_numpy_operands_take_the_tensors_dtype():
    x = tf.constant([1.0, 2.0])
    assert (x * np.array([1.0, 2.0])).dtype == tf.float32  # float64 array -> float32
    assert (np.array([1.0, 2.0]) * x).dtype == tf.float32
    assert (x + 1).dtype == tf.float32 and (2 * x).dtype == tf.float32
    assert (x + [1, 2]).dtype == tf.float32
    i = tf.constant([1, 2])
    assert (i + 1).dtype == tf.int32
    with pytest.raises(InvalidArgumentError, match="expected to be a int32 tensor but is a float"):
        i + 1.5  # (TF's `+` converts 1.5 on its own, then AddV2 refuses the mix)
    with pytest.raises(TypeError, match="Cannot convert 2.0 to EagerTensor of dtype int32"):
        i * 2.0
    with pytest.raises(TypeError, match="Cannot convert 1.0 to EagerTensor of dtype int32"):
        tf.constant(1.0, dtype=tf.int32)
    assert tf.constant(np.array([1.7]), dtype=tf.int32).numpy().tolist() == [1]


def test_mixed_tensor_dtypes_raise_a_clear_error():
    with pytest.raises(
        InvalidArgumentError, match="expected to be a float tensor but is a double tensor"
    ):
        tf.constant(1.0) + tf.constant(1.0, tf.float64)
    with pytest.raises(InvalidArgumentError, match="int32"):
        tf.constant(1.0) * tf.constant(1)
    with pytest.raises(InvalidArgumentError, match=r"\[Op:MatMul\]"):
        tf.matmul(tf.ones((2, 2)), tf.ones((2, 2), tf.float64))


def test_cast():
    x = tf.cast(tf.constant([1.7, -1.7]), tf.int32)
    assert x.dtype == tf.int32 and x.numpy().tolist() == [1, -1]
    assert tf.cast(tf.constant([1, 0]), tf.bool).numpy().tolist() == [True, False]


def test_integer_division_gives_float64():
    assert (tf.constant(3) / tf.constant(2)).dtype == tf.float64


# --- the Tensor object ----------------------------------------------------------------------
def test_repr_and_str_like_tf():
    assert repr(tf.constant(24.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=24.0>"
    assert (
        repr(tf.constant([2.0, 4.0]))
        == "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>"
    )
    assert str(tf.constant([1, 2])) == "tf.Tensor([1 2], shape=(2,), dtype=int32)"
    assert str(tf.constant(8.0)) == "tf.Tensor(8.0, shape=(), dtype=float32)"
    v = tf.Variable(2.0, name="w")
    assert repr(v) == "<tf.Variable 'w:0' shape=() dtype=float32, numpy=2.0>"
    assert repr(tf.zeros((2, 3)).shape) == "TensorShape([2, 3])"
    assert f"{tf.constant(3.14159):.2f}" == "3.14"


def test_tensor_properties():
    x = tf.constant(np.arange(6.0).reshape(2, 3))
    assert x.shape == (2, 3) and x.shape.as_list() == [2, 3] and x.ndim == 2
    assert x.dtype.name == "float64" and len(x) == 2
    assert [row.numpy().tolist() for row in x] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert float(tf.constant(2.5)) == 2.5 and bool(tf.constant(True))
    assert isinstance(tf.constant(2.0).numpy(), np.float32)


def test_numpy_returns_a_copy_and_constant_copies_its_input():
    data = np.array([1.0, 2.0])
    t = tf.constant(data)
    data[0] = 100.0
    assert t.numpy()[0] == 1.0
    out = t.numpy()
    out[1] = -5.0
    assert t.numpy()[1] == 2.0


def test_numpy_functions_give_plain_numpy():
    # Computing "outside TF": the result is a numpy value, and no tape ever sees it.
    x = tf.constant([1.0, 2.0, 3.0])
    m = np.mean(x)
    assert isinstance(m, np.floating) and not isinstance(m, tf.Tensor) and m == 2.0
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = np.square(v)
    assert not isinstance(y, tf.Tensor)
    # The tape never saw the square: as in TF, a numpy target is an error, not None.
    with pytest.raises(AttributeError, match="'numpy.float32' object has no attribute '_id'"):
        tape.gradient(y, v)


def test_ndarray_op_tensor_gives_tensor():
    assert isinstance(np.array([1.0, 2.0]) + tf.constant([1.0, 2.0]), tf.Tensor)


def test_scalar_only_protocols():
    with pytest.raises(TypeError, match="Scalar tensor has no `len"):
        len(tf.constant(1.0))
    with pytest.raises(TypeError, match="Cannot iterate over a scalar tensor"):
        iter(tf.constant(1.0))
    with pytest.raises(ValueError):
        bool(tf.constant([1.0, 2.0]))


def test_tensors_are_unhashable_but_have_refs():
    x = tf.constant(1.0)
    with pytest.raises(TypeError, match="unhashable"):
        _ = {x: 1}
    d = {x.ref(): "x"}
    assert d[x.ref()] == "x" and x.ref().deref() is x


def test_operators_and_comparisons():
    a, b = tf.constant([1.0, 4.0]), tf.constant([2.0, 2.0])
    assert (a + b).numpy().tolist() == [3.0, 6.0] and (a - b).numpy().tolist() == [-1.0, 2.0]
    assert (a * b).numpy().tolist() == [2.0, 8.0] and (a / b).numpy().tolist() == [0.5, 2.0]
    assert (a**2).numpy().tolist() == [1.0, 16.0] and (2**a).numpy().tolist() == [2.0, 16.0]
    assert (1 - a).numpy().tolist() == [0.0, -3.0] and (-a).numpy().tolist() == [-1.0, -4.0]
    assert abs(tf.constant(-2.0)).numpy() == 2.0
    assert (a < b).numpy().tolist() == [True, False] and (a >= b).numpy().tolist() == [False, True]
    assert (a == b).numpy().tolist() == [False, False] and (a != b).numpy().tolist() == [True, True]
    assert (a == None) is False  # noqa: E711
    m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert (m @ m).numpy().tolist() == [[7.0, 10.0], [15.0, 22.0]]
    assert m[1, 0].numpy() == 3.0 and m[:, 1].numpy().tolist() == [2.0, 4.0]


# --- variables ------------------------------------------------------------------------------
def test_variable_basics():
    v = tf.Variable([1.0, 2.0], name="weights")
    assert v.name == "weights:0" and v.trainable and v.dtype == tf.float32 and v.shape == (2,)
    assert tf.Variable(1.0).name == "Variable:0"
    assert tf.Variable(3, dtype=tf.float64).dtype == tf.float64
    assert not tf.Variable(1.0, trainable=False).trainable
    assert (v * 2).numpy().tolist() == [2.0, 4.0]
    v.assign([5.0, 6.0])
    v.assign_add([1.0, 1.0])
    v.assign_sub(tf.constant([0.5, 0.5]))
    assert v.numpy().tolist() == [5.5, 6.5]


def test_variable_assign_shape_and_dtype_errors():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match=r"shape \(2,\).*\(3,\)"):
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="requested dtype float32 for Tensor with dtype float64"):
        v.assign(tf.constant([1.0, 2.0], tf.float64))  # (TF's class and words)
    with pytest.raises(InvalidArgumentError, match=r"shape \[2\] using a Tensor with shape \[\]"):
        v.assign_add(1.0)  # no broadcasting, as in TF
    with pytest.raises(ValueError, match="initial_value must be specified"):
        tf.Variable()


def test_assign_does_not_change_recorded_values():
    v = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y = v * v
    v.assign(100.0)
    assert float(tape.gradient(y, v)) == 4.0  # uses the value that was read (2)


# --- creation functions ---------------------------------------------------------------------
def test_creation_functions():
    assert tf.zeros([2, 3]).dtype == tf.float32 and tf.ones(2).numpy().tolist() == [1.0, 1.0]
    assert tf.zeros_like(tf.constant([1, 2])).dtype == tf.int32
    assert tf.ones_like(tf.constant([1.0])).numpy().tolist() == [1.0]
    assert tf.fill([2], 7.0).numpy().tolist() == [7.0, 7.0]
    assert tf.linspace(-1.0, 1.0, 3).numpy().tolist() == [-1.0, 0.0, 1.0]
    assert tf.range(3).dtype == tf.int32 and tf.range(0.0, 1.0, 0.5).numpy().tolist() == [0.0, 0.5]
    assert tf.eye(2).numpy().tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert tf.constant(0.0, shape=[2, 2]).shape == (2, 2)
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(None\)"):
        tf.constant(None)
    with pytest.raises(ValueError, match="unsupported type"):
        tf.constant({"a": 1})


def test_random_is_seeded():
    tf.random.set_seed(7)
    a = tf.random.normal([3]).numpy()
    b = tf.random.uniform([2], seed=1).numpy()
    tf.random.set_seed(7)
    assert tf.random.normal([3]).numpy().tolist() == a.tolist()
    assert tf.random.uniform([2], seed=1).numpy().tolist() == b.tolist()
    assert tf.random.normal([2, 2], mean=5.0, stddev=0.0).numpy().tolist() == [[5.0, 5.0]] * 2
    u = tf.random.uniform([100], minval=2.0, maxval=3.0).numpy()
    assert u.dtype == np.float32 and u.min() >= 2.0 and u.max() < 3.0


def test_stop_gradient():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x * tf.stop_gradient(x)
    assert float(tape.gradient(y, x)) == 3.0


@pytest.mark.parametrize(
    "shape, error",
    [([1, "a"], TypeError), ([3.0], TypeError), (float("nan"), TypeError), ([-1], ValueError)],
)
def test_constant_checks_its_shape_as_tensorshape_does(shape, error):
    # TF: "Dimension value must be integer or None or have an __index__ method" / "Dimension -1
    # must be >= 0" (a float dimension is never truncated)
    with pytest.raises(error, match="Dimension"):
        tf.constant([1.0, 2.0, 3.0], shape=shape)
    assert tf.constant([1.0, 2.0, 3.0], shape=np.array([3, 1])).shape == (3, 1)


def _nest(value, depth):
    for _ in range(depth):
        value = [value]
    return value


def test_a_nest_deeper_than_numpy_is_reduced_and_measured_but_not_converted():
    """TF holds a tensor of up to 254 dimensions but cannot read one of more than 64 as numpy;
    minitape's tensors are numpy values, so converting such a nest raises the error TF raises
    when it is read (InvalidArgumentError), while what needs only its values or lengths
    works as in TF."""
    deep = _nest(2.0, 70)
    for convert in (tf.constant, tf.convert_to_tensor, lambda v: tf.add(v, 1.0)):
        with pytest.raises(InvalidArgumentError, match="70 dimensions to NumPy array"):
            convert(deep)
    assert float(tf.reduce_sum(deep)) == 2.0
    assert bool(tf.reduce_any(_nest(True, 70)))
    assert tf.shape(deep).numpy().tolist() == [1] * 70
    assert int(tf.size(deep)) == 1 and int(tf.rank(deep)) == 70
    with pytest.raises(InvalidArgumentError):
        tf.reduce_sum(deep, keepdims=True)  # (a 70-d result: TF returns it, minitape cannot)
    with pytest.raises(TypeError, match="dtype bool"):
        tf.reduce_any(_nest(1, 70))  # (TF converts to bool first)


def test_a_list_of_tensors_is_packed_as_tf_packs_it():
    f, i = tf.constant([0.5, -1.0]), tf.constant([1, 2])
    assert tf.convert_to_tensor([f, i], dtype=tf.float64).dtype == tf.float64  # (cast)
    assert tf.add(np.array([1.0, 2.0]), [f, i]).numpy().tolist() == [[1.5, 1.0], [2.0, 4.0]]
    with pytest.raises(InvalidArgumentError, match="Pack as input #1"):
        tf.convert_to_tensor([f, i])
    with pytest.raises(TypeError, match="list containing a tensor of dtype"):
        tf.convert_to_tensor([[i], f])
    with pytest.raises(InvalidArgumentError, match="Shapes of all inputs must match"):
        tf.convert_to_tensor([f, tf.constant([1.0])])
