/** Symbol table blocks: named types (module only), then each plane of named values. */
import type { Type } from '../graph/type.js';
import type { SymbolTableLayout, Value } from '../graph/value.js';
import type { EncodeContext } from './context.js';
import { beginBlock, endBlock, slotOf, typeSlotOf, writeTypeId } from './context.js';
import { EncodeError } from './encode-error.js';
import { nameOf, symbolPlanes, typeNameOrder } from './symbol-order.js';

/** LLVM kept one value per name and type; a reader could not tell two apart. */
function checkUniqueNames(ctx: EncodeContext, entries: readonly { name: string }[]): void {
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

export function writeSymbolTable(
  ctx: EncodeContext,
  typeNames: ReadonlyMap<string, Type>,
  values: readonly Value[],
  layout: SymbolTableLayout | undefined,
): void {
  const named = values.filter((v) => nameOf(v) !== '');
  if (named.length === 0 && typeNames.size === 0) return; // LLVM skips an empty table
  const { out, sc } = ctx;
  beginBlock(ctx, 'symbolTable');
  const types = typeNameOrder(typeNames);
  out.vbr32(types.length);
  for (const { name, type } of types) {
    writeTypeId(out, typeSlotOf(ctx, type));
    out.string(name);
  }
  const rank = (t: Type): number => {
    const s = sc.typeSlot(t);
    return s < 0 ? Number.MAX_SAFE_INTEGER : s;
  };
  for (const plane of symbolPlanes(named, layout, rank)) {
    checkUniqueNames(ctx, plane.entries);
    out.vbr32(plane.entries.length);
    writeTypeId(out, typeSlotOf(ctx, plane.type));
    for (const { name, value } of plane.entries) {
      out.vbr32(slotOf(ctx, value));
      out.string(name);
    }
  }
  endBlock(ctx, true);
}
