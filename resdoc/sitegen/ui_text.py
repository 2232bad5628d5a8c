"""The site's own words, in every language, in one table: what the site adds to a page
(notices, labels, link texts, error pages) rather than what a page's Markdown says.

Each entry maps a language to its text (or to the texts of one piece of UI), and the module
that shows it imports it from here, so a translator finds every string in one file. An
entry with fewer languages than the site replaces upstream's English in those only: the
others keep upstream's words (``UPSTREAM_ENGLISH``; tests/test_ui_language.py checks both).
"""

from __future__ import annotations

# --- hooks.py -----------------------------------------------------------------------------------

BEHIND_NOTICE = {
    "zh": '!!! warning "译文可能落后"\n    本页的英文版在这份中文译文之后改动过，这里可能缺少最新内容。\n\n',
    "en": '!!! warning "This translation may be behind"\n    The Chinese original of this page changed after '
    "this translation was last updated; recent changes may be missing here.\n\n",
}

SEARCH_LABEL = {"zh": "搜索", "en": "Search"}

# --- pages.py -----------------------------------------------------------------------------------

# --- provenance.py: a measured number's tooltip and the page's closing list of its cells ---------

PROVENANCE_WORDS = {
    "zh": {
        "median": "{n} 个随机种子（{seeds}）的中位数",
        "lowest": "{n} 个随机种子（{seeds}）中的最小值",
        "highest": "{n} 个随机种子（{seeds}）中的最大值",
        "spread": "{n} 个随机种子（{seeds}）的中位数与范围",
        "same": "{n} 个随机种子（{seeds}）结果相同",
        "over": "{n} 个随机种子（{seeds}）",
        "once": "一次运行，不涉及随机种子",
        "where": "由可运行示例 {example} 的“{heading}”一节计算",
        "heading": "数字从哪里来",
        "intro": "本页标了虚线的数字都在构建网站时由可运行示例算出。下面每一项链接到算出它们的代码单元：",
        "count": "{n} 个数字",
        "nth_cell": "（第 {i} 个代码单元）",
        "versions": "运行环境：{versions}。",
    },
    "en": {
        "median": "Median of {n} seeds ({seeds})",
        "lowest": "Lowest of {n} seeds ({seeds})",
        "highest": "Highest of {n} seeds ({seeds})",
        "spread": "Median and range over {n} seeds ({seeds})",
        "same": "The same in all {n} seeds ({seeds})",
        "over": "Over {n} seeds ({seeds})",
        "once": "A single run, no random seed",
        "where": "computed in “{heading}” of runnable example {example}",
        "heading": "Where these numbers come from",
        "intro": "Every number with a dotted underline on this page was computed by a runnable "
        "example when the site was built. Each item below links to the cell that computed it:",
        "count": "{n} numbers",
        "nth_cell": " (code cell {i})",
        "versions": "Run with {versions}.",
    },
}

# --- example_pages.py ---------------------------------------------------------------------------

DOWNLOAD_LABELS = {
    "zh": (
        "下载脚本（.py）",
        "下载 notebook（.ipynb）",
        "本页由构建时运行 {script} 生成：代码、输出和图都来自那一次运行。",
    ),
    "en": (
        "Download the script (.py)",
        "Download the notebook (.ipynb)",
        "This page was produced by running {script} at build time: code, output and figures come from that run.",
    ),
}

# A folded run of bookkeeping statements (bookkeeping.py): what it records, how long it is,
# and the names it defines, which the lesson's code after it may use.
FOLD_LABELS = {
    "zh": {
        "what": {(True, False): "数字", (False, True): "结论", (True, True): "数字与结论"},
        "summary": "记录到页面的{what}（{lines} 行{s}）",
        "defines": "，定义 {names}",
        "joiner": "、",
        "plural": "",
    },
    "en": {
        "what": {
            (True, False): "numbers",
            (False, True): "claims",
            (True, True): "numbers and claims",
        },
        "summary": "Hands {what} to the site's pages ({lines} line{s})",
        "defines": "; defines {names}",
        "joiner": ", ",
        "plural": "s",
    },
}

