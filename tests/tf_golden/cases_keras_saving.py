"""Golden cases: `model.save_weights` / `load_weights` and `tf.train.Checkpoint`, round trips
through a file in a fresh temporary folder (the files themselves are each side's own: minitape
writes numpy archives, TF HDF5 and its checkpoint format; only the values are compared)."""

import os
import tempfile

import numpy as np

from .cases import attempt, case

NOWHERE = "/nonexistent_minitape_golden_folder"  # (never made: for the errors' paths)


def _model(tf, seed, units=3):
    tf.keras.utils.set_random_seed(seed)
    return tf.keras.Sequential(
        [
            tf.keras.Input((2,)),
            tf.keras.layers.Dense(units, use_bias=False, name="a"),
            tf.keras.layers.BatchNormalization(name="bn"),
            tf.keras.layers.Dense(1, name="b"),
        ]
    )


def _step(tf, model, opt):
    x = tf.constant([[1.0, 2.0], [-1.0, 0.5]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((model(x, training=True) - [[1.0], [-3.0]]) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))


@case
def keras_save_weights_and_load_them_into_another_model(tf):
    path = os.path.join(tempfile.mkdtemp(), "m.weights.h5")
    first, second = _model(tf, 0), _model(tf, 1)
    first.save_weights(path)
    before = second.get_weights()
    second.load_weights(path)
    return [
        [np.array_equal(a, b) for a, b in zip(first.get_weights(), second.get_weights())],
        [np.array_equal(a, b) for a, b in zip(before, second.get_weights())],
        second.get_weights(),
        attempt(_model(tf, 2, units=4).load_weights, path),
    ]


@case(message=True)
def keras_save_weights_names_and_missing_files(tf):
    model = _model(tf, 0)
    return [
        attempt(model.save_weights, f"{NOWHERE}/m.h5"),
        attempt(model.save_weights, f"{NOWHERE}/m"),
        attempt(model.load_weights, f"{NOWHERE}/m.npz"),
        attempt(model.load_weights, f"{NOWHERE}/m.weights.h5"),
    ]


@case
def checkpoint_save_restore_write_read_round_trip(tf):
    folder = tempfile.mkdtemp()
    model, opt = _model(tf, 0), tf.keras.optimizers.Adam(0.1)
    _step(tf, model, opt)
    ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
    first = ckpt.save(os.path.join(folder, "ckpt"))
    saved = [v.numpy() for v in model.weights]
    second = ckpt.save(os.path.join(folder, "ckpt"))
    written = ckpt.write(os.path.join(folder, "w"))
    _step(tf, model, opt)
    _step(tf, model, opt)
    status = ckpt.restore(first)
    restored = [np.array_equal(a, v.numpy()) for a, v in zip(saved, model.weights)]
    # into a new model and a new optimizer, not yet built (its slots come later)
    other, other_opt = _model(tf, 5), tf.keras.optimizers.Adam(0.1)
    tf.train.Checkpoint(model=other, optimizer=other_opt).read(written)
    _step(tf, other, other_opt)
    return [
        [os.path.basename(first), os.path.basename(second), os.path.basename(written)],
        os.path.basename(tf.train.latest_checkpoint(folder)),
        ckpt.save_counter,
        restored,
        opt.iterations,
        status.assert_consumed() is status,
        other.get_weights(),
        other_opt.iterations,
    ]


@case
def checkpoint_of_variables_and_its_refusals(tf):
    folder = tempfile.mkdtemp()
    v, w = tf.Variable([1.0, 2.0]), tf.Variable(3.0)
    ckpt = tf.train.Checkpoint(v=v, w=w)
    path = ckpt.write(os.path.join(folder, "vars"))
    v.assign([5.0, 6.0])
    w.assign(7.0)
    ckpt.read(path)
    return [
        v,
        w,
        tf.train.latest_checkpoint(folder),
        attempt(tf.train.Checkpoint, model=3),
        attempt(tf.train.Checkpoint(v=v).restore, os.path.join(folder, "nope")),
    ]


@case(message=True)
def keras_model_checkpoint_of_weights_each_epoch(tf):
    folder = tempfile.mkdtemp()
    model = _model(tf, 0)
    model.compile(optimizer="sgd", loss="mse")
    x = np.array([[1.0, 2.0], [-1.0, 0.5], [0.0, 1.0]], np.float32)
    y = np.array([[1.0], [0.0], [-1.0]], np.float32)
    every = tf.keras.callbacks.ModelCheckpoint(
        os.path.join(folder, "e{epoch}.weights.h5"), save_weights_only=True
    )
    best = tf.keras.callbacks.ModelCheckpoint(
        os.path.join(folder, "best.weights.h5"),
        monitor="loss",
        save_best_only=True,
        save_weights_only=True,
    )
    model.fit(x, y, epochs=3, verbose=0, shuffle=False, callbacks=[every, best])
    reloaded = _model(tf, 4)
    reloaded.load_weights(os.path.join(folder, "e3.weights.h5"))
    return [
        sorted(os.listdir(folder)),
        best.best,
        [np.array_equal(a, b) for a, b in zip(model.get_weights(), reloaded.get_weights())],
        attempt(tf.keras.callbacks.ModelCheckpoint, f"{NOWHERE}/m.h5", save_weights_only=True),
        attempt(
            tf.keras.callbacks.ModelCheckpoint,
            f"{NOWHERE}/m.weights.h5",
            save_weights_only=True,
            save_freq="often",
        ),
    ]


@case
def keras_model_checkpoint_every_few_batches(tf):
    folder = tempfile.mkdtemp()
    model = _model(tf, 0)
    model.compile(optimizer="sgd", loss="mse")
    x = np.linspace(-1, 1, 14, dtype=np.float32).reshape(7, 2)
    y = x[:, :1] * 2
    every = tf.keras.callbacks.ModelCheckpoint(
        os.path.join(folder, "e{epoch}b{batch}.weights.h5"), save_weights_only=True, save_freq=3
    )
    model.fit(x, y, batch_size=2, epochs=2, verbose=0, shuffle=False, callbacks=[every])
    reloaded = _model(tf, 4)
    reloaded.load_weights(os.path.join(folder, "e2b2.weights.h5"))
    return [sorted(os.listdir(folder)), reloaded.get_weights()]
