"""`keras.Input` and the symbolic tensors of the functional API.

    inputs = tf.keras.Input(shape=(4,))
    x = tf.keras.layers.Dense(8, activation="relu")(inputs)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(x))

`Input` gives a `KerasTensor`: no values, a shape whose first (batch) size is None, a dtype.
Calling a layer on one records a `Node` (the layer and what it was called on) and returns
new KerasTensors for its outputs; their shapes come from running the layer once on zeros
(a batch of one), which also builds it. `Model(inputs, outputs)` then replays the recorded
nodes on real tensors (functional.py).
"""

import itertools

from .. import nest
from ..dtypes import as_dtype, float32
from ..function import init_scope
from ..ops import zeros
from ..tensor import is_tensor

__all__ = ["KerasTensor", "Node", "symbolic_call"]

_node_ids = itertools.count()


class Node:
    """One call of `layer` on symbolic arguments; `order` says which call came first."""

    def __init__(self, layer, inputs=(), args=(), kwargs=None, is_input=False):
        self.layer, self.inputs, self.args, self.kwargs = layer, inputs, args, kwargs or {}
        self.is_input = is_input  # the node of a keras.Input: it has no parents
        self.order = next(_node_ids)
        self.outputs = None  # the KerasTensors it made (a nest)

    def parents(self):
        """The KerasTensors this call takes."""
        return [t for t in nest.flatten((self.inputs, self.args, self.kwargs)) if _symbolic(t)]


class KerasTensor:
    """A tensor of the functional API: a shape and a dtype, made by `node` (its layer call)."""

    def __init__(self, shape, dtype=float32, name=None, node=None):
        self.shape = tuple(None if d is None else int(d) for d in shape)  # (a tuple, as Keras')
        self.dtype = as_dtype(dtype).name
        self.name = name
        self.node = node

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return (
            f"<KerasTensor shape={self.shape}, dtype={self.dtype}, "
            f"sparse=False, ragged=False, name={self.name}>"
        )

    def __bool__(self):
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean.")


def _symbolic(x):
    return isinstance(x, KerasTensor)


def _example(t):
    """A value standing for KerasTensor `t`: zeros, a batch of one where its size is None."""
    return zeros([1 if d is None else d for d in t.shape], t.dtype)


def symbolic_call(layer, inputs, args, kwargs):
    """`layer` called on KerasTensors: run it on examples to learn its outputs' shapes (and
    build it), record the call, and return KerasTensors for its outputs."""
    node = Node(layer, inputs, args, kwargs)
    layer._inbound_nodes.append(node)
    first = next(t for t in nest.flatten((inputs, args, kwargs)) if _symbolic(t))
    unknown_batch = bool(first.shape) and first.shape[0] is None

    def example_of(x):
        return _example(x) if _symbolic(x) else x

    with init_scope():
        outputs = layer(
            nest.map_structure(example_of, inputs),
            *nest.map_structure(example_of, list(args)),
            **{k: nest.map_structure(example_of, v) for k, v in kwargs.items()},
        )
    layer._clear_losses()  # (what the examples added is no loss of the model's)

    def symbolic(t):
        if not is_tensor(t):
            return t
        shape = t.shape.as_list()
        if unknown_batch and shape:
            shape[0] = None
        return KerasTensor(shape, t.dtype, name=layer.name, node=node)

    node.outputs = nest.map_structure(symbolic, outputs)
    return node.outputs


def nodes_between(inputs, outputs):
    """The nodes that lead from `inputs` to `outputs`, in the order they were called, or a
    ValueError naming a KerasTensor the outputs need that `inputs` do not give."""
    given = {id(t) for t in nest.flatten(inputs)}
    found = {}

    def visit(t):
        if id(t) in given:
            return
        if t.node is None or t.node.is_input:
            raise ValueError(
                "Graph disconnected: cannot find parent for tensor "
                f"{t!r}. The following previous layers were accessed without issue: []"
            )
        if t.node.order in found:
            return
        found[t.node.order] = t.node
        for parent in t.node.parents():
            visit(parent)

    for t in nest.flatten(outputs):
        visit(t)
    return [found[k] for k in sorted(found)]
