// JSON read and written as Python's json module does, so that the command-line replay
// (static/scoring/replay.mjs) refuses a broken file with manage.py replay's very words:
// the same messages, line and column, and integer/float distinction (1.0 is not a whole number).
import { PyFloat, isMapping, mapItems } from "./pyvalue.mjs";

export class JSONDecodeError extends Error {
  constructor(msg, chars, pos) {
    let lineno = 1;
    let lastNewline = -1;
    for (let i = 0; i < pos; i += 1) {
      if (chars[i] === "\n") {
        lineno += 1;
        lastNewline = i;
      }
    }
    super(msg);
    this.msg = msg;
    this.lineno = lineno;
    this.colno = pos - lastNewline;
  }
}

/** Python's ValueError for integers of more than 4,300 digits. */
export class IntegerTooLong extends Error {}

/** Python's RecursionError: nesting deeper than its stack allows. */
export class NestedTooDeeply extends Error {}

// CPython 3.11 runs out of recursion depth at 988 nested arrays or objects when called from
// manage.py replay (measured; Python's limit is 1,000 frames, a few are the command's own).
export const MAX_DEPTH = 987;

class StopScan extends Error {
  constructor(pos) {
    super("Expecting value");
    this.pos = pos;
  }
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

function isDigit(char) {
  return char !== undefined && char >= "0" && char <= "9";
}

class Scanner {
  constructor(chars) {
    this.chars = chars;
    this.end = chars.length - 1;
    this.depth = 0;
  }

  error(msg, pos) {
    return new JSONDecodeError(msg, this.chars, pos);
  }

  skip(idx) {
    while (idx <= this.end && WHITESPACE.has(this.chars[idx])) idx += 1;
    return idx;
  }

  scan(idx) {
    const c = this.chars;
    if (idx > this.end) throw new StopScan(idx);
    const char = c[idx];
    const word = (text) => c.slice(idx, idx + text.length).join("") === text;
    switch (char) {
      case '"':
        return this.string(idx + 1);
      case "{":
        return this.nested(() => this.object(idx + 1));
      case "[":
        return this.nested(() => this.array(idx + 1));
      case "n":
        if (word("null")) return [null, idx + 4];
        break;
      case "t":
        if (word("true")) return [true, idx + 4];
        break;
      case "f":
        if (word("false")) return [false, idx + 5];
        break;
      case "N":
        if (word("NaN")) return [new PyFloat(NaN), idx + 3];
        break;
      case "I":
        if (word("Infinity")) return [new PyFloat(Infinity), idx + 8];
        break;
      case "-":
        if (word("-Infinity")) return [new PyFloat(-Infinity), idx + 9];
        break;
      default:
        break;
    }
    return this.number(idx);
  }

  nested(parse) {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) throw new NestedTooDeeply();
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  number(start) {
    const c = this.chars;
    let idx = start;
    if (c[idx] === "-") {
      idx += 1;
      if (idx > this.end) throw new StopScan(start);
    }
    if (c[idx] >= "1" && c[idx] <= "9") {
      idx += 1;
      while (idx <= this.end && isDigit(c[idx])) idx += 1;
    } else if (c[idx] === "0") {
      idx += 1;
    } else {
      throw new StopScan(start);
    }
    let isFloat = false;
    if (idx < this.end && c[idx] === "." && isDigit(c[idx + 1])) {
      isFloat = true;
      idx += 2;
      while (idx <= this.end && isDigit(c[idx])) idx += 1;
    }
    if (idx < this.end && (c[idx] === "e" || c[idx] === "E")) {
      const eStart = idx;
      idx += 1;
      if (idx < this.end && (c[idx] === "-" || c[idx] === "+")) idx += 1;
      while (idx <= this.end && isDigit(c[idx])) idx += 1;
      if (isDigit(c[idx - 1])) isFloat = true;
      else idx = eStart;
    }
    const text = c.slice(start, idx).join("");
    if (isFloat) return [new PyFloat(Number(text)), idx];
    const digits = text.replace("-", "").length;
    if (digits > 4300) {
      throw new IntegerTooLong(
        `Exceeds the limit (4300 digits) for integer string conversion: value has ${digits} ` +
          "digits; use sys.set_int_max_str_digits() to increase the limit",
      );
    }
    const value = Number(text);
    return [Number.isSafeInteger(value) ? value + 0 : BigInt(text), idx];
  }

