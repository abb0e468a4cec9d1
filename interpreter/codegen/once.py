"""A generated expression with a sub-expression it works out more than once worked out once: the first
time it is evaluated it is kept in a local (`(_w0 := …)`), and where it is met again after that, on every
way the evaluation can reach it, the local is read instead.

Generated expressions have no effects (what they call only reads the state, or keeps what it has worked out
for the same answer next time), and nothing changes the state while one is evaluated, so a sub-expression
gives the same value each time. A part is left as it is where it makes a new object (`Party(…)`, a list),
holds an assignment of its own, or reads a local one of the expression's assignments sets (`_v`, …: its
value depends on where it is read); a repeated part is only read from the local where the evaluation that
kept it comes before it on every way there (not in the other branch of an `if`, not behind an `and`/`or`
that may stop before it)."""
from __future__ import annotations

import ast

_PREFIX = "_w"
_MAKES = frozenset({"Party", "Ctx", "list", "dict", "set"})     # calls making a new object each time
_PLAIN = (ast.Name, ast.Constant)                               # read as cheaply as the local


def worked_once(src: str, limit: int = 8) -> str:
    """`src` with each repeated part worked out once where that is sure to give the same (see above). The
    answers are kept (the same rows are generated again under each contract that reads them alike)."""
    done = _DONE.get(src)
    if done is None:
        done = _worked_once(src, limit)
        if len(_DONE) < _KEPT:
            _DONE[src] = done
    return done


_DONE: dict[str, str] = {}
_KEPT = 4096


def _worked_once(src: str, limit: int) -> str:
    if "\n" in src:
        return src
    for i in range(limit):
        try:
            tree = ast.parse(src, mode="eval")
        except SyntaxError:
            return src
        if any(isinstance(n, ast.Name) and n.id.startswith(_PREFIX) for n in ast.walk(tree)) and i == 0:
            return src      # the expression already uses the locals' names
        done = _one(src, tree, f"{_PREFIX}{i}")
        if done is None:
            return src
        src = done
    return src


def _one(src: str, tree: ast.Expression, local: str) -> str | None:
    """The largest repeated part replaced (as above) by `local`, or None when there is none."""
    assigned = {n.target.id for n in ast.walk(tree) if isinstance(n, ast.NamedExpr)
                and isinstance(n.target, ast.Name)}
    paths: dict[int, list[tuple[ast.AST, int, bool]]] = {}     # a node → its ancestors: (node, eval slot, sure)
    order: list[ast.expr] = []                                  # the nodes in the order they are evaluated
    unsafe: set[int] = set()
    callees = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}   # a method is called as it is

    def visit(node: ast.AST, path: list[tuple[ast.AST, int, bool]], bad: bool) -> bool:
        """Records the node and its parts; gives whether it may be replaced (see the module's text)."""
        if isinstance(node, ast.expr):
            paths[id(node)] = path
            order.append(node)
        ok = not bad
        if isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.NamedExpr, ast.List, ast.Dict, ast.Set, ast.Await, ast.Yield, ast.YieldFrom)):
            ok = False
        if isinstance(node, ast.Name) and (node.id in assigned or not isinstance(node.ctx, ast.Load)):
            ok = False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _MAKES:
            ok = False
        for slot, (child, sure) in enumerate(_children(node)):
            inner = bad or isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp))
            ok = visit(child, path + [(node, slot, sure)], inner) and ok
        if not ok:
            unsafe.add(id(node))
        return ok

    visit(tree.body, [], False)
    data = src.encode()
    groups: dict[bytes, list[ast.expr]] = {}    # by their text: the same text, the same part (one line)
    for node in order:
        if id(node) not in unsafe and id(node) not in callees and not isinstance(node, (*_PLAIN, ast.Starred)):
            groups.setdefault(data[node.col_offset:node.end_col_offset], []).append(node)
    best: tuple[int, ast.expr, list[ast.expr]] | None = None
    for nodes in groups.values():
        if len(nodes) < 2:
            continue
        first = nodes[0]
        later = [n for n in nodes[1:] if _before(paths[id(first)], paths[id(n)])]
        size = sum(1 for _ in ast.walk(first))
        if later and (best is None or size > best[0]):
            best = (size, first, later)
    if best is None:
        return None
    _, first, later = best
    cuts = [(_span(data, first), f"({local} := {_text(data, first)})")]
    cuts += [(_span(data, n), local) for n in later]
    cuts.sort(key=lambda c: c[0][0], reverse=True)
    for (start, end), text in cuts:
        data = data[:start] + text.encode() + data[end:]
    out = data.decode()
    try:
        ast.parse(out, mode="eval")
    except SyntaxError:
        return None
    return out


def _children(node: ast.AST) -> list[tuple[ast.AST, bool]]:
    """The parts of a node in the order they are evaluated, each with whether it is evaluated whenever the
    node is."""
    if isinstance(node, ast.IfExp):
        parts: list[tuple[ast.AST, bool]] = [(node.test, True), (node.body, False), (node.orelse, False)]
        return parts
    if isinstance(node, ast.BoolOp):
        return [(v, i == 0) for i, v in enumerate(node.values)]
    if isinstance(node, ast.Compare):
        return [(node.left, True), *((v, i == 0) for i, v in enumerate(node.comparators))]
    if isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
        return [(c, False) for c in ast.iter_child_nodes(node)]
    return [(c, True) for c in ast.iter_child_nodes(node)
            if not isinstance(c, (ast.expr_context, ast.operator, ast.boolop, ast.cmpop, ast.unaryop))]


def _before(a: list[tuple[ast.AST, int, bool]], b: list[tuple[ast.AST, int, bool]]) -> bool:
    """The node at path `a` is evaluated, before it, wherever the node at path `b` is."""
    k = 0
    while k < len(a) and k < len(b) and a[k][0] is b[k][0] and a[k][1] == b[k][1]:
        k += 1
    if k >= len(a) or k >= len(b) or a[k][0] is not b[k][0]:
        return False        # one inside the other
    parent, slot_a, _ = a[k]
    slot_b = b[k][1]
    if slot_a >= slot_b:
        return False
    if isinstance(parent, ast.IfExp) and slot_a != 0:
        return False        # the two branches of an `if`
    if isinstance(parent, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
        return False
    return all(sure for _, _, sure in a[k + 1:])


def _span(data: bytes, node: ast.expr) -> tuple[int, int]:
    """Where the node's text is in the (one-line) source, in bytes."""
    assert node.lineno == node.end_lineno == 1 and node.end_col_offset is not None
    return node.col_offset, node.end_col_offset


def _text(data: bytes, node: ast.expr) -> str:
    start, end = _span(data, node)
    return data[start:end].decode()
