/**
 * Symbol table blocks: named types (module only), then each plane of named values. Version 7
 * (r36867 `outputTypeSymbolTable`, `outputValueSymbolTable`) keeps named types in a block of
 * their own (`blockIds.typeSymbolTable`) and a scope's value names in one `StringMap`
 * (`valueNamesInStringMap`): one value per name, and LLVM's hash order when no layout is recorded.
 */
import type { Type } from '../graph/type.js';
import type { Function, SymbolTableLayout, Value } from '../graph/value.js';
import { namedConstantsOfBody, TAG_BLOCK, TAG_VALUE, typeOfCode, type CompactBody } from './body-view.js';
import type { EncodeContext, ModuleEncodeContext } from './context.js';
import { beginBlock, endBlock, slotOf, typeSlotOf, writeTypeId } from './context.js';
import { EncodeError, notInModule } from './encode-error.js';
import { writeLaidOutFunctionSymbolTable } from './laid-out-symbol-table.js';
import { nameOf, symbolPlanesOf, typeNameOrder, type NamedValue } from './symbol-order.js';
import { stringMapOrder } from './v7/string-map-order.js';

/** LLVM kept one value per name and type; a reader could not tell two apart. */
function checkUniqueNames(ctx: ModuleEncodeContext, entries: readonly { name: string }[]): void {
  // Entries are nearly always in strictly increasing order, which proves the names distinct.
  let i = 1;
  while (i < entries.length && entries[i - 1]!.name < entries[i]!.name) i++;
  if (i >= entries.length) return;
  const seen = new Set<string>();
  for (const { name } of entries) {
    if (seen.has(name)) throw new EncodeError(`two values named "${name}" of one type`, ctx.row.version);
    seen.add(name);
  }
}

/** A symbol table of graph values (the module's; in version 7 a function's too). */
export function writeSymbolTable(
  ctx: ModuleEncodeContext,
  typeNames: ReadonlyMap<string, Type>,
  values: readonly Value[],
  layout: SymbolTableLayout | undefined,
): void {
  const named: NamedValue<Value>[] = [];
  for (const value of values) {
    const name = nameOf(value);
    if (name !== '') named.push({ value, type: value.type, name });
  }
  writeSymbolTableOf(ctx, typeNames, named, layout?.valuePlanes, layout?.typeNamesPlaneIndex, (v) => slotOf(ctx, v));
}

/**
 * A function's symbol table, from its body (see body-view.ts): its named arguments, blocks and
 * instructions in body order, then the constants its layout names (LLVM 1.0–1.2).
 */
export function writeFunctionSymbolTable(ctx: EncodeContext, f: Function, body: CompactBody | undefined): void {
  // A body read with its symbol table's layout (the common case) has a faster path.
  if (body?.layout !== undefined && writeLaidOutFunctionSymbolTable(ctx, f, body)) return;
  const named: NamedValue<Value | number>[] = [];
  for (const a of f.args) if (a.name) named.push({ value: a, type: a.type, name: a.name });
  if (body !== undefined) {
    const order = bodyOrder(body);
    // A damaged file may name one value twice: the later name is the value's (as reading it
    // gave), so only that entry is written.
    const lastEntry = new Map<number, number>();
    body.nameCodes.forEach((code, e) => lastEntry.set(code, e));
    for (let j = 0; j < order.length; j++) {
      const e = order[j]!;
      const name = body.names[e]!;
      if (name === '') continue;
      const code = body.nameCodes[e]!;
      if (lastEntry.get(code) !== e) continue;
      named.push({ value: code, type: typeOfCode(body, code)!, name });
    }
    for (const c of namedConstantsOfBody(body)) named.push({ value: c, type: c.type, name: nameOf(c) });
  }
  const layout = body?.layout;
  // Tag-0 codes name values (a value may have several codes); the others the body's own.
  const keyOf = (code: number): Value | number => (code >= 0 && (code & 3) === TAG_VALUE ? body!.values[code >>> 2]! : code);
  const planes = layout?.valuePlanes.map((p) => ({ type: p.type, values: p.codes.map(keyOf) }));
  writeSymbolTableOf(ctx, NO_TYPE_NAMES, named, planes, layout?.typeNamesPlaneIndex, (k) => {
    if (typeof k !== 'number') return slotOf(ctx, k);
    const s = ctx.sc.codeSlot(k);
    if (s < 0) throw notInModule('a named value of the body', ctx.row.version);
    return s;
  });
}

export const NO_TYPE_NAMES: ReadonlyMap<string, Type> = new Map<string, Type>();

/** Version 7's type symbol table block: the named types, by name (a `std::map`). */
export function writeTypeSymbolTable(ctx: ModuleEncodeContext, typeNames: ReadonlyMap<string, Type>): void {
  if (typeNames.size === 0) return;
  const out = ctx.out;
  beginBlock(ctx, 'typeSymbolTable');
  const entries = typeNameOrder(typeNames);
  out.vbr32(entries.length);
  for (const { name, type } of entries) {
    writeTypeId(ctx, typeSlotOf(ctx, type));
    out.string(name);
  }
  endBlock(ctx, true);
}

