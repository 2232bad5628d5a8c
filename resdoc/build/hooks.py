"""MkDocs hooks of the resdoc site (``hooks:`` in mkdocs.yml).

- ``on_config``: start jieba, the search index's Chinese segmenter, from the cache.
- ``on_pre_build``: bring every example up to date (cached; see ``examples.py``).
- ``on_files``: add what the build generates, for the language being built: KaTeX from
  ``node_modules``, the examples' figures, and one rendered page per example. This runs
  after mkdocs-static-i18n (priority -100), which would otherwise drop or mis-place them.
- ``on_env``: keep Material's compiled templates between builds.
- ``on_pre_page``: example pages show mkdocs-jupyter's HTML of their notebook, with
  download links and without the CDN scripts nbconvert adds (see ``example_pages.py``).
- ``on_page_markdown``: fill ``{{ result:… }}`` and check snippet includes, naming the page.
- ``on_page_content``: figures get their size; wide ones scroll on phones (``figures.py``).
- ``on_post_page``: formulas typeset (``math.py``); a page fetches its language's search
  index once search is opened (``search.py``); small fixes to Material's markup (requests
  that 404, accessibility).
- ``on_post_build``: one search index per language (``search.py``); no sitemap unless the
  published address (RESDOC_SITE_URL) is known.
"""

from __future__ import annotations

import functools
import logging
import os
import posixpath
import re
from pathlib import Path

import jieba
import jinja2
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.toc import get_toc

from resdoc.build import example_pages, figures, math, notebook_css, search, segmenter
from resdoc.build.examples import Example, ExampleRunner, installed_versions
from resdoc.build.notebooks import language_notebook, notebook_text, write_if_changed
from resdoc.build.pages import check_snippets, fill_results, mark_measured, plain_text
from resdoc.build.translations import lagging_pages, missing_twins

log = logging.getLogger("mkdocs.resdoc")

KATEX_FILES = ("katex.min.css",)  # and its fonts: formulas are typeset at build time (math.py)
LANGUAGES = ("zh", "en")
BEHIND_NOTICE = {
    "zh": '!!! warning "译文可能落后"\n    本页的英文版在这份中文译文之后改动过，这里可能缺少最新内容。\n\n',
    "en": '!!! warning "This translation may be behind"\n    The Chinese original of this page changed after '
    "this translation was last updated; recent changes may be missing here.\n\n",
}
_state: dict = {}


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def _language(config) -> str:
    i18n = config.plugins.get("i18n")
    return i18n.current_language if i18n is not None else config.theme.get("language", "en")


def _prefix(config, lang: str) -> str:
    i18n = config.plugins.get("i18n")
    default = i18n.default_language if i18n is not None else lang
    return "" if lang == default else f"{lang}/"


def _cache(config) -> Path:
    return Path(os.environ.get("RESDOC_CACHE_DIR") or _root(config) / ".cache" / "resdoc")


@event_priority(100)  # before the search plugin starts jieba
def on_config(config):
    segmenter.start(jieba.dt, _cache(config))
    return config


def on_pre_build(config) -> None:
    root = _root(config)
    cache = _cache(config)
    math.renderer(root)  # node loads KaTeX while the examples are checked
    runner = ExampleRunner(
        root, cache / "examples", report=lambda line: log.info("resdoc: %s", line)
    )
    examples, _ = runner.run_all()
    _state.update(
        root=root,
        cache=cache,
        examples=examples,
        results={e.name: e.results() for e in examples},
        provenance={e.name: (e.script.as_posix(), e.provenance()) for e in examples},
    )


def on_env(env, config, files):
    # Compiling Material's templates costs each language's pass a few tenths of a second;
    # Jinja checks each cached template against its source. Compiled code depends on the
    # template engine, so their versions name the folder.
    versions = "-".join(installed_versions(("jinja2", "mkdocs", "mkdocs-material")).values())
    folder = _state["cache"] / "templates" / versions
    folder.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = jinja2.FileSystemBytecodeCache(str(folder))
    return env


class _GeneratedPage(File):
    """A page rendered by mkdocs-jupyter from a notebook the build made (see on_pre_page)."""

    def is_documentation_page(self) -> bool:
        return True


