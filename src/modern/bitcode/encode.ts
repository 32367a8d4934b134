/** Encodings of single fields that the module's records and the function bodies' records share. */
import { PREDICATE } from './codes.js';
import { UpgradeError } from '../upgrade-error.js';

/** LLVM's encoding of an alignment: log2 + 1, 0 for none. */
export function encodeAlign(align: number): number {
  if (!align) return 0;
  if (align & (align - 1)) throw new UpgradeError(`alignment ${align} is not a power of two`);
  return Math.log2(align) + 1;
}

/**
 * A signed 64-bit value as LLVM's sign-rotated VBR holds it: magnitude << 1, sign in bit 0, in
 * 64 bits (so the most negative value, whose magnitude does not fit, is 1: "-0").
 */
export function signRotated(v: bigint): bigint {
  return BigInt.asUintN(64, v >= 0n ? v << 1n : (-v << 1n) | 1n);
}

/** `signRotated` of a number whose magnitude is below 2^51 (so that 2|v| + 1 is exact), without a bigint. */
export function signRotatedNumber(v: number): number {
  return v >= 0 ? v * 2 : -v * 2 + 1;
}

/** A call record's flags: `tail`, the calling convention, and bit 15 (the record gives the function type explicitly). */
export function callFlags(tail: boolean, callingConv: number): number {
  return (tail ? 1 : 0) | (callingConv << 1) | (1 << 15);
}

/** PREDICATE split by its first letter, so that a comparison looks its predicate up without building a key. */
const PREDICATES_BY_LETTER = new Map<string, Map<string, number>>();
for (const [key, code] of PREDICATE) {
  let byName = PREDICATES_BY_LETTER.get(key[0]!);
  if (!byName) PREDICATES_BY_LETTER.set(key[0]!, (byName = new Map()));
  byName.set(key.slice(1), code);
}

/** The code of an `icmp` or `fcmp` predicate. */
export function predicate(opcode: string, pred: string | undefined): number {
  const n = PREDICATES_BY_LETTER.get(opcode[0] ?? '')?.get(pred ?? '');
  if (n === undefined) throw new UpgradeError(`unknown ${opcode} predicate '${pred}'`);
  return n;
}
