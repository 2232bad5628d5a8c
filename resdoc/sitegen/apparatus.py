"""A book's apparatus: numbered figures with captions, numbered equations, references to them.

In a page's Markdown a figure is an image whose title is its caption; the alt text says what
the image shows (for screen readers), the caption what it means (axes, scale, seeds, panels),
so that nobody hears the same text twice::

    ![Two line charts, ...](../figures/03-gradient-flow/gradient-norms.svg "Per-layer ...")

A display formula the text refers to carries a label, ``\\label{name}``, and the text refers to
figures and labelled formulas by name: ``{{ figure:gradient-norms }}``, ``{{ eq:chain-rule }}``.

On a chapter page the build numbers them in page order with the chapter's number
(``chapters.py``): the figures "图 3.1", "图 3.2" / "Figure 3.1", …, the labelled formulas
(3.1), (3.2), … (a KaTeX ``\\tag``); a reference becomes a link to the figure ("图 3.2") or the
formula ("式 (3.1)" / "Eq. (3.1)"). A reference to a name the page does not have, a label used
twice, or a chapter figure without a caption fails the build, naming the page.

>>> page = '''See {{ figure:line }} and {{ eq:sum }}.
... $$ y = x + F(x) \\\\label{sum} $$
... ![a line](../figures/e/line.svg "What the line means")'''
>>> markdown, found = number_page(page, "chapters/03-x.en.md", 3, "en")
>>> print(markdown)
See [Figure 3.1](#fig-line) and [Eq. (3.1)](#eq-sum).
<div class="rd-equation" id="eq-sum" markdown>
<BLANKLINE>
$$ y = x + F(x) \\tag{3.1} $$
<BLANKLINE>
</div>
![a line](../figures/e/line.svg "What the line means"){ #fig-line }
>>> found.figures
[Figure(name='line', label='Figure 3.1')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from resdoc.sitegen.conventions import PLACEHOLDER, REFERENCE_KINDS
from resdoc.sitegen.pages import PageError
from resdoc.sitegen.ui_text import EQUATION_REF, FIGURE_LABEL

# ![alt](…/figures/<example>/<name>.svg "caption"): the caption is optional on other pages
FIGURE = re.compile(
    r"!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]*figures/[^)\s/]+/(?P<name>[^)\s/.]+)\.svg)"
    r'(?:\s+"(?P<caption>[^"]*)")?\)'
)
# a display formula on lines of its own: $$ … $$
FORMULA = re.compile(r"^\$\$(?P<tex>.+?)\$\$[ \t]*$", re.M | re.S)
LABEL = re.compile(r"\\label\{(?P<label>[a-z0-9][a-z0-9-]*)\}")


@dataclass(frozen=True)
class Figure:
    name: str  # the SVG's name: its id on the page is fig-<name>
    label: str | None  # "图 3.2" / "Figure 3.2" on a chapter page, else None


@dataclass
class Apparatus:
    """What a page numbered: its figures in order, its labelled formulas' numbers."""

    figures: list[Figure] = field(default_factory=list)
    equations: dict[str, str] = field(default_factory=dict)  # label -> "3.1"


def figure_id(name: str) -> str:
    return f"fig-{name}"


def equation_id(label: str) -> str:
    return f"eq-{label}"


def number_page(markdown: str, page: str, chapter: int | None, lang: str) -> tuple[str, Apparatus]:
    """Number the figures and labelled formulas of ``page`` (chapter ``chapter``, or None for
    a page outside the chapters, whose figures stay unnumbered) and resolve its references."""
    found = Apparatus()

    def identify(match: re.Match) -> str:  # attr_list: MkDocs then knows the anchor (strict)
        return f"{match[0]}{{ #{figure_id(match['name'])} }}" if chapter is not None else match[0]

    for k, match in enumerate(FIGURE.finditer(markdown), start=1):
        name = match["name"]
        if any(figure.name == name for figure in found.figures):
            raise PageError(f"{page}: figure {name!r} is shown twice: its id must be unique")
        if chapter is not None and not (match["caption"] or "").strip():
            raise PageError(
                f"{page}: figure {name!r} has no caption: write it as the image's title, "
                f'![alt]({match["src"]} "caption") (resdoc/sitegen/apparatus.py)'
            )
        label = FIGURE_LABEL[lang].format(n=f"{chapter}.{k}") if chapter is not None else None
        found.figures.append(Figure(name, label))

    def tag(formula: re.Match) -> str:
        labels = LABEL.findall(formula["tex"])
        if not labels:
            return formula[0]
        if len(labels) > 1 or chapter is None:
            why = "more than one label" if len(labels) > 1 else "labels outside a chapter"
            raise PageError(f"{page}: a formula with {why}: {formula[0][:80]!r}")
        label = labels[0]
        if label in found.equations:
            raise PageError(f"{page}: equation label {label!r} is used twice")
        number = found.equations[label] = f"{chapter}.{len(found.equations) + 1}"
        tex = LABEL.sub(lambda _: f"\\tag{{{number}}}", formula["tex"])
        # md_in_html: the formula stays Markdown (arithmatex), inside a box with its id
        return (
            f'<div class="rd-equation" id="{equation_id(label)}" markdown>\n\n$${tex}$$\n\n</div>'
        )

    markdown = FORMULA.sub(tag, FIGURE.sub(identify, markdown))

    def reference(match: re.Match) -> str:
        kind, name = match["kind"], match["ref"]
        if kind == "figure":
            numbered = {f.name: f.label for f in found.figures if f.label}
            if name not in numbered:
                known = ", ".join(numbered) or "none"
                raise PageError(
                    f"{page}: {match[0]!r}: no numbered figure {name!r} here (figures: {known})"
                )
            return f"[{numbered[name]}](#{figure_id(name)})"
        if name not in found.equations:
            known = ", ".join(found.equations) or "none"
            raise PageError(
                f"{page}: {match[0]!r}: no formula labelled {name!r} here (labels: {known})"
            )
        text = EQUATION_REF[lang].format(n=found.equations[name])
        return f"[{text}](#{equation_id(name)})"

    def substitute(match: re.Match) -> str:
        return reference(match) if match["kind"] in REFERENCE_KINDS else match[0]

    return PLACEHOLDER.sub(substitute, markdown), found
