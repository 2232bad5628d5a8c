"""The site machinery (resdoc/sitegen): its docstrings run, the science does not import it,
its conventions agree with the science's, every markup patch fails loudly when the markup
it patches changes, and every private reliance names a version pinned in pyproject.toml."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib

import pytest
from mkdocs.plugins import event_priority
from packaging.requirements import Requirement

from resdoc.sitegen import conventions, hooks, markup, private
from tests.sites import ROOT

pytestmark = pytest.mark.upstream


def test_the_machinerys_docstring_examples_are_collected_by_the_test_command():
    """pytest skips folders named build/ (norecursedirs): the machinery's examples must not be.
    Collecting resdoc/ is enough: the configuration that could skip them is the same."""
    listed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "resdoc",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert listed.returncode == 0, listed.stdout[-3000:] + listed.stderr[-3000:]
    collected = listed.stdout.splitlines()
    assert any(line.startswith("resdoc/sitegen/conventions.py::line:") for line in collected)
    assert any(line.startswith("resdoc/sitegen/markup.py::line:") for line in collected)


def test_the_science_never_imports_the_machinery():
    offenders = []
    for path in sorted((ROOT / "resdoc").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
                names += [f"{names[0]}.{alias.name}" for alias in node.names]
            offenders += [f"{path.name}: {n}" for n in names if "sitegen" in n]
    assert offenders == []


def _sitegen_imports(module: str) -> set[str]:
    """The resdoc.sitegen modules ``module`` imports, directly or through each other."""
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        tree = ast.parse((ROOT / "resdoc" / "sitegen" / f"{name}.py").read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "resdoc.sitegen":
                todo += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "resdoc.sitegen."
            ):
                todo.append(node.module.removeprefix("resdoc.sitegen."))
    return seen


def test_every_example_depends_only_on_the_cell_runner_not_on_how_pages_show_it():
    # each module the cell runner imports is in every example's cache key (examples.py): an
    # edit to one of them runs all examples again
    assert _sitegen_imports("cellrun") == {"cellrun", "mime", "script"}


def test_publish_writes_placeholders_as_the_pages_read_them(tmp_path, monkeypatch):
    from resdoc import publish

    monkeypatch.setenv("RESDOC_OUTPUT_DIR", str(tmp_path))
    monkeypatch.setenv("RESDOC_EXAMPLE", "demo")
    publish.number("n", 3, "{:d}")
    publish.claim("positive", True, zh="{{ n }} 为正", en="{{ n }} is positive")
    recorded = publish._load("results.json")["positive"]["claim"]["en"]
    assert recorded == conventions.placeholder("result", "demo/n") + " is positive"
    [match] = conventions.PLACEHOLDER.finditer(recorded)
    assert (match["kind"], match["ref"]) == ("result", "demo/n")


def test_languages_come_from_the_i18n_configuration_default_first():
    from resdoc.style import LANGUAGES as FIGURE_LANGUAGES

    assert conventions.LANGUAGES == ("zh", "en")
    assert tuple(FIGURE_LANGUAGES) == conventions.LANGUAGES  # figures are drawn in each of them


def test_page_events_outside_a_language_pass_fail_clearly():
    assert hooks._pass is None
    with pytest.raises(Exception, match="outside a language pass"):
        hooks.current()


def test_every_private_reliance_names_a_pinned_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    pins = {
        str(Requirement(spec))
        for group in project["dependency-groups"].values()
        for spec in group
        if isinstance(spec, str)
    }
    for key, entry in private.PRIVATE.items():
        assert entry.package in pins, f"{key}: {entry.package} is not what pyproject.toml pins"
        assert entry.what and entry.why and entry.replacement


# --- markup patches: each one fails the build when the markup it patches is not there -------

PAGE = (
    '<html><head><link rel="alternate" href="./" hreflang="zh">'
    '<link rel="alternate" href="en/" hreflang="en"></head><body>'
    '<div class="md-search" data-md-component="search" role="dialog">'
    '<a href="../a/" class="md-footer__link md-footer__link--prev" aria-label="Previous: A">A</a>'
    '<a href="../c/" class="md-footer__link md-footer__link--next" aria-label="Next: C">C</a>'
    "</body></html>"
)


def test_material_page_fixes():
    fixed = markup.material_page(PAGE, "b.md", languages=2, label="Search", neighbours=2)
    assert 'rel="alternate"' not in fixed
    assert 'role="dialog" aria-label="Search">' in fixed
    assert 'aria-label="Previous' not in fixed and 'md-footer__link--next">C</a>' in fixed


@pytest.mark.parametrize(
    ("changed", "patch"),
    [
        (PAGE.replace('hreflang="en"', 'data-lang="en"'), "head's language alternates"),
        (PAGE.replace('data-md-component="search"', 'data-md-component="finder"'), "search dialog"),
        (PAGE.replace("md-footer__link--next", "md-footer__next"), "footer links"),
    ],
)
def test_material_markup_that_changed_fails_the_build_naming_the_patch(changed, patch):
    with pytest.raises(markup.MarkupChanged, match=f"b.md: the markup patch for the {patch}"):
        markup.material_page(changed, "b.md", languages=2, label="Search", neighbours=2)


NOTEBOOK = (
    '<!-- Load mathjax -->\n<script src=""> </script>\n<!-- End of mathjax configuration -->'
    '<script type="module">import("https://cdn.example/mermaid.mjs")</script>'
    '<h1 id="">标题<a class="anchor-link" href="#">¶</a></h1>'
    '<div class="highlight-ipynb hl-python"><pre>x = 1</pre></div>'
)


def test_notebook_page_fixes():
    page = markup.notebook_page(markup.heading_ids(NOTEBOOK, ["biao-ti"], "e"), "e")
    assert page == (
        '<h1 id="biao-ti">标题<a class="anchor-link" href="#biao-ti">¶</a></h1>'
        '<div class="highlight-ipynb hl-python" tabindex="0"><pre>x = 1</pre></div>'
    )


@pytest.mark.parametrize(
    ("changed", "patch"),
    [
        (NOTEBOOK.replace("<!-- Load mathjax -->", "<!-- MathJax -->"), "MathJax loader"),
        (NOTEBOOK.replace("mermaid", "diagrams"), "mermaid loader"),
        (NOTEBOOK + '<script src="https://cdn.example/require.js"></script>', "scripts loaded"),
        (NOTEBOOK.replace("highlight-ipynb", "jp-Code"), "keyboard focus on code cells"),
    ],
)
def test_nbconvert_markup_that_changed_fails_the_build_naming_the_patch(changed, patch):
    with pytest.raises(markup.MarkupChanged, match=f"e: the markup patch for .*{patch}"):
        markup.notebook_page(changed, "e")


def test_headings_that_do_not_match_the_table_of_contents_fail_the_build():
    with pytest.raises(markup.MarkupChanged, match="heading ids"):
        markup.heading_ids(NOTEBOOK, ["biao-ti", "second"], "e")


MARKDOWN_CELL = (
    '<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput" '
    'data-mime-type="text/markdown">\n{body}\n</div>'
)


def test_a_markdown_cell_ends_at_the_div_that_closes_it_not_at_a_div_inside_it():
    # a cell whose Markdown holds a div: its formulas after that div are in the cell too
    # (a lazy regex stopped at the first </div> and left them raw)
    cell = MARKDOWN_CELL.format(body="<p>$a$</p><div>note</div><p>$b$</p>")
    page = f"<main>{cell}<div>after</div></main>"
    [(start, end)] = markup.markdown_cells(page, 1, "e")
    assert page[start:end] == "\n<p>$a$</p><div>note</div><p>$b$</p>\n"


@pytest.mark.parametrize(
    "page",
    [
        MARKDOWN_CELL.format(body="<p>$a$</p>").replace("jp-RenderedMarkdown", "jp-Markdown"),
        MARKDOWN_CELL.format(body="<p>$a$</p>").removesuffix("</div>"),
    ],
    ids=["wrapper renamed", "no closing div"],
)
def test_markdown_cells_nbconvert_no_longer_marks_fail_the_build(page):
    # counted against the notebook's Markdown cells: 0 found for 1 fails, naming the cells
    with pytest.raises(markup.MarkupChanged, match="e: nbconvert's Markdown cells"):
        markup.markdown_cells(page, 1, "e")


# --- private reliances: present in the installed versions, and a loud error when gone -------


def test_the_internals_the_build_relies_on_are_there():
    """What docs-latest reports first when a new release drops one of them."""
    import jieba
    from mkdocs.structure.pages import Page
    from mkdocs_static_i18n.plugin import I18n

    i18n = I18n()
    i18n.i18n_files_per_language.setdefault("zh", [])  # filled by its on_files
    private.add_to_i18n_pages(i18n, "zh", ["page"])
    assert i18n.i18n_files_per_language["zh"] == ["page"]
    assert hasattr(Page, "present_anchor_ids")
    assert callable(private.nb2html())
    tokenizer = jieba.Tokenizer()
    assert private.jieba_is_plain(tokenizer)
    # the flag as i18n itself sets it (false from its start; true while its on_post_build
    # builds the other languages), not set here: a rename makes this fail
    config = type("Config", (), {"plugins": {"i18n": i18n}})()
    assert private.i18n_last_pass(config)
    private.check_i18n_order(i18n)
    from material.plugins.search.plugin import SearchPlugin

    search = SearchPlugin()
    search.on_startup(command="serve", dirty=True)  # as a live preview starts it
    private.search_not_dirty(type("Config", (), {"plugins": {"material/search": search}}))
    assert search.is_dirty is False and search.search_index_prev is None


def test_the_pages_i18n_makes_carry_the_attributes_generated_pages_are_given(tmp_path):
    from mkdocs.structure.files import File, Files
    from mkdocs_static_i18n.folder import create_i18n_file

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.zh.md").write_text("# x\n", "utf-8")
    config = type(
        "Config", (), {"docs_dir": str(tmp_path / "docs"), "site_dir": str(tmp_path / "site")}
    )
    config.use_directory_urls = True
    plain = File("index.zh.md", config.docs_dir, config.site_dir, True)
    made = create_i18n_file(plain, "zh", "zh", ["zh", "en"], config)
    private.check_i18n_file_attrs(Files([made]))  # as i18n 1.3.1 makes them
    with pytest.raises(private.PrivateAPIChanged, match="\\(i18n-file-attrs: "):
        private.check_i18n_file_attrs(Files([plain]))  # attributes i18n no longer sets


class LateI18n:
    """An i18n whose on_files would run after the hooks' (AFTER_I18N = -200)."""

    @event_priority(-300)
    def on_files(self, files, config):
        return files


