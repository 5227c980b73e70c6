"""AutoGraph (`tf.autograph`): the rewrite `minitape.function` applies to a Python function
before tracing it, so that an `if`, `while` or `for` on a *tensor* becomes graph control flow.

    @tf.function
    def f(x):
        if x > 0:
            y = x * 2
        else:
            y = -x
        return y

    print(tf.autograph.to_code(f))

A trace runs the Python code once. A plain `if x > 0:` would ask for the traced value of `x`,
take one branch, and the graph would repeat that branch on every call. So, as TF does, the
function's source is rewritten (`convert`, with Python's `ast`): each branch or loop body
becomes a small function, the variables it assigns are handed in and out by `get_state` /
`set_state`, and the statement becomes a call of an operator below:

    def if_body():                  def else_body():
        nonlocal y                      nonlocal y
        y = x * 2                       y = -x
    ag__.if_stmt(x > 0, if_body, else_body, get_state, set_state, ('y',), 1)

The operators decide when the code runs. On a Python value (`if training:`, `for layer in
self.layers`) they run plain Python: the branch is picked while tracing, the loop unrolled.
On a tensor, while a function is traced, they build `tf.cond` / `tf.while_loop` (see
`control_flow.graph_cond`, `graph_while`): *both* branches are traced (so a `print` or
`list.append` in either happens once, at tracing), the results become tensors (a branch's
Python `0.0` too), and the graph decides again on every call. `for i in tf.range(n)` (any
tensor) becomes a while loop over its first dimension.

`return` inside an `if` becomes an assignment of `retval_` (statements after an `if` that
returns move into its other branch, as TF's rewrite does); `break` and `continue` set flags
(`break_`, `continue_`) that the loop's test and the rest of its body check. What is not
converted stays Python, and runs as before (a tensor value decided in Python makes the
function run its Python code on every call, see `function.py`): a loop containing `return`
(on a tensor, TF's NotImplementedError), a function using `global` or `nonlocal`, lambdas,
and any function whose source cannot be read. A generator, or a loop with an `else`, is
TF's UnsupportedLanguageElementError (`to_code` raises it; a `tf.function` warns and runs
the function as it is). The user's own functions a converted function calls by name are
converted too (`ag__.converted_call`), as are the functions defined inside it and a
decorator's wrapper (its own code), as TF does; methods, lambdas and callable objects
(`self.block(x)`) are not (TF converts those as well; a Keras layer's `call` it does not).
Python's `float(x)`, `int(x)`, `range(n)` and `len(x)` become a cast, `tf.range` and the
first dimension when given a tensor (`float_`, `int_`, `range_`, `len_`).

What TF refuses, minitape refuses: `bool(x)`, `assert x`, `enumerate(x)` of a traced tensor in
converted code, or in code TF runs as it is (under `do_not_convert`, a Keras layer's `call`,
a loop with an `else`, with `autograph=False`; `autograph_frames.py` says which code TF
converts); an `if` or `while` on a tensor that is no boolean scalar; a loop variable whose
dtype or shape one iteration changes. Where TF would have converted code that minitape does
not (a method, a lambda), its Python runs instead, as above.
"""

import ast
import copy
import functools
import inspect
import sys
import sysconfig
import textwrap
import types
import weakref

import numpy as np

from . import autograph_frames, control_flow
from .array_ops import _LENGTH
from .array_ops import concat as _concat
from .array_ops import gather as _gather
from .array_ops import reshape as _reshape
from .autograph_ast import (
    _assign,
    _assigned,
    _call,
    _contains,
    _lift_returns,
    _live_in_stmt,
    _loose_jumps,
    _name,
    _own_jumps,
    _returns_outside_loops,
    _walk,
)
from .errors import InvalidArgumentError
from .logs import logger
from .math_ops import logical_and as _logical_and
from .math_ops import logical_not as _logical_not
from .math_ops import logical_or as _logical_or
from .py_builtins import float_, int_, len_, range_  # noqa: F401  (ag__.float_, ...)
from .tape import apply
from .tensor import Tensor, Variable, convert_to_tensor

__all__ = ["to_code", "convert", "experimental"]


# --- the operators the converted code calls ------------------------------------------------
class Undefined:
    """The value of a variable not assigned yet (TF's `ag__.Undefined`): a branch that leaves
    it undefined while the other assigns it is an error when the `if` is a graph cond."""

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name

    def __repr__(self):
        return f"<undefined {self.symbol_name}>"


def _is_undefined(x):
    return isinstance(x, Undefined)


def _graph_for(value):
    """The function graph being traced, if `value` is a tensor that a graph must decide on."""
    if isinstance(value, (Tensor, Variable)):
        return control_flow.tracing_graph()
    return None


