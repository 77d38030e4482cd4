// The rules of All Fours in the browser: a port of scoring/rules (the one reference), checked
// against it by tests/rules/test_rules_js.py on every replay file and 1,000+ generated games.
export { ALL_CARDS, maxTurnUps, parseCard } from "./cards.mjs";
export { scoreGame } from "./engine.mjs";
export { InvalidFacts } from "./errors.mjs";
export { HAND_KEYS, OPTIONS } from "./generated.mjs";
export { gameJSON } from "./result.mjs";
export { scoreReplay } from "./replay.mjs";
export { PRESETS, Ruleset, rulesetFromSpec } from "./ruleset.mjs";
