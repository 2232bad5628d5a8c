"""Search for readers: chapters first, readable snippets, whole Chinese words, each language's
own index. The site tests ask Material's own search worker in Chromium (tests/audit.py runs
the queries of its SEARCHES in the page audit's browser)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jieba
import pytest

from resdoc.sitegen import markup, search
from resdoc.sitegen.markup import MarkupChanged
from tests.audit import SEARCHES
from tests.sites import ROOT

pytestmark = pytest.mark.upstream

# (language's home, query): pages any of which must be among the first `top` results
EXPECTED = {
    ("", "残差"): (("chapters/01-shortcut/",), 3),
    ("", "梯度消失"): (("chapters/11-misconceptions/", "chapters/06-degradation/"), 1),
    ("", "预热"): (("chapters/04-add-norm/",), 1),
    ("", "层归一化"): (("chapters/04-add-norm/",), 1),
    ("", "退化"): (("chapters/06-degradation/",), 1),
    ("", "Post-LN"): (("chapters/04-add-norm/",), 3),
    ("", "warmup"): (("chapters/04-add-norm/",), 1),
    ("", "warm-up"): (("chapters/04-add-norm/",), 1),
    ("", "gradient"): (("chapters/03-gradient-flow/",), 3),
    ("", "layer norm"): (("chapters/04-add-norm/",), 1),
    ("", "shattered"): (("chapters/03-gradient-flow/",), 1),
    ("", "bottleneck"): (("chapters/07-conv-resnets/", "chapters/08-ffn/"), 3),
    ("", "pre-ln"): (("chapters/04-add-norm/",), 3),
    ("en/", "residual"): (("chapters/01-shortcut/",), 5),
    ("en/", "vanishing gradient"): (
        ("chapters/03-gradient-flow/", "chapters/11-misconceptions/"),
        3,
    ),
    ("en/", "warmup"): (("chapters/04-add-norm/",), 1),
    ("en/", "warm-up"): (("chapters/04-add-norm/",), 1),
    ("en/", "Post-LN"): (("chapters/04-add-norm/",), 3),
    ("en/", "pre-ln"): (("chapters/04-add-norm/",), 3),
    ("en/", "Pre-LN"): (("chapters/04-add-norm/",), 3),
    ("en/", "gradient"): (("chapters/03-gradient-flow/",), 3),
    ("en/", "layer norm"): (("chapters/04-add-norm/",), 1),
    ("en/", "shattered"): (("chapters/03-gradient-flow/",), 1),
    ("en/", "bottleneck"): (("chapters/07-conv-resnets/",), 1),
    ("en/", "degradation"): (("chapters/06-degradation/",), 1),
}
# Chinese queries that are one word of the index: highlighted whole, never a part of them
WHOLE_WORDS = ("预热", "层归一化", "残差连接", "梯度消失")
MARK = re.compile(r"<mark>(.*?)</mark>")


def _page(location: str) -> str:
    return location.partition("#")[0]


def _pages(groups: list) -> list[str]:
    return [_page(group[0]["location"]) for group in groups]


# --- the index and the pages, built from known input ----------------------------------------


def test_a_result_shows_words_formulas_as_text_and_no_code():
    text = (
        "<p>\u200b残差\u200b \\(y = x + \\mathcal{F}(x)\\) and $d_\\text{model}$, warm-up</p>"
        "<pre>publish.claim(...)</pre>"
    )
    assert search.readable(text, "zh") == (
        "<p>\u200b残差\u200b y = x + F(x) and d_model, warm-up<span hidden>warmup</span></p>"
    )
    assert search.readable(text, "en") == (
        "<p> y = x + F(x) and d_model, warm-up<span hidden>warmup</span></p>"
    )
    assert search.readable("学习率预热¶", "zh") == "学习率预热"  # nbconvert's heading anchor


def test_each_language_index_holds_its_own_readable_entries(tmp_path):
    docs = [
        {"location": "", "title": "首页", "text": "<p>残差 \\(x\\)</p>"},
        {"location": "en/", "title": "Home", "text": "<p>Residual 残差 <code>x</code></p>"},
        {"location": "en/examples/a/", "title": "A", "text": "<pre>code</pre>", "boost": 0.05},
    ]
    config = {"lang": ["zh", "en"], "separator": "[\\s]+", "pipeline": ["trimmer"], "fields": {}}
    (tmp_path / "search").mkdir()
    (tmp_path / search.INDEX).write_text(json.dumps({"config": config, "docs": docs}), "utf-8")
    search.split_index(tmp_path, {"zh": "", "en": "en/"})
    zh = json.loads((tmp_path / search.INDEX).read_text("utf-8"))
    en = json.loads((tmp_path / "en" / search.INDEX).read_text("utf-8"))
    assert zh["docs"] == [{"location": "", "title": "首页", "text": "<p>残差 x</p>"}]
    assert [d["text"] for d in en["docs"]] == ["<p>Residual <code>x</code></p>", ""]
    assert en["docs"][1]["boost"] == 0.05  # Material's search.boost, kept
    assert (zh["config"]["lang"], en["config"]["lang"]) == (["zh"], ["en"])


def test_an_index_of_another_schema_fails_the_build(tmp_path):
    (tmp_path / "search").mkdir()
    (tmp_path / search.INDEX).write_text(json.dumps({"docs": []}), "utf-8")
    with pytest.raises(Exception, match="search-index"):
        search.split_index(tmp_path, {"zh": ""})


CONFIG_PAGE = (
    '<head><script id="__config" type="application/json">{{"annotate": null, {keys}, '
    '"search": "../assets/w.js"}}</script></head>'
    '<body><input type="checkbox" id="__search"><input class="md-search__input"></body>'
)


@pytest.mark.parametrize("keys", ['"base": "../.."', '"analytics": null, "base": "../.."'])
def test_a_page_of_another_language_finds_its_own_index_whatever_the_keys(keys):
    page = CONFIG_PAGE.format(keys=keys)
    assert '"base": "../../en/"' in search.for_page(page, "en/", "p.md")
    assert '"base": "../.."' in search.for_page(page, "", "p.md")
    assert "search_index" in search.for_page(page, "", "p.md")  # fetched once search is opened


def test_a_page_without_materials_search_field_fails_the_build():
    page = CONFIG_PAGE.format(keys='"base": ".."').replace("md-search__input", "md-finder")
    with pytest.raises(MarkupChanged, match="p.md: the markup patch for the search toggle"):
        search.for_page(page, "en/", "p.md")


def test_a_page_without_materials_config_fails_the_build():
    page = CONFIG_PAGE.format(keys='"base": ".."').replace('id="__config"', 'id="config"')
    with pytest.raises(MarkupChanged, match="p.md: the markup patch for the page's configuration"):
        search.for_page(page, "en/", "p.md")


NOTEBOOK_CELL = (
    '<div class="jp-InputPrompt jp-InputArea-prompt">[1]:</div>'
    '<span class="notice" hidden="">Copied!</span><div class="highlight-ipynb hl-python">'
    '<pre>x = 1</pre></div><div class="clipboard-copy-txt" id="cell-1">x = 1</div>'
    '<div class="jp-OutputPrompt jp-OutputArea-prompt">Out[1]:</div>'
)


def test_an_example_page_weighs_less_and_its_cells_ui_is_not_indexed():
    meta = {}
    html = search.for_example_page(NOTEBOOK_CELL, meta, "examples/a.ipynb", 1)
    assert meta == {"search": {"boost": search.EXAMPLE_BOOST}}
    assert html.count('data-search-exclude="ui"') == 4  # prompts, feedback, clipboard copy
    changed = NOTEBOOK_CELL.replace('class="clipboard-copy-txt"', 'class="copy-text"')
    with pytest.raises(MarkupChanged, match="the code's copy for the clipboard"):
        search.for_example_page(changed, {}, "examples/a.ipynb", 1)


def test_a_site_without_materials_search_worker_fails_the_build(tmp_path):
    from resdoc.sitegen import private

    scripts = tmp_path / search.SCRIPTS
    (scripts / "workers").mkdir(parents=True)
    (scripts / "bundle.0.min.js").write_text(_installed_material_script("bundle"), "utf-8")
    with pytest.raises(private.PrivateAPIChanged, match="one workers/search.*.min.js expected"):
        search.material_scripts(tmp_path)
    (scripts / "workers" / "search.0.min.js").write_text("for(;;){}", "utf-8")
    with pytest.raises(MarkupChanged, match="the search worker's Chinese query segmentation"):
        search.material_scripts(tmp_path)


def _installed_material_script(name: str) -> str:
    import material

    scripts = Path(material.__file__).parent / "templates" / search.SCRIPTS
    [path] = scripts.glob(f"{name}.*.min.js")
    return path.read_text("utf-8")


def test_the_installed_search_worker_gets_its_segmentation_fixed_once():
    worker = _installed_material_script("workers/search")
    fixed = markup.SEARCH_WORKER_SEGMENT.apply(worker, 1, "worker")
    assert fixed.count("<=") == worker.count("<=") + 1


def test_the_installed_bundle_still_fetches_the_index_as_on_demand_expects():
    from resdoc.sitegen import private

    private.index_fetched_by_xhr(_installed_material_script("bundle"))
    with pytest.raises(private.PrivateAPIChanged, match="search-xhr"):
        private.index_fetched_by_xhr("fetch(new URL('search/search_index.json'))")


def _glossary_terms() -> set[str]:
    """The Chinese terms of the glossary's first column (each Han run of two characters or more)."""
    terms = set()
    for line in (ROOT / "docs" / "glossary.zh.md").read_text("utf-8").splitlines():
        cells = line.split("|")
        if len(cells) > 2 and not set(cells[1]) <= set("- ") and cells[1].strip() != "中文":
            terms |= {run for run in re.findall(r"[\u4e00-\u9fff]{2,}", cells[1])}
    return terms


