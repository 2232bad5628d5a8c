"""Search for readers: one index per language, text a reader can read, chapters first.

Material's search plugin writes one ``search/search_index.json``; mkdocs-static-i18n fills it
with the pages of every language. After the last language's pass, :func:`split_index`
writes one index per language, by the language of each entry's address (the default
language's stays at ``search/``, another's goes to ``<lang>/search/`` with addresses relative
to ``<lang>/``), and makes each entry's text what a result should show (:func:`readable`):

- code blocks and notebook code cells left out: a reader searching a concept wants the
  chapter that explains it, not the code (the example pages keep their prose);
- formulas as plain text (``F(x) + x``, not ``\\mathcal{F}(x) + x``; ``tex_text.py``);
- another language's words left out: an English page printing a Chinese string does not
  answer a search for it on the English site; no space between two Chinese characters where
  the Markdown broke the line (as on the page);
- a hyphenated term also findable written as one word (``warmup`` finds "warm-up",
  ``preln`` finds "Pre-LN"): the joined form follows it, hidden from the reader.

Example pages get a lower search boost than chapters (``EXAMPLE_BOOST``, Material's
``search.boost``), so a chapter comes before the example page that measures its numbers.

A page finds its index, and resolves the addresses of results, from the ``base`` of
Material's ``__config``; a page of another language gets ``<base>/<lang>/`` (the slash
matters: Material resolves the index and every result against it). Only search uses
``base`` with the features this site turns on (no versions, no instant navigation).

Material fetches the index as soon as a page loads, whether or not the reader searches. A
small script in the head (``ON_DEMAND``) holds that one request back until the reader opens
search: clicks or focuses the search field, or presses one of Material's search keys, or
arrives with a query (``?q=``). Material has no option for it; the script relies only on
the index being fetched with XMLHttpRequest, and if that changes, the index simply loads
early again. A query typed before the index arrives runs once it is ready.

What this relies on in Material (the index's schema, the fetch, the search worker's query
segmentation, fixed in ``markup.SEARCH_WORKER_SEGMENT``) is listed in ``private.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from resdoc.sitegen import markup, private
from resdoc.sitegen.tex_text import formulas_as_text
from resdoc.sitegen.ui_text import CHAPTER_LABEL

INDEX = Path("search") / "search_index.json"
SCRIPTS = Path("assets") / "javascripts"  # Material's
EXAMPLE_BOOST = 0.05  # an example page's weight in search against a chapter's 1
CJK_LANGUAGES = ("zh",)  # languages whose index keeps CJK text

_CODE_BLOCK = re.compile(r"<pre>.*?</pre>", re.S)  # Material's parser keeps <pre> as markup
_PILCROW = re.compile(r"\s*¶")  # nbconvert's heading anchors
_CJK_CHAR = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"  # and CJK punctuation
# CJK text, with the zero-width spaces jieba's segmentation puts around its words
_CJK = re.compile(f"[\u200b{_CJK_CHAR}]+")
# a line break of the Markdown between two Chinese characters: no space on the page (cjk.py)
_CJK_GAP = re.compile(f"(?<=[{_CJK_CHAR}])(\u200b?)\\s+(?=\u200b?[{_CJK_CHAR}])")
_HYPHENATED = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+(?![\w-])")
_TAG = re.compile(r"(<[^>]*>)")


def _with_joined_forms(text: str) -> str:
    """Each hyphenated term followed by its joined form, in a hidden span: Material's search
    tokenizes the span's text, a result shows the term as the page writes it.

    >>> _with_joined_forms("<p>Post-LN needs warm-up</p>")
    '<p>Post-LN<span hidden>PostLN</span> needs warm-up<span hidden>warmup</span></p>'
    """
    parts = _TAG.split(text)  # not inside tags
    for i in range(0, len(parts), 2):
        parts[i] = _HYPHENATED.sub(
            lambda m: f"{m[0]}<span hidden>{m[0].replace('-', '')}</span>", parts[i]
        )
    return "".join(parts)


def readable(text: str, lang: str) -> str:
    """An index entry's title or text as a search result should show it (see the module).

    >>> readable("<p>\\u200b残差\\u200b \\\\(y = x + \\\\mathcal{F}(x)\\\\)</p><pre>y = x + f(x)</pre>", "en")
    '<p> y = x + F(x)</p>'
    """
    text = _PILCROW.sub("", formulas_as_text(_CODE_BLOCK.sub(" ", text)))
    text = _CJK_GAP.sub(r"\1", text) if lang in CJK_LANGUAGES else _CJK.sub(" ", text)
    return _with_joined_forms(re.sub(r"[ \t]{2,}", " ", text).strip())


def for_example_page(page_html: str, meta: dict, where: str, code_cells: int) -> str:
    """An example page as search sees it: its code cells' prompts and copy buttons left out
    of the index (their code and outputs are left out with every <pre>), its weight
    ``EXAMPLE_BOOST`` (Material's ``search.boost``, as a page's front matter would set it)."""
    meta["search"] = {**(meta.get("search") or {}), "boost": EXAMPLE_BOOST}
    return markup.unsearched_cell_parts(page_html, where, code_cells)


def chapter_title(title: str, lang: str) -> str:
    """A chapter's title as a result shows it: its heading's "第 N 章" / "Chapter N" set off
    from the title (the heading shows them on two lines; its text runs them together).

    >>> chapter_title("Chapter 4 Layer normalization", "en")
    'Chapter 4 · Layer normalization'
    >>> chapter_title("第 4 章层归一化", "zh"), chapter_title("残差", "zh")
    ('第 4 章 · 层归一化', '残差')
    >>> chapter_title("第\u200b 4 \u200b章\u200b\u200b层归一化", "zh")
    '第\u200b 4 \u200b章 · 层归一化'
    """
    gap = "[\\s\u200b]*"  # the index's Chinese words are cut apart by zero-width spaces
    label = gap.join(
        r"\d+" if part == "{n}" else re.escape(part) for part in CHAPTER_LABEL[lang].split()
    )
    return re.sub(rf"^({label}){gap}(?=\S)", r"\1 · ", title, count=1)


def split_index(site_dir: Path, prefixes: dict[str, str]) -> None:
    """Split the merged index by language; ``prefixes`` maps a language to "" or "<lang>/"."""
    merged = private.search_index(json.loads((site_dir / INDEX).read_text("utf-8")))
    others = tuple(prefix for prefix in prefixes.values() if prefix)
    for lang, prefix in prefixes.items():

        def ours(location: str, prefix: str = prefix) -> bool:
            return location.startswith(prefix) if prefix else not location.startswith(others)

        docs = [
            {
                **doc,
                "location": doc["location"].removeprefix(prefix),
                "title": chapter_title(readable(doc["title"], lang), lang),
                "text": readable(doc["text"], lang),
            }
            for doc in merged["docs"]
            if ours(doc["location"])
        ]
        config = {**merged["config"], "lang": [lang]}  # the worker loads this language only
        path = site_dir / prefix / INDEX
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps({"config": config, "docs": docs}, ensure_ascii=False, separators=(",", ":")),
            "utf-8",
        )


def material_scripts(site_dir: Path, dirty: bool = False) -> None:
    """Material's scripts in the built site: the main bundle still fetches the index as
    ``ON_DEMAND`` expects; the search worker's query segmentation fixed
    (``markup.SEARCH_WORKER_SEGMENT``). A ``dirty`` build (the live preview) copies the
    worker only when Material's changed: one it did not copy is fixed already."""
    private.index_fetched_by_xhr(_script(site_dir, "bundle").read_text("utf-8"))
    worker = _script(site_dir, "workers/search")
    where = worker.relative_to(site_dir).as_posix()
    code = worker.read_text("utf-8")
    if dirty and not markup.SEARCH_WORKER_SEGMENT.pattern.search(code):
        return
    worker.write_text(markup.SEARCH_WORKER_SEGMENT.apply(code, 1, where), "utf-8")


