// What the rules say about a hand before it is scored (scoring/rules/questions.py): the kicks a
// turned card scores, and whether the game was won before a card was played.
import { add } from "./pyvalue.mjs";

/** The other sides in play order, starting with the one after `side` (opponents). */
export function after(sides, side) {
  const start = sides.indexOf(side);
  const others = [];
  for (let step = 1; step < sides.length; step += 1) {
    others.push(sides[(start + step) % sides.length]);
  }
  return others;
}

/** The side of the player next to the dealer, who stands or begs (beggar). */
export function beggar(sides, dealer) {
  return after(sides, dealer)[0];
}

/** The turned cards that score a kick for the dealer, in turn order (kick_points). */
export function kickingTurnUps(ruleset, turnUps) {
  let cards = [...turnUps];
  if (ruleset.kicks_on === "trump_setting" && cards.length) {
    cards = [cards[0], ...cards.slice(1).filter((card) => card.suit !== cards[0].suit)];
  }
  const values = ruleset.kick_values;
  return cards.filter((card) => (values.has(card.rank) ? values.get(card.rank) : 0) > 0);
}

/**
 * The side that reaches the target before a card is played (the kicks at the deal, then the
 * gift at the beg), or null (won_before_play). `scores` (a Map or an object) are the scores
 * before the hand; a hand won so needs no high, low, jack or game.
 */
export function wonBeforePlay(ruleset, sides, scores, { dealer, turnUps, beg }) {
  const running = new Map(
    sides.map((side) => {
      const points = scores instanceof Map ? scores.get(side) : scores[side];
      return [side, points === undefined || points === null ? 0 : points];
    }),
  );
  const prePlay = kickingTurnUps(ruleset, turnUps).map((card) => [dealer, ruleset.kick_values.get(card.rank)]);
  if (beg === "take_one" && ruleset.trumps === "turn_up" && sides.includes(dealer)) {
    for (const side of after(sides, dealer)) prePlay.push([side, ruleset.gift_points]);
  }
  for (const [side, points] of prePlay) {
    if (!running.has(side) || points <= 0) continue;
    running.set(side, add(running.get(side), points));
    if (running.get(side) >= ruleset.target) return side;
  }
  return null;
}
