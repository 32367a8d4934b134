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
import { TAG_BLOCK, TAG_VALUE } from '../graph/compact-body.js';
import type { FunctionScope } from './function-scope.js';
import { PlaneNameFilter, SymbolNaming } from './symbol-naming.js';

export interface SymbolScope {
  readonly types: TypeTable;
  /** The value at `slot` of plane `t`. */
  lookup(t: Type, slot: number): Value | undefined;
}

/**
 * Sets the name of a value read from a symbol table. Any value: LLVM 1.1 could name a constant
 * (Assembler__2003-03-03-DuplicateConstant); no printer shows such a name, but the writer needs
 * it to reproduce the table. (One assignment: a switch on the kind, to name the kinds that have a
 * name, compared strings for every entry.)
 */
export function nameValue(v: Value, name: string): void {
  (v as { name?: string }).name = name;
}

/** The module's symbol table: named types, then planes of named values (see the top of this file). */
export function readSymbolTable(ctx: ModuleContext, scope: SymbolScope): SymbolTableLayout {
  const r: BinaryReader = ctx.r;
  const { row, limits } = ctx;
  const layout: SymbolTableLayout = { valuePlanes: [] };
  const typeNames: string[] = [];
  // LLVM's naming, once a clash may arise (see symbol-naming.ts): from the start for a second
  // table, which names what the first named, perhaps otherwise.
  let naming = ctx.moduleNaming ?? (ctx.module.layout !== undefined ? moduleNaming(ctx) : undefined);
  const filter = PLANE_NAMES;
  if (!row.typeDerivedFromValue) readNamedTypes(ctx, scope.types, typeNames);
  while (!r.atEnd()) {
    const at = r.pos;
    const count = r.checkCount(r.vbr32(), 2, limits.maxSymbolTableEntries, 'symbol table entries', at);
    const planeId = readTypeId(r, row);
    if (planeId === TYPE_TYPE) {
      layout.typeNamesPlaneIndex ??= layout.valuePlanes.length;
      readTypeTypePlane(ctx, scope.types, count, typeNames);
      continue;
    }
    const type = scope.types.at(r, planeId, at);
    const values: Value[] = new Array(count);
    if (naming === undefined) {
      if (layout.valuePlanes.some((p) => p.type === type)) naming = moduleNaming(ctx);
      else filter.beginPlane(count);
    }
    for (let i = 0; i < count; i++) {
      const eat = r.pos;
      const slot = r.vbr32();
      const v = scope.lookup(type, slot);
      if (v === undefined) notDefined(r, slot, type, eat);
      let name = readName(ctx);
      if (naming === undefined && filter.repeats(name, ctx.names.lastHash)) naming = moduleNaming(ctx);
      if (naming !== undefined && isModuleNamed(v)) name = naming.name(v, type, name);
      nameValue(v, name);
      values[i] = v;
    }
    layout.valuePlanes.push({ type, values });
  }
  if (typeNames.length) layout.typeNames = typeNames;
  return layout;
}

/**
 * The module's naming (symbol-naming.ts), made at the first entry that may clash from the names
 * its globals and functions hold then (only symbol tables name them, and none clashed before),
 * and kept for the rest of the module's tables and for `applyLateNames`.
 */
function moduleNaming(ctx: ModuleContext): SymbolNaming<Value> {
  let naming = ctx.moduleNaming;
  if (naming === undefined) {
    naming = ctx.moduleNaming = new SymbolNaming<Value>();
    for (const v of ctx.module.globals) if (v.name !== undefined) naming.name(v, v.type, v.name);
    for (const v of ctx.module.functions) if (v.name !== undefined) naming.name(v, v.type, v.name);
  }
  return naming;
}

/**
 * The values the module's table names that LLVM 1.9's reader named in the module's symbol table
 * (a constant it did not name at all, see `nameValue`).
 */
function isModuleNamed(v: Value): boolean {
  return v.kind === 'global' || v.kind === 'function';
}

/**
 * Gives module values the names function symbol tables gave them (`ModuleContext.lateNames`), as
 * LLVM did: after the module's table, through the module's naming (names unique per type, see
 * symbol-naming.ts).
 */
export function applyLateNames(ctx: ModuleContext): void {
  const late = ctx.lateNames;
  if (late === undefined) return;
  const naming = moduleNaming(ctx);
  for (let i = 0; i < late.length; i += 2) {
    const v = late[i] as Value;
    nameValue(v, naming.name(v, v.type, late[i + 1] as string));
  }
}

/** The clash check of the table being read (see symbol-naming.ts). */
const PLANE_NAMES = new PlaneNameFilter();

/**
 * A function's symbol table, naming its arguments and module values at once and its
 * instructions and blocks through `s` (their objects are made later, see compact-body.ts); its
 * layout goes to `s` as value codes (see read-body.ts). The same checks as `readSymbolTable`, on
 * codes rather than values: a module of many small functions reads one table per function.
 */
