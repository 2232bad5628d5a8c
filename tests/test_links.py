"""Links of the built site: no broken internal link or anchor; external links listed and well-formed."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from tests.sites import parsed

pytestmark = [pytest.mark.slow, pytest.mark.upstream]
BASE = "http://site.invalid/"


@cache
def ids(path: Path) -> frozenset[str]:
    """Every id in the page (one pass, not one search of the whole tree per link)."""
    return frozenset(element["id"] for element in parsed(path).select("[id]"))


def target_file(site: Path, url: str) -> Path:
    path = site / unquote(urlsplit(url).path.removeprefix("/"))
    return path / "index.html" if url.endswith("/") or path.is_dir() else path


def links(site: Path):
    for page in sorted(site.rglob("*.html")):
        page_url = BASE + page.relative_to(site).as_posix()
        for anchor in parsed(page).select("a[href]"):
            yield page, urljoin(page_url, anchor["href"])


def test_every_internal_link_and_anchor_resolves(site):
    broken = []
    for page, url in links(site):
        if not url.startswith(BASE):
            continue
        target = target_file(site, url[len(BASE) - 1 :])
        fragment = urlsplit(url).fragment
        if not target.is_file():
            broken.append(f"{page.relative_to(site)} -> {url[len(BASE) :]}: no such file")
        elif fragment and target.suffix == ".html" and unquote(fragment) not in ids(target):
            broken.append(f"{page.relative_to(site)} -> {url[len(BASE) :]}: no anchor #{fragment}")
    assert broken == []


def test_external_links_are_listed_and_well_formed(site, capsys):
    external = sorted({url for _, url in links(site) if not url.startswith(BASE)})
    malformed = [
        url
        for url in external
        if not (re.match(r"^https?://[^/\s]+\.[^/\s]+", url) or url.startswith("mailto:"))
    ]
    with capsys.disabled():
        print(f"\nexternal links ({len(external)}, not fetched):", *external, sep="\n  ")
    assert malformed == []
