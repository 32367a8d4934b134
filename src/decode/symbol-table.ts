/**
 * The SymbolTable block (docs/format.md §12): named types, then planes of named values. The order
 * of planes and entries is kept in `SymbolTableLayout`, because LLVM took it from heap addresses
 * and a faithful writer must reproduce it.
 */
import type { BinaryReader } from '../binary/reader.js';
import { normalizeTypeId } from '../format/format-table.js';
import type { Type } from '../graph/type.js';
import type { SymbolTableLayout, Value } from '../graph/value.js';
import { describeType, type ModuleContext } from './context.js';
import { readTypeId, TYPE_TYPE, type TypeTable } from './types.js';

export interface SymbolScope<R = Value> {
  readonly types: TypeTable;
  /** The value at `slot` of plane `t` (for the label plane: the basic block of that index). */
  lookup(t: Type, slot: number): R | undefined;
  /**
   * Names `ref` (default: sets the value's name). A function body names its instructions and
   * blocks through value codes (graph/compact-body.ts).
   */
  setName?(ref: R, name: string): void;
}

/** The layout of a symbol table whose values are `R`s (values, or a body's value codes). */
export interface LayoutOf<R> {
  valuePlanes: { type: Type; values: R[] }[];
  typeNames?: string[];
  typeNamesPlaneIndex?: number;
}

/** Sets the name of a value read from a symbol table. */
export function nameValue(v: Value, name: string): void {
  switch (v.kind) {
    case 'global':
    case 'function':
    case 'argument':
    case 'instruction':
    case 'block':
      v.name = name;
      break;
    default:
      // LLVM 1.1 could name a constant (Assembler__2003-03-03-DuplicateConstant); no printer
      // shows such a name, but the writer needs it to reproduce the table.
      (v as { name?: string }).name = name;
  }
}

export function readSymbolTable(ctx: ModuleContext, scope: SymbolScope<Value>): SymbolTableLayout;
export function readSymbolTable<R>(ctx: ModuleContext, scope: SymbolScope<R> & { setName(ref: R, name: string): void }): LayoutOf<R>;
export function readSymbolTable<R>(ctx: ModuleContext, scope: SymbolScope<R>): LayoutOf<R> {
  const r: BinaryReader = ctx.r;
  const { row, limits, module } = ctx;
  const setName = scope.setName ?? (nameValue as unknown as (ref: R, name: string) => void);
  const layout: LayoutOf<R> = { valuePlanes: [] };
  const typeNames: string[] = [];
  const nameType = (t: Type, name: string): void => {
    typeNames.push(name);
    if (!module.typeNames.has(name)) module.typeNames.set(name, t);
  };
  if (!row.typeDerivedFromValue) {
    const at = r.pos;
    const n = r.checkCount(r.vbr32(), 2, limits.maxSymbolTableEntries, 'named types', at);
    for (let i = 0; i < n; i++) {
      const t = scope.types.read(r, row);
      nameType(t, readName(ctx));
    }
  }
  while (!r.atEnd()) {
    const at = r.pos;
    const count = r.checkCount(r.vbr32(), 2, limits.maxSymbolTableEntries, 'symbol table entries', at);
    const planeId = readTypeId(r, row);
    if (planeId === TYPE_TYPE) {
      // v0–v1: the type-type plane names types; its slots are type ids in the old numbering.
      layout.typeNamesPlaneIndex ??= layout.valuePlanes.length;
      for (let i = 0; i < count; i++) {
        const eat = r.pos;
        const id = normalizeTypeId(row, r.vbr32());
        const t = scope.types.at(r, id === 'typeType' ? TYPE_TYPE : id, eat);
        nameType(t, readName(ctx));
      }
      continue;
    }
    const type = scope.types.at(r, planeId, at);
    const values: R[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const eat = r.pos;
      const slot = r.vbr32();
      const v = scope.lookup(type, slot);
      if (v === undefined) r.fail(`symbol table names slot ${slot} of type ${describeType(type)}, which is not defined`, eat);
      setName(v, readName(ctx));
      values[i] = v;
    }
    layout.valuePlanes.push({ type, values });
  }
  if (typeNames.length) layout.typeNames = typeNames;
  return layout;
}

function readName(ctx: ModuleContext): string {
  const r: BinaryReader = ctx.r;
  const at = r.pos;
  const len = r.vbr32();
  if (len > ctx.limits.maxStringLength) r.fail(`a name of ${len} bytes exceeds the limit of ${ctx.limits.maxStringLength}`, at);
  const start = r.pos;
  r.bytesView(len, 'a name'); // checks that the bytes are there, and steps over them
  return ctx.names.name(r.bytes, start, start + len);
}
