"""Formulas as a reader would say them in plain text, for search results.

A page's formulas are TeX until the build typesets them, after the search plugin indexed the
page; a result's snippet would show ``\\(\\mathcal{F}(x) + x\\)``. :func:`readable` writes the
same formula in plain characters instead, and :func:`formulas_as_text` does it for every
formula of an indexed text (``\\( \\)`` and ``\\[ \\]`` from arithmatex, ``$ $`` and ``$$ $$``
from the notebooks' Markdown cells).

>>> readable(r"y = x + \\mathcal{F}(x)")
'y = x + F(x)'
>>> readable(r"d_\\text{model} = 4\\,d_\\text{ff}")
'd_model = 4 d_ff'
>>> readable(r"\\frac{\\partial \\ell}{\\partial x_{l+1}} \\approx \\lVert W \\rVert^2")
'∂ℓ/∂x_(l+1) ≈ ‖W‖^2'
>>> readable(r"\\sqrt{2/n_\\text{in}}, \\; \\mathbb{R}^d, \\; \\sum_{i=1}^{L} \\lambda^{L-l}")
'√(2/n_in), ℝ^d, Σ_(i=1)^L λ^(L-l)'
>>> formulas_as_text(r"the output \\(y = \\mathrm{LN}(x + \\mathcal{F}(x))\\), or $\\eta s^2$")
'the output y = LN(x + F(x)), or η s^2'
"""

from __future__ import annotations

import re

_GREEK_NAMES = (
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
    "sigma tau upsilon phi chi psi omega"
)
_GREEK = dict(zip(_GREEK_NAMES.split(), "αβγδεζηθικλμνξοπρστυφχψω", strict=True))
SYMBOLS = {
    **_GREEK,
    **{name.title(): letter.upper() for name, letter in _GREEK.items()},
    "varepsilon": "ε",
    "varphi": "φ",
    "ell": "ℓ",
    "partial": "∂",
    "nabla": "∇",
    "infty": "∞",
    "sum": "Σ",
    "prod": "∏",
    "cdot": "·",
    "times": "×",
    "odot": "⊙",
    "otimes": "⊗",
    "circ": "∘",
    "pm": "±",
    "approx": "≈",
    "sim": "~",
    "propto": "∝",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "neq": "≠",
    "in": "∈",
    "subseteq": "⊆",
    "subset": "⊂",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "mapsto": "↦",
    "Longrightarrow": "⟹",
    "Rightarrow": "⇒",
    "lVert": "‖",
    "rVert": "‖",
    "Vert": "‖",
    "lvert": "|",
    "rvert": "|",
    "langle": "⟨",
    "rangle": "⟩",
    "top": "ᵀ",
    "prime": "′",
    "dots": "…",
    "ldots": "…",
    "cdots": "⋯",
    "ln": "ln",
    "log": "log",
    "exp": "exp",
    "max": "max",
    "min": "min",
}
BLACKBOARD = {"R": "ℝ", "E": "𝔼", "N": "ℕ", "Z": "ℤ"}
# commands that only change the look of their argument: the argument is what is read
_STYLE = r"text|mathrm|mathcal|mathbf|mathit|mathsf|boldsymbol|bm|operatorname|textbf|hat|bar|tilde"
_ARGUMENT = r"\{((?:[^{}]|\{[^{}]*\})*)\}"  # one braced argument, one level of nesting inside
_PREFIXES = re.compile(r"\\(partial|nabla)(?![a-zA-Z])\s*")
_ACCENTS = re.compile(r"\\(?:hat|bar|tilde|vec)(?![a-zA-Z])\s*(?!\{)")  # \hat v reads v
_SPACES = re.compile(r"\\(?:quad|qquad|[,;:! ])|~")
_SIZES = re.compile(r"\\(?:left|right|[bB]ig{1,2}[lr]?)(?![a-zA-Z])")
_ENVIRONMENT = re.compile(r"\\(?:begin|end)\{[^}]*\}")
_BLACKBOARD = re.compile(r"\\mathbb\{(\w)\}")
_STYLED = re.compile(rf"\\(?:{_STYLE})\s*{_ARGUMENT}")
_FRACTION = re.compile(rf"\\[td]?frac\s*{_ARGUMENT}\s*{_ARGUMENT}")
_BINOMIAL = re.compile(rf"\\binom\s*{_ARGUMENT}\s*{_ARGUMENT}")
_ROOT = re.compile(rf"\\sqrt\s*{_ARGUMENT}")
_COMMAND = re.compile(r"\\([a-zA-Z]+)")
_DELIMITERS = re.compile(r"\\(?P<open>lVert|lvert|langle)\s*|\s*\\(?P<close>rVert|rvert|rangle)")
_SCRIPT = re.compile(r"([_^])\{([^{}]*)\}")
FORMULA = re.compile(
    r"\\\((?P<inline>.+?)\\\)|\\\[(?P<display>.+?)\\\]"
    r"|\$\$(?P<notebook_display>.+?)\$\$|(?<![\\$\w])\$(?P<notebook_inline>[^$\s][^$]*?)\$",
    re.S,
)


