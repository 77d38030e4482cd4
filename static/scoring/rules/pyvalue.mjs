// Values as the Python engine sees them, so that the browser-side rules refuse and describe
// exactly what scoring/rules refuses and describes (messages quote values as Python's repr()).
//
// A parsed replay file (pyjson.mjs) gives Map for objects (Python dict order, duplicate keys
// keep their first place), Number for integers (BigInt beyond 2**53), PyFloat for numbers with
// a fraction or exponent. The page may pass plain objects and numbers: both are accepted.

export class PyFloat {
  constructor(value) {
    this.value = value;
  }
}

export function isMapping(value) {
  return (
    value instanceof Map ||
    (value !== null &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      !(value instanceof PyFloat))
  );
}

export function mapItems(value) {
  return value instanceof Map ? [...value.entries()] : Object.entries(value);
}

export function mapKeys(value) {
  return value instanceof Map ? [...value.keys()] : Object.keys(value);
}

export function mapHas(value, key) {
  return value instanceof Map ? value.has(key) : Object.prototype.hasOwnProperty.call(value, key);
}

/** Python's ``mapping.get(key)``: null when missing. */
export function mapGet(value, key) {
  if (!mapHas(value, key)) return null;
  const found = value instanceof Map ? value.get(key) : value[key];
  return found === undefined ? null : found;
}

export function isInt(value) {
  return (typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint";
}

function normalise(big) {
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(big)
    : big;
}

/** a + b for Python ints (Numbers while they are exact, else BigInt). */
export function add(a, b) {
  if (typeof a === "number" && typeof b === "number") {
    const sum = a + b;
    if (Number.isSafeInteger(sum)) return sum;
  }
  return normalise(BigInt(a) + BigInt(b));
}

export function sub(a, b) {
  if (typeof a === "number" && typeof b === "number") {
    const diff = a - b;
    if (Number.isSafeInteger(diff)) return diff;
  }
  return normalise(BigInt(a) - BigInt(b));
}

export function truthy(value) {
  if (value === null || value === undefined || value === false) return false;
  if (value === 0 || value === 0n || value === "") return false;
  if (value instanceof PyFloat) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (isMapping(value)) return mapKeys(value).length > 0;
  return true;
}

/** The name of the Python type of a JSON value (``type(value).__name__``). */
export function typeName(value) {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (isInt(value)) return "int";
  if (typeof value === "number" || value instanceof PyFloat) return "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  return "dict";
}

// --- whitespace: str.isspace(), str.strip(), str.split() ----------------------------------------

const SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001,
  0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f,
  0x205f, 0x3000,
]);

export function isSpace(char) {
  return SPACE.has(char.codePointAt(0));
}

export function strip(text) {
  const chars = Array.from(text);
  let start = 0;
  let end = chars.length;
  while (start < end && isSpace(chars[start])) start += 1;
  while (end > start && isSpace(chars[end - 1])) end -= 1;
  return chars.slice(start, end).join("");
}

export function split(text) {
  const words = [];
  let word = "";
  for (const char of text) {
    if (isSpace(char)) {
      if (word) words.push(word);
      word = "";
    } else {
      word += char;
    }
  }
  if (word) words.push(word);
  return words;
}

// --- repr() -------------------------------------------------------------------------------------

const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function hex(code, width) {
  return code.toString(16).padStart(width, "0");
}

export function reprStr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === quote || char === "\\") out += "\\" + char;
    else if (char === "\t") out += "\\t";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + hex(code, 2);
    else if (code < 0x7f) out += char;
    else if (code !== 0x20 && NOT_PRINTABLE.test(char)) {
      if (code <= 0xff) out += "\\x" + hex(code, 2);
      else if (code <= 0xffff) out += "\\u" + hex(code, 4);
      else out += "\\U" + hex(code, 8);
    } else out += char;
  }
  return out + quote;
}

export function reprFloat(value) {
  if (Number.isNaN(value)) return "nan";
  if (value === Infinity) return "inf";
  if (value === -Infinity) return "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const sign = value < 0 ? "-" : "";
  const [mantissa, exponent] = Math.abs(value).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const point = Number(exponent) + 1; // value = 0.<digits> * 10 ** point
  if (point > -4 && point <= 16) {
    if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
    if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  const rest = digits.length > 1 ? "." + digits.slice(1) : "";
  const power = point - 1;
  const shown = String(Math.abs(power)).padStart(2, "0");
  return `${sign}${digits[0]}${rest}e${power < 0 ? "-" : "+"}${shown}`;
}

export function repr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : reprFloat(value);
  if (value instanceof PyFloat) return reprFloat(value.value);
  if (typeof value === "string") return reprStr(value);
  if (Array.isArray(value)) return "[" + value.map(repr).join(", ") + "]";
  if (isMapping(value)) {
    return "{" + mapItems(value).map(([k, v]) => `${repr(k)}: ${repr(v)}`).join(", ") + "}";
  }
  return String(value);
}
