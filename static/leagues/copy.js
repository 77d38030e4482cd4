// Copy buttons: the text of the field a button names (data-copy) to the clipboard, said in the
// status beside it. Without JavaScript (or a clipboard) the button stays hidden and the field,
// read-only, is selected and copied by hand.
(function () {
  "use strict";
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.dataset.copy);
    var status = document.querySelector('[data-copied-for="' + button.dataset.copy + '"]');
    if (!field || !navigator.clipboard) return;
    button.hidden = false;
    field.addEventListener("focus", function () { field.select(); });
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(field.value).then(
        function () {
          button.textContent = "Copied";
          if (status) status.textContent = "The address is copied.";
        },
        function () {
          field.select();
          if (status) status.textContent = "Could not copy: the address is selected, copy it by hand.";
        }
      );
    });
  });
})();
