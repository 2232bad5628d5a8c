/*
 * resdoc gradient-flow explorer: the numbers and the note a reader sees.
 *
 *   fmt(v)              a number as the site writes it: 3 significant digits, ×10ⁿ (never
 *                       e-notation) below 10⁻³ and from 10⁵ on, U+2212 for minus
 *   reading(result, t)  what one run of model.js shows: how much the backward gradient and
 *                       the forward signal change over the stack and per layer, a verdict for
 *                       each, whether values overflowed or are zero, the output's size
 *                       against the target's (t: the target, to measure its size)
 *   note(reading, lang) a short note in zh or en (HTML); every number in it is a
 *                       <span class="rx-num" data-key="…"> so a test can check it
 *
 * Pure functions, like model.js: usable from a browser (window.ResdocExplorerNotes) and Node.
 */
(function (root, factory) {
  const notes = factory();
  if (typeof module === "object" && module.exports) module.exports = notes;
  else root.ResdocExplorerNotes = notes;
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

  /** 10 to the power `exponent`, as text: 10⁻¹². */
  function power(exponent) {
    return "10" + String(exponent).replace(/./g, (ch) => SUPERSCRIPT[ch]);
  }

  function fmt(v) {
    if (Number.isNaN(v)) return "NaN";
    if (!Number.isFinite(v)) return v > 0 ? "∞" : "−∞";
    if (v === 0) return "0";
    const a = Math.abs(v);
    if (a >= 1e-3 && a < 1e5) return String(Number(v.toPrecision(3))).replace("-", "−");
    const [mantissa, exponent] = v.toExponential(2).split("e");
    return `${String(Number(mantissa)).replace("-", "−")}×${power(Number(exponent))}`;
  }

  // A whole-stack factor within these bounds reads as level; beyond EXTREME as vanishing or
  // exploding (three orders of magnitude: a gradient no learning rate serves at both ends).
  const LEVEL = 10;
  const EXTREME = 1e3;

  function verdict(factor) {
    if (!Number.isFinite(factor)) return "broken";
    if (factor === 0) return "zero";
    if (factor < 1 / EXTREME) return "vanishing";
    if (factor < 1 / LEVEL) return "shrinking";
    if (factor <= LEVEL) return "level";
    if (factor <= EXTREME) return "growing";
    return "exploding";
  }

  function rms(values) {
    let s = 0;
    for (const v of values) s += v * v;
    return Math.sqrt(s / values.length);
  }

  function change(first, last, depth) {
    const factor = last / first;
    const known = Number.isFinite(first) && Number.isFinite(last);
    const v = !known ? "broken" : first === 0 || last === 0 ? "zero" : verdict(factor);
    return { factor: factor, perLayer: Math.pow(factor, 1 / depth), verdict: v };
  }

  function reading(result, target) {
    const c = result.config;
    const L = c.depth;
    const all = [].concat(result.activations, result.activationGrads, result.weightGrads, [result.loss]);
    const entries = c.batch * c.width;
    return {
      config: c,
      backward: change(result.activationGrads[L], result.activationGrads[0], L), // output → input
      forward: change(result.activations[0], result.activations[L], L), // input → output
      overflow: all.some((v) => !Number.isFinite(v)),
      zero: all.some((v) => v === 0),
      loss: result.loss,
      outputRms: result.outputNorm / Math.sqrt(entries),
      targetRms: target ? rms(target) : NaN,
    };
  }

  const WORDS = {
    zh: {
      blocks: {
        plain: "普通块（Wx）",
        plainrelu: "普通 + ReLU 块",
        residual: "残差块（x + Wx）",
        mlp: "带非线性分支的残差块",
        postln: "Post-LN 块",
        preln: "Pre-LN 块",
        scaled: "缩放捷径块（λx + Wx）",
      },
      stack: (L, block, extra) => `${block}${extra}，深度 ${L}`,
      lambda: (v) => `，λ = ${v}`,
      finalLN: "，输出前再加一个 LN",
      inits: {
        default: (v) => `PyTorch 默认初始化（方差 1/(3n) = ${v}）`,
        he: (v) => `He 初始化（方差 2/n = ${v}）`,
        xavier: (v) => `Xavier 初始化（方差 1/n = ${v}）`,
        custom: (v, c) => `自选方差（c = ${c}，方差 c/n = ${v}）`,
      },
      setting: (stack, init, width) => `${stack}，宽度 ${width}，${init}。`,
      backward: (factor, perLayer) =>
        `反向：激活梯度从输出传到输入，变成原来的 ${factor} 倍` + (perLayer ? `，平均每层乘以 ${perLayer}` : ""),
      forward: (factor, perLayer) =>
        `前向：激活范数从输入到输出，变成原来的 ${factor} 倍` + (perLayer ? `，平均每层乘以 ${perLayer}` : ""),
      backwardBroken: "反向：有的梯度已经溢出，算不出倍数",
      forwardBroken: "前向：有的激活已经溢出，算不出倍数",
      backwardZero: "反向：有的梯度正好为 0，算不出倍数",
      forwardZero: "前向：有的激活正好为 0，算不出倍数",
      backwardVerdicts: {
        vanishing: "——梯度消失。",
        shrinking: "，逐层缩小。",
        level: "，大致持平。",
        growing: "，逐层变大。",
        exploding: "——梯度爆炸。",
        broken: "。",
        zero: "。",
      },
      forwardVerdicts: {
        vanishing: "——前向信号消失。",
        shrinking: "，逐层缩小。",
        level: "，大致持平。",
        growing: "，逐层变大。",
        exploding: "——前向信号爆炸。",
        broken: "。",
        zero: "。",
      },
      overflow: (max) =>
        `有些数超出了 64 位浮点数的上限（约 ${max}），成了 ∞ 或 NaN（“不是数”）：数值溢出了。图上没有画这些点，数值表里照列。`,
      zero: "有些数正好为 0（ReLU 把一整层清零，或者数小到下溢）：对数坐标画不出 0。",
      loss: (loss, out, target) =>
        `损失 ${loss} 大得离谱，因为输出各分量的均方根约为 ${out}，而目标的只有 ${target}。`,
      hints: {
        he: "换成 He 初始化（方差 2/n）或残差块对比。",
        residual: "换成残差块对比。",
        smaller: "减小初始化方差对比。",
        lambda: "把 λ 拖回 1 对比。",
        preln: "换成 Pre-LN 或减小初始化方差对比。",
        seeds: "多换几个种子，看输入处的梯度怎样跳动。",
      },
    },
    en: {
      blocks: {
        plain: "plain blocks (Wx)",
        plainrelu: "plain + ReLU blocks",
        residual: "residual blocks (x + Wx)",
        mlp: "residual blocks with a nonlinear branch",
        postln: "Post-LN blocks",
        preln: "Pre-LN blocks",
        scaled: "scaled-shortcut blocks (λx + Wx)",
      },
      stack: (L, block, extra) => `${block[0].toUpperCase()}${block.slice(1)}${extra}, depth ${L}`,
      lambda: (v) => ` with λ = ${v}`,
      finalLN: " and a final LN before the output",
      inits: {
        default: (v) => `PyTorch default initialization (variance 1/(3n) = ${v})`,
        he: (v) => `He initialization (variance 2/n = ${v})`,
        xavier: (v) => `Xavier initialization (variance 1/n = ${v})`,
        custom: (v, c) => `chosen variance (c = ${c}, variance c/n = ${v})`,
      },
      setting: (stack, init, width) => `${stack}, width ${width}, ${init}. `,
      backward: (factor, perLayer) =>
        `Backward: from the output to the input the activation gradient is multiplied by ${factor}` +
        (perLayer ? `, about ${perLayer} per layer` : ""),
      forward: (factor, perLayer) =>
        `Forward: from the input to the output the activation norm is multiplied by ${factor}` +
        (perLayer ? `, about ${perLayer} per layer` : ""),
      backwardBroken: "Backward: some gradients overflowed, so there is no factor to give",
      forwardBroken: "Forward: some activations overflowed, so there is no factor to give",
      backwardZero: "Backward: some gradients are exactly 0, so there is no factor to give",
      forwardZero: "Forward: some activations are exactly 0, so there is no factor to give",
      backwardVerdicts: {
        vanishing: " — the gradient vanishes. ",
        shrinking: ": it shrinks layer by layer. ",
        level: ": it stays roughly level. ",
        growing: ": it grows layer by layer. ",
        exploding: " — the gradient explodes. ",
        broken: ". ",
        zero: ". ",
      },
      forwardVerdicts: {
        vanishing: " — the forward signal vanishes. ",
        shrinking: ": it shrinks layer by layer. ",
        level: ": it stays roughly level. ",
        growing: ": it grows layer by layer. ",
        exploding: " — the forward signal explodes. ",
        broken: ". ",
        zero: ". ",
      },
      overflow: (max) =>
        `Some numbers went past the largest 64-bit float (about ${max}) and became ∞ or NaN (“not a number”): they overflowed. The chart leaves them out; the table lists them. `,
      zero: "Some numbers are exactly 0 (ReLU zeroed a whole layer, or a number underflowed): a log scale cannot show 0. ",
      loss: (loss, out, target) =>
        `The loss, ${loss}, is absurdly large because the output's entries have a root mean square of about ${out}, against the target's ${target}. `,
      hints: {
        he: "Compare He initialization (variance 2/n) or a residual block.",
        residual: "Compare a residual block.",
        smaller: "Compare a smaller initialization variance.",
        lambda: "Drag λ back to 1 to compare.",
        preln: "Compare Pre-LN or a smaller initialization variance.",
        seeds: "Try a few seeds and watch the gradient at the input jump.",
      },
    },
  };

  const DOUBLE_MAX = 1.7976931348623157e308;
  const LOSS_ABSURD = 1e4; // the target's entries are N(0, 1): a loss this large is the output's

  function hint(r) {
    const c = r.config;
    const down = r.backward.verdict === "vanishing" || r.backward.verdict === "shrinking";
    const up = r.backward.verdict === "growing" || r.backward.verdict === "exploding";
    const plain = c.block === "plain" || c.block === "plainrelu";
    if (c.block === "postln") return "seeds";
    if (down && c.block === "plainrelu" && c.init !== "he") return "he";
    if (down && plain) return "residual";
    if (down && c.block === "scaled" && c.lambda < 1) return "lambda";
    if (up && plain) return "smaller";
    if (up && (c.block === "residual" || c.block === "mlp" || c.block === "scaled")) return "preln";
    return null;
  }

  function variance(c) {
    return { default: 1 / (3 * c.width), he: 2 / c.width, xavier: 1 / c.width, custom: c.variance / c.width }[c.init];
  }

  function note(r, lang) {
    const w = WORDS[lang];
    const c = r.config;
    const num = (key, v) => `<span class="rx-num" data-key="${key}">${fmt(v)}</span>`;
    let extra = "";
    if (c.block === "scaled") extra += w.lambda(c.lambda);
    if (c.finalLN) extra += w.finalLN;
    const init = w.inits[c.init](num("variance", variance(c)), c.variance);
    let html = w.setting(w.stack(c.depth, w.blocks[c.block], extra), init, c.width);

    const sentence = (side, change) => {
      const v = change.verdict;
      const verdicts = w[side + "Verdicts"];
      if (v === "broken") return w[side + "Broken"] + verdicts[v];
      if (v === "zero") return w[side + "Zero"] + verdicts[v];
      const perLayer = c.depth > 1 ? num(side + "PerLayer", change.perLayer) : "";
      return w[side](num(side + "Factor", change.factor), perLayer) + verdicts[v];
    };
    html += sentence("backward", r.backward) + sentence("forward", r.forward);
    if (r.overflow) html += w.overflow(fmt(DOUBLE_MAX));
    else if (r.zero) html += w.zero;
    if (Number.isFinite(r.loss) && r.loss > LOSS_ABSURD) {
      html += w.loss(num("loss", r.loss), num("outputRms", r.outputRms), num("targetRms", r.targetRms));
    }
    const h = hint(r);
    if (h) html += w.hints[h];
    return html.trim();
  }

  /** The short form for the screen reader's live region: "gradient vanishes" and so on. */
  function verdictWords(r, lang) {
    const words = {
      zh: { vanishing: "梯度消失", shrinking: "梯度逐层缩小", level: "梯度大致持平", growing: "梯度逐层变大", exploding: "梯度爆炸", broken: "数值溢出", zero: "有的梯度为 0" },
      en: { vanishing: "the gradient vanishes", shrinking: "the gradient shrinks", level: "the gradient stays level", growing: "the gradient grows", exploding: "the gradient explodes", broken: "values overflowed", zero: "some gradients are 0" },
    };
    return words[lang][r.backward.verdict];
  }

  return { fmt: fmt, power: power, verdict: verdict, reading: reading, note: note, verdictWords: verdictWords, LEVEL: LEVEL, EXTREME: EXTREME };
});
