// The game as the phone sees it: the server's hands, then what is waiting on the phone, scored
// by the browser-side rules and drawn over the server's score sheet (scoring/_sheet.html's rows).
import { InvalidFacts } from "../rules/errors.mjs";
import { scoreGame } from "../rules/engine.mjs";
import { beggar } from "../rules/questions.mjs";
import { refusalWords } from "./refusals.mjs";
import { PENALTY_WORDS, WON_WITH } from "./words.mjs";

const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };
const NOTES = { pack_exhausted: "pack ran out: redeal", bunch: "bunch: redeal", misdeal: "misdeal" };

export function cardLabel(text) {
  const suit = text[text.length - 1];
  return SUITS[suit] ? text.slice(0, -1) + SUITS[suit][0] : text;
}

/** `high`, `kick J♥`, `penalty renege`, `game 27-19` (scoring/sheet.py award_label). */
/** How the award that reached the target is said: "on the kick", "on the gift", "with high",
 * as a player says it (scoring/sheet.py `won_with`, from the same words). */
export function wonWith(category) {
  return WON_WITH[category] || `with ${category === "hang_jack" ? "hang jack" : category}`;
}

export function awardLabel(award) {
  const label = award.category === "hang_jack" ? "hang jack" : award.category;
  let detail = award.detail;
  if ((award.category === "kick" || award.category === "capture") && detail) detail = cardLabel(detail);
  else if (award.category === "penalty" && detail) {
    const cut = detail.indexOf(": ");
    const kind = cut < 0 ? detail : detail.slice(0, cut);
    const note = cut < 0 ? "" : detail.slice(cut + 2);
    detail = (PENALTY_WORDS[kind] || kind).toLowerCase() + (note ? ` (${note})` : "");
  }
  return detail ? `${label} ${detail}` : label;
}

function penaltyPoints(ruleset, kind) {
  const points = {
    renege: ruleset.renege_points,
    under_trump: ruleset.under_trump_points,
    misdeal: ruleset.misdeal_points,
    early_look: ruleset.early_look_points,
  }[kind];
  return points === undefined ? null : points;
}

/** The offending side of each penalty award, in award order (scoring/sheet.py). */
function penaltyOffenders(ruleset, facts, labels) {
  const penalties = [...(facts.penalties || [])];
  if (facts.outcome === "misdeal" && !penalties.some((p) => p.kind === "misdeal")) {
    penalties.unshift({ kind: "misdeal", side: facts.dealer });
  }
  const offenders = [];
  for (const penalty of penalties) {
    if (penalty.kind === "points") {
      offenders.push("");
      continue;
    }
    if (!labels.includes(penalty.side)) continue;
    if (penaltyPoints(ruleset, penalty.kind) === 0) continue;
    for (let i = 1; i < labels.length; i += 1) offenders.push(penalty.side);
  }
  return offenders;
}

function isTie(game) {
  if (game === "tie") return true;
  if (game && typeof game === "object") {
    const values = Object.values(game);
    if (!values.length) return false;
    const top = Math.max(...values);
    return values.filter((v) => v === top).length > 1;
  }
  return false;
}

function tied(game, sides) {
  if (game && typeof game === "object") {
    return "game tied " + sides.map((side) => String(game[side.label] ?? 0)).join("–");
  }
  return "game tied";
}

/** What the sheet shows for each award of a hand: "Reds high +1", "Blues renege → Reds +1". */
export function awardTexts(game, facts, awards, names) {
  const offenders = penaltyOffenders(game.ruleset, facts, game.labels);
  return awards.map((award) => {
    const offender = award.category === "penalty" && offenders.length ? offenders.shift() : null;
    if (offender && award.detail.split(":")[0] !== "points") {
      const kind = (PENALTY_WORDS[award.detail] || award.detail).toLowerCase();
      return `${names[offender]} ${kind} → ${names[award.side]} +${award.points}`;
    }
    if (award.category === "gift") {
      const words = award.side === beggar(game.labels, facts.dealer) ? "took one" : "given one";
      return `${names[award.side]} ${words} +${award.points}`;
    }
    if (award.category === "game" && isTie(facts.game)) {
      return `${tied(facts.game, game.sides)} to ${names[award.side]}, non-dealer +${award.points}`;
    }
    return `${names[award.side]} ${awardLabel(award)} +${award.points}`;
  });
}

/** A hand whose pack was run, as the table saw it: "Blues begged; the pack was run: 4♠, 9♠,
 * then 6♦ stood" ("" for any other hand; scoring/sheet.py _run_words). */
export function runWords(game, facts, names) {
  if (facts.beg !== "run") return "";
  const cards = (facts.turn_ups || []).map((card) => cardLabel(String(card)));
  const turned =
    facts.outcome === "pack_exhausted" || cards.length < 2
      ? cards.join(", ")
      : `${cards.slice(0, -1).join(", ")}, then ${cards[cards.length - 1]} stood`;
  return `${names[beggar(game.labels, facts.dealer)]} begged; the pack was run: ${turned}`;
}