def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    """`if cond: body() else: orelse()`. On a tensor while tracing: a graph cond of both
    branches, whose results are the variables named in `symbol_names`."""
    graph = _graph_for(cond)
    if graph is None:
        if cond:
            body()
        else:
            orelse()
        return
    cond = _tf_condition(graph, cond, "if statement")
    initial = get_state()
    undefined = {}

    def branch(fn, which):
        def run():
            set_state(initial)
            fn()
            state = get_state()
            undefined[which] = undefined["last"] = [_is_undefined(x) for x in state]
            return tuple(None if _is_undefined(x) else x for x in state)

        return run

    def check(then, orelse):
        _check_branches(symbol_names, then, orelse, undefined)

    result = control_flow.graph_cond(graph, cond, branch(body, 0), branch(orelse, 1), check)
    set_state(
        tuple(
            Undefined(name) if undefined["last"][i] else x
            for i, (name, x) in enumerate(zip(symbol_names, result))
        )
    )


def _tf_condition(graph, cond, statement):
    """The condition of an `if` or `while` on a tensor, as a boolean scalar (a boolean of one
    element is reshaped, as TF does); TF's ValueError for any other tensor."""
    cond = convert_to_tensor(cond)
    if cond.dtype.name == "bool" and cond._value.size == 1:
        return cond if cond.shape.rank == 0 else _reshape(cond, ())
    cast = "" if cond.dtype.name == "bool" else " to use as boolean Tensor, use `tf.cast`;"
    raise ValueError(
        f"condition of {statement} expected to be `tf.bool` scalar, got "
        f'Tensor("{graph._tf_name(cond)}", shape={cond.shape}, dtype={cond.dtype.name});'
        f"{cast} to check for None, use `is not None`"
    )


def _check_loop_state(graph, names, before, after):
    """TF's errors for a loop variable whose dtype or shape one iteration changes (a shape
    computed from the arguments is checked by rank only: TF may know it only partly)."""
    for name, a, b in zip(names, before, after):
        if not isinstance(a, (Tensor, Variable)) or not isinstance(b, (Tensor, Variable)):
            continue
        if a.dtype != b.dtype:
            raise TypeError(
                f"'{name}' has dtype {a.dtype.name} before the loop, but dtype {b.dtype.name} "
                "after one iteration"
            )
        sa, sb = a._read_value().shape, b._read_value().shape
        if len(sa) != len(sb) or (sa != sb and not graph.depends_on_inputs(a)):
            raise ValueError(
                f"'{name}' has shape {sa} before the loop, but shape {sb} after one "
                "iteration. Use tf.autograph.experimental.set_loop_options to set shape "
                "invariants."
            )


def _check_branches(names, then, orelse, undefined):
    """TF's errors for an `if` on a tensor whose branches disagree on a variable."""
    for i, name in enumerate(names):
        a, b = undefined[0][i], undefined[1][i]
        if a != b:
            where = "else" if b else "main"
            if name == "retval_":
                raise ValueError(f"the {where} branch must also have a return statement.")
            raise ValueError(f"'{name}' must also be initialized in the {where} branch")
        x, y = then[i], orelse[i]
        if isinstance(x, Tensor) and isinstance(y, Tensor) and x.dtype != y.dtype:
            what = "the return value" if name == "retval_" else f"'{name}'"
            raise TypeError(
                f"{what} has dtype {x.dtype.name} in the main branch, but dtype "
                f"{y.dtype.name} in the else branch"
            )


def if_exp(cond, if_true, if_false, expr_repr):
    """`if_true() if cond else if_false()`; a graph cond on a tensor while tracing."""
    graph = _graph_for(cond)
    if graph is None:
        return if_true() if cond else if_false()
    if convert_to_tensor(cond).dtype.name != "bool":  # (TF: its Switch op's error)
        raise InvalidArgumentError(
            None,
            None,
            f"Input 'pred' passed {convert_to_tensor(cond).dtype.name} expected bool while "
            "building NodeDef 'cond/switch_pred'",
        )
    return control_flow.graph_cond(graph, cond, if_true, if_false)


def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    """`while test(): body()`. If the test is a tensor while tracing: a graph while loop whose
    loop variables are the variables named in `symbol_names`."""
    first = test()
    graph = _graph_for(first)
    if graph is None:
        while first:
            body()
            first = test()
        return
    initial = _first_values(graph, get_state(), set_state, get_state, body)
    _check_defined(symbol_names, initial)

    def loop_test(*state):
        set_state(state)
        return _tf_condition(graph, test(), "while loop")

    def loop_body(*state):
        set_state(state)
        body()
        _check_loop_state(graph, symbol_names, state, get_state())
        return get_state()

    result = control_flow.graph_while(graph, loop_test, loop_body, initial)
    if result is None:  # (the body decided in Python on a traced value: run it in Python)
        set_state(initial)
        while test():
            body()
        return
    set_state(tuple(result))


