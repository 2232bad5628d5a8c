"""The site's voice: one name per concept, one spelling, cross-references to the chapter that
defines the term, and the English gloss where the glossary asks for it (resdoc/sitegen/voice.py)."""

import shutil

import pytest

from resdoc.sitegen import voice
from resdoc.sitegen.voice import Text

TERMS = voice.glossary()
TABLES = {lang: voice.usage(lang) for lang in ("zh", "en")}


def term(name: str) -> voice.Term:
    return next(t for t in TERMS if name in t.names["zh"] or name in t.names["en"])


def test_the_glossary_gives_each_term_its_chapter_rejected_variants_and_boldness():
    assert term("Pre-LN").chapter == 4 and term("前馈网络").chapter == 8
    assert set(term("最终层归一化").rejects["zh"]) == {
        "最后一个层归一化",
        "最后的层归一化",
        "最终的层归一化",
    }
    assert term("final LayerNorm").rejects["en"] == ("final layer norm",)
    assert term("评估模式").rejects["zh"] == ("测试模式",)
    assert term("扇入").rejects["zh"] == ("fan_in",)  # "（代码之外）" is a note for people
    bold = {t.names["zh"][0] for t in TERMS if t.everywhere}
    assert bold == {"残差连接", "快捷路径", "分支", "残差块", "评估模式"}
    assert ("小批量", ("小批次",)) in TABLES["zh"]
    assert ("towards", ("toward",)) in TABLES["en"]


def findings_for(sentence: str, lang: str, where: str = "docs/chapters/05-x.zh.md:3") -> list[str]:
    return voice.variant_findings(
        [Text(where, lang, sentence)], TERMS, TABLES, ["Towards the Identity"]
    )


@pytest.mark.parametrize(
    ("sentence", "lang", "found"),
    [
        ("每个小批次训练一个子网络", "zh", "'小批次' → '小批量'"),
        ("Pre-LN 需要最后一个层归一化", "zh", "'最后一个层归一化' → '最终层归一化'"),
        ("它像以块为单位的 dropout", "zh", "'dropout' → '暂退法'"),
        ("$n$ 为 fan_in", "zh", "'fan_in' → '扇入'"),
        ("以测试模式计算", "zh", "'测试模式' → '评估模式'"),
        ("Xiong et al. analyse Pre-LN", "en", "'analyse' → 'analyze'"),
        ("it grows toward the input", "en", "'toward' → 'towards'"),
        ("What does the “1” guarantee?", "en", "'“' → '\"straight quotes\"'"),
        ("Pre-LN's final layer norm", "en", "'final layer norm' → 'final LayerNorm'"),
    ],
)
def test_a_planted_variant_is_found_with_the_word_to_write(sentence, lang, found):
    problems = findings_for(sentence, lang)
    assert problems and problems[0].startswith(f"docs/chapters/05-x.zh.md:3: {found}"), problems


@pytest.mark.parametrize(
    ("sentence", "lang"),
    [
        ("它像以块为单位的暂退法（dropout）", "zh"),  # the gloss of the term
        ("每个小批量训练一个子网络，按主题排列，从大到小排列", "zh"),  # 排列 in its own sense
        ('"Batch Normalization Biases Residual Blocks Towards the Identity"', "en"),  # a title
        ("Post-LN's last-layer gradient grows towards the output", "en"),
    ],
)
def test_glosses_other_senses_and_cited_titles_are_not_variants(sentence, lang):
    assert findings_for(sentence, lang) == []


def test_the_variants_are_found_in_claims_and_figure_descriptions_too():
    where = {text.where.split(" ", 1)[-1] for text in voice.texts() if " " in text.where}
    assert any(w.startswith("claim ") for w in where) and any(
        w.startswith("figure ") for w in where
    )


SURNAMES = {"Zhang", "Sennrich", "Huang", "Dong", "He", "Veit"}


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        ("Zhang 和 Sennrich 认为", "'Zhang 和 Sennrich' → 'Zhang 与 Sennrich'"),
        ("（Huang 等人，2016）", "'Huang 等人，2016' → 'Huang 等，'"),
        ("Dong 等（2021）证明", "'Dong 等' → 'Dong 等人'"),
    ],
)
def test_authors_are_joined_by_yu_and_et_al_follows_its_place(sentence, found):
    problems = voice.author_findings([Text("p.zh.md:1", "zh", sentence)], SURNAMES)
    assert len(problems) == 1 and problems[0].startswith(f"p.zh.md:1: {found}"), problems


@pytest.mark.parametrize(
    "sentence",
    [
        "Zhang 与 Sennrich 认为",
        "（He 等，《Deep Residual Learning》，2016）",
        "Veit 等人（2016）的结论",
    ],
)
def test_well_placed_authors_are_not_findings(sentence):
    assert voice.author_findings([Text("p.zh.md:1", "zh", sentence)], SURNAMES) == []


