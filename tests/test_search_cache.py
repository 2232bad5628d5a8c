"""Search entries kept between builds (resdoc/sitegen/search_cache.py): an unchanged page gets
the entries Material made for it last time without being parsed again; a changed page, or
another index configuration, is indexed anew; Material's indexing, replaced, is checked."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from material.plugins.search import plugin as material_search

from resdoc.sitegen import private, search_cache

pytestmark = pytest.mark.upstream

CONFIG = {"lang": ["en"], "separator": r"[\s\-]+", "pipeline": [], "fields": {}}


def page(content: str, url: str = "chapters/01/") -> SimpleNamespace:
    return SimpleNamespace(url=url, title="Shortcut", content=content, toc=[], meta={})


def entries(page_, config=CONFIG) -> list[dict]:
    index = material_search.SearchIndex(**config)
    index.add_entry_from_context(page_)
    return index.entries


def test_an_unchanged_page_gets_its_entries_without_being_parsed_again(tmp_path, monkeypatch):
    search_cache.install(tmp_path)
    first = entries(page("<h2 id='a'>Identity</h2><p>x plus F of x</p>"))
    assert [entry["text"] for entry in first if entry["text"]] == ["<p>x plus F of x</p>"]

    def no_parsing(*args, **kwargs):
        raise AssertionError("parsed again")

    monkeypatch.setattr(material_search, "Parser", no_parsing)
    assert entries(page("<h2 id='a'>Identity</h2><p>x plus F of x</p>")) == first


def test_a_changed_page_or_configuration_is_indexed_again(tmp_path, monkeypatch):
    search_cache.install(tmp_path)
    entries(page("<h2 id='a'>Identity</h2><p>old words</p>"))
    changed = entries(page("<h2 id='a'>Identity</h2><p>new words</p>"))
    assert [entry["text"] for entry in changed if entry["text"]] == ["<p>new words</p>"]

    parsed = []
    parser = material_search.Parser
    monkeypatch.setattr(material_search, "Parser", lambda: parsed.append(1) or parser())
    entries(page("<h2 id='a'>Identity</h2><p>new words</p>"), {**CONFIG, "separator": " "})
    assert parsed == [1]  # the same page under another configuration: parsed again


def test_materials_indexing_with_another_signature_fails_the_build_naming_it(monkeypatch):
    monkeypatch.setattr(material_search.SearchIndex, "add_entry_from_context", lambda s, p, x: 0)
    with pytest.raises(private.PrivateAPIChanged, match=r"\(search-entries: "):
        private.replace_search_indexing(search_cache._cached)
