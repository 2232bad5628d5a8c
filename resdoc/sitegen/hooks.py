"""MkDocs hooks of the resdoc site (``hooks:`` in mkdocs.yml).

mkdocs-static-i18n builds the site once per language: MkDocs runs every event below for the
default language, then i18n's ``on_post_build`` runs them all again for each other language.
What a pass knows lives in one :class:`LanguagePass`, made by ``on_pre_build`` and dropped by
``on_post_build`` (or ``on_build_error``).

- ``on_config``: start jieba, the search index's Chinese segmenter, from the cache; keep an
  unchanged page's search entries from the last build (``search_cache.py``).
- ``on_pre_build``: bring every example up to date and start a pass (stage 1 of
  ``stages.py``).
- ``on_files``: add what the build generates for the pass's language (``generated.py``); read
  the bibliography and every page's citations (``citations.py``).
- ``on_env``: keep Material's compiled templates between builds.
- ``on_pre_page``: example pages show mkdocs-jupyter's HTML of their notebook, with the
  chapter's number, download links and how to run them, the bookkeeping folded, cell anchors,
  and without the CDN scripts nbconvert adds (see ``example_pages.py``).
- ``on_page_markdown``: the page's Markdown filled in (stage 2): citations, listings, numbered
  figures and formulas, ``{{ result:… }}``, naming the page of a bad one (pymdownx.snippets'
  ``check_paths`` fails on a missing include, and MkDocs names the page).
- ``on_page_content``: the page's body (stage 3): figures in their variants, measured numbers
  linked to their cells; the titles MkDocs shows made plain; example pages weigh less in search
  than chapters, their code cells unindexed (``search.py``).
- ``on_post_page``: the whole page (stage 4: Chinese lines joined, formulas typeset); each page
  fetches its language's search index once search is opened (``search.py``); small fixes to
  Material's markup, each counted (``markup.py``).
- ``on_post_template``: a 404 page per language, in its language.
- ``on_post_build``: after the last language: the search index split per language and made
  readable, Material's search worker fixed (``search.py``), a 404 page
  per language, redirects from the old addresses of moved pages (``redirects.py``); no sitemap
  unless the published address (RESDOC_SITE_URL) is known.

Internals of other packages these hooks rely on are listed in ``private.py``.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from urllib.parse import urlsplit

import jieba
import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from resdoc.sitegen import (
    chapters,
    example_pages,
    generated,
    live,
    markup,
    math,
    notebook_css,
    private,
    redirects,
    search,
    search_cache,
    segmenter,
    stages,
    warm,
)
from resdoc.sitegen.conventions import language_prefixes, languages
from resdoc.sitegen.examples import installed_versions
from resdoc.sitegen.notebooks import write_if_changed
from resdoc.sitegen.pages import plain_text
from resdoc.sitegen.stages import LanguagePass
from resdoc.sitegen.translations import missing_twins
from resdoc.sitegen.ui_text import CHAPTER_LABEL, SEARCH_LABEL

log = logging.getLogger("mkdocs.resdoc")

NOTEBOOK_CSS = "notebook.css"  # beside each example page: only the rules it uses


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def _cache(config: MkDocsConfig) -> Path:
    return Path(os.environ.get("RESDOC_CACHE_DIR") or _root(config) / ".cache" / "resdoc")


def _prefixes(config: MkDocsConfig) -> dict[str, str]:
    """Each language's folder in the site ("" for the default one)."""
    i18n = config.plugins.get("i18n")
    order = languages(i18n.config.languages) if i18n else (config.theme["language"],)
    return language_prefixes(order)


def _start_pass(config: MkDocsConfig) -> LanguagePass:
    return LanguagePass.start(
        _root(config),
        _cache(config),
        config.theme["language"],  # mkdocs-static-i18n sets it for each pass
        _prefixes(config),
        report=lambda line: log.info("resdoc: %s", line),
    )


_pass: LanguagePass | None = None
_not_found: dict[str, str] = {}  # language -> its 404 page, kept until the last pass ends
_dirty = False  # mkdocs serve --dirty (nox -s docs-live): build again only what changed


def current() -> LanguagePass:
    if _pass is None:
        raise PluginError("resdoc: a page event ran outside a language pass (no on_pre_build)")
    return _pass


def on_startup(*, command: str, dirty: bool) -> None:
    global _dirty
    _dirty = dirty and command == "serve"  # MkDocs keeps this module for the whole session
    if _dirty:
        live.allow_dirty_builds()


@event_priority(100)  # before the search plugin starts jieba
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    i18n = config.plugins.get("i18n")
    if i18n is not None:
        private.check_i18n_order(i18n)
    segmenter.start(jieba.dt, _cache(config))
    search_cache.install(_cache(config))
    if _dirty:
        private.search_not_dirty(config)
    return config


