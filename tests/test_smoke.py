import minitape as tf


def test_seed_example_dw_db():
    x, w, b = tf.Variable(3.0), tf.Variable(2.0), tf.Variable(1.0)
    with tf.GradientTape() as tape:
        loss = tf.square(w * x + b - 5)
    dw, db = tape.gradient(loss, [w, b])
    assert (float(dw), float(db)) == (24.0, 8.0)
