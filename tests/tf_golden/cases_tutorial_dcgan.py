"""Golden case: TensorFlow's DCGAN tutorial (tensorflow.org/tutorials/generative/dcgan), its
code as written -- the generator and discriminator, their losses, two Adam optimizers, the
`@tf.function` train step with two tapes -- on a small synthetic batch of MNIST's shape
(4 images of 28x28x1, 2 steps) instead of MNIST."""

import numpy as np

from .cases import case


@case
def tutorial_dcgan(tf, steps=2, BATCH_SIZE=4):  # noqa: N803  (the tutorial's name)
    layers = tf.keras.layers
    tf.keras.utils.set_random_seed(0)
    noise_dim = 100

    def make_generator_model():
        model = tf.keras.Sequential()
        model.add(layers.Dense(7 * 7 * 256, use_bias=False, input_shape=(100,)))
        model.add(layers.BatchNormalization())
        model.add(layers.LeakyReLU())
        model.add(layers.Reshape((7, 7, 256)))
        assert model.output_shape == (None, 7, 7, 256)
        model.add(
            layers.Conv2DTranspose(128, (5, 5), strides=(1, 1), padding="same", use_bias=False)
        )
        assert model.output_shape == (None, 7, 7, 128)
        model.add(layers.BatchNormalization())
        model.add(layers.LeakyReLU())
        model.add(
            layers.Conv2DTranspose(64, (5, 5), strides=(2, 2), padding="same", use_bias=False)
        )
        assert model.output_shape == (None, 14, 14, 64)
        model.add(layers.BatchNormalization())
        model.add(layers.LeakyReLU())
        model.add(
            layers.Conv2DTranspose(
                1, (5, 5), strides=(2, 2), padding="same", use_bias=False, activation="tanh"
            )
        )
        assert model.output_shape == (None, 28, 28, 1)
        return model

    generator = make_generator_model()
    noise = tf.random.normal([1, 100])
    generated_image = generator(noise, training=False)

    def make_discriminator_model():
        model = tf.keras.Sequential()
        model.add(
            layers.Conv2D(64, (5, 5), strides=(2, 2), padding="same", input_shape=[28, 28, 1])
        )
        model.add(layers.LeakyReLU())
        model.add(layers.Dropout(0.3))
        model.add(layers.Conv2D(128, (5, 5), strides=(2, 2), padding="same"))
        model.add(layers.LeakyReLU())
        model.add(layers.Dropout(0.3))
        model.add(layers.Flatten())
        model.add(layers.Dense(1))
        return model

    discriminator = make_discriminator_model()
    decision = discriminator(generated_image)
    cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)

    def discriminator_loss(real_output, fake_output):
        real_loss = cross_entropy(tf.ones_like(real_output), real_output)
        fake_loss = cross_entropy(tf.zeros_like(fake_output), fake_output)
        total_loss = real_loss + fake_loss
        return total_loss

    def generator_loss(fake_output):
        return cross_entropy(tf.ones_like(fake_output), fake_output)

    generator_optimizer = tf.keras.optimizers.Adam(1e-4)
    discriminator_optimizer = tf.keras.optimizers.Adam(1e-4)

    @tf.function
    def train_step(images):
        noise = tf.random.normal([BATCH_SIZE, noise_dim])
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
            generated_images = generator(noise, training=True)
            real_output = discriminator(images, training=True)
            fake_output = discriminator(generated_images, training=True)
            gen_loss = generator_loss(fake_output)
            disc_loss = discriminator_loss(real_output, fake_output)
        gradients_of_generator = gen_tape.gradient(gen_loss, generator.trainable_variables)
        gradients_of_discriminator = disc_tape.gradient(
            disc_loss, discriminator.trainable_variables
        )
        generator_optimizer.apply_gradients(
            zip(gradients_of_generator, generator.trainable_variables)
        )
        discriminator_optimizer.apply_gradients(
            zip(gradients_of_discriminator, discriminator.trainable_variables)
        )
        return gen_loss, disc_loss

    rng = np.random.default_rng(0)
    train_images = (
        rng.uniform(0, 255, (BATCH_SIZE * steps, 28, 28, 1)).astype("float32") - 127.5
    ) / 127.5
    train_dataset = [train_images[i * BATCH_SIZE : (i + 1) * BATCH_SIZE] for i in range(steps)]
    losses = [train_step(tf.constant(b)) for b in train_dataset]
    return [
        generated_image[0, 10:13, 10:13, 0],
        decision,
        losses,
        generator(noise, training=False)[0, 10:13, 10:13, 0],
        [v.numpy().sum() for v in generator.non_trainable_weights],
        [tuple(v.shape) for v in discriminator.trainable_variables],
    ]
