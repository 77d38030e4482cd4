// One hand's facts as a scorer records them: parsed and checked (scoring/rules/facts.py, which
// documents every decision; this is a line-by-line port, checked against it by
// tests/rules/test_rules_js.py).
import { card as makeCard, maxTurnUps, parseCard } from "./cards.mjs";
import { InvalidFacts } from "./errors.mjs";
import { wonBeforePlay } from "./questions.mjs";
import { BEGS, HAND_KEYS, OUTCOMES, PENALTY_KINDS, TURN_UPS_BY_BEG } from "./generated.mjs";
import {
  add,
  isInt,
  isMapping,
  mapGet,
  mapHas,
  mapItems,
  mapKeys,
  repr,
  truthy,
} from "./pyvalue.mjs";

export { HAND_KEYS };
export const REDEALS = ["pack_exhausted", "bunch"];
export const PLAY_PENALTIES = ["renege", "renege_top_trump", "under_trump", "early_look"];
export const PLAY_FACTS = ["high", "low", "jack", "game", "captures"];
export const CARD_POINTS_IN_PACK = 80;
export const TIE = "tie";

function present(hand, key) {
  const value = mapGet(hand, key);
  if (value === null || (Array.isArray(value) && value.length === 0)) return false;
  return !(key === "beg" && value === "stand") && !(key === "outcome" && value === "played");
}

function sameCard(a, b) {
  return a.rank === b.rank && a.suit === b.suit;
}

class Reader {
  constructor(number, ruleset, sides, scores = null) {
    this.number = number;
    this.ruleset = ruleset;
    this.sides = [...sides];
    this.scores = scores;
  }

  error(fact, message) {
    return new InvalidFacts(this.number, fact, message);
  }

  side(fact, value, what = null) {
    const label = what || fact;
    if (typeof value !== "string" || !this.sides.includes(value)) {
      throw this.error(
        fact,
        `${label} is ${repr(value)}, which is not a side in this game ` +
          `(sides: ${this.sides.join(", ")})`,
      );
    }
    return value;
  }

  card(fact, value) {
    const card = parseCard(value);
    if (card === null) {
      throw this.error(
        fact,
        `${repr(value)} is not a card (write rank + suit, e.g. JH, 10S; ` +
          "ranks A K Q J 10..2, suits C D H S)",
      );
    }
    return card;
  }

  refusePresent(hand, keys, why) {
    for (const key of keys) {
      if (present(hand, key)) {
        throw this.error(key, `${why}, so ${key} must be left out (got ${repr(mapGet(hand, key))})`);
      }
    }
  }

