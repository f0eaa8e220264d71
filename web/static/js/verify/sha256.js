// @ts-check
// SHA-256 through WebCrypto, present in browsers and in Node 20 alike.

const enc = new TextEncoder();

/**
 * SHA-256 of bytes.
 * @param {Uint8Array} bytes
 * @returns {Promise<Uint8Array>}
 */
export async function sha256(bytes) {
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
}

/** @param {Uint8Array} b */
export function toHex(b) {
  let s = "";
  for (const x of b) s += x.toString(16).padStart(2, "0");
  return s;
}

/**
 * Decodes lower- or upper-case hex; null when it is not hex of even length.
 * @param {string} h
 * @returns {Uint8Array | null}
 */
export function fromHex(h) {
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) return null;
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {string} s */
export function utf8(s) {
  return enc.encode(s);
}
