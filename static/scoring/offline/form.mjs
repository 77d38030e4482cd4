// The hand form on the phone: its answers as one hand's facts (the same mapping as
// scoring/forms/facts.py, which the server applies to the same form), and a hand's facts put
// back into the form (to fix a hand not sent yet, or to enter a kept hand again).
import { parseCard } from "../rules/cards.mjs";
import { parseRank } from "../rules/cards.mjs";
import { wonBeforePlay } from "../rules/questions.mjs";
import { cardLabel } from "./sheet.mjs";

const NONE = "none";

export function splitCards(text) {
  return text
    .trim()
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((token) => token.toUpperCase());
}

function value(form, name) {
  const field = form.elements.namedItem(name);
  if (!field) return null;
  if (field instanceof RadioNodeList) return field.value || "";
  return field.value;
}

function whole(form, name) {
  const text = value(form, name);
  if (text === null || text.trim() === "") return null;
  const number = Number(text);
  return Number.isInteger(number) ? number : NaN;
}

function penaltyKinds(ruleset, sides) {
  const kinds = ["renege"];
  if (sides === 2) kinds.push("renege_top_trump");
  kinds.push("under_trump");
  if (ruleset.trumps === "pitch") kinds.push("early_look");
  kinds.push("points");
  return kinds;
}

/**
 * {facts, errors: [[field, message]]} from the form's answers, as the server reads them
 * (scoring/forms/facts.py facts_from_fields). `submitter` is the button tapped: a game button
 * records the hand with that side. `scores` (before the hand): where the kicks (or the gift)
 * won the game before a card was played, high, low, jack and game are not asked.
 */
export function factsFromForm(form, { ruleset, labels, submitter = null, scores = null }) {
  const errors = [];
  const facts = { dealer: value(form, "dealer") };
  if (!facts.dealer) errors.push(["dealer", "Tap who dealt."]);
  const outcome = value(form, "outcome") || "played";
  const beg = value(form, "beg") || "stand";
  const misdeal = outcome === "misdeal";
  if (ruleset.trumps === "turn_up" && !misdeal) {
    const cards = splitCards(value(form, "turn_ups") || "");
    if (cards.length) facts.turn_ups = cards;
    else errors.push(["turn_ups", "Tap the card turned up for trumps."]);
  }
  if (ruleset.trumps === "turn_up" && ruleset.begging && !misdeal) facts.beg = beg;
  if (outcome !== "played") facts.outcome = outcome;
  const played =
    outcome === "played" &&
    !(ruleset.trumps === "turn_up" && beg === "take_one" && ruleset.gift_ends_hand);
  if (played && ruleset.captures) {
    const captures = capturesOf(value(form, "captures") || "", facts.turn_ups || [], errors);
    if (captures.length) facts.captures = captures;
  } else if (played) {
    const tapped = submitter && submitter.name === "game" ? submitter.value : value(form, "game_kept");
    const won = scores !== null && wonAtTheDeal(facts, ruleset, labels, scores);
    playFacts(form, facts, labels, tapped, errors, !won);
  }
  const penalties = penaltiesOf(form, ruleset, labels, errors);
  if (penalties.length) facts.penalties = penalties;
  return { facts, errors };
}

/** The rules' answer: did the kicks (or the gift) reach the target before a card was played? */
function wonAtTheDeal(facts, ruleset, labels, scores) {
  const cards = (facts.turn_ups || []).map(parseCard);
  if (!facts.dealer || !cards.length || cards.includes(null)) return false;
  const beg = facts.beg || "stand";
  return wonBeforePlay(ruleset, labels, scores, { dealer: facts.dealer, turnUps: cards, beg }) !== null;
}

function playFacts(form, facts, labels, tapped, errors, asked = true) {
  // Not asked (the game was won before play): what is left unanswered is not needed.
  const unanswered = asked ? errors : [];
  const questions = {
    high: "Tap who held high (or “No trump in play”).",
    low: "Tap who took low (or “No trump in play”).",
    jack: "Tap where the jack went (or “Not out”).",
  };
  for (const name of ["high", "low"]) {
    const answer = value(form, name);
    if (answer && answer !== NONE) facts[name] = answer;
    else if (answer === NONE) facts[name] = null;
    else unanswered.push([name, questions[name]]);
  }
  const jack = value(form, "jack");
  if (jack && jack !== NONE) {
    const cut = jack.indexOf("-");
    facts.jack = { held_by: jack.slice(0, cut), won_by: jack.slice(cut + 1) };
  } else if (jack === NONE) facts.jack = null;
  else unanswered.push(["jack", questions.jack]);

  const given = {};
  for (const label of labels) {
    const count = whole(form, `game_${label}`);
    if (count !== null) given[label] = count;
  }
  const count = Object.keys(given).length;
  if (count && tapped) errors.push(["game", "Tap a side or tie, or enter the card points: not both."]);
  else if (count && count !== labels.length) {
    const missing = labels.filter((label) => !(label in given)).join(", ");
    errors.push(["game", `Enter the card points for every side (missing: ${missing}).`]);
  } else if (count) facts.game = given;
  else if (tapped) facts.game = tapped;
  else unanswered.push(["game", "Tap who made game, tap tie, or enter the card points."]);
}