  read(hand) {
    if (!isMapping(hand)) {
      throw this.error("hands", `a hand must be an object of facts (got ${repr(hand)})`);
    }
    for (const key of mapKeys(hand)) {
      if (!HAND_KEYS.includes(key)) {
        throw this.error(
          String(key),
          `unknown fact ${repr(key)} (a hand records: ${HAND_KEYS.join(", ")})`,
        );
      }
    }
    if (mapGet(hand, "dealer") === null) throw this.error("dealer", "the dealer is missing");
    const dealer = this.side("dealer", mapGet(hand, "dealer"));
    const rawOutcome = mapGet(hand, "outcome");
    const outcome = truthy(rawOutcome) ? rawOutcome : "played";
    if (!OUTCOMES.includes(outcome)) {
      throw this.error(
        "outcome",
        `outcome ${repr(outcome)} is not one of ${OUTCOMES.join(", ")}`,
      );
    }
    const rawBeg = mapGet(hand, "beg");
    const beg = truthy(rawBeg) ? rawBeg : "stand";
    if (!BEGS.includes(beg)) {
      throw this.error("beg", `beg ${repr(beg)} is not one of ${BEGS.join(", ")}`);
    }
    const penalties = this.penalties(mapGet(hand, "penalties"), dealer, outcome);

    if (outcome === "misdeal") {
      for (const penalty of penalties) {
        if (PLAY_PENALTIES.includes(penalty.kind)) {
          throw this.error(
            "penalties",
            `a ${penalty.kind} penalty needs a hand that was played (a misdeal has no play)`,
          );
        }
      }
      this.refusePresent(
        hand,
        HAND_KEYS.filter((key) => !["dealer", "outcome", "penalties"].includes(key)),
        "a misdeal records only the dealer and penalties",
      );
      return {
        number: this.number,
        dealer,
        outcome,
        beg: null,
        turn_ups: [],
        trump: null,
        played: false,
        penalties,
        high: null,
        low: null,
        jack: null,
        game: null,
        captures: [],
      };
    }

    const ruleset = this.ruleset;
    let turnUps = [];
    let trump = null;
    let playedBeg;
    if (ruleset.trumps === "pitch") {
      const why = "trumps are set by the pitch in this variant";
      this.refusePresent(hand, ["turn_ups", "beg"], why);
      if (REDEALS.includes(outcome)) {
        throw this.error("outcome", `${why}, so there is no redeal (${outcome})`);
      }
      playedBeg = null;
    } else {
      playedBeg = beg;
      turnUps = this.turnUps(mapGet(hand, "turn_ups"), beg, outcome);
      if (outcome === "played" && !(beg === "take_one" && ruleset.gift_ends_hand)) {
        trump = turnUps[turnUps.length - 1].suit;
      }
    }
    const played =
      outcome === "played" &&
      !(ruleset.trumps === "turn_up" && beg === "take_one" && ruleset.gift_ends_hand);
    const base = {
      number: this.number,
      dealer,
      outcome,
      beg: playedBeg,
      turn_ups: turnUps,
      penalties,
      high: null,
      low: null,
      jack: null,
      game: null,
      captures: [],
    };

    if (!played) {
      let why;
      if (REDEALS.includes(outcome)) why = `a redeal (${outcome}) has no play`;
      else why = "take one ends the hand in this variant (the same dealer deals again)";
      this.refusePresent(hand, PLAY_FACTS, why);
      for (const penalty of penalties) {
        if (PLAY_PENALTIES.includes(penalty.kind)) {
          throw this.error(
            "penalties",
            `a ${penalty.kind} penalty needs a hand that was played (${why})`,
          );
        }
      }
      return { ...base, trump: null, played: false };
    }

    if (ruleset.captures) {
      this.refusePresent(
        hand,
        ["high", "low", "jack", "game"],
        "this variant scores the trumps captured instead",
      );
      const captures = this.capturesOf(mapGet(hand, "captures"), turnUps, trump);
      return { ...base, trump, played: true, captures };
    }

    this.refusePresent(hand, ["captures"], "captures are recorded only in All Fives variants");
    // Won at the deal or the beg: no card was played, so no play fact is needed.
    const beforePlay =
      this.scores !== null &&
      wonBeforePlay(ruleset, this.sides, this.scores, { dealer, turnUps, beg: playedBeg }) !== null;
    const high = mapGet(hand, "high") === null ? null : this.side("high", mapGet(hand, "high"));
    const low = mapGet(hand, "low") === null ? null : this.side("low", mapGet(hand, "low"));
    if (!beforePlay && high === null && low !== null) {
      throw this.error(
        "low",
        `low is ${low} but high is null: high and low are both null only when no trump ` +
          "was in play, else both are given",
      );
    }
    if (!beforePlay && high !== null && low === null) {
      throw this.error(
        "low",
        `high is ${high}, so a trump was in play and low must be given too ` +
          "(the same side as high when only one trump was in play)",
      );
    }
    const jack = this.jack(mapGet(hand, "jack"), high, turnUps, trump, beforePlay);
    let game = null;
    if (mapGet(hand, "game") !== null) game = this.game(mapGet(hand, "game"));
    else if (!beforePlay) {
      throw this.error(
        "game",
        'game is missing: give the card-point totals per side (e.g. {"A": 27, "B": 19}), ' +
          'the side with most card points, or "tie"',
      );
    }
    return { ...base, trump, played: true, high, low, jack, game };
  }