RUN_IT = {
    "zh": {
        "title": "自己运行这个示例",
        "needs": "下载的脚本和 notebook 只需要 <code>resdoc</code> 这个包{repo}。用 Python 3.11 安装它"
        "（它固定使用 PyTorch 2.13.0，下面的命令装它的 CPU 版，不必下载 CUDA）：",
        "repo": '：它和本站在同一个<a href="{url}">代码仓库</a>里',
        "local": "：在构建本站的这份仓库里（<code>pyproject.toml</code> 所在的文件夹）",
        "then": "然后在任意一个空文件夹里运行脚本：",
        "notebook": "或在 Jupyter 里打开 <code>{name}.ipynb</code>，从上到下运行各格。数字、结论和图写到当前文件夹的 "
        "<code>.cache/hand-run/{name}/</code>；打印的文字用系统的语言，设 <code>RESDOC_LANG=zh</code> 或 "
        "<code>RESDOC_LANG=en</code> 可以指定。",
    },
    "en": {
        "title": "Run this example yourself",
        "needs": "The downloaded script and notebook need one package, <code>resdoc</code>{repo}. Install it "
        "with Python 3.11 (it pins PyTorch 2.13.0; the command below takes its CPU build, no CUDA download):",
        "repo": ', which lives in the site\'s <a href="{url}">repository</a>',
        "local": ", in the repository this site was built from (the folder with <code>pyproject.toml</code>)",
        "then": "Then run the script from any empty folder:",
        "notebook": "Or open <code>{name}.ipynb</code> in Jupyter and run its cells from the top. Numbers, "
        "claims and figures go to <code>.cache/hand-run/{name}/</code> in the current folder; printed "
        "text follows your system's language, or set <code>RESDOC_LANG=zh</code> or "
        "<code>RESDOC_LANG=en</code>.",
    },
}

# --- markup.py ----------------------------------------------------------------------------------

NOT_FOUND = {
    "zh": '<h1>404：找不到这个页面</h1>\n<p>这个地址上没有页面。回到<a href="{home}">首页</a>，或用上方的搜索。</p>',
    "en": "<h1>404: page not found</h1>\n<p>There is no page at this address. Go back to the "
    '<a href="{home}">home page</a>, or search above.</p>',
}

# --- chapters.py --------------------------------------------------------------------------------

CHAPTER_LABEL = {"zh": "第 {n} 章", "en": "Chapter {n}"}

# --- apparatus.py -------------------------------------------------------------------------------

FIGURE_LABEL = {"zh": "图 {n}", "en": "Figure {n}"}

EQUATION_REF = {"zh": "式 ({n})", "en": "Eq. ({n})"}

# --- citations.py -------------------------------------------------------------------------------

CITED_IN = {"zh": ("引用于：", "、", "。"), "en": ("Cited in: ", ", ", ".")}

HOME = {"zh": "首页", "en": "Home"}  # as the nav names it (its title is the site's motto)

# --- redirects.py -------------------------------------------------------------------------------

MOVED_PAGE = {
    "zh": ("本页已移动", "本页已移到"),
    "en": ("This page has moved", "This page is now at"),
}

# --- markup.py: upstream's English UI, in the languages that need their own -----------------

# The title of a heading's permalink (Python-Markdown's toc extension: one setting for every
# language).
PERMALINK_TITLE = {"zh": "本节链接"}
# The notebook's copy buttons (mkdocs-jupyter): their name and the feedback once copied.
NOTEBOOK_COPY = {"zh": {"name": "复制到剪贴板", "copied": "已复制"}}
UPSTREAM_ENGLISH = ("PERMALINK_TITLE", "NOTEBOOK_COPY")  # English pages keep upstream's words

# --- math.py ------------------------------------------------------------------------------------

# What a screen reader announces on reaching a display formula's box by keyboard
FORMULA_LABEL = {"zh": "公式", "en": "Formula"}

# --- listings.py: the line under a chapter's included code --------------------------------------

LISTING_NOTE = {
    "zh": (
        "完整代码：{files}。",
        "{file} 第 {first}–{last} 行",
        "；",
        "[可运行示例]({example})用到它",
    ),
    "en": (
        "Whole file: {files}.",
        "{file}, lines {first}–{last}",
        "; ",
        "the [runnable example]({example}) uses it",
    ),
}
