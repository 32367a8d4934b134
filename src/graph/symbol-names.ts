/**
 * How LLVM 1.x's symbol tables named values: one namespace per type ("plane"), and a name already
 * taken in its plane made unique by appending the table's running counter (`SymbolTable::
 * LastUnique`, one per function or module): `A` → `A1`, then `A2`, … whatever the base name.
 * LLVM's own rewrites of old files and old text (the reader's upgrades, the parser's) named the
 * values they made this way, so reproducing their output means reproducing this.
 */
import type { Type } from './type.js';

/** `base` if it is free, else `base` followed by the next counter value that makes it free. */
export function uniqueName(isTaken: (name: string) => boolean, base: string, counter: { value: number }): string {
  let name = base;
  while (isTaken(name)) name = base + String(++counter.value);
  return name;
}

/** One symbol table's names, per plane, with its counter. */
export class PlaneNames {
  private readonly planes = new Map<Type, Set<string>>();
  readonly counter: { value: number };

  constructor(lastUnique = 0) {
    this.counter = { value: lastUnique };
  }

  has(t: Type, name: string): boolean {
    return this.planes.get(t)?.has(name) ?? false;
  }

  /** Inserts `name` in `t`'s plane, made unique as LLVM did; returns the name given. */
  insert(t: Type, name: string): string {
    let plane = this.planes.get(t);
    if (plane === undefined) this.planes.set(t, (plane = new Set()));
    const given = uniqueName((n) => plane.has(n), name, this.counter);
    plane.add(given);
    return given;
  }

  remove(t: Type, name: string): void {
    this.planes.get(t)?.delete(name);
  }
}