def test_no_glossary_term_is_cut_into_single_characters_by_the_search_segmenter():
    """The index holds the term, or its words: a reader's query finds it, and is highlighted
    as a whole (Material marks what the index holds)."""
    tokenizer = jieba.Tokenizer()
    tokenizer.load_userdict(str(ROOT / "resdoc" / "sitegen" / "jieba_user_dict.txt"))
    terms = _glossary_terms()
    assert len(terms) > 50
    cut = {term: list(tokenizer.cut(term)) for term in sorted(terms)}
    broken = {term: "/".join(words) for term, words in cut.items() if min(map(len, words)) == 1}
    assert broken == {}, "add them to resdoc/sitegen/jieba_user_dict.txt"
    for term in ("层归一化", "残差连接", "预激活", "预热", "梯度消失"):
        assert cut.get(term, list(tokenizer.cut(term))) == [term]


def test_every_expected_query_is_asked():
    assert {(home, query) for home, query in EXPECTED} <= {
        (home, query) for home, queries in SEARCHES.items() for query in queries
    }
    assert set(WHOLE_WORDS) <= set(SEARCHES[""])


# --- the built site's search, in a browser --------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("home", "query"), sorted(EXPECTED))
def test_search_finds_the_chapter_before_its_example_page(searches, home, query):
    expected, top = EXPECTED[home, query]
    pages = _pages(searches[home][query])
    assert pages, f"{home or 'zh'}: no result for {query!r}"
    assert set(expected) & set(pages[:top]), f"{query!r}: {expected} not in the top {top}: {pages}"
    assert not pages[0].startswith("examples/"), f"{query!r}: an example page first: {pages}"
    for rank, page in enumerate(pages):
        chapter = page.replace("examples/", "chapters/", 1)
        if page.startswith("examples/") and chapter in pages:
            assert pages.index(chapter) < rank, f"{query!r}: {page} above its chapter: {pages}"