/**
 * The hands in order with where each stands: {number, facts, revision, state} where state is
 * "sent", "unsent" (recorded on the phone), "correction" (a sent hand corrected on the phone),
 * and the undos waiting to be sent. Ops in conflict are left out (shown beside the message).
 */
export function effectiveHands(base, ops) {
  const hands = base.hands.map((hand) => ({ ...hand, state: "sent" }));
  let undos = 0;
  for (const op of ops) {
    if (op.state === "conflict") break;
    if (op.op === "record") hands.push({ number: hands.length + 1, facts: op.facts, state: "unsent", key: op.key });
    else if (op.op === "undo") {
      hands.pop();
      undos += 1;
    } else if (op.op === "correct") {
      const hand = hands[op.number - 1];
      if (hand) Object.assign(hand, { facts: op.facts, state: hand.state === "unsent" ? "unsent" : "correction", key: op.key });
    }
  }
  return { hands, undos };
}

/** The score before the next of `hands`: a Map of each side's points (the start when none). */
export function scoresBefore(game, hands) {
  if (!hands.length) return new Map(game.sides.map((side) => [side.label, side.start]));
  return score(game, hands).scores;
}

export function score(game, hands) {
  return scoreGame({
    ruleset: game.ruleset,
    sides: game.sides.map((side) => side.label),
    scores: Object.fromEntries(game.sides.map((side) => [side.label, side.start])),
    hands: hands.map((hand) => hand.facts),
  });
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/** `text` as the sheet shows it, its card points ("game 20-30", "game tied 20–20") kept on one
 * line: a nowrap span, the text unchanged (scoring/templatetags/sheet.py `unbroken`). */
function unbroken(text) {
  const parts = [];
  let start = 0;
  for (const match of text.matchAll(/\d+[-–]\d+/g)) {
    parts.push(text.slice(start, match.index), element("span", { class: "nowrap" }, match[0]));
    start = match.index + match[0].length;
  }
  parts.push(text.slice(start));
  return parts.filter((part) => part !== "");
}

/** A hand's cell of the score sheet (who dealt, trumps, the awards in the sheet's words), and
 * where it stands on this phone. */
function handCell(game, hand, scored, result, names) {
  const side = (label) => label.toLowerCase();
  const decided = result.decided_by && result.decided_by.hand === hand.number;
  const deal = element(
    "div",
    { class: "deal" },
    element("span", { class: `side-${side(scored.dealer)}` }, `${names[scored.dealer]} dealt`),
    " ",
  );
  if (scored.trump) {
    const [symbol, name] = SUITS[scored.trump];
    deal.append(element("span", { class: `trump${"HD".includes(scored.trump) ? " red" : ""}`, title: `trumps: ${name}` }, symbol), " ");
  }
  const turned = turnedWords(hand.facts);
  if (turned) deal.append(element("span", { class: "turned" }, turned), " ");
  const run = runWords(game, hand.facts, names);
  if (run) deal.append(element("span", { class: "run" }, run), " ");
  if (NOTES[scored.outcome]) deal.append(element("span", { class: "muted note" }, NOTES[scored.outcome]));
  const awards = element("div", { class: "awards" });
  const counted = scored.awards.filter((a) => a.counted && a.side === result.winner);
  const deciding = decided ? counted[counted.length - 1] : null;
  const texts = awardTexts(game, hand.facts, scored.awards, names);
  scored.awards.forEach((award, index) => {
    const classes = ["award", `side-${side(award.side)}`];
    if (!award.counted) classes.push("not-counted");
    if (award === deciding) classes.push("deciding");
    const hidden = (text) => element("span", { class: "visually-hidden" }, text);
    awards.append(
      element(
        "span",
        { class: classes.join(" "), "data-award": `${award.side} ${award.category} ${award.points} ${award.counted}` },
        ...unbroken(texts[index]),
        award.counted ? null : hidden(" (not counted)"),
        award === deciding ? hidden(" (reached the target)") : null,
      ),
      " ",
    );
  });
  const tie = isTie(hand.facts.game) && !scored.awards.some((a) => a.category === "game");
  if (!scored.awards.length && !tie) awards.append(element("span", { class: "muted" }, "no points"));
  if (tie) awards.append(element("span", { class: "award tie" }, ...unbroken(`${tied(hand.facts.game, game.sides)}: nobody`)));
  if (scored.all_fours) awards.append(element("span", { class: "all-fours" }, `all fours: ${names[scored.all_fours]}`));
  const state = {
    unsent: "not sent yet",
    correction: "correction not sent yet",
  }[hand.state];
  if (state) awards.append(" ", element("span", { class: "unsent-mark", "data-testid": `unsent-${hand.number}` }, state));
  return element("td", { class: "hand" }, deal, awards);
}

function row(game, hand, scored, result, names) {
  const decided = result.decided_by && result.decided_by.hand === hand.number;
  const number = element("td", { class: "num hand-number" }, String(hand.number));
  if (game.can_score && game.status !== "abandoned") {
    number.append(
      element("button", { type: "button", class: "fix link", "data-offline-fix": String(hand.number), "data-testid": `correct-${hand.number}`, "aria-label": `Correct hand ${hand.number}` }, "Fix"),
    );
  }
  const classes = [decided ? "decided" : "", hand.state !== "sent" ? "unsent" : ""].filter(Boolean).join(" ");
  const totals = game.sides.map((s) => String(scored.scores.get(s.label)));
  return element(
    "tr",
    { id: `hand-${hand.number}`, "data-testid": `hand-row-${hand.number}`, "data-state": hand.state, "data-number": String(hand.number), "data-totals": totals.join(","), class: classes || null },
    number,
    handCell(game, hand, scored, result, names),
    ...totals.map((total) => element("td", { class: "num total" }, total)),
  );
}

/** The card turned up for trumps on a hand whose pack was not run (a stand, a take one):
 * "turned 9♦" ("" for a run, whose words name every card, or a hand with none turned;
 * scoring/sheet.py _turned_words). Two versions of one hand are told apart by it, too. */
export function turnedWords(facts) {
  if (facts.beg === "run") return "";
  const cards = (facts.turn_ups || []).map((card) => cardLabel(String(card)));
  return cards.length ? `turned ${cards.join(", ")}` : "";
}

/**
 * A hand as the sheet words it, had it been hand `number` after the hands `before` (the
 * server's): the cell of the sheet's row, for a hand kept on this phone shown beside the
 * server's. A hand the rules refuse there reads as the refusal.
 */
export function describeHand(game, before, number, facts) {
  const names = Object.fromEntries(game.sides.map((side) => [side.label, side.name]));
  const hands = [...before.slice(0, number - 1), { number, facts }];
  try {
    const result = score(game, hands);
    return handCell(game, { number, facts, state: "sent" }, result.hands[number - 1], result, names);
  } catch (error) {
    if (!(error instanceof InvalidFacts)) throw error;
    return element("td", { class: "hand refused" }, `Refused there: ${refusalWords(error, game)}`);
  }
}

/** Redraw the scoreboard, the sheet and the hand form's number from the phone's view. */
export function drawGame(root, game, hands, result) {
  const names = Object.fromEntries(game.sides.map((side) => [side.label, side.name]));
  for (const side of game.sides) {
    const value = root.querySelector(`[data-testid="score-value-${side.label}"]`);
    if (value) value.textContent = String(result.scores.get(side.label));
    root.querySelector(`#score-${CSS.escape(side.label)}`)?.classList.toggle("winner", result.winner === side.label);
  }
  const next = hands.length + 1;
  const dealer = root.querySelector("#next-dealer");
  if (dealer && result.next_dealer) {
    dealer.replaceChildren(`Hand ${next} · deals: `, element("strong", {}, names[result.next_dealer]));
  }
  const form = root.querySelector("#hand-form");
  if (form && result.next_dealer && !form.dataset.touched) {
    for (const radio of form.querySelectorAll("input[name=dealer]")) radio.checked = radio.value === result.next_dealer;
  }

  const body = root.querySelector("#sheet-rows");
  if (!body) return;
  const start = body.querySelector("tr.start");
  body.replaceChildren(...[start, ...hands.map((hand, index) => row(game, hand, result.hands[index], result, names))].filter(Boolean));
  if (hands.length) root.querySelector("#no-hands")?.remove();
  const last = body.querySelector('tr:last-child[data-state="unsent"] td.hand-number');
  if (last) {
    last.append(element("button", { type: "button", class: "fix link", "data-offline-undo": "1", "data-testid": "undo-unsent" }, "Undo"));
  }

  // Won on this phone: no hand can follow, so no next hand's form (a Fix still opens it, to
  // correct a hand: scoring.css), as the server's page of a won game has none.
  const wonHere = Boolean(result.winner) && !root.querySelector("#winner-banner");
  root.querySelector("#entry")?.classList.toggle("won-on-phone", wonHere);
  if (dealer) dealer.hidden = wonHere;
  let banner = root.querySelector("#offline-winner");
  if (wonHere) {
    if (!banner) {
      banner = element("section", { id: "offline-winner", class: "banner won", role: "status", "data-testid": "offline-winner" });
      root.querySelector("#scoreboard")?.after(banner);
    }
    const decided = result.decided_by;
    banner.replaceChildren(element("h2", {}, `${names[result.winner]} reached ${game.target} on hand ${decided.hand} ${wonWith(decided.category)} (on this phone: not sent yet).`));
  } else banner?.remove();
  // The score bar's Undo and Fix act on the phone's last hand.
  for (const number of root.querySelectorAll("#scoreboard [data-last-number]")) number.textContent = String(hands.length);
  root.querySelector("#scoreboard .bar-actions")?.toggleAttribute("hidden", !hands.length);
  const fix = root.querySelector("[data-testid=fix-last]");
  if (fix) fix.dataset.offlineFix = String(hands.length);
}

export { InvalidFacts };