@pytest.mark.parametrize(
    ("sentence", "lang", "wrong"),
    [
        ("每个分支前先做层归一化（Pre-LN，第 9 章）", "zh", True),
        ("每个分支前先做层归一化（Pre-LN，第 4 章）", "zh", False),
        ("前馈网络（FFN，第 8 章）", "zh", False),
        ("FFN 多用 SwiGLU（第 8 章）", "zh", False),
        ("序列反转（第 4 章的任务）", "zh", False),  # a chapter cited for no term
        ("a LayerNorm before each branch (Pre-LN, chapter 9)", "en", True),
        ("in Post-LN ([chapter 9](09-transformer-block.md#x))", "en", True),
        ("in Post-LN ([chapter 4](04-add-norm.md#two-orders))", "en", False),
    ],
)
def test_a_cross_reference_must_name_the_chapter_defining_its_term(sentence, lang, wrong):
    problems = voice.crossref_findings([Text("p.md:1", lang, sentence)], TERMS)
    assert bool(problems) == wrong, problems
    if wrong:
        assert "which chapter 4 defines" in problems[0]


def chapter_lines(*lines: tuple[str, str]) -> list[Text]:
    return [Text(where, "zh", raw, raw) for where, raw in lines]


def test_a_bold_term_is_glossed_at_its_first_use_in_every_chapter():
    lines = chapter_lines(
        ("docs/chapters/01-a.zh.md:3", "残差块（residual block）的代码。残差块很短。"),
        ("docs/chapters/02-b.zh.md:5", "## 残差块 { #block }"),  # a heading: not the first use
        ("docs/chapters/02-b.zh.md:7", "残差块的输出是和。"),
    )
    assert voice.gloss_findings(lines, TERMS) == [
        "docs/chapters/02-b.zh.md:7: the chapter's first '残差块' has no English: "
        "write 残差块（residual block）"
    ]


def test_a_term_is_glossed_in_the_first_chapter_using_it_and_in_the_one_defining_it():
    lines = chapter_lines(  # 前馈网络 is defined in chapter 8
        ("docs/chapters/02-b.zh.md:3", "前馈网络（feed-forward network）返回同样的维度。"),
        ("docs/chapters/04-c.zh.md:3", "前馈网络的权重。"),  # neither first nor defining: fine
        ("docs/chapters/08-ffn.zh.md:9", "前馈网络先升维再降维。"),
    )
    assert voice.gloss_findings(lines, TERMS) == [
        "docs/chapters/08-ffn.zh.md:9: the chapter's first '前馈网络' has no English: "
        "write 前馈网络（feed-forward network）"
    ]


def test_the_site_passes_every_check_of_its_voice():
    """Each finding names the page and line (or the claim) and what to write instead."""
    assert voice.findings() == {
        "variants": [],
        "authors": [],
        "cross-references": [],
        "glosses": [],
    }


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A copy of the pages and examples to plant mistakes in (the checks read only these)."""
    root = tmp_path_factory.mktemp("voice")
    for folder in ("docs", "examples"):
        shutil.copytree(voice.prose.ROOT / folder, root / folder)
    return root


@pytest.mark.parametrize(
    ("path", "old", "new", "rule", "found"),
    [
        (
            "docs/chapters/05-going-deeper.zh.md",
            "每个小批量训练的是",
            "每个小批次训练的是",
            "variants",
            "docs/chapters/05-going-deeper.zh.md:{line}: '小批次' → '小批量'",
        ),
        (
            "docs/chapters/04-add-norm.en.md",
            "Xiong et al. (2020) analyze Pre-LN",
            "Xiong et al. (2020) analyse Pre-LN",
            "variants",
            "docs/chapters/04-add-norm.en.md:{line}: 'analyse' → 'analyze'",
        ),
        (
            "docs/chapters/08-ffn.zh.md",
            "（Pre-LN，第 4 章）",
            "（Pre-LN，第 9 章）",
            "cross-references",
            "docs/chapters/08-ffn.zh.md:{line}: '（Pre-LN，第 9 章）' cites chapter 9 for Pre-LN",
        ),
        (
            "examples/05-going-deeper.py",
            "（Huang 等，2016）",
            "（Huang 等人，2016）",
            "authors",
            "examples/05-going-deeper.py:{line}: 'Huang 等人，2016' → 'Huang 等，'",
        ),
        (
            "docs/chapters/06-degradation.zh.md",
            "残差连接（residual connection）把",
            "残差连接把",
            "glosses",
            "docs/chapters/06-degradation.zh.md:{line}: the chapter's first '残差连接' has no English",
        ),
    ],
)
def test_a_mistake_planted_in_a_page_or_an_example_is_found_at_its_line(
    project, path, old, new, rule, found
):
    file = project / path
    text = file.read_text("utf-8")
    assert text.count(old) == 1
    line = text[: text.index(old)].count("\n") + 1
    file.write_text(text.replace(old, new), "utf-8")
    try:
        problems = voice.findings(project)
    finally:
        file.write_text(text, "utf-8")
    assert [p for p in problems[rule] if p.startswith(found.format(line=line))], problems[rule]


def test_an_english_claim_sentence_is_checked_for_spelling(project):
    file = project / "examples" / "06-degradation.py"
    text = file.read_text("utf-8")
    file.write_text(text.replace("grows towards the input", "grows toward the input"), "utf-8")
    try:
        problems = voice.findings(project)["variants"]
    finally:
        file.write_text(text, "utf-8")
    assert any("claim 'signals_do_not_vanish': 'toward' → 'towards'" in p for p in problems)
