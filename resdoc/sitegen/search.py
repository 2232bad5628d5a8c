"""One search index per language, so a reader downloads only their own language's.

Material's search plugin writes one ``search/search_index.json``; mkdocs-static-i18n fills it
with the pages of every language, and every page fetches it (about half the bytes of a
first visit). After the last language's pass, the index is split by the language of each
entry's address: the default language's stays at ``search/``, another language's goes to
``<lang>/search/`` with addresses relative to ``<lang>/``. A page finds the index, and
resolves the addresses of results, from the ``base`` of Material's ``__config``; a page of
another language gets ``<base>/<lang>/`` (the slash matters: Material resolves the index
and every result against it). Only search uses ``base`` with the features this
site turns on (no versions, no instant navigation).

Material fetches the index as soon as a page loads, whether or not the reader searches. A
small script in the head (``ON_DEMAND``) holds that one request back until the reader opens
search: clicks or focuses the search field, or presses one of Material's search keys, or
arrives with a query (``?q=``). Material has no option for it; the script relies only on
the index being fetched with XMLHttpRequest, and if that changes, the index simply loads
early again. A query typed before the index arrives runs once it is ready.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

INDEX = Path("search") / "search_index.json"
_BASE = re.compile(
    r'(<script id="__config" type="application/json">\{"annotate": [^,]*, "base": ")([^"]*)"'
)


def split_index(site_dir: Path, prefixes: dict[str, str]) -> None:
    """Split the merged index by language; ``prefixes`` maps a language to "" or "<lang>/"."""
    merged = json.loads((site_dir / INDEX).read_text("utf-8"))
    others = {lang: prefix for lang, prefix in prefixes.items() if prefix}
    for lang, prefix in prefixes.items():
        if prefix:
            docs = [
                {**doc, "location": doc["location"].removeprefix(prefix)}
                for doc in merged["docs"]
                if doc["location"].startswith(prefix)
            ]
            config = {**merged["config"], "lang": [lang]}
        else:
            docs = [
                doc
                for doc in merged["docs"]
                if not any(doc["location"].startswith(p) for p in others.values())
            ]
            config = merged["config"]
        path = site_dir / prefix / INDEX
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps({"config": config, "docs": docs}, ensure_ascii=False, separators=(",", ":")),
            "utf-8",
        )


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


def for_page(page_html: str, prefix: str) -> str:
    """A page fetches its language's index (a non-default language's page gets that
    language's root as ``base``), and only once the reader opens search."""
    if prefix:
        page_html = _BASE.sub(lambda m: f'{m[1]}{m[2]}/{prefix}"', page_html, count=1)
    head, end_of_head, body = page_html.partition("</head>")
    return head + ON_DEMAND + end_of_head + body if end_of_head else page_html
