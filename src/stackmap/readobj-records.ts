/**
 * The records' part of `llvm-readobj-16 --stackmap`'s text (from the first `Record ID:` line on),
 * printed straight from a decoded section's bytes (record-table.ts): no object per record or
 * location, one output buffer, each fixed text copied whole. The same lines as print.ts's printer
 * over the model, which a section's records go through once they have been made.
 *
 * Why a second printer: a `stackmap --syntax readobj` process of 24,000 records spends most of
 * its life before V8 has optimized anything; this one makes no garbage and few calls, so the
 * interpreter and the first tiers run it fast.
 */
import type { RecordTable } from './record-table.js';
import { padLength } from './record-table.js';

/** The constants: the model's, or the section's bytes while the model's have not been made. */
type Constants = readonly bigint[] | RecordTable;
import { LocationKind } from './model.js';

/** `s` (ASCII) as bytes. */
function latin1(s: string): Uint8Array {
  const b = new Uint8Array(s.length);
  putText(b, 0, s);
  return b;
}

/** Writes `s` (ASCII) at `o`; returns the position after it. */
function putText(out: Uint8Array, o: number, s: string): number {
  for (let i = 0; i < s.length; i++) out[o++] = s.charCodeAt(i);
  return o;
}

const RECORD_ID = latin1('  Record ID: ');
const INSTRUCTION_OFFSET = latin1(', instruction offset: ');
const LOCATIONS_INDENT = latin1('\n    ');
const LOCATIONS = latin1(' locations:\n');
const PLUS = latin1(' + ');
const SIZE = latin1(', size: ');
const LIVE_OUTS_INDENT = latin1('    ');
const LIVE_OUTS = latin1(' live-outs: [ ');
const LIVE_OUT_REG = latin1('R#');
const OPEN = latin1(' (');
const BYTES_CLOSE = latin1('-bytes) ');
const CLOSE_LIST = latin1(']\n');
const NO_SUCH_CONSTANT = latin1('(no such constant)');
const CONSTANT_HASH = latin1('  #');
const COLON = latin1(': ');

/** Bytes one record's lines may take beyond its locations and live-outs (head, counts, 64-bit id). */
const RECORD_ROOM = 128;
/** The most a location's line takes: `      #65535: ConstantIndex #4294967295 (` + 20 digits + `), size: 65535\n`. */
const LOCATION_ROOM = 96;
/** The most a live-out takes: `R#65535 (255-bytes) `. */
const LIVE_OUT_ROOM = 24;

/** Writes `n` (an integer from 0 to 2^32 − 1) in decimal at `o`; returns the position after it. */
function decimal(out: Uint8Array, o: number, n: number): number {
  if (n < 10) {
    out[o] = 0x30 + n;
    return o + 1;
  }
  // The digits counted by comparisons: a division costs more before V8 has optimized this.
  const digits = n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : n < 100000 ? 5 : n < 1000000 ? 6 : n < 10000000 ? 7 : n < 100000000 ? 8 : n < 1000000000 ? 9 : 10;
  let p = o + digits;
  let t = n;
  do {
    const q = (t / 10) >>> 0;
    out[--p] = 0x30 + t - q * 10;
    t = q;
  } while (t > 0);
  return o + digits;
}

/**
 * Writes the 64-bit value `high` · 2^32 + `low` in decimal (`high` above 0) without a bigint: its
 * quotient by 10^6 (below 2^53, so exact as a number) split at 10^7 into two parts below 2^32,
 * each written as `decimal` writes, then the six digits of the remainder. (Divisions of numbers
 * below 2^32 only: floating-point `%` and `/` on the whole quotient cost most of a run's printing
 * before V8 has optimized it.)
 */
function decimal64(out: Uint8Array, o: number, high: number, low: number): number {
  const q1 = Math.floor(high / 1e6);
  const t = (high - q1 * 1e6) * 0x1_0000_0000 + low; // below 10^6 · 2^32 < 2^53
  const q2 = Math.floor(t / 1e6);
  const rest = t - q2 * 1e6;
  const q = q1 * 0x1_0000_0000 + q2; // at least 2^32 / 10^6, below 2^64 / 10^6 < 2^45
  const top = Math.floor(q / 1e7); // below 2^45 / 10^7 < 2^32
  const middle = q - top * 1e7;
  o = top > 0 ? fixedDigits(out, decimal(out, o, top), middle, 7) : decimal(out, o, middle);
  return fixedDigits(out, o, rest, 6);
}