  string(end) {
    const c = this.chars;
    const len = c.length;
    const begin = end - 1;
    let out = "";
    for (;;) {
      let next = end;
      let char;
      for (; next < len; next += 1) {
        char = c[next];
        if (char === '"' || char === "\\") break;
        if (char.codePointAt(0) <= 0x1f) throw this.error("Invalid control character at", next);
      }
      if (next >= len) throw this.error("Unterminated string starting at", begin);
      out += c.slice(end, next).join("");
      next += 1;
      if (char === '"') {
        end = next;
        break;
      }
      if (next === len) throw this.error("Unterminated string starting at", begin);
      const escape = c[next];
      if (escape !== "u") {
        end = next + 1;
        if (!(escape in ESCAPES)) throw this.error("Invalid \\escape", end - 2);
        out += ESCAPES[escape];
        continue;
      }
      next += 1;
      end = next + 4;
      if (end >= len) throw this.error("Invalid \\uXXXX escape", next - 1);
      let code = this.hex4(next, end);
      if (
        code >= 0xd800 &&
        code <= 0xdbff &&
        end + 6 < len &&
        c[end] === "\\" &&
        c[end + 1] === "u"
      ) {
        const low = this.hex4(end + 2, end + 6);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          end += 6;
        }
      }
      out += String.fromCodePoint(code);
    }
    return [out, end];
  }

  hex4(from, to) {
    let code = 0;
    for (let i = from; i < to; i += 1) {
      const digit = parseInt(this.chars[i], 16);
      if (!/^[0-9a-fA-F]$/.test(this.chars[i])) {
        throw this.error("Invalid \\uXXXX escape", to - 5);
      }
      code = code * 16 + digit;
    }
    return code;
  }

  object(start) {
    const c = this.chars;
    const result = new Map();
    let idx = this.skip(start);
    if (idx > this.end || c[idx] !== "}") {
      for (;;) {
        if (idx > this.end || c[idx] !== '"') {
          throw this.error("Expecting property name enclosed in double quotes", idx);
        }
        const [key, afterKey] = this.string(idx + 1);
        idx = this.skip(afterKey);
        if (idx > this.end || c[idx] !== ":") throw this.error("Expecting ':' delimiter", idx);
        idx = this.skip(idx + 1);
        const [value, afterValue] = this.scan(idx);
        result.set(key, value);
        idx = this.skip(afterValue);
        if (idx <= this.end && c[idx] === "}") break;
        if (idx > this.end || c[idx] !== ",") throw this.error("Expecting ',' delimiter", idx);
        idx = this.skip(idx + 1);
      }
    }
    return [result, idx + 1];
  }

  array(start) {
    const c = this.chars;
    const result = [];
    let idx = this.skip(start);
    if (idx > this.end || c[idx] !== "]") {
      for (;;) {
        const [value, afterValue] = this.scan(idx);
        result.push(value);
        idx = this.skip(afterValue);
        if (idx <= this.end && c[idx] === "]") break;
        if (idx > this.end || c[idx] !== ",") throw this.error("Expecting ',' delimiter", idx);
        idx = this.skip(idx + 1);
      }
    }
    return [result, idx + 1];
  }
}

/** json.loads(text): throws JSONDecodeError, IntegerTooLong or NestedTooDeeply. */
export function loads(text) {
  const chars = Array.from(text);
  if (chars[0] === "\ufeff") {
    throw new JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", chars, 0);
  }
  const scanner = new Scanner(chars);
  let value;
  let end;
  try {
    [value, end] = scanner.scan(scanner.skip(0));
  } catch (error) {
    if (error instanceof StopScan) throw new JSONDecodeError("Expecting value", chars, error.pos);
    throw error;
  }
  end = scanner.skip(end);
  if (end !== chars.length) throw new JSONDecodeError("Extra data", chars, end);
  return value;
}

function dumpString(text) {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char === "\b") out += "\\b";
    else if (char === "\f") out += "\\f";
    else if (code < 0x20) out += "\\u" + code.toString(16).padStart(4, "0");
    else out += char;
  }
  return out + '"';
}

/** json.dumps(value, indent=2, ensure_ascii=False) for the replay output. */
export function dumps(value, indent = "") {
  if (value === null || value === undefined) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "string") return dumpString(value);
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (!value.length) return "[]";
    return `[\n${value.map((item) => inner + dumps(item, inner)).join(",\n")}\n${indent}]`;
  }
  if (isMapping(value)) {
    const items = mapItems(value);
    if (!items.length) return "{}";
    const lines = items.map(([key, item]) => `${inner}${dumpString(key)}: ${dumps(item, inner)}`);
    return `{\n${lines.join(",\n")}\n${indent}}`;
  }
  throw new TypeError(`cannot write ${typeof value} as JSON`);
}