def _script(site_dir: Path, name: str) -> Path:
    found = sorted((site_dir / SCRIPTS).glob(f"{name}.*.min.js"))
    if len(found) != 1:
        names = ", ".join(path.name for path in found) or "none"
        raise private.PrivateAPIChanged("search-worker", f"one {name}.*.min.js expected: {names}")
    return found[0]


ON_DEMAND = """<script>(() => {
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  let wanted;
  const ready = new Promise((resolve) => (wanted = resolve));
  XMLHttpRequest.prototype.open = function (method, url) {
    this.resdocIndex = /\\/search\\/search_index\\.json$/.test(String(url));
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (!this.resdocIndex) return send.apply(this, arguments);
    ready.then(() => send.apply(this, arguments));
  };
  if (/[?&]q=/.test(location.search)) wanted();
  document.addEventListener("keydown", (e) => "/sSfF".includes(e.key) && wanted(), true);
  document.addEventListener("DOMContentLoaded", () => {
    document.getElementById("__search")?.addEventListener("change", wanted);
    for (const type of ["focus", "pointerdown"])
      document.querySelector(".md-search__input")?.addEventListener(type, wanted);
  });
})();</script>"""


def for_page(page_html: str, prefix: str, where: str = "") -> str:
    """A page fetches its language's index (a non-default language's page gets that
    language's root as ``base``), and only once the reader opens search."""
    page_html = markup.SEARCH_ELEMENTS.apply(page_html, 2, where)
    if prefix:
        page_html = markup.with_config(
            page_html, lambda config: {**config, "base": f"{config['base']}/{prefix}"}, where
        )
    head, end_of_head, body = page_html.partition("</head>")
    return head + ON_DEMAND + end_of_head + body if end_of_head else page_html
