// The strict-order engine: facts in, awards out, one award at a time (scoring/rules/engine.py).
import { InvalidFacts } from "./errors.mjs";
import { TIE, readHand } from "./facts.mjs";
import { after, kickingTurnUps } from "./questions.mjs";
import { add, isInt, isMapping, mapItems, repr, strip, sub } from "./pyvalue.mjs";

/** The side labels in play order, checked against the ruleset; throws InvalidFacts. */
export function checkSides(ruleset, sides) {
  if (!Array.isArray(sides)) {
    throw new InvalidFacts(null, "sides", `sides must be a list of side labels (got ${repr(sides)})`);
  }
  const labels = [];
  for (const label of sides) {
    if (typeof label !== "string" || !strip(label)) {
      throw new InvalidFacts(
        null,
        "sides",
        `a side label must be non-empty text (got ${repr(label)})`,
      );
    }
    if (labels.includes(label)) {
      throw new InvalidFacts(null, "sides", `side ${repr(label)} is listed twice`);
    }
    if (label === TIE) {
      throw new InvalidFacts(
        null,
        "sides",
        `"${TIE}" cannot be a side label (it records a tie for game)`,
      );
    }
    labels.push(label);
  }
  const allowed = ruleset.side_counts;
  if (!allowed.includes(labels.length)) {
    const perSide = ruleset.players === 1 ? "one player" : `${ruleset.players} players`;
    const counts = allowed.join(" or ");
    throw new InvalidFacts(
      null,
      "sides",
      `${ruleset.label} with ${perSide} per side is played by ${counts} sides ` +
        `(got ${labels.length}: ${labels.join(", ")})`,
    );
  }
  return labels;
}

/** The start scores (default all 0) as a Map in the sides' order; throws InvalidFacts. */
export function checkScores(ruleset, sides, scores) {
  const start = new Map(sides.map((side) => [side, 0]));
  if (scores === null || scores === undefined) return start;
  if (!isMapping(scores)) {
    throw new InvalidFacts(null, "scores", `scores must map sides to points (got ${repr(scores)})`);
  }
  for (const [side, points] of mapItems(scores)) {
    if (!start.has(side)) {
      throw new InvalidFacts(
        null,
        "scores",
        `${repr(side)} is not a side in this game (sides: ${sides.join(", ")})`,
      );
    }
    if (!isInt(points) || points < 0) {
      throw new InvalidFacts(
        null,
        "scores",
        `${side}'s start score must be a whole number of 0 or more (got ${repr(points)})`,
      );
    }
    if (points >= ruleset.target) {
      throw new InvalidFacts(
        null,
        "scores",
        `${side}'s start score ${points} has already reached the target ${ruleset.target}`,
      );
    }
    start.set(side, points);
  }
  return start;
}

class Tally {
  constructor(ruleset, sides, scores) {
    this.ruleset = ruleset;
    this.sides = sides;
    this.scores = scores;
    this.winner = null;
    this.decided_by = null;
  }

  credit(awards, hand, side, category, points, detail = null, forfeited = false) {
    if (points <= 0) return;
    const counted = this.winner === null && !forfeited;
    awards.push({ side, category, points, detail, counted });
    if (counted) {
      this.scores.set(side, add(this.scores.get(side), points));
      if (this.scores.get(side) >= this.ruleset.target) {
        this.winner = side;
        this.decided_by = { hand, category };
      }
    }
  }

  scoreHand(facts) {
    const { ruleset, sides } = this;
    const number = facts.number;
    const awards = [];

    for (const card of kickingTurnUps(ruleset, facts.turn_ups)) {
      this.credit(awards, number, facts.dealer, "kick", ruleset.kick_values.get(card.rank), String(card));
    }

    if (facts.beg === "take_one") {
      const opponents = after(sides, facts.dealer);
      if (ruleset.no_gift_to_win && this.winner === null) {
        for (const side of opponents) {
          const score = this.scores.get(side);
          const total = add(score, ruleset.gift_points);
          if (total >= ruleset.target) {
            throw new InvalidFacts(
              number,
              "beg",
              `take one not allowed: it would give ${side} the target ` +
                `(${score} + ${ruleset.gift_points} = ${total})`,
            );
          }
        }
      }
      for (const side of opponents) this.credit(awards, number, side, "gift", ruleset.gift_points);
    }

    for (const penalty of facts.penalties) this.penalty(awards, number, penalty);

    let allFours = null;
    if (ruleset.captures) {
      for (const capture of facts.captures) {
        const points = ruleset.capture_values.get(capture.card.rank);
        this.credit(awards, number, capture.side, "capture", points, String(capture.card));
      }
    } else if (facts.played) {
      allFours = this.highLowJackGame(awards, facts);
    }

    return {
      number,
      dealer: facts.dealer,
      outcome: facts.outcome,
      beg: facts.beg,
      trump: facts.trump,
      awards,
      scores: new Map(this.scores),
      all_fours: allFours,
    };
  }

