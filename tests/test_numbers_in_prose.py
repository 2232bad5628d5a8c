"""Numbers in the built pages' prose, both languages: written as a book writes them, and marked
only where they were measured (issue 18, items 3 and 4). These read the built HTML: cheap.

The rules themselves are tested on short strings first (each fails on the text the reader
review found), then run over every page.
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, CData, NavigableString, Tag

from tests.sites import parsed

pytestmark = pytest.mark.upstream  # its slow tests read the built site

E_NOTATION = re.compile(r"\d(?:\.\d+)?e[+-]?\d+\b")
HYPHEN_MINUS = re.compile(r"(?<![\w.)\]/\-])-\d")  # "-0.3"; not "ResNet-50", "2-3", "x-1"
DEGENERATE = re.compile(r"(?<![\d.])([\d.,]+%?)\s*[（(]\1\s*(?:[–\-]|to|至)\s*\1[）)]")
STRAY_SPACE = re.compile(r"[（(]\s|\s[）)]")
OPENING, CLOSING = "(（", ")）"
CELL_ID = re.compile(r'\bid="(cell-\d+)"')


def nested_number_brackets(text: str) -> list[str]:
    """Brackets inside brackets whose inner part holds a number ("（1.06（1.04–1.06）和…）")."""
    found, depth, starts = [], 0, []
    for index, char in enumerate(text):
        if char in OPENING:
            depth += 1
            starts.append(index)
        elif char in CLOSING and depth:
            start = starts.pop()
            if depth >= 2 and re.search(r"\d", text[start:index]):
                found.append(text[max(0, start - 30) : index + 1])
            depth -= 1
    return found


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[。！？])|(?<=[.!?])\s+(?=[A-Z])", text) if s.strip()]


def repeated_lead_in(text: str) -> list[str]:
    """A sentence whose opening clause ("默认初始化下，", "With the default init,") was just said
    in the sentence before it."""
    found = []
    sentences = _sentences(text)
    for before, sentence in zip(sentences, sentences[1:], strict=False):
        clause = re.split(r"[，,：:]", sentence, maxsplit=1)[0].strip()
        long_enough = len(clause.split()) >= 3 if clause.isascii() else len(clause) >= 4
        said = clause.lower().replace("*", "") in before.lower().replace("*", "")
        if clause != sentence and long_enough and len(clause) <= 30 and said:
            found.append(f"{before} | {sentence[:60]}")
    return found


@pytest.mark.parametrize(
    ("rule", "bad", "good"),
    [
        (E_NOTATION.findall, "a residual of 4.8e-32", "a residual of 4.8 × 10⁻³²"),
        (HYPHEN_MINUS.findall, "a shift of -0.3", "a shift of −0.3 in ResNet-50, 2-3 layers"),
        (DEGENERATE.findall, "100%（100%–100%）", "100%（98%–100%）"),
        (STRAY_SPACE.findall, "(worst block 90.4% (86.1%–93.1%) )", "(worst block 90.4%)"),
        (
            nested_number_brackets,
            "（1.06（1.04–1.06）和 0.997（0.973–1.02））",
            "（1.06，范围 1.04–1.06；见图 (a)）",
        ),
        (
            repeated_lead_in,
            "**默认初始化**下，分支很弱。默认初始化下，普通网络的梯度变小。",
            "**弱分支。** 权重方差默认是 1/(3n)。默认初始化下，普通网络的梯度变小。",
        ),
        (
            repeated_lead_in,
            "With the default init the branches are weak. With the default init, it shrinks.",
            "Weak branches. With the default init, the gradient shrinks.",
        ),
    ],
)
def test_each_rule_finds_what_the_review_found_and_nothing_in_good_prose(rule, bad, good):
    assert rule(bad)
    assert not rule(good)


# What is not prose: code, scripts, figures' drawings, formulas, the example notebooks' cells
NOT_PROSE_TAGS = {"pre", "code", "script", "style", "svg"}
NOT_PROSE_CLASSES = {"katex", "katex-display", "arithmatex", "jp-Cell"}


def _prose_pages(site: Path):
    """Every page written as prose (chapters, home, glossary...), not the example notebooks."""
    for page in sorted(site.rglob("*.html")):
        relative = page.relative_to(site).as_posix()
        if "/examples/" in f"/{relative}" or relative.startswith(("assets/", "search/")):
            continue
        article = parsed(page).select_one("article")
        if article is not None:
            yield relative, article


def _not_prose(tag: Tag) -> bool:
    return tag.name in NOT_PROSE_TAGS or not NOT_PROSE_CLASSES.isdisjoint(tag.get("class", ()))


def _prose_text(tag: Tag) -> str:
    """The tag's text with each formula or code in it read as one word (``_word_for``)."""
    parts = []
    for child in tag.children:
        if isinstance(child, NavigableString):
            if type(child) in (NavigableString, CData):  # not a comment or a doctype
                parts.append(str(child))
        elif _not_prose(child):
            # the punctuation drawn inside a formula's last piece (math.py) is the sentence's
            marks = "".join(mark.get_text() for mark in child.select(".rd-mark"))
            parts.append(_word_for(child.get_text()) + marks)
        else:
            parts.append(_prose_text(child))
    return "".join(parts)


