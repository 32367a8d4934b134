/**
 * Version 7's symbol tables (r36867 `outputTypeSymbolTable`, `outputValueSymbolTable`): named
 * types in their own block (id 9, by name, as `std::map` kept them) and named values in planes by
 * type, without a type plane. LLVM took the plane order from a `DenseMap` keyed by `Type*` and the
 * order within a plane from a `StringMap`, both hash orders; the reader records the file's order
 * (`SymbolTableLayout`) and we follow it, else planes in type-slot order and names sorted.
 *
 * Why its own: the mirror of `decode/v7/symbol-tables.ts` (a type symbol table block, hash
 * orders of `DenseMap` and `StringMap`).
 */
import type { Type } from '../../graph/type.js';
import type { SymbolTableLayout, Value } from '../../graph/value.js';
import { EncodeError } from '../encode-error.js';
import { nameOf, symbolPlanes, typeNameOrder } from '../symbol-order.js';
import type { V7EncodeContext } from './context.js';
import { slotOf, typeSlotOf, writeTypeId } from '../context.js';
import { stringMapOrder } from './string-map-order.js';

export function writeV7TypeSymbolTable(ctx: V7EncodeContext, typeNames: ReadonlyMap<string, Type>): void {
  if (typeNames.size === 0) return;
  const out = ctx.out;
  out.beginBlock(ctx.row.blockIds.typeSymbolTable!, false);
  const entries = typeNameOrder(typeNames);
  out.vbr32(entries.length);
  for (const { name, type } of entries) {
    writeTypeId(ctx, typeSlotOf(ctx, type));
    out.string(name);
  }
  out.endBlock({ elideIfEmpty: true });
}

/**
 * Without a recorded layout: each plane's names in LLVM's StringMap order (`values` in the order
 * they were named), the planes by type slot (LLVM's came in `Type*` address order, which nothing
 * can reproduce).
 */
function stringMapLayout(named: readonly Value[], rank: (t: Type) => number): SymbolTableLayout {
  const byName = new Map<string, Value>();
  for (const v of named) if (!byName.has(nameOf(v))) byName.set(nameOf(v), v);
  const planes = new Map<Type, Value[]>();
  for (const name of stringMapOrder([...byName.keys()])) {
    const v = byName.get(name)!;
    let plane = planes.get(v.type);
    if (plane === undefined) planes.set(v.type, (plane = []));
    plane.push(v);
  }
  const valuePlanes = [...planes].map(([type, values]) => ({ type, values }));
  valuePlanes.sort((a, b) => rank(a.type) - rank(b.type));
  return { valuePlanes };
}

export function writeV7ValueSymbolTable(ctx: V7EncodeContext, values: readonly Value[], layout: SymbolTableLayout | undefined): void {
  const named = values.filter((v) => nameOf(v) !== '');
  if (named.length === 0) return;
  const out = ctx.out;
  out.beginBlock(ctx.row.blockIds.symbolTable!, false);
  const rank = (t: Type): number => {
    const s = ctx.sc.typeSlot(t);
    return s < 0 ? Number.MAX_SAFE_INTEGER : s;
  };
  const seen = new Set<string>();
  for (const plane of symbolPlanes(named, layout ?? stringMapLayout(named, rank), rank)) {
    out.vbr32(plane.entries.length);
    writeTypeId(ctx, typeSlotOf(ctx, plane.type));
    for (const { name, value } of plane.entries) {
      // One table per scope: a name names one value, whatever its type.
      if (seen.has(name)) throw new EncodeError(`two values named "${name}" in one scope`, ctx.row.version);
      seen.add(name);
      out.vbr32(slotOf(ctx, value));
      out.string(name);
    }
  }
  out.endBlock({ elideIfEmpty: true });
}