def _first_values(graph, state, set_state, get_state, body):
    """Loop variables first assigned in the body start, as in TF, at zeros of the dtype and
    shape one (dry) run of the body gives them; the others as they are."""
    if not any(_is_undefined(x) for x in state):
        return state

    def once():
        set_state(state)
        body()
        return get_state()

    _, after = graph.trace_branch(once, loop=True)
    set_state(state)
    return tuple(
        Tensor(np.zeros_like(convert_to_tensor(a)._value))
        if _is_undefined(x) and not _is_undefined(a)
        else x
        for x, a in zip(state, after)
    )


def _check_defined(names, state):
    for name, x in zip(names, state):
        if _is_undefined(x):
            raise ValueError(f"'{name}' must be defined before the loop.")


def python_loop_test(test, returns):
    """The test of a loop left in Python (it holds `break`, `continue` or `return`): on a
    traced tensor, its value in Python (TF would have converted the loop)."""
    if _python_loop_on(test, returns):
        return bool(test._read_value())
    return test


def python_if_test(test):
    """The test of an `if` left in Python (it holds a `return`, `break` or `continue` that
    minitape does not rewrite): on a traced tensor, its value in Python."""
    return python_loop_test(test, False)


def python_loop_iterate(iterable, returns):
    """What a `for` left in Python (it holds `break`, `continue` or `return`) iterates over:
    a traced tensor's rows."""
    if _python_loop_on(iterable, returns):
        return [iterable[i] for i in range(iterable.shape[0])]
    return iterable


def _python_loop_on(value, returns):
    """Whether `value` is a traced tensor (then the trace hears of its use in Python)."""
    graph = _graph_for(value)
    if graph is None:
        return False
    if returns:
        raise NotImplementedError(
            "a return statement cannot be placed inside this TensorFlow loop; this may happen "
            "if a return statement depends on a static Python condition such as a "
            "hyperparameter"
        )
    graph.value_used(value)  # (an unrolled loop over a traced tensor: not replayable)
    return True


def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """`for x in iter_: body(x)` (stopping when `extra_test()`, if given, is false: a `break`).
    Over a tensor while tracing (`tf.range(n)` included): a graph while loop over its first
    dimension, the index and the named variables as loop variables. Over anything else:
    Python's loop (unrolled into the trace)."""
    graph = _graph_for(iter_)
    if graph is None:
        _python_for(iter_, extra_test, body)
        return
    items = convert_to_tensor(iter_)
    n = apply(_LENGTH, items)
    # (one row of zeros after the last: the body is traced once even when the loop runs no
    # iteration, and element 0 of an empty tensor would be an error)
    padded = _concat(
        [items, Tensor(np.zeros((1,) + items._value.shape[1:], items._value.dtype))], 0
    )
    initial = _first_values(graph, get_state(), set_state, get_state, lambda: body(padded[0]))
    _check_defined(symbol_names, initial)

    def loop_test(i, *state):
        if extra_test is None:
            return i < n
        set_state(state)
        return _logical_and(i < n, extra_test())

    def loop_body(i, *state):
        set_state(state)
        body(_gather(padded, i))
        _check_loop_state(graph, symbol_names, state, get_state())
        return (i + 1, *get_state())

    result = control_flow.graph_while(graph, loop_test, loop_body, (Tensor(np.int32(0)), *initial))
    if result is None:  # (the body decided in Python on a traced value: run it in Python)
        set_state(initial)
        _python_for(iter_, extra_test, body)
        return
    set_state(tuple(result[1:]))


def _python_for(iterable, extra_test, body):
    for x in iterable:
        if extra_test is not None and not extra_test():
            break
        body(x)


def not_(a):
    """`not a` (`tf.logical_not` for a tensor while tracing)."""
    if _graph_for(a) is not None:
        return _logical_not(a)
    return not a


def and_(a, b):
    """`a() and b()` (`tf.logical_and` of both for a tensor while tracing)."""
    first = a()
    if _graph_for(first) is not None:
        return _logical_and(first, b())
    return first and b()


def or_(a, b):
    """`a() or b()` (`tf.logical_or` of both for a tensor while tracing)."""
    first = a()
    if _graph_for(first) is not None:
        return _logical_or(first, b())
    return first or b()


# --- the conversion ------------------------------------------------------------------------
class _CannotConvert(Exception):
    pass


class ConversionError(Exception):
    """AutoGraph cannot convert this object (TF's `ConversionError`)."""


class UnsupportedLanguageElementError(NotImplementedError):
    """The function uses Python that AutoGraph does not convert: a generator, or a loop with an
    `else` (TF's `UnsupportedLanguageElementError`)."""


