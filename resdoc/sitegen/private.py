"""Every reliance of the site machinery on another package's internals, in one place.

Where a public way exists the machinery uses it (the page language from
``config.theme["language"]``, generated files from ``File.generated``, the languages from
the i18n plugin's configuration, Material's ``document$`` to typeset math). What remains is
below: each entry says what is used, from which pinned version, why, and what would replace
it; the code touches those internals only through the functions of this module, and each
function fails with :class:`PrivateAPIChanged`, naming its entry, when an upgrade removed
what it uses (``nox -s docs-latest`` runs the build against the newest releases weekly).
Markup patches (regular expressions over Material's and nbconvert's HTML) are in
``markup.py``, each counted.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

from mkdocs.exceptions import PluginError


@dataclass(frozen=True)
class Reliance:
    what: str
    package: str  # as pinned in pyproject.toml
    why: str
    replacement: str


PRIVATE = {
    "i18n-order": Reliance(
        "the hooks' on_files runs at priority -200, after mkdocs-static-i18n's on_files (-100)",
        "mkdocs-static-i18n==1.3.1",
        "i18n re-creates every file in its on_files; generated files added before it are "
        "dropped or placed in the wrong language",
        "i18n accepting generated files (File.generated) for the language being built",
    ),
    "i18n-files": Reliance(
        "mkdocs-static-i18n's per-language page list (plugin.i18n_files_per_language)",
        "mkdocs-static-i18n==1.3.1",
        "i18n writes the sitemap (and its alternates) from this list; without the generated "
        "example pages in it, a published sitemap misses them",
        "i18n discovering generated pages itself, or the site writing its own sitemap",
    ),
    "i18n-file-attrs": Reliance(
        "locale, locale_alternate_of and alternates set on generated example pages",
        "mkdocs-static-i18n==1.3.1",
        "i18n's language switcher and sitemap read them from its own file class (I18nFile)",
        "a public i18n API to declare a generated page's language and twin",
    ),
    "page-render": Reliance(
        "Page.render replaced on an example page's instance, present_anchor_ids set by hand",
        "mkdocs==1.6.1",
        "an example page is HTML rendered by mkdocs-jupyter, not Markdown; strict builds "
        "check links into it against present_anchor_ids (mkdocs-jupyter's plugin does the same)",
        "a MkDocs API for pages whose HTML a plugin provides",
    ),
    "nb2html": Reliance(
        "mkdocs_jupyter.convert.nb2html, the converter its plugin calls (not exported)",
        "mkdocs-jupyter==0.26.3",
        "the plugin, listed in mkdocs.yml, would import nbconvert on every build (about a "
        "second); called directly it is imported only when a notebook changed",
        "nbconvert's HTMLExporter with mkdocs-jupyter's template (a public API, other markup)",
    ),
    "i18n-building": Reliance(
        "mkdocs-static-i18n's `building` flag, true until its last language's pass ends",
        "mkdocs-static-i18n==1.3.1",
        "the search index holds every language only after the last pass; it is then split "
        "into one index per language (search.py)",
        "an i18n event after the last language, or Material writing one index per language",
    ),
    "search-index": Reliance(
        "the schema of Material's search_index.json: config (lang, separator, pipeline, fields) "
        "and docs (location, title, text; <pre> kept as markup in text)",
        "mkdocs-material==9.8.2",
        "the index is split per language and its text made readable after Material wrote it "
        "(search.py); Material has no per-language index and no hook on an entry's text",
        "Material writing one index per language, or an event per index entry",
    ),
    "search-xhr": Reliance(
        "Material's bundle fetches search/search_index.json with XMLHttpRequest (its only "
        "request made that way), as soon as the page loads",
        "mkdocs-material==9.8.2",
        "search.ON_DEMAND holds that request back until the reader opens search, so a page "
        "does not download the index for a reader who never searches",
        "a Material option to load the index on demand",
    ),
    "search-worker": Reliance(
        "Material's search worker (assets/javascripts/workers/search.*.min.js), rewritten in "
        "the built site by markup.SEARCH_WORKER_SEGMENT",
        "mkdocs-material==9.8.2",
        "its Chinese query segmentation never tries the whole query as one word, so a query "
        "that is one word (预热) searched for its first character",
        "the fix upstream (segment() in src/.../search/query/segment/index.ts)",
    ),
    "jieba-dict": Reliance(
        "jieba.Tokenizer's FREQ, total, initialized and dictionary",
        "jieba==0.42.1",
        "jieba loads its 500,000-word prefix dictionary from a marshal file in about a second; "
        "the build hands it a pickle of the same dictionary, four times faster",
        "jieba loading its dictionary faster itself (or a search that does not need it)",
    ),
    "search-entries": Reliance(
        "Material's SearchIndex.add_entry_from_context(page), which appends the page's entries "
        "to the list SearchIndex.entries",
        "mkdocs-material==9.8.2",
        "Material parses every page's HTML for its search entries on every build, about half "
        "of a warm build of these pages; an unchanged page's entries are kept instead "
        "(search_cache.py)",
        "Material caching a page's entries itself, or indexing the built site once",
    ),
    "search-dirty": Reliance(
        "Material's search plugin attributes is_dirty (set from --dirty in on_startup) and "
        "search_index_prev",
        "mkdocs-material==9.8.2",
        "a dirty build merges the last index with this one's assuming one page was built, and "
        "mkdocs-static-i18n stacks both languages on it: the preview's index grew fourfold a "
        "rebuild; the preview's pages keep their entries instead (live.py)",
        "Material merging a dirty build's index by page",
    ),
}


class PrivateAPIChanged(PluginError):
    def __init__(self, key: str, detail: str):
        entry = PRIVATE[key]
        super().__init__(
            f"{entry.package.split('==')[0]} changed an internal the site relies on "
            f"({key}: {entry.what}): {detail}. Written against {entry.package}; why: {entry.why}. "
            f"See resdoc/sitegen/private.py."
        )


AFTER_I18N = -200  # PRIVATE["i18n-order"]


def check_i18n_order(i18n) -> None:
    """PRIVATE["i18n-order"]: mkdocs-static-i18n's on_files still runs before ours, at
    AFTER_I18N (MkDocs runs higher priorities first; ``event_priority`` records it as the
    method's ``mkdocs_priority``)."""
    priority = getattr(getattr(i18n, "on_files", None), "mkdocs_priority", None)
    if not isinstance(priority, int | float) or priority <= AFTER_I18N:
        raise PrivateAPIChanged(
            "i18n-order", f"its on_files runs at priority {priority}, not after {AFTER_I18N}"
        )


def add_to_i18n_pages(i18n, lang: str, pages: list) -> None:
    """PRIVATE["i18n-files"]: list generated pages with the ones i18n found."""
    per_language = getattr(i18n, "i18n_files_per_language", None)
    if not isinstance(per_language, dict) or lang not in per_language:
        raise PrivateAPIChanged("i18n-files", f"no i18n_files_per_language[{lang!r}]")
    per_language[lang].extend(pages)


def i18n_last_pass(config) -> bool:
    """PRIVATE["i18n-building"]: whether the pass ending now is the build's last one."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return True
    building = getattr(i18n, "building", None)
    if not isinstance(building, bool):
        raise PrivateAPIChanged("i18n-building", "no boolean attribute `building`")
    return not building


class Twin:
    """The twin of a generated page, as i18n's switcher and sitemap read it (page: None,
    since the twin is built in the other language's pass)."""

    page = None

    def __init__(self, url: str):
        self.url = url


I18N_FILE_ATTRS = ("locale", "locale_alternate_of", "alternates")


def check_i18n_file_attrs(files) -> None:
    """PRIVATE["i18n-file-attrs"]: the pages i18n made in its on_files still carry the
    attributes :func:`mark_language` gives generated pages (its switcher reads them)."""
    for file in files.documentation_pages():
        missing = [name for name in I18N_FILE_ATTRS if not hasattr(file, name)]
        if missing or not isinstance(file.alternates, dict):
            raise PrivateAPIChanged(
                "i18n-file-attrs",
                f"{file.src_uri} has no {', '.join(missing) or 'dict alternates'}",
            )
        return  # i18n gives every page the same attributes: one page shows it still does


def mark_language(file, lang: str, twins: dict[str, str]) -> None:
    """PRIVATE["i18n-file-attrs"]: a generated page in ``lang``; ``twins``: language -> URL."""
    file.locale = file.locale_alternate_of = lang
    file.alternates = {other: Twin(url) for other, url in twins.items()}


def render_with(page, render, anchor_ids) -> None:
    """PRIVATE["page-render"]: ``render(page, config, files)`` replaces Markdown rendering;
    ``anchor_ids(page)``, called after it, gives the ids links may point at."""
    if not hasattr(page, "present_anchor_ids"):
        raise PrivateAPIChanged("page-render", "Page has no present_anchor_ids")

    def rendered(config, files) -> None:
        render(page, config, files)
        page.present_anchor_ids = set(anchor_ids(page))

    page.render = rendered


def nb2html():
    """PRIVATE["nb2html"]: mkdocs-jupyter's converter, imported when first needed."""
    try:
        from mkdocs_jupyter.convert import nb2html
    except ImportError as error:
        raise PrivateAPIChanged("nb2html", str(error)) from None
    return nb2html


def jieba_is_plain(tokenizer) -> bool:
    """PRIVATE["jieba-dict"]: ``tokenizer`` not started yet, with jieba's bundled dictionary."""
    if not (hasattr(tokenizer, "initialized") and hasattr(tokenizer, "dictionary")):
        raise PrivateAPIChanged("jieba-dict", "Tokenizer has no initialized or dictionary")
    return not tokenizer.initialized and tokenizer.dictionary is None


def jieba_dictionary(tokenizer) -> tuple[dict, int]:
    """PRIVATE["jieba-dict"]: a started tokenizer's prefix dictionary and its total."""
    if not (hasattr(tokenizer, "FREQ") and hasattr(tokenizer, "total")):
        raise PrivateAPIChanged("jieba-dict", "Tokenizer has no FREQ or total")
    return tokenizer.FREQ, tokenizer.total


def jieba_start(tokenizer, dictionary: tuple[dict, int]) -> None:
    """PRIVATE["jieba-dict"]: start ``tokenizer`` with a prefix dictionary."""
    tokenizer.FREQ, tokenizer.total = dictionary
    tokenizer.initialized = True


def search_index(index: dict) -> dict:
    """PRIVATE["search-index"]: ``index`` (Material's search_index.json), its schema checked."""
    config, docs = index.get("config"), index.get("docs")
    if not isinstance(config, dict) or not {"lang", "separator", "pipeline"} <= set(config):
        raise PrivateAPIChanged("search-index", f"config is {str(config)[:200]}")
    if not isinstance(docs, list) or not all(
        isinstance(doc, dict) and {"location", "title", "text"} <= set(doc) for doc in docs
    ):
        raise PrivateAPIChanged("search-index", "docs without location, title and text")
    return index


def index_fetched_by_xhr(bundle: str) -> None:
    """PRIVATE["search-xhr"]: Material's ``bundle`` (its main script) still requests the
    index, and makes its requests with XMLHttpRequest, not fetch()."""
    if "search/search_index.json" not in bundle:
        raise PrivateAPIChanged("search-xhr", "the bundle does not name search/search_index.json")
    if bundle.count("new XMLHttpRequest") != 1 or "fetch(" in bundle:
        raise PrivateAPIChanged("search-xhr", "the bundle's requests are not one XMLHttpRequest")


def replace_search_indexing(make) -> None:
    """PRIVATE["search-entries"]: Material's ``SearchIndex.add_entry_from_context`` replaced by
    ``make(original)``, once (a second call, as in each build of ``mkdocs serve``, keeps it)."""
    from material.plugins.search.plugin import SearchIndex

    original = SearchIndex.__dict__.get("add_entry_from_context")
    if getattr(original, "replaced_by_resdoc", False):
        return
    if original is None or list(inspect.signature(original).parameters) != ["self", "page"]:
        raise PrivateAPIChanged("search-entries", "no add_entry_from_context(self, page)")
    replacement = make(original)
    replacement.replaced_by_resdoc = True
    SearchIndex.add_entry_from_context = replacement


def search_entries(index) -> list:
    """PRIVATE["search-entries"]: the list of entries a SearchIndex has so far."""
    entries = getattr(index, "entries", None)
    if not isinstance(entries, list):
        raise PrivateAPIChanged("search-entries", "SearchIndex.entries is not a list")
    return entries


def search_not_dirty(config) -> None:
    """PRIVATE["search-dirty"]: Material's search plugin indexes only the pages built, as in a
    clean build, without merging an earlier build's index (live.py completes it)."""
    plugin = config.plugins.get("material/search")
    if (
        plugin is None
        or not hasattr(plugin, "is_dirty")
        or not hasattr(plugin, "search_index_prev")
    ):
        raise PrivateAPIChanged("search-dirty", "no material/search plugin with is_dirty")
    plugin.is_dirty = False
    plugin.search_index_prev = None
