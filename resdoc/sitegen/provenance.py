"""Where a measured number on a page comes from, said to a reader.

Each result an example records carries the script line that recorded it
(:func:`resdoc.publish.number`); the example's page anchors each cell ``cell-<N>`` by the line
its source starts at (``cellrun.py``). Here that line becomes a link to its cell, with the
cell's section heading as the plain words for what was measured, and:

- :func:`describe`: a mark's tooltip ("Median of 5 seeds (0–4), computed in “Training error
  against depth” of runnable example 6");
- :func:`section`: the "Where these numbers come from" list a chapter ends with, so a keyboard
  reader reaches every cell without one Tab stop per number (marks are not in the Tab order).
"""

from __future__ import annotations

import functools
import html
import posixpath
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from resdoc.sitegen.script import read_cells
from resdoc.sitegen.tex_text import plain
from resdoc.sitegen.ui_text import PROVENANCE_WORDS as WORDS


@dataclass(frozen=True)
class Cell:
    anchor: str  # "cell-<N>"
    heading: dict[str, str]  # the section it is in, per language


@functools.cache
def _cells(script: Path) -> tuple[tuple[int, str, tuple[tuple[str, str], ...]], ...]:
    """(first line, anchor, headings so far per language) of each code cell of ``script``."""
    headings: dict[str, str] = {}
    found = []
    for cell in read_cells(script):
        if cell.kind == "markdown":
            lang = cell.metadata.get("lang")
            lines = cell.source.splitlines()
            titles = [line.lstrip("#").strip() for line in lines if line.startswith("#")]
            if titles:
                for each in (lang,) if lang else tuple(WORDS):
                    headings[each] = plain(titles[-1])  # a tooltip shows no typeset TeX
        else:
            found.append((cell.first_line, f"cell-{cell.first_line}", tuple(headings.items())))
    return tuple(found)


def cell_of(script: Path, line: int) -> Cell:
    """The code cell of ``script`` that holds ``line``."""
    candidates = [cell for cell in _cells(script) if cell[0] <= line]
    if not candidates:
        raise LookupError(f"{script}: line {line} is in no code cell")
    _, anchor, headings = candidates[-1]
    return Cell(anchor, dict(headings))


def _seeds_shown(seeds: list[int]) -> str:
    consecutive = seeds == list(range(seeds[0], seeds[0] + len(seeds)))
    return f"{seeds[0]}–{seeds[-1]}" if consecutive else ", ".join(map(str, seeds))


def what(key: str, recorded: dict, lang: str) -> str:
    """What a result is, in plain words: a median, a range's end, over which seeds."""
    record = recorded[key]
    words = WORDS[lang]
    seeds = record.get("seeds")
    if not seeds:
        return words["once"]
    form, spread = "over", None
    for suffix, named in (("_spread", "spread"), ("_min", "lowest"), ("_max", "highest")):
        if key.endswith(suffix) and f"{key.removesuffix(suffix)}_spread" in recorded:
            form, spread = named, recorded[f"{key.removesuffix(suffix)}_spread"]
    if spread is None and f"{key}_spread" in recorded:  # the median of a spread
        form, spread = "median", recorded[f"{key}_spread"]
    if spread is not None and spread.get("same"):
        form = "same"
    return words[form].format(n=len(seeds), seeds=_seeds_shown(seeds))


def example_number(example: str) -> str:
    """An example's number as the site says it ("06-degradation" is example 6)."""
    head = example.split("-", 1)[0]
    return str(int(head)) if head.isdigit() else example


def link(example: str, anchor: str, page_url: str, lang_prefix: str) -> str:
    """The URL of ``anchor`` on ``example``'s page, relative to the page at ``page_url``."""
    target = f"{lang_prefix}examples/{example}/"
    here = page_url if page_url.endswith("/") or not page_url else posixpath.dirname(page_url)
    relative = posixpath.relpath(target, here or ".")
    return f"{relative}/#{anchor}"


def describe(ref: str, results: dict, scripts: dict[str, Path], lang: str) -> tuple[str, Cell]:
    """A mark's tooltip for ``<example>/<key>``, and the cell that computed it."""
    example, _, key = ref.partition("/")
    record = results[example][key]
    if "line" not in record:
        raise LookupError(f"{ref}: recorded without the script line (re-run the example)")
    cell = cell_of(scripts[example], record["line"])
    heading = cell.heading.get(lang) or example
    where = WORDS[lang]["where"].format(heading=heading, example=example_number(example))
    separator = "，" if lang == "zh" else ", "
    return f"{what(key, results[example], lang)}{separator}{where}", cell


def section(used: list[tuple[str, Cell]], versions: str, lang: str, href) -> str:
    """The "Where these numbers come from" section: each cell the page's numbers came from
    (``used``: example and cell, in page order), linked with ``href(example, anchor)``."""
    words = WORDS[lang]
    counts: dict[tuple[str, str], int] = {}
    headings: dict[tuple[str, str], str] = {}
    for example, cell in used:
        counts[example, cell.anchor] = counts.get((example, cell.anchor), 0) + 1
        headings[example, cell.anchor] = cell.heading.get(lang) or example
    names = {key: f"{example_number(key[0])} · {heading}" for key, heading in headings.items()}
    repeated = {name for name, times in Counter(names.values()).items() if times > 1}
    seen: dict[str, int] = {}
    items = []
    for (example, anchor), n in counts.items():
        name = names[example, anchor]
        if name in repeated:  # two cells under one heading: say which, not the same link twice
            seen[name] = seen.get(name, 0) + 1
            name += words["nth_cell"].format(i=seen[name])
        label = html.escape(name)
        separator = "：" if lang == "zh" else ": "
        items.append(
            f'<li><a href="{html.escape(href(example, anchor), quote=True)}">{label}</a>'
            f"{separator}{words['count'].format(n=n)}</li>"
        )
    note = html.escape(words["versions"].format(versions=versions)) if versions else ""
    return (
        f'<section class="rd-provenance" aria-labelledby="rd-provenance">'
        f'<h2 id="rd-provenance">{words["heading"]}</h2>'
        f"<p>{html.escape(words['intro'])}</p><ul>{''.join(items)}</ul>"
        f'<p class="rd-provenance-versions">{note}</p></section>'
    )
