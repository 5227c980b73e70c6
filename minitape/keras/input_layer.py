"""`keras.Input` and the `InputLayer` behind it: where a functional model starts."""

from ..dtypes import float32
from .base_layer import Layer
from .keras_tensor import KerasTensor, Node

__all__ = ["Input", "InputLayer"]


class InputLayer(Layer):
    """The layer behind a `keras.Input`: it holds the input's shape and makes its tensor."""

    def __init__(self, shape=None, batch_size=None, dtype=None, batch_shape=None, name=None):
        super().__init__(name=name, dtype=dtype or float32)
        if shape is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `shape` and `batch_shape` at the same time.")
        if shape is None and batch_shape is None:
            raise ValueError("You must pass a `shape` argument.")
        if shape is not None:
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            batch_shape = (batch_size,) + shape
        self.batch_shape = tuple(batch_shape)
        self.built = True
        node = Node(self, is_input=True)
        self._inbound_nodes.append(node)
        node.outputs = KerasTensor(self.batch_shape, self.dtype, name=self.name, node=node)
        self.output = node.outputs


def Input(shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None, name=None):
    """A symbolic input of `shape` (without the batch size): call layers on it, then make a
    `Model(inputs, outputs)`."""
    if sparse:
        raise NotImplementedError("minitape's keras.Input has no sparse inputs.")
    return InputLayer(shape, batch_size, dtype, batch_shape, name).output
