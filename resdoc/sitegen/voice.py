"""The site's voice, checked: one name per concept, one spelling, cross-references to the
chapter that defines the term, and the English gloss where the glossary asks for it.

The rules are written for people, in the glossary pages (``docs/glossary.*.md``):

- each term's row ends its definition with the variants it rejects, ``不写作：小批次。`` on the
  Chinese page, ``Not: minibatch.`` on the English one; its "见"/"See" link names the chapter
  that defines it; a term in **bold** is glossed in every chapter;
- the table under ``{ #usage }`` lists words to write and their rejected variants that are no
  glossary term (示例, not 例子; *analyze*, not *analyse*; straight quotes, not curly ones).

Two Chinese rules are patterns, not words: two authors are joined by 与 ("Zhang 与 Sennrich",
not 和), and "et al." is 等 inside parentheses, "（He 等，2016）", 等人 in running text, "He
等人（2016）". The authors are the surnames of ``docs/references.yml``.

Each check reads the words readers see (:mod:`resdoc.sitegen.prose`: pages, the examples'
Markdown cells, claim sentences and figure descriptions, without code and formulas); cited
paper titles are left out, they are quoted as their authors wrote them. Each finding names
the page and line, or the claim, and what to write instead. ``python -m resdoc.sitegen.voice``
lists them.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from resdoc.sitegen import chapters, citations, prose

GLOSSARY = "glossary.{lang}.md"
_REJECTS = {
    "zh": re.compile(r"不写作：(?P<list>[^。|]+)。"),
    "en": re.compile(r"Not: (?P<list>[^|]+?)\.\s*\|"),
}
_SEPARATOR = {"zh": "、", "en": ", "}
_NOTE = re.compile(r"\s*[（(][^（）()]*[）)]\s*$")  # "fan_in（代码之外）": a note for people
_HAN = re.compile(r"[\u4e00-\u9fff]")
_CHAPTER_LINK = re.compile(r"chapters/(?P<n>\d\d)-[\w-]+\.md")


@dataclass(frozen=True)
class Term:
    names: dict[str, tuple[str, ...]]  # per language; the first is the name to write
    chapter: int | None  # the chapter that defines it (the glossary's link)
    rejects: dict[str, tuple[str, ...]] = field(default_factory=dict)
    everywhere: bool = False  # bold: glossed at its first use in every chapter


@dataclass(frozen=True)
class Text:
    where: str  # "docs/chapters/04-add-norm.zh.md:12" or "examples/05-going-deeper.py:61 claim 'x'"
    lang: str
    text: str
    raw: str = ""  # the line as written (code kept), for glosses such as 评估模式（`eval()`）


def _names(cell: str, lang: str) -> tuple[str, ...]:
    """``快捷路径（捷径）`` → (快捷路径, 捷径); ``layer normalization (LayerNorm, LN)`` → three."""
    cell = cell.replace("**", "").replace("`", "")
    parts = re.split(r"[、,;（）()]|，", cell)
    return tuple(part.strip() for part in parts if part.strip())


def _rows(page: Path) -> Iterator[list[str]]:
    for line in page.read_text("utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 3 and not set(cells[0]) <= set("-: "):
            yield cells


def glossary(docs: Path = prose.ROOT / "docs") -> list[Term]:
    """The terms of the glossary: the Chinese and English pages' rows, side by side."""
    pages = {lang: docs / GLOSSARY.format(lang=lang) for lang in ("zh", "en")}
    rows = {
        lang: [r for r in _rows(page) if len(r) == 4 and r[0] != "中文"]
        for lang, page in pages.items()
    }
    terms = []
    for zh_row, en_row in zip(rows["zh"], rows["en"], strict=True):
        link = _CHAPTER_LINK.search(zh_row[3])
        rejects = {}
        for lang, row in (("zh", zh_row), ("en", en_row)):
            found = _REJECTS[lang].search(row[2] + " |")
            if found:
                variants = (
                    _NOTE.sub("", v.strip().strip("*"))
                    for v in found["list"].split(_SEPARATOR[lang])
                )
                rejects[lang] = tuple(v for v in variants if v)
        terms.append(
            Term(
                names={"zh": _names(zh_row[0], "zh"), "en": _names(zh_row[1], "en")},
                chapter=int(link["n"]) if link else None,
                rejects=rejects,
                everywhere=zh_row[0].startswith("**"),
            )
        )
    return terms


