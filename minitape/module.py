"""`tf.Module`: a named container whose variables are found in its attributes.

Subclass it and store variables (or other modules, or lists and dicts of them) as attributes;
`variables`, `trainable_variables` and `submodules` find them, as TF's do: this module's own
attributes in the order of their names, then each submodule's, every object once. A Keras
layer is not a `tf.Module` (in Keras 3 neither are its variables `tf.Variable`s), so a module
does not list it or its weights.
"""

import re

from . import nest
from .context import NAME_SCOPE
from .tensor import Variable

__all__ = ["Module", "name_scope"]


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
        self._name_scope = name_scope(_scoped(name))  # (the scope around its construction)

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        """The module's name scope, `"<name>/"` under the scope it was made in (`with
        module.name_scope as scope:` gives that string): the names of the variables made
        inside it start with it."""
        return self._name_scope

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


class name_scope:  # noqa: N801  (TF's name)
    """`tf.name_scope(name)`: inside `with`, new variables' names start with the scope, as
    TF's `name_scope_v2` runs eagerly. A name ending in "/" is the whole scope, "" is the top,
    anything else goes inside the scope around it; `with` gives the scope as a string."""

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._outer = []  # (the scope each `with` replaced: the same object may be re-entered)

    @property
    def name(self):
        return self._name

    def __enter__(self):
        self._outer.append(NAME_SCOPE.name)
        NAME_SCOPE.name = _scoped(self._name)
        return NAME_SCOPE.name

    def __exit__(self, *exc):
        NAME_SCOPE.name = self._outer.pop()
        return False


def _scoped(name):
    """The scope `name` opens inside the current one."""
    if not name or name.endswith("/"):
        return name
    return NAME_SCOPE.name + name + "/"


def _snake_case(name):
    """'MyModel' -> 'my_model', as TF names a module after its class."""
    name = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub("([a-z0-9])([A-Z])", r"\1_\2", name).lower()


def _found(module, wanted, seen=None, visited=None, root=None):
    """The objects `wanted` picks from the attributes of `module` (sorted by name, lists and
    dicts looked into), then from its submodules', each object once (a module that holds
    itself, or its parent, is looked into once)."""
    seen = set() if seen is None else seen
    visited = {id(module)} if visited is None else visited
    root = module if root is None else root
    found, submodules = [], []
    for key in sorted(vars(module)):
        if key in ("_name", "_name_scope"):
            continue
        try:
            leaves = nest.flatten(vars(module)[key])
        except TypeError as e:  # (a dict whose keys cannot be sorted, as {1: v, "a": w})
            raise ValueError(f"Error processing property {key!r} of {vars(module)[key]!r}") from e
        for leaf in leaves:
            if leaf is root:  # (a module that holds itself, or its parent, is not its own part)
                continue
            if wanted(leaf) and id(leaf) not in seen:
                seen.add(id(leaf))
                found.append(leaf)
            if isinstance(leaf, Module) and id(leaf) not in visited:
                visited.add(id(leaf))
                submodules.append(leaf)
    for sub in submodules:
        found += _found(sub, wanted, seen, visited, root)
    return found
