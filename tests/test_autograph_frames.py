"""Which code reading a traced tensor's value is refused (`autograph_frames`): the answers
TF 2.21 gives, checked under TF (a function a converted function calls is converted, through
tf.cond and map_fn too; not through Keras, custom_gradient, vectorized_map or
nest.map_structure)."""

import pytest

import minitape as tf
from minitape.errors import OperatorNotAllowedInGraphError


def absolute(y):
    if y > 0:
        return y
    return -y


class Holder:
    def method(self, y):
        if y > 0:
            return y
        return -y

    def __call__(self, y):
        return self.method(y)


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: Holder().method(x),
        lambda x: Holder()(x),
        lambda x: tf.cond(x < 0, lambda: absolute(x), lambda: x),
        lambda x: tf.map_fn(absolute, tf.stack([x, -x])),
        lambda x: tf.switch_case(tf.constant(0), [lambda: absolute(x)]),
    ],
    ids=["method", "callable", "cond_branch", "map_fn", "switch_case"],
)
def test_what_tf_converts_runs(fn):
    assert tf.reduce_sum(tf.function(fn)(tf.constant(-2.0))).numpy() > 0


@tf.custom_gradient
def _signed(x):
    return absolute(x), lambda dy: dy


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: tf.vectorized_map(absolute, tf.stack([x, -x])),
        lambda x: tf.nest.map_structure(absolute, x),
        lambda x: _signed(x),
        lambda x: tf.autograph.experimental.do_not_convert(absolute)(x),
    ],
    ids=["vectorized_map", "nest", "custom_gradient", "do_not_convert"],
)
def test_what_tf_runs_as_it_is_is_refused(fn):
    with pytest.raises(OperatorNotAllowedInGraphError, match="as a Python `bool`"):
        tf.function(fn)(tf.constant(-2.0))


def test_do_not_convert_leaves_the_function_itself_convertible():
    wrapped = tf.autograph.experimental.do_not_convert(absolute)
    assert wrapped is not absolute and wrapped.__name__ == "absolute"
    assert float(tf.function(absolute)(tf.constant(-2.0))) == 2.0
