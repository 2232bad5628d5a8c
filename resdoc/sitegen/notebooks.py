"""Turn an executed example notebook into the notebook one language's page shows.

Plain JSON rather than nbformat: this runs on every build, where importing nbformat and
validating with it took about 0.2 s, thirty times the JSON work (the executed notebook was
written, and so validated, by nbformat when the example ran).
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from resdoc.sitegen.mime import FIGURE_MIME, TEXT_MIME


def figure_html(record: dict, lang: str, src: str) -> str:
    alt = html.escape(record["alt"][lang], quote=True)
    return f'<img class="resdoc-figure" src="{html.escape(src, quote=True)}" alt="{alt}">'


def language_notebook(executed: Path, lang: str, figure_src) -> dict:
    """Keep the cells of ``lang`` (and the untagged ones); show figures in that language.

    ``figure_src(example, name)`` gives the URL of a published figure, relative to the page.
    """
    notebook = json.loads(executed.read_text("utf-8"))
    cells = []
    for cell in notebook["cells"]:
        if cell["metadata"].get("lang", lang) != lang:
            continue
        for output in cell.get("outputs", []):
            record = output.get("data", {}).pop(FIGURE_MIME, None)
            if record is not None:
                src = figure_src(record["example"], record["name"])
                output["data"]["text/html"] = [figure_html(record, lang, src)]  # as nbformat: lines
        if "outputs" in cell:
            cell["outputs"] = printed_in(cell["outputs"], lang)
        cells.append(cell)
    notebook["cells"] = cells
    notebook["metadata"]["language"] = lang
    return notebook


def printed_in(outputs: list[dict], lang: str) -> list[dict]:
    """The outputs with every line said in both languages printed in ``lang``, and the
    printed text that follows one another as one output (one box on the page).

    >>> said = {"output_type": "display_data", "data": {TEXT_MIME: {"zh": "中", "en": "en"}}}
    >>> printed = {"output_type": "stream", "name": "stdout", "text": "1 2\\n"}
    >>> printed_in([printed, said], "en")
    [{'output_type': 'stream', 'name': 'stdout', 'text': '1 2\\nen\\n'}]
    """
    shown: list[dict] = []
    for output in outputs:
        said = output.get("data", {}).get(TEXT_MIME)
        if said is not None:
            output = {"output_type": "stream", "name": "stdout", "text": said[lang] + "\n"}
        previous = shown[-1] if shown else {}
        if (
            output["output_type"] == "stream"
            and previous.get("output_type") == "stream"
            and (previous["name"] == output["name"])
        ):
            text = "".join(previous["text"]) + "".join(output["text"])
            shown[-1] = {**previous, "text": text}
        else:
            shown.append(output)
    return shown


def notebook_text(notebook: dict) -> str:
    # nbformat's own layout, so the file reads as if nbformat had written it
    return json.dumps(notebook, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def write_if_changed(text: str, path: Path) -> Path:
    """Write ``text`` unless the file already holds it: unchanged files keep caches warm."""
    if not path.exists() or path.read_text("utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return path
