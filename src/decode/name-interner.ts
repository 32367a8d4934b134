/**
 * Names read from a symbol table, shared: the same bytes give the same string object. Functions
 * of one module reuse the same local names (`entry`, `tmp`, `i`, …) over and over, and a new
 * string for each was a good part of a read module's heap. A fixed-size table indexed by a hash
 * of the bytes, checked character by character, so a collision costs a fresh string, never a
 * wrong one, and nothing grows with the input.
 *
 * One table serves every module a thread reads (`sharedNameInterner`): setting up 4,096 slots
 * cost more than reading a small module (17 µs of its 45 µs when a batch reads thousands of them),
 * and what a table holds is only ever a string equal to the bytes asked for, so sharing it across
 * modules changes no result (it keeps at most 4,096 short strings alive).
 */
import { decodeLatin1 } from '../binary/latin1.js';

/** Table size (a power of two). */
const SLOTS = 4096;
/** Longer names are rarely repeated; they are decoded as they come. */
const LONGEST_SHARED = 48;

export class NameInterner {
  private readonly slots: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined);
  /** A hash of the last name's bytes (equal names, equal hashes), for the symbol tables' clash check. */
  lastHash = 0;

  /** The bytes `[start, end)` of `bytes` as a string, one character per byte (see latin1.ts). */
  name(bytes: Uint8Array, start: number, end: number): string {
    const n = end - start;
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    h ^= h >>> 15;
    // (30 bits: a small integer to V8, never a heap number when stored or passed on.)
    this.lastHash = h & 0x3fffffff;
    if (n > LONGEST_SHARED) return decodeLatin1(bytes, start, end);
    const slot = h & (SLOTS - 1);
    const s = this.slots[slot];
    if (s !== undefined && s.length === n) {
      let same = true;
      for (let i = 0; i < n; i++) {
        if (s.charCodeAt(i) !== bytes[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return s;
    }
    const fresh = decodeLatin1(bytes, start, end);
    this.slots[slot] = fresh;
    return fresh;
  }
}

let shared: NameInterner | undefined;

/** The interner shared by every module read in this thread (made on first use). */
export function sharedNameInterner(): NameInterner {
  return (shared ??= new NameInterner());
}
