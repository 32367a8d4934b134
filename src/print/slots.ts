/**
 * Slot numbers of unnamed values (`%3`), as LLVM 1.x's SlotMachine gave them: one counter per
 * type; module-level unnamed globals then functions first; inside a function, unnamed arguments,
 * then each block and its instructions in order, numbered after the module's values of the same
 * type. Named and void values take no number.
 */
import type { Type } from '../graph/type.js';
import type { Function, GlobalValue, Value } from '../graph/value.js';
import { instructionsIn, type ModuleView } from './view.js';

export class ModuleSlots {
  readonly slots = new Map<Value, number>();
  readonly next = new Map<Type, number>();

  /** `unnamed`: the module's unnamed globals then functions, in order. */
  constructor(unnamed: readonly GlobalValue[]) {
    for (const g of unnamed) {
      const n = this.next.get(g.type) ?? 0;
      this.slots.set(g, n);
      this.next.set(g.type, n + 1);
    }
  }
}

export class FunctionSlots {
  private readonly slots = new Map<Value, number>();
  private readonly next = new Map<Type, number>();

  constructor(
    private readonly module: ModuleSlots,
    view: ModuleView,
    f: Function,
    isNamed: (v: Value) => boolean,
  ) {
    const add = (v: Value): void => {
      if (v.type.kind === 'void' || isNamed(v)) return;
      let n = this.next.get(v.type);
      if (n === undefined) n = this.module.next.get(v.type) ?? 0;
      this.slots.set(v, n);
      this.next.set(v.type, n + 1);
    };
    for (const a of f.args) add(a);
    for (const b of f.blocks) {
      add(b);
      for (const i of instructionsIn(view, b)) add(i);
    }
  }

  /** The slot of `v`, or undefined (LLVM printed `<badref>`). */
  of(v: Value): number | undefined {
    return this.slots.get(v) ?? this.module.slots.get(v);
  }
}
