"""Tell a code cell's lesson from what it hands to the site, so the page can fold the latter.

An example's cells mix the lesson (compute, print, draw) with the site's bookkeeping:
``publish.number``, ``setting``, ``spread``, ``text`` and ``claim`` record numbers and
checked sentences for the chapter's prose. The example page folds each run of bookkeeping
statements into a collapsed block where it stands (``example_pages.py``), so the code reads
as the lesson and, unfolded, runs in the same order. Found from the code itself: examples
are written as usual.

A statement is bookkeeping when all it does is record: such a call, a list, tuple, dict or
comprehension of them, assigned or not, or a ``for`` loop of nothing else. A statement that
also prints, draws or computes is the lesson's (``publish.figure`` draws the figure the page
shows), and the bookkeeping inside its blocks (a loop that prints and records) folds too.
Comment lines right above a bookkeeping statement go with it.

>>> cell = '''errors = measure()
... # the largest error, for the prose
... publish.number("max_error", max(errors), "{:.1e}")
... ok = publish.claim("small", max(errors) < 1e-5, zh="…", en="…")
...
... print(errors)'''
>>> [(p.kind, p.lines, p.defines) for p in parts(cell)]
[('lesson', (0, 1), ()), ('bookkeeping', (1, 4), ('ok',)), ('lesson', (5, 6), ())]
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

RECORDS = frozenset({"number", "setting", "spread", "text", "claim"})  # for the prose


@dataclass(frozen=True)
class Part:
    kind: str  # "lesson" or "bookkeeping"
    lines: tuple[int, int]  # [first, end) as indexes into the cell's source lines
    numbers: bool = False  # records numbers (publish.number, spread, text)
    claims: bool = False  # records claims
    defines: tuple[str, ...] = ()  # names it assigns that the code after it may use


def _is_record(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in RECORDS
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "publish"
    )


def _only_records(node: ast.AST | None) -> bool:
    """``node`` computes nothing but publish records (whose arguments may compute anything)."""
    if node is None:
        return False
    if _is_record(node):
        return True
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return bool(node.elts) and all(_only_records(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return bool(node.values) and all(_only_records(v) for v in node.values)
    if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp):
        return _only_records(node.elt)
    if isinstance(node, ast.DictComp):
        return _only_records(node.value)
    return False


def is_bookkeeping(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Expr | ast.Assign | ast.AnnAssign):
        return _only_records(statement.value)
    if isinstance(statement, ast.For) and not statement.orelse:
        return all(is_bookkeeping(inner) for inner in statement.body)
    return False


def _names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [name for element in target.elts for name in _names(element)]
    return []  # `stats[key] = …` fills an existing dict: it defines nothing new


def _defines(statement: ast.stmt) -> list[str]:
    targets = statement.targets if isinstance(statement, ast.Assign) else []
    if isinstance(statement, ast.AnnAssign):
        targets = [statement.target]
    return [name for target in targets for name in _names(target)]


def _records(statement: ast.stmt) -> tuple[bool, bool]:
    """(records numbers, records claims)."""
    kinds = {n.func.attr for n in ast.walk(statement) if _is_record(n)}
    return bool(kinds - {"claim"}), "claim" in kinds


def parts(source: str) -> list[Part]:
    """The cell's source as lesson and bookkeeping parts, in order, covering every line that
    is not blank at a part's edge. A cell without bookkeeping is one lesson part."""
    lines = source.split("\n")
    try:
        statements = ast.parse(source).body
    except SyntaxError:
        statements = []
    found, position = [], 0
    for first, end, numbers, claims, defines in _folds(statements, lines):
        found += _lesson(lines, position, first)
        names = tuple(dict.fromkeys(defines))
        found.append(Part("bookkeeping", (first, end), numbers, claims, names))
        position = end
    return found + _lesson(lines, position, len(lines))


def _folds(statements: list[ast.stmt], lines: list[str]) -> list[list]:
    """[first, end, numbers, claims, defines] of each run of bookkeeping statements among
    ``statements`` and inside the blocks of the others (a loop that prints may record too)."""
    folds: list[list] = []
    for statement in statements:
        if not is_bookkeeping(statement):
            for block in ("body", "orelse", "finalbody"):
                inner = getattr(statement, block, None)
                if isinstance(inner, list) and not isinstance(statement, ast.FunctionDef):
                    folds += _folds(inner, lines)
            continue
        first, end = statement.lineno - 1, statement.end_lineno
        while first > 0 and lines[first - 1].strip().startswith("#"):
            first -= 1  # its comment
        numbers, claims = _records(statement)
        between = lines[folds[-1][1] : first] if folds else None
        if folds and all(not line.strip() or line.strip().startswith("#") for line in between):
            fold = folds[-1]  # only comments or blank lines part them: one fold
            fold[1:4] = [end, fold[2] or numbers, fold[3] or claims]
            fold[4] += _defines(statement)
        else:
            folds.append([first, end, numbers, claims, _defines(statement)])
    return folds


def _lesson(lines: list[str], first: int, end: int) -> list[Part]:
    while first < end and not lines[first].strip():
        first += 1
    while end > first and not lines[end - 1].strip():
        end -= 1
    return [Part("lesson", (first, end))] if first < end else []
