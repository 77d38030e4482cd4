// For tests/scoring/test_table_words.py: reads a JSON list of games as the phone keeps them
// (scoring/offline.py game_state) on standard input and writes, for each game, each hand's words
// as the phone's score sheet draws them (sheet.mjs): the awards' texts, the card turned up, the run's words and who took all fours.
import { readFileSync } from "node:fs";

import { rulesetFromSpec } from "../../static/scoring/rules/ruleset.mjs";
import { awardTexts, runWords, score, turnedWords } from "../../static/scoring/offline/sheet.mjs";

const states = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(
  JSON.stringify(
    states.map((state) => {
      const game = { ...state, ruleset: rulesetFromSpec(state.ruleset), labels: state.sides.map((side) => side.label) };
      const names = Object.fromEntries(state.sides.map((side) => [side.label, side.name]));
      const result = score(game, state.hands);
      return state.hands.map((hand, index) => ({
        awards: awardTexts(game, hand.facts, result.hands[index].awards, names),
        turned: turnedWords(hand.facts),
        run: runWords(game, hand.facts, names),
        all_fours: result.hands[index].all_fours,
      }));
    }),
  ),
);
