"""Keras 3's `get(identifier)` of a config dict: `{"class_name": ..., "config": {...}}` names
a class (or function) of the module, and its config holds the arguments of its constructor."""

import inspect


def from_config(identifier, table, what):
    """The object `identifier` (a dict) names in `table` (name -> class or function), made
    with its config; `what` words the errors ("loss", "initializer", "optimizer")."""
    if "class_name" not in identifier:
        raise ValueError(f"Unknown `config` as a `dict`, config={identifier}")
    name = identifier["class_name"]
    found = table.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"Could not interpret {what} identifier: {identifier}")
    config = identifier.get("config", {})
    if config is None:
        config = {}
    if not isinstance(config, dict):
        raise TypeError(
            f"Expected 'config' to be a dict for {name}, instead got {type(config)}\n"
            f"Full config: {identifier}"
        )
    if not inspect.isclass(found):
        return found
    known = {
        p
        for cls in found.__mro__
        if "__init__" in vars(cls) and cls is not object
        for p in inspect.signature(cls.__init__).parameters
    }
    unknown = {k: v for k, v in config.items() if k not in known}
    if unknown:
        raise ValueError(f"Argument(s) not recognized: {unknown}")
    return found(**config)


def made(found, identifier, what):
    """What `get(identifier)` gives for `found`: a class made with its defaults, a callable as
    it is; anything else is not a `what` (Keras 3's ValueError)."""
    if isinstance(found, type):
        return found()
    if callable(found):
        return found
    raise ValueError(f"Could not interpret {what} identifier: {identifier}")
