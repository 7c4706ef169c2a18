"""Statement-level clean-ups of generated functions, on Python's ``ast``.

The packed successor compiler (``model/search/packed.py``) emits one statement per
step of a rule's evaluation; these passes then tidy a function's body before
it is compiled: a value-picking branch becomes an expression, a local read
once folds into its reader, a dead one goes, and each state field is read from
the key where first needed.  They work on the parsed body (``parse_body``) and
give it back as source lines (``render``), so no pass reads or rewrites source
text: a pass sees statements and names, never characters.  A comment line goes
with the statement below it (``comments``), and a pass that merges, moves or
drops a statement hands its comments on (``_carry``): the comments never change
what a pass does.

Every pass is exact because the generated expressions are pure and total
(no call with an effect, no exception): moving, duplicating the evaluation
of, or dropping an expression changes nothing but the time it takes.
"""
from __future__ import annotations

import ast
import bisect
import textwrap
from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

#: the statement fields that hold nested blocks (not the statement's own expressions)
_BLOCKS = ("body", "orelse", "finalbody", "handlers")


def parse_body(lines: list[str]) -> list[ast.stmt]:
    """The statements of a function body given as indented source lines; a
    comment line goes with the statement after it (``comments``)."""
    text = textwrap.dedent("\n".join(lines))
    stmts = ast.parse(text).body
    notes = {i: line.strip()[1:].strip() for i, line in enumerate(text.split("\n"), 1)
             if line.lstrip().startswith("#")}
    if notes:
        starts: dict[int, ast.stmt] = {}
        for stmt in _statements(stmts):
            starts.setdefault(stmt.lineno, stmt)  # the outermost one of its line
        lines_at = sorted(starts)
        for i, note in notes.items():
            at = bisect.bisect_right(lines_at, i)
            if at < len(lines_at):
                comments(starts[lines_at[at]]).append(note)
    return stmts


def render(stmts: list[ast.stmt], indent: str) -> list[str]:
    """``stmts`` as source lines, indented by ``indent``, each statement's
    comments on lines of their own above it."""
    if not stmts:
        return []
    texts: list[str] = []
    blocks = _mark_comments(stmts, texts)
    text = ast.unparse(ast.Module(body=stmts, type_ignores=[]))
    for block, original in blocks:  # the statements as they were
        block[:] = original
    out = []
    for line in text.splitlines():
        body = line.lstrip()
        if body.startswith(_MARK) and body.endswith("__"):
            out.append(indent + line[:len(line) - len(body)] + "# "
                       + texts[int(body[len(_MARK):-2])])
        else:
            out.append(indent + line)
    return out


def parse_expr(code: str) -> ast.expr:
    return ast.parse(code, mode="eval").body


# -- comments, carried by the statements they stand above --------------------------

#: a statement standing for comment number N while a body is unparsed: ``__itcp_comment_N__``
_MARK = "__itcp_comment_"


def comments(stmt: ast.stmt) -> list[str]:
    """The comments above ``stmt`` (a list it keeps: append to it)."""
    got = stmt.__dict__.get("itcp_comments")
    if got is None:
        got = stmt.__dict__["itcp_comments"] = []
    return got


_S = TypeVar("_S", bound=ast.stmt)


def _carry(into: _S, *sources: ast.stmt) -> _S:
    """``into``, replacing ``sources`` (or standing where they stood), with
    their comments above its own; given back."""
    kept = [c for s in sources for c in s.__dict__.get("itcp_comments", ())]
    if kept:
        mine = comments(into)
        mine[:0] = [c for i, c in enumerate(kept) if c not in mine and c not in kept[:i]]
    return into