def to_code(entity, recursive=True, experimental_optional_features=None):
    """The source of the function `entity` as AutoGraph converts it (for a `tf.function`,
    pass its `python_function`, as TF asks)."""
    if not hasattr(entity, "__code__"):
        raise ConversionError(
            f"converting {entity}: ValueError: Cannot apply autograph to a function that "
            "doesn't expose a __code__ object. If this is a @tf.function, try passing "
            "f.python_function instead."
        )
    try:
        return ast.unparse(_converted_def(entity, always=True)[0]) + "\n"
    except _CannotConvert as e:
        raise ConversionError(f"converting {entity}: {e}") from None


def convert(fn):
    """`fn` converted, as a function (or `fn` itself if it has no control flow to convert;
    with TF's warning if it cannot be converted)."""
    if isinstance(fn, functools.partial):
        return functools.partial(convert(fn.func), *fn.args, **fn.keywords)
    if isinstance(fn, types.MethodType):
        return types.MethodType(convert(fn.__func__), fn.__self__)
    if not isinstance(fn, types.FunctionType):
        return fn
    if fn.__code__.co_name == "<lambda>":
        if autograph_frames.branch_free(fn.__code__):  # (its conversion would be itself)
            autograph_frames.converted(fn.__code__)
        return fn
    if (
        getattr(fn, "__minitape_do_not_convert__", False)
        or "__class__" in fn.__code__.co_freevars  # (zero-argument super())
        or fn.__code__.co_flags & inspect.CO_COROUTINE
    ):
        return fn
    try:
        fdef, filename = _converted_def(fn)
        if fdef is None:  # (nothing to rewrite: its code runs as the conversion)
            autograph_frames.converted(fn.__code__)
            return fn
        return _compiled(fn, fdef, filename)
    except _CannotConvert:
        return fn
    except (OSError, TypeError, SyntaxError, IndexError, UnsupportedLanguageElementError) as e:
        if isinstance(e, UnsupportedLanguageElementError):  # (TF too runs it as it is)
            autograph_frames.left_as_written(fn.__code__)
        logger.warning("AutoGraph could not transform %r and will run it as-is. Cause: %s", fn, e)
        return fn


def _converted_def(fn, always=False):
    """(the converted `def tf__<name>`, the file it came from); (None, ...) when the function
    has nothing to convert."""
    code = fn.__code__  # (the function's own source: a decorator's wrapper is not what it wraps)
    if code.co_name == "<lambda>":
        raise _CannotConvert("minitape's AutoGraph does not convert lambdas")
    source = textwrap.dedent(inspect.getsource(code))
    filename = inspect.getsourcefile(code) or "<autograph>"
    tree = ast.parse(source)
    fdef = tree.body[0]
    if not isinstance(fdef, ast.FunctionDef) or fdef.name != code.co_name:
        raise _CannotConvert("its source is not a def of its own")
    ast.increment_lineno(tree, code.co_firstlineno - 1)
    _refuse_unsupported(fdef)
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) for n in _walk(fdef.body)):
        raise _CannotConvert("minitape's AutoGraph does not convert global or nonlocal")
    calls = _converted_calls(fn, fdef)
    if not always and not calls and not any(_converts(n) for n in _walk(fdef.body, True)):
        return None, filename
    return _Converter(calls).function(fdef), filename


def _refuse_unsupported(fdef):
    """TF's refusals of a generator and of a loop with an `else` (nested functions too)."""
    for node in _walk(fdef.body, into_scopes=True):
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            raise UnsupportedLanguageElementError("generators are not supported")
        if isinstance(node, (ast.For, ast.While)) and node.orelse:
            kind = "for" if isinstance(node, ast.For) else "while"
            raise UnsupportedLanguageElementError(f"{kind}/else statement not yet supported")


# Python's builtins that AutoGraph replaces in converted code (TF's py_builtins): on a tensor,
# `float(x)` is a cast (a tensor, computed in the graph), `range(n)` is `tf.range`
_BUILTINS = {"float": "float_", "int": "int_", "range": "range_", "len": "len_"}


def _converted_calls(fn, fdef):
    """The names `fdef` calls that the conversion replaces, with the operator that replaces
    each: the user's own functions, as `fn` sees them now (not minitape's, numpy's or another
    library's, nor Python's), by `converted_call` (TF converts those too), and Python's
    `float`, `int` and `range` by `float_`, `int_`, `range_`."""
    params = fdef.args
    local = set(_assigned(fdef.body)) | {
        a.arg for a in params.posonlyargs + params.args + params.kwonlyargs
    }
    names = {
        n.func.id
        for n in _walk(fdef.body)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id not in local
    }
    closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))

    def bound(name):
        if name in closure:
            try:
                return closure[name].cell_contents
            except ValueError:  # (an empty cell)
                return None
        return fn.__globals__.get(name)

    calls = {name: "converted_call" for name in names if _is_user_function(bound(name))}
    calls.update(
        {name: _BUILTINS[name] for name in names & _BUILTINS.keys() if bound(name) is None}
    )
    return calls


