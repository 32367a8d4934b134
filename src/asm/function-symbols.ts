/**
 * Each function's symbol table as LLVM's parser left it after parsing (graph/symbol-names.ts):
 * filled from the body on first use, with the counter parsing had reached. The passes LLVM ran
 * after parsing (intrinsic-upgrade.ts, then obsolete-varargs.ts) named what they made through
 * these tables, one after the other, so they share them.
 */
import { PlaneNames } from '../graph/symbol-names.js';
import type { Function, Value } from '../graph/value.js';

export class FunctionSymbolTables {
  private readonly tables = new Map<Function, PlaneNames>();

  /** `lastUnique`: each function's counter after parsing (0 when absent). */
  constructor(private readonly lastUnique: ReadonlyMap<Function, number>) {}

  of(fn: Function): PlaneNames {
    let table = this.tables.get(fn);
    if (table === undefined) {
      table = new PlaneNames(this.lastUnique.get(fn) ?? 0);
      const add = (v: Value): void => {
        const name = (v as { name?: string }).name;
        if (name !== undefined && name !== '') table!.insert(v.type, name);
      };
      for (const a of fn.args) add(a);
      for (const b of fn.blocks) {
        add(b);
        for (const i of b.instructions) add(i);
      }
      this.tables.set(fn, table);
    }
    return table;
  }
}
