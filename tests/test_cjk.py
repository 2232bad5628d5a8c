"""Chinese text without stray gaps: the rule (fast) and every built zh page (slow)."""

from __future__ import annotations

import pytest

from resdoc.sitegen.cjk import ascii_brackets, gaps, join_lines, visible_text

pytestmark = pytest.mark.upstream


@pytest.mark.parametrize(
    ("html", "joined"),
    [
        ("<p>残差\n连接</p>", "<p>残差连接</p>"),  # a word split by the source's line break
        ("<p>捷径，\n  梯度</p>", "<p>捷径，梯度</p>"),  # a list item's indented continuation
        ("<p>见\n<a href='#x'>第 4 章</a>\n的实验</p>", "<p>见<a href='#x'>第 4 章</a>的实验</p>"),
        ("<p>“Pre-Norm”\n——这是</p>", "<p>“Pre-Norm”——这是</p>"),
        ("<p>之后。\nPost-LN 在前</p>", "<p>之后。Post-LN 在前</p>"),  # no space after 。
        ("<p>前向。 <em>反向</em></p>", "<p>前向。<em>反向</em></p>"),
        ("<p>ResNet\n（He 等）</p>", "<p>ResNet（He 等）</p>"),  # none before （
        (
            "<p>深度\n20 时，宽度 32\n个</p>",
            "<p>深度\n20 时，宽度 32\n个</p>",
        ),  # CJK–Latin: a space
        ("<p>the\nshortcut, then</p>", "<p>the\nshortcut, then</p>"),  # English untouched
    ],
)
def test_line_breaks_inside_chinese_text_are_joined(html, joined):
    assert join_lines(html) == joined


@pytest.mark.parametrize(
    "kept",
    [
        "<pre><code># 注释。\n    中文 = 1</code></pre>",
        "<p>代码 <code>中\n文</code></p>",
        '<span class="arithmatex">\\(\\text{中} \n \\text{文}\\)</span>',
        '<div class="arithmatex">\\[\\text{中}\n\\text{文}\\]</div>',
        '<div class="clipboard-copy-txt" id="cell-1"># 说明。\n    x = "中 文"</div>',
        "<script>const s = '中\\n文';\n// 中\n文</script>",
    ],
)
def test_code_scripts_and_formulas_are_left_as_written(kept):
    html = f"<p>前\n文</p>{kept}<p>后\n文</p>"
    assert join_lines(html) == f"<p>前文</p>{kept}<p>后文</p>"


def test_the_page_check_finds_every_kind_of_gap_and_none_after_the_rule():
    html = "<p>残差\n连接。 Post-LN\n（前）<a>第\n</a>\n章</p><pre>中\n文</pre>"
    assert gaps(html) == ["差\n连", "。 P", "N\n（", "第\n\n章"]
    assert gaps(join_lines(html)) == []


def test_visible_text_leaves_out_code_formulas_and_separates_blocks():
    html = '<p>甲<code>x</code></p><p>乙<span class="katex"><span>y</span></span>丙</p>'
    assert visible_text(html) == "\0甲\ufffc\0\0乙\ufffc丙\0"


def zh_pages(site):
    return [
        p
        for p in sorted(site.rglob("*.html"))
        if not p.relative_to(site).as_posix().startswith("en/")
    ]


@pytest.mark.slow
def test_no_gap_left_in_the_text_of_any_chinese_page(site):
    found = {}
    for page in zh_pages(site):
        left = gaps(page.read_text("utf-8"))
        if left:
            found[page.relative_to(site).as_posix()] = left[:5]
    assert found == {}


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("残差连接 (residual connection) 把", ["接 (residual connection)"]),
        ("见 (第 4 章)", ["见 (第 4 章)"]),
        ("(注) 前文", ["(注) 前"]),
        ("如图：(a) 无残差；(b) 有残差", []),  # panel labels, as printed in the figure
        ("由式 (3.1) 得", []),  # an equation's number, as beside the formula
        ("灰色虚线为预测 (1 + 2s²)^(L/2)。", []),  # a formula in plain text
        ("（residual connection）与 He 等 (2016)", ["等 (2016)"]),
    ],
)
def test_ascii_brackets_are_found_except_labels_and_formulas(text, found):
    assert ascii_brackets(text) == found


@pytest.mark.slow
def test_chinese_text_uses_full_width_brackets(site):
    """ASCII brackets next to Chinese text, or around it, outside code and formulas."""
    found = {}
    for page in zh_pages(site):
        left = ascii_brackets(visible_text(page.read_text("utf-8")))
        if left:
            found[page.relative_to(site).as_posix()] = left[:5]
    assert found == {}
