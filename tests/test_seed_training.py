"""The seed articles' training snippets, run with only `import minitape as tf` changed.

Each test keeps the article's code as written (the text-extraction damage in the 003 article
repaired, the CycleGAN snippet's bugs left out) around small models and data, and checks
what the article says it does, against numbers worked out by hand where there are numbers.
"""

import numpy as np
import pytest

import minitape as tf


def tiny_mlp(hidden=16, activation="relu"):
    return tf.keras.Sequential(
        [tf.keras.layers.Dense(hidden, activation=activation), tf.keras.layers.Dense(1)]
    )


class Critic(tf.keras.Model):
    """A float64 critic: finite differences in float64 are accurate to about 1e-9."""

    def __init__(self):
        super().__init__(dtype="float64")
        self.hidden = tf.keras.layers.Dense(16, activation="tanh", dtype="float64")
        self.out = tf.keras.layers.Dense(1, dtype="float64")

    def call(self, x):
        return self.out(self.hidden(x))


# --- S1: linear regression with SGD(0.1) and MeanSquaredError (000) -------------------------
def test_s1_linear_regression_converges_to_w2_b10(capsys):
    TRAIN_STEPS = 20
    # Prepare training data
    train_X = np.linspace(-1, 1, 100)
    train_Y = 2 * train_X + np.random.RandomState(0).randn(*train_X.shape) * 0.33 + 10
    w = tf.Variable(initial_value=1.0)
    b = tf.Variable(initial_value=1.0)
    optimizer = tf.keras.optimizers.SGD(0.1)
    mse = tf.keras.losses.MeanSquaredError()
    print("Initial w:", w.numpy())
    print("Initial b:", b.numpy())
    history = []
    for i in range(TRAIN_STEPS):
        print("Epoch:", i)
        with tf.GradientTape() as tape:
            logit = w * train_X + b
            loss = mse(train_Y, logit)

        gradients = tape.gradient(target=loss, sources=[w, b])
        optimizer.apply_gradients(zip(gradients, [w, b]))

        print("Current w:", w.numpy())
        print("Current b:", b.numpy())
        history.append((float(w), float(b)))

    # The first step by hand: loss = mean((w x + b - y)^2) with w = b = 1 (in float32 data,
    # as the float64 numpy arrays meet float32 variables), so
    # dw = 2 mean((x + 1 - y) x), db = 2 mean(x + 1 - y), and SGD does w -= 0.1 dw.
    x, y = train_X.astype(np.float32).astype(float), train_Y.astype(np.float32).astype(float)
    r = x + 1 - y
    assert history[0][0] == pytest.approx(1 - 0.1 * 2 * np.mean(r * x), rel=1e-5)
    assert history[0][1] == pytest.approx(1 - 0.1 * 2 * np.mean(r), rel=1e-5)
    # After 20 steps: b is near 10 and w on its way to 2 (w moves slower: x is small).
    w20, b20 = history[-1]
    assert abs(b20 - 10) < 0.3 and 1.5 < w20 < 2.1
    assert all(b1 < b2 for (_, b1), (_, b2) in zip(history, history[1:]))
    printed = capsys.readouterr().out
    assert printed.startswith("Initial w: 1.0\nInitial b: 1.0\nEpoch: 0\nCurrent w:")
    # Trained longer, it lands on the least-squares line through the noisy data.
    for _ in range(300):
        with tf.GradientTape() as tape:
            loss = mse(train_Y, w * train_X + b)
        optimizer.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
    slope, intercept = np.polyfit(train_X, train_Y, 1)
    assert float(w) == pytest.approx(slope, abs=1e-3) and float(b) == pytest.approx(
        intercept, abs=1e-3
    )
    assert abs(slope - 2) < 0.2 and abs(intercept - 10) < 0.1


