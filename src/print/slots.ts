/**
 * Slot numbers of unnamed values (`%3`), as LLVM 1.x's SlotMachine gave them: one counter per
 * type; module-level unnamed globals then functions first; inside a function, unnamed arguments,
 * then each block and its instructions in order, numbered after the module's values of the same
 * type. Named and void values take no number.
 */
import type { Type } from '../graph/type.js';
import type { GlobalValue, Value } from '../graph/value.js';
import { llvmName } from './text.js';
import type { BodyInfo, ValueInfo } from './uses.js';

/** Gives the (shared) record of a value, where its slot is stored. */
export type InfoFor = (v: Value) => ValueInfo;

/** Numbers the module's unnamed globals then functions; returns the next slot of each type. */
export function numberModule(unnamed: readonly GlobalValue[], infoFor: InfoFor): Map<Type, number> {
  const next = new Map<Type, number>();
  for (const g of unnamed) {
    const n = next.get(g.type) ?? 0;
    infoFor(g).slot = n;
    next.set(g.type, n + 1);
  }
  return next;
}

/**
 * Numbers the values of a function body (arguments, then each block and its instructions, as the
 * module pass listed them) after the module's values of the same type, and settles their names
 * and the operand texts of named ones (unnamed ones print as `%` and their slot): `nameOf` gives a value's name after renaming (undefined when unnamed).
 */
export function numberBody(moduleNext: ReadonlyMap<Type, number>, body: BodyInfo, nameOf: (v: Value) => string | undefined): void {
  const next = new Map<Type, number>();
  const { values, names, refs, slots } = body;
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    const name = nameOf(v);
    names[k] = name;
    if (name !== undefined) {
      refs[k] = llvmName(name);
      continue;
    }
    if (v.type.kind === 'void') continue; // no slot: printed `%<badref>`
    let n = next.get(v.type);
    if (n === undefined) n = moduleNext.get(v.type) ?? 0;
    slots[k] = n;
    next.set(v.type, n + 1);
  }
}
