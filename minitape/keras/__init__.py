"""`tf.keras`: just enough of Keras to train models with a GradientTape.

* `layers`: Dense, Conv2D, Dropout, BatchNormalization, LayerNormalization, Embedding,
  Flatten, Reshape, ReLU, LeakyReLU, Activation, Concatenate, Add, GlobalAveragePooling2D,
  Lambda, and `Layer` to write your own (with `add_loss`, and `losses`);
* `Model` (subclass it), `Model(inputs, outputs)` on `keras.Input`s, `Sequential([...])`;
* `regularizers` (l1, l2, l1_l2): a layer's `kernel_regularizer=` adds to `model.losses`;
* `random`: Keras' seeded draws and `SeedGenerator`;
* `losses`: MeanSquaredError, MeanAbsoluteError, BinaryCrossentropy (and function forms);
* `optimizers`: SGD (with momentum), Adam, AdamW, Adagrad and RMSprop;
* `activations` and `initializers` by name;
* `utils.set_random_seed`, to make a model start from the same weights every time;
* `mixed_precision` (and `config.set_dtype_policy`): the 'mixed_float16' policy, float16
  layers on float32 weights, and `LossScaleOptimizer`;
* `Variable`, Keras 3's variable, what a layer's weights are (it holds a `tf.Variable`);
* `Model.compile` / `fit` / `evaluate` / `predict` with Keras 3's defaults (the examples
  shuffled as TF shuffles them, progress lines), `train_step` to override with a tape,
  `metrics` (Mean, ...), `callbacks` (History, what fit returns; EarlyStopping,
  LambdaCallback, your own Callback), validation, sample and class weights; fit takes numpy
  arrays, tensors or a `tf.data.Dataset`.

Most of the course writes its training loops by hand, with a tape; `fit` is Keras' own loop
around the same step.
"""

from . import (  # noqa: F401
    activations,
    backend,
    callbacks,
    config,
    initializers,
    layers,
    losses,
    metrics,
    mixed_precision,
    models,
    optimizers,
    random,
    regularizers,
    utils,
)
from .functional import Functional  # noqa: F401
from .layers import Input, Layer  # noqa: F401
from .models import Model, Sequential  # noqa: F401
from .variables import Variable  # noqa: F401
