"""`tf.Module`: a named container whose variables are found in its attributes.

Subclass it and store variables (or other modules, or lists and dicts of them) as attributes;
`variables`, `trainable_variables` and `submodules` find them, as TF's do: this module's own
attributes in the order of their names, then each submodule's, every object once. A Keras
layer is not a `tf.Module` (in Keras 3 neither are its variables `tf.Variable`s), so a module
does not list it or its weights.
"""

import re

from . import nest
from .tensor import Variable

__all__ = ["Module"]


class Module:
    """A named container of variables and submodules (TF's `tf.Module`)."""

    def __init__(self, name=None):
        if name is None:
            name = _snake_case(type(self).__name__)
        elif not (isinstance(name, str) and name.isidentifier()):
            raise ValueError(
                f"{name!r} is not a valid module name. Module names must be valid Python "
                "identifiers (e.g. a valid class name)."
            )
        self._name = name

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        """The module's name scope, `"<name>/"` (`with module.name_scope as scope:` gives
        that string). TF prefixes the names of the variables made inside it; minitape's
        variables keep their own names."""
        return NameScope(self._name + "/")

    @property
    def variables(self):
        """Every `tf.Variable` in this module and its submodules."""
        return tuple(_found(self, lambda x: isinstance(x, Variable)))

    @property
    def trainable_variables(self):
        return tuple(_found(self, lambda x: isinstance(x, Variable) and x.trainable))

    @property
    def non_trainable_variables(self):
        return tuple(_found(self, lambda x: isinstance(x, Variable) and not x.trainable))

    @property
    def submodules(self):
        return tuple(_found(self, lambda x: isinstance(x, Module)))

    def __repr__(self):
        return f"<{type(self).__module__.replace('minitape', 'tf')}.{type(self).__name__}>"


class NameScope:
    """A name scope as TF's `name_scope_v2`: its `name`, and the same string from `with`."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        return self.name

    def __exit__(self, *exc):
        return False


def _snake_case(name):
    """'MyModel' -> 'my_model', as TF names a module after its class."""
    name = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub("([a-z0-9])([A-Z])", r"\1_\2", name).lower()


def _found(module, wanted, seen=None, visited=None):
    """The objects `wanted` picks from the attributes of `module` (sorted by name, lists and
    dicts looked into), then from its submodules', each object once (a module that holds
    itself, or its parent, is looked into once)."""
    seen = set() if seen is None else seen
    visited = {id(module)} if visited is None else visited
    found, submodules = [], []
    for key in sorted(vars(module)):
        if key == "_name":
            continue
        for leaf in nest.flatten(vars(module)[key]):
            if wanted(leaf) and id(leaf) not in seen:
                seen.add(id(leaf))
                found.append(leaf)
            if isinstance(leaf, Module) and id(leaf) not in visited:
                visited.add(id(leaf))
                submodules.append(leaf)
    for sub in submodules:
        found += _found(sub, wanted, seen, visited)
    return found
