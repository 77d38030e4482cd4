// Runs many replay texts through the browser-side rules in one node process, for
// tests/rules/test_rules_js.py: reads a JSON list of texts on standard input, writes a JSON list
// of {status, stdout, stderr} (status -1 and the stack when the port itself throws).
import { readFileSync } from "node:fs";

import { replayText } from "../../static/scoring/replay.mjs";

const texts = JSON.parse(readFileSync(0, "utf8"));
const results = texts.map((text) => {
  try {
    return replayText(text);
  } catch (error) {
    return { status: -1, stdout: "", stderr: String(error && error.stack) };
  }
});
process.stdout.write(JSON.stringify(results));