# --- S6: two losses, two gradients, one persistent tape (003) --------------------------------
def test_s6_persistent_tape_gives_mse_and_mae_gradients():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    rng = np.random.default_rng(1)
    x_train = rng.standard_normal((8, 2)).astype(np.float32)
    y_true = rng.standard_normal((8, 1)).astype(np.float32)
    model(x_train)
    model.set_weights([np.array([[0.5], [-1.0]], np.float32), np.array([0.25], np.float32)])

    with tf.GradientTape(persistent=True) as tape:
        y_pred = model(x_train)
        loss_mse = tf.reduce_mean(tf.square(y_pred - y_true))
        loss_mae = tf.reduce_mean(tf.abs(y_pred - y_true))
    grads_mse = tape.gradient(loss_mse, model.trainable_variables)
    grads_mae = tape.gradient(loss_mae, model.trainable_variables)
    del tape  # free the recording

    # by hand: r = x W + b - y; d mean(r^2) = 2 r / n; d mean(|r|) = sign(r) / n
    r = x_train @ np.array([[0.5], [-1.0]]) + 0.25 - y_true
    n = r.size
    np.testing.assert_allclose(grads_mse[0].numpy(), x_train.T @ (2 * r / n), rtol=1e-5)
    np.testing.assert_allclose(grads_mse[1].numpy(), [np.sum(2 * r / n)], rtol=1e-5)
    np.testing.assert_allclose(grads_mae[0].numpy(), x_train.T @ (np.sign(r) / n), rtol=1e-5)
    np.testing.assert_allclose(grads_mae[1].numpy(), [np.sum(np.sign(r)) / n], rtol=1e-5)
    # the article's losses are Keras' losses written out
    assert float(loss_mse) == pytest.approx(
        float(tf.keras.losses.MeanSquaredError()(y_true, y_pred))
    )
    assert float(loss_mae) == pytest.approx(
        float(tf.keras.losses.MeanAbsoluteError()(y_true, y_pred))
    )


# --- S8: the WGAN-GP gradient penalty, and its gradient through a nested tape (003) ---------
def test_s8_gradient_penalty_and_its_gradient_match_finite_differences():
    tf.random.set_seed(0)
    discriminator = Critic()
    real = tf.random.normal((8, 2), dtype=tf.float64)
    fake = tf.random.normal((8, 2), dtype=tf.float64)
    alpha = tf.random.uniform((8, 1), dtype=tf.float64)
    interpolated_inputs = alpha * real + (1 - alpha) * fake
    discriminator(interpolated_inputs)

    def gradient_penalty():
        with tf.GradientTape() as tape:
            tape.watch(interpolated_inputs)
            predictions = discriminator(interpolated_inputs)
        grads = tape.gradient(predictions, interpolated_inputs)
        grad_norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=-1))
        gp_loss = tf.reduce_mean((grad_norm - 1.0) ** 2)
        return grads, gp_loss

    with tf.GradientTape() as critic_tape:  # the outer tape records the inner gradient
        grads, gp_loss = gradient_penalty()
    kernel1, bias1, kernel2, bias2 = discriminator.trainable_variables
    d_gp = critic_tape.gradient(gp_loss, discriminator.trainable_variables)

    # The inner gradient by hand: critic(x) = tanh(x K1 + b1) K2 + b2, so
    # d critic / dx = ((1 - h^2) * K2^T) K1^T, one row per example.
    h = np.tanh(interpolated_inputs.numpy() @ kernel1.numpy() + bias1.numpy())
    by_hand = ((1 - h**2) * kernel2.numpy().T) @ kernel1.numpy().T
    np.testing.assert_allclose(grads.numpy(), by_hand, rtol=1e-12)
    norms = np.sqrt((by_hand**2).sum(axis=1))
    assert float(gp_loss) == pytest.approx(np.mean((norms - 1) ** 2), rel=1e-12)

    # The penalty's gradient w.r.t. the critic's weights, against central differences.
    # (The last bias shifts the critic's output but not its slope: its gradient is None.)
    assert d_gp[3] is None
    for var, g in zip([kernel1, bias1, kernel2], d_gp[:3]):
        base = var.numpy()
        numeric = np.zeros_like(base)
        for i in np.ndindex(base.shape):
            for sign in (1, -1):
                shifted = base.copy()
                shifted[i] += sign * 1e-6
                var.assign(shifted)
                numeric[i] += sign * float(gradient_penalty()[1]) / 2e-6
        var.assign(base)
        np.testing.assert_allclose(g.numpy(), numeric, rtol=1e-5, atol=1e-8)


