/**
 * Version 7's global type block (r36867 `outputTypes`/`outputType`): a count, then each type from
 * slot 4 on as its type id (void 0, float 1, double 2, label 3, integer 4, function 5, struct 6,
 * packed struct 7, array 8, pointer 9, opaque 10, vector 11) and its fields. Function types end
 * with their parameter-attribute list.
 *
 * Why its own: the mirror of `decode/v7/types.ts` (r36867's type ids).
 */
import type { Type } from '../../graph/type.js';
import { CONVERT_FIRST, EncodeError } from '../encode-error.js';
import type { V7EncodeContext } from './context.js';
import { typeSlotOf, writeTypeId } from '../context.js';
import { V7_FIRST_WRITTEN_TYPE_SLOT } from './slot-calculator.js';
import { V7_TYPE_IDS } from '../../format/version7.js';

export function writeV7Types(ctx: V7EncodeContext): void {
  const types = ctx.sc.types;
  ctx.out.vbr32(types.length - V7_FIRST_WRITTEN_TYPE_SLOT);
  for (let i = V7_FIRST_WRITTEN_TYPE_SLOT; i < types.length; i++) writeType(ctx, types[i]!);
}

function writeType(ctx: V7EncodeContext, t: Type): void {
  const out = ctx.out;
  const id = V7_TYPE_IDS;
  switch (t.kind) {
    case 'integer':
      out.vbr32(id.integer).vbr32(t.bits);
      return;
    case 'function': {
      out.vbr32(id.function);
      writeTypeId(ctx, typeSlotOf(ctx, t.returnType));
      out.vbr32(t.params.length + (t.isVarArg ? 1 : 0));
      for (const p of t.params) writeTypeId(ctx, typeSlotOf(ctx, p));
      if (t.isVarArg) writeTypeId(ctx, id.void);
      const attrs = t.paramAttributes ?? [];
      out.vbr32(attrs.length);
      for (const a of attrs) out.vbr32(a.index).vbr32(a.attributes);
      return;
    }
    case 'struct':
      out.vbr32(t.isPacked === true ? id.packedStruct : id.struct);
      for (const e of t.elements) writeTypeId(ctx, typeSlotOf(ctx, e));
      writeTypeId(ctx, id.void);
      return;
    case 'array':
    case 'packed':
      out.vbr32(t.kind === 'array' ? id.array : id.vector);
      writeTypeId(ctx, typeSlotOf(ctx, t.element));
      out.vbr32(t.length);
      return;
    case 'pointer':
      out.vbr32(id.pointer);
      writeTypeId(ctx, typeSlotOf(ctx, t.element));
      return;
    case 'opaque':
      out.vbr32(id.opaque);
      return;
    case 'void':
    case 'float':
    case 'double':
    case 'label':
      out.vbr32(id[t.kind]);
      return;
    default:
      throw new EncodeError(`the ${t.kind} type`, ctx.row.version, CONVERT_FIRST);
  }
}
