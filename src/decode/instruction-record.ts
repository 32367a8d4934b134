/**
 * One instruction record as every version stores it (docs/format.md §11): a 32-bit word whose low
 * two bits say how many small operands it holds (formats 1–3), or, when they are 0, VBRs for the
 * opcode word, the type slot, the operand count and each operand. What the fields mean (which
 * opcode, which plane an operand is in) is the consumer's: the analyzer (both walks) reads the
 * record here and then applies its reader's rules.
 *
 * Version 7's graph builder (`v7/instructions.ts`) reads its records here too, into a record it
 * reuses (`readInstructionInto`). The version 0–6 builder reads the same layout inline in the
 * read's hottest loop (`instructions.ts`: into a reused operand buffer, the word as two 16-bit
 * halves, a whole word from bit 30 up being a heap number to V8, the type id as `types.ts` reads
 * one), which `dis` of a big file depends on; `wordTypeSlot` and `wordOperands` are the layout it
 * follows, bit for bit.
 */
import type { BytecodeReader } from './reader.js';

/** Format-1 operand value meaning "no operand". */
export const NO_WORD_OPERAND = 4095;

/** The type slot of a one-word instruction (formats 1–3: 12, 8 or 6 bits after the opcode). */
export function wordTypeSlot(word: number): number {
  const format = word & 3;
  return format === 1 ? (word >>> 8) & 4095 : format === 2 ? (word >>> 8) & 255 : (word >>> 8) & 63;
}

/** The operands of a one-word instruction: one of 12 bits (4095 = none), two of 8, three of 6. */
export function wordOperands(word: number): number[] {
  switch (word & 3) {
    case 1: {
      const o = (word >>> 20) & 4095;
      return o === NO_WORD_OPERAND ? [] : [o];
    }
    case 2:
      return [(word >>> 16) & 255, (word >>> 24) & 255];
    default:
      return [(word >>> 14) & 63, (word >>> 20) & 63, (word >>> 26) & 63];
  }
}

export interface InstructionRecord {
  /** Stream offset of the record's first byte. */
  readonly at: number;
  /** The encoding: 0 (VBRs) or 1–3 (one word). */
  readonly format: number;
  /** The opcode number as stored (the row's numbering). */
  readonly opcode: number;
  /** The type slot as stored (not normalized: a v0–v1 consumer drops the type-type plane itself). */
  readonly typeSlot: number;
  /** A new array for each record (a consumer may keep it). */
  readonly operands: number[];
}

/** A record a consumer reads instruction after instruction into (`readInstructionInto`): no object per instruction. */
export interface InstructionFields {
  at: number;
  format: number;
  opcode: number;
  typeSlot: number;
  operands: number[];
}

/**
 * Reads one instruction record at the reader's position. The whole word is read first, as every
 * LLVM reader did (a record shorter than 4 bytes fails there, even in the VBR form). `checkCount`
 * sees a long record's operand count before any operand is read (the consumer's limits and
 * messages: LLVM 1.9 refused 0 with its own words, the graph builder its documented limit). No
 * padding is skipped: versions that aligned a long record say so in the row, and the consumer
 * counts and checks the padding as its reader did.
 */
export function readInstructionRecord(r: BytecodeReader, checkCount: (n: number, at: number) => void): InstructionRecord {
  const record: InstructionFields = { at: 0, format: 0, opcode: 0, typeSlot: 0, operands: EMPTY };
  readInstructionInto(r, checkCount, record);
  return record;
}

const EMPTY: number[] = [];

/** `readInstructionRecord`, into a record the consumer reuses. */
export function readInstructionInto(r: BytecodeReader, checkCount: (n: number, at: number) => void, into: InstructionFields): void {
  const at = r.pos;
  const word = r.uint32();
  const format = word & 3;
  into.at = at;
  into.format = format;
  // One switch on the format (not `wordTypeSlot` and `wordOperands`, a switch each): version 7's
  // builder reads every instruction here.
  switch (format) {
    case 1: {
      into.opcode = (word >>> 2) & 63;
      into.typeSlot = (word >>> 8) & 4095;
      const o = (word >>> 20) & 4095;
      into.operands = o === NO_WORD_OPERAND ? [] : [o];
      return;
    }
    case 2:
      into.opcode = (word >>> 2) & 63;
      into.typeSlot = (word >>> 8) & 255;
      into.operands = [(word >>> 16) & 255, (word >>> 24) & 255];
      return;
    case 3:
      into.opcode = (word >>> 2) & 63;
      into.typeSlot = (word >>> 8) & 63;
      into.operands = [(word >>> 14) & 63, (word >>> 20) & 63, (word >>> 26) & 63];
      return;
  }
  r.pos = at;
  into.opcode = r.vbr32() >>> 2;
  into.typeSlot = r.vbr32();
  const n = r.vbr32();
  checkCount(n, at);
  const operands: number[] = [];
  for (let i = 0; i < n; i++) operands.push(r.vbr32());
  into.operands = operands;
}
