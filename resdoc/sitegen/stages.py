"""The site's machinery as stages any generator can call, MkDocs being one of them.

A build goes through four stages, one language at a time:

1. :meth:`LanguagePass.start`: every example brought up to date (cached; ``examples.py``),
   with its results and provenance, for one language;
2. :func:`markdown`: a page's Markdown filled in: citations linked, listings expanded,
   figures and formulas numbered, ``{{ result:… }}`` filled, the chapter's label, the notice
   of a translation that is behind;
3. :func:`content`: the HTML of a page's body: figures in their variants with numbers and
   captions, measured numbers linked to the cell that computed them, the "where these numbers
   come from" section;
4. :func:`finished_page`: the whole HTML page: no stray gaps in Chinese text, formulas typeset.

``hooks.py`` calls them from MkDocs' (or ProperDocs') events; ``python -m
resdoc.sitegen.other_generator`` runs 1-2 into a folder before another generator (Zensical) and
3-4 over what it wrote. What only MkDocs and Material need (the search index split, the
example pages from mkdocs-jupyter, the patches to Material's markup) stays in ``hooks.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from resdoc.sitegen import apparatus, chapters, citations, cjk, figures, listings, math, provenance
from resdoc.sitegen.examples import Example, ExampleRunner
from resdoc.sitegen.pages import MEASURED, PageError, fill_results, mark_measured, measured_refs
from resdoc.sitegen.translations import lagging_pages
from resdoc.sitegen.ui_text import BEHIND_NOTICE

CJK_LANGUAGES = ("zh",)  # written without spaces between words: line breaks must not show


@dataclass
class LanguagePass:
    """One language's pass over the site: its examples' results, its language and folders."""

    root: Path
    cache: Path
    lang: str  # the language being built
    prefixes: dict[str, str]  # language -> its folder in the site ("" for the default one)
    examples: list[Example]
    results: dict[str, dict] = field(default_factory=dict)
    provenance: dict[str, tuple[str, dict]] = field(default_factory=dict)
    lagging: dict[str, str] = field(default_factory=dict)  # page -> language that is behind
    measured: dict[str, int] = field(default_factory=dict)  # page -> measured numbers in it
    bibliography: citations.Bibliography | None = None  # read once the pass has its files
    numbered: dict[str, apparatus.Apparatus] = field(default_factory=dict)  # page -> figures, eqs
    markdown_cells: dict[str, int] = field(default_factory=dict)  # example page -> its notebook's

    @classmethod
    def start(
        cls, root: Path, cache: Path, lang: str, prefixes: dict[str, str], report=print
    ) -> LanguagePass:
        runner = ExampleRunner(root, cache / "examples", report=report)
        examples, _ = runner.run_all()
        return cls(
            root=root,
            cache=cache,
            lang=lang,
            prefixes=prefixes,
            examples=examples,
            results={e.name: e.results() for e in examples},
            provenance={e.name: (e.script.as_posix(), e.provenance()) for e in examples},
        )

    def read_pages(self, docs: Path) -> None:
        """What the pass reads of all pages at once: the translations that are behind, and
        the bibliography with every page's citations (fails on a citation of no entry)."""
        self.lagging = lagging_pages(docs)
        self.bibliography = citations.Bibliography.read(docs, self.lang)


def markdown(state: LanguagePass, text: str, page: str, repo_url: str | None) -> str:
    """Stage 2: the Markdown of ``page`` (its path in docs/, e.g. ``chapters/04-add-norm.zh.md``)
    filled in; a bad placeholder, listing or reference fails naming the page."""
    if state.bibliography is not None:
        text = state.bibliography.linked(text, page)
    try:
        text = listings.expand(
            text,
            state.root,
            functools.partial(
                listings.source_note,
                lang=state.lang,
                example=_example_link(page, state.root),
                repo_url=repo_url,
            ),
        )
    except LookupError as error:
        raise PageError(f"{page}: {error}") from None
    number = chapters.number_of(page)
    text, state.numbered[page] = apparatus.number_page(text, page, number, state.lang)
    text = fill_results(text, page, state.results, state.lang)
    state.measured[page] = text.count(MEASURED)
    if number is not None:
        text = chapters.label_heading(text, number, state.lang)
    name = page.removesuffix(".md").removesuffix(f".{state.lang}")
    if page.endswith(".md") and state.lagging.get(name) == state.lang:
        title, _, body = text.partition("\n")  # the notice goes under the page title
        text = f"{title}\n\n{BEHIND_NOTICE[state.lang]}{body}"
    return text


def _example_link(page: str, root: Path) -> str | None:
    """The link from a chapter to its runnable example's page, if it has one."""
    stem = Path(page).name.split(".")[0]
    if not page.startswith("chapters/") or not (root / "examples" / f"{stem}.py").is_file():
        return None
    return f"../examples/{stem}.ipynb"


def content(
    state: LanguagePass,
    html: str,
    page: str,
    page_url: str,
    figure_info: Callable[[str], Path | None],
) -> str:
    """Stage 3: the HTML of ``page``'s body (``page_url`` is its address in its language's
    site, e.g. ``chapters/04-add-norm/``). ``figure_info("figures/<example>/<name>.svg")`` is
    the figure's ``<name>.json`` (``figures.present_figures``)."""
    scripts = {name: state.root / script for name, (script, _) in state.provenance.items()}
    lang_prefix = state.prefixes.get(state.lang, "")

    def href(example: str, anchor: str) -> str:
        return provenance.link(example, anchor, page_url, lang_prefix)

    def describe(ref: str) -> tuple[str, str]:
        tip, cell = provenance.describe(ref, state.results, scripts, state.lang)
        return tip, href(ref.partition("/")[0], cell.anchor)

    numbered = state.numbered.get(page)  # before the numbers' marks: captions have some
    html = figures.present_figures(
        html, figure_info, state.lang, numbered and numbered.figures, page
    )
    refs = measured_refs(html)
    html = mark_measured(html, describe, state.measured.get(page, 0), page)
    if refs:  # the cells behind the page's numbers, reachable without a Tab stop per number
        used = [
            (ref.partition("/")[0], provenance.describe(ref, state.results, scripts, state.lang)[1])
            for ref in refs
        ]
        html += provenance.section(used, _versions(refs, state.provenance), state.lang, href)
    return html


def _versions(refs: list[str], runs: dict[str, tuple[str, dict]]) -> str:
    """The versions the page's examples ran with ("Python 3.11.7, torch 2.13.0+cpu, CPU
    AVX512"): the page's provenance note, not each number's tooltip."""
    versions: dict[str, str] = {}
    for example in dict.fromkeys(ref.partition("/")[0] for ref in refs):
        for name, version in runs[example][1].items():
            versions.setdefault(name, version)
    shown = [f"{name} {version}" for name, version in versions.items() if name != "cpu"]
    return ", ".join(shown + ([f"CPU {versions['cpu']}"] if "cpu" in versions else []))


def finished_page(state: LanguagePass, html: str, page: str, page_url: str) -> str:
    """Stage 4: the whole HTML page, with Chinese line breaks joined and formulas typeset
    (after a search plugin has indexed the page: its index keeps the TeX)."""
    site_root = "../" * page_url.count("/")
    if state.lang in CJK_LANGUAGES:  # before KaTeX's markup: the TeX is still one span
        html = cjk.join_lines(html)
    cells = state.markdown_cells.get(page, 0)
    return math.typeset(html, page, state.root, site_root, cells, state.lang)
