"""The machinery as stages (resdoc/sitegen/stages.py) and the builds by other generators that
use them: the configuration handed to Zensical, and the comparisons that say whether two
builds read the same (nox -s docs-zensical, nox -s docs-properdocs run the builds)."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from resdoc.sitegen import compare_sites, staged_build
from resdoc.sitegen.compare_sites import Reading, compare, compare_files

pytestmark = pytest.mark.upstream  # one test reads the built site's markup

ROOT = Path(__file__).resolve().parents[1]
ARTICLE = '<article class="md-content__inner md-typeset">{}</article>'
PAGE = ARTICLE.format(
    '<h1>Chapter 6</h1><p>Error <a class="rd-measured" href="x" title="t">0.31</a> at depth 20.'
    '</p><figure id="fig-error"><img src="e.svg"></figure><p><span class="katex">x</span></p>'
)


@pytest.mark.parametrize(
    ("page", "lang", "url"),
    [
        ("chapters/04-add-norm.zh.md", "zh", "chapters/04-add-norm/"),
        ("index.en.md", "en", ""),
        ("glossary.en.md", "en", "glossary/"),
    ],
)
def test_a_page_has_the_address_mkdocs_gives_it(page, lang, url):
    assert staged_build.page_url(page, lang) == url


def test_the_configuration_for_another_generator_keeps_the_pages_and_drops_mkdocs_machinery(
    tmp_path,
):
    config = staged_build.config_for(tmp_path)
    assert "hooks" not in config
    assert config["docs_dir"] == "docs"

    def entries(nav):
        for entry in nav:
            values = entry.values() if isinstance(entry, dict) else [entry]
            for value in values:
                yield from entries(value) if isinstance(value, list) else [str(value)]

    kept = list(entries(config["nav"]))
    assert "chapters/04-add-norm.md" in kept
    assert not [entry for entry in kept if entry.endswith(".ipynb")]
    [snippets] = [e for e in config["markdown_extensions"] if "pymdownx.snippets" in e]
    assert snippets["pymdownx.snippets"]["base_path"] == [str(ROOT)]


@pytest.mark.parametrize(
    ("change", "found"),
    [
        (("0.31", "0.32"), "numbers"),
        (('id="fig-error"', 'id="fig-other"'), "figures"),
        (('<span class="katex">x</span>', ""), "formulas"),
        (("depth 20", "depth 30"), "text"),
    ],
)
def test_a_page_that_reads_differently_is_told_apart(change, found):
    theirs = Reading.of(PAGE.replace(*change))
    assert compare_sites.differences(Reading.of(PAGE), Reading.of(PAGE)) == []
    assert [line for line in compare_sites.differences(Reading.of(PAGE), theirs) if found in line]


def test_two_sites_compared_file_by_file_count_each_change_once(tmp_path):
    for site, generator in (("a", "mkdocs"), ("b", "properdocs")):
        for page in ("index.html", "en/index.html"):
            path = tmp_path / site / page
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f'<meta name="generator" content="{generator}">\n<p>same</p>\n')
    (tmp_path / "a" / "logo.svg").write_text("<svg/>")
    report = compare_files(tmp_path / "a", tmp_path / "b")
    assert report.pages == 3
    assert sorted(report.differences) == ["en/index.html", "index.html", "logo.svg"]
    assert report.summary[0].startswith("2 file(s): -<meta")
    assert compare_files(tmp_path / "a", tmp_path / "a").same


@pytest.mark.slow
def test_the_comparison_reads_the_built_sites_markup(site, tmp_path):
    """On a page of the real site the reading finds numbers, figures and formulas, so a
    change of Material's article markup cannot make two sites read the same vacuously."""
    page = "chapters/06-degradation/index.html"
    reading = Reading.of((site / page).read_text("utf-8"))
    assert len(reading.words) > 1000
    assert reading.numbers and reading.figures and reading.formulas > 10
    for copy in ("ours", "theirs"):
        (tmp_path / copy / Path(page).parent).mkdir(parents=True)
        shutil.copyfile(site / page, tmp_path / copy / page)
    pages, prefixes = {"zh": ["chapters/06-degradation/"]}, {"zh": ""}
    assert compare(tmp_path / "ours", tmp_path / "theirs", pages, prefixes).same
    changed = tmp_path / "theirs" / page
    first = reading.numbers[0]
    html = changed.read_text("utf-8")
    marker = f">{first}</a>"
    changed.write_text(html.replace(marker, ">9.99</a>", 1), "utf-8")
    report = compare(tmp_path / "ours", tmp_path / "theirs", pages, prefixes)
    assert not report.same and "numbers" in report.text()


def test_the_hooks_leave_the_pages_to_the_stages():
    """hooks.py adapts the stages to MkDocs' events: what fills and finishes a page is in
    stages.py, so a generator without MkDocs' hooks runs the same code."""
    tree = ast.parse((ROOT / "resdoc" / "sitegen" / "hooks.py").read_text("utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "resdoc.sitegen"
        for alias in node.names
    }
    assert "stages" in imported
    assert not imported & {"apparatus", "listings", "figures", "cjk", "provenance", "citations"}