/**
 * Version 7 without a recorded layout: each plane's names in LLVM's StringMap order (`named` in
 * the order the values were named), the planes by type slot (LLVM's came in `Type*` address
 * order, which nothing can reproduce).
 */
function stringMapLayout<K>(named: readonly NamedValue<K>[], rank: (t: Type) => number): { type: Type; values: K[] }[] {
  const byName = new Map<string, NamedValue<K>>();
  for (const v of named) if (!byName.has(v.name)) byName.set(v.name, v);
  const planes = new Map<Type, K[]>();
  for (const name of stringMapOrder([...byName.keys()])) {
    const v = byName.get(name)!;
    let plane = planes.get(v.type);
    if (plane === undefined) planes.set(v.type, (plane = []));
    plane.push(v.value);
  }
  const valuePlanes = [...planes].map(([type, values]) => ({ type, values }));
  valuePlanes.sort((a, b) => rank(a.type) - rank(b.type));
  return valuePlanes;
}

/** The entries of `body.nameCodes`, in the order the body holds their values (blocks before their instructions). */
function bodyOrder(body: CompactBody): number[] {
  const codes = body.nameCodes;
  const order = codes.map((_, e) => e);
  const n = body.instructionCount;
  // Position in the body: block b before its first instruction, instruction i after its block.
  const position = (code: number): number => {
    const index = code >>> 2;
    if ((code & 3) === TAG_BLOCK) return 2 * (index === 0 ? 0 : body.data[2 * n + index - 1]!);
    return 2 * index + 1;
  };
  const pos = codes.map(position);
  let sorted = true;
  for (let e = 1; e < pos.length && sorted; e++) if (pos[e - 1]! > pos[e]!) sorted = false;
  if (!sorted) order.sort((a, b) => pos[a]! - pos[b]! || a - b);
  return order;
}

function writeSymbolTableOf<K>(
  ctx: ModuleEncodeContext,
  typeNames: ReadonlyMap<string, Type>,
  named: readonly NamedValue<K>[],
  layoutPlanes: readonly { type: Type; values: readonly K[] }[] | undefined,
  typeNamesPlaneIndex: number | undefined,
  slotOfKey: (k: K) => number,
): void {
  // LLVM 1.2+ skips an empty table; LLVM 1.0/1.1 wrote an empty block.
  if (named.length === 0 && typeNames.size === 0 && ctx.row.elidesEmptyBlocks) return;
  const { out, sc } = ctx;
  beginBlock(ctx, 'symbolTable');
  const types = typeNameOrder(typeNames);
  const typeType = ctx.row.typeTypePlaneId;
  const writeTypeNames = (): void => {
    for (const { name, type } of types) {
      writeTypeId(ctx, typeSlotOf(ctx, type));
      out.string(name);
    }
  };
  if (typeType === null && ctx.row.blockIds.typeSymbolTable === null) {
    out.vbr32(types.length);
    writeTypeNames();
  }
  const rank = (t: Type): number => {
    const s = sc.typeSlot(t);
    return s < 0 ? Number.MAX_SAFE_INTEGER : s;
  };
  const stringMap = ctx.row.valueNamesInStringMap;
  const planes = symbolPlanesOf(named, layoutPlanes ?? (stringMap ? stringMapLayout(named, rank) : undefined), rank);
  const scopeNames = stringMap ? new Set<string>() : undefined;
  // Versions 0–1: the type names are the type-type plane, wherever LLVM's map put it (recorded
  // by the reader; otherwise by its id, as the other planes).
  let typePlaneAt = -1;
  if (typeType !== null && types.length !== 0) {
    typePlaneAt = typeNamesPlaneIndex ?? planes.findIndex((p) => rank(p.type) >= typeType);
    if (typePlaneAt < 0 || typePlaneAt > planes.length) typePlaneAt = planes.length;
  }
  for (let i = 0; i <= planes.length; i++) {
    if (i === typePlaneAt) {
      out.vbr32(types.length);
      out.vbr32(typeType!);
      writeTypeNames();
    }
    const plane = planes[i];
    if (plane === undefined) break;
    if (scopeNames === undefined) checkUniqueNames(ctx, plane.entries);
    out.vbr32(plane.entries.length);
    writeTypeId(ctx, typeSlotOf(ctx, plane.type));
    for (const { name, value } of plane.entries) {
      if (scopeNames !== undefined) {
        // One table per scope: a name names one value, whatever its type.
        if (scopeNames.has(name)) throw new EncodeError(`two values named "${name}" in one scope`, ctx.row.version);
        scopeNames.add(name);
      }
      out.vbr32(slotOfKey(value));
      out.string(name);
    }
  }
  endBlock(ctx, ctx.row.elidesEmptyBlocks);
}
