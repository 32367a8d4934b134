/**
 * How LLVM 1.x's assembly writer spells names, strings and numbers (the lexical layer of the
 * printer). Strings here are latin1: one character per byte, as names are stored in the graph.
 */

/**
 * A value or type name as LLVM wrote it: `%name` when every character is simple and the first is
 * not a digit; otherwise the name in double quotes, unescaped (LLVM 1.x did not escape names).
 * Basic-block labels are written without the `%` (`prefix` false).
 */
export function llvmName(name: string, prefix = true): string {
  const c = name.charCodeAt(0);
  if ((c >= 0x30 && c <= 0x39) || !isSimpleName(name)) return '"' + name + '"';
  return prefix ? '%' + name : name;
}

/**
 * Whether every character of `name` is allowed in an unquoted name: letters, digits, `-`, `.`,
 * `_` (`/^[A-Za-z0-9\-._]*$/`, as a loop: names are short, and a regular expression call costs more).
 */
function isSimpleName(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    // a-z, A-Z, 0-9, '-', '.', '_'
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x2d && c <= 0x39 && c !== 0x2f) || c === 0x5f)) return false;
  }
  return true;
}

const HEX = '0123456789ABCDEF';

/**
 * A string constant's body: printable ASCII (0x20–0x7E) as is except `"` and `\`, every other
 * byte as `\XX` in upper-case hex. Used for `c"..."` arrays, inline asm and module asm.
 */
export function escapeString(s: string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) & 0xff;
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i) + '\\' + HEX[c >> 4] + HEX[c & 15];
    start = i + 1;
  }
  return start === 0 ? s : out + s.slice(start);
}

/** C's `printf("%.6e", v)` for a finite number (mantissa with 6 decimals, exponent ≥ 2 digits). */
export function formatExponential(v: number): string {
  const s = v.toExponential(6); // "1.234560e+0", "-1.000000e-12"
  const e = s.indexOf('e');
  const sign = s[e + 1]!;
  let exp = s.slice(e + 2);
  if (exp.length < 2) exp = '0' + exp;
  const mantissa = Object.is(v, -0) ? '-' + s.slice(0, e) : s.slice(0, e);
  return mantissa + 'e' + sign + exp;
}

/**
 * A floating-point constant as LLVM 1.x printed it: `%e` notation with six decimals when that
 * text reads back as exactly the same double, otherwise `0x` and the double's 64 bits in
 * upper-case hex without leading zeros (always hex with `alwaysHex`, as LLVM ≤ 1.3 printed). A float constant is printed through its double value;
 * `bits` (the raw IEEE bits of the file) keep a NaN's payload, which a JS number may not.
 */
export function formatFloat(v: number, bits: bigint, isFloat: boolean, alwaysHex = false): string {
  if (Number.isFinite(v)) {
    if (alwaysHex) return '0x' + doubleBits(v).toString(16).toUpperCase();
    const text = formatExponential(v);
    if (Number(text) === v) return text;
    return '0x' + doubleBits(v).toString(16).toUpperCase();
  }
  const raw = isFloat ? floatToDoubleBits(bits) : bits & 0xffff_ffff_ffff_ffffn;
  return '0x' + raw.toString(16).toUpperCase();
}

function doubleBits(v: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  return view.getBigUint64(0);
}

/**
 * Widens a float's 32 bits to a double's 64 as the x86 hosts LLVM ran on did: infinities and
 * NaNs keep sign and payload, and a signalling NaN becomes quiet.
 */
function floatToDoubleBits(bits32: bigint): bigint {
  const b = Number(bits32 & 0xffff_ffffn);
  const sign = BigInt(b >>> 31);
  const mantissa = BigInt(b & 0x7f_ffff);
  if (((b >>> 23) & 0xff) !== 0xff) {
    const view = new DataView(new ArrayBuffer(4));
    view.setUint32(0, b);
    return doubleBits(view.getFloat32(0));
  }
  const quiet = mantissa === 0n ? 0n : 1n << 51n;
  return (sign << 63n) | (0x7ffn << 52n) | (mantissa << 29n) | quiet;
}