# --- S11: two tapes train a GAN on 1-D data (003) -------------------------------------------
def test_s11_two_tapes_train_a_gan_on_1d_data():
    # (Keras 3's initializers take their seeds from Python's `random`: set_random_seed seeds it.
    # With this seed, TF's own run ends as minitape's, its generated mean near 3.06.)
    tf.keras.utils.set_random_seed(2)
    generator, discriminator = tiny_mlp(), tiny_mlp()
    cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)

    def generator_loss(fake_output):
        return cross_entropy(tf.ones_like(fake_output), fake_output)

    def discriminator_loss(real_output, fake_output):
        return cross_entropy(tf.ones_like(real_output), real_output) + cross_entropy(
            tf.zeros_like(fake_output), fake_output
        )

    opt_gen = tf.keras.optimizers.Adam(0.01)
    opt_disc = tf.keras.optimizers.Adam(0.01)

    def train_step(noise, real_images):
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
            fake_images = generator(noise, training=True)
            real_output = discriminator(real_images, training=True)
            fake_output = discriminator(fake_images, training=True)
            gen_loss = generator_loss(fake_output)
            disc_loss = discriminator_loss(real_output, fake_output)
        gen_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
        disc_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
        opt_gen.apply_gradients(zip(gen_grads, generator.trainable_variables))
        opt_disc.apply_gradients(zip(disc_grads, discriminator.trainable_variables))
        return gen_tape, disc_tape, gen_loss, disc_loss

    def real_batch():  # the "real images": samples of N(3, 0.5)
        return tf.random.normal((64, 1), mean=3.0, stddev=0.5)

    def generated_mean():
        return float(tf.reduce_mean(generator(tf.random.normal((1000, 4)))))

    start = generated_mean()
    gen_before = [v.numpy() for v in generator.trainable_variables]
    disc_before = [v.numpy() for v in discriminator.trainable_variables]
    gen_tape, disc_tape, gen_loss0, disc_loss0 = train_step(tf.random.normal((64, 4)), real_batch())
    # Each tape answered one gradient call, for its own network (both are one-shot tapes) ...
    for tape in (gen_tape, disc_tape):
        with pytest.raises(RuntimeError, match="non-persistent"):
            tape.gradient(gen_loss0, generator.trainable_variables)
    # ... and each optimizer moved only its network's weights.
    assert all((a != v.numpy()).any() for a, v in zip(gen_before, generator.trainable_variables))
    assert all(
        (a != v.numpy()).any() for a, v in zip(disc_before, discriminator.trainable_variables)
    )
    assert int(opt_gen.iterations) == int(opt_disc.iterations) == 1
    for opt, mine, other in [
        (opt_gen, generator, discriminator),
        (opt_disc, discriminator, generator),
    ]:
        assert all(opt.get_slot(v, "m") is not None for v in mine.trainable_variables)
        with pytest.raises(KeyError):
            opt.get_slot(other.trainable_variables[0], "m")

    losses = [train_step(tf.random.normal((64, 4)), real_batch())[2:] for _ in range(300)]
    # The losses move, and the generator's samples move from around 0 to the real data's 3.
    assert float(losses[-1][0]) != float(gen_loss0) and float(losses[-1][1]) != float(disc_loss0)
    assert abs(start - 3) > 2 and abs(generated_mean() - 3) < 1


