"""What AutoGraph reads in a function's syntax tree, and the nodes it writes (`autograph.py`
does the rewriting): the names a block assigns and the names live after it, whether it
returns or jumps (`break`, `continue`), the returns it lifts, and the small builders of
`ag__.<operator>(...)` calls and assignments."""

import ast

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _walk(nodes, into_scopes=False):
    """Every node in `nodes`, in order; nested functions, lambdas and classes are not looked
    into unless `into_scopes`."""
    for node in nodes:
        yield node
        if into_scopes or not isinstance(node, _SCOPES):
            yield from _walk(ast.iter_child_nodes(node), into_scopes)


def _assigned(stmts):
    """The names `stmts` bind in the function, in order of appearance: assignment and loop
    targets, `with ... as`, nested functions' and classes' names (not the variables of a
    comprehension, which are its own)."""
    own = {
        id(name)
        for node in _walk(stmts)
        if isinstance(node, ast.comprehension)
        for name in ast.walk(node.target)
    }
    names = []
    for node in _walk(stmts):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and id(node) not in own:
            found = node.id
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found = node.name
        else:
            continue
        if found not in names:
            names.append(found)
    return names


def _used(nodes):
    """The names `nodes` read (closures included: a nested function reads when called)."""
    return {
        n.id
        for n in _walk(nodes, into_scopes=True)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }


def _live_in(stmts, live_out):
    """The names possibly read before being assigned, running `stmts` then code reading
    `live_out` (a backward liveness analysis, enough to tell a loop's variables from its
    temporaries)."""
    live = set(live_out)
    for stmt in reversed(stmts):
        live = _live_in_stmt(stmt, live)
    return live


def _live_in_stmt(stmt, live_out):
    if isinstance(stmt, ast.If):
        return _used([stmt.test]) | _live_in(stmt.body, live_out) | _live_in(stmt.orelse, live_out)
    if isinstance(stmt, (ast.While, ast.For)):
        head = _used([stmt.test] if isinstance(stmt, ast.While) else [stmt.iter])
        head |= _used([getattr(stmt, "extra_test", ast.Constant(None))])
        live = set(live_out) | head | _live_in(stmt.orelse, live_out)
        for _ in range(3):  # (a fixed point: what the next iteration reads)
            body = _live_in(stmt.body, live)
            if isinstance(stmt, ast.For):
                body -= set(_assigned([stmt.target]))
            live = set(live_out) | head | body
        return live
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):  # (AugAssign reads its target first)
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        killed = {t.id for t in targets if isinstance(t, ast.Name)}
        return (set(live_out) - killed) | _used([stmt])
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        bound = _assigned([item.optional_vars for item in stmt.items if item.optional_vars])
        live = _live_in(stmt.body, live_out) - set(bound)
        return live | _used([item.context_expr for item in stmt.items])
    if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
        return (set(live_out) - {stmt.name}) | _used([stmt])
    return set(live_out) | _used([stmt])


def _contains(stmts, kinds):
    return any(isinstance(n, kinds) for n in _walk(stmts))


def _loose_jumps(stmts):
    """Whether `stmts` hold a `break` or `continue` of a loop around them."""
    return bool(_own_jumps(stmts))


def _own_jumps(stmts):
    """The `break` and `continue` statements of the loop whose body is `stmts`."""
    found, todo = [], list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Break, ast.Continue)):
            found.append(node)
        elif not isinstance(node, (ast.While, ast.For, *_SCOPES)):
            todo.extend(ast.iter_child_nodes(node))
    return found


def _always_returns(stmts):
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and _always_returns(last.body) and _always_returns(last.orelse)


def _lift_returns(stmts):
    """In each block: after an `if` one of whose branches always returns, the statements
    that follow move into its other branch (TF's ConditionalReturnRewriter), and code after
    a statement that always returns is dropped."""
    out = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, ast.If):
            stmt.body, stmt.orelse = _lift_returns(stmt.body), _lift_returns(stmt.orelse)
            rest = stmts[i + 1 :]
            if rest and _always_returns(stmt.body) and not _always_returns(stmt.orelse):
                stmt.orelse = _lift_returns(stmt.orelse + rest)
                return out + [stmt]
            if rest and _always_returns(stmt.orelse) and not _always_returns(stmt.body):
                stmt.body = _lift_returns(stmt.body + rest)
                return out + [stmt]
        out.append(stmt)
        if _always_returns([stmt]):
            return out
    return out


def _returns_outside_loops(stmts):
    """The `return` statements of `stmts` that no loop holds."""
    found, todo = [], list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            found.append(node)
        elif not isinstance(node, (ast.While, ast.For, *_SCOPES)):
            todo.extend(ast.iter_child_nodes(node))
    return found


def _name(id_, store=False):
    return ast.Name(id_, ast.Store() if store else ast.Load())


def _call(func, *args):
    return ast.Call(ast.Attribute(_name("ag__"), func, ast.Load()), list(args), [])


def _assign(name, value):
    return ast.Assign([_name(name, store=True)], value)