_LIBRARY_PATHS = tuple(
    {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
)


def _is_user_function(obj):
    if not isinstance(obj, types.FunctionType) or obj.__name__ == "<lambda>":
        return False
    if (obj.__module__ or "").split(".")[0] == "minitape":
        return False
    return not obj.__code__.co_filename.startswith(_LIBRARY_PATHS)


_CONVERTED_CALLS = weakref.WeakKeyDictionary()  # function -> its conversion


def converted_call(f, *args, **kwargs):
    """`f(*args, **kwargs)`, `f` (one of the user's functions) converted first, once."""
    converted = _CONVERTED_CALLS.get(f)
    if converted is None:
        converted = _CONVERTED_CALLS[f] = convert(f)
    return converted(*args, **kwargs)


def _converts(node):
    """Whether the conversion changes `node`: control flow, and/or, not."""
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.Not)
    return isinstance(node, (ast.If, ast.While, ast.For, ast.IfExp, ast.BoolOp))


def _compiled(fn, fdef, filename):
    """The converted function, with `fn`'s globals, defaults and closure cells (and `ag__`,
    this module). It is compiled inside a factory whose locals are the free variables, so
    that they stay free variables of the result, bound to `fn`'s own cells."""
    names = list(fn.__code__.co_freevars)
    factory = ast.FunctionDef(
        name="factory",
        args=ast.arguments([], [], None, [], [], None, []),
        body=[
            *[ast.Assign([ast.Name(n, ast.Store())], ast.Constant(None)) for n in ["ag__", *names]],
            fdef,
            ast.Return(ast.Name(fdef.name, ast.Load())),
        ],
        decorator_list=[],
    )
    module = ast.fix_missing_locations(ast.Module([factory], []))
    code = compile(module, filename, "exec")
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    inner = next(
        c
        for c in factory_code.co_consts
        if isinstance(c, types.CodeType) and c.co_name == fdef.name
    )
    cells = dict(zip(names, fn.__closure__ or ()))
    cells["ag__"] = types.CellType(sys.modules[__name__])
    converted = types.FunctionType(
        inner,
        fn.__globals__,
        fn.__name__,
        fn.__defaults__,
        tuple(cells[n] for n in inner.co_freevars),
    )
    converted.__kwdefaults__ = fn.__kwdefaults__
    converted.__doc__, converted.__qualname__ = fn.__doc__, fn.__qualname__
    autograph_frames.converted(inner, skip=fdef.unconverted)
    return converted


