"""A claim's words never outrun its check: "every seed" needs a condition over every seed.

A claim (:func:`resdoc.publish.claim`) says with ``every=`` which items its condition checks
one by one: ``every=("seed",)`` when it holds for the lowest (or highest) seed, ``every=("seed",
"depth")`` when it is checked at every depth too. A condition on a median or a mean checks no
item one by one, and declares nothing. :func:`overclaims` reads the sentence, in each language,
for the words that speak of every item, and returns what they promise beyond ``every=``:

>>> overclaims("Deleting any one block barely changes accuracy", "en", ("seed",))
["'any one block' speaks of every block"]
>>> overclaims("A typical block barely changes accuracy, in every seed", "en", ("seed",))
[]
>>> overclaims("删掉任何一个块，准确率几乎不变", "zh", ())
["'任何一个块' speaks of every block"]

**What counts, in English**: *every*, *each*, *any*, *all*, *none*, *never*, *always*, and *no*
before an item (*no seed*, *no setting*; not *no longer*, *no shortcut*). Not counted: *at
all*, *all the way*, *each other*, *almost all*, *nearly all*, the negated *not every*, *not
all*, *not always* (they say "some", which a minimum or a maximum also checks), *every two
layers* (how often), and *each* after its noun ("256 inputs each"). A rate says *per*: "grows
by 1.4 per block" promises nothing about each block.

**What counts, in Chinese**, where 每 and 都 also have other uses:

- 任何, 任一, 一律, 无一例外, 始终, 总是, 从不, 从未, 永远, 没有一个/没有一种 …: always (not
  并不总是 / 不总是, which say "not always").
- 每, 所有, 全部, 各 only as "every": closed by 都 or 均 in the same clause (每个种子都…),
  inside 在…上/里/中/下/时 (在每个深度上), or counting a whole (全部 5 个种子). Otherwise they
  are rates or descriptions, not counted: 每块增大约 1.4 倍, 每层一条捷径, 每多一个块, 全部梯度.
- 都 or 均 right after an item (5 个种子都…, 种子均为…), not in 连…都 ("even"), 什么都, 一点都,
  nor after 两种/两个 … ("both": the condition names each of the two).

Text in quotation marks is a mention, not a claim (连“每个块都是恒等映射”这样简单的解都没有找到);
``{{ key }}`` and ``$…$`` count as a number. The item a word speaks of is the noun that follows
it (after a number, a measure word, *one*, *the*, *random* …) or, for 都, the one before it,
looked up in :data:`ITEMS`; a universal word before no known item needs some ``every=``.
"""

from __future__ import annotations

import re

# Each item a condition may range over: its English nouns (singular) and Chinese nouns.
ITEMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "seed": (("seed", "random seed"), ("种子",)),
    "depth": (("depth",), ("深度", "层数", "块数")),
    "block": (("block",), ("残差块", "普通块", "块")),
    "layer": (("layer",), ("层",)),
    "branch": (("branch",), ("分支",)),
    "sublayer": (("sublayer",), ("子层",)),
    "setting": (("setting",), ("设置",)),
    "scale": (("scale",), ("尺度",)),
    "learning rate": (("learning rate",), ("学习率",)),
    "token": (("token",), ("词元",)),
    "entry": (("entry", "component"), ("元素", "分量")),
    "step": (("step", "update"), ("次更新", "更新", "步")),
    "epoch": (("epoch",), ("轮",)),
    "term": (("term",), ("项",)),
    "network": (("network", "net", "stack"), ("网络", "堆叠")),
    "path": (("path",), ("路径",)),
    "input": (("input",), ("输入",)),
    "stage": (("stage",), ("阶段",)),
    "point": (("point", "grid point"), ("网格点", "点")),
}
# Chinese words that begin like an item but are not one (层归一化 is not a layer).
_NOT_ITEMS_ZH = ("层归一化", "块的排列")

_PLACEHOLDER = re.compile(r"\{\{[^{}]*\}\}|\$[^$]*\$")
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|‘[^’]*’|「[^」]*」")
_CLAUSE_END = re.compile(r"[，。；：！？,.;:!?()（）—]")

# --- English -----------------------------------------------------------------------------

