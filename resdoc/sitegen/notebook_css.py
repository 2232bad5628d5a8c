"""Only the notebook CSS an example page uses.

nbconvert inlines about 600 kB of JupyterLab CSS into every rendered notebook; a page of ours
uses a few per cent of it (cells, prompts, outputs, Pygments colours). ``prune`` keeps a rule
when one of its selectors names only classes and ids the page has, then drops the custom
properties (``--jp-…``) that no kept declaration reaches through ``var()``. Rules that name no
class or id (``pre {…}``) stay: they may match anything. At-rules that hold rules (``@media``,
``@supports``) are pruned inside; other at-rules stay whole.
"""

from __future__ import annotations

import functools
import re

_COMMENT_OR_STRING = re.compile(r"(\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*')|/\*.*?\*/", re.S)
_CLASS_ATTRIBUTE = re.compile(r'\bclass="([^"]*)"')
_ID_ATTRIBUTE = re.compile(r'\bid="([^"]*)"')
# what a selector requires: class and id names outside [attribute] tests and :not()/:is()/…
_IGNORED_IN_SELECTOR = re.compile(r"\[[^\]]*\]|:(?:not|is|where|has)\((?:[^()]|\([^()]*\))*\)")
_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
_ID = re.compile(r"#(-?[_a-zA-Z][\w-]*)")
_VAR = re.compile(r"var\(\s*(--[\w-]+)")
_GROUPS = ("@media", "@supports", "@layer", "@container")


def _split(text: str, separators: str) -> list[str]:
    """``text`` split at top-level separators, outside strings, (…) and {…}."""
    parts, depth, quote, start = [], 0, None, 0
    for i, char in enumerate(text):
        if quote:
            quote = None if char == quote and text[i - 1] != "\\" else quote
        elif char in "\"'":
            quote = char
        elif char in "({":
            depth += 1
        elif char in ")}":
            depth -= 1
            if depth == 0 and char == "}" and "}" in separators:
                parts.append(text[start : i + 1])
                start = i + 1
        elif depth == 0 and char in separators:
            parts.append(text[start : i + 1] if char != "," else text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [part for part in parts if part.strip()]


@functools.lru_cache(maxsize=4)  # every page of a pass carries the same CSS
def _statements(css: str) -> tuple:
    """The CSS as (prelude, body) pairs, a body being a tuple of statements for a group
    at-rule, a declaration string for a rule, or None for a statement without a block."""
    return _parse(_COMMENT_OR_STRING.sub(lambda m: m[1] or "", css))


def _parse(css: str) -> tuple:
    statements = []
    for part in _split(css, ";}"):
        brace = part.find("{")
        if brace == -1:
            statements.append((part.strip().rstrip(";"), None))
            continue
        prelude, body = part[:brace].strip(), part[brace + 1 : part.rindex("}")]
        group = prelude.startswith(_GROUPS)
        statements.append((prelude, _parse(body) if group else body.strip()))
    return tuple(statements)


@functools.cache
def _requirements(prelude: str) -> tuple[tuple[frozenset, frozenset], ...]:
    """The classes and ids each selector of a rule needs."""
    required = [_IGNORED_IN_SELECTOR.sub("", selector) for selector in _split(prelude, ",")]
    return tuple((frozenset(_CLASS.findall(r)), frozenset(_ID.findall(r))) for r in required)


def _matches(prelude: str, classes: set[str], ids: set[str]) -> bool:
    return any(c <= classes and i <= ids for c, i in _requirements(prelude))


def _kept(statements: tuple, classes: set[str], ids: set[str]) -> list:
    kept = []
    for prelude, body in statements:
        if isinstance(body, tuple):
            inner = _kept(body, classes, ids)
            if inner:
                kept.append((prelude, inner))
        elif prelude.startswith("@charset"):
            continue  # valid only at the very start of a file, which a page's CSS is not
        elif body is None or prelude.startswith("@") or _matches(prelude, classes, ids):
            kept.append((prelude, body))
    return kept


def _rules(statements: list):
    for prelude, body in statements:
        if isinstance(body, list):
            yield from _rules(body)
        elif body is not None and not prelude.startswith("@"):
            yield prelude, body


@functools.cache
def _declarations(body: str) -> tuple[tuple[str, str, str], ...]:
    """A rule's declarations as (property, value, text)."""
    texts = [d.strip().rstrip(";") for d in _split(body, ";")]
    return tuple((*(part.strip() for part in t.partition(":")[::2]), t) for t in texts if t)


def _reached_properties(statements: list) -> set[str]:
    """Custom properties some ordinary declaration uses, directly or through others."""
    uses: dict[str, set[str]] = {}
    reached: set[str] = set()
    for _, body in _rules(statements):
        for name, value, _ in _declarations(body):
            if name.startswith("--"):
                uses.setdefault(name, set()).update(_VAR.findall(value))
            else:
                reached.update(_VAR.findall(value))
    todo = list(reached)
    while todo:
        for used in uses.get(todo.pop(), ()):
            if used not in reached:
                reached.add(used)
                todo.append(used)
    return reached


def _text(statements: list, reached: set[str]) -> str:
    out = []
    for prelude, body in statements:
        if body is None:
            out.append(f"{prelude};")
        elif isinstance(body, list):
            inner = _text(body, reached)
            if inner:
                out.append(f"{prelude}{{{inner}}}")
        elif prelude.startswith("@"):
            out.append(f"{prelude}{{{body}}}")
        else:
            declarations = [
                text
                for name, _, text in _declarations(body)
                if not name.startswith("--") or name in reached
            ]
            if declarations:
                out.append(f"{prelude}{{{';'.join(declarations)}}}")
    return "\n".join(out)


def prune(css: str, page_html: str) -> str:
    """The part of ``css`` that can apply to ``page_html``."""
    classes = {name for value in _CLASS_ATTRIBUTE.findall(page_html) for name in value.split()}
    ids = set(_ID_ATTRIBUTE.findall(page_html))
    kept = _kept(_statements(css), classes, ids)
    return _text(kept, _reached_properties(kept)) + "\n"
