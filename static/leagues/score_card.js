// The score card kept on the phone: what is typed into a fixture's card is kept in the
// browser's storage as it is typed, put back when the card is opened again (after a lost
// signal, a Back, the browser closed), and dropped once the server has taken the card. The
// card is sent with fetch: with no signal the page stays as typed and says that nothing was
// sent; the server's answer is followed as the plain form post would be (the card taken: its
// page; the card refused: the card again, with the server's words). Without JavaScript the
// form is a plain post. The server takes a card once: a second tap, or a retry after a reply
// was lost, is answered with the card already submitted (leagues.views.cards.score_card).
// A card is kept for the account that typed it ("<account>:<fixture>", the form's
// data-card-keep): a phone shared at the pub never puts one captain's card before the next
// person signed in, and Log out (the header's form, data-logout="<account>") drops every card
// that account kept. Loaded on every page a signed-in account sees, for that Log out.
(function () {
  "use strict";
  var PREFIX = "allfours:score-card:";
  // Kept before cards were kept by account: whose they are is not known, so none is put back.
  var UNOWNED = /^allfours:score-card:\d+$/;
  var sending = false;

  function store() {
    try {
      return window.localStorage;
    } catch (error) {
      return null;
    }
  }

  function read(pk) {
    var storage = store();
    if (!storage) return null;
    try {
      return JSON.parse(storage.getItem(PREFIX + pk) || "null");
    } catch (error) {
      return null;
    }
  }

  function write(pk, record) {
    var storage = store();
    if (!storage) return;
    try {
      storage.setItem(PREFIX + pk, JSON.stringify(record));
    } catch (error) {
      // Storage full or refused: the card is still sent as typed.
    }
  }

  function drop(pk) {
    var storage = store();
    if (storage) storage.removeItem(PREFIX + pk);
  }

  // Every kept card whose key ``mine`` picks, dropped.
  function dropAll(mine) {
    var storage = store();
    if (!storage) return;
    var keys = [];
    for (var index = 0; index < storage.length; index += 1) keys.push(storage.key(index));
    keys.filter(mine).forEach(function (key) {
      storage.removeItem(key);
    });
  }

  function unowned(key) {
    return UNOWNED.test(key);
  }

  // The card's boxes by name, as typed (``live``) or as the server wrote them (the defaults).
  function fields(form) {
    return Array.prototype.filter.call(form.elements, function (field) {
      return field.name && field.name !== "csrfmiddlewaretoken" && field.type !== "submit";
    });
  }

  function valueOf(field, live) {
    if (field.type === "checkbox" || field.type === "radio") {
      return (live ? field.checked : field.defaultChecked) ? field.value : "";
    }
    if (field.tagName === "SELECT") {
      if (live) return field.value;
      var chosen = Array.prototype.filter.call(field.options, function (o) {
        return o.defaultSelected;
      });
      return chosen.length ? chosen[0].value : field.options.length ? field.options[0].value : "";
    }
    return live ? field.value : field.defaultValue;
  }

  function values(form, live) {
    var out = {};
    fields(form).forEach(function (field) {
      out[field.name] = valueOf(field, live);
    });
    return out;
  }

  function names(form) {
    return fields(form)
      .map(function (field) {
        return field.name;
      })
      .join(",");
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  // Keep what is typed, with the card as the server gave it (``base``): put back only over the
  // same card, never over one the server now shows otherwise.
  function keep(form) {
    var pk = form.dataset.cardKeep;
    var record = read(pk);
    var base = record && record.names === names(form) ? record.base : values(form, false);
    var typed = values(form, true);
    if (same(typed, base)) {
      drop(pk);
      return;
    }
    write(pk, { names: names(form), base: base, values: typed, at: Date.now() });
  }

  function restore(form) {
    var pk = form.dataset.cardKeep;
    var record = read(pk);
    if (!record) return false;
    if (form.hasAttribute("data-card-posted")) {
      // The server's answer to a card sent: the boxes hold what was sent; kept as they are.
      keep(form);
      return false;
    }
    if (record.names !== names(form) || !same(record.base, values(form, false))) {
      drop(pk); // the card changed on the server meanwhile: its boxes are the server's
      return false;
    }
    var changed = false;
    fields(form).forEach(function (field) {
      if (!(field.name in record.values)) return;
      var value = record.values[field.name];
      if (valueOf(field, true) === value) return;
      changed = true;
      if (field.type === "checkbox" || field.type === "radio") {
        field.checked = value === field.value;
      } else {
        field.value = value;
      }
      var details = field.closest("details");
      if (details && value) details.open = true;
    });
    return changed;
  }

  function buttonWords(form) {
    var button = form.querySelector("button[type=submit]");
    return button ? button.textContent.trim() : "Submit the result";
  }

  // One line beside the Submit button, said as it changes.
  function say(form, words, alert) {
    var line = form.querySelector(".card-keep-note");
    if (!line) {
      line = document.createElement("p");
      line.className = "card-keep-note note";
      line.setAttribute("data-testid", "card-keep-note");
      var actions = form.querySelector(".actions") || form.lastElementChild;
      form.insertBefore(line, actions);
    }
    line.setAttribute("role", alert ? "alert" : "status");
    line.textContent = words;
    line.hidden = !words;
    return line;
  }

  function notSent(form, why) {
    sending = false;
    var line = say(
      form,
      why +
        " Nothing was sent: your figures are kept on this phone, here and if the card is " +
        "opened again. Tap \u201c" + buttonWords(form) + "\u201d again once there is signal.",
      true
    );
    line.scrollIntoView({ block: "center" });
  }

  // The server's page in place of this one, as the plain post would show it.
  function show(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    document.title = page.title;
    taken(page);
    document.body.replaceWith(document.adoptNode(page.body));
    window.scrollTo(0, 0);
    sending = false;
    setUp();
  }

  function send(form) {
    sending = true;
    keep(form);
    say(form, "Sending the card\u2026", false);
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { "X-Card-Reply": "location" },
    })
      .then(function (response) {
        var type = response.headers.get("Content-Type") || "";
        if (response.ok && type.indexOf("application/json") === 0) {
          return response.json().then(function (answer) {
            drop(form.dataset.cardKeep);
            window.location.assign(answer.location);
          });
        }
        if (response.redirected) {
          // Sent to log in again, say: the figures stay kept for the card opened after.
          window.location.assign(response.url);
          return null;
        }
        if (response.status >= 500) {
          notSent(form, "The server could not take the card just now (error " + response.status + ").");
          return null;
        }
        return response.text().then(show);
      })
      .catch(function () {
        notSent(form, "No signal: the card did not reach the server.");
      });
  }

  // A card page saying the card is taken (submitted, counted, settled): nothing kept to put back.
  function taken(root) {
    var mark = root.querySelector("meta[name=score-card-taken]");
    if (mark) drop(mark.content);
  }

  function setUp() {
    dropAll(unowned);
    taken(document);
    var form = document.querySelector("form[data-card-keep]");
    if (form && restore(form)) {
      say(
        form,
        "The figures typed on this phone are back in the boxes: the card is not sent yet. Tap " +
          "\u201c" + buttonWords(form) + "\u201d to send it.",
        false
      );
    }
  }

  function onEdit(event) {
    var form = event.target.form;
    if (form && form.hasAttribute("data-card-keep")) keep(form);
  }

  document.addEventListener("input", onEdit);
  document.addEventListener("change", onEdit);
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var account = form.getAttribute("data-logout");
    if (account) {
      // Log out: the cards this account kept go with it; the next person starts afresh.
      dropAll(function (key) {
        return key.indexOf(PREFIX + account + ":") === 0;
      });
      return;
    }
    if (!form.hasAttribute("data-card-keep") || !window.fetch) return;
    event.preventDefault();
    if (!sending) send(form); // a second tap while the first is on its way sends nothing
  });
  setUp();
})();