@pytest.mark.slow
@pytest.mark.parametrize("query", WHOLE_WORDS)
def test_a_chinese_word_is_searched_and_highlighted_whole(searches, query):
    groups = searches[""][query]
    assert groups, f"no result for {query!r}"
    for group in groups[:3]:
        best = group[0]
        marks = MARK.findall(best["title"] + best["text"])
        assert query in marks, f"{query!r} not highlighted whole in {best['location']}: {marks}"
        assert not [m for m in marks if query.startswith(m) and m != query], marks


@pytest.mark.slow
def test_the_english_search_holds_english_only(searches, site):
    assert searches["en/"]["残差"] == []
    index = (site / "en" / search.INDEX).read_text("utf-8")
    assert not re.search(r"[\u4e00-\u9fff]", index)


@pytest.mark.slow
@pytest.mark.parametrize("prefix", ["", "en/"])
def test_search_snippets_have_no_tex_and_no_code(site, prefix):
    index = json.loads((site / prefix / search.INDEX).read_text("utf-8"))
    for doc in index["docs"]:
        shown = doc["title"] + doc["text"]
        leftovers = re.findall(r"\\[a-zA-Z(\[]+|\$[^$\s]|<pre>|publish\.\w+|Copied!|已复制", shown)
        assert leftovers == [], f"{prefix}{doc['location']}: {leftovers[:5]}"
