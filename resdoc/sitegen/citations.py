"""Citations: a paper a page cites links to its entry on the references page, and each entry
lists the pages citing it. Both come from the citations themselves, so neither can drift.

The bibliography is ``docs/references.yml``: under each group (the anchor of its ``##``
heading on the references page), its entries, each with a ``key`` (the entry's anchor),
``title``, ``authors``, ``venue`` (or one per language) and where the paper is: an ``arxiv``
id, a ``doi``, or, for a paper that has neither, its publisher's ``url`` with ``no_id`` saying
why. ``short`` lists shorter titles pages cite it by, ``title_zh`` the title of its Chinese
edition.

A page cites a paper by its title, as a writer would: 《Title》 on a Chinese page, "Title"
(or “Title”, or *Title*) on an English one. The build then

- links the first citation of each paper in each section (``##``) to its entry, but not in
  a heading or an admonition's title (a rewording that keeps the title keeps the link);
- stops, naming the page and line, at 《a title》 that is no entry's (on an English page a
  quotation is a citation only when it is an entry's title: its Chinese twin decides), at
  a page citing a paper its twin in the other language does not, and at an entry no page cites;
- writes each group's entries on the references page under its heading, each with the link
  to the paper and the pages that cite it.

>>> entry = Entry("he2016", "resnets", "Deep Residual Learning for Image Recognition",
...     "Kaiming He et al.", {"zh": "CVPR, 2016", "en": "CVPR, 2016"}, ("arXiv:1512.03385",
...     "https://arxiv.org/abs/1512.03385"), ("Deep Residual Learning for Image Recognition",))
>>> text = "见《Deep Residual Learning for Image Recognition》（2016）。"
>>> [c.key for c in find(text, "zh", {"he2016": entry}, "chapters/01-a.zh.md")]
['he2016']
>>> link(text, find(text, "zh", {"he2016": entry}, "chapters/01-a.zh.md"), "chapters/01-a.zh.md")
'见《[Deep Residual Learning for Image Recognition](../references.md#he2016)》（2016）。'
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from resdoc.sitegen import chapters
from resdoc.sitegen.conventions import LANGUAGES
from resdoc.sitegen.pages import PageError
from resdoc.sitegen.ui_text import CHAPTER_LABEL, CITED_IN, HOME

BIBLIOGRAPHY = "references.yml"
REFERENCES = "references"  # the page: references.<lang>.md
# a title as each language quotes it; on a Chinese page every 《…》 is a title
QUOTED = {
    "zh": re.compile(r"《(?P<title>[^《》]+)》"),
    "en": re.compile(
        r'"(?P<title>[^"\n]+(?:\n[^"\n]+)?)"|“(?P<curly>[^”]+)”'
        r"|(?<![*\w])\*(?P<italic>[^*\n]+)\*(?![*\w])"
    ),
}
ARXIV = re.compile(r"\d{4}\.\d{4,5}")
DOI = re.compile(r"10\.\d{4,9}/\S+")
_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_OR_MATH = re.compile(r"`[^`\n]+`|\$\$.*?\$\$|\$[^$\n]+\$", re.S)
_HEADING = re.compile(r"^(#{1,6}) (.*?)(?:\s*\{\s*#(?P<anchor>[\w-]+)[^}]*\})?\s*$")
_TITLE_LINE = re.compile(r"^\s*(?:#{1,6} |(?:!!!|\?\?\?\+?) )")  # no link in these


@dataclass(frozen=True)
class Entry:
    key: str  # its anchor on the references page
    group: str  # the anchor of its group's heading
    title: str
    authors: str
    venue: dict[str, str]  # per language
    link: tuple[str, str]  # (label, address)
    titles: tuple[str, ...]  # every title a page may cite it by


@dataclass(frozen=True)
class Citation:
    key: str
    line: int  # 1-based, in the page's Markdown
    section: str  # the anchor of the ## heading above it ("" before the first)
    start: int  # the title's span in the Markdown (inside the quotation marks)
    end: int
    linkable: bool  # not in a heading or an admonition's title


def _title(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _address(raw: dict, where: str) -> tuple[str, str]:
    found = [name for name in ("arxiv", "doi", "url") if raw.get(name)]
    if len(found) != 1:
        raise PageError(f"{where}: one of arxiv, doi or url, not {found or 'none'}")
    value = str(raw[found[0]])
    if found[0] == "arxiv" and ARXIV.fullmatch(value):
        return f"arXiv:{value}", f"https://arxiv.org/abs/{value}"
    if found[0] == "doi" and DOI.fullmatch(value):
        return f"doi:{value}", f"https://doi.org/{value}"
    if found[0] == "url" and value.startswith("https://") and raw.get("no_id"):
        return value.split("/")[2], value
    raise PageError(f"{where}: {found[0]} {value!r} is not an arXiv id, a DOI, or a url with no_id")


def _entry(group: str, raw: dict) -> Entry:
    where = f"docs/{BIBLIOGRAPHY}: {raw.get('key', '(an entry without a key)')}"
    missing = [name for name in ("key", "title", "authors", "venue") if not raw.get(name)]
    venue = raw.get("venue")
    if isinstance(venue, dict):
        missing += [f"venue.{lang}" for lang in LANGUAGES if not venue.get(lang)]
    else:
        venue = dict.fromkeys(LANGUAGES, venue)
    if missing:
        raise PageError(f"{where}: no {', '.join(missing)}")
    titles = [
        raw["title"],
        *raw.get("short", []),
        *([raw["title_zh"]] if "title_zh" in raw else []),
    ]
    return Entry(
        key=raw["key"],
        group=group,
        title=raw["title"],
        authors=raw["authors"],
        venue=venue,
        link=_address(raw, where),
        titles=tuple(_title(title) for title in titles),
    )


def load(docs: Path) -> dict[str, Entry]:
    """The entries of ``docs/references.yml`` by key ({} without one)."""
    path = docs / BIBLIOGRAPHY
    if not path.is_file():
        return {}
    entries: dict[str, Entry] = {}
    titles: dict[str, str] = {}
    for group, raws in (yaml.safe_load(path.read_text("utf-8")) or {}).items():
        for raw in raws:
            entry = _entry(group, raw)
            for title in entry.titles:
                if titles.setdefault(title, entry.key) != entry.key:
                    raise PageError(
                        f"docs/{BIBLIOGRAPHY}: {title!r} is the title of {titles[title]} and {entry.key}"
                    )
            if entries.setdefault(entry.key, entry) is not entry:
                raise PageError(f"docs/{BIBLIOGRAPHY}: two entries {entry.key}")
    return entries


def _masked(markdown: str) -> str:
    """``markdown`` with its code and formulas blanked out (same length, same lines)."""
    lines, fenced = markdown.split("\n"), False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced, lines[i] = not fenced, " " * len(line)
        elif fenced:
            lines[i] = " " * len(line)
    return _CODE_OR_MATH.sub(lambda m: re.sub(r"[^\n]", " ", m[0]), "\n".join(lines))


def find(markdown: str, lang: str, entries: dict[str, Entry], page: str) -> list[Citation]:
    """Every citation in a page's ``markdown`` (``page``: its path in docs/, for errors)."""
    by_title = {title: entry.key for entry in entries.values() for title in entry.titles}
    masked = _masked(markdown)
    sections, section = [], ""  # (offset where it starts, anchor)
    offset = 0
    for line in masked.split("\n"):
        heading = _HEADING.match(line)
        if heading and len(heading[1]) == 2:
            section = heading["anchor"] or ""
            if not section:
                raise PageError(f"{page}: the heading {line.strip()!r} needs an anchor {{ #… }}")
        sections.append((offset, section))
        offset += len(line) + 1
    found = []
    for match in QUOTED[lang].finditer(masked):
        group = next(name for name in ("title", "curly", "italic") if match.groupdict().get(name))
        title = _title(match[group])
        line = masked.count("\n", 0, match.start()) + 1
        if title not in by_title:
            if lang == "zh":
                raise PageError(
                    f"{page}:{line}: 《{title}》 is not the title of a paper in "
                    f"docs/{BIBLIOGRAPHY} (add the paper, or its short title under `short`)"
                )
            continue  # an English quotation that is no title
        line_text = masked.split("\n")[line - 1]
        found.append(
            Citation(
                key=by_title[title],
                line=line,
                section=sections[line - 1][1],
                start=match.start(group),
                end=match.end(group),
                linkable=not _TITLE_LINE.match(line_text),
            )
        )
    return found


