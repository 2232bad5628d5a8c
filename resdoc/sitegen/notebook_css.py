"""Only the notebook CSS an example page uses.

nbconvert inlines about 600 kB of JupyterLab CSS into every rendered notebook; a page of ours
uses a few per cent of it (cells, prompts, outputs, Pygments colours). ``prune`` keeps a rule
when one of its selectors names only classes and ids the page has, then drops the custom
properties (``--jp-…``) that no kept declaration reaches through ``var()``. Rules that name no
class or id (``pre {…}``) stay: they may match anything. At-rules that hold rules (``@media``,
``@supports``) are pruned inside; other at-rules stay whole. tinycss2 (the WeasyPrint
authors' CSS parser) reads the CSS; what is kept is written back from its tokens, without
comments.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import tinycss2

_CLASS_ATTRIBUTE = re.compile(r'\bclass="([^"]*)"')
_ID_ATTRIBUTE = re.compile(r'\bid="([^"]*)"')
_VAR = re.compile(r"var\(\s*(--[\w-]+)")
_GROUPS = ("media", "supports", "layer", "container")  # at-rules that hold rules
# a selector's requirements are outside [attribute] tests and these pseudo-classes' arguments
_NOT_REQUIRED = ("not", "is", "where", "has")


@dataclass(frozen=True)
class Rule:
    prelude: str
    needs: tuple[tuple[frozenset, frozenset], ...]  # each selector's (classes, ids)
    declarations: tuple[tuple[str, str], ...]  # (property, its text "property: value")


@dataclass(frozen=True)
class Group:  # @media, @supports, ...: the rules inside are pruned
    prelude: str
    statements: tuple


@dataclass(frozen=True)
class Other:  # any other at-rule, kept whole (body None: a statement without a block)
    prelude: str
    body: str | None


def _text(tokens) -> str:
    return tinycss2.serialize(_uncommented(tokens)).strip()


def _uncommented(tokens) -> list:
    return [token for token in tokens if token.type != "comment"]


@functools.lru_cache(maxsize=4)  # every page of a pass carries the same CSS
def _statements(css: str) -> tuple:
    return _parse(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))


def _parse(nodes) -> tuple:
    statements = []
    for node in nodes:
        if node.type == "qualified-rule":
            statements.append(
                Rule(_text(node.prelude), _needs(node.prelude), _declarations(node.content))
            )
        elif node.type == "at-rule":
            prelude = f"@{node.at_keyword} {_text(node.prelude)}".strip()
            if node.content is not None and node.lower_at_keyword in _GROUPS:
                inner = tinycss2.parse_rule_list(
                    node.content, skip_comments=True, skip_whitespace=True
                )
                statements.append(Group(prelude, _parse(inner)))
            else:
                body = None if node.content is None else _text(node.content)
                statements.append(Other(prelude, body))
    return tuple(statements)


def _needs(prelude) -> tuple[tuple[frozenset, frozenset], ...]:
    """The classes and ids each selector of a rule needs."""
    needs, classes, ids, previous = [], set(), set(), None
    for token in [*_uncommented(prelude), None]:
        if token is None or (token.type == "literal" and token.value == ","):
            needs.append((frozenset(classes), frozenset(ids)))
            classes, ids = set(), set()
        elif token.type == "ident" and previous is not None and previous == ".":
            classes.add(token.value)
        elif token.type == "hash" and token.is_identifier:
            ids.add(token.value)
        elif token.type == "function" and token.lower_name not in _NOT_REQUIRED:
            for inner_classes, inner_ids in _needs(token.arguments):
                classes |= inner_classes
                ids |= inner_ids
        previous = token.value if token is not None and token.type == "literal" else None
    return tuple(needs)


def _declarations(content) -> tuple[tuple[str, str], ...]:
    declarations = []
    for item in tinycss2.parse_blocks_contents(content, skip_comments=True, skip_whitespace=True):
        if item.type == "declaration":
            # as written: the value keeps the whitespace after its colon
            value = tinycss2.serialize(_uncommented(item.value)).rstrip()
            important = "!important" if item.important else ""
            declarations.append((item.name, f"{item.name}:{value}{important}"))
    return tuple(declarations)


def _matches(rule: Rule, classes: set[str], ids: set[str]) -> bool:
    return any(c <= classes and i <= ids for c, i in rule.needs)


def _kept(statements: tuple, classes: set[str], ids: set[str]) -> list:
    kept = []
    for statement in statements:
        if isinstance(statement, Group):
            inner = _kept(statement.statements, classes, ids)
            if inner:
                kept.append(Group(statement.prelude, tuple(inner)))
        elif isinstance(statement, Other):
            if not statement.prelude.startswith("@charset"):  # valid only at a file's start
                kept.append(statement)
        elif _matches(statement, classes, ids):
            kept.append(statement)
    return kept


def _rules(statements):
    for statement in statements:
        if isinstance(statement, Group):
            yield from _rules(statement.statements)
        elif isinstance(statement, Rule):
            yield statement


def _reached_properties(statements: list) -> set[str]:
    """Custom properties some ordinary declaration uses, directly or through others."""
    uses: dict[str, set[str]] = {}
    reached: set[str] = set()
    for rule in _rules(statements):
        for name, text in rule.declarations:
            if name.startswith("--"):
                uses.setdefault(name, set()).update(_VAR.findall(text))
            else:
                reached.update(_VAR.findall(text))
    todo = list(reached)
    while todo:
        for used in uses.get(todo.pop(), ()):
            if used not in reached:
                reached.add(used)
                todo.append(used)
    return reached


def _written(statements, reached: set[str]) -> str:
    out = []
    for statement in statements:
        if isinstance(statement, Group):
            inner = _written(statement.statements, reached)
            if inner:
                out.append(f"{statement.prelude}{{{inner}}}")
        elif isinstance(statement, Other):
            body = statement.body
            out.append(
                f"{statement.prelude};" if body is None else f"{statement.prelude}{{{body}}}"
            )
        else:
            declarations = [
                text
                for name, text in statement.declarations
                if not name.startswith("--") or name in reached
            ]
            if declarations:
                out.append(f"{statement.prelude}{{{';'.join(declarations)}}}")
    return "\n".join(out)


def prune(css: str, page_html: str, cache: Path | None = None) -> str:
    """The part of ``css`` that can apply to ``page_html``. With a ``cache`` folder, kept
    there by what it is made from (the CSS, the page's classes and ids, this module and
    tinycss2's version): parsing the 600 kB costs most of a second, on every build."""
    classes = {name for value in _CLASS_ATTRIBUTE.findall(page_html) for name in value.split()}
    ids = set(_ID_ATTRIBUTE.findall(page_html))
    if cache is not None:
        made_of = "\0".join(
            [css, " ".join(sorted(classes)), " ".join(sorted(ids)), _SOURCE, tinycss2.__version__]
        )
        cached = cache / f"{hashlib.sha256(made_of.encode()).hexdigest()}.css"
        if cached.exists():
            return cached.read_text("utf-8")
    kept = _kept(_statements(css), classes, ids)
    pruned = _written(kept, _reached_properties(kept)) + "\n"
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        cached.write_text(pruned, "utf-8")
    return pruned


_SOURCE = Path(__file__).read_text("utf-8")  # a change to the pruning is a new cache key
