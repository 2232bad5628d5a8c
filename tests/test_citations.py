"""Citations: every reference links to its paper, every citation to its reference, and each
reference lists the pages citing it (resdoc/sitegen/citations.py)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

import pytest

from resdoc.sitegen import citations
from resdoc.sitegen.conventions import LANGUAGES
from resdoc.sitegen.pages import PageError
from tests.sites import ROOT, parsed

pytestmark = pytest.mark.upstream

DOCS = ROOT / "docs"
PAPER = re.compile(r"https://(arxiv\.org/abs/\d{4}\.\d{4,5}|doi\.org/10\.\d{4,9}/\S+)")
ENTRY = citations.Entry(
    "he2016",
    "resnets",
    "Deep Residual Learning for Image Recognition",
    "Kaiming He et al.",
    {"zh": "CVPR, 2016", "en": "CVPR, 2016"},
    ("arXiv:1512.03385", "https://arxiv.org/abs/1512.03385"),
    ("Deep Residual Learning for Image Recognition", "ResNet paper"),
)
ENTRIES = {"he2016": ENTRY}


def test_every_reference_links_to_its_paper_by_arxiv_or_doi():
    entries = citations.load(DOCS)
    assert len(entries) >= 40
    without_id = {key for key, entry in entries.items() if not PAPER.fullmatch(entry.link[1])}
    # papers with neither an arXiv id nor a DOI: their publisher's page, and the reason, instead
    assert without_id == {"radford2018", "radford2019", "elhage2021", "glorot2010", "wang2021gptj"}
    for key in without_id:
        assert entries[key].link[1].startswith("https://")


def test_an_identifier_of_the_wrong_form_fails(tmp_path):
    (tmp_path / "references.yml").write_text(
        "g:\n  - {key: a, title: A, authors: B, venue: C, arxiv: '1512.338'}\n", "utf-8"
    )
    with pytest.raises(PageError, match="references.yml: a: arxiv '1512.338' is not an arXiv"):
        citations.load(tmp_path)


def test_the_first_citation_of_a_paper_in_each_section_links_to_its_entry():
    markdown = (
        "# 标题 { #top }\n\n《ResNet paper》一次，《ResNet paper》两次。\n\n"
        "## 一节 { #one }\n\n"
        '!!! note "《ResNet paper》"\n    正文：《Deep Residual Learning for Image Recognition》。\n\n'
        "`《不是引用》` 和 $《也不是》$\n"
    )
    found = citations.find(markdown, "zh", ENTRIES, "chapters/01-a.zh.md")
    assert [(c.line, c.section, c.linkable) for c in found] == [
        (3, "", True),
        (3, "", True),
        (7, "one", False),
        (8, "one", True),
    ]
    linked = citations.link(markdown, found, "chapters/01-a.zh.md")
    assert linked.count("](../references.md#he2016)") == 2
    assert "《[ResNet paper](../references.md#he2016)》一次，《ResNet paper》两次" in linked
    assert '!!! note "《ResNet paper》"' in linked  # no link in an admonition's title


def test_an_english_quotation_is_a_citation_only_when_it_is_a_title():
    markdown = 'He said "add, then normalize"; *ResNet paper* and “Deep Residual Learning for\nImage Recognition”.'
    found = citations.find(markdown, "en", ENTRIES, "index.en.md")
    assert [c.key for c in found] == ["he2016", "he2016"]
    assert citations.link(markdown, found, "index.en.md").count("(references.md#he2016)") == 1


def test_a_chinese_title_of_no_reference_names_the_page_and_line():
    with pytest.raises(PageError, match=r"^chapters/01-a.zh.md:3: 《An Unknown Paper》 is not"):
        citations.find("# 甲\n\n见《An Unknown\nPaper》。", "zh", ENTRIES, "chapters/01-a.zh.md")


def _docs(tmp_path: Path, zh: str, en: str) -> Path:
    (tmp_path / "references.yml").write_text(
        "resnets:\n  - key: he2016\n    title: Deep Residual Learning for Image Recognition\n"
        "    authors: Kaiming He et al.\n    venue: CVPR, 2016\n    arxiv: '1512.03385'\n",
        "utf-8",
    )
    for lang, text in (("zh", zh), ("en", en)):
        (tmp_path / f"index.{lang}.md").write_text(text, "utf-8")
        (tmp_path / f"references.{lang}.md").write_text("# R\n\n## Nets { #resnets }\n", "utf-8")
    return tmp_path


def test_twins_citing_different_papers_fail(tmp_path):
    docs = _docs(
        tmp_path, "# 首页\n\n《Deep Residual Learning for Image Recognition》\n", "# Home\n"
    )
    with pytest.raises(PageError, match=r"index: its languages cite different papers"):
        citations.Bibliography.read(docs, "zh")


def test_a_reference_cited_nowhere_fails(tmp_path):
    docs = _docs(tmp_path, "# 首页\n", "# Home\n")
    with pytest.raises(PageError, match="no page cites he2016"):
        citations.Bibliography.read(docs, "en")


def test_a_reference_lists_the_pages_citing_it(tmp_path):
    title = "Deep Residual Learning for Image Recognition"
    docs = _docs(
        tmp_path,
        f"# 首页\n\n## 甲 {{ #a }}\n\n《{title}》\n",
        f'# Home\n\n## A {{ #a }}\n\n"{title}"\n',
    )
    bibliography = citations.Bibliography.read(docs, "en")
    page = bibliography.linked((docs / "references.en.md").read_text("utf-8"), "references.en.md")
    assert "### Deep Residual Learning for Image Recognition { #he2016 }" in page
    assert (
        "Kaiming He et al. CVPR, 2016. [arXiv:1512.03385](https://arxiv.org/abs/1512.03385)  \n"
        "Cited in: [Home](index.md#a)."
    ) in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sites_pages_cite_only_references_and_every_reference_is_cited(lang):
    """What the build checks, without building: it would stop at the first problem."""
    bibliography = citations.Bibliography.read(DOCS, lang)
    assert all(bibliography.cited.values())


# --- the built site ------------------------------------------------------------------------


def _entries_on_page(site: Path, prefix: str) -> dict:
    page = parsed(site / prefix / "references" / "index.html")
    return {h3["id"]: h3.find_next_sibling("p") for h3 in page.select("article h3[id]")}


@pytest.mark.slow
@pytest.mark.parametrize("prefix", ["", "en/"])
def test_every_reference_on_the_page_links_out_once(site, prefix):
    entries = citations.load(DOCS)
    shown = _entries_on_page(site, prefix)
    assert set(shown) == set(entries)
    for key, paragraph in shown.items():
        outside = [a["href"] for a in paragraph.select("a[href^='https://']")]
        assert outside == [entries[key].link[1]], key


def _links_to_references(site: Path, prefix: str) -> dict[str, set[str]]:
    """Every built page of one language (but the references page): the entries it links to."""
    found = {}
    root = site / prefix
    for page in sorted(root.rglob("index.html")):
        where = page.relative_to(root).parent.as_posix()
        if where.split("/")[0] in ("en", "references", "examples"):
            continue  # another language, the references themselves, pages without citations
        url = urljoin("http://s/", f"{where}/" if where != "." else "")
        keys = {
            urljoin(url, a["href"]).partition("#")[2]
            for a in parsed(page).select("article a[href*='references/#']")
        }
        found["" if where == "." else f"{where}/"] = keys
    return found


@pytest.mark.slow
@pytest.mark.parametrize("prefix", ["", "en/"])
def test_cited_in_lists_are_the_pages_linking_to_the_reference(site, prefix):
    shown = _entries_on_page(site, prefix)
    links = _links_to_references(site, prefix)
    for key, paragraph in shown.items():
        listed = {
            urljoin("http://s/references/", a["href"]).removeprefix("http://s/").partition("#")[0]
            for a in paragraph.select("a:not([href^='https://'])")
        }
        linking = {page for page, keys in links.items() if key in keys}
        assert listed == linking, key
        assert listed, f"{key}: cited nowhere"