class _Converter:
    """Rewrites one function: its returns (`_returns`), then its blocks (`_block`)."""

    def __init__(self, calls=None, unconverted=None):
        self.counts = {}
        self.calls = calls or {}  # the names of calls to replace, and their operators
        # the names of the functions defined inside that are left as they are
        self.unconverted = set() if unconverted is None else unconverted

    def _expr(self, node):
        return ast.fix_missing_locations(_Expressions(self.calls).visit(node))

    def _fresh(self, base):
        n = self.counts.get(base, 0)
        self.counts[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def function(self, fdef, nested=False):
        """The converted `fdef` (`tf__<name>`; a function defined inside it keeps its name)."""
        if not nested:
            fdef.decorator_list = []
            fdef.name = f"tf__{fdef.name}"
            fdef.unconverted = self.unconverted  # (read by `_compiled`)
        body = self._returns(_lift_returns(fdef.body))
        params = fdef.args
        defined = {a.arg for a in params.posonlyargs + params.args + params.kwonlyargs}
        defined |= {a.arg for a in (params.vararg, params.kwarg) if a is not None}
        fdef.body = self._block(body, defined, set()) or [ast.Pass()]
        return ast.fix_missing_locations(fdef)

    # -- return -> retval_ -----------------------------------------------------------------
    def _returns(self, body):
        """Returns inside `if`s become `retval_ = ...` (the function ends `return retval_`);
        code after an `if` that may return runs under `if not do_return:`. Returns inside
        loops stay (such a loop is not converted)."""
        returns = _returns_outside_loops(body)
        if all(any(r is s for s in body) for r in returns):
            return body  # (only returns at the top level: nothing to rewrite)
        self.marks, self.guarded = set(), False
        body = self._rewrite_returns(body)
        top = [_assign("retval_", _call("Undefined", ast.Constant("retval_")))]
        if self.guarded:
            top.insert(0, _assign("do_return", ast.Constant(False)))
        else:  # (no code runs after a return: do_return is never read)
            body = _without(body, self.marks)
        return top + body + [ast.Return(_name("retval_"))]

    def _rewrite_returns(self, stmts):
        out = []
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, ast.Return):
                mark = ast.copy_location(_assign("do_return", ast.Constant(True)), stmt)
                self.marks.add(id(mark))
                value = stmt.value or ast.Constant(None)
                return out + [mark, ast.copy_location(_assign("retval_", value), stmt)]
            if isinstance(stmt, ast.If):
                stmt.body = self._rewrite_returns(stmt.body)
                stmt.orelse = self._rewrite_returns(stmt.orelse)
            out.append(stmt)
            rest = stmts[i + 1 :]
            if rest and any(id(n) in self.marks for n in _walk([stmt])):
                self.guarded = True
                guard = ast.If(ast.UnaryOp(ast.Not(), _name("do_return")), [], [])
                guard.body = self._rewrite_returns(rest)
                return out + [ast.copy_location(guard, rest[0])]
        return out

    # -- blocks ----------------------------------------------------------------------------
    def _block(self, stmts, defined, live_out):
        """Convert the statements of one block. `defined`: the names that may have a value
        before it; `live_out`: the names that may be read after it."""
        after = []
        live = set(live_out)
        for stmt in reversed(stmts):
            after.append(live)
            live = _live_in_stmt(stmt, live)
        after.reverse()
        out = []
        defined = set(defined)
        for stmt, live_after in zip(stmts, after):
            out += self._statement(stmt, defined, live_after)
            defined |= set(_assigned([stmt]))
        return out

    def _statement(self, stmt, defined, live_after):
        if isinstance(stmt, ast.If):
            if _contains(stmt.body + stmt.orelse, ast.Return) or _loose_jumps(
                stmt.body + stmt.orelse
            ):
                # (an `if` left to Python: its test's value is read in Python, where TF
                # would have converted it)
                stmt.test = _call("python_if_test", self._expr(stmt.test))
                stmt.body = self._block(stmt.body, defined, live_after)
                stmt.orelse = self._block(stmt.orelse, defined, live_after)
                return [stmt]
            return self._if(stmt, defined, live_after)
        if isinstance(stmt, (ast.While, ast.For)):
            plain = (
                stmt.orelse
                or _contains(stmt.body, ast.Return)
                or (isinstance(stmt, ast.For) and not _simple_target(stmt.target))
            )
            prefix = []
            if not plain and _loose_jumps(stmt.body):
                rewritten = copy.deepcopy(stmt)
                prefix = self._jumps(rewritten)
                if _loose_jumps(rewritten.body):  # (a jump inside a `try`: left to Python)
                    plain, prefix = True, []
                else:
                    stmt = rewritten
            loop_live = _live_in_stmt(stmt, live_after)
            if plain:
                # (a Python loop: on a traced tensor, TF's error if it returns, else the
                # function will run its Python code on every call)
                returns = ast.Constant(_contains(stmt.body, ast.Return))
                if isinstance(stmt, ast.While):
                    stmt.test = _call("python_loop_test", self._expr(stmt.test), returns)
                else:
                    stmt.iter = _call("python_loop_iterate", self._expr(stmt.iter), returns)
                stmt.body = self._block(stmt.body, defined, loop_live)
                return [stmt]
            flags = set(_assigned(prefix))
            return prefix + self._loop(stmt, defined | flags, live_after, loop_live | flags)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            stmt.items = [self._expr(item) for item in stmt.items]
            stmt.body = self._block(stmt.body, defined, live_after)
            return [stmt]
        if isinstance(stmt, ast.FunctionDef) and _convertible_inside(stmt):
            converter = _Converter(self.calls, self.unconverted)
            return [converter.function(stmt, nested=True)]  # (as TF converts it)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.unconverted.add(stmt.name)
        if isinstance(stmt, ast.Try):
            return [_python_tests(stmt)]
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [stmt]
        return [self._expr(stmt)]

    def _jumps(self, loop):
        """TF's rewrite of a loop's `break` and `continue` (those not inside a nested loop):
        `break` sets `break_` (made False before the loop), which the loop's test checks
        (for a `for`, its extra test); `continue` sets `continue_` (made False at the start
        of every iteration); the statements after one that may have set a flag run under
        `if not <flag>:`. Returns the statements to put before the loop."""
        kinds = {type(n) for n in _own_jumps(loop.body)}
        flags, prefix = {}, []
        if ast.Break in kinds:
            flags[ast.Break] = self._fresh("break_")
            prefix.append(ast.copy_location(_assign(flags[ast.Break], ast.Constant(False)), loop))
        if ast.Continue in kinds:
            flags[ast.Continue] = self._fresh("continue_")
        loop.body = self._guarded(loop.body, flags)
        if ast.Continue in flags:
            start = _assign(flags[ast.Continue], ast.Constant(False))
            loop.body.insert(0, ast.copy_location(start, loop))
        if ast.Break in flags:
            not_broken = ast.UnaryOp(ast.Not(), _name(flags[ast.Break]))
            if isinstance(loop, ast.While):
                loop.test = ast.BoolOp(ast.And(), [not_broken, loop.test])
            else:
                loop.extra_test = not_broken
        return prefix

    def _guarded(self, stmts, flags):
        out = []
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, (ast.Break, ast.Continue)):
                set_flag = _assign(flags[type(stmt)], ast.Constant(True))
                return out + [ast.copy_location(set_flag, stmt)]  # (the rest is dead code)
            if isinstance(stmt, ast.If):
                stmt.body = self._guarded(stmt.body, flags) or [ast.Pass()]
                stmt.orelse = self._guarded(stmt.orelse, flags)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                stmt.body = self._guarded(stmt.body, flags) or [ast.Pass()]
            out.append(stmt)
            raised = [f for f in flags.values() if f in _assigned([stmt])]
            rest = stmts[i + 1 :]
            if rest and raised:
                names = [_name(f) for f in raised]
                either = names[0] if len(names) == 1 else ast.BoolOp(ast.Or(), names)
                guard = ast.If(ast.UnaryOp(ast.Not(), either), self._guarded(rest, flags), [])
                return out + [ast.copy_location(guard, rest[0])]
        return out

    def _state_functions(self, state, stmt):
        get_state, set_state = self._fresh("get_state"), self._fresh("set_state")
        names = ", ".join(state)
        one = "," if len(state) == 1 else ""
        source = f"def {get_state}():\n    return ({names}{one})\n"
        if state:
            source += f"def {set_state}(vars_):\n    nonlocal {names}\n    ({names}{one}) = vars_\n"
        else:
            source += f"def {set_state}(vars_):\n    pass\n"
        defs = ast.parse(source).body
        for d in defs:
            ast.copy_location(d, stmt)
        return get_state, set_state, defs

    def _function(self, name, params, nonlocals, body, stmt):
        head = f"def {name}({params}):\n"
        if nonlocals:
            head += f"    nonlocal {', '.join(nonlocals)}\n"
        fdef = ast.parse(head + "    pass\n").body[0]
        fdef.body = [b for b in fdef.body if not isinstance(b, ast.Pass)] + (body or [ast.Pass()])
        return ast.copy_location(fdef, stmt)

    def _undefined(self, state, defined, stmt):
        return [
            ast.copy_location(_assign(n, _call("Undefined", ast.Constant(n))), stmt)
            for n in state
            if n not in defined
        ]

    def _if(self, stmt, defined, live_after):
        modified = _assigned(stmt.body + stmt.orelse)
        state = [n for n in modified if n in live_after]
        nonlocals = [n for n in modified if n in live_after or n in defined]
        body = self._block(stmt.body, defined, live_after)
        orelse = self._block(stmt.orelse, defined, live_after)
        get_state, set_state, defs = self._state_functions(state, stmt)
        if_body, else_body = self._fresh("if_body"), self._fresh("else_body")
        call = _call(
            "if_stmt",
            self._expr(stmt.test),
            _name(if_body),
            _name(else_body),
            _name(get_state),
            _name(set_state),
            ast.Tuple([ast.Constant(n) for n in state], ast.Load()),
            ast.Constant(len(state)),
        )
        return [
            *defs,
            self._function(if_body, "", nonlocals, body, stmt),
            self._function(else_body, "", nonlocals, orelse, stmt),
            *self._undefined(state, defined, stmt),
            ast.copy_location(ast.Expr(call), stmt),
        ]

    def _loop(self, stmt, defined, live_after, loop_live):
        is_for = isinstance(stmt, ast.For)
        targets = _assigned([stmt.target]) if is_for else []
        modified = [n for n in _assigned(stmt.body) if n not in targets]
        state = [n for n in modified if n in loop_live or n in live_after]
        nonlocals = [n for n in modified if n in state or n in defined]
        body = self._block(stmt.body, defined | set(targets), loop_live)
        get_state, set_state, defs = self._state_functions(state, stmt)
        loop_body = self._fresh("loop_body")
        names = ast.Tuple([ast.Constant(n) for n in state], ast.Load())
        if is_for:
            itr = self._fresh("itr")
            body = [ast.copy_location(ast.Assign([stmt.target], _name(itr)), stmt)] + body
            extra = getattr(stmt, "extra_test", None)
            call = _call(
                "for_stmt",
                self._expr(stmt.iter),
                ast.Constant(None) if extra is None else _lambda(self._expr(extra)),
                _name(loop_body),
                _name(get_state),
                _name(set_state),
                names,
                ast.Dict([ast.Constant("iterate_names")], [ast.Constant(", ".join(targets))]),
            )
            return [
                *defs,
                self._function(loop_body, itr, nonlocals, body, stmt),
                *self._undefined(list(dict.fromkeys(targets + state)), defined, stmt),
                ast.copy_location(ast.Expr(call), stmt),
            ]
        loop_test = self._fresh("loop_test")
        test = ast.copy_location(ast.Return(self._expr(stmt.test)), stmt)
        call = _call(
            "while_stmt",
            _name(loop_test),
            _name(loop_body),
            _name(get_state),
            _name(set_state),
            names,
            ast.Dict([], []),
        )
        return [
            *defs,
            self._function(loop_body, "", nonlocals, body, stmt),
            self._function(loop_test, "", [], [test], stmt),
            *self._undefined(state, defined, stmt),
            ast.copy_location(ast.Expr(call), stmt),
        ]


