"""Golden cases for `tf.data` as TF 2.21 runs it (names data_...): each Dataset method's
elements, their order and structure, `element_spec` (as its repr) and `cardinality`; TF's
shuffle order under op seeds, the global seed, reshuffling and repeats; `map` tracing once;
iteration in Python and inside a `tf.function`; a Dataset given to Keras' fit, evaluate and
predict (how many passes Keras' pipeline starts, which moves a reshuffling dataset's seeds)."""

import numpy as np

from .cases import attempt, case
from .cases_keras_fit import X, Y
from .cases_keras_training import spy


def _elements(ds):
    return list(ds)


def _described(ds):
    return [repr(ds.element_spec), int(ds.cardinality()), list(ds)]


@case
def data_from_tensor_slices_and_tensors(tf):
    x = np.arange(12, dtype="float32").reshape(6, 2)
    return [
        _described(tf.data.Dataset.from_tensor_slices(x)),
        _described(tf.data.Dataset.from_tensor_slices((x, np.arange(6)))),
        _described(tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3], "b": [4.0, 5.0, 6.0]})),
        _described(tf.data.Dataset.from_tensor_slices([[1.0, 2.0], [3.0, 4.0]])),
        _described(tf.data.Dataset.from_tensor_slices(np.arange(3.0))),
        _described(tf.data.Dataset.from_tensors([1.0, 2.0])),
        _described(tf.data.Dataset.from_tensors((np.float32(1), np.arange(2)))),
        attempt(tf.data.Dataset.from_tensor_slices, (np.arange(3), np.arange(4))),
    ]


@case
def data_range(tf):
    return [
        _described(tf.data.Dataset.range(5)),
        _described(tf.data.Dataset.range(2, 8, 2)),
        _described(tf.data.Dataset.range(5, 0, -2)),
        _described(tf.data.Dataset.range(3, dtype=tf.int32)),
        _described(tf.data.Dataset.range(0)),
    ]


@case
def data_batch(tf):
    ds = tf.data.Dataset.range(10)
    pairs = tf.data.Dataset.from_tensor_slices((np.arange(5.0), np.arange(5)))
    return [
        _described(ds.batch(3)),
        _described(ds.batch(3, drop_remainder=True)),
        _described(ds.batch(20)),
        _described(pairs.batch(2)),
        _described(ds.batch(2).batch(2)),
        _described(ds.batch(4, num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)),
    ]


@case
def data_repeat_take_skip(tf):
    ds = tf.data.Dataset.range(4)
    return [
        _described(ds.repeat(2)),
        _described(ds.repeat(0)),
        int(ds.repeat().cardinality()),
        _described(ds.repeat().take(6)),
        _described(ds.take(2)),
        _described(ds.take(10)),
        _described(ds.take(-1)),
        _described(ds.skip(1)),
        _described(ds.skip(10)),
        _described(ds.skip(-1)),
        _described(ds.skip(1).take(2).repeat(2)),
        _described(ds.batch(3).repeat(2)),
        int(ds.repeat().skip(2).cardinality()),
        int(ds.repeat().take(-1).cardinality()),
    ]


@case
def data_shuffle_orders(tf):
    tf.random.set_seed(None)  # (no global seed: the op seeds alone)
    ds = tf.data.Dataset.range(10)
    fixed = ds.shuffle(4, seed=1, reshuffle_each_iteration=False)
    reshuffled = ds.shuffle(4, seed=1)
    big = ds.shuffle(100, seed=3)
    return [
        [_elements(reshuffled), _elements(reshuffled), _elements(reshuffled)],
        [_elements(fixed), _elements(fixed)],
        [_elements(big), _elements(big)],
        _elements(ds.shuffle(1, seed=5)),
        _elements(tf.data.Dataset.range(6).shuffle(3, seed=2).repeat(2)),
        _elements(tf.data.Dataset.range(6).repeat(2).shuffle(5, seed=2)),
        _elements(ds.shuffle(10, seed=0)),
        int(ds.shuffle(3).cardinality()),
        repr(ds.shuffle(3).element_spec),
    ]


