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

# {{ result:<example>/<key> }} (a number or text) and {{ claim:<example>/<key> }} (a sentence),
# filled from what an example recorded
PLACEHOLDER_KINDS = ("result", "claim")
PLACEHOLDER = re.compile(r"\{\{\s*(?P<kind>[a-z]+)\s*:\s*(?P<ref>[^\s}]+)\s*\}\}")


def placeholder(kind: str, ref: str) -> str:
    return f"{{{{ {kind}:{ref} }}}}"


# pymdownx.snippets: a line `--8<-- "file[:section]"` (`;--8<--` comments it out), and the
# section markers `# --8<-- [start:name]` ... `# --8<-- [end:name]` in the included file
SNIPPET = re.compile(r'^\s*;?--8<--\s+"(?P<target>[^"]+)"\s*$', re.MULTILINE)


def snippet_section(name: str) -> re.Pattern:
    """The text between a file's ``[start:name]`` and ``[end:name]`` markers (pymdownx.snippets')."""
    name = re.escape(name)
    return re.compile(rf"--8<-- \[start:{name}\]\n(.*?)\n[^\n]*--8<-- \[end:{name}\]", re.S)


# An example's figure, one SVG per language, published at the same URL in each language's tree
def figure_uri(example: str, name: str) -> str:
    return f"figures/{example}/{name}.svg"


# Each figure is drawn in four variants per language, named by layout and colour scheme, each
# in a file of its own: the suffix its file name gets (resdoc.style.VARIANTS draws them; the
# science never imports the site machinery, so tests/test_machinery.py keeps the two equal).
FIGURE_VARIANTS = {
    "wide-light": "",
    "wide-dark": ".dark",
    "narrow-light": ".narrow",
    "narrow-dark": ".narrow.dark",
}


def figure_file(name: str, lang: str, suffix: str = "") -> str:
    """The file an example writes for one language and variant of figure ``name`` (its
    ``suffix``: "" for the wide, light one, ".dark", ".narrow", ".narrow.dark"; see
    ``resdoc.style.VARIANTS``), published as ``figures/<example>/<name><suffix>.svg``.

    >>> figure_file("error-by-depth", "zh", ".narrow.dark")
    'error-by-depth.narrow.dark.zh.svg'
    """
    return f"{name}{suffix}.{lang}.svg"


def variant_uri(uri: str, suffix: str) -> str:
    """The URL of a figure's variant, from the URL of its wide, light SVG.

    >>> variant_uri("../figures/06-degradation/error-by-depth.svg", ".dark")
    '../figures/06-degradation/error-by-depth.dark.svg'
    """
    return uri.removesuffix(".svg") + suffix + ".svg"


# References to a page's own figures and numbered equations (resdoc/sitegen/apparatus.py):
# {{ figure:<name> }} and {{ eq:<label> }}
REFERENCE_KINDS = ("figure", "eq")


def languages(i18n_languages: list) -> tuple[str, ...]:
    """The site's languages from mkdocs-static-i18n's ``languages`` option, default first.

    >>> languages([{"locale": "en"}, {"locale": "zh", "default": True}])
    ('zh', 'en')
    """
    entries = [dict(entry) for entry in i18n_languages]
    entries.sort(key=lambda entry: not entry.get("default", False))
    return tuple(entry["locale"] for entry in entries)


def language_prefixes(order: tuple[str, ...]) -> dict[str, str]:
    """Each language's folder in the site, the default (first) one at the root.

    >>> language_prefixes(("zh", "en"))
    {'zh': '', 'en': 'en/'}
    """
    return {lang: "" if lang == order[0] else f"{lang}/" for lang in order}


class _IgnoreTags(yaml.SafeLoader):
    """mkdocs.yml with its tags (``!ENV``, ``!relative``) read as plain values."""


_IgnoreTags.add_multi_constructor("!", lambda loader, suffix, node: None)


def read_config(mkdocs_yml: Path) -> dict:
    """``mkdocs_yml`` as plain YAML, its tags (``!ENV``) read as None: for what needs the
    configuration outside a build (the languages, the tests)."""
    return yaml.load(mkdocs_yml.read_text("utf-8"), Loader=_IgnoreTags)


def languages_in(mkdocs_yml: Path) -> tuple[str, ...]:
    """The languages configured for the i18n plugin in ``mkdocs_yml``."""
    config = read_config(mkdocs_yml)
    for plugin in config.get("plugins", []):
        if isinstance(plugin, dict) and "i18n" in plugin:
            return languages(plugin["i18n"]["languages"])
    raise LookupError(f"{mkdocs_yml}: no i18n plugin with languages")


LANGUAGES = languages_in(Path(__file__).resolve().parents[2] / "mkdocs.yml")
