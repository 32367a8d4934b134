/**
 * A 1.x getelementptr's indices as modern GEP takes them, for instructions (function.ts and the
 * direct lowering) and constant expressions (constants.ts) alike: which index picks a structure's
 * field (written `i32 N`), how a sequential one is given (`planIndex`), and the types the walk
 * passes through on the way.
 */
import type { Type } from '../graph/type.js';
import type { Value } from '../graph/value.js';
import { intBits, isSignedInt } from './types.js';

/**
 * How a sequential getelementptr index is given to modern GEP, which sign-extends it: as it is;
 * as the i64 constant `text`; or zero-extended to i64 first (unsigned narrow indices).
 */
export type IndexPlan = { readonly kind: 'same' } | { readonly kind: 'constant'; readonly text: string } | { readonly kind: 'zext' };

const SAME_INDEX: IndexPlan = { kind: 'same' };
const ZEXT_INDEX: IndexPlan = { kind: 'zext' };

/** The plan for an index of `type`; `idx`, the index when it is a constant (for a local, anything else). */
export function planIndex(type: Type, idx: Value | undefined): IndexPlan {
  // Version 7's indices are signless, sign-extended by LLVM 2.0 as by LLVM 16.
  if (type.kind === 'integer') return SAME_INDEX;
  const bits = intBits(type);
  if (bits === 64 || bits === 0 || isSignedInt(type)) return SAME_INDEX;
  if (idx?.kind === 'int') return { kind: 'constant', text: String(BigInt.asUintN(bits, idx.value)) };
  if (idx?.kind === 'bool') return { kind: 'constant', text: idx.value ? '1' : '0' };
  return ZEXT_INDEX;
}

/**
 * The field index `k` (counted from 1, the first index after the base) picks, when the type it
 * indexes, `indexed`, is a structure (its constant; 0 for anything else, which only a damaged
 * file has): -1 for a sequential index.
 */
export function structField(indexed: Type | undefined, k: number, idx: Value | undefined): number {
  if (k === 1 || indexed?.kind !== 'struct') return -1;
  return idx?.kind === 'int' ? Number(idx.value) : 0;
}

/** The type index `k + 1` indexes, after index `k` (picking `field`, or -1) of the type `indexed`. */
export function nextIndexed(indexed: Type | undefined, k: number, field: number): Type | undefined {
  if (indexed?.kind === 'struct' && field >= 0) return indexed.elements[field];
  if (k === 1) return indexed;
  return indexed && (indexed.kind === 'array' || indexed.kind === 'packed') ? indexed.element : undefined;
}
