"""The real site, built from a copy of the project: both languages, example pages, figures, cache."""

import json
import re

import pytest
from bs4 import BeautifulSoup

from resdoc.sitegen.redirects import MOVED
from resdoc.sitegen.script import read_cells
from tests.sites import build, executions, parsed

pytestmark = [pytest.mark.slow, pytest.mark.upstream]


@pytest.fixture
def project(built_project):
    return built_project


def examples(root):
    return sorted(p.stem for p in (root / "examples").glob("*.py"))


def html(root, path):
    return (root / "site" / path).read_text("utf-8")


def test_every_example_ran_exactly_once_for_both_languages(project):
    assert sorted(executions(project / ".cache" / "resdoc")) == examples(project)


def test_second_build_executes_only_the_example_whose_outputs_are_gone(rebuilt):
    """The second build (tests/conftest.py) reuses the first one's cache, less one example's
    outputs: that example runs again, no other (a cache that wrongly thinks an example is
    stale runs it here)."""
    assert rebuilt.result.returncode == 0, rebuilt.result.stderr[-5000:]
    first = executions(rebuilt.project / ".cache" / "resdoc")
    assert executions(rebuilt.cache) == [*first, rebuilt.rerun]


def test_both_languages_have_every_page(project):
    for page in project.glob("docs/**/*.zh.md"):
        rel = page.relative_to(project / "docs").as_posix().removesuffix(".zh.md")
        folder = "" if rel == "index" else f"{rel}/"
        zh, en = html(project, f"{folder}index.html"), html(project, f"en/{folder}index.html")
        assert '<html lang="zh-CN"' in zh and '<html lang="en"' in en


@pytest.mark.parametrize(("lang_prefix", "label"), [("", "第 {n} 章"), ("en/", "Chapter {n}")])
def test_chapters_show_their_number_in_heading_title_and_nav(project, lang_prefix, label):
    site = project / "site" / lang_prefix
    home_nav = [
        a.get_text(" ", strip=True) for a in parsed(site / "index.html").select(".md-nav a")
    ]
    for folder in ("chapters", "examples"):
        for page_dir in sorted((site / folder).iterdir()):
            page = parsed(page_dir / "index.html")
            if page.find("meta", attrs={"http-equiv": "refresh"}):
                continue  # an old address (tests above)
            n = int(page_dir.name[:2])
            title = page.title.string
            assert title.startswith(f"{n} · "), (page_dir, title)
            assert f"{n} · {title.removeprefix(f'{n} · ').split(' - ')[0]}" in home_nav, page_dir
            if folder == "chapters":
                kicker = page.select_one("h1 .rd-chapter-number")
                assert kicker is not None and kicker.get_text() == label.format(n=n), page_dir


@pytest.mark.parametrize("lang_prefix", ["", "en/"])
def test_every_moved_page_sends_the_reader_to_its_new_address(project, lang_prefix):
    site = project / "site"
    for old, new in MOVED.items():
        page = parsed(site / lang_prefix / old / "index.html")
        refresh = page.find("meta", attrs={"http-equiv": "refresh"})["content"]
        target = (site / lang_prefix / old / refresh.partition("url=")[2]).resolve()
        assert target == (site / lang_prefix / new).resolve(), (old, refresh)
        assert (target / "index.html").is_file()
        assert page.find("a")["href"] == refresh.partition("url=")[2]


@pytest.mark.parametrize("lang_prefix", ["", "en/"])
def test_example_pages_are_rendered_notebooks_in_both_languages(project, lang_prefix):
    for name in examples(project):
        page = html(project, f"{lang_prefix}examples/{name}/index.html")
        assert 'class="jupyter-wrapper"' in page  # rendered by mkdocs-jupyter, not a copied .py
        assert "# %%" not in page
        if "publish.figure(" in page:
            shown = parsed(project / "site" / f"{lang_prefix}examples/{name}/index.html")
            figures = shown.select(".rd-figure-art picture img")
            assert figures  # each figure in its variants (resdoc/sitegen/figures.py)
            assert all(img["src"].startswith("../../figures/") and img["alt"] for img in figures)
        for download in (f"{name}.py", f"{name}.ipynb"):
            assert (project / "site" / f"{lang_prefix}examples/{name}" / download).is_file()


@pytest.mark.parametrize("lang_prefix", ["", "en/"])
def test_every_code_cell_is_anchored_at_the_script_line_its_code_starts(project, lang_prefix):
    """``id="cell-<N>"``: the cell's code starts at line N of examples/<name>.py (the anchor
    measured numbers link to). Its copy button copies exactly that cell's code."""
    for name in examples(project):
        page = parsed(project / "site" / f"{lang_prefix}examples/{name}/index.html")
        ids = [element["id"] for element in page.select("[id]")]
        assert len(ids) == len(set(ids)), name
        script = {c.first_line: c.source for c in read_cells(project / "examples" / f"{name}.py")}
        cells = page.select(".jp-CodeCell[id]")
        assert cells, name
        for cell in cells:
            line = int(cell["id"].removeprefix("cell-"))
            copied = page.find(id=cell.select_one("clipboard-copy")["for"]).get_text()
            assert copied == script[line], (name, line)