@case
def data_shuffle_with_the_global_seed(tf):
    # no op seed: the global seed and the op seed it makes (drawn like an eager random op's)
    tf.random.set_seed(7)
    first = tf.data.Dataset.range(10).shuffle(4)
    second = tf.data.Dataset.range(10).shuffle(4)
    out = [_elements(first), _elements(first), _elements(second)]
    tf.random.set_seed(7)
    tf.random.uniform([1])
    out.append(_elements(tf.data.Dataset.range(10).shuffle(4)))
    tf.random.set_seed(7)
    out.append(_elements(tf.data.Dataset.range(10).shuffle(4, seed=3)))
    return out


@case
def data_shuffle_batch_pipeline(tf):
    # the tutorials' pipeline: slices, shuffle, batch, prefetch; two passes differ
    tf.random.set_seed(None)  # (no global seed: the op seeds alone)
    x = np.arange(20, dtype="float32").reshape(10, 2)
    ds = (
        tf.data.Dataset.from_tensor_slices((x, np.arange(10)))
        .shuffle(buffer_size=10, seed=42)
        .batch(4)
        .prefetch(tf.data.AUTOTUNE)
    )
    return [repr(ds.element_spec), int(ds.cardinality()), list(ds), list(ds)]


@case
def data_map(tf):
    tf.random.set_seed(None)  # (no global seed: the op seeds alone)
    traces = []

    def scale(x, y):
        traces.append(1)
        return x * 2.0, y + 1

    pairs = tf.data.Dataset.from_tensor_slices((np.arange(4.0, dtype="float32"), np.arange(4)))
    mapped = pairs.map(scale, num_parallel_calls=tf.data.AUTOTUNE)
    after_map = len(traces)
    out = [after_map, _described(mapped), len(traces)]
    out.append(_described(tf.data.Dataset.range(5).map(lambda v: {"v": v, "sq": v * v})))
    out.append(
        _described(tf.data.Dataset.range(6).batch(4).map(lambda v: tf.cast(v, tf.float32) / 2))
    )
    out.append(_described(tf.data.Dataset.range(3).map(lambda v: (v, tf.fill([2], v)))))
    return out


@case
def data_zip_enumerate_concatenate_filter(tf):
    tf.random.set_seed(None)  # (no global seed: the op seeds alone)
    a, b = tf.data.Dataset.range(3), tf.data.Dataset.range(10, 15)
    return [
        _described(tf.data.Dataset.zip((a, b))),
        _described(tf.data.Dataset.zip(a, b)),
        _described(tf.data.Dataset.zip({"a": a, "b": b})),
        _described(tf.data.Dataset.zip((a, (b, a)))),
        _described(b.enumerate()),
        _described(b.enumerate(start=5)),
        _described(a.concatenate(b)),
        _described(b.filter(lambda v: v % 2 == 0)),
        _described(a.cache().prefetch(2)),
        int(tf.data.Dataset.zip((a, b.repeat())).cardinality()),
        [tf.data.AUTOTUNE, tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY],
        [len(a), attempt(len, a.repeat()), attempt(len, a.filter(lambda v: v > 0))],
    ]


@case
def data_as_numpy_iterator(tf):
    ds = tf.data.Dataset.from_tensor_slices((np.arange(3.0), np.arange(3))).batch(2)
    return [list(ds.as_numpy_iterator()), list(tf.data.Dataset.range(2).as_numpy_iterator())]


@case
def data_iterated_inside_a_function(tf):
    # a loop over a dataset in a tf.function: each call starts a new pass (a new shuffle)
    tf.random.set_seed(None)  # (no global seed: the op seeds alone)

    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for v in ds:
            s += v
        return s

    shuffled = tf.data.Dataset.range(5).shuffle(5, seed=1).take(2)
    return [total(shuffled), total(shuffled), total(tf.data.Dataset.range(4))]


