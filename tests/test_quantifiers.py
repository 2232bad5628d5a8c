"""A claim's words never outrun its check: "every seed" needs a condition over every seed."""

import pytest

from resdoc import publish
from resdoc.quantifiers import overclaims, universal_words
from resdoc.sitegen.prose import claims


@pytest.mark.parametrize(
    ("sentence", "lang", "found"),
    [
        ("Deleting any one block barely changes accuracy", "en", [("any one block", "block")]),
        ("the loss is below 1 in all {{ n }} random seeds", "en", [("all N random seeds", "seed")]),
        ("no seed's correlation exceeds 0.3", "en", [("no seed's", "seed")]),
        (
            "no setting learns the task in any seed",
            "en",
            [("no setting", "setting"), ("any seed", "seed")],
        ),
        ("it never exceeds 0.1", "en", [("never exceeds", None)]),
        ("有残差网络删掉任何一个块，准确率几乎不变", "zh", [("任何一个块", "block")]),
        ("在全部 {{ n }} 个随机种子里都溢出", "zh", [("全部 N 个随机种子", "seed")]),
        ("在每个种子、每个层数下，梯度都更大", "zh", [("每个种子", "seed"), ("每个层数", "depth")]),
        ("每个种子的最后一层都小于第一层", "zh", [("每个种子", "seed")]),
        ("{{ n }} 个种子都在第一次更新后变成 NaN", "zh", [("N 个种子都", "seed")]),
        (
            "没有一种设置在任何种子上学会任务",
            "zh",
            [("任何种子", "seed"), ("没有一种设置", "setting")],
        ),
        ("损失始终停在高处", "zh", [("始终停在", None)]),
    ],
)
def test_words_that_speak_of_every_item_are_found_with_their_item(sentence, lang, found):
    assert sorted(universal_words(sentence, lang)) == sorted(found)


@pytest.mark.parametrize(
    ("sentence", "lang"),
    [
        # rates, frequencies and descriptions, not statements about every item
        ("the gradient grows by 1.4 per block", "en"),
        ("with a shortcut every two layers they shatter too", "en"),
        ("256 random inputs each", "en"),
        ("it does not vanish at all; its median rises all the way to s = 2", "en"),
        ("the cross terms are not always negligible, and almost all of it is the embedding", "en"),
        ("the plain net no longer learns; no shortcut, no trend", "en"),
        ('the simple solution "every block is the identity"', "en"),
        ("each other", "en"),
        ("普通网络的梯度每块缩小到约 {{ f }} 倍", "zh"),
        ("每层一条捷径的残差网络到 100 层仍保持相关", "zh"),
        ("每多一个块，参数量增加同样多", "zh"),
        ("把每个分支的最后一层乘以 1/√L 后", "zh"),
        ("在每层外面加一条捷径，相关系数衰减得慢得多", "zh"),
        ("到达输入的全部梯度也只有 0.1", "zh"),
        ("更深的普通堆叠连“每个块都是恒等映射”这样简单的解都没有找到", "zh"),
        ("它不是记住了训练集，而是连训练集都没学好", "zh"),
        ("相加之后什么都不做的三种块", "zh"),
        ("两种网络都像论文那样带批量归一化", "zh"),
        ("交叉项对种子取中位数时接近零，但单个种子里并不总是可以忽略", "zh"),
        ("平均每多经过一个分支，梯度乘以 0.6；均方根为 2", "zh"),
        ("结果都一样", "zh"),
    ],
)
def test_rates_descriptions_and_idioms_are_not_counted(sentence, lang):
    assert universal_words(sentence, lang) == []


def test_a_sentence_may_speak_of_every_item_its_condition_checks_and_of_no_other():
    assert overclaims("in every seed and at every depth", "en", ("seed", "depth")) == []
    assert overclaims("在每个种子、每个深度上都是 1", "zh", ("depth", "seed")) == []
    assert overclaims("in every seed and at every depth", "en", ("seed",)) == [
        "'every depth' speaks of every depth"
    ]
    assert overclaims("it never exceeds 0.1", "en", ("seed",)) == []  # no item named: any will do
    with pytest.raises(ValueError, match="unknown item 'seeds'"):
        overclaims("in every seed", "en", ("seeds",))


@pytest.fixture
def output(tmp_path, monkeypatch):
    monkeypatch.setenv("RESDOC_OUTPUT_DIR", str(tmp_path))
    monkeypatch.setenv("RESDOC_EXAMPLE", "ex")
    return tmp_path


def test_a_claim_whose_words_outrun_its_condition_stops_before_it_is_recorded(output):
    with pytest.raises(publish.ClaimOverstates) as raised:
        publish.claim(
            "robust",
            True,
            zh="删掉任何一个块，准确率几乎不变",
            en="Deleting any one block barely changes accuracy",
            every="seed",
        )
    message = str(raised.value)
    assert "claim 'robust' says more than its condition checks (zh)" in message
    assert "'任何一个块' speaks of every block" in message and "'a typical …'" in message
    assert not (output / "results.json").exists()
    publish.claim(
        "robust",
        True,
        zh="删掉一个块，准确率平均几乎不变",
        en="Deleting a typical block barely changes accuracy",
    )


def test_every_claim_of_every_example_says_no_more_than_its_condition_checks():
    """The same check publish.claim makes when the example runs, read from the sources."""
    found = list(claims())
    assert len(found) > 150
    problems = [
        f"{claim.path}:{claim.line}: claim {claim.key!r} ({lang}): {problem}"
        for claim in found
        for lang in ("zh", "en")
        for problem in overclaims(claim.sentences[lang], lang, claim.every)
    ]
    assert problems == []