  turnUps(value, beg, outcome) {
    if (value === null || (Array.isArray(value) && value.length === 0)) {
      throw this.error(
        "turn_ups",
        "turn_ups is missing: list the card(s) turned up for trumps, in order",
      );
    }
    if (!Array.isArray(value)) {
      throw this.error(
        "turn_ups",
        `turn_ups must be a list of cards, e.g. ["JH"] (got ${repr(value)})`,
      );
    }
    const cards = value.map((item) => this.card("turn_ups", item));
    const seen = new Set();
    for (const card of cards) {
      if (seen.has(String(card))) throw this.error("turn_ups", `${card} is turned up twice`);
      seen.add(String(card));
    }
    const listed = cards.map(String).join(", ");
    const ruleset = this.ruleset;
    if (beg !== "stand" && !ruleset.begging) {
      throw this.error("beg", `this variant has no begging, so beg must be stand (got ${beg})`);
    }
    const [fewest, atMost] = TURN_UPS_BY_BEG[beg];
    if (atMost === 1 && cards.length !== 1) {
      throw this.error(
        "turn_ups",
        `with ${beg} exactly one card is turned up (got ${cards.length}: ${listed}); ` +
          "use beg run when the pack was run",
      );
    }
    if (beg === "take_one" && outcome === "pack_exhausted") {
      throw this.error("outcome", "pack_exhausted needs beg run");
    }
    if (cards.length < fewest) {
      throw this.error(
        "turn_ups",
        `running the pack turns up at least two cards (got ${cards.length}: ${listed})`,
      );
    }
    const players = ruleset.players * this.sides.length;
    const most = maxTurnUps(players);
    if (cards.length > most) {
      throw this.error(
        "turn_ups",
        `${cards.length} cards turned up (${listed}), but with ${players} players the pack ` +
          `allows at most ${most}`,
      );
    }
    if (beg !== "run") {
      if (outcome === "pack_exhausted") {
        throw this.error("outcome", `pack_exhausted needs beg run (got ${beg})`);
      }
      return cards;
    }
    const first = cards[0].suit;
    if (outcome === "pack_exhausted") {
      for (const card of cards.slice(1)) {
        if (card.suit !== first) {
          throw this.error(
            "turn_ups",
            `the pack ran out, so every card turned up is of the first suit ${first}, ` +
              `but ${card} is not (${listed})`,
          );
        }
      }
      if (cards.length !== most) {
        throw this.error(
          "turn_ups",
          `the pack runs out after ${most} turn-ups with ${players} players, ` +
            `not ${cards.length} (${listed})`,
        );
      }
      return cards;
    }
    for (const card of cards.slice(1, -1)) {
      if (card.suit !== first) {
        throw this.error(
          "turn_ups",
          `the pack is run until a new suit is turned, so ${card} (a new suit) must be ` +
            `the last card turned up (${listed})`,
        );
      }
    }
    const last = cards[cards.length - 1];
    if (last.suit === first) {
      throw this.error(
        "turn_ups",
        `the last card turned up (${last}) must be of a new suit, not the begged ` +
          `suit ${first} (${listed}); if the pack ran out, the outcome is pack_exhausted`,
      );
    }
    return cards;
  }

