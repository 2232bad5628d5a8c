"""What a warm build keeps from the last one (resdoc/sitegen/warm.py): kept by what made it,
made again when any of that changed, never half-written."""

import json

import pytest

from resdoc.sitegen import math, warm
from tests.sites import ROOT


def test_a_kept_result_is_recalled_only_with_the_key_it_was_kept_with(tmp_path):
    path = tmp_path / "kept" / "page.json"
    made_of = warm.key("notebook", b"html", "zh")
    assert warm.recall(path, made_of) is None  # nothing kept yet
    warm.keep(path, made_of, {"body": "<p>a</p>"})
    assert warm.recall(path, made_of) == {"body": "<p>a</p>"}
    assert warm.recall(path, warm.key("notebook", b"html", "en")) is None
    assert warm.recall(path, warm.key("notebook", b"html2", "zh")) is None
    assert [p.name for p in path.parent.iterdir()] == ["page.json"]  # no partial left behind
    path.write_text('{"made_of": ', "utf-8")  # a file cut short is not a result
    assert warm.recall(path, made_of) is None


def test_the_key_changes_with_the_machinerys_sources(monkeypatch, tmp_path):
    before = warm.key("page")
    (tmp_path / "hooks.py").write_text("x = 1\n", "utf-8")
    monkeypatch.setattr(warm, "MACHINERY", tmp_path)
    warm.machinery.cache_clear()
    try:
        changed = warm.key("page")
        (tmp_path / "hooks.py").write_text("x = 2\n", "utf-8")
        warm.machinery.cache_clear()
        assert len({before, changed, warm.key("page")}) == 3
    finally:
        warm.machinery.cache_clear()


@pytest.mark.skipif(not (ROOT / "node_modules" / "katex").is_dir(), reason="npm ci first")
def test_formulas_typeset_once_are_kept_and_the_next_build_uses_them(tmp_path):
    formulas = [("x_l + \\mathcal{F}(x_l)", False), ("I + J", True)]
    first = math.Katex(ROOT, tmp_path)
    try:
        typeset = first.render(formulas, "p.md")
        first.keep()
    finally:
        first.close()
    kept = json.loads((tmp_path / "katex.json").read_text("utf-8"))["value"]
    assert sorted((tex, display) for tex, display, _ in kept) == sorted(formulas)
    # the next build's KaTeX answers from what was kept: the node process is not asked
    second = math.Katex(ROOT, tmp_path)
    second.close()
    assert second.render(formulas, "p.md") == typeset
    with pytest.raises(ValueError):  # a formula not kept needs the (closed) process
        second.render([("y", False)], "p.md")