/** Writes `n` (below 10^`width`) as exactly `width` decimal digits; returns the position after them. */
function fixedDigits(out: Uint8Array, o: number, n: number, width: number): number {
  let p = o + width;
  for (let k = 0; k < width; k++) {
    const q = (n / 10) >>> 0;
    out[--p] = 0x30 + n - q * 10;
    n = q;
  }
  return o + width;
}

/** Writes constant `i` (below the count) in decimal; returns the position after it. */
function constant(out: Uint8Array, o: number, constants: Constants, i: number): number {
  if (Array.isArray(constants)) return putText(out, o, String(constants[i]));
  const t = constants as RecordTable;
  const at = t.constantsAt + 8 * i;
  const high = t.view.getUint32(t.little ? at + 4 : at, t.little);
  const low = t.view.getUint32(t.little ? at : at + 4, t.little);
  return high === 0 ? decimal(out, o, low) : decimal64(out, o, high, low);
}

const constantCount = (constants: Constants): number => (Array.isArray(constants) ? constants.length : (constants as RecordTable).numConstants);

/** Copies `text` to `o`; returns the position after it. (A loop: `set` costs more for a few bytes.) */
function put(out: Uint8Array, o: number, text: Uint8Array): number {
  for (let i = 0; i < text.length; i++) out[o + i] = text[i]!;
  return o + text.length;
}

/** A copy of `out` with room for `more` bytes after `used`. */
function grow(out: Uint8Array, used: number, more: number): Uint8Array {
  const bigger = new Uint8Array(Math.max(out.length * 2, used + more));
  bigger.set(out.subarray(0, used));
  return bigger;
}

/** A location's kind as an index of the texts below: 1 to 5, or 0 for a kind LLVM never wrote. */
const kindIndex = (kind: number): number => (kind >= LocationKind.Register && kind <= LocationKind.ConstantIndex ? kind : 0);
/** What follows `#N: ` for each kind (llvm-readobj prints nothing of an unknown kind). */
const KIND_TEXTS = ['', 'Register R#', 'Direct R#', 'Indirect [R#', 'Constant ', 'ConstantIndex #'];
/** `      #N: ` and the kind's text, per kind and N, made when first needed. */
const PREFIXES: Uint8Array[][] = KIND_TEXTS.map(() => []);
/** `, size: N` and the line's end, per size below 256, made when first needed. */
const SIZE_TEXTS: Uint8Array[] = [];

function prefix(kind: number, n: number): Uint8Array {
  const row = PREFIXES[kind]!;
  return (row[n] ??= latin1(`      #${n}: ${KIND_TEXTS[kind]!}`));
}

/** Writes the line of the location at `p` (the `n`th of its record); returns the position after it. */
function locationLine(out: Uint8Array, o: number, t: RecordTable, p: number, n: number, constants: Constants): number {
  const { bytes, view: v, little: le } = t;
  const wide = t.layout.locationSizeField === 'u16';
  const kind = kindIndex(bytes[p]!);
  o = put(out, o, prefix(kind, n));
  const reg = v.getUint16(wide ? p + 4 : p + 2, le);
  const offset = v.getInt32(wide ? p + 8 : p + 4, le);
  switch (kind) {
    case LocationKind.Register:
      o = decimal(out, o, reg);
      break;
    case LocationKind.Direct:
    case LocationKind.Indirect:
      o = put(out, decimal(out, o, reg), PLUS);
      if (offset < 0) {
        out[o++] = 0x2d;
        o = decimal(out, o, -offset);
      } else o = decimal(out, o, offset);
      if (kind === LocationKind.Indirect) out[o++] = 0x5d;
      break;
    case LocationKind.Constant:
      o = decimal(out, o, offset >>> 0);
      break;
    case LocationKind.ConstantIndex: {
      const index = offset >>> 0;
      o = put(out, decimal(out, o, index), OPEN);
      o = index < constantCount(constants) ? constant(out, o, constants, index) : put(out, o, NO_SUCH_CONSTANT);
      out[o++] = 0x29;
      break;
    }
  }
  const size = wide ? v.getUint16(p + 2, le) : t.layout.locationSizeField === 'byte' ? bytes[p + 1]! : 0;
  if (size < 256) return put(out, o, (SIZE_TEXTS[size] ??= latin1(`, size: ${size}\n`)));
  o = decimal(out, put(out, o, SIZE), size);
  out[o] = 0x0a;
  return o + 1;
}

/**
 * Writes the lines of the record at `p`, where `out` has room for them (`recordRoom`); returns
 * the position after them.
 */