def _word_for(formula: str) -> str:
    """A formula or code as one word of letters, the same for the same formula (so "按 1/√L
    缩放时" and "按 1/L 缩放时" differ), with no digits or minus signs for the rules to see."""
    return "".join(chr(ord("a") + int(d)) for d in str(zlib.crc32(formula.encode()) % 10**6))


def _texts(article: Tag) -> list[str]:
    blocks = article.select("p, li, td, th, figcaption, dd, h1, h2, h3, h4")
    return [" ".join(_prose_text(block).split()) for block in blocks if not _hidden(block)]


def _hidden(tag: Tag) -> bool:
    """A block inside code or a formula is not prose (its text is a word of the block around)."""
    return any(_not_prose(parent) for parent in tag.parents if parent.name != "[document]")


@pytest.fixture(scope="module")
def prose(built_site):
    return {page: (article, _texts(article)) for page, article in _prose_pages(built_site)}


@pytest.mark.slow
@pytest.mark.upstream
@pytest.mark.parametrize(
    "rule",
    [
        E_NOTATION.findall,
        HYPHEN_MINUS.findall,
        DEGENERATE.findall,
        STRAY_SPACE.findall,
        nested_number_brackets,
        repeated_lead_in,
    ],  # fmt: skip
    ids=[
        "e-notation",
        "hyphen-minus",
        "degenerate-range",
        "stray-space",
        "nested-brackets",
        "repeated-lead-in",
    ],  # fmt: skip
)
def test_no_page_breaks_a_rule_of_numbers_in_prose(prose, rule):
    broken = {
        page: hits
        for page, (_, texts) in prose.items()
        if (hits := [h for t in texts for h in rule(t)])
    }
    assert not broken, broken


@pytest.mark.slow
@pytest.mark.upstream
def test_marks_are_out_of_the_tab_order_and_link_to_a_cell_that_exists(prose, built_site):
    cells: dict[Path, set[str]] = {}
    for page, (article, _) in prose.items():
        marks = article.select(".rd-measured")
        assert all(mark.get("tabindex") == "-1" for mark in marks), page
        # a keyboard reader's Tab stops in the article: its links and controls, not its numbers
        stops = [
            tag for tag in article.select("a[href], button, input, [tabindex]")
            if tag.get("tabindex") != "-1"
        ]  # fmt: skip
        assert not [tag for tag in stops if "rd-measured" in tag.get("class", [])], page
        for mark in marks:
            target, _, anchor = mark["href"].partition("#")
            example = (built_site / page).parent.joinpath(target, "index.html").resolve()
            if example not in cells:  # a notebook page is large: its ids, not its tree
                cells[example] = set(CELL_ID.findall(example.read_text("utf-8")))
            assert anchor in cells[example], (page, mark["href"])
        if marks:  # the same cells, reachable by keyboard, at the end of the chapter
            closing = article.select_one("section.rd-provenance")
            assert closing is not None, page
            listed = {a["href"] for a in closing.select("a")}
            assert {m["href"] for m in marks} <= listed, page


SEED_COUNT = re.compile(r"^\s*(?:random seeds|seeds|个随机种子|个种子)")


def marked_seed_counts(article) -> list[str]:
    """Marks that are a seed count ("5 seeds", "5 个随机种子"): a setting, marked as measured."""
    return [
        f"{mark.get_text()}{mark.next_sibling[:20]}"
        for mark in article.select(".rd-measured")
        if isinstance(mark.next_sibling, str) and SEED_COUNT.match(mark.next_sibling)
    ]


def test_the_seed_count_rule_finds_a_marked_seed_count():
    bad = BeautifulSoup('<p>over <a class="rd-measured">5</a> seeds</p>', "html.parser")
    good = BeautifulSoup('<p>over 5 seeds: <a class="rd-measured">0.3</a></p>', "html.parser")
    assert marked_seed_counts(bad) == ["5 seeds"] and not marked_seed_counts(good)


@pytest.mark.slow
@pytest.mark.upstream
def test_settings_are_plain_text_and_tooltips_say_what_in_words(prose):
    marked = {page: found for page, (a, _) in prose.items() if (found := marked_seed_counts(a))}
    assert not marked, marked
    for page, (article, _) in prose.items():
        for mark in article.select(".rd-measured"):
            assert "torch" not in mark["title"] and "CPU" not in mark["title"], (page, mark)
