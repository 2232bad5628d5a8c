/*
 * resdoc gradient-flow explorer: the model.
 *
 * One forward and one backward pass through `depth` blocks of width `n`, for a batch of
 * `batch` rows, with the MSE loss L = mean((out - target)^2) -- the loss of resdoc.demo.
 * Pure functions on Float64Array (row-major). Weights use PyTorch's layout: W[i * n + j]
 * is the weight from input j to output i, so a block computes y = x W^T like nn.Linear.
 *
 * Blocks (x is the block input, W, W1, W2 are n x n, LN has no learnable parameters):
 *   plain      y = W x
 *   plainrelu  y = relu(W x)
 *   residual   y = x + W x
 *   mlp        y = x + W2 relu(W1 x)
 *   postln     y = LN(x + W x)
 *   preln      y = x + W LN(x)          (optional final LN on the output: config.finalLN)
 *   scaled     y = lambda x + W x
 *
 * Initializations (fan-in n):
 *   default  U(-1/sqrt(n), 1/sqrt(n))  (PyTorch's nn.Linear), variance 1/(3n)
 *   he       N(0, 2/n)
 *   xavier   N(0, 1/n)                  (2/(fan_in + fan_out) for a square matrix)
 *   custom   N(0, c/n), c = config.variance
 *
 * Random numbers: every matrix has its own stream, seeded from (seed, layer, slot), so a
 * deeper stack keeps the weights of the shallower one, and x and the target come from a
 * stream of their own. Usable from a browser (window.ResdocExplorerModel) and Node
 * (module.exports).
 */