def on_pre_build(*, config: MkDocsConfig) -> None:
    global _pass
    math.renderer(_root(config), _cache(config))  # node loads KaTeX while the examples are checked
    _pass = _start_pass(config)


def on_env(env: jinja2.Environment, *, config: MkDocsConfig, files: Files) -> jinja2.Environment:
    # Compiling Material's templates costs each language's pass a few tenths of a second;
    # Jinja checks each cached template against its source. Compiled code depends on the
    # template engine, so their versions name the folder.
    versions = "-".join(installed_versions(("jinja2", "mkdocs", "mkdocs-material")).values())
    folder = current().cache / "templates" / versions
    folder.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = jinja2.FileSystemBytecodeCache(str(folder))
    live.keep_titles(files, current().lang, _dirty)  # every page is read: the pages are next
    return env


@event_priority(private.AFTER_I18N)  # after mkdocs-static-i18n, which re-creates every file
def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    state = current()
    i18n = config.plugins.get("i18n")
    if i18n is not None:  # its pages, before ours are given the same attributes
        private.check_i18n_file_attrs(files)
    problems = missing_twins(Path(config.docs_dir))
    if problems:
        raise PluginError("Every page needs both languages:\n" + "\n".join(problems))
    state.read_pages(Path(config.docs_dir))  # once per pass, not once per page
    added = generated.katex_files(config, state.root)
    for example in state.examples:
        added += generated.example_files(config, state.root, example, state.lang, state.prefixes)
    for file in added:
        files.append(file)
    # mkdocs-static-i18n writes the sitemap from the pages it saw in its own on_files
    if i18n is not None:
        pages = [file for file in added if isinstance(file, generated.ExamplePage)]
        private.add_to_i18n_pages(i18n, state.lang, pages)
    if _dirty:
        languages = tuple(_prefixes(config))
        docs = Path(config.docs_dir)
        cited = state.bibliography.cited if state.bibliography else {}
        live.rebuild_what_changed(
            files, state.root, docs, state.cache, state.lang, languages, cited
        )
    return files


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    return stages.markdown(current(), markdown, page.file.src_uri, config.repo_url)


def on_pre_page(page: Page, *, config: MkDocsConfig, files: Files) -> Page:
    if isinstance(page.file, generated.ExamplePage):
        # mkdocs-jupyter's HTML replaces Markdown rendering for this page, as its plugin does;
        # page_body gives the headings these ids, and strict builds check links to them
        private.render_with(page, _render_example_page, lambda p: example_pages.heading_ids(p.toc))
    return page


def _render_example_page(page: Page, config: MkDocsConfig, files: Files) -> None:
    state = current()
    where = page.file.src_uri
    rendered = example_pages.render(Path(page.file.abs_src_path))
    page.toc = get_toc(rendered.toc_tokens)
    page.title = rendered.title or page.title
    number = chapters.number_of(page.file.src_uri)
    if number is not None:
        page.title = chapters.numbered_title(page.title, number)
    source = Path(page.file.abs_src_path).read_bytes()
    notebook = json.loads(source)
    state.markdown_cells[where] = sum(c["cell_type"] == "markdown" for c in notebook["cells"])
    # the body and its CSS as the last build made them, if made of the same (warm.py)
    kept_at = state.cache / "example-pages" / f"{state.lang}.{Path(where).stem}.json"
    made_of = warm.key(
        source, rendered.html, json.dumps(rendered.toc_tokens), state.lang, where,
        str(number), config.repo_url or "",
    )  # fmt: skip
    kept = warm.recall(kept_at, made_of)
    if kept is None:
        html, css = markup.split_styles(rendered.html, where)
        kept = {
            # only the rules this page uses, beside it (notebook_css.py)
            "css": notebook_css.prune(css, html, state.cache / "notebook-css"),
            "body": example_pages.page_body(
                html,
                page.toc,
                Path(page.file.src_uri).stem,
                state.lang,
                NOTEBOOK_CSS,
                where,
                notebook,
                chapter=number,
                repo_url=config.repo_url,
            ),
        }
        warm.keep(kept_at, made_of, kept)
    write_if_changed(kept["css"], Path(page.file.abs_dest_path).parent / NOTEBOOK_CSS)
    page.content = kept["body"]
    # before the search plugin indexes it: weighed below chapters, code cells' UI unindexed
    code_cells = len(example_pages.code_sources(notebook))
    page.content = search.for_example_page(page.content, page.meta, where, code_cells)