class _Alternate:
    """The twin of an example page, as the language switcher and the sitemap read it."""

    page = None  # the twin is built in the other language's pass

    def __init__(self, url: str):
        self.url = url


def _file(config, src_uri: str, dest_uri: str, abs_src_path: Path, cls=File) -> File:
    file = cls(src_uri, None, config.site_dir, config.use_directory_urls, dest_uri=dest_uri)
    file.abs_src_path = str(abs_src_path)
    file.generated_by = "resdoc"
    return file


def _katex_files(config, root: Path) -> list[File]:
    dist = root / "node_modules" / "katex" / "dist"
    if not (dist / "katex.min.js").is_file():
        raise PluginError(
            f"KaTeX is missing ({dist}). It comes from the npm registry at set-up: run `nox -s docs`, "
            "or `npm ci` in the project folder."
        )
    paths = [dist / name for name in KATEX_FILES] + sorted((dist / "fonts").glob("*.woff2"))
    return [
        _file(
            config,
            f"assets/katex/{p.relative_to(dist).as_posix()}",
            f"assets/katex/{p.relative_to(dist).as_posix()}",
            p,
        )
        for p in paths
    ]


def _example_files(config, example: Example, lang: str) -> list[File]:
    prefix = _prefix(config, lang)
    page_dir = f"examples/{example.name}/"
    files = []
    for svg in example.figures():
        name, svg_lang = svg.name.removesuffix(".svg").rsplit(".", 1)
        if svg_lang == lang:
            src = f"figures/{example.name}/{name}.svg"
            files.append(_file(config, src, prefix + src, svg))

    def figure_src(example_name: str, name: str) -> str:
        return posixpath.relpath(f"figures/{example_name}/{name}.svg", page_dir)

    notebook = write_if_changed(
        notebook_text(language_notebook(example.output / "notebook.ipynb", lang, figure_src)),
        example.output / f"page.{lang}.ipynb",
    )
    page = _file(
        config,
        f"examples/{example.name}.ipynb",
        f"{prefix}{page_dir}index.html",
        notebook,
        _GeneratedPage,
    )
    page.locale = page.locale_alternate_of = lang
    page.alternates = {
        other: _Alternate(f"{_prefix(config, other)}{page_dir}") for other in LANGUAGES
    }
    files.append(page)
    root = _state["root"]
    files.append(
        _file(
            config,
            f"{page_dir}{example.name}.py",
            f"{prefix}{page_dir}{example.name}.py",
            root / example.script,
        )
    )
    files.append(
        _file(
            config,
            f"{page_dir}{example.name}.ipynb",
            f"{prefix}{page_dir}{example.name}.ipynb",
            notebook,
        )
    )
    return files


@event_priority(-200)  # after mkdocs-static-i18n (-100), which re-creates every file
def on_files(files: Files, config) -> Files:
    problems = missing_twins(Path(config.docs_dir))
    if problems:
        raise PluginError("Every page needs both languages:\n" + "\n".join(problems))
    _state["lagging"] = lagging_pages(Path(config.docs_dir))  # once per build, not once per page
    lang = _language(config)
    generated = _katex_files(config, _state["root"])
    for example in _state["examples"]:
        generated += _example_files(config, example, lang)
    for file in generated:
        files.append(file)
    # mkdocs-static-i18n writes the sitemap from the pages it saw in its own on_files
    i18n = config.plugins.get("i18n")
    if i18n is not None:
        pages = [file for file in generated if isinstance(file, _GeneratedPage)]
        i18n.i18n_files_per_language[lang].extend(pages)
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    check_snippets(markdown, page.file.src_uri, _state["root"])
    lang = _language(config)
    markdown = fill_results(markdown, page.file.src_uri, _state["results"], lang)
    name = page.file.src_uri.removesuffix(".md").removesuffix(f".{lang}")
    if page.file.src_uri.endswith(".md") and _state["lagging"].get(name) == lang:
        title, _, body = markdown.partition("\n")  # the notice goes under the page title
        markdown = f"{title}\n\n{BEHIND_NOTICE[lang]}{body}"
    return markdown


NOTEBOOK_CSS = "notebook.css"


