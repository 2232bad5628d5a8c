"""How a number is written in the book's prose, in both languages: one rule, applied by
:mod:`resdoc.publish` to every number it records.

- powers of ten as ``4.8 × 10⁻³²``, never e-notation (``4.8e-32``), which is for code;
- one minus sign, U+2212 (``−0.3``), never the hyphen-minus of a keyboard;
- the ``×`` held to its neighbours by no-break spaces, so a line never breaks inside a number.

>>> typeset("4.8e-32"), typeset("2.4e+08"), typeset("1e-05"), typeset("-0.25")
('4.8\\xa0×\\xa010⁻³²', '2.4\\xa0×\\xa010⁸', '10⁻⁵', '−0.25')
"""

from __future__ import annotations

import re

MINUS = "\u2212"
TIMES = "\u00a0×\u00a0"  # no-break spaces: "4.8 ×" never ends a line before "10⁻³²"

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_E_NOTATION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)e([+-]?)(\d+)\b")
_HYPHEN_MINUS = re.compile(r"(?<![\w.)\]])-(?=\d|\.\d)")  # "-0.3", not "ResNet-50" or "2-3"


def power_of_ten(mantissa: str, sign: str, digits: str) -> str:
    """``mantissa × 10^(sign digits)`` in superscripts; a mantissa of 1 is left out."""
    exponent = ("-" if sign == "-" else "") + (digits.lstrip("0") or "0")
    power = "10" + exponent.translate(_SUPERSCRIPT)
    if exponent == "0":
        return mantissa
    return power if mantissa in ("1", "1.0") else f"{mantissa}{TIMES}{power}"


def typeset(text: str) -> str:
    """``text`` (a formatted number, or a few of them) as the prose writes numbers."""
    text = _E_NOTATION.sub(lambda m: power_of_ten(m[1], m[2], m[3]), text)
    return _HYPHEN_MINUS.sub(MINUS, text)
