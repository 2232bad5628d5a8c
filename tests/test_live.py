"""The live preview builds again what an edit changed (resdoc/sitegen/live.py): the edited
page and its twin, every page when what they share or show of each other changed."""

import json
import os
import time
from types import SimpleNamespace

import pytest
from mkdocs.structure.files import File, Files

from resdoc.sitegen import live
from resdoc.sitegen.markup import MarkupChanged

LANGUAGES = ("zh", "en")


@pytest.fixture
def project(tmp_path):
    """docs/ with two pages in both languages, built once (each page older than its output)."""
    docs, site, cache = tmp_path / "docs", tmp_path / "site", tmp_path / "cache"
    for page, title in (("a", "Alpha"), ("b", "Beta")):
        for lang in LANGUAGES:
            path = docs / f"{page}.{lang}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"# {title} {lang}\n\ntext\n", "utf-8")
    (docs / "assets").mkdir()
    (docs / "assets" / "extra.css").write_text("p {}\n", "utf-8")
    (cache / "examples" / "demo").mkdir(parents=True)
    (cache / "examples" / "demo" / "results.json").write_text("{}", "utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", "utf-8")

    def pages(lang):
        files = Files(
            [File(f"{page}.{lang}.md", str(docs), str(site), True) for page in ("a", "b")]
        )
        live.rebuild_what_changed(files, tmp_path, docs, cache, lang, LANGUAGES, {})
        return {file.src_uri.split(".")[0]: file for file in files}

    def build(files):
        for file in files.values():
            os.makedirs(os.path.dirname(file.abs_dest_path), exist_ok=True)
            with open(file.abs_dest_path, "w", encoding="utf-8") as page:
                page.write("built")
            later(file.abs_dest_path)

    return SimpleNamespace(root=tmp_path, docs=docs, cache=cache, pages=pages, build=build)


CLOCK = [time.time()]


def later(path):
    """``path`` written again, seconds after anything written before."""
    CLOCK[0] = max(CLOCK[0], time.time()) + 10  # the tests before may have taken a while
    os.utime(path, (CLOCK[0], CLOCK[0]))


def modified(files):
    return sorted(name for name, file in files.items() if file.is_modified())


def test_the_first_build_builds_everything_and_the_next_only_what_changed(project):
    first = project.pages("zh")
    assert modified(first) == ["a", "b"]
    project.build(first)
    assert modified(project.pages("zh")) == []


def test_an_edited_page_is_built_again_in_both_languages(project):
    project.build(project.pages("zh"))
    project.build(project.pages("en"))
    later(project.docs / "a.zh.md")
    assert modified(project.pages("zh")) == ["a"]
    assert modified(project.pages("en")) == ["a"]  # its twin says whether it is behind


@pytest.mark.parametrize(
    "shared", ["docs/assets/extra.css", "cache/examples/demo/results.json", "mkdocs.yml"]
)
def test_a_change_to_what_every_page_shares_builds_every_page(project, shared):
    project.build(project.pages("zh"))
    later(project.root / shared)
    assert modified(project.pages("zh")) == ["a", "b"]


def test_a_new_title_builds_every_page_since_every_page_shows_it(project):
    project.build(project.pages("zh"))
    (project.docs / "b.zh.md").write_text("# Gamma zh\n\ntext\n", "utf-8")
    later(project.docs / "b.zh.md")
    assert modified(project.pages("zh")) == ["a", "b"]
    project.build(project.pages("zh"))
    assert modified(project.pages("zh")) == []


def test_a_page_not_built_again_keeps_the_title_it_had(project):
    files = project.pages("zh")
    for name, file in files.items():
        file.page = SimpleNamespace(title=f"{name} · numbered")
    live.keep_titles(Files(list(files.values())), "zh", dirty=True)
    project.build(files)
    again = project.pages("zh")
    for file in again.values():
        file.page = SimpleNamespace(title=None)  # what MkDocs has of a page it did not read
    live.keep_titles(Files(list(again.values())), "zh", dirty=True)
    assert [file.page.title for file in again.values()] == ["a · numbered", "b · numbered"]


def test_the_previews_search_index_keeps_the_pages_not_built_again(tmp_path, monkeypatch):
    monkeypatch.setattr(live, "_entries", {})
    index = tmp_path / "search_index.json"

    def built(*docs):
        entries = [{"location": loc, "title": loc, "text": text} for loc, text in docs]
        index.write_text(json.dumps({"config": {}, "docs": entries}), "utf-8")
        live.complete_search_index(index)
        return [(d["location"], d["text"]) for d in json.loads(index.read_text("utf-8"))["docs"]]

    first = built(("", "home"), ("a/", "alpha"), ("a/#part", "old part"), ("en/a/", "alpha"))
    assert first == [("", "home"), ("a/", "alpha"), ("a/#part", "old part"), ("en/a/", "alpha")]
    # page a/ built again without its section: the section goes, the other pages stay
    assert built(("a/", "alpha, edited")) == [
        ("", "home"),
        ("a/", "alpha, edited"),
        ("en/a/", "alpha"),
    ]


def test_a_dirty_build_leaves_the_search_worker_it_fixed_before(tmp_path):
    from resdoc.sitegen import search
    from tests.test_search import _installed_material_script

    scripts = tmp_path / search.SCRIPTS
    (scripts / "workers").mkdir(parents=True)
    (scripts / "bundle.0.min.js").write_text(_installed_material_script("bundle"), "utf-8")
    worker = scripts / "workers" / "search.0.min.js"
    worker.write_text(_installed_material_script("workers/search"), "utf-8")
    search.material_scripts(tmp_path)
    fixed = worker.read_text("utf-8")
    search.material_scripts(tmp_path, dirty=True)  # not copied again: fixed already
    assert worker.read_text("utf-8") == fixed
    with pytest.raises(MarkupChanged):  # a full build finds it unfixable: it changed
        search.material_scripts(tmp_path)
