"""The site built by another generator than MkDocs, from the stages of ``stages.py``: the
exit path for when MkDocs and Material stop being maintained (issue 22).

    python -m resdoc.sitegen.staged_build zensical OUT [--compare SITE]

1. stages 1-2 write each language's filled Markdown, the examples' figures and KaTeX into
   ``OUT/docs`` with a configuration ``OUT/mkdocs.yml`` (ours, without the hooks);
2. Zensical builds ``OUT/site`` from them, with zensical-i18n for the two languages;
3. stages 3-4 run over each page Zensical wrote: figures, measured numbers, CJK lines, math;
4. with ``--compare``, each page's text, numbers, figures and formulas are compared with the
   same page of a site MkDocs built (``compare_sites.py``).

Zensical ignores ``hooks:`` and plugins it does not know, and has no mkdocs-jupyter: the
example pages, the search split and Material's markup patches stay MkDocs-only.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from resdoc.sitegen import compare_sites, stages
from resdoc.sitegen.conventions import LANGUAGES, language_prefixes, read_config
from resdoc.sitegen.examples import Example
from resdoc.sitegen.generated import KATEX_FILES

ROOT = Path(__file__).resolve().parents[2]
NOT_COPIED = ("translations.json", "references.yml")  # read by the stages, not published
_FRONT_MATTER = re.compile(r"\A(---\n.*?\n---\n)", re.S)


def _prefixes() -> dict[str, str]:
    return language_prefixes(LANGUAGES)


def page_url(page: str, lang: str) -> str:
    """A page's address in its language's site: ``chapters/04-add-norm.zh.md`` is at
    ``chapters/04-add-norm/``, ``index.en.md`` at ``""``."""
    name = page.removesuffix(".md").removesuffix(f".{lang}")
    if name == "index" or name.endswith("/index"):
        return name.removesuffix("index")
    return f"{name}/"


def config_for(out: Path) -> dict:
    """Our mkdocs.yml for a generator that runs from ``out``: no hooks, no notebook plugin,
    the snippets read from the project."""
    config = read_config(ROOT / "mkdocs.yml")
    config.pop("hooks", None)
    config.update(docs_dir="docs", site_dir="site", site_url=None, repo_url=None)
    config["plugins"] = [p for p in config["plugins"] if "mkdocs-jupyter" not in str(p)]
    for extension in config["markdown_extensions"]:
        if isinstance(extension, dict) and "pymdownx.snippets" in extension:
            extension["pymdownx.snippets"]["base_path"] = [str(ROOT)]
    config["nav"] = _without_notebooks(config["nav"])
    return {key: value for key, value in config.items() if value is not None}


def _without_notebooks(nav: list) -> list:
    kept = []
    for entry in nav:
        if isinstance(entry, dict):
            [(title, value)] = entry.items()
            if isinstance(value, list):
                value = _without_notebooks(value)
                if value:
                    kept.append({title: value})
            elif not str(value).endswith(".ipynb"):
                kept.append(entry)
        elif not str(entry).endswith(".ipynb"):
            kept.append(entry)
    return kept


def stage_markdown(out: Path) -> dict[str, stages.LanguagePass]:
    """Stages 1-2 into ``out/docs``: every page of every language filled in; the figures and
    KaTeX beside them. Returns each language's pass, for stages 3-4."""
    docs, staged = ROOT / "docs", out / "docs"
    shutil.rmtree(staged, ignore_errors=True)
    cache = Path(os.environ.get("RESDOC_CACHE_DIR") or ROOT / ".cache" / "resdoc")
    passes = {}
    for lang in LANGUAGES:
        state = stages.LanguagePass.start(ROOT, cache, lang, _prefixes())
        state.read_pages(docs)
        for path in sorted(docs.rglob(f"*.{lang}.md")):
            page = path.relative_to(docs).as_posix()
            text = path.read_text("utf-8")
            front = _FRONT_MATTER.match(text)
            head, body = (front[1], text[front.end() :]) if front else ("", text)
            target = staged / page
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(head + stages.markdown(state, body, page, None), "utf-8")
        passes[lang] = state
    for path in docs.rglob("*"):
        if path.is_file() and not path.name.endswith(".md") and path.name not in NOT_COPIED:
            _copy(path, staged / path.relative_to(docs))
    for example in passes[LANGUAGES[0]].examples:  # figure files carry their language
        for svg in sorted((example.output / "figures").glob("*.svg")):
            _copy(svg, staged / "figures" / example.name / svg.name)
    katex = ROOT / "node_modules" / "katex" / "dist"
    for path in [katex / name for name in KATEX_FILES] + sorted(katex.glob("fonts/*.woff2")):
        _copy(path, staged / "assets" / "katex" / path.relative_to(katex))
    (out / "mkdocs.yml").write_text(
        yaml.safe_dump(config_for(out), allow_unicode=True, sort_keys=False), "utf-8"
    )
    return passes


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def _figure_json(examples: dict[str, Example], uri: str) -> Path | None:
    """The ``<name>.json`` of ``figures/<example>/<name>.svg``, beside its SVG files."""
    _, example, name = uri.split("/")
    found = examples.get(example)
    return found.output / "figures" / f"{name.removesuffix('.svg')}.json" if found else None


def finish_pages(site: Path, passes: dict[str, stages.LanguagePass]) -> int:
    """Stages 3-4 over each Markdown page the generator wrote into ``site``; returns how many."""
    finished = 0
    for lang, state in passes.items():
        figure_info = functools.partial(_figure_json, {e.name: e for e in state.examples})
        for page in sorted(state.numbered):
            url = page_url(page, lang)
            path = site / state.prefixes[lang] / url / "index.html"
            html = path.read_text("utf-8")
            match = compare_sites.ARTICLE.search(html)
            if match is None:
                raise LookupError(f"{path}: no <article> of Material's page layout")
            body = stages.content(state, match[1], page, url, figure_info)
            html = html[: match.start(1)] + body + html[match.end(1) :]
            path.write_text(stages.finished_page(state, html, page, url), "utf-8")
            finished += 1
    return finished


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("generator", choices=["zensical"])
    parser.add_argument("out", type=Path, help="a folder for the staged pages and the site")
    parser.add_argument("--compare", type=Path, help="a site MkDocs built, to compare with")
    args = parser.parse_args(argv)
    out = args.out.resolve()
    passes = stage_markdown(out)
    site = out / "site"
    shutil.rmtree(site, ignore_errors=True)
    command = [sys.executable, "-m", "zensical_i18n", "build", "-f", str(out / "mkdocs.yml")]
    subprocess.run(command, cwd=out, check=True)
    print(f"resdoc: stages 3-4 over {finish_pages(site, passes)} pages of {site}")
    if args.compare is None:
        return 0
    pages = {lang: [page_url(p, lang) for p in state.numbered] for lang, state in passes.items()}
    report = compare_sites.compare(args.compare, site, pages, _prefixes())
    print(report.text())
    return 0 if report.same else 1


if __name__ == "__main__":
    sys.exit(main())