  penalty(awards, number, penalty) {
    const ruleset = this.ruleset;
    if (penalty.kind === "points") {
      const detail = penalty.note === null ? "points" : `points: ${penalty.note}`;
      this.credit(awards, number, penalty.side, "penalty", penalty.points, detail);
      return;
    }
    for (const side of after(this.sides, penalty.side)) {
      let points;
      if (penalty.kind === "renege_top_trump") {
        points = sub(ruleset.target, this.scores.get(side));
      } else {
        points = {
          renege: ruleset.renege_points,
          under_trump: ruleset.under_trump_points,
          misdeal: ruleset.misdeal_points,
          early_look: ruleset.early_look_points,
        }[penalty.kind];
      }
      this.credit(awards, number, side, "penalty", points, penalty.kind);
    }
  }

  highLowJackGame(awards, facts) {
    const ruleset = this.ruleset;
    const number = facts.number;
    if (facts.high !== null) this.credit(awards, number, facts.high, "high", 1);
    if (facts.low !== null) this.credit(awards, number, facts.low, "low", 1);
    const jack = facts.jack;
    if (jack !== null) {
      const hang = ruleset.hang_jack_points;
      if (hang !== null && jack.held_by !== null && jack.held_by !== jack.won_by) {
        this.credit(awards, number, jack.won_by, "hang_jack", hang);
      } else {
        this.credit(awards, number, jack.won_by, "jack", 1);
      }
    }

    const game = facts.game;
    let gameSide;
    // No game recorded: the game was won before a card was played (facts.mjs).
    if (game === null) gameSide = null;
    else if (game.leaders.length === 1) gameSide = game.leaders[0];
    else if (ruleset.game_tie === "non_dealer") {
      gameSide = after(this.sides, facts.dealer).find((side) => game.leaders.includes(side));
    } else gameSide = null;
    const reneged = facts.penalties.filter((p) => p.kind === "renege").map((p) => p.side);
    if (gameSide !== null) {
      const parts = [];
      if (game.totals !== null) parts.push(game.totals.map(String).join("-"));
      else if (game.recorded_tie) parts.push(TIE);
      const forfeited = reneged.includes(gameSide);
      if (forfeited) parts.push("forfeited: renege");
      this.credit(
        awards,
        number,
        gameSide,
        "game",
        ruleset.game_point_value,
        parts.join(", ") || null,
        forfeited,
      );
    }

    const jackSide = jack === null ? null : jack.won_by;
    // A side whose renege forfeited the game point did not take game: no all fours.
    const gameTaken = reneged.includes(gameSide) ? null : gameSide;
    if (
      facts.high !== null &&
      facts.high === facts.low &&
      facts.low === jackSide &&
      jackSide === gameTaken
    ) {
      return facts.high;
    }
    return null;
  }
}

function nextDealer(ruleset, sides, facts) {
  const sameDealer =
    facts.outcome === "pack_exhausted" ||
    facts.outcome === "bunch" ||
    (facts.beg === "take_one" && ruleset.gift_ends_hand);
  return sameDealer ? facts.dealer : after(sides, facts.dealer)[0];
}

/**
 * Score a game from its recorded hands (docs/rules.md section 7's hand format).
 * Throws InvalidFacts on the first problem: with the sides, the start scores, or a hand.
 */
export function scoreGame({ ruleset, sides, hands, scores = null }) {
  const labels = checkSides(ruleset, sides);
  const tally = new Tally(ruleset, labels, checkScores(ruleset, labels, scores));
  if (!Array.isArray(hands)) {
    throw new InvalidFacts(null, "hands", `hands must be a list of hands (got ${repr(hands)})`);
  }
  const scored = [];
  let next = null;
  hands.forEach((hand, offset) => {
    const number = offset + 1;
    if (tally.winner !== null) {
      throw new InvalidFacts(
        number,
        "hands",
        `the game was already won by ${tally.winner} in hand ${tally.decided_by.hand}; ` +
          "no hand can follow",
      );
    }
    const facts = readHand(hand, { number, ruleset, sides: labels, scores: tally.scores });
    scored.push(tally.scoreHand(facts));
    next = nextDealer(ruleset, labels, facts);
  });
  return {
    hands: scored,
    scores: new Map(tally.scores),
    winner: tally.winner,
    decided_by: tally.decided_by,
    next_dealer: next,
  };
}