def _convertible_inside(fdef):
    """A function defined inside the converted one is converted with it, unless it is
    decorated or uses `global` or `nonlocal` (left as it is, as such a function would be)."""
    return not fdef.decorator_list and not any(
        isinstance(n, (ast.Global, ast.Nonlocal)) for n in _walk(fdef.body)
    )


def _python_tests(stmt):
    """`stmt` (a `try`, left to Python) with the tests of its `if`s and `while`s and what its
    `for`s iterate over read in Python (`python_if_test`, ...), where TF converts them."""
    for node in _walk([stmt]):
        if isinstance(node, ast.If):
            node.test = _call("python_if_test", node.test)
        elif isinstance(node, ast.While):
            node.test = _call("python_loop_test", node.test, ast.Constant(False))
        elif isinstance(node, ast.For):
            node.iter = _call("python_loop_iterate", node.iter, ast.Constant(False))
    return ast.fix_missing_locations(stmt)


def _without(stmts, marks):
    """`stmts` without the statements whose ids are in `marks` (looking into `if`s)."""
    out = []
    for stmt in stmts:
        if id(stmt) in marks:
            continue
        if isinstance(stmt, ast.If):
            stmt.body = _without(stmt.body, marks) or [ast.Pass()]
            stmt.orelse = _without(stmt.orelse, marks)
        out.append(stmt)
    return out


