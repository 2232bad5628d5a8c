"""MkDocs hooks of the resdoc site (``hooks:`` in mkdocs.yml).

mkdocs-static-i18n builds the site once per language: MkDocs runs every event below for the
default language, then i18n's ``on_post_build`` runs them all again for each other language.
What a pass knows lives in one :class:`LanguagePass`, made by ``on_pre_build`` and dropped by
``on_post_build`` (or ``on_build_error``).

- ``on_config``: start jieba, the search index's Chinese segmenter, from the cache.
- ``on_pre_build``: bring every example up to date (cached; see ``examples.py``); start a pass.
- ``on_files``: add what the build generates for the pass's language (``generated.py``).
- ``on_env``: keep Material's compiled templates between builds.
- ``on_pre_page``: example pages show mkdocs-jupyter's HTML of their notebook, with
  download links and without the CDN scripts nbconvert adds (see ``example_pages.py``).
- ``on_page_markdown``: fill ``{{ result:… }}`` and check snippet includes, naming the page.
- ``on_page_content``: measured numbers say where they come from; figures get their size.
- ``on_post_page``: no stray gaps in Chinese text (``cjk.py``); formulas typeset; small
  fixes to Material's markup, each counted (``markup.py``).
- ``on_post_template``: a 404 page per language, in its language.
- ``on_post_build``: no sitemap unless the published address (RESDOC_SITE_URL) is known.

Internals of other packages these hooks rely on are listed in ``private.py``.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import jieba
import jinja2
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.toc import get_toc

from resdoc.sitegen import (
    cjk,
    example_pages,
    figures,
    generated,
    markup,
    math,
    notebook_css,
    private,
    search,
    segmenter,
)
from resdoc.sitegen.conventions import languages
from resdoc.sitegen.examples import Example, ExampleRunner, installed_versions
from resdoc.sitegen.notebooks import write_if_changed
from resdoc.sitegen.pages import (
    MEASURED,
    check_snippets,
    describe_measured,
    fill_results,
    mark_measured,
    plain_text,
)
from resdoc.sitegen.translations import lagging_pages, missing_twins

log = logging.getLogger("mkdocs.resdoc")

BEHIND_NOTICE = {
    "zh": '!!! warning "译文可能落后"\n    本页的英文版在这份中文译文之后改动过，这里可能缺少最新内容。\n\n',
    "en": '!!! warning "This translation may be behind"\n    The Chinese original of this page changed after '
    "this translation was last updated; recent changes may be missing here.\n\n",
}
SEARCH_LABEL = {"zh": "搜索", "en": "Search"}
CJK_LANGUAGES = ("zh",)  # written without spaces between words: line breaks must not show
NOTEBOOK_CSS = "notebook.css"  # beside each example page: only the rules it uses


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def _cache(config) -> Path:
    return Path(os.environ.get("RESDOC_CACHE_DIR") or _root(config) / ".cache" / "resdoc")


def _prefixes(config) -> dict[str, str]:
    """Each language's folder in the site ("" for the default one)."""
    i18n = config.plugins.get("i18n")
    order = languages(i18n.config.languages) if i18n else (config.theme["language"],)
    return {lang: "" if lang == order[0] else f"{lang}/" for lang in order}


@dataclass
class LanguagePass:
    """One language's pass over the site: its examples' results, its language and folders."""

    root: Path
    cache: Path
    lang: str  # the language being built, as Material is configured for it
    prefixes: dict[str, str]  # language -> its folder in the site ("" for the default one)
    examples: list[Example]
    results: dict[str, dict] = field(default_factory=dict)
    provenance: dict[str, tuple[str, dict]] = field(default_factory=dict)
    lagging: dict[str, str] = field(default_factory=dict)  # page -> language that is behind
    measured: dict[str, int] = field(default_factory=dict)  # page -> measured numbers in it

    @classmethod
    def start(cls, config) -> LanguagePass:
        root, cache = _root(config), _cache(config)
        runner = ExampleRunner(
            root, cache / "examples", report=lambda line: log.info("resdoc: %s", line)
        )
        examples, _ = runner.run_all()
        return cls(
            root=root,
            cache=cache,
            lang=config.theme["language"],  # mkdocs-static-i18n sets it for each pass
            prefixes=_prefixes(config),
            examples=examples,
            results={e.name: e.results() for e in examples},
            provenance={e.name: (e.script.as_posix(), e.provenance()) for e in examples},
        )


_pass: LanguagePass | None = None
_not_found: dict[str, str] = {}  # language -> its 404 page, kept until the last pass ends


def current() -> LanguagePass:
    if _pass is None:
        raise PluginError("resdoc: a page event ran outside a language pass (no on_pre_build)")
    return _pass


@event_priority(100)  # before the search plugin starts jieba
def on_config(config):
    segmenter.start(jieba.dt, _cache(config))
    return config


def on_pre_build(config) -> None:
    global _pass
    math.renderer(_root(config))  # node loads KaTeX while the examples are checked
    _pass = LanguagePass.start(config)


def on_env(env, config, files):
    # Compiling Material's templates costs each language's pass a few tenths of a second;
    # Jinja checks each cached template against its source. Compiled code depends on the
    # template engine, so their versions name the folder.
    versions = "-".join(installed_versions(("jinja2", "mkdocs", "mkdocs-material")).values())
    folder = current().cache / "templates" / versions
    folder.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = jinja2.FileSystemBytecodeCache(str(folder))
    return env