(function (root, factory) {
  const model = factory();
  if (typeof module === "object" && module.exports) module.exports = model;
  else root.ResdocExplorerModel = model;
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const BLOCKS = ["plain", "plainrelu", "residual", "mlp", "postln", "preln", "scaled"];
  const INITS = ["default", "he", "xavier", "custom"];
  const LN_EPS = 1e-5; // torch.nn.LayerNorm's default
  const DEFAULTS = {
    block: "residual",
    depth: 20,
    width: 32,
    batch: 4,
    init: "default",
    variance: 1, // c in N(0, c/n), for init "custom"
    lambda: 1, // shortcut scale, for block "scaled"
    finalLN: false, // for block "preln"
    seed: 42,
  };

  function config(overrides) {
    const c = Object.assign({}, DEFAULTS, overrides || {});
    if (!BLOCKS.includes(c.block)) throw new Error("unknown block " + c.block);
    if (!INITS.includes(c.init)) throw new Error("unknown init " + c.init);
    for (const key of ["depth", "width", "batch", "seed"]) c[key] = Math.round(Number(c[key]));
    if (!(c.depth >= 1) || !(c.width >= 1) || !(c.batch >= 1)) {
      throw new Error("depth, width and batch must be at least 1");
    }
    c.variance = Number(c.variance);
    c.lambda = Number(c.lambda);
    c.finalLN = Boolean(c.finalLN) && c.block === "preln";
    return c;
  }

  function matricesPerBlock(block) {
    return block === "mlp" ? 2 : 1;
  }

  // ---- random numbers ------------------------------------------------------------------

  function mix32(h) {
    // murmur3's finalizer: a good avalanche of 32 bits
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  }

  function streamSeed(seed, tag, layer, slot) {
    let h = mix32((seed >>> 0) ^ 0x9e3779b9);
    h = mix32(h ^ Math.imul(tag + 1, 0x27d4eb2f));
    h = mix32(h ^ Math.imul(layer + 1, 0x165667b1));
    return mix32(h ^ Math.imul(slot + 1, 0x61c88647));
  }

  /** mulberry32: a small, fast 32-bit generator; returns uniform numbers in [0, 1). */
  function rng(state) {
    let a = state >>> 0;
    return function () {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  /** `count` standard normal numbers (Marsaglia's polar method, both outputs used). */
  function normals(random, count) {
    const out = new Float64Array(count);
    for (let i = 0; i < count; i += 2) {
      let u, v, s;
      do {
        u = 2 * random() - 1;
        v = 2 * random() - 1;
        s = u * u + v * v;
      } while (s >= 1 || s === 0);
      const f = Math.sqrt((-2 * Math.log(s)) / s);
      out[i] = u * f;
      if (i + 1 < count) out[i + 1] = v * f;
    }
    return out;
  }

  /** `count` numbers uniform in [-1, 1). */
  function uniforms(random, count) {
    const out = new Float64Array(count);
    for (let i = 0; i < count; i++) out[i] = 2 * random() - 1;
    return out;
  }

  /** The unscaled draws of one weight matrix: uniform in [-1, 1) or standard normal. */
  function unitMatrix(seed, width, distribution, layer, slot) {
    const random = rng(streamSeed(seed, distribution === "uniform" ? 1 : 2, layer, slot));
    const count = width * width;
    return distribution === "uniform" ? uniforms(random, count) : normals(random, count);
  }

  function initScale(c) {
    const n = c.width;
    if (c.init === "default") return { distribution: "uniform", scale: 1 / Math.sqrt(n) };
    const variance = { he: 2 / n, xavier: 1 / n, custom: c.variance / n }[c.init];
    return { distribution: "normal", scale: Math.sqrt(variance) };
  }

  /**
   * Input, target and weights for a config, from its seed. `unit` may be a memoized
   * version of unitMatrix (same arguments, same result) to skip regenerating matrices.
   */
  function generate(overrides, unit) {
    const c = config(overrides);
    const draw = unit || unitMatrix;
    const { distribution, scale } = initScale(c);
    const data = normals(rng(streamSeed(c.seed, 0, 0, 0)), 2 * c.batch * c.width);
    const weights = [];
    for (let l = 0; l < c.depth; l++) {
      const block = [];
      for (let k = 0; k < matricesPerBlock(c.block); k++) {
        const u = draw(c.seed, c.width, distribution, l, k);
        const w = new Float64Array(u.length);
        for (let i = 0; i < u.length; i++) w[i] = scale * u[i];
        block.push(w);
      }
      weights.push(block);
    }
    return {
      x: data.subarray(0, c.batch * c.width),
      target: data.subarray(c.batch * c.width),
      weights: weights,
    };
  }

  /** Data given as nested lists (e.g. JSON from PyTorch): x[b][j], target[b][j], weights[l][k][i][j]. */
  function fromNested(nested) {
    const flat = (rows) => Float64Array.from(rows.flat());
    return {
      x: flat(nested.x),
      target: flat(nested.target),
      weights: nested.weights.map((block) => block.map(flat)),
    };
  }

  // ---- linear algebra ------------------------------------------------------------------

  // y[b, i] = sum_j x[b, j] W[i, j]
  function linear(x, w, batch, n) {
    const y = new Float64Array(batch * n);
    const n4 = n - (n % 4);
    for (let b = 0; b < batch; b++) {
      const xo = b * n;
      for (let i = 0; i < n; i++) {
        const wo = i * n;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        let j = 0;
        for (; j < n4; j += 4) {
          s0 += x[xo + j] * w[wo + j];
          s1 += x[xo + j + 1] * w[wo + j + 1];
          s2 += x[xo + j + 2] * w[wo + j + 2];
          s3 += x[xo + j + 3] * w[wo + j + 3];
        }
        for (; j < n; j++) s0 += x[xo + j] * w[wo + j];
        y[xo + i] = s0 + s1 + (s2 + s3);
      }
    }
    return y;
  }

  // gx[b, j] = sum_i gy[b, i] W[i, j]   (added into `into` when given)
  function linearBackInput(gy, w, batch, n, into) {
    const gx = into || new Float64Array(batch * n);
    for (let b = 0; b < batch; b++) {
      const o = b * n;
      for (let i = 0; i < n; i++) {
        const g = gy[o + i];
        if (g === 0) continue;
        const wo = i * n;
        for (let j = 0; j < n; j++) gx[o + j] += g * w[wo + j];
      }
    }
    return gx;
  }

  // Squared Frobenius norm of gW = sum_b gy_b x_b^T without forming gW:
  // ||gW||^2 = sum_{b, c} (gy_b . gy_c)(x_b . x_c), two batch x batch Gram matrices.
  function weightGradSquared(gy, x, batch, n) {
    let total = 0;
    for (let b = 0; b < batch; b++) {
      for (let c = b; c < batch; c++) {
        let gg = 0;
        let xx = 0;
        const ob = b * n;
        const oc = c * n;
        for (let j = 0; j < n; j++) {
          gg += gy[ob + j] * gy[oc + j];
          xx += x[ob + j] * x[oc + j];
        }
        total += (b === c ? 1 : 2) * gg * xx;
      }
    }
    return total > 0 ? total : 0;
  }

  function relu(h) {
    const a = new Float64Array(h.length);
    for (let i = 0; i < h.length; i++) a[i] = h[i] > 0 ? h[i] : 0;
    return a;
  }

  // the gradient through relu(h): g where h > 0, else 0 (torch's threshold_backward)
  function reluBack(g, h) {
    const out = new Float64Array(g.length);
    for (let i = 0; i < g.length; i++) out[i] = h[i] > 0 ? g[i] : 0;
    return out;
  }

  function norm(v) {
    let s = 0;
    for (let i = 0; i < v.length; i++) s += v[i] * v[i];
    return Math.sqrt(s);
  }

  // LayerNorm over each row, no affine parameters; returns the output and what backward needs
  function layerNorm(x, batch, n) {
    const y = new Float64Array(batch * n);
    const inv = new Float64Array(batch);
    for (let b = 0; b < batch; b++) {
      const o = b * n;
      let mean = 0;
      for (let j = 0; j < n; j++) mean += x[o + j];
      mean /= n;
      let variance = 0;
      for (let j = 0; j < n; j++) variance += (x[o + j] - mean) ** 2;
      variance /= n; // biased, like torch
      const r = 1 / Math.sqrt(variance + LN_EPS);
      inv[b] = r;
      for (let j = 0; j < n; j++) y[o + j] = (x[o + j] - mean) * r;
    }
    return { y: y, inv: inv };
  }

  // dL/dx of y = LN(x) from dL/dy: inv * (g - mean(g) - y * mean(g * y)) per row
  function layerNormBack(g, saved, batch, n) {
    const gx = new Float64Array(batch * n);
    for (let b = 0; b < batch; b++) {
      const o = b * n;
      let mg = 0;
      let mgy = 0;
      for (let j = 0; j < n; j++) {
        mg += g[o + j];
        mgy += g[o + j] * saved.y[o + j];
      }
      mg /= n;
      mgy /= n;
      const r = saved.inv[b];
      for (let j = 0; j < n; j++) gx[o + j] = r * (g[o + j] - mg - saved.y[o + j] * mgy);
    }
    return gx;
  }

  // ---- the network ---------------------------------------------------------------------

  function forwardBlock(c, x, w) {
    const B = c.batch;
    const n = c.width;
    const saved = { x: x };
    let y;
    switch (c.block) {
      case "plain":
        y = linear(x, w[0], B, n);
        break;
      case "plainrelu":
        saved.h = linear(x, w[0], B, n);
        y = relu(saved.h);
        break;
      case "residual":
      case "scaled": {
        const lam = c.block === "scaled" ? c.lambda : 1;
        y = linear(x, w[0], B, n);
        for (let i = 0; i < y.length; i++) y[i] += lam * x[i];
        break;
      }
      case "mlp":
        saved.h = linear(x, w[0], B, n);
        saved.a = relu(saved.h);
        y = linear(saved.a, w[1], B, n);
        for (let i = 0; i < y.length; i++) y[i] += x[i];
        break;
      case "postln": {
        const z = linear(x, w[0], B, n);
        for (let i = 0; i < z.length; i++) z[i] += x[i];
        saved.ln = layerNorm(z, B, n);
        y = saved.ln.y;
        break;
      }
      case "preln":
        saved.ln = layerNorm(x, B, n);
        y = linear(saved.ln.y, w[0], B, n);
        for (let i = 0; i < y.length; i++) y[i] += x[i];
        break;
    }
    return { y: y, saved: saved };
  }

  // returns dL/dx and the squared norm of the block's weight gradients
  function backwardBlock(c, gy, w, saved) {
    const B = c.batch;
    const n = c.width;
    switch (c.block) {
      case "plain":
        return {
          gx: linearBackInput(gy, w[0], B, n),
          gw2: weightGradSquared(gy, saved.x, B, n),
        };
      case "plainrelu": {
        const gh = reluBack(gy, saved.h);
        return {
          gx: linearBackInput(gh, w[0], B, n),
          gw2: weightGradSquared(gh, saved.x, B, n),
        };
      }
      case "residual":
      case "scaled": {
        const lam = c.block === "scaled" ? c.lambda : 1;
        const gx = new Float64Array(gy.length);
        for (let i = 0; i < gx.length; i++) gx[i] = lam * gy[i];
        return {
          gx: linearBackInput(gy, w[0], B, n, gx),
          gw2: weightGradSquared(gy, saved.x, B, n),
        };
      }
      case "mlp": {
        const gw2 = weightGradSquared(gy, saved.a, B, n);
        const ga = linearBackInput(gy, w[1], B, n);
        const gh = reluBack(ga, saved.h);
        const gx = Float64Array.from(gy);
        linearBackInput(gh, w[0], B, n, gx);
        return { gx: gx, gw2: gw2 + weightGradSquared(gh, saved.x, B, n) };
      }
      case "postln": {
        const gz = layerNormBack(gy, saved.ln, B, n);
        const gx = Float64Array.from(gz);
        linearBackInput(gz, w[0], B, n, gx);
        return { gx: gx, gw2: weightGradSquared(gz, saved.x, B, n) };
      }
      case "preln": {
        const gw2 = weightGradSquared(gy, saved.ln.y, B, n);
        const gu = linearBackInput(gy, w[0], B, n);
        const gx = layerNormBack(gu, saved.ln, B, n);
        for (let i = 0; i < gx.length; i++) gx[i] += gy[i];
        return { gx: gx, gw2: gw2 };
      }
    }
    throw new Error("unknown block " + c.block);
  }

  /**
   * One forward and backward pass. `data` is {x, target, weights} (from generate() or
   * fromNested()); it defaults to generate(config). Returns, for l = 0..depth,
   * activations[l] = ||x_l|| and activationGrads[l] = ||dL/dx_l|| (x_0 is the input,
   * x_depth the last block's output, before the optional final LN), for l = 0..depth-1
   * weightGrads[l] = ||dL/dW_l|| (all matrices of block l), and the original notes' total gradient
   * norm sqrt(sum_l weightGrads[l]^2).
   */
  function run(overrides, data) {
    const c = config(overrides);
    const d = data || generate(c);
    const B = c.batch;
    const n = c.width;
    if (d.weights.length < c.depth) throw new Error("fewer weight blocks than depth");
    if (d.x.length !== B * n || d.target.length !== B * n) throw new Error("x/target shape");
    const xs = [d.x];
    const saved = [];
    for (let l = 0; l < c.depth; l++) {
      const step = forwardBlock(c, xs[l], d.weights[l]);
      xs.push(step.y);
      saved.push(step.saved);
    }
    let out = xs[c.depth];
    let finalLN = null;
    if (c.finalLN) {
      finalLN = layerNorm(out, B, n);
      out = finalLN.y;
    }
    let loss = 0;
    const g = new Float64Array(B * n);
    for (let i = 0; i < g.length; i++) {
      const diff = out[i] - d.target[i];
      loss += diff * diff;
      g[i] = (2 * diff) / g.length;
    }
    loss /= g.length;
    const activationGrads = new Array(c.depth + 1);
    const weightGrads = new Array(c.depth);
    let gx = finalLN ? layerNormBack(g, finalLN, B, n) : g;
    activationGrads[c.depth] = norm(gx);
    let total = 0;
    for (let l = c.depth - 1; l >= 0; l--) {
      const step = backwardBlock(c, gx, d.weights[l], saved[l]);
      gx = step.gx;
      activationGrads[l] = norm(gx);
      weightGrads[l] = Math.sqrt(step.gw2);
      total += step.gw2;
    }
    return {
      config: c,
      loss: loss,
      activations: xs.map(norm),
      activationGrads: activationGrads,
      weightGrads: weightGrads,
      totalGradNorm: Math.sqrt(total),
      outputNorm: norm(out),
    };
  }

  return {
    BLOCKS: BLOCKS,
    INITS: INITS,
    DEFAULTS: DEFAULTS,
    config: config,
    matricesPerBlock: matricesPerBlock,
    initScale: initScale,
    unitMatrix: unitMatrix,
    generate: generate,
    fromNested: fromNested,
    run: run,
  };
});