def on_page_content(html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    state = current()

    def figure_info(uri: str) -> Path | None:
        file = files.get_file_from_path(uri)
        name = uri.rsplit("/", 1)[-1].removesuffix(".svg")
        return Path(file.abs_src_path).with_name(f"{name}.json") if file is not None else None

    html = stages.content(state, html, page.file.src_uri, page.url, figure_info)
    for item in _toc_items(page.toc):
        item.title = plain_text(item.title)
    number = chapters.number_of(page.file.src_uri)
    if number is not None and page.file.src_uri.endswith(".md"):
        # the nav, footer and <title> say "3 · …"; the heading "第 3 章" above the title
        heading = page.toc.items[0].title if page.toc.items else page.title
        page.title = chapters.numbered_title(_without_label(heading, number, state.lang), number)
    if page.title:
        page.title = plain_text(page.title)
    return html


def _without_label(heading: str, number: int, lang: str) -> str:
    return heading.removeprefix(CHAPTER_LABEL[lang].format(n=number)).strip()


def _toc_items(items):
    for item in items:
        yield item
        yield from _toc_items(item.children)


def on_post_page(output: str, *, page: Page, config: MkDocsConfig) -> str:
    state = current()
    where = page.file.src_uri
    output = stages.finished_page(state, output, where, page.url)
    output = search.for_page(output, state.prefixes[state.lang], where)
    neighbours = (page.previous_page is not None) + (page.next_page is not None)
    label = SEARCH_LABEL[state.lang]
    # Python-Markdown gives each heading of the table of contents a permalink; an example
    # page's headings are nbconvert's, with anchors of their own
    example = isinstance(page.file, generated.ExamplePage)
    permalinks = 0 if example else len(list(_toc_items(page.toc)))
    output = markup.in_language(output, state.lang, where, permalinks)
    output = markup.language_tag(output, where)
    repo_links = _repo_links(config)
    return markup.material_page(output, where, len(state.prefixes), label, neighbours, repo_links)


def _repo_links(config: MkDocsConfig) -> int:
    """How many links to the repository Material puts on a page: in the header and in the
    navigation drawer, when repo_url (RESDOC_REPO_URL) is set."""
    return 2 if config.repo_url else 0


def _home(config: MkDocsConfig, lang: str) -> str:
    """The absolute path of ``lang``'s home page, as error pages link (MkDocs gives them
    absolute URLs: a 404 page is served at any address)."""
    base = urlsplit(config.site_url).path.rstrip("/") if config.site_url else ""
    return f"{base}/{_prefixes(config)[lang]}"


def on_post_template(output: str, *, template_name: str, config: MkDocsConfig) -> str:
    if template_name == "404.html":
        lang = current().lang
        homes = {other: _home(config, other) for other in _prefixes(config)}
        output = markup.not_found_page(output, lang, homes)
        output = markup.language_tag(output, "404.html")
        output = markup.REPO_FACTS.apply(output, _repo_links(config), "404.html")
        _not_found[lang] = output  # written into each language's folder after the last pass
    return output


def on_build_error(*, error: Exception) -> None:
    global _pass
    _not_found.clear()
    _pass = None  # a failed pass leaves nothing behind for the next build (mkdocs serve)


@event_priority(-200)  # after mkdocs-static-i18n (-100) has written the merged search index
def on_post_build(*, config: MkDocsConfig) -> None:
    global _pass
    # i18n builds the other languages inside the default language's on_post_build (before
    # this hook, at -200): when the default pass gets here, every language is indexed
    if private.i18n_last_pass(config):
        if _dirty:  # the index has the pages built this time: the others keep their entries
            live.complete_search_index(Path(config.site_dir) / search.INDEX)
        search.split_index(Path(config.site_dir), _prefixes(config))
        search.material_scripts(Path(config.site_dir), _dirty)
        math.renderer(_root(config)).keep()
        # every pass writes its 404 page to the site's root, the last one winning: one per
        # language instead (a server that serves only the root one serves the default language's)
        for lang, prefix in _prefixes(config).items():
            if lang in _not_found:
                write_if_changed(_not_found.pop(lang), Path(config.site_dir) / prefix / "404.html")
        try:  # old addresses of pages that moved (chapter 12 became chapter 7)
            redirects.write_redirects(Path(config.site_dir), _prefixes(config))
        except ValueError as error:
            raise PluginError(f"resdoc: {error} (resdoc/sitegen/redirects.py)") from None
    _pass = None  # the pass is over; i18n starts the next language's after this event
    # A sitemap lists absolute addresses ("None/explorer/" without one): a local build,
    # which does not know where the site will be published, leaves it out. It is deleted
    # after the build because taking it out of the theme's static templates makes MkDocs
    # copy the raw Jinja template in its place.
    if not config.site_url:
        for name in ("sitemap.xml", "sitemap.xml.gz"):
            (Path(config.site_dir) / name).unlink(missing_ok=True)
