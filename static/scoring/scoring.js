/* Scoring at the table: small progressive enhancement of the hand form.
 * Without this file every button is a plain form post and the server does the same work
 * (the card picker adds a card by re-rendering the form; nothing is saved until "Record hand"). */
(function () {
  "use strict";

  if (window.htmx) {
    // htmx 2 swaps only 2xx responses by default. A refused hand (422: errors by the facts) and a
    // stale form (409: the game as it is now, with a message) must be shown in place too.
    window.htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "409", swap: true, error: false },
      { code: "422", swap: true, error: false },
      { code: "[45]..", swap: false, error: true },
      { code: "...", swap: false },
    ];
  }

  function cardsOf(input) {
    return input.value.trim().toUpperCase().split(/[\s,;]+/).filter(Boolean);
  }

  function markPicked(root) {
    (root || document).querySelectorAll("form").forEach(function (form) {
      var input = form.querySelector("input[name=turn_ups]");
      if (!input) return;
      var cards = cardsOf(input);
      form.querySelectorAll("[data-card]").forEach(function (button) {
        var picked = cards.indexOf(button.dataset.card) !== -1;
        button.classList.toggle("picked", picked);
        button.setAttribute("aria-pressed", picked ? "true" : "false");
      });
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-card], [data-card-action]");
    if (!button || !button.form) return;
    var form = button.form;
    var input = form.querySelector("input[name=turn_ups]");
    if (!input) return;
    event.preventDefault();
    var cards = cardsOf(input);
    if (button.dataset.card) {
      if (cards.indexOf(button.dataset.card) === -1) cards.push(button.dataset.card);
    } else if (button.dataset.cardAction === "drop") {
      cards.pop();
    } else {
      cards = [];
    }
    input.value = cards.join(" ");
    // A second card turned means the pack was run: save the scorer that tap.
    var stand = form.querySelector("input[name=beg][value=stand]");
    var run = form.querySelector("input[name=beg][value=run]");
    if (cards.length >= 2 && stand && run && stand.checked) run.checked = true;
    if (cards.length <= 1 && stand && run && run.checked) stand.checked = true;
    markPicked(form.parentNode);
  });

  // Game: a tapped side and typed card points exclude each other.
  document.addEventListener("input", function (event) {
    var target = event.target;
    if (target.matches("input[name=turn_ups]")) markPicked(target.form.parentNode);
    if (!target.matches("[data-game-count]") || !target.form) return;
    if (target.value !== "") {
      target.form.querySelectorAll("input[name=game]").forEach(function (radio) {
        radio.checked = false;
      });
    }
  });
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (!target.matches("input[name=game]") || !target.form) return;
    target.form.querySelectorAll("[data-game-count]").forEach(function (count) {
      count.value = "";
    });
  });

  document.addEventListener("DOMContentLoaded", function () { markPicked(document); });
  document.addEventListener("htmx:afterSwap", function () { markPicked(document); });
})();