def _simple_target(target):
    if isinstance(target, ast.Name):
        return True
    return isinstance(target, (ast.Tuple, ast.List)) and all(map(_simple_target, target.elts))


class _Expressions(ast.NodeTransformer):
    """`a if c else b`, `a and b`, `a or b`, `not a` -> AutoGraph's operators (so that on a
    tensor they are graph ops); a call of one of the user's own functions ->
    `ag__.converted_call(f, ...)` (so that it is converted too), and `float(...)`,
    `int(...)`, `range(...)` -> `ag__.float_(...)`, ... (`calls`); nested functions and
    lambdas are left alone."""

    def __init__(self, calls):
        self.calls = calls

    def visit_Call(self, node):
        self.generic_visit(node)
        op = self.calls.get(node.func.id) if isinstance(node.func, ast.Name) else None
        if op is None:
            return node
        call = _call(op, *([node.func] if op == "converted_call" else []), *node.args)
        call.keywords = node.keywords
        return call

    def visit_IfExp(self, node):
        self.generic_visit(node)
        return _call(
            "if_exp",
            node.test,
            _lambda(node.body),
            _lambda(node.orelse),
            ast.Constant(ast.unparse(node.test)),
        )

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        func = "and_" if isinstance(node.op, ast.And) else "or_"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = _call(func, _lambda(value), _lambda(result))
        return result

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return _call("not_", node.operand)
        return node

    def visit_Lambda(self, node):
        return node

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef


def _lambda(body):
    return ast.Lambda(ast.arguments([], [], None, [], [], None, []), body)


def do_not_convert(func=None):
    """`func` for AutoGraph to leave as it is (TF's `tf.autograph.experimental.do_not_convert`):
    a wrapper, so that `func` itself is still converted where it is called directly. An `if` on
    a tensor in it is TF's error (`autograph_frames`). A function defined inside converted
    code was converted with it, as TF does: it is returned as it is."""
    if func is None:
        return do_not_convert
    if autograph_frames.defined_in_converted_code(func):
        return func

    @functools.wraps(func)
    def not_converted(*args, **kwargs):
        return func(*args, **kwargs)

    not_converted.__minitape_do_not_convert__ = True
    return not_converted


experimental = types.SimpleNamespace(do_not_convert=do_not_convert)