  penalties(value, dealer, outcome) {
    if (value === null) value = [];
    if (!Array.isArray(value)) {
      throw this.error("penalties", `penalties must be a list (got ${repr(value)})`);
    }
    const penalties = [];
    let misdealNamed = false;
    value.forEach((entry, offset) => {
      const where = `penalty ${offset + 1}`;
      if (!isMapping(entry)) {
        throw this.error("penalties", `${where} must be an object (got ${repr(entry)})`);
      }
      const kind = mapGet(entry, "kind");
      if (!PENALTY_KINDS.includes(kind)) {
        throw this.error(
          "penalties",
          `${where}: unknown kind ${repr(kind)} (kinds: ${PENALTY_KINDS.join(", ")})`,
        );
      }
      const allowed = kind === "points" ? ["kind", "to", "points", "note"] : ["kind", "side"];
      for (const key of mapKeys(entry)) {
        if (!allowed.includes(key)) {
          throw this.error(
            "penalties",
            `${where} (${kind}): unknown key ${repr(key)} (keys: ${allowed.join(", ")})`,
          );
        }
      }
      if (kind === "points") {
        const to = this.side("penalties", mapGet(entry, "to"), `${where} (points): to`);
        const points = mapGet(entry, "points");
        if (!isInt(points) || points < 1) {
          throw this.error(
            "penalties",
            `${where} (points): points must be a whole number of 1 or more ` +
              `(got ${repr(points)})`,
          );
        }
        const note = mapGet(entry, "note");
        if (note !== null && typeof note !== "string") {
          throw this.error("penalties", `${where} (points): note must be text`);
        }
        penalties.push({ kind: "points", side: to, points, note: note || null });
        return;
      }
      const side = this.side("penalties", mapGet(entry, "side"), `${where} (${kind}): side`);
      if (kind === "renege_top_trump" && this.sides.length !== 2) {
        throw this.error(
          "penalties",
          `${where}: renege_top_trump (losing the game at once) applies only to ` +
            `two-sided games, and this game has ${this.sides.length} sides`,
        );
      }
      if (kind === "early_look" && this.ruleset.trumps !== "pitch") {
        throw this.error(
          "penalties",
          `${where}: early_look applies only where trumps are set by the pitch`,
        );
      }
      if (kind === "misdeal") {
        if (outcome !== "misdeal") {
          throw this.error(
            "penalties",
            `${where}: a misdeal penalty belongs to a hand whose outcome is misdeal ` +
              `(got ${outcome})`,
          );
        }
        if (side !== dealer) {
          throw this.error(
            "penalties",
            `${where}: the misdeal is the dealer's (${dealer}), not ${side}'s`,
          );
        }
        if (misdealNamed) throw this.error("penalties", `${where}: the misdeal is named twice`);
        misdealNamed = true;
      }
      penalties.push({ kind, side, points: null, note: null });
    });
    if (outcome === "misdeal" && !misdealNamed) {
      penalties.unshift({ kind: "misdeal", side: dealer, points: null, note: null });
    }
    return penalties;
  }

  jack(value, high, turnUps, trump, beforePlay = false) {
    if (value === null) return null;
    if (!isMapping(value)) {
      throw this.error(
        "jack",
        `jack must be null or {"held_by": side, "won_by": side} (got ${repr(value)})`,
      );
    }
    for (const key of mapKeys(value)) {
      if (key !== "held_by" && key !== "won_by") {
        throw this.error("jack", `unknown key ${repr(key)} in jack (keys: held_by, won_by)`);
      }
    }
    if (trump !== null && turnUps.some((card) => sameCard(card, makeCard("J", trump)))) {
      throw this.error(
        "jack",
        `J${trump} was turned up, so the jack of trumps cannot be in play ` +
          "(jack must be null)",
      );
    }
    if (high === null && !beforePlay) {
      throw this.error(
        "jack",
        "high is null (no trump in play), so the jack of trumps cannot be in play " +
          "(jack must be null)",
      );
    }
    if (mapGet(value, "won_by") === null) {
      throw this.error(
        "jack",
        "jack needs won_by: the side that won the trick holding the jack of trumps",
      );
    }
    const wonBy = this.side("jack", mapGet(value, "won_by"), "jack won_by");
    const heldBy = mapGet(value, "held_by");
    if (heldBy === null) {
      if (this.ruleset.hang_jack_points !== null) {
        throw this.error(
          "jack",
          "jack needs held_by (the side dealt the jack of trumps) to tell a hang jack",
        );
      }
      return { held_by: null, won_by: wonBy };
    }
    return { held_by: this.side("jack", heldBy, "jack held_by"), won_by: wonBy };
  }

