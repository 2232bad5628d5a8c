"""Checks and substitutions on page Markdown: result placeholders and snippet includes.

Both raise :class:`PageError` naming the page, so a typo fails the build instead of shipping.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.exceptions import PluginError

PLACEHOLDER = re.compile(r"\{\{\s*(?P<kind>[a-z]+)\s*:\s*(?P<ref>[^\s}]+)\s*\}\}")
SNIPPET = re.compile(r'^\s*(?:;)?--8<--\s+"(?P<path>[^"]+)"\s*$', re.MULTILINE)


class PageError(PluginError):
    pass


def fill_results(markdown: str, page: str, results: dict[str, dict]) -> str:
    """Replace ``{{ result:<example>/<key> }}`` by the text the example recorded.

    ``results`` maps an example's name to its recorded results.
    """

    def substitute(match: re.Match) -> str:
        kind, ref = match["kind"], match["ref"]
        if kind != "result":
            raise PageError(
                f"{page}: unknown placeholder kind {kind!r} in {match[0]!r} (expected 'result')"
            )
        example, _, key = ref.partition("/")
        if example not in results:
            known = ", ".join(sorted(results)) or "none"
            raise PageError(f"{page}: {match[0]!r} names no example (examples: {known})")
        if key not in results[example]:
            known = ", ".join(sorted(results[example])) or "none"
            raise PageError(
                f"{page}: {match[0]!r}: example {example!r} recorded no result {key!r} (it has: {known})"
            )
        return results[example][key]["text"]

    return PLACEHOLDER.sub(substitute, markdown)


def snippet_text(base: Path, target: str) -> str:
    """The code ``--8<-- "file[:section]"`` includes, read from ``base``.

    Raises LookupError, saying why, when the file or the section does not exist.
    """
    file, _, section = target.partition(":")
    path = base / file
    if not path.is_file():
        raise LookupError(f"no file {path}")
    text = path.read_text("utf-8")
    if not section:
        return text
    name = re.escape(section)
    found = re.search(rf"--8<-- \[start:{name}\]\n(.*?)\n[^\n]*--8<-- \[end:{name}\]", text, re.S)
    if not found:
        raise LookupError(f"{file} has no section {section!r}")
    return found[1]


def check_snippets(markdown: str, page: str, base: Path) -> None:
    """Fail on a ``--8<-- "file[:section]"`` include whose file or section does not exist."""
    for match in SNIPPET.finditer(markdown):
        try:
            snippet_text(base, match["path"])
        except LookupError as error:
            raise PageError(f"{page}: snippet {match['path']!r} not found: {error}") from None
