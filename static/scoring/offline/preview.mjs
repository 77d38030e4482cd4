// While the scorer taps, what the hand will give: the same rules as the server, on the phone.
// Questions not answered yet count as nothing (no trump in play, game tied), so a turned jack's
// kick, a take one's gift or a hang jack shows as soon as it is tapped; a refusal shows at once.
import { InvalidFacts } from "../rules/errors.mjs";
import { awardTexts, score, scoresBefore, wonWith } from "./sheet.mjs";
import { factsFromForm } from "./form.mjs";
import { refusalWords, sideNames } from "./refusals.mjs";

function trial(facts, errors) {
  const missing = new Set(errors.map(([field]) => field));
  const hand = { ...facts };
  if (missing.has("dealer") || missing.has("turn_ups")) return null;
  if (missing.has("high") || missing.has("low")) {
    hand.high = null;
    hand.low = null;
    hand.jack = null;
  }
  if (missing.has("jack")) hand.jack = null;
  if (missing.has("game")) hand.game = "tie";
  // High and low not both tapped yet (a pitch game's fresh form has its dealer and no card; a
  // scorer part way through): they count only together, so unless a kick or a penalty already
  // gives something there is nothing to say yet, never "no points" beside a point tapped.
  const untouched = missing.has("high") || missing.has("low");
  return { hand, complete: errors.length === 0, noGame: missing.has("game"), untouched };
}

/** The preview's text lines for the form as it stands (or [] when there is nothing to say). */
export function previewLines(form, game, hands) {
  const before = scoresBefore(game, hands);
  const { facts, errors } = factsFromForm(form, {
    ruleset: game.ruleset,
    labels: game.labels,
    scores: before,
  });
  const attempt = trial(facts, errors);
  if (!attempt) return [];
  const names = sideNames(game);
  let result;
  try {
    result = score(game, [...hands, { facts: attempt.hand }]);
  } catch (error) {
    if (error instanceof InvalidFacts) return [{ text: refusalWords(error, game), refused: true }];
    throw error;
  }
  const scored = result.hands[result.hands.length - 1];
  // Game not tapped yet: leave out the game point the stand-in tie may have given.
  const awards = scored.awards.filter((a) => !(attempt.noGame && a.category === "game"));
  const after = new Map(before);
  let reached = null;
  for (const award of awards) {
    if (!award.counted) continue;
    after.set(award.side, after.get(award.side) + award.points);
    if (!reached && after.get(award.side) >= game.target) reached = award;
  }
  // Each award in the score sheet's words ("Blues took one +1", "Reds renege → Blues +1").
  const texts = awardTexts(game, attempt.hand, awards, names);
  const words = texts.map((text, i) => text + (awards[i].counted ? "" : " (not counted)"));
  if (!words.length && attempt.untouched) return [];
  const lead = attempt.noGame ? "Before game, this hand gives" : "This hand gives";
  const lines = [{ text: words.length ? `${lead}: ${words.join(", ")}.` : `${lead} no points.` }];
  const totals = [...after].map(([label, points]) => `${names[label]} ${points}`);
  lines.push({ text: `Score after it: ${totals.join(", ")}.` });
  if (reached) {
    lines.push({ text: `${names[reached.side]} would reach ${game.target} ${wonWith(reached.category)}.`, winner: true });
  }
  return lines;
}
