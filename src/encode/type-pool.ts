/**
 * Type definitions: the module's global type block and (older writers) function type planes. The
 * id written before each definition is the row's (`FormatRow.typeIds`: LLVM 1.3's numbering in
 * versions 0–6, r36867's in version 7); version 7 adds integers of any width, packed structs and
 * parameter attributes.
 */
import type { Type } from '../graph/type.js';
import type { TypeIdKind } from '../format/format-table.js';
import type { ModuleEncodeContext } from './context.js';
import { fileTypeId, typeSlotOf, writeTypeId } from './context.js';
import { CONVERT_FIRST, EncodeError } from './encode-error.js';

/**
 * Writes the visible types from `start` on: a count, then each definition. In versions 0–1 the
 * types are the values of the type-type plane, written like any constant plane: nothing when
 * empty, else the count, the plane's id (the type type) and the entries.
 */
export function writeTypes(ctx: ModuleEncodeContext, start: number): void {
  const types = ctx.sc.visibleTypes;
  const typeType = ctx.row.typeTypePlaneId;
  if (typeType !== null && types.length === start) return;
  ctx.out.vbr32(types.length - start);
  if (typeType !== null) ctx.out.vbr32(typeType);
  for (let i = start; i < types.length; i++) writeType(ctx, types[i]!);
}

/** The id of a kind of type in the version being written, or an `EncodeError` saying why it has none. */
function typeId(ctx: ModuleEncodeContext, t: Type, kind: TypeIdKind): number {
  const id = ctx.row.typeIds[kind];
  if (id !== undefined) return fileTypeId(ctx, id);
  const version = ctx.row.version;
  if (kind === 'integer')
    throw new EncodeError(`the i${(t as { bits: number }).bits} type`, version, 'versions 0–6 have signed and unsigned integer types, not signless ones');
  if (kind === 'packedStruct') throw new EncodeError('a packed struct type', version, 'packed structs came with version 7');
  throw new EncodeError(`the ${t.kind} type`, version, CONVERT_FIRST);
}

function writeType(ctx: ModuleEncodeContext, t: Type): void {
  const out = ctx.out;
  switch (t.kind) {
    case 'function': {
      const attrs = t.paramAttributes ?? [];
      if (attrs.length !== 0 && !ctx.row.hasParameterAttributes) {
        throw new EncodeError('parameter attributes on a function type', ctx.row.version, 'they came with version 7');
      }
      out.vbr32(typeId(ctx, t, 'function'));
      writeTypeId(ctx, typeSlotOf(ctx, t.returnType));
      out.vbr32(t.params.length + (t.isVarArg ? 1 : 0));
      for (const p of t.params) writeTypeId(ctx, typeSlotOf(ctx, p));
      if (t.isVarArg) writeTypeId(ctx, 0);
      if (ctx.row.hasParameterAttributes) {
        out.vbr32(attrs.length);
        for (const a of attrs) out.vbr32(a.index).vbr32(a.attributes);
      }
      return;
    }
    case 'struct':
      out.vbr32(typeId(ctx, t, t.isPacked === true ? 'packedStruct' : 'struct'));
      for (const e of t.elements) writeTypeId(ctx, typeSlotOf(ctx, e));
      writeTypeId(ctx, 0);
      return;
    case 'packed':
    case 'array':
      if (t.kind === 'packed' && !ctx.row.hasPackedAndAttributes) throw new EncodeError('a packed type', ctx.row.version);
      out.vbr32(typeId(ctx, t, t.kind));
      writeTypeId(ctx, typeSlotOf(ctx, t.element));
      out.vbr32(t.length);
      return;
    case 'pointer':
      out.vbr32(typeId(ctx, t, 'pointer'));
      writeTypeId(ctx, typeSlotOf(ctx, t.element));
      return;
    case 'integer':
      out.vbr32(typeId(ctx, t, 'integer')).vbr32(t.bits);
      return;
    default:
      // The opaque type, or a primitive in a type list (LLVM would write its id alone).
      out.vbr32(typeId(ctx, t, t.kind));
  }
}
