import { WriteRangeError } from '../errors/write-range-error.js';
/**
 * Strings in bytecode are raw bytes; we map each byte to the character with the same code (ISO
 * 8859-1), so every byte value survives a read/write round trip.
 *
 * Not `TextDecoder('latin1')`: the Encoding Standard makes that label an alias of windows-1252,
 * which maps 0x80–0x9F to other characters (0x80 → '€'). Node 20 happens to decode it as true
 * latin1, browsers and newer Node do not; these helpers behave the same everywhere.
 */

/** Characters per `String.fromCharCode.apply` call: well under every engine's argument limit. */
const CHUNK = 0x2000;

/** The bytes `[start, end)` of `bytes` as a string, one character per byte. */
export function decodeLatin1(bytes: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n <= 64) {
    // Names are short: one call on a plain array beats both concatenation and a subarray view.
    const codes = new Array<number>(n);
    for (let i = 0; i < n; i++) codes[i] = bytes[start + i]!;
    return String.fromCharCode.apply(null, codes);
  }
  let s = '';
  for (let i = start; i < end; i += CHUNK) {
    const part = bytes.subarray(i, Math.min(end, i + CHUNK));
    s += String.fromCharCode.apply(null, part as unknown as number[]);
  }
  return s;
}

/**
 * Writes `s` into `out` at `pos`, one byte per character; returns the new position. Throws if a
 * character is above U+00FF (it has no single-byte form, and silently truncating it would write a
 * different name).
 */
export function encodeLatin1Into(s: string, out: Uint8Array, pos: number): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) {
      throw new WriteRangeError(
        'string',
        `string has character U+${c.toString(16).toUpperCase().padStart(4, '0')} at index ${i}; bytecode strings hold bytes (U+0000–U+00FF)`,
      );
    }
    out[pos++] = c;
  }
  return pos;
}
