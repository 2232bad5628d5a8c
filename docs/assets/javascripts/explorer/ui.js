/*
 * resdoc gradient-flow explorer: controls, chart, note and table.
 *
 * Fills every <div id="explorer"> (or <div data-resdoc-explorer>) on the page. The language
 * comes from the element's data-lang, else from <html lang>. Needs model.js and notes.js
 * loaded first. Every change of a control recomputes at once (synchronously) and redraws a
 * hand-drawn SVG chart, a note that reads the result and a <table> of the same numbers.
 * The chart is pinned at the top of the widget (CSS sticky) while the controls scroll
 * under it, so a reader on a phone sees the curves while dragging a slider.
 * The settings live in the address (?block=plain&depth=50…, or ?preset=he): read on load,
 * written with history.replaceState as the reader changes them. Nothing is fetched.
 */
(function () {
  "use strict";

  const M = window.ResdocExplorerModel;
  const N = window.ResdocExplorerNotes;
  const SVG_NS = "http://www.w3.org/2000/svg";
  const fmt = N && N.fmt;

  const TEXT = {
    zh: {
      title: "梯度流可视化",
      presets: "引导示例",
      block: "块",
      blocks: {
        plain: "普通：Wx",
        plainrelu: "普通 + ReLU：relu(Wx)",
        residual: "残差：x + Wx",
        mlp: "残差 + 非线性分支：x + W₂·relu(W₁x)",
        postln: "Post-LN：LN(x + Wx)",
        preln: "Pre-LN：x + W·LN(x)",
        scaled: "缩放捷径：λ·x + Wx",
      },
      lambda: "捷径系数 λ",
      finalLN: "输出前再加一个 LN（final LN）",
      depth: "深度（块数）",
      width: "宽度 n",
      init: "权重初始化",
      inits: {
        default: "PyTorch 默认：U(−1/√n, 1/√n)",
        he: "He：N(0, 2/n)",
        xavier: "Xavier：N(0, 1/n)",
        custom: "自选方差：N(0, c/n)",
      },
      variances: { default: "方差 1/(3n)", he: "方差 2/n", xavier: "方差 1/n", custom: "方差 c/n" },
      variance: "c（方差 = c/n）",
      seed: "随机种子",
      newSeed: "换个种子",
      total: "总梯度范数",
      totalNote: "第 0 章的演示所打印的那个数：所有权重梯度拼在一起的范数。整个网络只有这一个数，所以不画在逐层的图上",
      loss: "损失（MSE）",
      ratio: "输入梯度 ÷ 输出梯度",
      ratioNote: "GRAD0 ÷ GRADL：从输出传到输入，激活梯度变大（&gt; 1）还是变小（&lt; 1）",
      reading: "读图",
      series: {
        act: "前向：激活范数 ACT",
        grad: "反向：激活梯度 GRAD",
        wgrad: "权重梯度 WGRAD",
      },
      xAxis: "层 l（l = 0 是输入，l = L 是最后一块的输出）",
      xAxisShort: "层 l（0 是输入，L 是输出）",
      yAxis: "范数（对数坐标）",
      table: "逐层数值表",
      showTable: "显示逐层数值表",
      hideTable: "隐藏逐层数值表",
      caption: (c, label) =>
        `逐层范数：${label}，深度 ${c.depth}，宽度 ${c.width}，批大小 ${c.batch}，种子 ${c.seed}`,
      layer: "层 l",
      none: "—",
      chartLabel: (c, label) =>
        `折线图：${label}，深度 ${c.depth}、宽度 ${c.width} 时各层的激活范数、激活梯度范数和权重梯度范数（对数坐标）。数值见下方的逐层数值表。`,
      overflow: "部分数值溢出或为零，图中未画出（见下方说明和数值表）。",
      summary: (total, loss, verdict) => `总梯度范数 ${total}，损失 ${loss}，${verdict}`,
    },
    en: {
      title: "Gradient-flow explorer",
      presets: "Guided presets",
      block: "Block",
      blocks: {
        plain: "plain: Wx",
        plainrelu: "plain + ReLU: relu(Wx)",
        residual: "residual: x + Wx",
        mlp: "residual, nonlinear branch: x + W₂·relu(W₁x)",
        postln: "Post-LN: LN(x + Wx)",
        preln: "Pre-LN: x + W·LN(x)",
        scaled: "scaled shortcut: λ·x + Wx",
      },
      lambda: "Shortcut scale λ",
      finalLN: "Final LN before the output",
      depth: "Depth (blocks)",
      width: "Width n",
      init: "Weight initialization",
      inits: {
        default: "PyTorch default: U(−1/√n, 1/√n)",
        he: "He: N(0, 2/n)",
        xavier: "Xavier: N(0, 1/n)",
        custom: "chosen variance: N(0, c/n)",
      },
      variances: { default: "variance 1/(3n)", he: "variance 2/n", xavier: "variance 1/n", custom: "variance c/n" },
      variance: "c (variance = c/n)",
      seed: "Random seed",
      newSeed: "New seed",
      total: "Total gradient norm",
      totalNote:
        "the single number chapter 0's demo prints: the norm of all weight gradients together. It is one number for the whole network, so the per-layer chart does not draw it",
      loss: "Loss (MSE)",
      ratio: "Input gradient ÷ output gradient",
      ratioNote: "GRAD0 ÷ GRADL: does the activation gradient grow (&gt; 1) or shrink (&lt; 1) on its way from the output to the input?",
      reading: "Reading",
      series: {
        act: "forward: activation norm ACT",
        grad: "backward: activation gradient GRAD",
        wgrad: "weight gradient WGRAD",
      },
      xAxis: "layer l (l = 0 is the input, l = L the last block's output)",
      xAxisShort: "layer l (0: input, L: output)",
      yAxis: "norm (log scale)",
      table: "Per-layer values",
      showTable: "Show the per-layer table",
      hideTable: "Hide the per-layer table",
      caption: (c, label) =>
        `Per-layer norms: ${label}, depth ${c.depth}, width ${c.width}, batch ${c.batch}, seed ${c.seed}`,
      layer: "layer l",
      none: "—",
      chartLabel: (c, label) =>
        `Line chart: activation norms, activation-gradient norms and weight-gradient norms per layer for ${label}, depth ${c.depth}, width ${c.width} (log scale). The numbers are in the per-layer table below.`,
      overflow: "Some values overflowed or are zero and are not drawn (see the note below and the table).",
      summary: (total, loss, verdict) => `total gradient norm ${total}, loss ${loss}, ${verdict}`,
    },
  };

  const PRESETS = [
    {
      id: "seed",
      label: { zh: "第 0 章的演示", en: "Chapter 0's demo" },
      config: { block: "residual", init: "default", depth: 20, width: 32, seed: 42 },
      note: {
        zh: "看反向曲线 GRAD：从输出往输入，它每层乘上差不多同一个倍数——是在增长，而不是被“无损”地保持；把块换成“普通：Wx”对比。",
        en: "Follow the backward curve GRAD: from the output towards the input it is multiplied by about the same factor in every layer — it grows rather than being kept “lossless”; switch the block to “plain: Wx” to compare.",
      },
    },
    {
      id: "he",
      label: { zh: "为什么用 He 初始化", en: "Why He init" },
      config: { block: "plainrelu", init: "he", depth: 50, width: 64, seed: 42 },
      note: {
        zh: "ReLU 把大约一半的信号清零，He 初始化的方差 2/n 正好补回来，所以两条曲线大致水平；换成 PyTorch 默认或 Xavier，看它们一层层缩小。",
        en: "ReLU zeroes about half of the signal and He's variance 2/n makes up for it, so both curves stay roughly level; switch to the PyTorch default or Xavier and watch them shrink layer after layer.",
      },
    },
    {
      id: "postln",
      label: { zh: "为什么 Post-LN 要小心", en: "Why Post-LN needs care" },
      config: { block: "postln", init: "he", depth: 100, width: 16, seed: 42 },
      note: {
        zh: "LN 把每层的前向范数钉住，但梯度每层都要穿过一个 LN，没有原样传回的捷径：多点几次“换个种子”，看输入处的梯度忽大忽小、差出几个数量级，再换成 Pre-LN 对比。",
        en: "LN pins the forward norm in every layer, but the gradient has to pass through an LN in every layer, with no shortcut that carries it back unchanged: press “New seed” a few times and watch the input gradient jump by orders of magnitude, then switch to Pre-LN to compare.",
      },
    },
    {
      id: "lambda",
      label: { zh: "λ = 0.5：初始化时信号衰减", en: "λ = 0.5: signals decay at initialization" },
      config: { block: "scaled", lambda: 0.5, init: "default", depth: 50, width: 32, seed: 42 },
      note: {
        zh: "λ = 0.5 时每一层都把捷径上的信号减半，初始化时的前向和反向曲线又像普通堆叠一样指数衰减；把 λ 拖回 1 看区别。这里只有初始化，没有训练。",
        en: "With λ = 0.5 every layer halves what the shortcut carries, and at initialization both curves decay exponentially again, like a plain stack; drag λ back to 1 to see the difference. This is initialization only, no training.",
      },
    },
  ];

  // Math in labels, set as HTML: a Latin font and real subscripts (see explorer.css).
  const MATH = {
    WGRAD: "‖∂<i>L</i>/∂<i>W</i><sub><i>l</i></sub>‖",
    GRAD0: "‖∂<i>L</i>/∂<i>x</i><sub>0</sub>‖",
    GRADL: "‖∂<i>L</i>/∂<i>x</i><sub><i>L</i></sub>‖",
    GRAD: "‖∂<i>L</i>/∂<i>x</i><sub><i>l</i></sub>‖",
    ACT: "‖<i>x</i><sub><i>l</i></sub>‖",
  };

  function withMath(text) {
    return text.replace(/WGRAD|GRAD0|GRADL|GRAD|ACT/g, (key) => `<span class="rx-math">${MATH[key]}</span>`);
  }

  const WIDTHS = [4, 8, 16, 32, 64, 128];
  const MAX_DEPTH = 100;
  const MAX_SEED = 2147483647;
  const URL_DELAY_MS = 200; // replaceState once the reader pauses, not on every step of a drag

  let instances = 0;

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === false || value == null) continue;
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  // ---- settings: one cleaning for the controls and the address ---------------------------

  /**
   * Settings from untrusted values (a control's text, a query parameter), each clamped to
   * what the controls offer; a missing or unreadable value keeps the one in `fallback`.
   */
  function clean(raw, fallback) {
    const number = (v, fb) => {
      if (v === "" || v == null) return fb;
      const x = Number(v);
      return Number.isFinite(x) ? x : fb;
    };
    const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
    const width = number(raw.width, fallback.width);
    const lambda = clamp(number(raw.lambda, fallback.lambda), 0, 2);
    const finalLN = raw.finalLN;
    return {
      block: M.BLOCKS.includes(raw.block) ? raw.block : fallback.block,
      init: M.INITS.includes(raw.init) ? raw.init : fallback.init,
      depth: clamp(Math.round(number(raw.depth, fallback.depth)), 1, MAX_DEPTH),
      width: WIDTHS.reduce((best, w) => (Math.abs(w - width) < Math.abs(best - width) ? w : best)),
      variance: clamp(number(raw.variance, fallback.variance), 0.01, 10),
      lambda: Number((Math.round(lambda * 20) / 20).toFixed(2)), // the slider's step, 0.05
      finalLN: finalLN == null ? Boolean(fallback.finalLN) : finalLN === true || finalLN === "1" || finalLN === "true",
      seed: clamp(Math.round(number(raw.seed, fallback.seed)), 0, MAX_SEED),
      batch: M.DEFAULTS.batch,
    };
  }

  // The settings that matter for a config: λ only for the scaled shortcut, and so on.
  function relevant(s) {
    const out = { block: s.block, depth: s.depth, width: s.width, init: s.init, seed: s.seed };
    if (s.init === "custom") out.variance = s.variance;
    if (s.block === "scaled") out.lambda = s.lambda;
    if (s.block === "preln") out.finalLN = Boolean(s.finalLN);
    return out;
  }

  function presetSettings(preset) {
    return clean(Object.assign({}, M.DEFAULTS, preset.config), M.DEFAULTS);
  }

  /** Does `state` equal the preset's settings (apart from the seed, if `anySeed`)? */
  function matches(state, preset, anySeed) {
    const a = relevant(state);
    const b = relevant(presetSettings(preset));
    if (anySeed) a.seed = b.seed;
    return JSON.stringify(a) === JSON.stringify(b);
  }

  // address parameter -> setting
  const PARAMS = { block: "block", depth: "depth", width: "width", init: "init", c: "variance", lambda: "lambda", finalLN: "finalLN", seed: "seed" };

  /** Settings and preset from a query string: ?preset=he, then any parameter over it. */
  function fromQuery(search) {
    const query = new URLSearchParams(search);
    const named = PRESETS.find((p) => p.id === query.get("preset"));
    const base = presetSettings(named || PRESETS[0]);
    const raw = Object.assign({}, base);
    for (const [param, key] of Object.entries(PARAMS)) if (query.has(param)) raw[key] = query.get(param);
    const state = clean(raw, base);
    const preset = named && matches(state, named, true) ? named : PRESETS.find((p) => matches(state, p, false));
    return { state: state, preset: preset || null };
  }

  /** The query string for the settings, keeping any parameter that is not ours (?h=…). */
  function toQuery(search, state, preset) {
    const query = new URLSearchParams(search);
    for (const param of ["preset"].concat(Object.keys(PARAMS))) query.delete(param);
    if (preset && matches(state, preset, true)) {
      query.set("preset", preset.id);
      if (state.seed !== presetSettings(preset).seed) query.set("seed", String(state.seed));
    } else {
      const s = relevant(state);
      for (const [param, key] of Object.entries(PARAMS)) {
        if (key in s) query.set(param, key === "finalLN" ? (s[key] ? "1" : "0") : String(s[key]));
      }
    }
    const text = query.toString();
    return text ? "?" + text : "";
  }

  /** A memo of unit matrices for the current seed and width: depth changes reuse them. */
  function matrixCache() {
    let key = "";
    let store = new Map();
    return function (seed, width, distribution, layer, slot) {
      const k = seed + "|" + width + "|" + distribution;
      if (k !== key) {
        key = k;
        store = new Map();
      }
      const id = layer * 2 + slot;
      let m = store.get(id);
      if (!m) {
        m = M.unitMatrix(seed, width, distribution, layer, slot);
        store.set(id, m);
      }
      return m;
    };
  }

  function language(root) {
    const lang = (root.dataset.lang || document.documentElement.lang || "zh").toLowerCase();
    return lang.startsWith("zh") ? "zh" : "en";
  }

  function create(root) {
    if (!M || !N) throw new Error("model.js and notes.js must be loaded before ui.js");
    const lang = language(root);
    const T = TEXT[lang];
    const uid = "rx" + ++instances;
    const unit = matrixCache();
    // The page's own explorer keeps its settings in the address; a second one would not.
    const ownsAddress = root.id === "explorer" && !document.querySelector(`[data-rx-address]`);
    if (ownsAddress) root.dataset.rxAddress = "true";
    const start = ownsAddress ? fromQuery(window.location.search) : { state: presetSettings(PRESETS[0]), preset: PRESETS[0] };
    const state = start.state;
    let preset = start.preset;

    root.textContent = "";
    root.classList.add("rx-explorer");
    root.setAttribute("lang", lang === "zh" ? "zh-CN" : "en");

    // ---- presets
    const presetNote = el("p", { class: "rx-note rx-preset-note", "aria-live": "polite", id: uid + "-note" });
    const presetBar = el("div", { class: "rx-presets", role: "group", "aria-labelledby": uid + "-presets" }, [
      el("span", { class: "rx-presets-title", id: uid + "-presets", text: T.presets }),
    ]);
    const presetButtons = PRESETS.map((p) => {
      const button = el("button", { type: "button", class: "rx-button", "data-preset": p.id, "aria-pressed": "false", text: p.label[lang] });
      button.addEventListener("click", () => applyPreset(p));
      presetBar.append(button);
      return button;
    });

    // ---- controls
    function field(name, label, control, extra) {
      control.id = uid + "-" + name;
      control.name = name;
      const wrap = el("div", { class: "rx-field rx-field-" + name }, [
        el("label", { for: control.id, text: label }),
        el("div", { class: "rx-input" }, [control].concat(extra || [])),
      ]);
      return wrap;
    }
    function select(options) {
      const s = el("select");
      for (const [value, label] of options) s.append(el("option", { value: String(value), text: label }));
      return s;
    }

    const blockSel = select(M.BLOCKS.map((b) => [b, T.blocks[b]]));
    const lambdaIn = el("input", { type: "range", min: "0", max: "2", step: "0.05" });
    const lambdaOut = el("output", { for: uid + "-lambda", class: "rx-value" });
    const finalIn = el("input", { type: "checkbox" });
    const depthIn = el("input", { type: "range", min: "1", max: String(MAX_DEPTH), step: "1" });
    const depthOut = el("output", { for: uid + "-depth", class: "rx-value" });
    const widthSel = select(WIDTHS.map((w) => [w, String(w)]));
    const initSel = select(M.INITS.map((i) => [i, T.inits[i]]));
    const initHint = el("small", { class: "rx-hint", id: uid + "-init-hint" });
    initSel.setAttribute("aria-describedby", initHint.id);
    const varianceIn = el("input", { type: "number", min: "0.01", max: "10", step: "0.01", inputmode: "decimal" });
    const seedIn = el("input", { type: "number", min: "0", max: String(MAX_SEED), step: "1", inputmode: "numeric" });
    const seedButton = el("button", { type: "button", class: "rx-button", text: T.newSeed });

    const finalField = el("div", { class: "rx-field rx-field-finalLN rx-check" }, [finalIn, el("label", { for: uid + "-finalLN", text: T.finalLN })]);
    finalIn.id = uid + "-finalLN";
    finalIn.name = "finalLN";
    const fields = {
      block: field("block", T.block, blockSel),
      lambda: field("lambda", T.lambda, lambdaIn, [lambdaOut]),
      finalLN: finalField,
      depth: field("depth", T.depth, depthIn, [depthOut]),
      width: field("width", T.width, widthSel),
      init: field("init", T.init, initSel),
      variance: field("variance", T.variance, varianceIn),
      seed: field("seed", T.seed, seedIn, [seedButton]),
    };
    fields.init.append(initHint);
    const form = el("form", { class: "rx-controls", "aria-label": T.title }, Object.values(fields));
    form.addEventListener("submit", (event) => event.preventDefault());

    // ---- results
    let lastWidth = 0; // the chart's width, result and label when it was last drawn
    let lastResult = null;
    let lastLabel = "";
    const totalOut = el("output", { class: "rx-total-value", id: uid + "-total" });
    const lossOut = el("output", { class: "rx-small-value" });
    const ratioOut = el("output", { class: "rx-small-value" });
    const live = el("p", { class: "rx-sr-only", "aria-live": "polite" });
    const stat = (cls, label, output, noteHtml) => {
      const box = el("div", { class: "rx-stat " + cls }, [el("div", { class: "rx-stat-label", text: label }), output]);
      if (noteHtml) {
        const small = el("div", { class: "rx-stat-note" });
        small.innerHTML = withMath(noteHtml);
        box.append(small);
      }
      return box;
    };
    const stats = el("div", { class: "rx-stats" }, [
      stat("rx-stat-total", T.total, totalOut, T.totalNote),
      stat("rx-stat-ratio", T.ratio, ratioOut, T.ratioNote),
      stat("rx-stat-loss", T.loss, lossOut, ""),
      live,
    ]);
    const legend = el("div", { class: "rx-legend" });
    for (const key of ["act", "grad", "wgrad"]) {
      const item = el("span", { class: "rx-legend-item rx-legend-" + key }, [svgSwatch(key)]);
      const text = el("span");
      text.innerHTML = withMath(T.series[key]);
      item.append(text);
      legend.append(item);
    }
    const chart = el("div", { class: "rx-chart" });
    const warning = el("p", { class: "rx-warning", hidden: true, text: T.overflow });
    // an invisible SVG with the chart's classes, to measure tick labels before laying out
    const measureSvg = document.createElementNS(SVG_NS, "svg");
    const measureBox = el("div", { class: "rx-measure", "aria-hidden": "true" }, [measureSvg]);
    const view = el("div", { class: "rx-view" }, [legend, chart, warning, measureBox]);
    const readingNote = el("div", { class: "rx-note rx-reading", id: uid + "-reading" });
    const table = el("table", { class: "rx-table" });
    const tableWrap = el("div", {
      class: "rx-table-wrap",
      id: uid + "-table",
      hidden: true,
      tabindex: "0",
      role: "region",
      "aria-label": T.table,
    }, [table]);
    const tableButton = el("button", {
      type: "button",
      class: "rx-button rx-table-toggle",
      "aria-expanded": "false",
      "aria-controls": tableWrap.id,
      text: T.showTable,
    });
    tableButton.addEventListener("click", () => {
      const open = tableWrap.hidden;
      if (open && lastResult) drawTable(lastResult, lastLabel);
      tableWrap.hidden = !open;
      tableButton.setAttribute("aria-expanded", String(open));
      tableButton.textContent = open ? T.hideTable : T.showTable;
    });

    root.append(presetBar, presetNote, view, form, readingNote, stats, tableButton, tableWrap);

    // ---- behaviour
    function syncControls() {
      blockSel.value = state.block;
      lambdaIn.value = String(state.lambda);
      finalIn.checked = Boolean(state.finalLN);
      depthIn.value = String(state.depth);
      widthSel.value = String(state.width);
      initSel.value = state.init;
      syncNumberInputs();
      showState();
    }

    // what follows the settings without being a control: outputs, hidden fields, the hint
    function showState() {
      lambdaOut.value = state.lambda.toFixed(2);
      depthOut.value = String(state.depth);
      fields.lambda.hidden = state.block !== "scaled";
      fields.finalLN.hidden = state.block !== "preln";
      fields.variance.hidden = state.init !== "custom";
      // "variance 1/(3n) = 0.0104": the formula and its value at the current width
      const scale = M.initScale(M.config(state));
      const variance = scale.distribution === "uniform" ? (scale.scale * scale.scale) / 3 : scale.scale * scale.scale;
      initHint.textContent = `${T.variances[state.init]} = ${fmt(variance)}`;
    }

    function syncNumberInputs() {
      seedIn.value = String(state.seed);
      varianceIn.value = String(state.variance);
    }

    function markPreset() {
      for (const button of presetButtons) button.setAttribute("aria-pressed", String(Boolean(preset) && button.dataset.preset === preset.id));
      presetNote.innerHTML = preset ? withMath(preset.note[lang]) : "";
      presetNote.hidden = !preset;
    }

    // After a change: the preset stays while only its seed changed ("New seed" is part of
    // the Post-LN preset); settings that equal another preset's select that one.
    function followPreset() {
      if (preset && matches(state, preset, true)) return;
      preset = PRESETS.find((p) => matches(state, p, false)) || null;
    }

    function applyPreset(p) {
      Object.assign(state, presetSettings(p));
      preset = p;
      syncControls();
      markPreset();
      update();
    }

    function readControls(event) {
      const target = event && event.target;
      Object.assign(
        state,
        clean(
          {
            block: blockSel.value,
            lambda: lambdaIn.value,
            finalLN: finalIn.checked,
            depth: depthIn.value,
            width: widthSel.value,
            init: initSel.value,
            variance: varianceIn.value,
            seed: seedIn.value,
          },
          state,
        ),
      );
      showState();
      // a number being typed keeps the reader's text until the field is left
      if (target !== seedIn && target !== varianceIn) syncNumberInputs();
      followPreset();
      markPreset();
      update();
    }

    form.addEventListener("input", readControls);
    form.addEventListener("change", (event) => {
      if (event.target === seedIn || event.target === varianceIn) syncNumberInputs();
    });
    seedButton.addEventListener("click", () => {
      state.seed = (state.seed + 1) % (MAX_SEED + 1);
      seedIn.value = String(state.seed);
      followPreset();
      markPreset();
      update();
    });

    function blockLabel(c) {
      const [open, close, comma] = lang === "zh" ? ["（", "）", "，"] : [" (", ")", ", "];
      let label = T.blocks[c.block];
      if (c.block === "scaled") label += `${open}λ = ${c.lambda}${close}`;
      if (c.finalLN) label += " + final LN";
      label += comma + T.inits[c.init].split(/[:：]/)[0];
      if (c.init === "custom") label += `${open}c = ${c.variance}${close}`;
      return label;
    }

    // Input, target and scaled weights, kept while only the depth or the block changes.
    let dataKey = "";
    let data = null;
    function dataFor(config) {
      const variance = config.init === "custom" ? config.variance : "";
      const key = [config.seed, config.width, config.init, variance, M.matricesPerBlock(config.block)].join("|");
      if (key !== dataKey || data.weights.length < config.depth) {
        data = M.generate(config, unit);
        dataKey = key;
      }
      return data;
    }

    let rendered = false;
    function update() {
      const started = performance.now();
      const config = M.config(state);
      const d = dataFor(config);
      const result = M.run(config, d);
      const computed = performance.now();
      const label = blockLabel(config);
      drawChart(result, label);
      if (!tableWrap.hidden) drawTable(result, label); // a hidden table is drawn when it opens
      const read = N.reading(result, d.target);
      readingNote.innerHTML = `<strong>${T.reading}</strong>${lang === "zh" ? "：" : ": "}${N.note(read, lang)}`;
      const g = result.activationGrads;
      totalOut.value = fmt(result.totalGradNorm);
      lossOut.value = fmt(result.loss);
      ratioOut.value = fmt(g[0] / g[g.length - 1]);
      live.textContent = T.summary(fmt(result.totalGradNorm), fmt(result.loss), N.verdictWords(read, lang));
      root.dataset.computeMs = (computed - started).toFixed(2);
      root.dataset.renderMs = (performance.now() - started).toFixed(2);
      root.resdocResult = result;
      root.resdocReading = read;
      if (rendered) scheduleAddress();
      rendered = true;
      root.dispatchEvent(new CustomEvent("resdoc-explorer-rendered", { detail: result }));
    }

    // ---- the address: written once the reader pauses (browsers throttle replaceState)
    let addressTimer = 0;
    function scheduleAddress() {
      if (!ownsAddress) return;
      clearTimeout(addressTimer);
      addressTimer = setTimeout(writeAddress, URL_DELAY_MS);
    }
    function writeAddress() {
      const query = toQuery(window.location.search, state, preset);
      if (query !== window.location.search) {
        history.replaceState(history.state, "", window.location.pathname + query + window.location.hash);
      }
      // the language switch opens the other language's explorer with the same settings
      for (const link of document.querySelectorAll("a[hreflang]")) {
        const url = new URL(link.href, window.location.href);
        if (url.origin === window.location.origin && /\/explorer\/$/.test(url.pathname)) {
          url.search = query;
          link.href = url.href;
        }
      }
      root.dataset.address = query;
    }

    // The table is built once; a redraw only adds or removes rows and changes the texts.
    const caption = el("caption");
    const tbody = el("tbody");
    function drawTable(result, label) {
      const c = result.config;
      if (!table.firstChild) {
        const head = el("thead");
        head.innerHTML =
          `<tr><th scope="col">${T.layer}</th><th scope="col">${withMath("ACT")}</th>` +
          `<th scope="col">${withMath("GRAD")}</th><th scope="col">${withMath("WGRAD")}</th></tr>`;
        table.append(caption, head, tbody);
      }
      caption.textContent = T.caption(c, label);
      while (tbody.rows.length > c.depth + 1) tbody.lastChild.remove();
      while (tbody.rows.length < c.depth + 1) {
        const row = el("tr", {}, [el("th", { scope: "row", text: String(tbody.rows.length) })]);
        for (let k = 0; k < 3; k++) row.append(el("td"));
        tbody.append(row);
      }
      for (let l = 0; l <= c.depth; l++) {
        const cells = tbody.rows[l].cells;
        setText(cells[1], fmt(result.activations[l]));
        setText(cells[2], fmt(result.activationGrads[l]));
        setText(cells[3], l < c.depth ? fmt(result.weightGrads[l]) : T.none);
      }
    }

    function setText(node, text) {
      if (node.textContent !== text) node.textContent = text;
    }

    // ---- measuring text, so that the axes are laid out from what the labels really take
    const measured = new Map();
    /** The box of an SVG <text> of class `cls` holding `markup`, its baseline at y = 0. */
    function textBox(cls, markup) {
      const key = cls + "\u0000" + markup;
      let box = measured.get(key);
      if (!box) {
        measureSvg.innerHTML = `<text class="${cls}" x="0" y="0">${markup}</text>`;
        const b = measureSvg.firstChild.getBBox();
        box = { width: b.width, top: b.y, bottom: b.y + b.height };
        if (b.width > 0) measured.set(key, box); // not yet laid out: measure again next time
      }
      return box;
    }
    if (document.fonts && document.fonts.ready) {
      document.fonts.ready.then(() => {
        measured.clear();
        if (lastResult) drawChart(lastResult, lastLabel);
      });
    }

    function tickMarkup(e) {
      return `10<tspan dy="-7" class="rx-exp">${String(e).replace("-", "−")}</tspan>`;
    }

    function drawChart(result, label) {
      const c = result.config;
      // drawn at the size it is shown, so that text stays readable on a phone too; no taller
      // than 40% of the window, so that the pinned chart leaves room for the controls
      const W = Math.round(Math.min(960, Math.max(300, chart.clientWidth || 640)));
      const tallest = Math.max(200, 0.4 * (window.innerHeight || 800));
      const H = Math.round(Math.min(400, tallest, Math.max(220, W * 0.52)));
      const series = {
        act: result.activations.map((v, l) => [l, v]),
        grad: result.activationGrads.map((v, l) => [l, v]),
        wgrad: result.weightGrads.map((v, l) => [l, v]),
      };
      let lo = Infinity;
      let hi = -Infinity;
      let hidden = false;
      const values = [].concat(result.activations, result.activationGrads, result.weightGrads);
      for (const v of values) {
        if (Number.isFinite(v) && v > 0) {
          const e = Math.log10(v);
          lo = Math.min(lo, e);
          hi = Math.max(hi, e);
        } else hidden = true;
      }
      warning.hidden = !hidden;
      if (!Number.isFinite(lo)) {
        lo = -1;
        hi = 1;
      }
      lo = Math.floor(lo);
      hi = Math.ceil(hi);
      if (hi - lo < 2) {
        lo -= 1;
        hi += 1;
      }
      // decades per tick: 1, 2, 5, 10, 20, … so that there are at most 8 ticks and 28 px apart
      const yStep = niceStep((hi - lo) / Math.min(8, Math.floor((H - 60) / 28)));
      lo = Math.floor(lo / yStep) * yStep;
      hi = Math.ceil(hi / yStep) * yStep;
      const exponents = [];
      for (let e = lo; e <= hi; e += yStep) exponents.push(e);

      // Margins from the labels' measured boxes: the y title (rotated), a gap, the widest
      // tick label, a gap, the plot; the top leaves room for the highest exponent.
      const pad = 2;
      const gap = 6;
      const yTitle = textBox("rx-axis-label", escapeHtml(T.yAxis));
      const tickBoxes = exponents.map((e) => textBox("rx-tick", tickMarkup(e)));
      const tickWidth = Math.max(...tickBoxes.map((b) => b.width));
      const tickTop = Math.min(...tickBoxes.map((b) => b.top));
      const xTick = textBox("rx-tick", String(Math.max(1, c.depth)));
      const m = {
        left: Math.ceil(pad + (yTitle.bottom - yTitle.top) + gap + tickWidth + gap),
        right: Math.ceil(Math.max(14, xTick.width / 2 + pad)),
        top: Math.ceil(Math.max(12, pad - tickTop - 4)),
        bottom: 0,
      };
      let xTitleText = T.xAxis;
      if (textBox("rx-axis-label", escapeHtml(xTitleText)).width > W - 2 * pad) xTitleText = T.xAxisShort;
      const xTitle = textBox("rx-axis-label", escapeHtml(xTitleText));
      const xTickBaseline = gap - xTick.top; // the labels' tops a gap below the frame
      const xTitleBaseline = xTickBaseline + xTick.bottom + gap - xTitle.top;
      m.bottom = Math.ceil(xTitleBaseline + xTitle.bottom + pad);
      const pw = W - m.left - m.right;
      const ph = H - m.top - m.bottom;

      const xMax = Math.max(1, c.depth);
      const X = (l) => m.left + (l / xMax) * pw;
      const Y = (v) => m.top + ((hi - Math.log10(v)) / (hi - lo)) * ph;
      const parts = [];
      parts.push(`<rect class="rx-frame" x="${m.left}" y="${m.top}" width="${pw}" height="${ph}"/>`);
      for (const e of exponents) {
        const y = m.top + ((hi - e) / (hi - lo)) * ph;
        parts.push(`<line class="rx-grid" x1="${m.left}" x2="${m.left + pw}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}"/>`);
        parts.push(
          `<text class="rx-tick rx-tick-y" x="${m.left - gap}" y="${(y + 4).toFixed(1)}" text-anchor="end">${tickMarkup(e)}</text>`,
        );
      }
      const xStep = niceStep(xMax / Math.max(3, Math.floor(pw / 70)));
      for (let l = 0; l <= xMax; l += xStep) {
        const x = X(l);
        parts.push(`<line class="rx-grid rx-grid-x" x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${m.top}" y2="${m.top + ph}"/>`);
        parts.push(
          `<text class="rx-tick rx-tick-x" x="${x.toFixed(1)}" y="${(m.top + ph + xTickBaseline).toFixed(1)}" text-anchor="middle">${l}</text>`,
        );
      }
      parts.push(
        `<text class="rx-axis-label rx-axis-x" x="${(m.left + pw / 2).toFixed(1)}" y="${(m.top + ph + xTitleBaseline).toFixed(1)}" text-anchor="middle">${escapeHtml(xTitleText)}</text>`,
      );
      // rotated by −90°: the glyphs' top (above the baseline) now points left
      parts.push(
        `<text class="rx-axis-label rx-axis-y" transform="translate(${(pad - yTitle.top).toFixed(1)} ${(m.top + ph / 2).toFixed(1)}) rotate(-90)" text-anchor="middle">${escapeHtml(T.yAxis)}</text>`,
      );
      const markers = c.depth <= 40;
      for (const key of ["act", "grad", "wgrad"]) {
        let d = "";
        let pen = false;
        const dots = [];
        for (const [l, v] of series[key]) {
          if (!(Number.isFinite(v) && v > 0)) {
            pen = false;
            continue;
          }
          const x = X(l).toFixed(1);
          const y = Y(v).toFixed(1);
          d += (pen ? "L" : "M") + x + " " + y;
          pen = true;
          if (markers) dots.push(marker(key, x, y));
        }
        parts.push(`<path class="rx-line rx-${key}" d="${d}"/>`);
        if (dots.length) parts.push(`<g class="rx-marks rx-${key}">${dots.join("")}</g>`);
      }
      lastWidth = chart.clientWidth;
      lastResult = result;
      lastLabel = label;
      chart.innerHTML =
        `<svg xmlns="${SVG_NS}" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${uid}-svgtitle" focusable="false">` +
        `<title id="${uid}-svgtitle">${escapeHtml(T.chartLabel(c, label))}</title>${parts.join("")}</svg>`;
    }

    function marker(key, x, y) {
      if (key === "act") return `<circle cx="${x}" cy="${y}" r="2.6"/>`;
      if (key === "grad") return `<rect x="${(x - 2.4).toFixed(1)}" y="${(y - 2.4).toFixed(1)}" width="4.8" height="4.8"/>`;
      return `<path d="M${x} ${(y - 3.2).toFixed(1)}l3 5.4h-6z"/>`;
    }

    // The pinned chart sits below Material's header, and a control that gets keyboard focus
    // scrolls into view below the chart, not under it (scroll-margin-top in explorer.css).
    function pinBelowHeader() {
      const header = document.querySelector(".md-header");
      root.style.setProperty("--rx-top", (header ? header.getBoundingClientRect().height : 0) + "px");
      root.style.setProperty("--rx-view-height", view.getBoundingClientRect().height + "px");
    }

    // A control reached with Tab while it sits under the pinned chart is scrolled out from
    // under it (the browser counts it as visible and would not scroll).
    root.addEventListener("focusin", (event) => {
      if (view.contains(event.target) || getComputedStyle(view).position !== "sticky") return;
      const box = event.target.getBoundingClientRect();
      const pinned = view.getBoundingClientRect();
      if (box.top < pinned.bottom && box.bottom > pinned.top && !(box.top < pinned.top)) {
        window.scrollBy(0, box.top - pinned.bottom - 8);
      }
    });

    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => {
        if (lastResult && Math.abs(chart.clientWidth - lastWidth) > 8) drawChart(lastResult, lastLabel);
      }).observe(chart);
      new ResizeObserver(pinBelowHeader).observe(view);
    }
    window.addEventListener("resize", pinBelowHeader);

    syncControls();
    markPreset();
    update();
    pinBelowHeader();
    root.dataset.ready = "true";
    return { state: state, update: update, applyPreset: applyPreset };
  }

  function svgSwatch(key) {
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", "0 0 28 10");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("class", "rx-swatch");
    const line = document.createElementNS(SVG_NS, "line");
    line.setAttribute("x1", "1");
    line.setAttribute("x2", "27");
    line.setAttribute("y1", "5");
    line.setAttribute("y2", "5");
    line.setAttribute("class", "rx-line rx-" + key);
    svg.append(line);
    return svg;
  }

  function niceStep(raw) {
    for (const s of [1, 2, 5, 10, 20, 25, 50, 100]) if (s >= raw) return s;
    return 100 * Math.ceil(raw / 100);
  }

  function escapeHtml(s) {
    return String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
  }

  function init() {
    for (const root of document.querySelectorAll("div#explorer, div[data-resdoc-explorer]")) {
      if (root.dataset.ready !== "true") create(root);
    }
  }

  window.ResdocExplorer = { create: create, init: init, PRESETS: PRESETS, TEXT: TEXT, fromQuery: fromQuery, toQuery: toQuery, clean: clean };
  // A page's explorer comes before this script: drawn now, it is in place for the first
  // paint and the text below does not jump down when it appears (layout shift).
  init();
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
})();