@case
def data_custom_training_loop(tf):
    # the tutorials' custom loop: a dataset of batches, a tape in a tf.function, two epochs
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.1)
    loss_fn = tf.keras.losses.MeanSquaredError()
    ds = tf.data.Dataset.from_tensor_slices((X.astype("float32"), Y.astype("float32")))
    ds = ds.shuffle(10, seed=1).batch(4)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    losses = []
    for _ in range(2):
        for x_batch, y_batch in ds:
            losses.append(train_step(x_batch, y_batch))
    return [losses, model.get_weights()]


@case
def data_keras_fit_evaluate_predict_with_a_dataset(tf):
    # fit(ds): each element a batch; Keras starts the next pass as soon as one ends, so a
    # reshuffling dataset's seeds move on twice per epoch
    tf.random.set_seed(None)  # (no global seed: the op seeds alone)
    seen = []

    xs = np.arange(8, dtype="float32").reshape(8, 1)
    ds = tf.data.Dataset.from_tensor_slices((xs, xs)).shuffle(8, seed=1).batch(4)

    def order():
        return [[int(v) for v in x.numpy()[:, 0]] for x, _ in ds]

    model = spy(tf, seen)
    out = [order()]
    history = model.fit(ds, epochs=3, verbose=0)
    out += [list(seen), history.params, order()]
    del seen[:]
    model.evaluate(ds, verbose=0)
    model.predict(ds.map(lambda x, y: x), verbose=0)
    out += [list(seen), order()]
    del seen[:]
    model.fit(ds, epochs=2, verbose=0, validation_data=ds)
    out += [list(seen), order()]
    del seen[:]
    # (after a fit over a repeated dataset cut by steps_per_epoch, how far TF's iterator has
    # read ahead into the next repetition depends on its prefetching threads: not recorded)
    model.fit(ds.repeat(), epochs=2, steps_per_epoch=3, verbose=0)
    return out + [list(seen)]


@case
def data_keras_fit_numbers_with_a_dataset(tf):
    tf.keras.utils.set_random_seed(0)
    ds = tf.data.Dataset.from_tensor_slices((X.astype("float32"), Y.astype("float32")))
    ds = ds.shuffle(10, seed=1).batch(4)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    history = model.fit(ds, epochs=3, verbose=0, shuffle=False)
    return [
        history.history,
        history.params,
        model.evaluate(ds, verbose=0),
        model.predict(ds.map(lambda x, y: x), verbose=0),
        attempt(model.fit, ds, epochs=1, verbose=0, class_weight={0: 2.0}),  # (y: no class)
        attempt(model.fit, ds, Y, verbose=0),
        _class_weighted(tf),
    ]


def _class_weighted(tf):
    labels = np.array([0, 1, 1, 0, 2, 1, 0, 2, 1, 1])
    ds = tf.data.Dataset.from_tensor_slices((X.astype("float32"), np.eye(3)[labels])).batch(4)
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    weights = {0: 1.0, 1: 0.5, 2: 3.0}
    return model.fit(ds, epochs=2, verbose=0, class_weight=weights).history


@case
def data_reprs_and_experimental_names(tf):
    # what print(dataset) shows: TF's class name and the element_spec
    d = tf.data.Dataset.range(3)
    datasets = [
        tf.data.Dataset.from_tensor_slices(np.arange(3)),
        tf.data.Dataset.from_tensors(1.0),
        d,
        d.map(lambda v: v),
        d.map(lambda w: w + 1, num_parallel_calls=tf.data.AUTOTUNE),
        d.batch(2),
        d.batch(2, num_parallel_calls=2),
        d.shuffle(2, seed=1),
        d.repeat(),
        d.take(1),
        d.skip(1),
        tf.data.Dataset.zip((d, d)),
        d.enumerate(),
        d.concatenate(d),
        d.filter(lambda u: u > 0),
        d.prefetch(1),
        d.cache(),
        d.with_options(tf.data.Options()),
    ]
    names = [tf.data.experimental.AUTOTUNE, tf.data.experimental.cardinality(d)]
    return [repr(ds) for ds in datasets] + names
