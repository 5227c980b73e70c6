"""`tf.keras`: just enough of Keras to train models with a GradientTape.

* `layers.Dense`, and `Layer` to write your own;
* `Model` (subclass it) and `Sequential([...])`;
* `losses`: MeanSquaredError, MeanAbsoluteError, BinaryCrossentropy (and function forms);
* `optimizers`: SGD (with momentum) and Adam;
* `activations` and `initializers` by name;
* `utils.set_random_seed`, to make a model start from the same weights every time;
* `Variable`, Keras 3's variable, what a layer's weights are (it holds a `tf.Variable`).

There is no `compile`/`fit`: the course writes its training loops by hand, with a tape.
"""

from . import activations, initializers, layers, losses, models, optimizers, utils  # noqa: F401
from .layers import Layer  # noqa: F401
from .models import Model, Sequential  # noqa: F401
from .variables import Variable  # noqa: F401