@event_priority(private.AFTER_I18N)  # after mkdocs-static-i18n, which re-creates every file
def on_files(files: Files, config) -> Files:
    state = current()
    problems = missing_twins(Path(config.docs_dir))
    if problems:
        raise PluginError("Every page needs both languages:\n" + "\n".join(problems))
    state.lagging = lagging_pages(Path(config.docs_dir))  # once per pass, not once per page
    added = generated.katex_files(config, state.root)
    for example in state.examples:
        added += generated.example_files(config, state.root, example, state.lang, state.prefixes)
    for file in added:
        files.append(file)
    # mkdocs-static-i18n writes the sitemap from the pages it saw in its own on_files
    i18n = config.plugins.get("i18n")
    if i18n is not None:
        pages = [file for file in added if isinstance(file, generated.ExamplePage)]
        private.add_to_i18n_pages(i18n, state.lang, pages)
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    state = current()
    check_snippets(markdown, page.file.src_uri, state.root)
    markdown = fill_results(markdown, page.file.src_uri, state.results, state.lang)
    state.measured[page.file.src_uri] = markdown.count(MEASURED)
    name = page.file.src_uri.removesuffix(".md").removesuffix(f".{state.lang}")
    if page.file.src_uri.endswith(".md") and state.lagging.get(name) == state.lang:
        title, _, body = markdown.partition("\n")  # the notice goes under the page title
        markdown = f"{title}\n\n{BEHIND_NOTICE[state.lang]}{body}"
    return markdown


def on_pre_page(page, config, files):
    if isinstance(page.file, generated.ExamplePage):
        # mkdocs-jupyter's HTML replaces Markdown rendering for this page, as its plugin does;
        # page_body gives the headings these ids, and strict builds check links to them
        private.render_with(page, _render_example_page, lambda p: example_pages.heading_ids(p.toc))
    return page


def _render_example_page(page, config, files) -> None:
    state = current()
    where = page.file.src_uri
    rendered = example_pages.render(Path(page.file.abs_src_path))
    page.toc = get_toc(rendered.toc_tokens)
    page.title = rendered.title or page.title
    html, css = markup.split_styles(rendered.html, where)
    # only the rules this page uses, beside it (notebook_css.py)
    write_if_changed(
        notebook_css.prune(css, html), Path(page.file.abs_dest_path).parent / NOTEBOOK_CSS
    )
    css_href = NOTEBOOK_CSS
    name = Path(page.file.src_uri).stem
    page.content = example_pages.page_body(html, page.toc, name, state.lang, css_href, where)


def on_page_content(html: str, page, config, files) -> str:
    state = current()

    def figure_path(uri: str) -> Path | None:
        file = files.get_file_from_path(uri)
        return Path(file.abs_src_path) if file is not None else None

    def describe(ref: str) -> str:
        return describe_measured(ref, state.results, state.provenance, state.lang)

    expected = state.measured.get(page.file.src_uri, 0)
    html = mark_measured(html, describe, expected, page.file.src_uri)
    for item in _toc_items(page.toc):
        item.title = plain_text(item.title)
    if page.title:
        page.title = plain_text(page.title)
    return figures.size_figures(html, figure_path)


def _toc_items(items):
    for item in items:
        yield item
        yield from _toc_items(item.children)


def on_post_page(output: str, page, config) -> str:
    state = current()
    # typeset here, after the search plugin has indexed the page: the index keeps the TeX
    site_root = "../" * page.url.count("/")
    if state.lang in CJK_LANGUAGES:  # before KaTeX's markup: the TeX is still one span
        output = cjk.join_lines(output)
    output = math.typeset(output, page.file.src_uri, state.root, site_root)
    output = search.for_page(output, state.prefixes[state.lang])
    neighbours = (page.previous_page is not None) + (page.next_page is not None)
    label = SEARCH_LABEL[state.lang]
    where = page.file.src_uri
    output = markup.in_language(output, state.lang, where)
    return markup.material_page(output, where, len(state.prefixes), label, neighbours)


def _home(config, lang: str) -> str:
    """The absolute path of ``lang``'s home page, as error pages link (MkDocs gives them
    absolute URLs: a 404 page is served at any address)."""
    base = urlsplit(config.site_url).path.rstrip("/") if config.site_url else ""
    return f"{base}/{_prefixes(config)[lang]}"


def on_post_template(output: str, template_name: str, config) -> str:
    if template_name == "404.html":
        lang = current().lang
        homes = {other: _home(config, other) for other in _prefixes(config)}
        output = markup.not_found_page(output, lang, homes)
        _not_found[lang] = output  # written into each language's folder after the last pass
    return output


def on_build_error(error) -> None:
    global _pass
    _not_found.clear()
    _pass = None  # a failed pass leaves nothing behind for the next build (mkdocs serve)


@event_priority(-200)  # after mkdocs-static-i18n (-100) has written the merged search index
def on_post_build(config) -> None:
    global _pass
    # i18n builds the other languages inside the default language's on_post_build (before
    # this hook, at -200): when the default pass gets here, every language is indexed
    if private.i18n_last_pass(config):
        search.split_index(Path(config.site_dir), _prefixes(config))
        # every pass writes its 404 page to the site's root, the last one winning: one per
        # language instead (a server that serves only the root one serves the default language's)
        for lang, prefix in _prefixes(config).items():
            if lang in _not_found:
                write_if_changed(_not_found.pop(lang), Path(config.site_dir) / prefix / "404.html")
    _pass = None  # the pass is over; i18n starts the next language's after this event
    # A sitemap lists absolute addresses ("None/explorer/" without one): a local build,
    # which does not know where the site will be published, leaves it out. It is deleted
    # after the build because taking it out of the theme's static templates makes MkDocs
    # copy the raw Jinja template in its place.
    if not config.site_url:
        for name in ("sitemap.xml", "sitemap.xml.gz"):
            (Path(config.site_dir) / name).unlink(missing_ok=True)
