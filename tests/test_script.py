"""Reading examples: cells keep their script line numbers and language tags."""

from resdoc.sitegen.script import read_cells

SCRIPT = '''"""Title zh · Title en."""

# %% [markdown] lang="zh"
# # 标题
#
# 正文

# %% [markdown] lang="en"
# # Title

# %%

x = 1
print(x)
'''


def test_cells_keep_line_numbers_and_metadata(tmp_path):
    path = tmp_path / "ex.py"
    path.write_text(SCRIPT, "utf-8")
    docstring, zh, en, code = read_cells(path)
    assert docstring.kind == "code" and docstring.first_line == 1
    assert (zh.kind, zh.metadata, zh.source) == ("markdown", {"lang": "zh"}, "# 标题\n\n正文")
    assert en.metadata == {"lang": "en"} and en.source == "# Title"
    assert code.kind == "code" and code.source == "x = 1\nprint(x)"
    assert SCRIPT.splitlines()[code.first_line - 1] == "x = 1"
