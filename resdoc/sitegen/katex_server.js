// Render TeX with KaTeX for the build (resdoc/sitegen/math.py), one request per line:
// a JSON list of [tex, displayMode] in, a JSON list of {html} or {error} out, in order.
// One long-lived process serves the whole build: node and KaTeX start once. HTML only, no
// MathML copy beside it: the copy was a third of a chapter's DOM (Lighthouse's cost on a
// phone); math.py names each formula for screen readers instead (role="math", aria-label).
"use strict";
const katex = require(process.argv[2]);
const readline = require("readline");

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const replies = JSON.parse(line).map(([tex, display]) => {
    try {
      return { html: katex.renderToString(tex, {
        displayMode: display, output: "html", throwOnError: true,
      }) };
    } catch (error) {
      return { error: String(error.message || error) };
    }
  });
  process.stdout.write(JSON.stringify(replies) + "\n");
});
