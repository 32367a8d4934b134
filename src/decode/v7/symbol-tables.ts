/**
 * Version 7's symbol tables (r36867's ParseValueSymbolTable and ParseTypeSymbolTable).
 *
 * - The value symbol table (block 4, module or function): planes of `[count][type slot]`, each
 *   entry `[slot][name]`. Slots count the plane's implicit null like operands do; in the label
 *   plane (slot 3) they number the function's basic blocks. A name given to a constant is
 *   ignored (LLVM could not name one); a name already taken in the scope is made unique as
 *   LLVM's symbol table did, by appending the next number.
 * - The type symbol table (block 9, module only): `[count]`, then `[type slot][name]` entries; a
 *   name given twice is made unique the same way.
 *
 * The records are read by `decode/plane-records.ts`, as every version's are; what they mean is here.
 *
 * Why its own: version 7 names types in a block of their own and has no type plane in the value
 * table; 1.x's symbol table (`decode/symbol-table.ts`) holds both.
 */
import type { BinaryReader } from '../../binary/reader.js';
import { describeType } from '../../graph/describe.js';
import { primitiveTypes as P, type Type } from '../../graph/type.js';
import type { BasicBlock, SymbolTableLayout, Value } from '../../graph/value.js';
import { isConstant, LABEL_SLOT, type V7Scope } from './scope.js';
import { readSymbolEntries, readSymbolPlanes } from '../plane-records.js';

/** The names of one scope (module or function), made unique as LLVM's ValueSymbolTable did. */
export class NameScope {
  private readonly taken = new Set<string>();
  private lastUnique = 0;

  claim(name: string): string {
    if (!this.taken.has(name)) {
      this.taken.add(name);
      return name;
    }
    let unique: string;
    do unique = name + String(++this.lastUnique);
    while (this.taken.has(unique));
    this.taken.add(unique);
    return unique;
  }
}

export function readValueSymbolTableV7(scope: V7Scope, names: NameScope, blocks: readonly BasicBlock[] | undefined): SymbolTableLayout {
  const r: BinaryReader = scope.r;
  const limits = scope.limits;
  const layout: SymbolTableLayout = { valuePlanes: [] };
  let entries = 0;
  let type: Type = P.void;
  let typeSlot = 0;
  let values: Value[] = [];
  readSymbolPlanes(r, {
    planeId: (r) => r.vbr32(),
    plane: (count, planeSlot, at) => {
      entries += count;
      if (entries > limits.maxSymbolTableEntries) r.fail(`the symbol table holds more than the limit of ${limits.maxSymbolTableEntries} entries`, at);
      r.checkCount(count, 2, limits.maxSymbolTableEntries, 'symbol table entries', at);
      typeSlot = planeSlot;
      type = scope.typeAt(typeSlot, at);
      values = [];
      layout.valuePlanes.push({ type, values });
    },
    name: (r) => limitedName(r, limits.maxStringLength, 'a name'),
    entry: (slot, name, eAt) => {
      const v: Value | undefined = typeSlot === LABEL_SLOT ? blocks?.[slot] : scope.find(typeSlot, slot, eAt);
      if (v === undefined) r.fail(`the name '${name}' is for slot ${slot} of type ${describeType(type)}, which is not defined`, eAt);
      if (name.length === 0) return;
      if (v.type === P.void) r.fail(`the name '${name}' is given to a value of type void`, eAt);
      if (isConstant(v) && v.kind !== 'global' && v.kind !== 'function' && v.kind !== 'alias') return;
      const named = v as { name?: string };
      if (named.name === name) return;
      named.name = names.claim(name);
      values.push(v);
    },
  });
  return layout;
}

export function readTypeSymbolTableV7(scope: V7Scope): string[] {
  const r: BinaryReader = scope.r;
  const limits = scope.limits;
  const at = r.pos;
  const count = r.checkCount(r.vbr32(), 2, limits.maxSymbolTableEntries, 'type names', at);
  const order: string[] = [];
  readSymbolEntries(
    r,
    count,
    (r) => limitedName(r, limits.maxStringLength, 'a type name'),
    (slot, name, eAt) => {
      const type = scope.typeAt(slot, eAt);
      // TypeSymbolTable::insert made a taken name unique, as the value table did (r36867's writer never repeats one).
      const unique = typeNameScope(scope).claim(name);
      scope.module.typeNames.set(unique, type);
      order.push(unique);
    },
  );
  return order;
}

/** A name, its length checked against the limit before the bytes are asked for. */
function limitedName(r: BinaryReader, max: number, what: string): string {
  const at = r.pos;
  const length = r.vbr32();
  if (length > max) r.fail(`${what} of ${length} bytes exceeds the limit of ${max}`, at);
  r.pos = at;
  return r.string(what);
}

/** The module's type names (one scope per read, however many type symbol tables the file has). */
const typeNameScopes = new WeakMap<V7Scope, NameScope>();
function typeNameScope(scope: V7Scope): NameScope {
  let names = typeNameScopes.get(scope);
  if (names === undefined) typeNameScopes.set(scope, (names = new NameScope()));
  return names;
}
