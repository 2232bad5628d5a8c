// Render the formulas that pymdownx.arithmatex marked (generic mode), and the $…$
// of notebook cells on example pages, with the KaTeX bundled from node_modules.
// Material's document$ emits once per page: on load, and after each instant navigation.
document$.subscribe(function () {
  for (const element of document.querySelectorAll(".arithmatex")) {
    if (element.querySelector(".katex")) continue; // typeset already
    const text = element.textContent;
    const display = text.startsWith("\\[");
    katex.render(text.slice(2, -2), element, { displayMode: display, throwOnError: false });
  }
  // A wide formula scrolls sideways on a phone: let the keyboard reach it too.
  for (const block of document.querySelectorAll(".katex-display")) {
    block.setAttribute("tabindex", "0");
  }
  for (const notebook of document.querySelectorAll(".jupyter-wrapper")) {
    renderMathInElement(notebook, {
      delimiters: [
        { left: "$$", right: "$$", display: true },
        { left: "$", right: "$", display: false },
      ],
      ignoredClasses: ["highlight-ipynb", "jp-OutputArea"],
      throwOnError: false,
    });
  }
});
