"""`Model` (subclass it to write your own network) and `Sequential` (a stack of layers).

    class Generator(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(16, activation="relu")
            self.out = tf.keras.layers.Dense(1)

        def call(self, x, training=False):
            return self.out(self.hidden(x))

    g = Generator()
    y = g(x, training=True)          # runs call(); the Dense layers build on first use
    g.trainable_variables            # [hidden kernel, hidden bias, out kernel, out bias]

A Model is a Layer: it finds its variables in its attributes (layers, nested models, and
Variables set directly), so there is nothing to register. It is also a trainer (trainer.py):
`compile` then `fit` trains it, with Keras' `train_step` or your own.
"""

from . import saving
from .base_layer import Layer, name_scope
from .keras_tensor import KerasTensor
from .summary import print_summary
from .trainer import TensorFlowTrainer

__all__ = ["Model", "Sequential"]


# Model(inputs, outputs) makes this class: functional.py's Functional, which subclasses
# Model and registers itself here when it is imported (keras/__init__.py imports it)
_FUNCTIONAL = []


class Model(TensorFlowTrainer, Layer):
    """The base class for a network written as Python code: define `call` and create the
    layers in `__init__` (after `super().__init__()`). `compile`/`fit`/`evaluate`/`predict`
    and the `train_step` to override come from the trainer."""

    def __new__(cls, *args, **kwargs):
        """`Model(inputs, outputs)` is a Functional model (functional.py), as in Keras 3."""
        if cls is Model and (args or "inputs" in kwargs or "outputs" in kwargs):
            cls = _FUNCTIONAL[0]  # (Python then runs Functional.__init__ with the arguments)
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise NotImplementedError(
                "minitape's Model subclasses do not take Model(inputs, outputs): write call(), "
                "or make the model with tf.keras.Model(inputs, outputs)."
            )
        super().__init__(**kwargs)

    @property
    def layers(self):
        return self._tracked()[1]

    def save_weights(self, filepath, overwrite=True):
        """Write the weights to `filepath` (ending in `.weights.h5`; see saving.py)."""
        saving.save_weights(self, filepath, overwrite)

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        """Load the weights `save_weights` wrote (see saving.py)."""
        saving.load_weights(self, filepath, skip_mismatch)

    def get_layer(self, name=None, index=None):
        """The layer named `name`, or at position `index` of `layers`."""
        if index is not None and name is not None:
            raise ValueError(
                f"Provide only a layer name or a layer index. Received: index={index}, name={name}."
            )
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(
                    f"Was asked to retrieve layer at index {index} but model only has "
                    f"{len(self.layers)} layers."
                )
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError(
                f"No such layer: {name}. Existing layers are: "
                f"{list(layer.name for layer in self.layers)}."
            )
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    def summary(
        self,
        line_length=None,
        positions=None,
        print_fn=None,
        expand_nested=False,
        show_trainable=False,
        layer_range=None,
    ):
        """Print Keras 3's table of the layers: name (type), output shape, parameters."""
        print_summary(self, line_length, positions, print_fn)

    def call(self, inputs, training=None):
        raise NotImplementedError(
            f"Model {type(self).__name__} has no call(): define "
            f"`def call(self, inputs, training=False)` in the subclass."
        )


class Sequential(Model):
    """Layers applied one after the other: `Sequential([Dense(16, activation='relu'), Dense(1)])`.

    If the first layer is given `input_shape=...`, the model is built (its variables created)
    right away; otherwise on its first call."""

    def __init__(self, layers=None, trainable=True, name=None):  # (Keras 3 takes no more)
        super().__init__(trainable=trainable, name=name)
        self._layers = []
        self._input = self._output = None  # the KerasTensors, when the input shape is known
        for layer in layers or []:
            self.add(layer)

    def add(self, layer):
        if isinstance(layer, KerasTensor) and layer.node is not None and layer.node.is_input:
            if self._layers or self._input is not None:
                raise ValueError("Sequential model may only have one Input, and first.")
            self._input = layer.node.layer  # (an InputLayer: not one of the model's layers)
            self._batch_input_shape = self._input.batch_shape
            return
        if not isinstance(layer, Layer):
            raise ValueError(
                "Only instances of `keras.Layer` can be added to a Sequential model. "
                f"Received: {layer} (of type {type(layer)})"
            )
        self._layers.append(layer)
        shape = self._batch_input_shape or self._layers[0]._batch_input_shape
        if shape is not None:  # call the layers on a keras.Input: that builds every layer
            x = (
                self._input.output
                if self._input
                else KerasTensor(shape, self._layers[0].compute_dtype)
            )
            with name_scope(self):  # (the weights' paths start with the model's name)
                for each in self._layers:
                    x = each(x)
            self._output = x
            self.built = True

    @property
    def layers(self):
        return list(self._layers)

    @property
    def input_shape(self):
        return self._symbolic("input_shape", self._batch_input_shape)

    @property
    def output_shape(self):
        return self._symbolic("output_shape", None if self._output is None else self._output.shape)

    def _symbolic(self, what, shape):
        if shape is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined {what} yet.")
        return tuple(shape)

    @property
    def _input_dtype(self):
        """Keras 3 casts a Sequential's input to its keras.Input's dtype; built from an
        `input_shape`, to its first layer's compute dtype; not yet built, to its own."""
        if self._input is not None:
            return self._input.dtype
        if self.built and self._layers:
            return self._layers[0].compute_dtype
        return self.compute_dtype

    def call(self, inputs, training=None):
        x = inputs
        for layer in self._layers:
            x = layer(x, training=training)
        return x
