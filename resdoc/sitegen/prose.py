"""The words readers see, read from the sources, for the checks of the site's voice.

Three kinds of text, each with the file and line it comes from:

- a page's prose (``docs/**/*.md``): its lines outside code fences, with inline code, formulas,
  placeholders, HTML comments, link targets and heading anchors blanked out (each replaced
  by one space, so columns keep their meaning);
- an example's Markdown cells in each language (``examples/*.py``, ``lang="zh"``/``"en"``);
- the examples' claims (``publish.claim(...)``), read with :mod:`ast` without running them:
  key, line, the sentence in each language (an f-string's ``{…}`` becomes ``N``) and ``every``.

>>> blank("见 `x + y` 与 $a^2$ 及 {{ result:e/k }}（[第 4 章](04-add-norm.md#two-orders)）")
'见   与   及  （[第 4 章]( )）'
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from resdoc.sitegen.script import read_cells

ROOT = Path(__file__).resolve().parents[2]

_FENCE = re.compile(r"^\s*(```|~~~)")
_BLANKED = re.compile(
    r"`[^`\n]+`"  # inline code
    r"|\$\$.*?\$\$|\$[^$\n]+\$"  # formulas
    r"|\{\{[^{}]*\}\}"  # placeholders
    r"|<!--.*?-->"  # comments
    r"|(?<=\]\()[^)\s]+(?=[\s)])"  # link targets (before a title too)
    r"|\{\s*#[^}]*\}"  # heading attributes
    r"|<[^>\n]+>",  # HTML tags
    re.S,
)
_SNIPPET_OR_FORMULA_LINE = re.compile(r"^\s*(--8<--|\$\$)")


@dataclass(frozen=True)
class Line:
    path: str  # relative to the project, e.g. docs/chapters/04-add-norm.zh.md
    number: int  # 1-based
    text: str  # blanked: see blank()
    lang: str


def blank(text: str) -> str:
    """``text`` with code, formulas, placeholders, comments and link targets replaced by a space."""
    return _BLANKED.sub(" ", text)


def _markdown_lines(text: str, path: str, lang: str, first: int = 1) -> Iterator[Line]:
    text = re.sub(r"<!--.*?-->", lambda m: "\n" * m[0].count("\n"), text, flags=re.S)
    text = re.sub(r"\$\$.*?\$\$", lambda m: "\n" * m[0].count("\n"), text, flags=re.S)
    fenced = False
    for number, line in enumerate(text.splitlines(), start=first):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced or _SNIPPET_OR_FORMULA_LINE.match(line):
            continue
        yield Line(path, number, blank(line), lang)


def page_lines(docs: Path = ROOT / "docs") -> Iterator[Line]:
    """Every prose line of every page (``*.zh.md``, ``*.en.md``)."""
    for page in sorted(docs.rglob("*.md")):
        lang = page.suffixes[-2].lstrip(".") if len(page.suffixes) >= 2 else ""
        if lang in ("zh", "en"):
            path = page.relative_to(docs.parent).as_posix()
            yield from _markdown_lines(page.read_text("utf-8"), path, lang)


def example_lines(examples: Path = ROOT / "examples") -> Iterator[Line]:
    """Every prose line of the examples' Markdown cells, in the cell's language."""
    for script in sorted(examples.glob("*.py")):
        path = script.relative_to(examples.parent).as_posix()
        for cell in read_cells(script):
            lang = cell.metadata.get("lang")
            if cell.kind == "markdown" and lang in ("zh", "en"):
                yield from _markdown_lines(cell.source, path, lang, cell.first_line)


@dataclass(frozen=True)
class Claim:
    path: str  # examples/<name>.py
    line: int
    key: str
    sentences: dict[str, str]  # {"zh": ..., "en": ...}
    every: tuple[str, ...]


def _text(node: ast.expr | None) -> str | None:
    """The text of a string literal, an f-string (each ``{…}`` as ``N``) or a sum of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value if isinstance(part, ast.Constant) else "N" for part in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        if left is not None or right is not None:
            return (left or "N") + (right or "N")
    return None


def _calls(script: Path, name: str) -> Iterator[ast.Call]:
    """The calls ``<anything>.<name>(...)`` in a script."""
    for node in ast.walk(ast.parse(script.read_text("utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == name:
            yield node


def claims(examples: Path = ROOT / "examples") -> Iterator[Claim]:
    """Every ``publish.claim(...)`` call of every example, read from its source."""
    for script in sorted(examples.glob("*.py")):
        path = script.relative_to(examples.parent).as_posix()
        for node in _calls(script, "claim"):
            named = {keyword.arg: keyword.value for keyword in node.keywords}
            positional = dict(zip(("key", "holds", "zh", "en"), node.args, strict=False))
            arguments = {**positional, **named}
            every = ast.literal_eval(arguments["every"]) if "every" in arguments else ()
            yield Claim(
                path,
                node.lineno,
                _text(arguments.get("key")) or "?",
                {lang: _text(arguments.get(lang)) or "" for lang in ("zh", "en")},
                (every,) if isinstance(every, str) else tuple(every),
            )


def figure_alts(examples: Path = ROOT / "examples") -> Iterator[Claim]:
    """Every ``publish.figure(..., alt=(zh, en))`` whose description is written in the call
    (one taken from a claim is read with the claim), as a :class:`Claim` without ``every``."""
    for script in sorted(examples.glob("*.py")):
        path = script.relative_to(examples.parent).as_posix()
        for node in _calls(script, "figure"):
            alt = next((k.value for k in node.keywords if k.arg == "alt"), None)
            if isinstance(alt, ast.Tuple) and len(alt.elts) == 2:
                sentences = {lang: _text(e) for lang, e in zip(("zh", "en"), alt.elts, strict=True)}
                if all(sentences.values()):
                    yield Claim(path, node.lineno, _text(node.args[0]) or "?", sentences, ())