function capturesOf(text, turnUps, errors) {
  const last = turnUps.length ? turnUps[turnUps.length - 1] : "";
  const trump = last ? last[last.length - 1] : "";
  const captures = [];
  splitCards(text).forEach((token, index) => {
    const colon = token.indexOf(":");
    const side = colon < 0 ? token : token.slice(0, colon);
    let card = colon < 0 ? "" : token.slice(colon + 1);
    if (colon < 0 || !side || !card) {
      errors.push([
        "captures",
        `Capture ${index + 1} is “${token}”: write the side, a colon, then the card, ` +
          "e.g. A:10 or A:10H.",
      ]);
      return;
    }
    if (parseCard(card) === null && parseRank(card) !== null && trump) card += trump;
    captures.push({ card, side });
  });
  return captures;
}

/** The penalties the form carries (`renege:B points:A:2`) as facts (penalties_from_tokens). */
function penaltiesOf(form, ruleset, labels, errors) {
  const penalties = [];
  const kinds = penaltyKinds(ruleset, labels.length);
  const note = (value(form, "penalty_note") || "").trim();
  const tokens = (value(form, "penalties") || "").split(/\s+/).filter(Boolean);
  tokens.forEach((token, offset) => {
    const index = offset + 1;
    const [kind, ...rest] = token.split(":");
    if (!kinds.includes(kind)) {
      errors.push(["penalties", `Penalty ${index}: “${kind}” is not a penalty in ${ruleset.label}.`]);
    } else if (!rest.length || !labels.includes(rest[0])) {
      errors.push(["penalties", `Penalty ${index}: which side?`]);
    } else if (kind === "points") {
      const given = rest.length > 1 ? rest[1] : "";
      if (given === "" || given === "0") errors.push(["penalties", `Penalty ${index}: how many points?`]);
      else if (!/^[0-9]+$/.test(given) || Number(given) < 1 || Number(given) > 100) {
        errors.push([
          "penalties",
          `Penalty ${index}: the points must be a whole number from 1 to 100 (got ${given}).`,
        ]);
      } else {
        const entry = { kind: "points", to: rest[0], points: Number(given) };
        if (note) entry.note = note;
        penalties.push(entry);
      }
    } else penalties.push({ kind, side: rest[0] });
  });
  return penalties;
}

function check(form, name, wanted) {
  const field = form.elements.namedItem(name);
  if (!field) return;
  if (field instanceof RadioNodeList) {
    for (const radio of field) radio.checked = radio.value === wanted;
  } else field.value = wanted ?? "";
}

/** Put a hand's facts back into the form (scoring/forms/facts.py fields_from_facts). */
export function fillForm(form, facts) {
  check(form, "dealer", facts.dealer);
  check(form, "beg", facts.beg || "stand");
  const outcome = facts.outcome || "played";
  check(form, "outcome", outcome);
  check(form, "turn_ups", (facts.turn_ups || []).join(" "));
  const played = outcome === "played";
  for (const name of ["high", "low"]) {
    if (facts[name]) check(form, name, facts[name]);
    else check(form, name, played && name in facts ? NONE : "");
  }
  const jack = facts.jack;
  if (jack) check(form, "jack", `${jack.held_by || jack.won_by}-${jack.won_by}`);
  else check(form, "jack", played && "jack" in facts ? NONE : "");
  const game = facts.game;
  for (const field of form.querySelectorAll("[data-game-count]")) field.value = "";
  let kept = form.querySelector("input[name=game_kept]");
  if (!kept) {
    kept = document.createElement("input");
    kept.type = "hidden";
    kept.name = "game_kept";
    form.append(kept);
  }
  if (game && typeof game === "object") {
    kept.value = "";
    for (const [label, total] of Object.entries(game)) check(form, `game_${label}`, String(total));
  } else kept.value = game || "";
  check(form, "captures", (facts.captures || []).map((c) => `${c.side}:${c.card}`).join(" "));
  const penalties = facts.penalties || [];
  const tokens = penalties.map((p) => (p.kind === "points" ? `points:${p.to}:${p.points}` : `${p.kind}:${p.side}`));
  check(form, "penalties", tokens.join(" "));
  const note = penalties.find((p) => p.note);
  check(form, "penalty_note", note ? note.note : "");
  if (penalties.length) form.querySelector("#penalties")?.setAttribute("open", "");
  if (outcome !== "played" || facts.beg && facts.beg !== "stand") form.querySelector("#more")?.setAttribute("open", "");
  form.dispatchEvent(new Event("input", { bubbles: true }));
}

