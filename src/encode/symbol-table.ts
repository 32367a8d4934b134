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
  if (typeType === null) {
    out.vbr32(types.length);
    writeTypeNames();
  }
  const rank = (t: Type): number => {
    const s = sc.typeSlot(t);
    return s < 0 ? Number.MAX_SAFE_INTEGER : s;
  };
  const planes = symbolPlanes(named, layout, rank);
  // Versions 0–1: the type names are the type-type plane, wherever LLVM's map put it (recorded
  // by the reader; otherwise by its id, as the other planes).
  let typePlaneAt = -1;
  if (typeType !== null && types.length !== 0) {
    typePlaneAt = layout?.typeNamesPlaneIndex ?? planes.findIndex((p) => rank(p.type) >= typeType);
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
    checkUniqueNames(ctx, plane.entries);
    out.vbr32(plane.entries.length);
    writeTypeId(ctx, typeSlotOf(ctx, plane.type));
    for (const { name, value } of plane.entries) {
      out.vbr32(slotOf(ctx, value));
      out.string(name);
    }
  }
  endBlock(ctx, ctx.row.elidesEmptyBlocks);
}