def usage(lang: str, docs: Path = prose.ROOT / "docs") -> list[tuple[str, tuple[str, ...]]]:
    """The table under ``{ #usage }``: (what to write, its rejected variants)."""
    text = (docs / GLOSSARY.format(lang=lang)).read_text("utf-8")
    section = text.partition("{ #usage }")[2]
    table = []
    for line in section.splitlines():
        if line.startswith("## "):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if (
            line.startswith("|")
            and len(cells) >= 2
            and not set(cells[0]) <= set("-: ")
            and cells[0] not in ("写作", "Write")
        ):
            variants = (
                _NOTE.sub("", v.strip().strip("*`")) for v in cells[1].split(_SEPARATOR[lang])
            )
            table.append((cells[0].strip("*`"), tuple(v for v in variants if v)))
    return table


# --- What readers see -----------------------------------------------------------------------


def texts(root: Path = prose.ROOT) -> Iterator[Text]:
    """Every prose line of the pages and the examples' Markdown cells, every claim sentence
    and figure description, without the glossary's lists of rejected variants. A page line's
    ``raw`` shows its claims' sentences where the page shows them."""
    claims = list(prose.claims(root / "examples"))
    sentences = {(Path(c.path).stem, c.key): c.sentences for c in claims}

    def filled(line: str, lang: str) -> str:
        def sentence(match: re.Match) -> str:
            example, _, key = match["ref"].partition("/")
            return sentences.get((example, key), {}).get(lang, match[0])

        return re.sub(r"\{\{\s*claim:(?P<ref>[^\s}]+)\s*\}\}", sentence, line)

    raw_lines = {}
    for line in [*prose.page_lines(root / "docs"), *prose.example_lines(root / "examples")]:
        path = root / line.path
        if path not in raw_lines:
            raw_lines[path] = path.read_text("utf-8").splitlines()
        text = line.text
        if line.path.startswith("docs/glossary."):
            if _in_usage(raw_lines[path], line.number):
                continue  # the table of words to write and their variants
            cells = text.split("|")
            if len(cells) == 6:  # a term's row: its names define it; check its definition
                text = _REJECTS[line.lang].sub(" ", cells[3] + " |").removesuffix(" |")
        raw = filled(raw_lines[path][line.number - 1], line.lang)
        yield Text(f"{line.path}:{line.number}", line.lang, text, raw)
    for claim in claims:
        for lang, sentence in claim.sentences.items():
            yield Text(
                f"{claim.path}:{claim.line} claim {claim.key!r}",
                lang,
                prose.blank(sentence),
                sentence,
            )
    for alt in prose.figure_alts(root / "examples"):
        for lang, sentence in alt.sentences.items():
            yield Text(
                f"{alt.path}:{alt.line} figure {alt.key!r}", lang, prose.blank(sentence), sentence
            )


def _in_usage(lines: list[str], number: int) -> bool:
    """Whether line ``number`` is in the glossary's ``{ #usage }`` table."""
    for line in reversed(lines[:number]):
        if line.startswith("## "):
            return "{ #usage }" in line
    return False


def _without_titles(text: str, titles: Iterable[str]) -> str:
    for title in titles:
        text = text.replace(title, " ")
    return text


# --- The checks -------------------------------------------------------------------------------


def _word(variant: str) -> re.Pattern:
    """A variant as a whole word (Latin) or as written (Chinese, quotes)."""
    if re.search(r"[A-Za-z]", variant):
        return re.compile(rf"(?<![\w-]){re.escape(variant)}(?![\w-])", re.IGNORECASE)
    return re.compile(re.escape(variant))


