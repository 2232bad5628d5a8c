// Material wraps each table in a box that scrolls sideways when the table is wider than
// the screen (on a phone, most of them): let the keyboard reach that box too.
window.addEventListener("load", function () {
  for (const box of document.querySelectorAll(".md-typeset__scrollwrap")) {
    box.setAttribute("tabindex", "0");
  }
});
