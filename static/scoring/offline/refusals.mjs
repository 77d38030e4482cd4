// A refusal of the rules in the page's words, as the server words it (scoring/forms/words.py
// plain_message): the same table, exported to words.mjs, read the same way. The engine's message
// (the replay format's words: "jack must be null") is what InvalidFacts carries; the scorer reads
// "tap “Not out”", sides by name. tests/scoring/test_refusal_words.py checks that both agree.
import {
  BEG_WORDS,
  KEY_WORDS,
  NONE_WORDS,
  OUTCOME_WORDS,
  PENALTY_WORDS,
  REFUSALS,
  SUIT_NAMES,
  SUIT_SYMBOLS,
  SWAPS,
} from "./words.mjs";

const PLACE = /\{(\w+)(?:([:=])([^}]*))?\}/g;

/** `Reds'`, `Smith & Jones'`, `Patel's` (words.py possessive). */
export function possessive(name) {
  return name.endsWith("s") || name.endsWith("S") ? `${name}'` : `${name}'s`;
}

function quoted(words) {
  return `“${words}”`;
}

function has(table, key) {
  return Object.prototype.hasOwnProperty.call(table, key);
}

function lookUp(table, value) {
  return has(table, value) ? table[value] : value;
}

/** What the scorer typed, as the engine quoted it (`'XX'`): “XX”. */
function typed(value) {
  const quote = value[0];
  if (value.length >= 2 && quote === value[value.length - 1] && (quote === "'" || quote === '"')) {
    return quoted(value.slice(1, -1));
  }
  return value;
}

/** `A, B` → `A for Reds, B for Blues`: the labels a scorer types for the sides. */
function labels(value, names) {
  return value
    .split(", ")
    .map((label) => (has(names, label) ? `${label} for ${names[label]}` : label))
    .join(", ");
}

/** A replay key or value in the page's words: a button's words quoted, else plain. */
function word(value) {
  for (const table of [BEG_WORDS, OUTCOME_WORDS, PENALTY_WORDS]) {
    if (has(table, value)) return quoted(table[value]);
  }
  return has(KEY_WORDS, value) ? KEY_WORDS[value] : value.replace(/_/g, " ");
}

/** A card as the page writes it, "JC" → "J♣" (words.py _card). */
function card(value) {
  const found = /^(10|[2-9AKQJ])([CDHS])$/.exec(value);
  return found ? `${found[1]}${SUIT_SYMBOLS[found[2]]}` : value;
}

function none(value) {
  return has(NONE_WORDS, value) ? quoted(NONE_WORDS[value]) : "none";
}

const KINDS = {
  side: (value, names) => lookUp(names, value),
  whose: (value, names) => possessive(lookUp(names, value)),
  labels: (value, names) => labels(value, names),
  suit: (value) => lookUp(SUIT_NAMES, value),
  card: (value) => card(value),
  cards: (value) => value.split(", ").map(card).join(", "),
  beg: (value) => quoted(lookUp(BEG_WORDS, value)),
  outcome: (value) => quoted(lookUp(OUTCOME_WORDS, value)),
  penalty: (value) => quoted(lookUp(PENALTY_WORDS, value)),
  none: (value) => none(value),
  typed: (value) => typed(value),
  word: (value) => word(value),
  message: (value, names, fact) => rewrite(value, fact, names),
};

function fill(template, groups, fact, names) {
  return template.replace(PLACE, (_, kind, how, arg) => {
    if (how === undefined && /^\d+$/.test(kind)) return groups[Number(kind) - 1] ?? "";
    let value = fact;
    if (how === ":") value = groups[Number(arg) - 1] ?? "";
    else if (how === "=") value = arg;
    return KINDS[kind](value, names, fact);
  });
}

function rewrite(message, fact, names) {
  for (const [pattern, template] of REFUSALS) {
    const found = new RegExp(`^(?:${pattern})$`).exec(message);
    if (found) return fill(template, found.slice(1), fact, names);
  }
  let words = message;
  for (const [pattern, template] of SWAPS) {
    words = words.replace(new RegExp(pattern, "g"), (...found) => {
      const groups = found.slice(1, found.length - 2);
      return fill(template, groups, fact, names);
    });
  }
  return words;
}

/** An engine refusal in the page's words: `names` maps each side's label to its name. */
export function plainMessage(message, fact = null, names = {}) {
  const words = rewrite(message, fact ?? "", names);
  const first = words.charAt(0).toUpperCase() + words.slice(1);
  return /[.?!]$/.test(first) ? first : `${first}.`;
}

/** Each side's name by its label. */
export function sideNames(game) {
  return Object.fromEntries(game.sides.map((side) => [side.label, side.name]));
}

/** The refusal an InvalidFacts carries, in the words of this game's page. */
export function refusalWords(error, game) {
  return plainMessage(error.detail, error.fact, sideNames(game));
}
