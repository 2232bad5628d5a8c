// Material wraps each table in a box that scrolls sideways when the table is wider than
// the screen (on a phone, most of them): let the keyboard reach that box too, on every page
// Material's document$ announces (the first, and each one reached by instant navigation).
document$.subscribe(function () {
  for (const box of document.querySelectorAll(".md-typeset__scrollwrap")) {
    box.setAttribute("tabindex", "0");
  }
});
