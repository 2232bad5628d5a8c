"""Checks and substitutions on page Markdown: result and claim placeholders, snippet includes.

Each raises :class:`PageError` naming the page, so a typo fails the build instead of shipping.

A filled-in number is wrapped in private-use marker characters in the Markdown, and
:func:`mark_measured` turns them into a focusable element with its provenance once the page
is HTML (in attributes, such as a figure's alt text, the markers are simply dropped).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path

from mkdocs.exceptions import PluginError

from resdoc.publish import shown_text
from resdoc.sitegen.conventions import PLACEHOLDER, PLACEHOLDER_KINDS, SNIPPET, snippet_section


class PageError(PluginError):
    pass


# A measured number in Markdown: OPEN <example>/<key> SEP <text> CLOSE (private-use characters)
OPEN, SEP, CLOSE = "\ue000", "\ue001", "\ue002"
MEASURED = OPEN  # one per measured number: count it to know how many a page has
_MARKED = re.compile(f"{OPEN}([^{SEP}]*){SEP}([^{CLOSE}]*){CLOSE}")
# A marked text that Markdown broke up with tags (the lines of a highlighted code block, each
# given its own anchor): its markers are dropped, and the text shown without a tooltip.
_BROKEN_UP = re.compile(f"{OPEN}[^{SEP}<>]*{SEP}([^{CLOSE}]*<[^{CLOSE}]*){CLOSE}")
_TAG = re.compile(r"(<[^>]*>)")


def _lookup(match: re.Match, page: str, results: dict[str, dict]) -> tuple[str, dict]:
    example, _, key = match["ref"].partition("/")
    if example not in results:
        known = ", ".join(sorted(results)) or "none"
        raise PageError(f"{page}: {match[0]!r} names no example (examples: {known})")
    if key not in results[example]:
        known = ", ".join(sorted(results[example])) or "none"
        raise PageError(
            f"{page}: {match[0]!r}: example {example!r} recorded no {match['kind']} {key!r} (it has: {known})"
        )
    return example, results[example][key]


def fill_results(markdown: str, page: str, results: dict[str, dict], lang: str = "en") -> str:
    """Replace ``{{ result:<example>/<key> }}`` by the text the example recorded (marked as
    measured), and ``{{ claim:<example>/<key> }}`` by the checked sentence in ``lang``.

    ``results`` maps an example's name to its recorded results and claims.
    """

    def substitute(match: re.Match) -> str:
        kind = match["kind"]
        if kind not in PLACEHOLDER_KINDS:
            raise PageError(
                f"{page}: unknown placeholder kind {kind!r} in {match[0]!r} (expected 'result' or 'claim')"
            )
        example, record = _lookup(match, page, results)
        if kind == "claim":
            if "claim" not in record:
                raise PageError(f"{page}: {match[0]!r} is a number, not a claim: use 'result:'")
            return PLACEHOLDER.sub(substitute, record["claim"][lang])
        if "claim" in record:
            raise PageError(f"{page}: {match[0]!r} is a claim, not a number: use 'claim:'")
        return f"{OPEN}{match['ref']}{SEP}{shown_text(record, lang)}{CLOSE}"

    return PLACEHOLDER.sub(substitute, markdown)


def plain_text(text: str) -> str:
    """``text`` without the measured-number markers (for titles and attributes)."""
    return _MARKED.sub(lambda match: match[2], text)


def mark_measured(
    page_html: str, describe: Callable[[str], str], expected: int = 0, page: str = ""
) -> str:
    """Turn marked numbers into focusable spans whose title says where they come from
    (Material's tooltips show it on hover and keyboard focus; without JavaScript, the browser's).

    ``describe(ref)`` gives the provenance of ``<example>/<key>`` in the page's language. In
    tags (attributes such as alt texts) only the number is kept. ``expected`` is the number
    of markers the page's Markdown had: Markdown that split or dropped one fails the build.
    """

    def in_text(match: re.Match) -> str:
        nonlocal found
        found += 1
        tip = html.escape(describe(match[1]), quote=True)
        return f'<span class="rd-measured" tabindex="0" title="{tip}">{match[2]}</span>'

    page_html, found = _BROKEN_UP.subn(r"\1", page_html)
    parts = _TAG.split(page_html)
    for index, part in enumerate(parts):
        if index % 2:
            found += len(_MARKED.findall(part))
            parts[index] = plain_text(part)
        else:
            parts[index] = _MARKED.sub(in_text, part)
    marked = "".join(parts)
    if found != expected or any(mark in marked for mark in (OPEN, SEP, CLOSE)):
        raise PageError(
            f"{page}: {expected} measured number(s) in the Markdown, {found} found intact in "
            "its HTML: Markdown split or dropped a marker (resdoc/sitegen/pages.py). Is a "
            "placeholder inside a link, code or markup that rewrites its text?"
        )
    return marked


MEASURED_BY = {
    "zh": ("构建时由 {script} 测得", "{n} 个随机种子（{seeds}）"),
    "en": ("Measured at build time by {script}", "{n} seeds ({seeds})"),
}


def describe_measured(ref: str, results: dict, provenance: dict, lang: str) -> str:
    """Where a number on the page comes from: its example, seeds and versions.

    ``provenance`` maps an example to its script and the versions of its run.
    """
    example, _, key = ref.partition("/")
    script, versions = provenance[example]
    seeds = results[example][key].get("seeds")
    measured_by, seeds_text = MEASURED_BY[lang]
    parts = [measured_by.format(script=script)]
    if seeds:
        consecutive = seeds == list(range(seeds[0], seeds[0] + len(seeds)))
        shown = f"{seeds[0]}–{seeds[-1]}" if consecutive else ", ".join(map(str, seeds))
        parts.append(seeds_text.format(n=len(seeds), seeds=shown))
    parts += [f"{name} {version}" for name, version in versions.items() if name != "cpu"]
    if "cpu" in versions:
        parts.append(f"CPU {versions['cpu']}")
    return " · ".join(parts)


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
    found = snippet_section(section).search(text)
    if not found:
        raise LookupError(f"{file} has no section {section!r}")
    return found[1]


def check_snippets(markdown: str, page: str, base: Path) -> None:
    """Fail on a ``--8<-- "file[:section]"`` include whose file or section does not exist."""
    for match in SNIPPET.finditer(markdown):
        try:
            snippet_text(base, match["target"])
        except LookupError as error:
            raise PageError(f"{page}: snippet {match['target']!r} not found: {error}") from None