def _relative(page: str, target: str) -> str:
    """The link from ``page`` (a path in docs/) to ``target`` (another)."""
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def link(markdown: str, citations: list[Citation], page: str) -> str:
    """``markdown`` with the first citation of each paper in each section linked to its entry."""
    first: dict[tuple[str, str], Citation] = {}
    for citation in citations:
        if citation.linkable:
            first.setdefault((citation.section, citation.key), citation)
    target = _relative(page, f"{REFERENCES}.md")
    for citation in sorted(first.values(), key=lambda c: -c.start):
        text = markdown[citation.start : citation.end]
        linked = f"[{text}]({target}#{citation.key})"
        markdown = markdown[: citation.start] + linked + markdown[citation.end :]
    return markdown


def _pages(docs: Path, lang: str) -> dict[str, Path]:
    """Every page of ``lang`` but the references page, by its path in docs/."""
    found = {}
    for path in sorted(docs.rglob(f"*.{lang}.md")):
        name = path.relative_to(docs).as_posix()
        if name != f"{REFERENCES}.{lang}.md":
            found[name] = path
    return found


def _label(page: str, markdown: str, lang: str) -> str:
    number = chapters.number_of(page)
    if number is not None:
        return CHAPTER_LABEL[lang].format(n=number)
    if page == f"index.{lang}.md":
        return HOME[lang]
    heading = next(
        (m for m in map(_HEADING.match, markdown.split("\n")) if m and m[1] == "#"), None
    )
    return _title(heading[2]) if heading else page


