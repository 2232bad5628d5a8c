"""Checks and substitutions on page Markdown: result and claim placeholders.

Each raises :class:`PageError` naming the page, so a typo fails the build instead of shipping.

A filled-in number is wrapped in private-use marker characters in the Markdown, and
:func:`mark_measured` turns them into a link to the cell that computed them once the page
is HTML (in attributes, such as a figure's alt text, the markers are simply dropped).
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Callable

from mkdocs.exceptions import PluginError

from resdoc.publish import shown_text
from resdoc.sitegen.conventions import PLACEHOLDER, PLACEHOLDER_KINDS


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


def _did_you_mean(name: str, known: list[str]) -> str:
    """The known names closest to a mistyped one, as a hint for an error message: at most
    three, none much further from it than the closest (difflib's similarity, 0 to 1).

    >>> _did_you_mean("jacobian_max_eror", ["jacobian_max_error", "jacobian_mean", "loss"])
    "did you mean 'jacobian_max_error'?"
    >>> _did_you_mean("plain_error_d3", ["plain_error_d2", "plain_error_d32", "res_error_d2"])
    "did you mean 'plain_error_d32' or 'plain_error_d2'?"
    >>> _did_you_mean("zzz", ["loss"])
    ''
    """
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    similarity = [difflib.SequenceMatcher(None, name, other).ratio() for other in close]
    close = [
        other for other, ratio in zip(close, similarity, strict=True) if ratio > similarity[0] - 0.1
    ]
    return f"did you mean {' or '.join(map(repr, close))}?" if close else ""


def _lookup(match: re.Match, page: str, results: dict[str, dict]) -> tuple[str, dict]:
    example, _, key = match["ref"].partition("/")
    if example not in results:
        hint = _did_you_mean(example, list(results))
        known = f"examples: {', '.join(sorted(results)) or 'none'}"
        raise PageError(f"{page}: {match[0]!r} names no example ({hint or known})")
    if key not in results[example]:
        kind = match["kind"]
        # the keys of the kind asked for: a claim is not suggested for a result, or back
        same_kind = [k for k, r in results[example].items() if ("claim" in r) == (kind == "claim")]
        hint = _did_you_mean(key, same_kind) or (
            f"none of its {len(same_kind)} {kind}s is close (examples/{example}.py records them)"
            if same_kind
            else f"it recorded no {kind}s at all"
        )
        raise PageError(
            f"{page}: {match[0]!r}: example {example!r} recorded no {kind} {key!r}; {hint}"
        )
    return example, results[example][key]


def open_brackets(text: str) -> int:
    """How many brackets (ASCII or full-width) are open at the end of ``text``'s paragraph.

    >>> open_brackets("a (b"), open_brackets("（对照 [x](y.md)，"), open_brackets("a (b)\\n\\nc")
    (1, 1, 0)
    """
    paragraph = text.rsplit("\n\n", 1)[-1]
    return sum(paragraph.count(o) - paragraph.count(c) for o, c in (("(", ")"), ("（", "）")))


def fill_results(markdown: str, page: str, results: dict[str, dict], lang: str = "en") -> str:
    """Replace ``{{ result:<example>/<key> }}`` by the text the example recorded, and
    ``{{ claim:<example>/<key> }}`` by the checked sentence in ``lang``.

    A result is marked as measured; a setting (``publish.setting``) is plain text. A result
    inside a parenthesis shows its bracket-free form (a spread: "1.06, range 1.04–1.06").
    ``results`` maps an example's name to its recorded results and claims.
    """

    def filled(text: str, before: str) -> str:
        def substitute(match: re.Match) -> str:
            kind = match["kind"]
            if kind not in PLACEHOLDER_KINDS:
                raise PageError(
                    f"{page}: unknown placeholder kind {kind!r} in {match[0]!r} "
                    "(expected 'result' or 'claim')"
                )
            example, record = _lookup(match, page, results)
            context = before + text[: match.start()]
            if kind == "claim":
                if "claim" not in record:
                    raise PageError(f"{page}: {match[0]!r} is a number, not a claim: use 'result:'")
                return filled(record["claim"][lang], context)
            if "claim" in record:
                raise PageError(f"{page}: {match[0]!r} is a claim, not a number: use 'claim:'")
            shown = shown_text(record, lang, inside_brackets=open_brackets(context) > 0)
            if record.get("kind") == "setting":
                return shown
            return f"{OPEN}{match['ref']}{SEP}{shown}{CLOSE}"

        return PLACEHOLDER.sub(substitute, text)

    return filled(markdown, "")


def plain_text(text: str) -> str:
    """``text`` without the measured-number markers (for titles and attributes)."""
    return _MARKED.sub(lambda match: match[2], text)


def measured_refs(page_html: str) -> list[str]:
    """The ``<example>/<key>`` of each marked number in ``page_html``, in page order."""
    return [match[1] for match in _MARKED.finditer(_BROKEN_UP.sub(r"\1", page_html))]


def mark_measured(
    page_html: str,
    describe: Callable[[str], tuple[str, str]],
    expected: int = 0,
    page: str = "",
) -> str:
    """Turn marked numbers into links to the cell that computed them, whose title says in
    words what was measured (the browser's tooltip on hover, a screen reader's description).

    ``describe(ref)`` gives ``(tooltip, href)`` for ``<example>/<key>``. The links are out of
    the Tab order (``tabindex="-1"``): a keyboard reader would otherwise press Tab once per
    number; the page's "where these numbers come from" section links the same cells. In
    tags (attributes such as alt texts) only the number is kept. ``expected`` is the number
    of markers the page's Markdown had: Markdown that split or dropped one fails the build.
    """

    def in_text(match: re.Match) -> str:
        nonlocal found
        found += 1
        tip, href = describe(match[1])
        return (
            f'<a class="rd-measured" href="{html.escape(href, quote=True)}" tabindex="-1" '
            f'title="{html.escape(tip, quote=True)}">{match[2]}</a>'
        )

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