def variant_findings(
    found: Iterable[Text], terms: list[Term], tables: dict[str, list], titles: Iterable[str] = ()
) -> list[str]:
    """Rejected variants, each with what to write instead. A variant right after its term's
    parenthesis is the term's gloss, not a variant: 暂退法（dropout）."""
    rules = {lang: [] for lang in ("zh", "en")}
    for term in terms:
        for lang, variants in term.rejects.items():
            rules[lang] += [(term.names[lang][0], _word(v), v) for v in variants]
    for lang, table in tables.items():
        for write, variants in table:
            forms = write.split(_SEPARATOR[lang])  # aligned with the variants when as many
            for i, variant in enumerate(variants):
                form = forms[i] if len(forms) == len(variants) else forms[0]
                rules[lang].append((form, _word(variant), variant))
    titles = sorted(titles, key=len, reverse=True)
    problems = []
    for text in found:
        plain = _without_titles(text.text, titles)
        matches = [
            (match, write, variant)
            for write, pattern, variant in rules[text.lang]
            for match in pattern.finditer(plain)
            if not plain[: match.start()].endswith((f"{write}（", f"{write} ("))
        ]
        end = -1
        for match, write, variant in sorted(matches, key=lambda m: (m[0].start(), -len(m[0][0]))):
            if match.start() >= end:  # the longest variant at a place: "final layer norm"
                end = match.end()
                problems.append(
                    f"{text.where}: {match[0]!r} → {write!r} (glossary: not {variant!r})"
                )
    return problems


def author_findings(found: Iterable[Text], surnames: set[str]) -> list[str]:
    """与 between two authors; "et al." as 等 before a year in parentheses, （He 等，2016）, and as
    等人 in running text, He 等人（2016）."""
    name = r"[A-Z][A-Za-z'-]+"
    problems = []
    for text in found:
        if text.lang != "zh":
            continue
        for match in re.finditer(rf"({name}) 和 ({name})", text.text):
            if match[1] in surnames and match[2] in surnames:
                problems.append(
                    f"{text.where}: {match[0]!r} → '{match[1]} 与 {match[2]}' (two authors: 与)"
                )
        for match in re.finditer(
            rf"({name}) 等(人?)(?P<after>[，,]\s*\d{{4}}|\s+\d{{4}}|[，,])?", text.text
        ):
            year = match["after"] and re.search(r"\d", match["after"])
            if match[1] not in surnames:
                continue
            if match[2] and year:  # （Huang 等人，2016）
                problems.append(
                    f"{text.where}: {match[0]!r} → '{match[1]} 等，' (inside parentheses: 等)"
                )
            elif not match[2] and not match["after"]:  # Dong 等（2021）
                problems.append(
                    f"{text.where}: {match[0]!r} → '{match[1]} 等人' (in running text: 等人)"
                )
    return problems


_CITED = {
    "zh": r"\[?(?:见)?第 ?(?P<n>\d+) ?章\]?(?:\([^)]*\))?",
    "en": r"(?:see )?\[?(?:[Cc]hapter|Ch\.) ?(?P<n>\d+)\]?(?:\([^)]*\))?",
}
_INSIDE = {  # (Pre-LN, chapter 4): the term and the chapter, alone in a parenthesis
    "zh": re.compile(rf"（(?P<term>[^（）]+?)，\s*{_CITED['zh']}）"),
    "en": re.compile(rf"\((?P<term>[^()]+?),\s*{_CITED['en']}\)"),
}
_AFTER = {  # Pre-LN (chapter 4): the chapter alone in a parenthesis after the term
    "zh": re.compile(rf"（{_CITED['zh']}）"),
    "en": re.compile(rf" \({_CITED['en']}\)"),
}


def crossref_findings(found: Iterable[Text], terms: list[Term]) -> list[str]:
    """A chapter cited for a term must be the chapter that defines it (the glossary's link)."""
    where = {}
    for term in terms:
        for names in term.names.values():
            for name in names:
                where.setdefault(name, term.chapter)
    names = sorted(where, key=len, reverse=True)
    problems = []
    for text in found:
        plain = text.text.replace("**", "")
        cited = [
            (m["term"].strip('“”" '), int(m["n"]), m[0]) for m in _INSIDE[text.lang].finditer(plain)
        ]
        for match in _AFTER[text.lang].finditer(plain):
            before = plain[: match.start()].rstrip('”"')
            term = next((n for n in names if before.endswith(n)), None)
            if term is not None:
                cited.append((term, int(match["n"]), before[-len(term) :] + match[0]))
        for term, chapter, words in cited:
            if where.get(term) is not None and chapter != where[term]:
                problems.append(
                    f"{text.where}: {words!r} cites chapter {chapter} for {term}, which chapter "
                    f"{where[term]} defines (glossary)"
                )
    return problems


