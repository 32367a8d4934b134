/**
 * What every part of the version-7 writer shares: the output, the slot numbering, the format row.
 *
 * Why its own: the version-7 writer's context holds r36867's slot calculator, not 1.9's. The
 * helpers that number and write slots and type ids are the shared ones (`../context.ts`: the
 * row says how a type id is written; version 7's has no type-type plane and escapes ids of 2^24
 * - 1 and above, as versions 3–6 did).
 */
import type { FormatRow } from '../../format/format-table.js';
import type { BinaryWriter } from '../../binary/writer.js';
import type { OpcodeNumbers } from '../context.js';
import type { V7SlotCalculator } from './slot-calculator.js';

export interface V7EncodeContext {
  readonly out: BinaryWriter;
  readonly sc: V7SlotCalculator;
  readonly row: FormatRow;
  readonly opcodes: OpcodeNumbers;
}
