/**
 * The slot calculator's two value maps in one: each value it numbers gets a dense id once per
 * write (the one Map keyed by objects), and its module slot and current-function slot live in
 * arrays by that id. LLVM kept a module map and a function map, filling and erasing the latter
 * for every function; here a function's slots are forgotten all at once by moving to the next
 * stamp, so a module of thousands of small functions sets and deletes no map entries per
 * function, and a lookup asks the Map once instead of once per map.
 *
 * The current function's arguments (their only slots are function slots) are kept in a short
 * list instead: a module of thousands of small functions would otherwise give every argument an
 * id, a Map entry that lives for the whole write, to be asked about within one function only.
 */
import type { Value } from '../graph/value.js';

/** Beyond this many arguments in a function, the others are numbered through the Map. */
const MAX_LISTED_ARGUMENTS = 32;

export class ValueSlots {
  private readonly ids = new Map<Value, number>();
  /** By id: the value. */
  private readonly values: Value[] = [];
  /** By id: the module slot (-1: none), the function slot and the stamp it was given under. */
  private readonly moduleSlots: number[] = [];
  private readonly fnSlots: number[] = [];
  private readonly fnStamps: number[] = [];
  /** The current function's stamp (a function slot holds while its stamp is this). */
  private stamp = 1;
  /** The current function's arguments given a function slot (the first `argCount`), and their slots (-1: deleted). */
  private readonly args: Value[] = [];
  private readonly argSlots: number[] = [];
  private argCount = 0;

  /** `v`'s place in the argument list, or -1. */
  private argIndex(v: Value): number {
    const args = this.args;
    for (let i = 0; i < this.argCount; i++) if (args[i] === v) return i;
    return -1;
  }

  /** `v`'s id, given now if it has none. */
  idOf(v: Value): number {
    let id = this.ids.get(v);
    if (id === undefined) {
      id = this.moduleSlots.length;
      this.ids.set(v, id);
      this.values.push(v);
      this.moduleSlots.push(-1);
      this.fnSlots.push(-1);
      this.fnStamps.push(0);
    }
    return id;
  }

  /** The value whose id is `id`. */
  valueOf(id: number): Value {
    return this.values[id]!;
  }

  /** `v`'s id, or -1 when it has none (asking gives it none). */
  knownId(v: Value): number {
    const id = this.ids.get(v);
    return id === undefined ? -1 : id;
  }

  /** How many ids have been given (ids are 0 … count - 1). */
  get count(): number {
    return this.moduleSlots.length;
  }

  /** `v`'s module slot, or -1. */
  moduleSlot(v: Value): number {
    const id = this.ids.get(v);
    return id === undefined ? -1 : this.moduleSlots[id]!;
  }

  /** The module slot of the value with id `id`, or -1. */
  moduleSlotOfId(id: number): number {
    return this.moduleSlots[id]!;
  }

  setModuleSlot(v: Value, slot: number): void {
    this.moduleSlots[this.idOf(v)] = slot;
  }

  /** `v`'s slot in the current function, or -1. */
  fnSlot(v: Value): number {
    if (v.kind === 'argument') {
      const i = this.argIndex(v);
      if (i >= 0) return this.argSlots[i]!;
    }
    const id = this.ids.get(v);
    return id !== undefined && this.fnStamps[id] === this.stamp ? this.fnSlots[id]! : -1;
  }

  /** The function slot of the value with id `id`, or -1. */
  fnSlotOfId(id: number): number {
    return this.fnStamps[id] === this.stamp ? this.fnSlots[id]! : -1;
  }

  setFnSlotOfId(id: number, slot: number): void {
    this.fnStamps[id] = this.stamp;
    this.fnSlots[id] = slot;
  }

  hasFnSlot(v: Value): boolean {
    if (v.kind === 'argument') {
      const i = this.argIndex(v);
      if (i >= 0) return this.argSlots[i] !== -1;
    }
    const id = this.ids.get(v);
    return id !== undefined && this.fnStamps[id] === this.stamp;
  }

  setFnSlot(v: Value, slot: number): void {
    if (v.kind === 'argument') {
      const i = this.argIndex(v);
      if (i >= 0) {
        this.argSlots[i] = slot;
        return;
      }
      if (this.argCount < MAX_LISTED_ARGUMENTS) {
        this.args[this.argCount] = v;
        this.argSlots[this.argCount++] = slot;
        return;
      }
    }
    const id = this.idOf(v);
    this.fnStamps[id] = this.stamp;
    this.fnSlots[id] = slot;
  }

  deleteFnSlot(v: Value): void {
    if (v.kind === 'argument') {
      const i = this.argIndex(v);
      if (i >= 0) {
        this.argSlots[i] = -1;
        return;
      }
    }
    const id = this.ids.get(v);
    if (id !== undefined) this.fnStamps[id] = 0;
  }

  /** Forgets every function slot. */
  clearFnSlots(): void {
    this.stamp++;
    this.argCount = 0;
  }

  /** The function slot of `v` if it has one, else its module slot, else -1 (LLVM's lookup order). */
  slot(v: Value): number {
    if (v.kind === 'argument') {
      const i = this.argIndex(v);
      if (i >= 0) return this.argSlots[i]!;
    }
    const id = this.ids.get(v);
    if (id === undefined) return -1;
    return this.fnStamps[id] === this.stamp ? this.fnSlots[id]! : this.moduleSlots[id]!;
  }
}