# headings, admonition titles and figures: the gloss goes with the first use in the text
_NO_GLOSS_LINE = re.compile(r"\s*(?:#{1,6} |[!?]{3}\+? |!\[)")
# words that contain a term's name and are no use of it: a residual network is no 残差
_NOT_TERMS = ("残差网络", "残差堆叠", "残差层", "残差加法", "有残差", "无残差", "倒置残差块")
# inside inline code, or inside a link's text (a pointer to where the term is glossed)
_NOT_A_USE = re.compile(r"`[^`]*$|\[[^\]]*$")


def _glossed(raw: str, end: int) -> bool:
    """Whether the term ending at ``end`` is followed by its gloss: a parenthesis with English
    or code in it, 残差块（residual block）, 评估模式（`eval()`）, 残差块（论文称为 residual unit）, or,
    inside a parenthesis, a comma and the English, （即分支，branch）. A title, （《…》）, is no gloss."""
    after = re.sub(r"\$[^$]*\$", " ", raw[end:])  # a formula's letters are no English
    parenthesis = re.match(r"(?:\*\*|”|》)?\s*[（(](?!《)(?P<inside>[^（）()]*)", after)
    if parenthesis and re.search(r"[`A-Za-z]", parenthesis["inside"]):
        return True
    return re.match(r"[，,]\s*[A-Za-z]", after) is not None and raw[:end].count("（") > raw[
        :end
    ].count("）")


def gloss_findings(found: Iterable[Text], terms: list[Term]) -> list[str]:
    """In the Chinese chapters a term's first use is glossed, as the glossary says: in the
    first chapter that uses it, in the chapter that defines it, and in every chapter for a
    term in bold. A heading, an admonition's title or a figure is no first use, unless it
    carries the gloss; nor is a term inside a link's text or in code (:data:`_NOT_A_USE`), a
    term whose name says its English (He 初始化), or a longer word that only contains one
    (:data:`_NOT_TERMS`: 残差网络 is no use of 残差)."""
    names = {
        name: term
        for term in terms
        for name in term.names["zh"]
        if _HAN.search(name) and not re.search(r"[A-Za-z]{2}", name)
    }
    words = sorted([*names, *_NOT_TERMS], key=len, reverse=True)  # the longest word first
    pattern = re.compile("|".join(re.escape(word) for word in words))
    first: dict[
        tuple[int, int], tuple[str, str, bool]
    ] = {}  # (chapter, term): where, name, glossed
    for text in found:
        page = text.where.rpartition(":")[0]
        number = chapters.number_of(page.removeprefix("docs/"))
        if text.lang != "zh" or number is None or not page.startswith("docs/chapters/"):
            continue
        raw = text.raw.replace("**", "")
        for match in pattern.finditer(raw):
            term = names.get(match[0])
            if (
                term is None
                or (number, id(term)) in first
                or _NOT_A_USE.search(raw[: match.start()])
            ):
                continue
            glossed = _glossed(raw, match.end())
            if glossed or not _NO_GLOSS_LINE.match(raw):
                first[number, id(term)] = (text.where, match[0], glossed)
    problems = []
    for term in terms:
        used = sorted(number for number, key in first if key == id(term))
        required = set(used) if term.everywhere else {used[0], term.chapter} if used else set()
        for number in sorted(required & set(used)):
            where, name, glossed = first[number, id(term)]
            if not glossed:
                english = term.names["en"][
                    min(term.names["zh"].index(name), len(term.names["en"]) - 1)
                ]
                problems.append(
                    f"{where}: the chapter's first {name!r} has no English: write {name}（{english}）"
                )
    return sorted(problems)


def findings(root: Path = prose.ROOT) -> dict[str, list[str]]:
    """Every check over the whole site, by rule."""
    docs = root / "docs"
    terms = glossary(docs)
    entries = citations.load(docs)
    titles = [title for entry in entries.values() for title in entry.titles]
    surnames = {
        a.split()[-1] for entry in entries.values() for a in entry.authors.split(",") if a.split()
    }
    found = list(texts(root))
    tables = {lang: usage(lang, docs) for lang in ("zh", "en")}
    return {
        "variants": variant_findings(found, terms, tables, titles),
        "authors": author_findings(found, surnames),
        "cross-references": crossref_findings(found, terms),
        "glosses": gloss_findings(found, terms),
    }


def main() -> int:
    found = findings()
    for rule, problems in found.items():
        for problem in problems:
            print(f"{rule}: {problem}")
    print({rule: len(problems) for rule, problems in found.items()}, file=sys.stderr)
    return 1 if any(found.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
