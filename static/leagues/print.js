// A "Print" button (data-print): the browser's print dialog. Without JavaScript the button
// stays hidden and the hint beside it (data-print-hint) says how to print from the browser.
(function () {
  "use strict";
  if (typeof window.print !== "function") return;
  document.querySelectorAll("button[data-print]").forEach(function (button) {
    button.hidden = false;
    var hint = button.parentElement.querySelector("[data-print-hint]");
    if (hint) hint.hidden = true;
    button.addEventListener("click", function () { window.print(); });
  });
})();