_EN_WORD = re.compile(r"\b(every|each|any|all|none|never|always|no)\b", re.I)
_EN_NOT = re.compile(
    r"\bat all\b|\ball the way\b|\beach other\b|\b(?:almost|nearly|not) (?:all|every|always)\b",
    re.I,
)
_EN_SKIP = {
    "one", "single", "of", "the", "these", "those", "its", "their", "our", "random", "other",
    "extra", "new", "individual", "given", "n", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten",
}  # fmt: skip


def _en_item(after: str) -> tuple[str | None, str]:
    """The item named by the words after a quantifier, and those words up to its noun
    ("one of the N random seeds" → seed)."""
    words = re.findall(r"[A-Za-z][A-Za-z-]*(?:'s)?|\d+", after)
    skipped = 0
    while skipped < len(words) and (words[skipped].lower() in _EN_SKIP or words[skipped].isdigit()):
        skipped += 1
    phrase = " ".join(word.lower().removesuffix("'s") for word in words[skipped : skipped + 2])
    for item, (nouns, _) in ITEMS.items():
        for noun in sorted(nouns, key=len, reverse=True):
            match = re.match(rf"(?:{re.escape(noun)}|{re.escape(_plural(noun))})\b", phrase)
            if match:
                return item, " ".join(words[: skipped + len(match[0].split())])
    return None, " ".join(words[: skipped + 1])


def _plural(noun: str) -> str:
    if noun.endswith("y"):
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith(("h", "s")) else "s")


def _english(sentence: str) -> list[tuple[str, str | None]]:
    found = []
    excluded = [m.span() for m in _EN_NOT.finditer(sentence)]
    for match in _EN_WORD.finditer(sentence):
        if any(start <= match.start() < end for start, end in excluded):
            continue
        after = re.split(r"[,;:!?()—]|\.(?!\d)", sentence[match.end() :], maxsplit=1)[0]
        item, words = _en_item(after)
        word = match[1].lower()
        if word == "no" and item is None:  # "no longer", "no shortcut"
            continue
        if word == "each" and not words:  # "256 inputs each": distributive
            continue
        if word == "every" and re.match(r"\s*(?:N|\d+|two|three|four|five|ten)\b", after):
            continue  # "every two layers": how often, not every item
        found.append((f"{match[0]} {words}".strip(), item))
    return found


# --- Chinese -----------------------------------------------------------------------------

_ZH_ALWAYS = re.compile(
    r"任何|任一|一律|无一例外|始终|总是|从不|从未|永远|没有一(?=[个种条次层块项])"
)
_ZH_NOT_ALWAYS = re.compile(r"(?:并不|不)总是|未必")
_ZH_EACH = re.compile(r"每|所有|全部|各(?!自)")
_ZH_ALL_ADVERB = re.compile(r"都|(?<!平)均(?![值方匀衡])")
_ZH_BOTH = re.compile(
    r"[两二俩]\s*[个种条组者]\S{0,4}$"
)  # 两种网络都: "both", the condition names each
_ZH_COUNT_BEFORE = re.compile(
    r"(?:N|\d+|[一二两三四五六七八九十]+)\s*[个种条次位组档]\s*(?:随机)?$"
)
_ZH_COUNTED = re.compile(r"^\s*(?:N|\d+|[一二两三四五六七八九十]+)\s*[个种条次层块项位组]")
# 在 before 每/所有 (or before a list of them, 在每个种子、每个深度上) opens a frame "at every …"
_ZH_FRAME_OPEN = re.compile(r"在(?:\s*(?:每|所有|全部|各)[^、]*、)*\s*$")
_ZH_SKIP = re.compile(
    r"^(?:过|经过|多|一次)?\s*(?:N|\d+|[一二两三四五六七八九十]+)?\s*(?:[个种条次位组档])?\s*(?:随机)?"
)


def _zh_item_after(text: str) -> tuple[str | None, int]:
    """The item ``text`` starts with, after a number and a measure word, and where its noun
    ends ("个随机种子" → seed, 5). A measure word may begin the noun itself (种子)."""
    for start in range(_ZH_SKIP.match(text).end() + 1):
        if text.startswith(_NOT_ITEMS_ZH, start):
            break
        for item, (_, nouns) in ITEMS.items():
            for noun in nouns:
                if text.startswith(noun, start):
                    return item, start + len(noun)
    return None, min(2, len(text))


