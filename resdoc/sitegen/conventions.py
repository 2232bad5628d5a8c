"""The site's conventions, each written once: placeholders, snippet includes, figure URLs,
and the languages (read from mkdocs-static-i18n's configuration).

A page refers to what an example recorded with a placeholder, and to code with an include:

>>> placeholder("result", "06-degradation/err_d32")
'{{ result:06-degradation/err_d32 }}'
>>> [(m["kind"], m["ref"]) for m in PLACEHOLDER.finditer("a {{ claim:06-degradation/grows }} b")]
[('claim', '06-degradation/grows')]
>>> SNIPPET.match('--8<-- "resdoc/models.py:block"')["target"]
'resdoc/models.py:block'
>>> figure_uri("06-degradation", "error-by-depth")
'figures/06-degradation/error-by-depth.svg'

(``resdoc.publish``, on the science side, writes ``{{ result:… }}`` into claims itself: the
science never imports the site machinery, so the two spellings are kept equal by
``tests/test_machinery.py``.)
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

# {{ result:<example>/<key> }} (a number or text) and {{ claim:<example>/<key> }} (a sentence)
PLACEHOLDER_KINDS = ("result", "claim")
PLACEHOLDER = re.compile(r"\{\{\s*(?P<kind>[a-z]+)\s*:\s*(?P<ref>[^\s}]+)\s*\}\}")


def placeholder(kind: str, ref: str) -> str:
    return f"{{{{ {kind}:{ref} }}}}"


# pymdownx.snippets: a line `--8<-- "file[:section]"` (`;--8<--` comments it out), and the
# section markers `# --8<-- [start:name]` ... `# --8<-- [end:name]` in the included file
SNIPPET = re.compile(r'^\s*;?--8<--\s+"(?P<target>[^"]+)"\s*$', re.MULTILINE)


def snippet_section(name: str) -> re.Pattern:
    """The text between a file's ``[start:name]`` and ``[end:name]`` markers."""
    name = re.escape(name)
    return re.compile(rf"--8<-- \[start:{name}\]\n(.*?)\n[^\n]*--8<-- \[end:{name}\]", re.S)


# An example's figure, one SVG per language, published at the same URL in each language's tree
FIGURE_URI = re.compile(r"figures/(?P<example>[^\"/\s)]+)/(?P<name>[^\"/\s)]+)\.svg")


def figure_uri(example: str, name: str) -> str:
    return f"figures/{example}/{name}.svg"


def figure_file(name: str, lang: str) -> str:
    """The file an example writes for one language of figure ``name``."""
    return f"{name}.{lang}.svg"


def languages(i18n_languages: list) -> tuple[str, ...]:
    """The site's languages from mkdocs-static-i18n's ``languages`` option, default first.

    >>> languages([{"locale": "en"}, {"locale": "zh", "default": True}])
    ('zh', 'en')
    """
    entries = [dict(entry) for entry in i18n_languages]
    entries.sort(key=lambda entry: not entry.get("default", False))
    return tuple(entry["locale"] for entry in entries)


class _IgnoreTags(yaml.SafeLoader):
    """mkdocs.yml with its tags (``!ENV``, ``!relative``) read as plain values."""


_IgnoreTags.add_multi_constructor("!", lambda loader, suffix, node: None)


def languages_in(mkdocs_yml: Path) -> tuple[str, ...]:
    """The languages configured for the i18n plugin in ``mkdocs_yml``."""
    config = yaml.load(mkdocs_yml.read_text("utf-8"), Loader=_IgnoreTags)
    for plugin in config.get("plugins", []):
        if isinstance(plugin, dict) and "i18n" in plugin:
            return languages(plugin["i18n"]["languages"])
    raise LookupError(f"{mkdocs_yml}: no i18n plugin with languages")


LANGUAGES = languages_in(Path(__file__).resolve().parents[2] / "mkdocs.yml")