def _grouped(text: str) -> str:
    """``text`` as one unit after a fraction bar or a root: in parentheses unless it is one."""
    outside = re.sub(r"\([^()]*\)", "", text)  # what is not already in parentheses
    return f"({text})" if re.search(r"[\s+\-/·×=,]", outside) else text


def _script(match: re.Match) -> str:
    """``x_{l+1}`` reads ``x_(l+1)``; ``x_{l}`` reads ``x_l``."""
    return match[1] + (match[2] if len(match[2]) == 1 else f"({match[2]})")


def readable(tex: str) -> str:
    """TeX in plain characters (no backslash, no brace is left)."""
    text = _PREFIXES.sub(lambda m: SYMBOLS[m[1]], tex)  # "\\partial \\ell" reads "∂ℓ"
    text = _ENVIRONMENT.sub(" ", _ACCENTS.sub("", text)).replace("\\\\", "; ")
    text = text.replace("&amp;", " ")  # an alignment mark, HTML-escaped in the index
    text = _SIZES.sub("", _SPACES.sub(" ", text))
    text = _BLACKBOARD.sub(lambda m: BLACKBOARD.get(m[1], m[1]), text)
    text = _DELIMITERS.sub(lambda m: SYMBOLS[m["open"] or m["close"]], text)
    # symbols first, so that a fraction sees what it divides; the structure commands stay
    text = _COMMAND.sub(lambda m: SYMBOLS.get(m[1], m[0]), text)
    for _ in range(4):  # nested arguments, inside out
        text = _STYLED.sub(r"\1", text)
        text = _SCRIPT.sub(_script, text)
        text = _FRACTION.sub(lambda m: f"{_grouped(m[1].strip())}/{_grouped(m[2].strip())}", text)
        text = _BINOMIAL.sub(r"C(\1, \2)", text)
        text = _ROOT.sub(lambda m: f"√{_grouped(m[1].strip())}", text)
    text = _COMMAND.sub(lambda m: SYMBOLS.get(m[1], ""), text)
    text = text.replace("{", "").replace("}", "").replace("\\", "").replace("^ᵀ", "ᵀ")
    return re.sub(r"\s+", " ", text).strip()


def formulas_as_text(text: str) -> str:
    """``text`` with each of its formulas written by :func:`readable`."""
    return FORMULA.sub(lambda m: readable(next(g for g in m.groups() if g is not None)), text)


_DOLLARS = re.compile(r"(?<![\\$\w])\$(?P<tex>[^$\s][^$]*?)\$")


def plain(text: str) -> str:
    r"""Text with each ``$…$`` formula in it read in plain characters: for places that show
    text without typesetting it (a tooltip, a code listing's docstring).

    >>> plain("GPT-2 的初始化：输出投影乘以 $1/\\sqrt{N}$")
    'GPT-2 的初始化：输出投影乘以 1/√N'
    """
    return _DOLLARS.sub(lambda m: readable(m["tex"]), text)
