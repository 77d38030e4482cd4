#!/usr/bin/env node
// node static/scoring/replay.mjs FILE.json (or - for standard input): the browser-side rules on a
// replay file, exactly as `manage.py replay` does: the same JSON on standard output (exit 0), or
// exit 2 and the same one line on standard error for an invalid file.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { InvalidFacts } from "./rules/errors.mjs";
import { IntegerTooLong, JSONDecodeError, NestedTooDeeply, dumps, loads } from "./rules/pyjson.mjs";
import { split } from "./rules/pyvalue.mjs";
import { gameJSON } from "./rules/result.mjs";
import { scoreReplay } from "./rules/replay.mjs";

const STRERROR = {
  ENOENT: "No such file or directory",
  EISDIR: "Is a directory",
  EACCES: "Permission denied",
  ENOTDIR: "Not a directory",
  ENAMETOOLONG: "File name too long",
  ELOOP: "Too many levels of symbolic links",
  EPERM: "Operation not permitted",
};

class Utf8Error extends Error {
  constructor(bytes, start, end, reason) {
    const where =
      end - start === 1
        ? `byte 0x${bytes[start].toString(16).padStart(2, "0")} in position ${start}`
        : `bytes in position ${start}-${end - 1}`;
    super(`'utf-8' codec can't decode ${where}: ${reason}`);
    this.reason = reason;
  }
}

function isContinuation(byte) {
  return byte >= 0x80 && byte <= 0xbf;
}

/** The first error CPython's UTF-8 decoder reports in ``bytes`` (which TextDecoder refused). */
function utf8Error(bytes) {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    let size;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) size = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      size = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      size = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return new Utf8Error(bytes, i, i + 1, "invalid start byte");
    for (let k = 1; k < size; k += 1) {
      if (i + k >= n) return new Utf8Error(bytes, i, n, "unexpected end of data");
      const byte = bytes[i + k];
      const ok = k === 1 ? byte >= low && byte <= high : isContinuation(byte);
      if (!ok) return new Utf8Error(bytes, i, i + k, "invalid continuation byte");
    }
    i += size;
  }
  return null;
}

const BOM = [0xef, 0xbb, 0xbf];

/** bytes.decode("utf-8-sig"): the text, or a Utf8Error positioned after the byte-order mark. */
function decodeUtf8Sig(bytes, { incremental }) {
  if (incremental && bytes.length < 3 && bytes.every((byte, i) => byte === BOM[i])) return "";
  const body = bytes.length >= 3 && BOM.every((byte, i) => bytes[i] === byte) ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    throw utf8Error(body);
  }
}

function invalid(message) {
  return new InvalidFacts(null, "file", message);
}

function readPath(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw invalid(`cannot read ${path}: ${STRERROR[error.code] || error.message}`);
  }
  let text;
  try {
    text = decodeUtf8Sig(bytes, { incremental: true });
  } catch (error) {
    throw invalid(`cannot read ${path}: ${error.message}`);
  }
  // Python opens the file with universal newlines.
  return text.replace(/\r\n?/g, "\n");
}

function readStdin() {
  const bytes = readFileSync(0);
  try {
    return decodeUtf8Sig(bytes, { incremental: false });
  } catch (error) {
    throw invalid(`cannot read standard input: it is not UTF-8 text (${error.reason})`);
  }
}

function parse(text) {
  try {
    return loads(text);
  } catch (error) {
    if (error instanceof JSONDecodeError) {
      throw invalid(
        `the file is not valid JSON: ${error.msg} (line ${error.lineno}, column ${error.colno})`,
      );
    }
    if (error instanceof NestedTooDeeply) {
      throw invalid("the file is not a replay file: its JSON is nested too deeply");
    }
    if (error instanceof IntegerTooLong) {
      throw invalid(`the file is not valid JSON: ${error.message}`);
    }
    throw error;
  }
}

/** Python writes a lone surrogate to standard error as a backslash escape. */
function escapeSurrogates(line) {
  return line.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (char) => "\\u" + char.charCodeAt(0).toString(16),
  );
}

/** What `manage.py replay` prints for the text of a replay file: {status, stdout, stderr}. */
export function replayText(text) {
  return run(() => text);
}

function run(read) {
  try {
    const result = scoreReplay(parse(read()));
    return { status: 0, stdout: dumps(gameJSON(result)) + "\n", stderr: "" };
  } catch (error) {
    if (!(error instanceof InvalidFacts)) throw error;
    return { status: 2, stdout: "", stderr: escapeSurrogates(split(error.message).join(" ")) + "\n" };
  }
}

function main(args) {
  if (args.length !== 1) {
    process.stderr.write("usage: node static/scoring/replay.mjs FILE (or - for standard input)\n");
    return 2;
  }
  const [path] = args;
  const done = run(() => (path === "-" ? readStdin() : readPath(path)));
  process.stdout.write(done.stdout);
  process.stderr.write(done.stderr);
  return done.status;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
