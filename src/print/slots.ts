/**
 * Slot numbers of unnamed values (`%3`), as LLVM 1.x's SlotMachine gave them: one counter per
 * type; module-level unnamed globals then functions first; inside a function, unnamed arguments,
 * then each block and its instructions in order, numbered after the module's values of the same
 * type. Named and void values take no number.
 */
import type { Type } from '../graph/type.js';
import type { GlobalValue, Value } from '../graph/value.js';
import type { Latin1Pieces } from '../binary/latin1-writer.js';
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
 * and the operand texts of named ones (unnamed ones print as `%` and their slot): a value's name
 * is its name in `renamed` (LLVM's renaming of clashes, by position), else its raw name.
 */
export function numberBody(
  moduleNext: ReadonlyMap<Type, number>,
  body: BodyInfo,
  renamed: ReadonlyMap<number, string> | undefined,
  numbering: LocalNumbering,
): void {
  // Every entry of slots and refs below `count` is written (a compact body's arrays are reused
  // uncleared, see BodyScratch).
  const { types, rawNames, names, slots } = body;
  const refAt = body.refs;
  const stamp = ++numbering.bodies;
  let lastType: Type | undefined;
  let lastId = -1;
  let lastVoid = false;
  let lastNext = 0;
  // Renamed values are few: applied first, so that the loop below makes no call (a call there
  // with no feedback yet, in the first bodies that have no renaming, costs a deoptimization later).
  const renamedAt = renamed === undefined || renamed.size === 0 ? undefined : renamed;
  const count = body.count;
  for (let k = 0; k < count; k++) names[k] = rawNames[k];
  if (renamedAt !== undefined) for (const [k, name] of renamedAt) names[k] = name;
  for (let k = 0; k < count; k++) {
    const name = names[k];
    if (name !== undefined) {
      refAt[k] = numbering.ref(name);
      slots[k] = -1;
      continue;
    }
    refAt[k] = -1;
    const t = types[k]!;
    // Runs of one type (blocks apart) are common: keep the last type's counter at hand.
    if (t !== lastType) {
      if (lastId >= 0) numbering.setNext(lastId, stamp, lastNext);
      lastType = t;
      lastVoid = t.kind === 'void';
      lastId = numbering.idOf(t);
      lastNext = numbering.nextOf(lastId, stamp, t, moduleNext);
    }
    slots[k] = lastVoid ? -1 : lastNext++; // void: no slot, printed `%<badref>`
  }
}

/**
 * What numberBody keeps from one body to the next: the operand text of each local name (`%x`,
 * `"x y"`) as a piece of the printer's, made once per name (functions mostly reuse the same names,
 * `%tmp`, `%entry`, whose texts are then neither built nor copied character by character again;
 * the next piece, Latin1Pieces.next, is the name as an instruction line opens with it, `\t%x = `),
 * and the next slot of each type in the body being numbered, stamped with the body's number
 * instead of cleared (a Map's clear allocates, which cost more than numbering a small body).
 */
export class LocalNumbering {
  private readonly known = new Map<string, number>();
  private readonly ids = new Map<Type, number>();
  // Plain arrays: a small typed array per printer (per module of a batch) costs an allocation outside the heap.
  private readonly next: number[] = [];
  private readonly stamps: number[] = [];
  /** Bodies numbered so far (the stamp of the current one). */
  bodies = 0;

  constructor(private readonly pieces: Latin1Pieces) {}

  ref(name: string): number {
    let at = this.known.get(name);
    if (at === undefined) {
      const ref = llvmName(name);
      this.known.set(name, (at = this.pieces.add(ref)));
      this.pieces.add('\t' + ref + ' = ');
    }
    return at;
  }

  /** A small number for type `t`, the same for the whole module. */
  idOf(t: Type): number {
    let id = this.ids.get(t);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(t, id);
      this.next.push(0);
      this.stamps.push(0);
    }
    return id;
  }

  /** The next slot of type `t` (id `id`) in the body numbered `stamp`. */
  nextOf(id: number, stamp: number, t: Type, moduleNext: ReadonlyMap<Type, number>): number {
    return this.stamps[id] === stamp ? this.next[id]! : (moduleNext.get(t) ?? 0);
  }

  setNext(id: number, stamp: number, next: number): void {
    this.next[id] = next;
    this.stamps[id] = stamp;
  }
}