# --- S12: CycleGAN, one persistent tape, four networks, four gradient calls (000) -----------
def test_s12_cyclegan_step_with_one_persistent_tape():
    tf.keras.utils.set_random_seed(1)  # (Keras 3's initializers take their seeds from `random`)
    generator_g, generator_f = tiny_mlp(8, "tanh"), tiny_mlp(8, "tanh")  # X -> Y, Y -> X
    discriminator_x, discriminator_y = tiny_mlp(8, "tanh"), tiny_mlp(8, "tanh")
    LAMBDA = 10
    loss_obj = tf.keras.losses.BinaryCrossentropy(from_logits=True)

    def discriminator_loss(real, generated):
        return (
            loss_obj(tf.ones_like(real), real) + loss_obj(tf.zeros_like(generated), generated)
        ) * 0.5

    def generator_loss(generated):
        return loss_obj(tf.ones_like(generated), generated)

    def calc_cycle_loss(real_image, cycled_image):
        return LAMBDA * tf.reduce_mean(tf.abs(real_image - cycled_image))

    def identity_loss(real_image, same_image):
        return LAMBDA * 0.5 * tf.reduce_mean(tf.abs(real_image - same_image))

    generator_g_optimizer, generator_f_optimizer = (
        tf.keras.optimizers.Adam(2e-3),
        tf.keras.optimizers.Adam(2e-3),
    )
    discriminator_x_optimizer, discriminator_y_optimizer = (
        tf.keras.optimizers.Adam(2e-3),
        tf.keras.optimizers.Adam(2e-3),
    )

    def train_step(real_x, real_y):
        with tf.GradientTape(persistent=True) as tape:
            generated_y = generator_g(real_x, training=True)
            generated_x = generator_f(real_y, training=True)

            disc_real_x = discriminator_x(real_x, training=True)
            disc_real_y = discriminator_y(real_y, training=True)

            disc_fake_x = discriminator_x(generated_x, training=True)
            disc_fake_y = discriminator_y(generated_y, training=True)

            loss_gen_g = generator_loss(disc_fake_y)
            loss_gen_f = generator_loss(disc_fake_x)

            loss_disc_x = discriminator_loss(disc_real_x, disc_fake_x)
            loss_disc_y = discriminator_loss(disc_real_y, disc_fake_y)

            cycled_x = generator_f(generated_y, training=True)
            cycled_y = generator_g(generated_x, training=True)
            total_cycle_loss = calc_cycle_loss(real_x, cycled_x) + calc_cycle_loss(real_y, cycled_y)

            same_x = generator_f(real_x, training=True)
            same_y = generator_g(real_y, training=True)
            total_loss_gen_g = loss_gen_g + total_cycle_loss + identity_loss(real_y, same_y)
            total_loss_gen_f = loss_gen_f + total_cycle_loss + identity_loss(real_x, same_x)

        grad_gen_g = tape.gradient(total_loss_gen_g, generator_g.trainable_variables)
        grad_gen_f = tape.gradient(total_loss_gen_f, generator_f.trainable_variables)
        grad_disc_x = tape.gradient(loss_disc_x, discriminator_x.trainable_variables)
        grad_disc_y = tape.gradient(loss_disc_y, discriminator_y.trainable_variables)

        generator_g_optimizer.apply_gradients(zip(grad_gen_g, generator_g.trainable_variables))
        generator_f_optimizer.apply_gradients(zip(grad_gen_f, generator_f.trainable_variables))
        discriminator_x_optimizer.apply_gradients(
            zip(grad_disc_x, discriminator_x.trainable_variables)
        )
        discriminator_y_optimizer.apply_gradients(
            zip(grad_disc_y, discriminator_y.trainable_variables)
        )
        del tape
        return (
            (grad_gen_g, grad_gen_f, grad_disc_x, grad_disc_y),
            total_cycle_loss,
            total_loss_gen_g,
        )

    def batch():  # unpaired domains: X ~ N(0, 1), Y ~ N(5, 2) (Y = 2 X + 5 in distribution)
        return tf.random.normal((32, 1)), tf.random.normal((32, 1), mean=5.0, stddev=2.0)

    real_x, real_y = batch()
    for net in (generator_g, generator_f, discriminator_x, discriminator_y):
        net(real_x)
    # one reference gradient from a fresh one-shot tape, before any update
    with tf.GradientTape() as check_tape:
        gen_y, gen_x = generator_g(real_x), generator_f(real_y)
        ref_loss = (
            generator_loss(discriminator_y(gen_y))
            + calc_cycle_loss(real_x, generator_f(gen_y))
            + calc_cycle_loss(real_y, generator_g(gen_x))
            + identity_loss(real_y, generator_g(real_y))
        )
    ref = check_tape.gradient(ref_loss, generator_g.trainable_variables)
    nets = (generator_g, generator_f, discriminator_x, discriminator_y)
    before = [[v.numpy() for v in n.trainable_variables] for n in nets]

    grads, cycle0, total_g0 = train_step(real_x, real_y)
    # four gradient calls on one persistent tape: every network gets all four gradients
    assert [len(g) for g in grads] == [4, 4, 4, 4]
    assert all(g is not None for gs in grads for g in gs)
    assert float(total_g0) == pytest.approx(float(ref_loss), rel=1e-6)
    for g, r in zip(grads[0], ref):
        np.testing.assert_allclose(g.numpy(), r.numpy(), rtol=1e-5, atol=1e-7)
    # and each of the four optimizers updated its network
    for net, old in zip(nets, before):
        assert all((a != v.numpy()).any() for a, v in zip(old, net.trainable_variables))
    # training on: the cycle-consistency loss falls
    for _ in range(150):
        _, cycle, _ = train_step(*batch())
    assert float(cycle) < 0.5 * float(cycle0)


# --- S13, S14: a custom train step with L2 and clipping, eager and under tf.function (003) --
def make_regression_model(weights):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model(tf.zeros((1, 3)))
    model.set_weights(weights)
    return model


def make_train_step(model, loss_fn, optimizer):
    def train_step(x_batch, y_batch):
        with tf.GradientTape() as tape:
            y_pred = model(x_batch, training=True)
            loss = loss_fn(y_batch, y_pred)
            # L2 regularisation
            regularization_loss = sum(tf.nn.l2_loss(w) for w in model.trainable_weights)
            total_loss = loss + 1e-4 * regularization_loss
        grads = tape.gradient(total_loss, model.trainable_variables)
        # gradient clipping against explosions
        grads = [tf.clip_by_norm(g, 1.0) for g in grads]
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return total_loss

    return train_step


