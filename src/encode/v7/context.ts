/**
 * What every part of the version-7 writer shares: the output, the slot numbering, the format row.
 *
 * Why its own: the version-7 writer's context holds r36867's slot calculator, not 1.9's.
 */
import type { FormatRow } from '../../format/format-table.js';
import { notInModule } from '../encode-error.js';
import type { Type } from '../../graph/type.js';
import type { Value } from '../../graph/value.js';
import type { BinaryWriter } from '../../binary/writer.js';
import type { OpcodeNumbers } from '../context.js';
import type { V7SlotCalculator } from './slot-calculator.js';

export interface V7EncodeContext {
  readonly out: BinaryWriter;
  readonly sc: V7SlotCalculator;
  readonly row: FormatRow;
  readonly opcodes: OpcodeNumbers;
}

/** A value's slot, which must exist (a missing slot is a value from elsewhere). */
export function slotOf(ctx: V7EncodeContext, v: Value): number {
  const s = ctx.sc.slotOf(v);
  if (s < 0) throw notInModule(`a value (${v.kind})`, ctx.row.version);
  return s;
}

/** A type's slot, which must exist. */
export function typeSlotOf(ctx: V7EncodeContext, t: Type): number {
  const s = ctx.sc.typeSlot(t);
  if (s < 0) throw notInModule(`a type (${t.kind})`, ctx.row.version);
  return s;
}

/** LLVM `output_typeid`: ids of 2^24 - 1 and above are escaped. */
export function writeTypeId(ctx: V7EncodeContext, id: number): void {
  if (id <= 0x00ffffff) ctx.out.vbr32(id);
  else ctx.out.vbr32(0x00ffffff).vbr32(id);
}

/** LLVM `Log2_32(x) + 1` as used for alignments (0 when x is 0). */
export function encodedAlignment(align: number): number {
  return align === 0 ? 0 : 32 - Math.clz32(align);
}
