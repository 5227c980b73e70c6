"""The functional API: `keras.Input`, and the model `Model(inputs, outputs)` makes.

    inputs = tf.keras.Input(shape=(4,))
    outputs = tf.keras.layers.Dense(1)(tf.keras.layers.Dense(8, activation="relu")(inputs))
    model = tf.keras.Model(inputs, outputs)      # a Functional model
    model(x)                                     # replays the layer calls on x

The model's layers are its InputLayers and the layers called between inputs and outputs,
in the order they were first called; its weights are theirs, in that order.
"""

from .. import nest
from ..ops import cast
from ..tensor import is_tensor
from . import models as _models
from .keras_tensor import KerasTensor, nodes_between
from .models import Model

__all__ = ["Functional"]


class Functional(Model):
    """A model made of the layer calls recorded between `inputs` and `outputs`."""

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        super().__init__(name=name, trainable=trainable, **kwargs)
        for t in nest.flatten(inputs) + nest.flatten(outputs):
            if not isinstance(t, KerasTensor):
                raise ValueError(
                    "All `inputs` and `outputs` values must be KerasTensors. Received: "
                    f"inputs={inputs}, outputs={outputs} (including invalid value {t} of "
                    f"type {type(t)})"
                )
        self.inputs = list(inputs) if isinstance(inputs, (list, tuple)) else inputs
        self.outputs = list(outputs) if isinstance(outputs, (list, tuple)) else outputs
        self._nodes = nodes_between(inputs, outputs)
        layers = [t.node.layer for t in nest.flatten(inputs)]
        for node in self._nodes:
            if all(node.layer is not seen for seen in layers):
                layers.append(node.layer)
        self._functional_layers = layers
        self.built = True

    @property
    def _input_dtype(self):
        """None: each input is converted to its keras.Input's dtype in `call` (Keras 3)."""
        return None

    @property
    def input(self):
        return self.inputs

    @property
    def output(self):
        return self.outputs

    @property
    def input_shape(self):
        return nest.map_structure(lambda t: tuple(t.shape), self.inputs)

    @property
    def output_shape(self):
        return nest.map_structure(lambda t: tuple(t.shape), self.outputs)

    def call(self, inputs, training=None, mask=None):
        given = nest.flatten(inputs)
        wanted = nest.flatten(self.inputs)
        if len(given) != len(wanted):
            raise ValueError(
                f"Layer '{self.name}' expected {len(wanted)} input(s). "
                f"Received {len(given)} instead."
            )
        values = {id(t): _as_dtype(v, t.dtype) for t, v in zip(wanted, given)}

        def value(x):
            return values[id(x)] if isinstance(x, KerasTensor) else x

        for node in self._nodes:
            outputs = node.layer(
                nest.map_structure(value, node.inputs),
                *nest.map_structure(value, list(node.args)),
                **{k: nest.map_structure(value, v) for k, v in node.kwargs.items()},
            )
            for t, v in zip(nest.flatten(node.outputs), nest.flatten(outputs)):
                values[id(t)] = v
        return nest.map_structure(value, self.outputs)


def _as_dtype(value, dtype):
    """An input as Keras 3 takes it: converted to its keras.Input's dtype (cast if need be)."""
    if is_tensor(value) and value.dtype != dtype:
        return cast(value, dtype)
    return value


_models._FUNCTIONAL.append(Functional)