function recordLines(out: Uint8Array, o: number, t: RecordTable, p: number, constants: Constants): number {
  const { view: v, little: le, layout } = t;
  o = put(out, o, RECORD_ID);
  if (layout.legacy) {
    o = decimal(out, o, v.getUint32(p, le));
    p += 4;
  } else {
    const high = v.getUint32(le ? p + 4 : p, le);
    const low = v.getUint32(le ? p : p + 4, le);
    o = high === 0 ? decimal(out, o, low) : decimal64(out, o, high, low);
    p += 8;
  }
  o = decimal(out, put(out, o, INSTRUCTION_OFFSET), v.getUint32(p, le));
  const numLocations = v.getUint16(p + 6, le);
  o = put(out, decimal(out, put(out, o, LOCATIONS_INDENT), numLocations), LOCATIONS);
  p += 8;
  const size = layout.locationSize;
  for (let n = 1; n <= numLocations; n++, p += size) o = locationLine(out, o, t, p, n, constants);
  let numLiveOuts = 0;
  if (!layout.legacy) {
    if (layout.padLocations) p += padLength(p);
    numLiveOuts = v.getUint16(p + 2, le);
    p += 4;
  }
  o = put(out, decimal(out, put(out, o, LIVE_OUTS_INDENT), numLiveOuts), LIVE_OUTS);
  for (let i = 0; i < numLiveOuts; i++, p += 4) {
    o = decimal(out, put(out, o, LIVE_OUT_REG), v.getUint16(p, le));
    o = put(out, decimal(out, put(out, o, OPEN), t.bytes[p + 3]!), BYTES_CLOSE);
  }
  return put(out, o, CLOSE_LIST);
}

/** The most the record at `p` can print (its counts read from the bytes). */
function recordRoom(t: RecordTable, p: number): number {
  const { view: v, little: le, layout } = t;
  const head = layout.legacy ? 12 : 16;
  const numLocations = v.getUint16(p + head - 2, le);
  let numLiveOuts = 0;
  if (!layout.legacy) {
    let q = p + head + numLocations * layout.locationSize;
    if (layout.padLocations) q += padLength(q);
    numLiveOuts = v.getUint16(q + 2, le);
  }
  return RECORD_ROOM + numLocations * LOCATION_ROOM + numLiveOuts * LIVE_OUT_ROOM;
}

/**
 * How much of the text `readobjConstantsAndRecords` holds before it hands it to a `sink`: a few
 * hundred KB stay in the processor's caches and need no fresh pages, where the whole text of
 * 24,000 records (7 MB) would be written once into memory never touched before.
 */
const SINK_CHUNK = 256 * 1024;

/**
 * `head` (the lines before the constants) followed by the constants' and the records' lines: what
 * the model's printer writes for the same constants and records. With `sink`, the text is handed
 * to it in pieces of about `SINK_CHUNK` bytes, each a view of one buffer that is reused once
 * `sink` returns, and the result is what is left after the last piece handed on (often empty).
 */
export function readobjConstantsAndRecords(head: Uint8Array, t: RecordTable, constants: Constants, sink?: (chunk: Uint8Array) => void): Uint8Array {
  const numConstants = constantCount(constants);
  // Without a sink: up to six bytes of text a byte of section (a record's head, 16 bytes, prints
  // 70 or so; a location, 12, some 40; a constant, 8, up to 28), beyond the constants the model
  // may have gained: seldom grown. Pages never written are never touched.
  let out: Uint8Array = new Uint8Array(Math.max(head.length + 4096, sink ? SINK_CHUNK + 4096 : head.length + t.bytes.length * 6 + numConstants * 32 + 4096));
  out.set(head);
  let o = putText(out, head.length, 'Num Constants: ');
  o = decimal(out, o, numConstants);
  out[o++] = 0x0a;
  for (let i = 0; i < numConstants; i++) {
    if (sink && o >= SINK_CHUNK) {
      sink(out.subarray(0, o));
      o = 0;
    }
    if (o + 64 > out.length) out = grow(out, o, 64);
    o = decimal(out, put(out, o, CONSTANT_HASH), i + 1);
    o = constant(out, put(out, o, COLON), constants, i);
    out[o++] = 0x0a;
  }
  if (o + 64 > out.length) out = grow(out, o, 64);
  o = decimal(out, putText(out, o, 'Num Records: '), t.starts.length);
  out[o++] = 0x0a;
  for (let r = 0; r < t.starts.length; r++) {
    if (sink && o >= SINK_CHUNK) {
      sink(out.subarray(0, o));
      o = 0;
    }
    const p = t.starts[r]!;
    const room = recordRoom(t, p);
    if (o + room > out.length) out = grow(out, o, room);
    o = recordLines(out, o, t, p, constants);
  }
  return out.subarray(0, o);
}
