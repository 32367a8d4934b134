/**
 * Slot numbers of unnamed values (`%3`), as LLVM 1.x's SlotMachine gave them: one counter per
 * type; module-level unnamed globals then functions first; inside a function, unnamed arguments,
 * then each block and its instructions in order, numbered after the module's values of the same
 * type. Named and void values take no number.
 */
import type { Type } from '../graph/type.js';
import type { Function, GlobalValue, Value } from '../graph/value.js';
import type { ValueInfo } from './uses.js';
import { instructionsIn, type ModuleView } from './view.js';

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

/** Numbers `f`'s unnamed arguments, blocks and instructions after the module's values. */
export function numberFunction(moduleNext: ReadonlyMap<Type, number>, view: ModuleView, f: Function, isNamed: (v: Value) => boolean, infoFor: InfoFor): void {
  const next = new Map<Type, number>();
  const add = (v: Value): void => {
    if (v.type.kind === 'void' || isNamed(v)) return;
    let n = next.get(v.type);
    if (n === undefined) n = moduleNext.get(v.type) ?? 0;
    infoFor(v).slot = n;
    next.set(v.type, n + 1);
  };
  for (const a of f.args) add(a);
  for (const b of f.blocks) {
    add(b);
    for (const i of instructionsIn(view, b)) add(i);
  }
}