/** Not a tap: the hand's number, one-time key and token (the server's page gives them), and the
 * game side kept for a correction. */
const NOT_TAPS = new Set(["csrfmiddlewaretoken", "entry_key", "expected_number", "game_kept"]);

/** What the scorer has tapped and typed on the hand form so far, as it stands (valid or not: the
 * server's form and the rules judge it when it is sent): each field's value (a radio group's
 * checked one), the penalties called as their list reads, and which folded parts are open. */
export function tapsOf(form) {
  const values = {};
  for (const field of form.elements) {
    if (!field.name || NOT_TAPS.has(field.name) || ["submit", "button"].includes(field.type)) continue;
    if (field.type !== "radio") values[field.name] = field.value;
    else if (field.checked) values[field.name] = field.value;
    else if (!(field.name in values)) values[field.name] = "";
  }
  const called = [...form.querySelectorAll("[data-called] li")].map((item) => item.firstChild?.textContent.trim() || "");
  const open = [...form.querySelectorAll("details")].map((part) => part.open);
  return { values, called, open };
}

/** Put taps kept by `tapsOf` back on a hand form (the same game's form for the same hand). The
 * page's script lists the penalties called again ("allfours:taps-restored"). */
export function putTaps(form, { values, called, open }) {
  for (const field of form.elements) {
    if (!Object.hasOwn(values, field.name) || NOT_TAPS.has(field.name) || ["submit", "button"].includes(field.type)) continue;
    if (field.type === "radio") field.checked = field.value === values[field.name];
    else field.value = values[field.name];
  }
  form.querySelectorAll("details").forEach((part, index) => {
    if (index < open.length) part.open = open[index];
  });
  form.dataset.touched = "1";
  form.dispatchEvent(new CustomEvent("allfours:taps-restored", { bubbles: true, detail: { called } }));
  form.dispatchEvent(new Event("input", { bubbles: true }));
}

/** The words of the form's button for `name`'s answer `value` (a side's name, "Not out"). */
function answerWords(form, name, value) {
  const radio = [...form.querySelectorAll("input[type=radio]")].find((r) => r.name === name && r.value === value);
  const label = radio?.closest("label");
  return label ? label.textContent.trim().replace(/\s+/g, " ") : value;
}

/** Taps kept by `tapsOf`, short, in the words of `form` (a hand form of the same game): the
 * cards turned up, the answers to high, low and jack (or how the hand ended when it was not
 * played) and how many penalties were called, e.g. "4♥ turned up, High to Reds, Jack not out";
 * empty when none of those was tapped. */
export function tapsWords(form, { values, called }) {
  const words = [];
  const cards = splitCards(values.turn_ups || "");
  if (cards.length) words.push(`${cards.map(cardLabel).join(" ")} turned up`);
  if (values.outcome && values.outcome !== "played") words.push(answerWords(form, "outcome", values.outcome));
  else if (values.high === NONE && values.low === NONE) words.push(answerWords(form, "high", NONE));
  else {
    for (const [name, question] of [["high", "High"], ["low", "Low"]]) {
      if (values[name]) words.push(`${question} ${values[name] === NONE ? "" : "to "}${answerWords(form, name, values[name])}`);
    }
  }
  const jack = values.outcome && values.outcome !== "played" ? "" : values.jack;
  if (jack) {
    const [heldBy, wonBy] = jack.split("-");
    const answer = answerWords(form, "jack", jack);
    if (jack === NONE) words.push(`Jack ${answer.toLowerCase()}`);
    else words.push(heldBy === wonBy ? `Jack to ${answer}` : answer);
  }
  if (called.length) words.push(`${called.length} ${called.length === 1 ? "penalty" : "penalties"} called`);
  return words.join(", ");
}