@dataclass
class Bibliography:
    """The bibliography and every citation of one language's pages."""

    lang: str
    entries: dict[str, Entry]
    cited: dict[str, list[tuple[str, str, str]]]  # key -> (page, section, label), in page order

    @classmethod
    def read(cls, docs: Path, lang: str) -> Bibliography:
        """Read ``docs``: fails on a citation of no entry, on twins citing different papers,
        and on an entry no page cites."""
        entries = load(docs)
        keys: dict[str, dict[str, set[str]]] = {other: {} for other in LANGUAGES}
        cited: dict[str, list[tuple[str, str, str]]] = {key: [] for key in entries}
        for other in LANGUAGES:
            for page, path in _pages(docs, other).items():
                markdown = path.read_text("utf-8")
                citations = find(markdown, other, entries, page)
                twin = page.removesuffix(f".{other}.md")
                keys[other][twin] = {c.key for c in citations}
                if other != lang:
                    continue
                label = _label(page, markdown, lang)
                for citation in citations:
                    if all(cited_page != page for cited_page, _, _ in cited[citation.key]):
                        cited[citation.key].append((page, citation.section, label))
        for twin in sorted(set().union(*(pages for pages in keys.values()))):
            cite = {other: keys[other].get(twin, set()) for other in LANGUAGES}
            if len({frozenset(k) for k in cite.values()}) > 1:
                only = {
                    other: sorted(k - set.intersection(*cite.values())) for other, k in cite.items()
                }
                raise PageError(f"{twin}: its languages cite different papers: {only}")
        uncited = sorted(key for key, pages in cited.items() if not pages)
        if uncited:
            raise PageError(
                f"docs/{BIBLIOGRAPHY}: no page cites {', '.join(uncited)} (cite them by title)"
            )
        return cls(lang, entries, cited)

    def linked(self, markdown: str, page: str) -> str:
        """A page's Markdown with its citations linked (the references page: its entries)."""
        if page == f"{REFERENCES}.{self.lang}.md":
            return self.references(markdown, page)
        return link(markdown, find(markdown, self.lang, self.entries, page), page)

    def _written(self, entry: Entry, page: str) -> str:
        """An entry as the references page shows it."""
        label, address = entry.link
        before, between, after = CITED_IN[self.lang]
        cited = between.join(
            f"[{name}]({_relative(page, cited.removesuffix(f'.{self.lang}.md') + '.md')}"
            + (f"#{section})" if section else ")")
            for cited, section, name in self.cited[entry.key]
        )
        return (
            f"### {entry.title} {{ #{entry.key} }}\n\n"
            f"{entry.authors.rstrip('.')}. {entry.venue[self.lang]}. [{label}]({address})  \n"
            f"{before}{cited}{after}\n"
        )

    def references(self, markdown: str, page: str) -> str:
        """The references page with each group's entries under its heading."""
        groups = {entry.group for entry in self.entries.values()}
        headings = {
            m["anchor"] for m in map(_HEADING.match, markdown.split("\n")) if m and m[1] == "##"
        }
        if headings != groups:
            raise PageError(
                f"{page}: its ## headings {sorted(headings)} are not the groups of "
                f"docs/{BIBLIOGRAPHY} {sorted(groups)}"
            )
        lines = []
        for line in markdown.split("\n"):
            lines.append(line)
            heading = _HEADING.match(line)
            if heading and heading[1] == "##":
                group = [e for e in self.entries.values() if e.group == heading["anchor"]]
                lines += ["", *(self._written(entry, page) for entry in group)]
        return "\n".join(lines)