def _statements(stmts: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of ``stmts`` and of their blocks, each before its blocks'."""
    for s in stmts:
        yield s
        for block in _blocks(s):
            if isinstance(block[0], ast.stmt):
                yield from _statements(block)


def _mark_comments(stmts: list[ast.stmt], texts: list[str]) -> list[tuple[list, list]]:
    """Put a marker statement above each commented statement, for ``render``;
    (each block changed, its statements before).  A comment above the ``if``
    of an ``elif`` goes into its body, so the ``elif`` stays one."""
    changed: list[tuple[list, list]] = []

    def visit(block: list, is_orelse: bool) -> None:
        marked: list = []
        for s in block:
            notes = s.__dict__.get("itcp_comments")
            if notes and is_orelse and len(block) == 1 and isinstance(s, ast.If):
                _carry(s.body[0], s)
                notes = None
            for note in notes or ():
                texts.append(note)
                marked.append(ast.Expr(value=ast.Name(id=f"{_MARK}{len(texts) - 1}__",
                                                      ctx=ast.Load())))
            marked.append(s)
            for field in _BLOCKS:
                inner = getattr(s, field, None)
                if inner and isinstance(inner[0], ast.stmt):
                    visit(inner, field == "orelse")
        if len(marked) != len(block):
            changed.append((block, list(block)))
            block[:] = marked

    visit(stmts, False)
    return changed


# -- helpers on statements -------------------------------------------------------

def _blocks(stmt: ast.stmt) -> Iterator[list]:
    for field in _BLOCKS:
        block = getattr(stmt, field, None)
        if block:
            yield block


def _nodes(roots: list) -> list[ast.AST]:
    """Every node under ``roots`` (a plain stack walk, in no particular order:
    faster than ``ast.walk``, and these passes run per generated function)."""
    out: list[ast.AST] = []
    stack = list(roots)
    while stack:
        node = stack.pop()
        out.append(node)
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                stack.extend(x for x in value if isinstance(x, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)
    return out


def _own_nodes(stmt: ast.stmt) -> list[ast.AST]:
    """The nodes of ``stmt``'s own expressions (its header), not of its blocks."""
    roots: list = []
    for field in stmt._fields:
        if field in _BLOCKS:
            continue
        value = getattr(stmt, field, None)
        if isinstance(value, list):
            roots.extend(x for x in value if isinstance(x, ast.AST))
        elif isinstance(value, ast.AST):
            roots.append(value)
    return _nodes(roots)


def _names_in(nodes: list[ast.AST], name: str) -> int:
    return sum(1 for x in nodes if isinstance(x, ast.Name) and x.id == name)


def _assigned(stmt: ast.stmt) -> tuple[str, ast.expr] | None:
    """(name, value) of ``name = value``, else None."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id, stmt.value
    return None


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=value, lineno=0)


class _Substitute(ast.NodeTransformer):
    """Each load of a name in ``values`` replaced by its expression (not a copy:
    every caller substitutes a name that occurs once)."""

    def __init__(self, values: Mapping[str, ast.expr]):
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        value = self.values.get(node.id)
        if value is None or not isinstance(node.ctx, ast.Load):
            return node
        return value


def _substitute_own(stmt: ast.stmt, values: Mapping[str, ast.expr]) -> None:
    """Substitute ``values`` in ``stmt``'s own expressions (not in its blocks)."""
    sub = _Substitute(values)
    for field, value in ast.iter_fields(stmt):
        if field in _BLOCKS:
            continue
        if isinstance(value, ast.expr):
            setattr(stmt, field, sub.visit(value))
        elif isinstance(value, list):
            setattr(stmt, field, [sub.visit(x) if isinstance(x, ast.expr) else x for x in value])


# -- folding branches and locals (to a fixpoint) ------------------------------------

def peephole(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """Short-circuit chains and two-way branches that only pick a value become
    expressions, then locals used once fold into their reader, to a fixpoint."""
    count = _count_names(stmts)  # kept up to date by both passes: counted once
    while True:
        changes = [0]
        stmts = _inline_block(fold_branches(stmts, changes, count), count, changes)
        if not changes[0]:
            return stmts


def _count_names(stmts: list[ast.stmt]) -> dict[str, int]:
    """How many times each name occurs in ``stmts``."""
    count: dict[str, int] = {}
    for node in _nodes(stmts):
        if type(node) is ast.Name:
            count[node.id] = count.get(node.id, 0) + 1
    return count


def _uncount(nodes: list[ast.AST], count: dict[str, int]) -> None:
    """Names of ``nodes`` that left the function: ``count`` follows."""
    for node in nodes:
        if type(node) is ast.Name:
            count[node.id] -= 1


def fold_branches(stmts: list[ast.stmt], changes: list[int],
                  count: dict[str, int]) -> list[ast.stmt]:
    """``x = a`` / ``if not x:`` / ``    x = b``  ->  ``x = a or b`` (and ``and``
    for ``if x:``); ``if c:`` / ``    y = p`` / ``else:`` / ``    y = q``  ->
    ``y = p if c else q``.  Exact: Python's ``and``/``or`` yield the operand the
    statements would have stored, and every operand is pure.  One pass, outer
    statements before the blocks they hold; ``changes[0]`` counts the folds
    (and ``count``, the names' occurrences, loses the names folded away)."""
    out: list[ast.stmt] = []
    i = 0
    while i < len(stmts):
        s = stmts[i]
        a = _assigned(s)
        if a is not None and i + 1 < len(stmts):
            x, first = a
            nxt = stmts[i + 1]
            if isinstance(nxt, ast.If) and not nxt.orelse and len(nxt.body) == 1:
                test, then = nxt.test, _assigned(nxt.body[0])
                negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
                tested = test.operand if isinstance(test, ast.UnaryOp) and negated else test
                if isinstance(tested, ast.Name) and tested.id == x and then is not None \
                        and then[0] == x:
                    op: ast.boolop = ast.Or() if negated else ast.And()
                    out.append(_carry(_assign(x, ast.BoolOp(op=op, values=[first, then[1]])),
                                      s, nxt, nxt.body[0]))
                    count[x] -= 2  # the test's read and the second store
                    changes[0] += 1
                    i += 2
                    continue
        if isinstance(s, ast.If) and len(s.body) == 1 and len(s.orelse) == 1:
            p, q = _assigned(s.body[0]), _assigned(s.orelse[0])
            if p is not None and q is not None and p[0] == q[0]:
                out.append(_carry(_assign(p[0], ast.IfExp(test=s.test, body=p[1], orelse=q[1])),
                                  s, s.body[0], s.orelse[0]))
                count[p[0]] -= 1  # one store of the two
                changes[0] += 1
                i += 1
                continue
        for field in _BLOCKS:
            block = getattr(s, field, None)
            if block and isinstance(block[0], ast.stmt):
                setattr(s, field, fold_branches(block, changes, count))
        out.append(s)
        i += 1
    return out


def _inline_block(stmts: list[ast.stmt], count: dict[str, int],
                  changes: list[int]) -> list[ast.stmt]:
    """A local assigned and never read goes; one assigned once and read once,
    in the very next statement of its block (not a loop, which would evaluate
    it again), folds into that statement's own expressions: fewer stores and
    loads per transition.  ``changes[0]`` counts the statements gone; ``count``
    (each name's occurrences in the function) follows what goes."""
    out: list[ast.stmt] = []
    gone: list[ast.stmt] = []  # dropped statements whose comments go to the next one
    for s in stmts:
        a = _assigned(s)
        if a is not None and count.get(a[0]) == 1 and a[0] != "_":
            changes[0] += 1
            _uncount(_nodes([s]), count)  # its value's names are read once fewer
            gone.append(s)
            continue  # assigned, never read: the expression is pure
        out.append(_carry(s, *gone) if gone else s)
        gone = []
        while len(out) >= 2:
            prev = _assigned(out[-2])
            if prev is None or count.get(prev[0]) != 2:
                break
            name, value = prev
            use = out[-1]
            if isinstance(use, (ast.While, ast.For)) or not _names_in(_own_nodes(use), name):
                break
            _substitute_own(use, {name: value})
            _carry(use, out[-2])
            del out[-2]
            count[name] = 0
            changes[0] += 1
        for field in _BLOCKS:
            block = getattr(s, field, None)
            if block and isinstance(block[0], ast.stmt):
                setattr(s, field, _inline_block(block, count, changes))
    return out


# -- reading the state's fields ---------------------------------------------------------

def _uses(stmts: list[ast.stmt], wanted: Callable[[str], bool],
          in_loop: bool = False) -> Iterator[tuple[str, bool]]:
    """(name, inside a loop's body) for each read of a name ``wanted`` accepts."""
    for s in stmts:
        for node in _own_nodes(s):
            if isinstance(node, ast.Name) and wanted(node.id):
                yield node.id, in_loop
        loop = in_loop or isinstance(s, (ast.While, ast.For))
        for block in _blocks(s):
            if isinstance(block[0], ast.stmt):
                yield from _uses(block, wanted, loop)


def _names_of(stmt: ast.stmt, cache: dict[int, tuple[ast.stmt, set[str]]]) -> set[str]:
    """The names ``stmt`` mentions, its blocks included (cached per statement)."""
    hit = cache.get(id(stmt))
    if hit is not None and hit[0] is stmt:
        return hit[1]
    names = {x.id for x in _own_nodes(stmt) if isinstance(x, ast.Name)}
    for block in _blocks(stmt):
        for s in block:
            if isinstance(s, ast.stmt):
                names |= _names_of(s, cache)
    cache[id(stmt)] = (stmt, names)
    return names


def _insert_at_first_need(stmts: list[ast.stmt], name: str, read: ast.stmt,
                          cache: dict[int, tuple[ast.stmt, set[str]]]) -> None:
    """Insert ``read`` before the first statement of ``stmts`` that needs
    ``name``, or inside it when it is the only one and an ``if`` without
    ``else`` whose condition does not read it."""
    using = [j for j, s in enumerate(stmts) if name in _names_of(s, cache)]
    j = using[0]
    s = stmts[j]
    if len(using) == 1 and isinstance(s, ast.If) and not s.orelse \
            and not _names_in(_own_nodes(s), name):
        _insert_at_first_need(s.body, name, read, cache)
        return
    stmts.insert(j, _carry(read, s))  # the fragment's comments above its first read
    s.__dict__.pop("itcp_comments", None)


def _field_reads(reads: Mapping[str, str]) -> tuple[dict[str, str], Callable[[str], bool]]:
    local = {f"v_{name}": code for name, code in reads.items()}
    return local, local.__contains__


def place_reads(stmts: list[ast.stmt], reads: Mapping[str, str]) -> list[ast.stmt]:
    """``stmts`` with each state field it reads (local ``v_<name>``, read by
    the key expression ``reads[name]``) extracted from the key where first
    needed: a field read once outside any loop, in place; otherwise just
    before the first statement that needs it, as deep in the ``if`` blocks as
    every use allows (never inside a loop), so a move that is not legal does
    not pay for the fields only it reads."""
    local, wanted = _field_reads(reads)
    uses: dict[str, list[bool]] = {}
    for name, in_loop in _uses(stmts, wanted):
        uses.setdefault(name, []).append(in_loop)
    once = {name for name, loops in uses.items() if len(loops) == 1 and not loops[0]}
    out = _substituted(stmts, {name: parse_expr(local[name]) for name in once})
    cache: dict[int, tuple[ast.stmt, set[str]]] = {}  # a read inserted names only ``k``
    for name in [n for n in local if n in uses and n not in once][::-1]:
        _insert_at_first_need(out, name, _assign(name, parse_expr(local[name])), cache)
    return out


def prelude(stmts: list[ast.stmt], reads: Mapping[str, str]) -> list[ast.stmt]:
    """``stmts`` with the state fields it reads extracted at its top, in key
    order; a field read at one place only is read from the key there instead,
    so a rarely taken branch costs nothing when it is not taken."""
    local, wanted = _field_reads(reads)
    uses: dict[str, int] = {}
    for name, _ in _uses(stmts, wanted):
        uses[name] = uses.get(name, 0) + 1
    once = {name for name, n in uses.items() if n == 1}
    body = _substituted(stmts, {name: parse_expr(local[name]) for name in once})
    head: list[ast.stmt] = [_assign(name, parse_expr(code)) for name, code in local.items()
                            if name in uses and name not in once]
    return head + body


def _substituted(stmts: list[ast.stmt], values: Mapping[str, ast.expr]) -> list[ast.stmt]:
    if not values:
        return stmts
    module = _Substitute(values).visit(ast.Module(body=stmts, type_ignores=[]))
    return module.body
