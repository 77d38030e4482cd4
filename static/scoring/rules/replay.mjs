// The replay file (docs/rules.md section 7): a whole recorded game as one JSON object
// (scoring/rules/replay.py).
import { scoreGame } from "./engine.mjs";
import { InvalidFacts } from "./errors.mjs";
import { isMapping, mapGet, mapHas, mapKeys, repr } from "./pyvalue.mjs";
import { rulesetFromSpec } from "./ruleset.mjs";

export const FILE_KEYS = ["ruleset", "sides", "scores", "hands"];

/** Score a parsed replay file; throws InvalidFacts naming the hand and the fact. */
export function scoreReplay(data) {
  if (!isMapping(data)) {
    throw new InvalidFacts(
      null,
      "hands",
      "a replay file is a JSON object with ruleset, sides, scores (optional) and hands",
    );
  }
  for (const key of mapKeys(data)) {
    if (!FILE_KEYS.includes(key)) {
      throw new InvalidFacts(
        null,
        String(key),
        `unknown key ${repr(key)} in the file (keys: ${FILE_KEYS.join(", ")})`,
      );
    }
  }
  for (const key of ["ruleset", "sides", "hands"]) {
    if (!mapHas(data, key)) throw new InvalidFacts(null, key, `the file has no ${repr(key)}`);
  }
  const ruleset = rulesetFromSpec(mapGet(data, "ruleset"));
  return scoreGame({
    ruleset,
    sides: mapGet(data, "sides"),
    hands: mapGet(data, "hands"),
    scores: mapGet(data, "scores"),
  });
}
