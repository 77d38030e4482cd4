// Cards as a scorer writes them: rank + suit, e.g. "JH", "10S" ("TS" accepted)
// (scoring/rules/cards.py). A card is a frozen {rank, suit}; String(card) is its canonical form.
import { strip } from "./pyvalue.mjs";

export const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
export const SUITS = ["C", "D", "H", "S"];
export const PACK_SIZE = 52;

export function card(rank, suit) {
  return Object.freeze({ rank, suit, toString: () => rank + suit });
}

export const ALL_CARDS = SUITS.flatMap((suit) => RANKS.map((rank) => card(rank, suit)));

export function parseRank(value) {
  if (typeof value !== "string") return null;
  let rank = strip(value).toUpperCase();
  if (rank === "T") rank = "10";
  return RANKS.includes(rank) ? rank : null;
}

export function parseCard(value) {
  if (typeof value !== "string") return null;
  const chars = Array.from(strip(value).toUpperCase());
  if (chars.length < 2) return null;
  const rank = parseRank(chars.slice(0, -1).join(""));
  const suit = chars[chars.length - 1];
  if (rank === null || !SUITS.includes(suit)) return null;
  return card(rank, suit);
}

/** The most cards that can be turned for trumps with ``players`` players at the table. */
export function maxTurnUps(players) {
  return 1 + Math.floor((PACK_SIZE - 1 - 6 * players) / (3 * players + 1));
}
