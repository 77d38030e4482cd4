// A ruleset: every way the variants differ, as plain values (scoring/rules/ruleset.py).
// The presets and the option names come from Python (generated.mjs); overrides make a new value.
import { parseRank } from "./cards.mjs";
import { InvalidFacts } from "./errors.mjs";
import { GAME_TIE_RULES, KICKS_ON, LOW_RULES, OPTIONS, PRESET_FIELDS, TRUMPS } from "./generated.mjs";
import { isInt, isMapping, mapHas, mapItems, mapKeys, mapGet, repr, typeName } from "./pyvalue.mjs";

function rulesetError(message) {
  return new InvalidFacts(null, "ruleset", message);
}

function whole(name, value, minimum) {
  if (!isInt(value) || value < minimum) {
    throw rulesetError(
      `${name} must be a whole number of ${minimum} or more (got ${repr(value)})`,
    );
  }
  return value;
}

function choice(name, value, choices) {
  if (typeof value !== "string" || !choices.includes(value)) {
    throw rulesetError(`${name} must be one of ${choices.join(", ")} (got ${repr(value)})`);
  }
  return value;
}

function flag(name, value) {
  if (typeof value !== "boolean") {
    throw rulesetError(`${name} must be true or false (got ${repr(value)})`);
  }
  return value;
}

function rankValues(name, value) {
  if (!isMapping(value)) {
    throw rulesetError(`${name} must map card ranks to points, e.g. {"J": 1}`);
  }
  const values = new Map();
  for (const [rawRank, points] of mapItems(value)) {
    const rank = parseRank(rawRank);
    if (rank === null) throw rulesetError(`${name}: ${repr(rawRank)} is not a card rank`);
    values.set(rank, whole(`${name}[${repr(rank)}]`, points, 0));
  }
  return values;
}

/** Python's ``players in mapping`` for an int (True is 1, False is 0). */
function intKey(value) {
  return value === true ? 1 : value === false ? 0 : value;
}

export class Ruleset {
  constructor(fields) {
    Object.assign(this, fields);
    choice("trumps", this.trumps, TRUMPS);
    whole("target", this.target, 1);
    this.player_options = new Map(this.player_options);
    this.target_by_players = new Map(this.target_by_players);
    if (!isInt(this.players) || !this.player_options.has(this.players)) {
      const allowed = [...this.player_options.keys()].join(", ");
      throw rulesetError(
        `players (per side) must be one of ${allowed} for ${this.label} (got ${repr(this.players)})`,
      );
    }
    this.kick_values = rankValues("kick_values", this.kick_values);
    choice("kicks_on", this.kicks_on, KICKS_ON);
    flag("begging", this.begging);
    whole("gift_points", this.gift_points, 0);
    flag("gift_ends_hand", this.gift_ends_hand);
    flag("no_gift_to_win", this.no_gift_to_win);
    if (this.hang_jack_points !== null) whole("hang_jack_points", this.hang_jack_points, 1);
    choice("low", this.low, LOW_RULES);
    choice("game_tie", this.game_tie, GAME_TIE_RULES);
    whole("game_point_value", this.game_point_value, 1);
    flag("captures", this.captures);
    this.capture_values = rankValues("capture_values", this.capture_values);
    for (const name of ["renege_points", "under_trump_points", "misdeal_points", "early_look_points"]) {
      whole(name, this[name], 0);
    }
    Object.freeze(this);
  }

  /** The numbers of sides this ruleset allows with its players per side. */
  get side_counts() {
    return this.player_options.get(this.players);
  }

  /** A new ruleset with ``options`` (a Map or object) overridden; refuses unknown options. */
  withOptions(options) {
    for (const key of mapKeys(options)) {
      if (!OPTIONS.includes(key)) {
        throw rulesetError(`unknown ruleset option ${repr(key)} (options: ${OPTIONS.join(", ")})`);
      }
    }
    const changes = new Map(mapItems(options));
    if (changes.has("players") && !changes.has("target")) {
      const players = changes.get("players");
      const current = this.target_by_players.has(this.players)
        ? this.target_by_players.get(this.players)
        : this.target;
      if (
        this.target === current &&
        (isInt(players) || typeof players === "boolean") &&
        this.target_by_players.has(intKey(players))
      ) {
        changes.set("target", this.target_by_players.get(intKey(players)));
      }
    }
    return new Ruleset({ ...this, ...Object.fromEntries(changes) });
  }
}

export const PRESETS = new Map(
  PRESET_FIELDS.map((fields) => [
    fields.name,
    new Ruleset({
      ...fields,
      kick_values: new Map(fields.kick_values),
      capture_values: new Map(fields.capture_values),
    }),
  ]),
);

/** The ruleset named by a preset name or {"preset": "trinidad", "target": 11, ...}. */
export function rulesetFromSpec(spec) {
  let name;
  let options;
  if (typeof spec === "string") {
    name = spec;
    options = new Map();
  } else if (isMapping(spec)) {
    if (!mapHas(spec, "preset")) {
      throw rulesetError('the ruleset needs a "preset", e.g. {"preset": "trinidad"}');
    }
    name = mapGet(spec, "preset");
    options = new Map(mapItems(spec).filter(([key]) => key !== "preset"));
  } else {
    throw rulesetError(
      'the ruleset must be a preset name or {"preset": ..., options} ' +
        `(got ${typeName(spec)})`,
    );
  }
  if (typeof name !== "string" || !PRESETS.has(name)) {
    throw rulesetError(`unknown ruleset ${repr(name)} (presets: ${[...PRESETS.keys()].join(", ")})`);
  }
  if (options.size === 0) return PRESETS.get(name);
  return PRESETS.get(name).withOptions(options);
}
