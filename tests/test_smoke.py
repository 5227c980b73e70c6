import minitape as tf


def test_seed_example_by_hand():
    # y = w*x + b = 7, loss = (y - 5)^2: dloss/dw = 2*(y-5)*x = 12, dloss/db = 2*(y-5) = 4.
    # (The seed article prints 24 and 8, which is what b = 3 gives: y = 9, 2*4*3 = 24, 2*4 = 8.)
    for b0, expected in [(1.0, (12.0, 4.0)), (3.0, (24.0, 8.0))]:
        x, w, b = tf.Variable(3.0), tf.Variable(2.0), tf.Variable(b0)
        with tf.GradientTape() as tape:
            loss = tf.square(w * x + b - 5)
        dw, db = tape.gradient(loss, [w, b])
        assert (float(dw), float(db)) == expected