export function readFunctionSymbolTable(ctx: ModuleContext, s: FunctionScope): void {
  const r: BinaryReader = ctx.r;
  const { row, limits } = ctx;
  let typeNamesPlaneIndex: number | undefined;
  const typeNames = TYPE_NAMES;
  const interner = ctx.names;
  const filter = PLANE_NAMES;
  // (Setting an array's length is a runtime call: only when there is something to drop.)
  if (typeNames.length !== 0) typeNames.length = 0;
  s.beginSymbolTable();
  // Whether names go through LLVM's naming (a local, not a call per entry: see symbol-naming.ts).
  let clash = s.namesClash;
  if (!row.typeDerivedFromValue) readNamedTypes(ctx, s.types, typeNames);
  while (!r.atEnd()) {
    const at = r.pos;
    const count = r.checkCount(r.vbr32(), 2, limits.maxSymbolTableEntries, 'symbol table entries', at);
    const planeId = readTypeId(r, row);
    if (planeId === TYPE_TYPE) {
      typeNamesPlaneIndex ??= s.symbolPlaneCount;
      readTypeTypePlane(ctx, s.types, count, typeNames);
      continue;
    }
    const type = s.types.at(r, planeId, at);
    if (!clash) {
      if (s.hasSymbolPlane(type)) {
        s.startNaming(undefined, s.symbolCodeCount);
        clash = true;
      } else filter.beginPlane(count);
    }
    const codes = s.symbolPlane(type, count);
    let k = s.symbolCodeCount;
    // Labels are the body's blocks: every block exists once the instructions are read.
    const plane = type.kind === 'label' || count === 0 ? null : s.plane(type);
    for (let i = 0; i < count; i++) {
      const eat = r.pos;
      const slot = r.vbr32();
      const code = plane === null ? (slot < s.completedBlocks ? slot * 4 + TAG_BLOCK : -1) : plane.code(slot);
      if (code < 0) notDefined(r, slot, type, eat);
      let name = readName(ctx);
      if (!clash && filter.repeats(name, interner.lastHash)) {
        s.startNaming(type, k);
        clash = true;
      }
      if (clash) name = s.nameOfEntry(code, type, name);
      if ((code & 3) !== TAG_VALUE) s.addName(code, name);
      else {
        const v = s.valueOfCode(code);
        if (isModuleNamed(v)) (ctx.lateNames ??= []).push(v, name);
        else nameValue(v, name);
      }
      codes[k++] = code;
    }
    s.endSymbolPlane(k);
  }
  s.endSymbolTable(typeNamesPlaneIndex, typeNames.length === 0 ? undefined : typeNames.slice());
}

/** The type names of the function symbol table being read (emptied for each table). */
const TYPE_NAMES: string[] = [];

function notDefined(r: BinaryReader, slot: number, type: Type, offset: number): never {
  return r.fail(`symbol table names slot ${slot} of type ${describeType(type)}, which is not defined`, offset);
}

/** The list of named types of v2+ tables (its names go to `typeNames`). */
function readNamedTypes(ctx: ModuleContext, types: TypeTable, typeNames: string[]): void {
  const r: BinaryReader = ctx.r;
  const at = r.pos;
  const n = r.checkCount(r.vbr32(), 2, ctx.limits.maxSymbolTableEntries, 'named types', at);
  for (let i = 0; i < n; i++) {
    const t = types.read(r, ctx.row);
    nameType(ctx, typeNames, t, readName(ctx));
  }
}

/** v0–v1: the type-type plane names types; its slots are type ids in the old numbering. */
function readTypeTypePlane(ctx: ModuleContext, types: TypeTable, count: number, typeNames: string[]): void {
  const r: BinaryReader = ctx.r;
  for (let i = 0; i < count; i++) {
    const eat = r.pos;
    const id = normalizeTypeId(ctx.row, r.vbr32());
    const t = types.at(r, id === 'typeType' ? TYPE_TYPE : id, eat);
    nameType(ctx, typeNames, t, readName(ctx));
  }
}

function nameType(ctx: ModuleContext, typeNames: string[], t: Type, name: string): void {
  typeNames.push(name);
  if (!ctx.module.typeNames.has(name)) ctx.module.typeNames.set(name, t);
}

function readName(ctx: ModuleContext): string {
  const r: BinaryReader = ctx.r;
  const at = r.pos;
  const len = r.vbr32();
  if (len > ctx.limits.maxStringLength) r.fail(`a name of ${len} bytes exceeds the limit of ${ctx.limits.maxStringLength}`, at);
  const start = r.pos;
  // (bytesView only to fail with the reader's own message: a view per name cost more than the name.)
  if (len > r.end - start) r.bytesView(len, 'a name');
  r.pos = start + len;
  return ctx.names.name(r.bytes, start, start + len);
}
