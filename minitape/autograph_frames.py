"""Would TF's AutoGraph have converted the Python code running now? Read from the call stack,
for the refusals of `Graph.refuses` (`bool(x)`, `for v in x`, `len(x)` of a traced tensor).

TF converts a `tf.function`'s code, and recursively every function, method, lambda or callable
object that converted code calls (`converted_call`), but not through its own modules nor
Keras': a layer's `call`, a model's `train_step` under `fit`, the function given to
`custom_gradient`, `recompute_grad`, `vectorized_map` or `nest.map_structure` run as they are,
and so does a function under `do_not_convert`, or one TF cannot convert (a generator, a loop
with an `else`). Where TF runs the code converted, its `if` on a tensor is a graph cond; where
it runs it as it is, reading a symbolic tensor's value is TF's error.

minitape converts fewer of those (methods, lambdas, callable objects, functions with `global`
are left as they are): where TF would have converted the code, minitape runs it in Python
instead (the function then runs its Python code on every call, see `function.py`), rather than
refuse what TF accepts. So the code reading the value is refused when: it is converted code
itself (`bool(x)`, `assert x`), or, walking up its callers through the user's unconverted
functions, one reaches code TF leaves as it is (above) before reaching converted code.
"""

import dis
import os
import types

_HERE = os.path.dirname(os.path.abspath(__file__))
_KERAS = os.path.join(_HERE, "keras") + os.sep
# minitape's functions that call the user's function as TF calls it: not converted
_AS_IT_IS = {
    ("autograph.py", "not_converted"),  # (do_not_convert's wrapper)
    ("custom_gradient.py", None),
    ("recompute.py", None),
    ("control_flow.py", "vectorized_map"),
    ("nest.py", "map_structure"),
}

_CONVERTED = set()  # code objects of converted functions (and of the functions they define)
_AS_WRITTEN = set()  # code objects TF leaves as they are: generators, loops with an else
_LEFT = set()  # code objects defined inside converted code, left as they are by minitape only


def _codes(code, skip=()):
    """`code` and the code of the functions and comprehensions it defines, but lambdas and
    the functions named in `skip` (minitape leaves them as they are: `_LEFT`)."""
    yield code
    for const in code.co_consts:
        if not isinstance(const, types.CodeType):
            continue
        if const.co_name in ("<lambda>", *skip):
            _LEFT.update(_codes(const))
        else:
            yield from _codes(const, skip)


def converted(code, skip=()):
    """`code` (and the functions it defines, but those named in `skip`) runs as AutoGraph's
    conversion."""
    _CONVERTED.update(_codes(code, skip))


def left_as_written(code):
    """`code` runs as it is, as TF runs it (a generator, a loop with an else)."""
    _AS_WRITTEN.update(_codes(code))


def defined_in_converted_code(func):
    """Whether `func` was defined inside a converted function (TF converted it with it)."""
    code = getattr(func, "__code__", None)
    return code in _LEFT or code in _CONVERTED


def branch_free(code):
    """Whether `code` (a lambda's) has nothing AutoGraph would rewrite: no `a if c else b`,
    `and`, `or`, `not` (no jump, no UNARY_NOT in its bytecode) and no comprehension."""
    return not any(
        "JUMP" in ins.opname or ins.opname == "UNARY_NOT" for ins in dis.get_instructions(code)
    ) and not any(isinstance(c, types.CodeType) for c in code.co_consts)


def is_minitape(code):
    return code.co_filename.startswith(_HERE)


def _as_it_is(code):
    """A minitape function that calls the user's function without converting it, as TF."""
    if code.co_filename.startswith(_KERAS):
        return True
    name = os.path.basename(code.co_filename)
    return (name, None) in _AS_IT_IS or (name, code.co_name) in _AS_IT_IS


def tf_would_convert(frame):
    """Whether TF would run the code of `frame` (the user's, reading a traced tensor's value)
    converted, so that TF's graph, not Python, would decide."""
    first = True
    while frame is not None:
        code = frame.f_code
        if code in _AS_WRITTEN or (is_minitape(code) and _as_it_is(code)):
            return False
        if code in _CONVERTED:
            return not first
        first = False
        frame = frame.f_back
    return True
