"""Both languages say the same thing: twins, same structure, no translation left behind."""

import pytest

from resdoc.sitegen.translations import (
    ROOT_DOCS,
    check,
    lagging_pages,
    missing_twins,
    structure,
    sync,
)


def test_the_site_has_every_twin_the_same_structure_and_no_translation_behind():
    assert check(ROOT_DOCS) == []


def test_structure_lists_anchors_formulas_figures_snippets_and_placeholders_in_order():
    page = (
        "# T { #top }\n\n$$a+b$$\n\n![x](../figures/e/f.svg)\n\n"
        '```python\n--8<-- "resdoc/m.py:s"\n```\n\n{{ result:e/k }} {{ claim:e/c }} {{ result:e/j }}\n'
    )
    assert structure(page) == {
        "anchor": ["top"],
        "formula": ["a+b"],
        "figure": ["../figures/e/f.svg"],
        "snippet": ["resdoc/m.py:s"],
        "placeholder": ["result:e/k", "claim:e/c", "result:e/j"],
    }


@pytest.fixture
def docs(tmp_path):
    (tmp_path / "p.zh.md").write_text("# 页 { #p }\n\n{{ result:e/k }}\n", "utf-8")
    (tmp_path / "p.en.md").write_text("# Page { #p }\n\n{{ result:e/k }}\n", "utf-8")
    sync(tmp_path, ["p"])
    return tmp_path


def test_a_change_to_one_side_puts_the_other_behind(docs):
    assert lagging_pages(docs) == {}
    (docs / "p.zh.md").write_text("# 页 { #p }\n\n新的一段。{{ result:e/k }}\n", "utf-8")
    assert lagging_pages(docs) == {"p": "en"}
    assert any("p.en.md: translation is behind" in problem for problem in check(docs))
    (docs / "p.en.md").write_text("# Page { #p }\n\nA new paragraph. {{ result:e/k }}\n", "utf-8")
    assert lagging_pages(docs) == {}  # both changed: no notice for readers ...
    assert any(
        "both changed" in problem for problem in check(docs)
    )  # ... but the check asks for a sync
    sync(docs, ["p"])
    assert check(docs) == []


def test_different_structure_is_reported(docs):
    (docs / "p.en.md").write_text("# Page { #page }\n\n{{ result:e/k }}\n", "utf-8")
    assert any("anchors differ" in problem for problem in check(docs))


def test_a_page_without_its_twin_is_reported(docs):
    (docs / "q.zh.md").write_text("# 只有中文\n", "utf-8")
    assert missing_twins(docs) == [f"{docs / 'q.zh.md'}: no en twin (expected q.en.md)"]