def on_pre_page(page, config, files):
    if isinstance(page.file, _GeneratedPage):
        # mkdocs-jupyter's HTML replaces Markdown rendering for this page, as its plugin does
        page.render = functools.partial(_render_example_page, page)
    return page


def _render_example_page(page, config, files) -> None:
    rendered = example_pages.render(Path(page.file.abs_src_path))
    page.toc = get_toc(rendered.toc_tokens)
    page.title = rendered.title or page.title
    # page_body gives the headings these ids; strict builds check links to them
    page.present_anchor_ids = set(example_pages.heading_ids(page.toc))
    html, css = example_pages.split_styles(rendered.html)
    if css:  # only the rules this page uses, beside it (notebook_css.py)
        write_if_changed(
            notebook_css.prune(css, html), Path(page.file.abs_dest_path).parent / NOTEBOOK_CSS
        )
    css_href = NOTEBOOK_CSS if css else None
    name = Path(page.file.src_uri).stem
    page.content = example_pages.page_body(html, page.toc, name, _language(config), css_href)


@event_priority(-200)  # after mkdocs-static-i18n (-100) has written the merged search index
def on_post_build(config) -> None:
    i18n = config.plugins.get("i18n")
    if i18n is not None and not i18n.building:  # the last pass: every language is indexed
        prefixes = {lang: _prefix(config, lang) for lang in LANGUAGES}
        search.split_index(Path(config.site_dir), prefixes)
    # A sitemap lists absolute addresses ("None/explorer/" without one): a local build,
    # which does not know where the site will be published, leaves it out. It is deleted
    # after the build because taking it out of the theme's static templates makes MkDocs
    # copy the raw Jinja template in its place.
    if not config.site_url:
        for name in ("sitemap.xml", "sitemap.xml.gz"):
            (Path(config.site_dir) / name).unlink(missing_ok=True)


MEASURED_BY = {
    "zh": ("构建时由 {script} 测得", "{n} 个随机种子（{seeds}）"),
    "en": ("Measured at build time by {script}", "{n} seeds ({seeds})"),
}


def _describe(ref: str, lang: str) -> str:
    """Where a number on the page comes from: its example, seeds and versions."""
    example, _, key = ref.partition("/")
    script, versions = _state["provenance"][example]
    seeds = _state["results"][example][key].get("seeds")
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


def on_page_content(html: str, page, config, files) -> str:
    def figure_path(uri: str) -> Path | None:
        file = files.get_file_from_path(uri)
        return Path(file.abs_src_path) if file is not None else None

    lang = _language(config)
    html = mark_measured(html, lambda ref: _describe(ref, lang))
    for item in _toc_items(page.toc):
        item.title = plain_text(item.title)
    if page.title:
        page.title = plain_text(page.title)
    return figures.size_figures(html, figure_path)


def _toc_items(items):
    for item in items:
        yield item
        yield from _toc_items(item.children)


# Material fetches "sitemap.xml" next to every <link rel="alternate"> in the page head to map
# pages between languages. mkdocs-static-i18n points those links at the page itself, so each
# page would request a non-existent <page>/sitemap.xml (a 404 per page and language). The
# header's language switcher carries the same per-page links, so the head links can go.
_HEAD_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')


# Accessibility fixes to Material's markup (axe-core, tests/test_site_browser.py): the search
# dialog needs a name, and the footer links' aria-label differs from their visible text.
SEARCH_LABEL = {"zh": "搜索", "en": "Search"}
_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog"'
_FOOTER_LABEL = re.compile(
    r'(class="md-footer__link md-footer__link--(?:prev|next)") aria-label="[^"]*"'
)


def on_post_page(output: str, page, config) -> str:
    # typeset here, after the search plugin has indexed the page: the index keeps the TeX
    site_root = "../" * page.url.count("/")
    output = math.typeset(output, page.file.src_uri, _state["root"], site_root)
    output = search.for_page(output, _prefix(config, _language(config)))
    head, end_of_head, body = output.partition("</head>")
    output = _HEAD_ALTERNATE.sub("", head) + end_of_head + body
    label = SEARCH_LABEL.get(_language(config), "Search")
    output = output.replace(_SEARCH_DIALOG, f'{_SEARCH_DIALOG} aria-label="{label}"')
    return _FOOTER_LABEL.sub(r"\1", output)
