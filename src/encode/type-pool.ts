/** Type definitions: the module's global type block and (older writers) function type planes. */
import { primitiveKindId, type Type } from '../graph/type.js';
import type { EncodeContext } from './context.js';
import { fileTypeId, typeSlotOf, writeTypeId } from './context.js';
import { EncodeError } from './encode-error.js';

/**
 * LLVM 1.3–1.9 type ids of the derived kinds, written before each definition (in versions 0–1
 * one higher, like every id from the type type on: see `fileTypeId`).
 */
const DERIVED_TYPE_ID = { function: 13, struct: 14, array: 15, pointer: 16, opaque: 17, packed: 18 } as const;

/**
 * Writes the visible types from `start` on: a count, then each definition. In versions 0–1 the
 * types are the values of the type-type plane, written like any constant plane: nothing when
 * empty, else the count, the plane's id (the type type) and the entries.
 */
export function writeTypes(ctx: EncodeContext, start: number): void {
  const types = ctx.sc.visibleTypes;
  const typeType = ctx.row.typeTypePlaneId;
  if (typeType !== null && types.length === start) return;
  ctx.out.vbr32(types.length - start);
  if (typeType !== null) ctx.out.vbr32(typeType);
  for (let i = start; i < types.length; i++) writeType(ctx, types[i]!);
}

function writeType(ctx: EncodeContext, t: Type): void {
  const out = ctx.out;
  switch (t.kind) {
    case 'function':
      if (t.paramAttributes !== undefined && t.paramAttributes.length !== 0) {
        throw new EncodeError('parameter attributes on a function type', ctx.row.version, 'they came with version 7');
      }
      out.vbr32(fileTypeId(ctx, DERIVED_TYPE_ID.function));
      writeTypeId(ctx, typeSlotOf(ctx, t.returnType));
      out.vbr32(t.params.length + (t.isVarArg ? 1 : 0));
      for (const p of t.params) writeTypeId(ctx, typeSlotOf(ctx, p));
      if (t.isVarArg) writeTypeId(ctx, 0);
      return;
    case 'struct':
      if (t.isPacked === true) throw new EncodeError('a packed struct type', ctx.row.version, 'packed structs came with version 7');
      out.vbr32(fileTypeId(ctx, DERIVED_TYPE_ID.struct));
      for (const e of t.elements) writeTypeId(ctx, typeSlotOf(ctx, e));
      writeTypeId(ctx, 0);
      return;
    case 'packed':
    case 'array':
      if (t.kind === 'packed' && !ctx.row.hasPackedAndAttributes) throw new EncodeError('a packed type', ctx.row.version);
      out.vbr32(fileTypeId(ctx, DERIVED_TYPE_ID[t.kind]));
      writeTypeId(ctx, typeSlotOf(ctx, t.element));
      out.vbr32(t.length);
      return;
    case 'pointer':
      out.vbr32(fileTypeId(ctx, DERIVED_TYPE_ID.pointer));
      writeTypeId(ctx, typeSlotOf(ctx, t.element));
      return;
    case 'opaque':
      out.vbr32(fileTypeId(ctx, DERIVED_TYPE_ID.opaque));
      return;
    case 'integer':
      throw new EncodeError(`the i${t.bits} type`, ctx.row.version, 'versions 0–6 have signed and unsigned integer types, not signless ones');
    default:
      // A primitive in a type list (LLVM would write its id alone).
      out.vbr32(fileTypeId(ctx, primitiveKindId(t.kind)));
  }
}
