// @ts-check
// The raw text of each member of a JSON object. The hash chain covers an
// event's data byte for byte as it stands in the export line (docs/AUDIT.md,
// The hash chain), and a settlement's deltas may exceed what a JS number holds
// exactly, so both are read from the text rather than from a parsed value.

/**
 * @typedef {{key: string, raw: string}} RawMember
 */

/**
 * Splits a JSON object's text into its top-level members, each with its key
 * and its value's raw text. Throws on text that is not one JSON object.
 * @param {string} text
 * @returns {RawMember[]}
 */
export function rawMembers(text) {
  let i = skipWS(text, 0);
  if (text[i] !== "{") throw new SyntaxError("not a JSON object");
  i = skipWS(text, i + 1);
  /** @type {RawMember[]} */
  const out = [];
  if (text[i] === "}") {
    if (skipWS(text, i + 1) !== text.length) throw new SyntaxError("text after the object");
    return out;
  }
  for (;;) {
    if (text[i] !== '"') throw new SyntaxError(`a key expected at ${i}`);
    const kEnd = skipString(text, i);
    const key = /** @type {string} */ (JSON.parse(text.slice(i, kEnd)));
    i = skipWS(text, kEnd);
    if (text[i] !== ":") throw new SyntaxError(`":" expected at ${i}`);
    const vStart = skipWS(text, i + 1);
    const vEnd = skipValue(text, vStart);
    const raw = text.slice(vStart, vEnd);
    JSON.parse(raw); // validates the value
    out.push({ key, raw });
    i = skipWS(text, vEnd);
    if (text[i] === ",") {
      i = skipWS(text, i + 1);
      continue;
    }
    if (text[i] === "}") break;
    throw new SyntaxError(`"," or "}" expected at ${i}`);
  }
  if (skipWS(text, i + 1) !== text.length) throw new SyntaxError("text after the object");
  return out;
}

/**
 * The raw texts of a JSON array's elements.
 * @param {string} text
 * @returns {string[]}
 */
export function rawElements(text) {
  let i = skipWS(text, 0);
  if (text[i] !== "[") throw new SyntaxError("not a JSON array");
  i = skipWS(text, i + 1);
  /** @type {string[]} */
  const out = [];
  if (text[i] === "]") return out;
  for (;;) {
    const end = skipValue(text, i);
    out.push(text.slice(i, end));
    i = skipWS(text, end);
    if (text[i] === ",") {
      i = skipWS(text, i + 1);
      continue;
    }
    if (text[i] === "]") return out;
    throw new SyntaxError(`"," or "]" expected at ${i}`);
  }
}

/** @param {string} s @param {number} i */
function skipWS(s, i) {
  while (i < s.length && (s[i] === " " || s[i] === "\t" || s[i] === "\n" || s[i] === "\r")) i++;
  return i;
}

/** @param {string} s @param {number} i index of the opening quote */
function skipString(s, i) {
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === '"') return j + 1;
  }
  throw new SyntaxError("unterminated string");
}

/** @param {string} s @param {number} i */
function skipValue(s, i) {
  const c = s[i];
  if (c === '"') return skipString(s, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      const d = s[j];
      if (d === '"') {
        j = skipString(s, j) - 1;
      } else if (d === "{" || d === "[") {
        depth++;
      } else if (d === "}" || d === "]") {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    throw new SyntaxError("unterminated object or array");
  }
  let j = i;
  while (j < s.length && !",}] \t\r\n".includes(s.charAt(j))) j++;
  if (j === i) throw new SyntaxError(`a value expected at ${i}`);
  return j;
}
