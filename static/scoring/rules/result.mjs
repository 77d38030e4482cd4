// What the engine produces (scoring/rules/result.py): awards in strict order, hand by hand.
// Scores are Maps in the sides' order (a side may be called "2"); toJSON() gives the replay output.

export const CATEGORIES = [
  "kick",
  "gift",
  "penalty",
  "high",
  "low",
  "jack",
  "hang_jack",
  "game",
  "capture",
];

export function awardJSON(award) {
  return {
    side: award.side,
    category: award.category,
    points: award.points,
    detail: award.detail,
    counted: award.counted,
  };
}

export function handJSON(hand) {
  return {
    number: hand.number,
    trump: hand.trump,
    awards: hand.awards.map(awardJSON),
    scores: new Map(hand.scores),
  };
}

/** Exactly the replay output of docs/rules.md section 7 (Maps keep the sides' order). */
export function gameJSON(game) {
  return {
    hands: game.hands.map(handJSON),
    scores: new Map(game.scores),
    winner: game.winner,
    decided_by:
      game.decided_by === null
        ? null
        : { hand: game.decided_by.hand, category: game.decided_by.category },
  };
}
