"""Every interview question opens with an answer one can say in about thirty seconds (the
conclusion, one reason, one caveat), then folds the derivation, code and evidence into a
collapsible "展开 / In depth" block. Checked over the Markdown source, both languages."""

import re
from pathlib import Path

import pytest

PAGES = Path(__file__).parents[1] / "docs" / "chapters"
DEPTH_TITLE = {"zh": "展开", "en": "In depth"}
LIMIT = {"zh": 150, "en": 70}  # Han characters / words: about thirty seconds of speech
MATH = re.compile(r"\$[^$]*\$")
HAN = re.compile(r"[\u4e00-\u9fff]")
NOT_SPOKEN = re.compile(
    r"```|^\s*\||\$\$|\{\{|\]\(", re.M
)  # code, table, display math, numbers, links


def spoken_length(text: str, lang: str) -> int:
    """Han characters (zh) or words (en), formulas left out: they are read, not counted."""
    prose = MATH.sub(" ", text)
    return len(HAN.findall(prose)) if lang == "zh" else len(prose.split())


def question_findings(page: str, lang: str, where: str) -> list[str]:
    """What keeps a question from opening with a spoken answer followed by its depth block."""
    lines = page.splitlines()
    problems = []
    for number, line in enumerate(lines, 1):
        if not line.startswith("??? question"):
            continue
        body = lines[number:]
        start = next(i for i, text in enumerate(body) if text.strip())
        end = next((i for i in range(start, len(body)) if not body[i].strip()), len(body))
        spoken = " ".join(text.strip() for text in body[start:end])
        after = next((text for text in body[end:] if text.strip()), "")
        here = f"{where}:{number}"
        if spoken.startswith("??? note"):
            problems.append(f"{here}: no spoken answer before the depth block")
            continue
        if NOT_SPOKEN.search("\n".join(body[start:end])):
            problems.append(
                f"{here}: code, a table, display math, a number or a link in the spoken answer"
            )
        if (length := spoken_length(spoken, lang)) > LIMIT[lang]:
            problems.append(f"{here}: spoken answer of {length} (limit {LIMIT[lang]})")
        if after != f'    ??? note "{DEPTH_TITLE[lang]}"':
            problems.append(f'{here}: spoken answer not followed by ??? note "{DEPTH_TITLE[lang]}"')
    return problems


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_question_opens_with_a_spoken_answer_then_a_depth_block(lang):
    path = PAGES / f"12-interview.{lang}.md"
    page = path.read_text(encoding="utf-8")
    assert page.count("??? question") == 40
    assert question_findings(page, lang, str(path)) == []


ANSWER = '??? question "6. Q?"\n\n    {spoken}\n\n    ??? note "{title}"\n\n        depth\n'


@pytest.mark.parametrize(
    ("lang", "spoken", "title", "found"),
    [
        (
            "zh",
            "不能。" + "分支不小时每块都放大梯度。" * 14,
            "展开",
            "spoken answer of 170 (limit 150)",
        ),
        ("en", "No. " + "Each block amplifies the gradient. " * 14, "In depth", "(limit 70)"),
        ("zh", "不能。$x + y$ 见[第 3 章](03.md)。", "展开", "a link in the spoken answer"),
        ("en", "No. It is {{ result:03/x }}.", "In depth", "a number"),
        ("zh", "不能。", "Details", "not followed by ??? note"),
    ],
)
def test_a_planted_long_or_unspeakable_answer_is_named_with_its_line(lang, spoken, title, found):
    page = "# Q\n\n" + ANSWER.format(spoken=spoken, title=title)
    problems = question_findings(page, lang, "x.md")
    assert problems and problems[0].startswith("x.md:3: ") and found in problems[0], problems


def test_formulas_do_not_count_towards_the_length():
    assert spoken_length("不能。$\\sqrt{L}$ 与 $1/L$ 不同", "zh") == 5
    assert spoken_length("No: $1/\\sqrt{L}$ keeps the variance", "en") == 4
