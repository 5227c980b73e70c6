"""The top level holds functions, as TF's does; the Op objects are in minitape.raw_ops."""

import minitape as tf
from minitape import grads
from minitape.tape import Op, apply


def test_no_op_object_at_the_top_level():
    assert [n for n in dir(tf) if isinstance(getattr(tf, n), Op)] == []


def test_raw_ops_holds_every_op_with_a_gradient_rule():
    held = {id(getattr(tf.raw_ops, n)) for n in tf.raw_ops.__all__}
    missing = sorted(op.name for op in grads.VJPS if id(op) not in held)
    assert missing == []
    y = apply(tf.raw_ops.Mul, tf.constant(2.0), tf.constant(3.0))  # what tf.multiply runs
    assert float(y) == 6.0 and tf.raw_ops.Mul.name == "Mul"
