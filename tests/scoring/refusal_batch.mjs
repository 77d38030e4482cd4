// For tests/scoring/test_refusal_words.py: reads a JSON list of [message, fact, names] on standard
// input and writes the JSON list of what the browser shows for each (refusals.mjs plainMessage).
import { readFileSync } from "node:fs";

import { plainMessage } from "../../static/scoring/offline/refusals.mjs";

const cases = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(([message, fact, names]) => plainMessage(message, fact, names))));