def _zh_item_before(text: str) -> tuple[str | None, int]:
    """The item that ends ``text``, and where its words begin ("有 5 个种子" → seed, 2)."""
    for item, (_, nouns) in ITEMS.items():
        for noun in nouns:
            if text.endswith(noun) and not text.endswith("层归一化"):
                counted = _ZH_COUNT_BEFORE.search(text[: -len(noun)])
                return item, counted.start() if counted else len(text) - len(noun)
    return None, len(text)


def _chinese(sentence: str) -> list[tuple[str, str | None]]:
    found = []
    for clause in _clauses(sentence):
        clause = _ZH_NOT_ALWAYS.sub("", clause)
        for match in _ZH_ALWAYS.finditer(clause):
            item, end = _zh_item_after(clause[match.end() :])
            words = clause[match.start() : match.end() + end]
            if match[0] == "无一例外":
                item, start = _zh_item_before(clause[: match.start()].rstrip())
                words = clause[start : match.end()]
            found.append((words.strip(), item))
        adverbs = [
            m.start() for m in _ZH_ALL_ADVERB.finditer(clause) if not _zh_even(clause, m.start())
        ]
        for match in _ZH_EACH.finditer(clause):
            rest = clause[match.end() :]
            closed = any(position > match.start() for position in adverbs)
            framed = _ZH_FRAME_OPEN.search(clause[: match.start()]) and re.search(
                r"[上里中下时内]", rest
            )
            counted = match[0] in ("所有", "全部") and _ZH_COUNTED.match(rest)
            if closed or framed or counted:
                item, end = _zh_item_after(rest)
                found.append((clause[match.start() : match.end() + end].strip(), item))
        for position in adverbs:
            before = clause[:position].rstrip()
            if _ZH_EACH.search(before) or before.endswith("几乎") or _ZH_BOTH.search(before):
                continue  # counted with its 每/所有 above, approximate, or "both"
            item, start = _zh_item_before(before)
            if item is not None:
                found.append((clause[start : position + 1].strip(), item))
    return found


def _zh_even(clause: str, position: int) -> bool:
    """连…都 ("even"), 什么都, 一点都: 都 that does not mean "all"."""
    before = clause[:position]
    return "连" in before or "甚至" in before or before.endswith(("什么", "一点", "怎么"))


def _clauses(sentence: str) -> list[str]:
    """The clauses of a Chinese sentence: 、 joins a list within one clause."""
    return _CLAUSE_END.split(sentence)


# --- Both --------------------------------------------------------------------------------


def universal_words(sentence: str, lang: str) -> list[tuple[str, str | None]]:
    """The words of ``sentence`` that speak of every item: (the words, the item or None).

    >>> universal_words("the loss is below 1 in all {{ n }} random seeds", "en")
    [('all N random seeds', 'seed')]
    >>> universal_words("在每个种子、每个层数下，梯度都更大", "zh")
    [('每个种子', 'seed'), ('每个层数', 'depth')]
    >>> universal_words("每块增大约 {{ g }} 倍，每层一条捷径，at all", "zh")
    []
    """
    text = _QUOTED.sub("Q", _PLACEHOLDER.sub("N", sentence)).replace("**", "")
    return _chinese(text) if lang == "zh" else _english(text)


def overclaims(sentence: str, lang: str, every: tuple[str, ...]) -> list[str]:
    """What ``sentence`` says of every item beyond the items ``every`` names (empty if nothing).

    >>> overclaims("no setting learns in any seed", "en", ("seed", "setting"))
    []
    >>> overclaims("Post-LN stays at chance in every seed", "en", ())
    ["'every seed' speaks of every seed"]
    >>> overclaims("it never exceeds 0.1", "en", ())
    ["'never exceeds' speaks of every item, and the claim names none"]
    """
    unknown = [item for item in every if item not in ITEMS]
    if unknown:
        raise ValueError(
            f"every={every!r}: unknown item {unknown[0]!r} (known: {', '.join(ITEMS)})"
        )
    problems = []
    for words, item in universal_words(sentence, lang):
        if item is None and not every:
            problems.append(f"{words!r} speaks of every item, and the claim names none")
        elif item is not None and item not in every:
            problems.append(f"{words!r} speaks of every {item}")
    return problems


def advice(every: tuple[str, ...]) -> str:
    """What to do about an overclaim, for the error message."""
    return (
        "if the condition checks each of them one by one (a minimum or a maximum over them, "
        f"all(...)), name them in every= (now {every!r}); if it checks a median or a mean, "
        "say so: 'a typical …', 'on average', 'the median', '中位数', '平均'"
    )
