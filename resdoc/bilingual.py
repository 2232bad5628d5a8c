"""What an example prints, in the reader's language: ``say(zh, en, *values)``.

An example prints its tables and messages with :func:`say`, given the line in Chinese and
in English. Run by hand (the downloaded script or notebook), it prints the line in the
reader's language: ``RESDOC_LANG`` (``zh`` or ``en``) when it is set, else Chinese when the
locale is Chinese, else English. The docs build records both lines, and each language's
example page shows its own (``resdoc/sitegen/cellrun.py``).

>>> say("每个种子的最大差：", "largest difference per seed:", [0.5, 0.25], language="en")
largest difference per seed: [0.5, 0.25]
>>> say("每个种子的最大差：", "largest difference per seed:", [0.5, 0.25], language="zh")
每个种子的最大差： [0.5, 0.25]
"""

from __future__ import annotations

import locale
import os
from collections.abc import Callable

# The languages an example speaks, the site's default first (the i18n plugin's order; the
# figures are drawn in each: resdoc.style).
LANGUAGES = ("zh", "en")

# Filled by the build's cell runner: it keeps both languages' lines for the two pages.
hooks: list[Callable[[dict[str, str]], None]] = []


def reader_language() -> str:
    """``RESDOC_LANG``, else ``zh`` for a Chinese locale, else ``en``."""
    chosen = os.environ.get("RESDOC_LANG", "").strip().lower()
    if chosen:
        if chosen not in LANGUAGES:
            raise ValueError(
                f"RESDOC_LANG={chosen!r}: the examples speak {' and '.join(LANGUAGES)}"
            )
        return chosen
    spoken = locale.getlocale(locale.LC_MESSAGES)[0] or os.environ.get("LANG", "")
    return "zh" if spoken.lower().startswith("zh") else "en"


def say(zh: str, en: str, *values: object, sep: str = " ", language: str | None = None) -> None:
    """Print ``zh`` or ``en`` followed by ``values``, as ``print(text, *values)`` would, in
    the reader's language (or ``language``). The build keeps both."""
    lines = {lang: sep.join(map(str, (text, *values))) for lang, text in (("zh", zh), ("en", en))}
    if hooks and language is None:
        for hook in hooks:
            hook(lines)
        return
    print(lines[language or reader_language()])