@pytest.mark.parametrize(
    ("call", "key"),
    [
        (lambda: private.add_to_i18n_pages(object(), "zh", []), "i18n-files"),
        (lambda: private.render_with(object(), None, None), "page-render"),
        (
            lambda: private.i18n_last_pass(type("C", (), {"plugins": {"i18n": object()}})()),
            "i18n-building",
        ),
        (lambda: private.check_i18n_order(LateI18n()), "i18n-order"),
        (lambda: private.jieba_is_plain(object()), "jieba-dict"),
        (lambda: private.jieba_dictionary(object()), "jieba-dict"),
        (lambda: private.search_entries(type("Index", (), {"entries": {}})()), "search-entries"),
        (
            lambda: private.search_not_dirty(type("C", (), {"plugins": {"material/search": 1}})),
            "search-dirty",
        ),
    ],
)
def test_a_missing_internal_fails_the_build_naming_its_entry(call, key):
    with pytest.raises(private.PrivateAPIChanged, match=f"\\({key}: "):
        call()


def test_the_hooks_start_without_matplotlib_or_torch():
    """The docs build imports the hooks on every build and every live-preview start: what only
    the examples need (figures, training) stays out of it."""
    code = "import sys, resdoc.sitegen.hooks; print(sorted({'matplotlib', 'torch'} & set(sys.modules)))"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"