@pytest.mark.parametrize("lang_prefix", ["", "en/"])
def test_example_pages_fold_the_bookkeeping_and_print_in_their_language(project, lang_prefix):
    for name in examples(project):
        page = parsed(project / "site" / f"{lang_prefix}examples/{name}/index.html")
        code = page.select(".jp-InputArea pre")
        folded = "".join(pre.get_text() for pre in code if pre.find_parent("details"))
        shown = "".join(pre.get_text() for pre in code if not pre.find_parent("details"))
        assert "publish.claim(" in folded and "publish.claim(" not in shown, name
        assert "publish.setting(" not in shown, name  # settings are bookkeeping too
        printed = " ".join(p.get_text() for p in page.select(".jp-OutputArea pre"))
        chinese = re.search(r"[\u4e00-\u9fff]", printed)
        assert bool(chinese) == (lang_prefix == ""), (name, printed[:300])


def test_figures_exist_per_language_and_differ(project):
    figures = sorted((project / "site" / "figures").rglob("*.svg"))
    assert figures
    for zh in figures:
        en = project / "site" / "en" / zh.relative_to(project / "site")
        assert en.is_file() and en.read_bytes() != zh.read_bytes()


def test_no_placeholder_left_and_numbers_filled(project):
    for page in (project / "site").rglob("*.html"):
        assert "{{ result:" not in page.read_text("utf-8"), page
    seed_output = html(project, "chapters/00-python-demo/index.html")
    assert re.search(r"depth=20 with_residual grad_norm=\d+\.\d{4}", seed_output)


def test_published_address_comes_from_the_environment(project):
    """The Pages workflow sets RESDOC_SITE_URL; a local build names no address at all."""
    assert 'rel="canonical"' not in html(project, "chapters/01-shortcut/index.html")
    repo = "https://git.example.test/owner/resdoc"
    result = build(
        project, site_url="https://example.test/resdoc/", site_dir="published", repo_url=repo
    )
    assert result.returncode == 0, result.stderr
    page = (project / "published" / "en" / "chapters" / "01-shortcut" / "index.html").read_text(
        "utf-8"
    )
    canonical = "https://example.test/resdoc/en/chapters/01-shortcut/"
    assert f'<link rel="canonical" href="{canonical}">' in page
    sitemap = (project / "published" / "sitemap.xml").read_text("utf-8")
    assert f"<loc>{canonical}</loc>" in sitemap
    for name in examples(project):  # example pages too, each with its twin
        zh, en = (f"https://example.test/resdoc/{prefix}examples/{name}/" for prefix in ("", "en/"))
        assert f"<loc>{zh}</loc>" in sitemap and f"<loc>{en}</loc>" in sitemap
        assert f'<xhtml:link rel="alternate" hreflang="en" href="{en}"/>' in sitemap
    # the language switcher stays relative: the site works under the address's sub-path
    assert '<a href="../../../chapters/01-shortcut/" hreflang="zh"' in page
    # the repository, from RESDOC_REPO_URL: linked in the header, nothing fetched from its host
    links = BeautifulSoup(page, "html.parser").select("a.md-source")
    assert [a["href"] for a in links] == [repo, repo]  # header and navigation drawer
    assert 'data-md-component="source"' not in page
    example = (project / "published" / "examples" / "02-addition" / "index.html").read_text("utf-8")
    assert f"git clone {repo}" in example
    local = html(project, "examples/02-addition/index.html")
    assert 'class="md-source"' not in local and "git clone" not in local and "pip install" in local


def test_pages_request_nothing_outside_the_site(project):
    fetched = "script[src], img[src], iframe[src], source[src], link[href]:not([rel=canonical])"
    for page in (project / "site").rglob("*.html"):
        for element in parsed(page).select(fetched):
            url = element.get("src") or element.get("href")
            assert not re.match(r"(https?:)?//", url), f"{page}: {element}"
    assert (project / "site" / "assets" / "katex" / "katex.min.css").is_file()
    assert not (project / "site" / "assets" / "katex" / "katex.min.js").exists()  # typeset at build
    assert len(list((project / "site" / "assets" / "katex" / "fonts").glob("*.woff2"))) >= 20


def test_language_switcher_leads_to_the_same_page(project):
    zh = html(project, "chapters/00-python-demo/index.html")
    assert re.search(r'href="[./]*en/chapters/00-python-demo/"[^>]*hreflang="en"', zh)
    en = html(project, "en/examples/00-python-demo/index.html")
    assert re.search(r'href="[./]*examples/00-python-demo/"[^>]*hreflang="zh"', en)


def test_chinese_search_index_is_segmented(project):
    index = json.loads(html(project, "search/search_index.json"))
    text = " ".join(doc["text"] for doc in index["docs"])
    # jieba splits sentences into words with zero-width spaces, so mid-sentence words match
    assert "\u200b梯度\u200b" in text or "\u200b梯度" in text
