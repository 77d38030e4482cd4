/* Scoring at the table: progressive enhancement of the hand form and the light reply.
 * Without this file every button is a plain form post and the server does the same work
 * (a rank waits for its suit, a penalty is called, by re-rendering the form; nothing is saved
 * until a game button or "Record hand"). */
(function () {
  "use strict";

  if (window.htmx) {
    // htmx 2 swaps only 2xx responses by default. A refused hand (422: errors by the facts) and a
    // stale form (409: the game as it is now, with a message) must be shown in place too, and a
    // phone no longer let score the game (403: its link revoked, the result confirmed) must see
    // the refusal page's words where the game was, not a tap that does nothing; so must a phone
    // whose game is no longer kept (410: taken away before a hand of it was recorded).
    window.htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "403", swap: true, error: false, target: "#main", select: "#main", swapOverride: "outerHTML" },
      { code: "410", swap: true, error: false, target: "#main", select: "#main", swapOverride: "outerHTML" },
      { code: "409", swap: true, error: false },
      { code: "422", swap: true, error: false },
      { code: "[45]..", swap: false, error: true },
      { code: "...", swap: false },
    ];
  }

  var SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };

  function cardsOf(input) {
    return input.value.trim().toUpperCase().split(/[\s,;]+/).filter(Boolean);
  }

  function dealerName(form) {
    var checked = form.querySelector("input[name=dealer]:checked");
    var label = checked && checked.closest("label");
    return label ? label.textContent.trim() : "The dealer";
  }

  /* The kick the turned cards score, from the kicks the server put on each rank button. */
  function showKicks(form) {
    var input = form.querySelector("input[name=turn_ups]");
    var hint = form.querySelector("#kick-hint");
    if (!input || !hint) return;
    var field = form.querySelector("[data-kicks-on]");
    var everyCard = !field || field.dataset.kicksOn === "every";
    var cards = cardsOf(input);
    var words = [];
    cards.forEach(function (card, index) {
      var rank = card.slice(0, -1), suit = card.slice(-1);
      if (!everyCard && index > 0 && suit === cards[0].slice(-1)) return;
      var button = form.querySelector('[data-rank="' + rank + '"]');
      var kick = button ? parseInt(button.dataset.kick || "0", 10) : 0;
      if (kick > 0) {
        words.push(rank + (SYMBOLS[suit] || suit) + " turned: " + dealerName(form) +
          " (dealing) +" + kick + " kick");
      }
    });
    hint.textContent = words.join("; ");
  }

  function markPicked(form) {
    var pending = form.querySelector("[data-pending-rank]");
    form.querySelectorAll("[data-rank]").forEach(function (button) {
      var on = pending && pending.value === button.dataset.rank;
      button.classList.toggle("pending", !!on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
    showKicks(form);
  }

  function addCard(form, card) {
    var input = form.querySelector("input[name=turn_ups]");
    var cards = cardsOf(input);
    if (cards.indexOf(card) === -1) cards.push(card);
    setCards(form, cards);
  }

  function setCards(form, cards) {
    var input = form.querySelector("input[name=turn_ups]");
    input.value = cards.join(" ");
    begFollowsCards(form);
    markPicked(form);
  }

  /* Cards enough for a run (a second card turned: the rules' fewest for a run, on the card
   * picker's fieldset, never counted here) mean the pack was run: the beg moves from Stand to
   * "run the pack", whether the cards were picked or typed ("JH 6H"), and the move is marked the
   * cards' own in a field of the form, so that a refused hand's form and the taps put back on
   * a page opened again keep it; fewer cards (one, or the box cleared), back to Stand. A beg the
   * scorer tapped is theirs: a run chosen before the cards (as it happens at the table) stays
   * chosen, and with one card is refused by name, never quietly recorded as a stand. */
  function begFollowsCards(form) {
    var input = form.querySelector("input[name=turn_ups]");
    var field = form.querySelector("[data-run-from]");
    var mark = form.querySelector("[data-beg-by-cards]");
    var stand = form.querySelector("input[name=beg][value=stand]");
    var run = form.querySelector("input[name=beg][value=run]");
    if (!input || !field || !mark || !stand || !run) return;
    var ran = cardsOf(input).length >= parseInt(field.dataset.runFrom, 10);
    if (ran && stand.checked) {
      run.checked = true;
      mark.value = "1";
    } else if (!ran && run.checked && mark.value) {
      stand.checked = true;
    }
    if (!run.checked) mark.value = "";
  }

  /* Penalties: one tap calls one; the list shows each as "Blues renege → Reds +1". */
  function penaltyTokens(form) {
    var box = form.querySelector("[data-penalties]");
    return box.value.split(/\s+/).filter(Boolean);
  }

  function showPenalties(form, tokens, texts) {
    form.querySelector("[data-penalties]").value = tokens.join(" ");
    var list = form.querySelector("[data-called]");
    list.textContent = "";
    texts.forEach(function (text, index) {
      var item = document.createElement("li");
      item.textContent = text + " ";
      var drop = document.createElement("button");
      drop.type = "button";
      drop.className = "small";
      drop.textContent = "✕";
      drop.setAttribute("aria-label", "Drop: " + text);
      drop.dataset.dropPenalty = String(index);
      item.appendChild(drop);
      list.appendChild(item);
    });
    var summary = form.querySelector("#penalties > summary");
    if (summary) summary.textContent = "Penalties" + (tokens.length ? " (" + tokens.length + ")" : "");
  }

  function calledTexts(form) {
    return Array.prototype.map.call(form.querySelectorAll("[data-called] li"), function (li) {
      return li.firstChild ? li.firstChild.textContent.trim() : "";
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-rank], [data-suit], [data-card-action], [data-penalty], [data-drop-penalty]");
    if (!button || !button.form) return;
    var form = button.form;
    event.preventDefault();
    var pending = form.querySelector("[data-pending-rank]");
    if (button.dataset.rank) {
      pending.value = pending.value === button.dataset.rank ? "" : button.dataset.rank;
      markPicked(form);
    } else if (button.dataset.suit) {
      if (pending && pending.value) {
        addCard(form, pending.value + button.dataset.suit);
        pending.value = "";
        markPicked(form);
      }
    } else if (button.dataset.cardAction) {
      var cards = cardsOf(form.querySelector("input[name=turn_ups]"));
      cards.pop();
      setCards(form, cards);
    } else if (button.dataset.penalty) {
      var tokens = penaltyTokens(form), texts = calledTexts(form);
      var token = button.dataset.penalty, text = button.dataset.called;
      if (token.indexOf("points:") === 0) {
        var side = token.slice(7);
        var box = form.querySelector("input[name=points_" + side + "]");
        var points = box ? parseInt(box.value, 10) : NaN;
        if (!(points >= 1)) { if (box) box.focus(); return; }
        token = token + ":" + points;
        text = text.replace(/^Points to /, "Points → ") + " +" + points;
        box.value = "";
      }
      tokens.push(token);
      texts.push(text);
      showPenalties(form, tokens, texts);
    } else if (button.dataset.dropPenalty) {
      var index = parseInt(button.dataset.dropPenalty, 10);
      var kept = penaltyTokens(form), words = calledTexts(form);
      kept.splice(index, 1);
      words.splice(index, 1);
      showPenalties(form, kept, words);
    }
  });

  document.addEventListener("input", function (event) {
    var target = event.target;
    if (!target.form) return;
    if (!target.matches("input[name=turn_ups]")) return;
    begFollowsCards(target.form);
    markPicked(target.form);
  });
  document.addEventListener("change", function (event) {
    if (event.target.form && event.target.matches("input[name=dealer]")) showKicks(event.target.form);
    // The scorer's own choice of beg: no longer the cards' to undo.
    if (event.target.matches("input[name=beg]")) {
      var mark = event.target.form && event.target.form.querySelector("[data-beg-by-cards]");
      if (mark) mark.value = "";
    }
  });

  /* The light reply: put the changed score-sheet rows in place and redraw the chart. A recorded
   * or undone hand replaces the rows from its number on; a correction replaces its own row (and
   * a deciding one) and sends the later rows' running totals as numbers only. */
  function applySheetUpdate() {
    var update = document.getElementById("sheet-update");
    var body = document.getElementById("sheet-rows");
    if (!update || !body) return;
    if (update.hasAttribute("data-replace")) {
      Array.prototype.forEach.call(update.content.querySelectorAll("tr[id]"), function (row) {
        var old = document.getElementById(row.id);
        if (old) old.replaceWith(document.importNode(row, true));
      });
      var first = parseInt(update.dataset.totalsFrom, 10);
      update.dataset.totals.split(";").filter(Boolean).forEach(function (totals, index) {
        var row = document.getElementById("hand-" + (first + index));
        if (!row) return;
        row.dataset.totals = totals;
        var cells = row.querySelectorAll("td.total");
        totals.split(",").forEach(function (total, side) {
          if (cells[side]) cells[side].textContent = total;
        });
      });
    } else {
      var from = parseInt(update.dataset.from, 10);
      Array.prototype.slice.call(body.querySelectorAll("tr[data-number]")).forEach(function (row) {
        if (parseInt(row.dataset.number, 10) >= from) row.remove();
      });
      body.appendChild(update.content.cloneNode(true));
    }
    update.remove();
    var empty = document.getElementById("no-hands");
    if (empty && body.querySelectorAll("tr[data-number]").length > 1) empty.remove();
    redrawChart(body);
  }

  /* Correcting a hand in place: "Fix" opens the correction form where the hand form was. The
   * hand form waits, detached (so no id is on the page twice), until Cancel puts it back without
   * asking the server, or a reply brings a fresh one. Without htmx "Fix" is a plain link. */
  var keptForm = null;

  document.addEventListener("click", function (event) {
    var box = document.getElementById("correction");
    if (!box || event.defaultPrevented) return;
    var fix = event.target.closest("a.fix");
    if (fix && window.htmx) {
      event.preventDefault();
      window.htmx.ajax("GET", fix.getAttribute("href"), { target: box, swap: "innerHTML" });
      return;
    }
    var cancel = event.target.closest("[data-cancel-correction]");
    if (cancel && box.contains(cancel)) {
      event.preventDefault();
      box.replaceChildren();
      var entry = document.getElementById("entry");
      if (keptForm && entry) entry.appendChild(keptForm);
      keptForm = null;
      showFirstKey();
    }
  });

  /* Fix on the score bar is the last hand's. Tapped while a hand is on its way (a slow
   * connection), it still points at the hand before: the tap waits for the answer, then opens
   * the hand just recorded (from the bar the answer brought); a hand refused, or not sent,
   * opens nothing. Before the offline page's own Fix (static/scoring/offline/page.mjs). */
  var handSending = null;
  var fixWaitingFrom = null;

  function lastHandFix() {
    return document.querySelector("#scoreboard [data-testid=fix-last]");
  }

  document.addEventListener("click", function (event) {
    var fix = event.target.closest && event.target.closest("#scoreboard [data-testid=fix-last]");
    if (!fix || !handSending) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    fixWaitingFrom = parseInt(fix.dataset.offlineFix, 10) || 0;
  }, true);
  document.addEventListener("htmx:beforeSend", function (event) {
    if (event.detail.elt && event.detail.elt.id === "hand-form") handSending = event.detail.xhr;
  });
  // The answer is in (or the request failed): an answer that moved the game on has put in the
  // bar's Fix for the hand it recorded.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!handSending || event.detail.xhr !== handSending) return;
    handSending = null;
    var from = fixWaitingFrom;
    fixWaitingFrom = null;
    var fix = lastHandFix();
    if (from !== null && fix && (parseInt(fix.dataset.offlineFix, 10) || 0) > from) fix.click();
  });

  function followCorrection() {
    var box = document.getElementById("correction");
    var fixing = box && box.querySelector("form");
    if (!fixing) {
      keptForm = null;
      return;
    }
    var form = document.getElementById("hand-form");
    if (form) {
      keptForm = form;
      form.remove();
    }
    box.scrollIntoView({ block: "start" });
  }

  function redrawChart(body) {
    var svg = document.querySelector("svg.progression");
    if (!svg) return;
    var rows = body.querySelectorAll("tr[data-totals]");
    var series = Array.prototype.map.call(rows, function (row) {
      return row.dataset.totals.split(",").map(Number);
    });
    var box = svg.dataset;
    var left = +box.left, right = +box.right, top = +box.top, bottom = +box.bottom;
    var topValue = +box.target;
    series.forEach(function (totals) { totals.forEach(function (v) { topValue = Math.max(topValue, v); }); });
    var count = Math.max(series.length - 1, 1);
    function x(i) { return tenths(left * count + (right - left) * i, count); }
    function y(v) { return tenths(top * topValue + (bottom - top) * (topValue - v), topValue); }
    svg.querySelectorAll("polyline[data-side-index]").forEach(function (line) {
      var s = +line.dataset.sideIndex;
      var points = series.map(function (totals, i) { return x(i) + "," + y(totals[s]); });
      line.setAttribute("points", points.join(" "));
      var dot = svg.querySelector('circle[data-side-index="' + s + '"]');
      var last = series[series.length - 1];
      if (dot && last) { dot.setAttribute("cx", x(series.length - 1)); dot.setAttribute("cy", y(last[s])); }
    });
    var desc = svg.querySelector("desc");
    if (desc) {
      var last = series[series.length - 1] || [];
      var parts = Array.prototype.map.call(svg.querySelectorAll("polyline[data-side-index]"), function (line) {
        return line.dataset.name + ": " + last[+line.dataset.sideIndex];
      });
      desc.textContent = "Score after each hand; " + parts.join("; ") + "; target " + box.target + ".";
    }
    var ticks = svg.querySelectorAll("text.tick");
    ticks.forEach(function (tick) { tick.remove(); });
    // Where the server writes them: before the lines.
    var firstLine = svg.querySelector("polyline[data-side-index]");
    var step = Math.max(1, Math.ceil(count / 10));
    for (var n = 0; n <= series.length - 1; n += step) {
      var label = document.createElementNS("http://www.w3.org/2000/svg", "text");
      label.setAttribute("class", "label tick");
      label.setAttribute("x", x(n));
      label.setAttribute("y", bottom + 16);
      label.setAttribute("text-anchor", "middle");
      label.textContent = String(n);
      svg.insertBefore(label, firstLine);
    }
    var targetY = y(+box.target);
    var target = svg.querySelector("[data-testid=chart-target]");
    if (target) { target.setAttribute("y1", targetY); target.setAttribute("y2", targetY); }
    var targetLabel = svg.querySelector("text.target-label");
    if (targetLabel) targetLabel.setAttribute("y", targetY);
  }

  /* numerator / denominator to the tenth, a half rounded up, written as the server writes it
   * ("30.0", "113.3"): the server's arithmetic in whole numbers (scoring/sheet.py `_tenths`),
   * so the chart drawn here is the one the page opened afresh shows. */
  function tenths(numerator, denominator) {
    var twice = 20 * numerator + denominator, by = 2 * denominator;
    var t = (twice - twice % by) / by;
    return (t - t % 10) / 10 + "." + (t % 10);
  }

  /* The first key a thumb taps in the hand form: the first button or label that shows (a radio
   * itself is hidden behind its label). */
  function firstKey(form) {
    var keys = form.querySelectorAll("button, label");
    for (var i = 0; i < keys.length; i += 1) {
      var place = keys[i].getBoundingClientRect();
      if (place.width >= 20 && place.height >= 20) return keys[i];
    }
    return null;
  }

  /* After any answer to the hand form, an undo or a correction, the next hand starts where the
   * thumb is: the hand form's first key in view, below the sticky score bar (the page may have
   * been scrolled down to a card-points box, a refusal or the sheet). A game won has no next
   * hand: the line saying who won is what matters then, in view below the bar the same way
   * (the page may have been scrolled down to the penalties, or to the row a correction fixed). */
  function showFirstKey() {
    var form = document.getElementById("hand-form");
    var box = document.getElementById("correction");
    if (box && box.querySelector("form")) return;
    var key = form ? firstKey(form) : document.getElementById("winner-banner");
    if (!key) return;
    var bar = document.getElementById("scoreboard");
    var top = bar ? bar.getBoundingClientRect().bottom : 0;
    var place = key.getBoundingClientRect();
    if (place.top >= top && place.bottom <= window.innerHeight) return;
    window.scrollBy(0, place.top - top - 8);
  }
  // The offline page (static/scoring/offline/page.mjs) says so when it kept a hand or an undo.
  document.addEventListener("allfours:hand-done", showFirstKey);

  /* A link within the page (a refused hand's "Check: Beg") scrolls its target to just below the
   * sticky score bar: the bar's height, measured as the link is tapped, is the CSS's
   * --bar-height (scoring.css gives each question that much scroll-margin-top). */
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href^='#']");
    var bar = document.getElementById("scoreboard");
    if (!link || !bar) return;
    document.documentElement.style.setProperty("--bar-height", bar.offsetHeight + "px");
  }, true);

  /* "No, keep it" closes Undo's question where the page is (without JavaScript it is a link to
   * the game, which opens with the question closed). */
  document.addEventListener("click", function (event) {
    var keep = event.target.closest("[data-undo-keep]");
    if (!keep) return;
    var undo = keep.closest("details");
    if (!undo) return;
    event.preventDefault();
    undo.open = false;
    var summary = undo.querySelector("summary");
    if (summary) summary.focus();
  });

  /* A recorded hand's reply as data: the server sends it when asked (`X-Light-Reply: json`,
   * scoring/views.py `_drawn_reply`), and it is drawn here as the rendered reply
   * (scoring/_reply.html) changes the page: the sheet's new row (written by the server), the
   * scores, the notice and who deals next, the score bar's Undo and Fix for the new last hand,
   * and the next hand's form: a copy of the fresh form the page was given (kept before anything
   * is tapped on it) with the next hand's number, one-time key and dealer. The page asks for it
   * only when it holds that copy and its score bar has the Undo to bring up to date; a hand
   * that wins the game is answered by the server's page (its banner and actions). */
  var freshForm = null;
  var seenForms = new WeakSet();
  var touchedForms = new WeakSet();
  var shownAt = new WeakMap();

  /* A hand form is looked at once, as it arrives: the page loaded, a reply swapped it in (htmx
   * says so at once, before a finger can reach it), or the offline page showed the server's
   * game again. A fresh one nobody has touched is copied then (without the classes htmx gives
   * it while it settles), never later: by then taps may be on it. The offline page says which
   * form the server's game came with: a hand the scorer began meanwhile may have taken its
   * place on the page, and the server's form is the one to copy. */
  function keepFreshForm(event) {
    var given = event && event.type === "allfours:game-shown" && event.detail && event.detail.freshForm;
    var form = given || document.getElementById("hand-form");
    if (!form || seenForms.has(form)) return;
    seenForms.add(form);
    // Brought by an answer to a tap, which a second tap may follow.
    if (event && event.type === "htmx:afterSwap") shownAt.set(form, Date.now());
    if (!form.hasAttribute("data-fresh") || touchedForms.has(form)) return;
    freshForm = form.cloneNode(true);
    freshForm.classList.remove("htmx-request", "htmx-settling", "htmx-swapping", "htmx-added");
    freshForm.querySelectorAll("#hand-preview, #offline-error").forEach(function (node) { node.remove(); });
  }
  keepFreshForm();
  document.addEventListener("htmx:afterSwap", keepFreshForm);
  document.addEventListener("allfours:game-shown", keepFreshForm);

  /* Anything tapped or typed on a hand form but its record buttons (Record hand, the game
   * buttons, Enter's) touches it. */
  function markTouched(event) {
    var form = event.target.closest && event.target.closest("#hand-form");
    if (!form || (event.type === "click" && event.target.closest(".record, .game-record, .default-submit"))) return;
    touchedForms.add(form);
  }
  ["input", "change"].forEach(function (kind) { document.addEventListener(kind, markTouched, true); });

  /* A double tap on a game button: the second lands on the next hand's form, just shown (a
   * reply's, or the same form cleared once the hand was kept on the phone) and untouched. Sent,
   * it would be refused ("Nothing was saved"), taking "Hand N recorded." away; where the page
   * moved under the finger (a line added above), it would tap a choice of the next hand. A tap
   * on such a form in its first moments where the record tap was is that second tap: it does
   * nothing (and, to the offline page, it is not a hand begun: the page still shows the other
   * phone's hands). A tap elsewhere is the next hand's. */
  var SECOND_TAP_MS = 700;
  var SECOND_TAP_PX = 24;
  var recordTap = null;
  function secondTap(form) {
    return !!form && !touchedForms.has(form) && shownAt.has(form) &&
      Date.now() - shownAt.get(form) <= SECOND_TAP_MS;
  }
  function whereRecordTapped(event) {
    return !!recordTap && Math.abs(event.clientX - recordTap.x) <= SECOND_TAP_PX &&
      Math.abs(event.clientY - recordTap.y) <= SECOND_TAP_PX;
  }
  function swallowSecondTap(event) {
    var form = event.target.closest && event.target.closest("#hand-form");
    if (!secondTap(form) || (event.type !== "submit" && !whereRecordTapped(event))) return false;
    event.preventDefault();
    event.stopImmediatePropagation();
    return true;
  }
  document.addEventListener("pointerdown", function (event) {
    if (swallowSecondTap(event)) return;
    var record = event.target.closest && event.target.closest("#hand-form .record, #hand-form .game-record");
    if (record) recordTap = { x: event.clientX, y: event.clientY };
  }, true);
  document.addEventListener("click", function (event) {
    if (!swallowSecondTap(event)) markTouched(event);
  }, true);
  document.addEventListener("submit", function (event) {
    if (event.target.id === "hand-form") swallowSecondTap(event);
  }, true);
  /* Taps kept on the phone put back on the page opened again (static/scoring/offline/page.mjs):
   * the penalties called listed as they were, the rank waiting for its suit and the kick shown,
   * and the form begun. */
  document.addEventListener("allfours:taps-restored", function (event) {
    var form = event.target;
    touchedForms.add(form);
    if (form.querySelector("[data-penalties]") && form.querySelector("[data-called]")) {
      showPenalties(form, penaltyTokens(form), event.detail.called || []);
    }
    markPicked(form);
  });
  // A hand kept on the phone (static/scoring/offline/page.mjs) clears the same form for the next.
  document.addEventListener("allfours:hand-done", function () {
    var form = document.getElementById("hand-form");
    if (!form) return;
    touchedForms.delete(form);
    shownAt.set(form, Date.now());
  });

  function mayDrawReply() {
    return !!(freshForm && document.getElementById("sheet-rows") && document.getElementById("undo-form") &&
      document.querySelector("#scoreboard .status-line"));
  }

  function nextForm(next) {
    var form = freshForm.cloneNode(true);
    form.elements.namedItem("entry_key").value = next.entry_key;
    form.elements.namedItem("expected_number").value = String(next.number);
    form.querySelectorAll("input[name=dealer]").forEach(function (radio) {
      radio.checked = radio.defaultChecked = radio.value === next.dealer;
    });
    return form;
  }

  function drawReply(reply) {
    var entry = document.getElementById("entry");
    var form = document.getElementById("hand-form");
    var update = document.createElement("template");
    update.id = "sheet-update";
    update.dataset.from = String(reply.hand);
    update.innerHTML = reply.row;
    entry.prepend(update);

    Object.keys(reply.scores).forEach(function (label) {
      var value = document.querySelector('#scoreboard [data-testid="score-value-' + label + '"]');
      if (value) value.textContent = String(reply.scores[label]);
    });
    var line = document.querySelector("#scoreboard .status-line");
    var notice = document.getElementById("game-notice");
    if (!notice) {
      notice = document.createElement("span");
      notice.id = "game-notice";
      notice.dataset.testid = "game-notice";
      line.prepend(notice, " ");
    }
    notice.className = "notice success";
    notice.setAttribute("role", "status");
    notice.textContent = reply.notice;
    var dealer = document.getElementById("next-dealer");
    if (dealer) {
      var name = document.createElement("strong");
      name.textContent = reply.next.dealer_name;
      dealer.replaceChildren("Hand " + reply.next.number + " · deals: ", name);
    }

    document.querySelectorAll("#scoreboard [data-last-number]").forEach(function (number) {
      number.textContent = String(reply.undo.number);
    });
    var undo = document.getElementById("undo-form");
    undo.elements.namedItem("expected_number").value = String(reply.undo.number);
    undo.elements.namedItem("entry_key").value = reply.undo.entry_key;
    var fix = document.querySelector("#scoreboard [data-testid=fix-last]");
    if (fix) {
      fix.setAttribute("href", reply.undo.fix_url);
      fix.dataset.offlineFix = String(reply.undo.number);
    }

    var next = nextForm(reply.next);
    if (form) form.replaceWith(next);
    else entry.appendChild(next);
    seenForms.add(next);
    shownAt.set(next, Date.now());
    if (window.htmx) window.htmx.process(next);
    settle({ detail: { requestConfig: { verb: "post" } } });
    // The offline page (static/scoring/offline/page.mjs) keeps what changed of the game.
    document.dispatchEvent(new CustomEvent("allfours:reply-drawn", { detail: { update: reply.offline_update } }));
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.id === "hand-form" && mayDrawReply()) event.detail.headers["X-Light-Reply"] = "json";
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    var type = (xhr && xhr.getResponseHeader("Content-Type")) || "";
    if (type.indexOf("application/json") !== 0) return;
    event.detail.shouldSwap = false;
    var reply = JSON.parse(xhr.responseText);
    if (mayDrawReply()) drawReply(reply);
    else window.location.reload();
  });

  function settle(event) {
    applySheetUpdate();
    followCorrection();
    var config = event && event.detail && event.detail.requestConfig;
    if (config && config.verb === "post") showFirstKey();
    // A message from an earlier page (say "Hand 2 corrected") must not outlive its action.
    document.querySelectorAll("body > .messages").forEach(function (list) { list.remove(); });
    var undo = document.getElementById("undo");
    if (undo) undo.open = false;
    document.querySelectorAll(".hand-form").forEach(markPicked);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".hand-form").forEach(markPicked);
  });
  document.addEventListener("htmx:afterSettle", settle);

  /* A correction says how far this phone's sheet goes (its last hand's number): the light reply
   * moves only the rows a sheet has, so a sheet behind the game (another phone recorded hands
   * since it loaded) is answered with the whole game instead. */
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    var body = document.getElementById("sheet-rows");
    if (!body || !elt || !elt.closest || !elt.closest("#correct-form")) return;
    var last = 0;
    body.querySelectorAll("tr[data-number]").forEach(function (row) {
      last = Math.max(last, parseInt(row.dataset.number, 10) || 0);
    });
    event.detail.parameters.sheet_hands = String(last);
  });
})();
