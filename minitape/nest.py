"""Nested structures (lists, tuples, dicts, namedtuples) of tensors, as `tf.nest` handles them.

`GradientTape.gradient` accepts any nest of targets and sources and returns gradients in the
structure of `sources`; these two functions are all it takes.
"""

__all__ = ["flatten", "pack_sequence_as", "map_structure"]


_NESTS = (list, tuple, dict)  # the containers a nest is made of; anything else is a leaf


def flatten(structure):
    """The leaves of `structure`, depth first; dicts in sorted key order (as TF)."""
    if isinstance(structure, dict):
        return [leaf for k in sorted(structure) for leaf in flatten(structure[k])]
    if isinstance(structure, (list, tuple)):
        leaves = []
        for item in structure:
            if isinstance(item, _NESTS):
                leaves.extend(flatten(item))
            else:
                leaves.append(item)
        return leaves
    return [structure]


def pack_sequence_as(structure, flat):
    """Put the leaves in `flat` back into the shape of `structure`."""
    return _build(structure, iter(flat))


def _build(s, leaves):
    # (a plain recursive function, not a closure: a closure that refers to itself would be a
    # reference cycle, keeping every leaf alive until Python's cycle collector runs)
    if isinstance(s, dict):
        built = {k: _build(s[k], leaves) for k in sorted(s)}
        return type(s)((k, built[k]) for k in s)
    if isinstance(s, (list, tuple)):
        items = [_build(x, leaves) if isinstance(x, _NESTS) else next(leaves) for x in s]
        if isinstance(s, tuple) and hasattr(s, "_fields"):
            return type(s)(*items)
        return type(s)(items)
    return next(leaves)


def map_structure(fn, structure):
    return pack_sequence_as(structure, [fn(x) for x in flatten(structure)])
