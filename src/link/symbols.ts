/**
 * The linked module's symbol table as far as linking needs it: LLVM 1.x kept global names per
 * type plane (two globals may share a name when their types differ), renamed a newcomer whose
 * name was taken in its plane to the name plus the table's running counter (`x` → `x1`), and the
 * linker forced an external name back onto its owner by renaming the internal global that held
 * it (ForceRenaming).
 */
import type { Type } from '../graph/type.js';
import type { GlobalValue } from '../graph/value.js';
import type { TypeResolver } from './type-resolver.js';

export class ModuleSymbols {
  private readonly byName = new Map<string, GlobalValue[]>();
  /** LLVM's `SymbolTable::LastUnique`: one counter for the whole table, never reset. */
  private lastUnique = 0;

  constructor(private readonly types: TypeResolver) {}

  /** The global named `name` in the plane of `type`. */
  lookup(type: Type, name: string): GlobalValue | undefined {
    const list = this.byName.get(name);
    if (list === undefined) return undefined;
    for (const v of list) if (this.types.same(v.type, type)) return v;
    return undefined;
  }

  /** Gives `v` the name `name`, or a unique variant when its plane has one already ('' unnames). */
  setName(v: GlobalValue, name: string): void {
    this.remove(v);
    if (name === '') {
      delete v.name;
      return;
    }
    let tryName = name;
    if (this.lookup(v.type, name) !== undefined) {
      while (this.lookup(v.type, tryName) !== undefined) tryName = name + String(++this.lastUnique);
    }
    v.name = tryName;
    const list = this.byName.get(tryName);
    if (list === undefined) this.byName.set(tryName, [v]);
    else list.push(v);
  }

  /** Enters a value already named (the first module's own, which cannot conflict). */
  enter(v: GlobalValue): void {
    if (v.name === undefined || v.name === '') return;
    const list = this.byName.get(v.name);
    if (list === undefined) this.byName.set(v.name, [v]);
    else list.push(v);
  }

  remove(v: GlobalValue): void {
    if (v.name === undefined || v.name === '') return;
    const list = this.byName.get(v.name);
    if (list === undefined) return;
    const at = list.indexOf(v);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.byName.delete(v.name);
  }

  /** LLVM's ForceRenaming: `v` takes `name` back from the internal global holding it. */
  forceName(v: GlobalValue, name: string): void {
    const conflict = this.lookup(v.type, name);
    if (conflict === undefined || conflict === v) return;
    this.setName(conflict, '');
    this.setName(v, name);
    this.setName(conflict, name);
  }
}