  game(value) {
    if (value === TIE) return { leaders: [...this.sides], totals: null, recorded_tie: true };
    if (typeof value === "string") {
      return { leaders: [this.side("game", value)], totals: null, recorded_tie: false };
    }
    if (!isMapping(value)) {
      throw this.error(
        "game",
        "game must be the card-point totals per side, the side with most card points, " +
          `or "tie" (got ${repr(value)})`,
      );
    }
    for (const key of mapKeys(value)) this.side("game", key, `game total for ${repr(key)}:`);
    const totals = [];
    for (const side of this.sides) {
      if (!mapHas(value, side)) {
        throw this.error("game", `the card-point total for ${side} is missing`);
      }
      const total = mapGet(value, side);
      if (!isInt(total) || total < 0) {
        throw this.error(
          "game",
          `${side}'s card-point total must be a whole number of 0 or more ` +
            `(got ${repr(total)})`,
        );
      }
      totals.push(total);
    }
    const sum = totals.reduce((a, b) => add(a, b), 0);
    if (sum > CARD_POINTS_IN_PACK) {
      throw this.error(
        "game",
        `card-point totals add up to ${sum}, more than the ${CARD_POINTS_IN_PACK} in the pack`,
      );
    }
    const most = totals.reduce((a, b) => (b > a ? b : a));
    const leaders = this.sides.filter((side, index) => totals[index] === most);
    return { leaders, totals, recorded_tie: false };
  }

  capturesOf(value, turnUps, trump) {
    if (value === null) return [];
    if (!Array.isArray(value)) {
      throw this.error("captures", `captures must be a list (got ${repr(value)})`);
    }
    const captures = [];
    const seen = new Set();
    value.forEach((entry, offset) => {
      const where = `capture ${offset + 1}`;
      if (!isMapping(entry)) {
        throw this.error(
          "captures",
          `${where} must be {"card": ..., "side": ...} (got ${repr(entry)})`,
        );
      }
      for (const key of mapKeys(entry)) {
        if (key !== "card" && key !== "side") {
          throw this.error("captures", `${where}: unknown key ${repr(key)} (keys: card, side)`);
        }
      }
      const card = this.card("captures", mapGet(entry, "card"));
      const side = this.side("captures", mapGet(entry, "side"), `${where}: side`);
      if (seen.has(String(card))) throw this.error("captures", `${card} is captured twice`);
      seen.add(String(card));
      if (turnUps.some((turned) => sameCard(turned, card))) {
        throw this.error(
          "captures",
          `${card} was turned up, so it is not in play and cannot be captured`,
        );
      }
      const suit = trump !== null ? trump : captures.length ? captures[0].card.suit : null;
      if (suit !== null && card.suit !== suit) {
        throw this.error(
          "captures",
          `${card} is not a trump (trumps are ${suit}), so it does not score`,
        );
      }
      const values = this.ruleset.capture_values;
      if (!((values.has(card.rank) ? values.get(card.rank) : 0) > 0)) {
        const scoring = mapItems(values)
          .filter(([, points]) => points > 0)
          .map(([rank]) => rank)
          .join(", ");
        throw this.error(
          "captures",
          `${card} does not score when captured (scoring trumps: ${scoring})`,
        );
      }
      captures.push({ card, side });
    });
    return captures;
  }
}

/** The facts of hand ``number`` (1-based), checked; throws InvalidFacts. */
/** `scores` (before the hand): a hand won before a card was played is read without its play. */
export function readHand(hand, { number, ruleset, sides, scores = null }) {
  return new Reader(number, ruleset, sides, scores).read(hand);
}