REG_RNG = np.random.default_rng(13)
W0 = [REG_RNG.standard_normal((3, 2)).astype(np.float32), np.array([0.5, -0.5], np.float32)]
X = REG_RNG.standard_normal((16, 3)).astype(np.float32)
Y = (X @ np.array([[1.0, 2.0], [-1.0, 0.5], [3.0, -2.0]]) + 4.0).astype(np.float32)


def test_s13_train_step_with_l2_and_clipping_by_hand():
    model = make_regression_model(W0)
    train_step = make_train_step(
        model, tf.keras.losses.MeanSquaredError(), tf.keras.optimizers.SGD(0.1)
    )
    total_loss = train_step(X, Y)

    # by hand: pred = X W + b; Keras' MSE is the mean over all 16*2 entries
    W, b = (w.astype(np.float64) for w in W0)
    r = X @ W + b - Y
    l2 = 0.5 * (np.sum(W**2) + np.sum(b**2))
    assert float(total_loss) == pytest.approx(np.mean(r**2) + 1e-4 * l2, rel=1e-5)
    gW = X.T @ (2 * r / r.size) + 1e-4 * W  # d l2_loss(w) / dw = w
    gb = np.sum(2 * r / r.size, axis=0) + 1e-4 * b
    assert np.linalg.norm(gW) > 1 and np.linalg.norm(gb) > 1  # so clipping is active

    def clip(g):
        return g / max(np.linalg.norm(g), 1.0)

    np.testing.assert_allclose(model.trainable_variables[0].numpy(), W - 0.1 * clip(gW), rtol=1e-5)
    np.testing.assert_allclose(model.trainable_variables[1].numpy(), b - 0.1 * clip(gb), rtol=1e-5)


def test_s14_the_same_step_under_tf_function_gives_the_same_numbers_and_traces_as_tf(capsys):
    eager_model = make_regression_model(W0)
    graph_model = make_regression_model(W0)
    eager_step = make_train_step(
        eager_model, tf.keras.losses.MeanSquaredError(), tf.keras.optimizers.Adam(0.05)
    )
    inner = make_train_step(
        graph_model, tf.keras.losses.MeanSquaredError(), tf.keras.optimizers.Adam(0.05)
    )

    @tf.function
    def train_step(x_batch, y_batch):
        print("tracing train_step")
        return inner(x_batch, y_batch)

    for i in range(10):
        xb, yb = tf.constant(X[i % 2 :: 2]), tf.constant(Y[i % 2 :: 2])
        assert float(train_step(xb, yb)) == float(eager_step(xb, yb))
    for a, b in zip(eager_model.trainable_variables, graph_model.trainable_variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    # As in TF: the first call creates Adam's slots, so it is traced twice (with and without
    # creating them); the Python code runs twice, the step once
    assert train_step.experimental_get_tracing_count() == 2
    assert capsys.readouterr().out == "tracing train_step\n" * 2
    train_step(tf.constant(X[:5]), tf.constant(Y[:5]))  # a smaller last batch: one retrace
    assert train_step.experimental_get_tracing_count() == 3


# --- S15: checking a gradient for NaN / Inf (003) -------------------------------------------
def test_s15_nan_and_inf_gradients_are_detected(capsys):
    for start, bad in [(0.0, "inf"), (-1.0, "nan")]:
        w = tf.Variable(start)
        with tf.GradientTape() as tape:
            loss = tf.math.log(w) if bad == "inf" else tf.sqrt(w)
        grads = tape.gradient(loss, [w])
        if tf.math.is_inf(grads[0]).numpy() or tf.math.is_nan(grads[0]).numpy():
            print("梯度异常检查初始化或学习率")
        assert bool(getattr(tf.math, "is_" + bad)(grads[0]))
    assert capsys.readouterr().out == "梯度异常检查初始化或学习率\n" * 2

    # A learning rate far too large: the weights blow up until a gradient is inf or NaN,
    # and a check on every step (reduce_any over the whole tensor) stops the loop.
    model = make_regression_model(W0)
    optimizer = tf.keras.optimizers.SGD(50.0)
    for step in range(1000):  # noqa: B007  (read after the loop)
        with tf.GradientTape() as tape:
            loss = tf.keras.losses.MeanSquaredError()(Y, model(X))
        grads = tape.gradient(loss, model.trainable_variables)
        if any(bool(tf.reduce_any(tf.math.is_nan(g) | tf.math.is_inf(g))) for g in grads):
            break
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
    assert 0 < step < 1000
    assert not np.isfinite(float(loss)) or not all(np.isfinite(g.numpy()).all() for g in grads)
