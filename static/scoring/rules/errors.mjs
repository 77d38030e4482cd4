// The one exception the rules raise: facts a scorer must correct (scoring/rules/errors.py).

export class InvalidFacts extends Error {
  /** hand: 1-based number of the offending hand, or null for the game as a whole. */
  constructor(hand, fact, message) {
    super(hand === null ? message : `hand ${hand}: ${message}`);
    this.name = "InvalidFacts";
    this.hand = hand;
    this.fact = fact;
    this.detail = message;
  }
}
