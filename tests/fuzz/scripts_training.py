"""Scripted misuse of Keras' training API (fit, evaluate, predict, compile, callbacks) and
of tf.data: each a function of the `tf` module that returns a result or raises."""

import numpy as np

from .scripts import script

X = np.linspace(-1.0, 1.0, 12, dtype="float32").reshape(6, 2)
Y = X[:, :1] * 2.0 + 0.5


def _model(tf, **compile_kw):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(**{"optimizer": "sgd", "loss": "mse", **compile_kw})
    return model


def _fit(tf, **kw):
    return _model(tf).fit(X, Y, **{"verbose": 0, **kw}).history


# -- fit's arguments --------------------------------------------------------------------------
@script
def fit_batch_size_negative(tf):
    return _fit(tf, batch_size=-1)


@script
def fit_batch_size_zero(tf):
    return _fit(tf, batch_size=0)


@script
def fit_batch_size_float(tf):
    return _fit(tf, batch_size=2.5)


@script
def fit_batch_size_str(tf):
    return _fit(tf, batch_size="4")


@script
def fit_epochs_float(tf):
    return _fit(tf, epochs=1.5)


@script
def fit_epochs_zero(tf):
    return _fit(tf, epochs=0)


@script
def fit_epochs_str(tf):
    return _fit(tf, epochs="2")


@script
def fit_initial_epoch_past_epochs(tf):
    return _fit(tf, epochs=2, initial_epoch=3)


@script
def fit_validation_split_one(tf):
    return _fit(tf, validation_split=1.0)


@script
def fit_validation_split_str(tf):
    return _fit(tf, validation_split="0.5")


@script
def fit_validation_data_one_array(tf):
    return _fit(tf, validation_data=X)


@script
def fit_validation_data_four_items(tf):
    return _fit(tf, validation_data=(X, Y, np.ones(6), np.ones(6)))


@script
def fit_validation_freq_str(tf):
    return _fit(tf, validation_data=(X, Y), validation_freq="1")


@script
def fit_sample_weight_wrong_length(tf):
    return _fit(tf, sample_weight=np.ones(5))


@script
def fit_sample_weight_list(tf):
    return _fit(tf, sample_weight=[1.0] * 6)


@script
def fit_class_weight_list(tf):
    return _fit(tf, class_weight=[1.0, 2.0])


@script
def fit_class_weight_and_sample_weight(tf):
    return _fit(tf, class_weight={0: 1.0}, sample_weight=np.ones(6))


@script
def fit_callbacks_not_callbacks(tf):
    return _fit(tf, callbacks=[object()])


@script
def fit_callbacks_one_callback(tf):
    return _fit(tf, callbacks=tf.keras.callbacks.History())


@script
def fit_steps_per_epoch_zero(tf):
    return _fit(tf, steps_per_epoch=0)


@script
def fit_shuffle_str(tf):
    return _fit(tf, shuffle="yes", epochs=2)


@script
def fit_verbose_three(tf):
    return _fit(tf, verbose=3)


@script
def fit_x_list_of_floats(tf):
    return _model(tf).fit([[1.0, 2.0], [3.0, 4.0]], [[1.0], [2.0]], verbose=0).history


@script
def fit_x_none(tf):
    return _model(tf).fit(None, Y, verbose=0).history


@script
def fit_y_shorter(tf):
    return _model(tf).fit(X, Y[:4], verbose=0).history


@script
def evaluate_unknown_keyword(tf):
    return _model(tf).evaluate(X, Y, verbose=0, nope=1)


@script
def evaluate_steps_past_data(tf):
    return _model(tf).evaluate(X, Y, verbose=0, batch_size=2, steps=10)


@script
def predict_steps_zero(tf):
    return _model(tf).predict(X, verbose=0, steps=0)


@script
def compile_loss_weights_dict(tf):
    model = _model(tf, loss_weights={"dense": 2.0})
    return model.fit(X, Y, verbose=0).history


@script
def compile_weighted_metrics_str(tf):
    return _model(tf, weighted_metrics="mae").fit(X, Y, verbose=0).history


@script
def early_stopping_unknown_mode(tf):
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", mode="sideways")
    return _fit(tf, epochs=2, callbacks=[stop])


# -- tf.data ----------------------------------------------------------------------------------
@script
def data_batch_zero(tf):
    return list(tf.data.Dataset.range(4).batch(0))


@script
def data_batch_negative(tf):
    return list(tf.data.Dataset.range(4).batch(-2))


@script
def data_batch_float(tf):
    return list(tf.data.Dataset.range(4).batch(1.5))


@script
def data_shuffle_zero(tf):
    return list(tf.data.Dataset.range(4).shuffle(0))


@script
def data_shuffle_negative(tf):
    return list(tf.data.Dataset.range(4).shuffle(-1, seed=1))


@script
def data_take_str(tf):
    return list(tf.data.Dataset.range(4).take("2"))


@script
def data_repeat_negative_two(tf):
    return list(tf.data.Dataset.range(2).repeat(-2).take(5))


@script
def data_slices_of_a_scalar(tf):
    return list(tf.data.Dataset.from_tensor_slices(3.0))


@script
def data_slices_of_different_lengths(tf):
    return list(tf.data.Dataset.from_tensor_slices((np.arange(3), np.arange(4))))


@script
def data_slices_of_none(tf):
    return list(tf.data.Dataset.from_tensor_slices(None))


@script
def data_map_not_callable(tf):
    return list(tf.data.Dataset.range(3).map(3))


@script
def data_map_wrong_arity(tf):
    ds = tf.data.Dataset.from_tensor_slices((np.arange(3), np.arange(3)))
    return list(ds.map(lambda x: x))


@script
def data_zip_not_datasets(tf):
    return list(tf.data.Dataset.zip((tf.data.Dataset.range(2), [1, 2])))


@script
def data_range_str(tf):
    return list(tf.data.Dataset.range("3"))


@script
def data_len_of_repeat(tf):
    return len(tf.data.Dataset.range(3).repeat())


@script
def data_fit_with_y(tf):
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(2)
    return _model(tf).fit(ds, Y, verbose=0).history


@script
def data_fit_with_batch_size(tf):
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(2)
    return _model(tf).fit(ds, batch_size=2, verbose=0).history


@script
def data_fit_with_validation_split(tf):
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(2)
    return _model(tf).fit(ds, validation_split=0.5, verbose=0).history


@script
def data_fit_unbatched(tf):
    ds = tf.data.Dataset.from_tensor_slices((X, Y))
    return _model(tf).fit(ds, verbose=0, epochs=1).history
