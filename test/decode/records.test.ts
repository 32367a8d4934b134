/**
 * The record readers every walk shares (decode/instruction-record.ts, decode/plane-records.ts):
 * they read the fields as stored, at the offsets they were stored, and leave every check of
 * meaning to the consumer, in the order its reader asked.
 */
import { describe, expect, it } from 'vitest';
import { readInstructionRecord, wordOperands, wordTypeSlot } from '../../src/decode/instruction-record.js';
import { plainName, readPlanes, readSymbolEntries, readSymbolPlanes } from '../../src/decode/plane-records.js';
import { BytecodeReader } from '../../src/decode/reader.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';

const reader = (...bytes: number[]): BytecodeReader => new BytecodeReader(Uint8Array.from(bytes), 0, bytes.length);
const word = (w: number): number[] => [w & 255, (w >>> 8) & 255, (w >>> 16) & 255, w >>> 24];
const noCheck = (): void => {};

describe('instruction records', () => {
  it('reads the three one-word formats: 12, 8 or 6 bits of type slot and their operands', () => {
    // format 1: opcode 1 (br), type 3, operand 7
    const w1 = 1 | (1 << 2) | (3 << 8) | (7 << 20);
    expect(wordTypeSlot(w1)).toBe(3);
    expect(wordOperands(w1)).toEqual([7]);
    // format 1 with the "no operand" value 4095
    expect(wordOperands(1 | (4095 << 20))).toEqual([]);
    // format 2: type 200, operands 17 and 255
    const w2 = 2 | (6 << 2) | (200 << 8) | (17 << 16) | (255 << 24);
    expect(wordTypeSlot(w2)).toBe(200);
    expect(wordOperands(w2)).toEqual([17, 255]);
    // format 3: type 63, operands 1, 2, 63
    const w3 = (3 | (35 << 2) | (63 << 8) | (1 << 14) | (2 << 20) | (63 << 26)) >>> 0;
    expect(wordTypeSlot(w3)).toBe(63);
    expect(wordOperands(w3)).toEqual([1, 2, 63]);
    const r = reader(0, 0, ...word(w3));
    r.pos = 2;
    expect(readInstructionRecord(r, noCheck)).toEqual({ at: 2, format: 3, opcode: 35, typeSlot: 63, operands: [1, 2, 63] });
    expect(r.pos).toBe(6);
  });

  it('reads the long form as VBRs and shows its operand count to the consumer before any operand', () => {
    // opcode word 6 << 2, type slot 200 (two bytes), 2 operands: 300 (two bytes) and 1
    const r = reader(24, 0xc8, 0x01, 2, 0xac, 0x02, 1);
    const seen: number[][] = [];
    const rec = readInstructionRecord(r, (n, at) => seen.push([n, at, r.pos]));
    expect(rec).toEqual({ at: 0, format: 0, opcode: 6, typeSlot: 200, operands: [300, 1] });
    expect(seen).toEqual([[2, 0, 4]]);
    expect(r.pos).toBe(7);
  });

  it('reads a whole word first, as LLVM did: a long record shorter than 4 bytes fails there', () => {
    expect(() => readInstructionRecord(reader(24, 1, 1), noCheck)).toThrow(BytecodeError);
  });

  it('lets the consumer refuse a count before the operands are read', () => {
    const r = reader(24, 1, 0, 9, 9, 9);
    expect(() =>
      readInstructionRecord(r, (n, at) => {
        if (n === 0) r.fail('zero operands', at);
      }),
    ).toThrow(/zero operands/);
  });
});

describe('plane records', () => {
  it('walks planes of [count][type id] to the end of the block, each with its header offset', () => {
    // plane: 2 records of type 5 (records: 1, 2); plane: 1 record of type 7 (record: 3)
    const r = reader(2, 5, 1, 2, 1, 7, 3);
    const planes: number[][] = [];
    readPlanes(r, {
      planeId: (r) => r.vbr32(),
      plane: (n, id, at) => {
        const records: number[] = [];
        for (let i = 0; i < n; i++) records.push(r.vbr32());
        planes.push([at, n, id, ...records]);
      },
    });
    expect(planes).toEqual([
      [0, 2, 5, 1, 2],
      [4, 1, 7, 3],
    ]);
  });

  it('shows a plane count to the consumer before its type id is read', () => {
    const r = reader(9, 5);
    const order: string[] = [];
    expect(() =>
      readPlanes(r, {
        count: (n, at) => {
          order.push(`count ${n} at ${at}, next byte ${r.pos}`);
          r.fail('too many', at);
        },
        planeId: (r) => (order.push('planeId'), r.vbr32()),
        plane: () => order.push('plane'),
      }),
    ).toThrow(/too many/);
    expect(order).toEqual(['count 9 at 0, next byte 1']);
  });

  it('reads symbol table planes as [slot][name] entries, each at its own offset', () => {
    // plane: 2 entries of type 4: slot 0 "ab", slot 3 "c"
    const r = reader(2, 4, 0, 2, 97, 98, 3, 1, 99);
    const got: unknown[] = [];
    readSymbolPlanes(r, {
      planeId: (r) => r.vbr32(),
      plane: (n, id, at) => got.push(['plane', n, id, at]),
      name: plainName,
      entry: (slot, name, at) => got.push([slot, name, at]),
    });
    expect(got).toEqual([
      ['plane', 2, 4, 0],
      [0, 'ab', 2],
      [3, 'c', 6],
    ]);
  });

  it('reads a counted list of entries (named types) alone', () => {
    const r = reader(13, 1, 120, 14, 1, 121);
    const got: unknown[] = [];
    readSymbolEntries(r, 2, plainName, (slot, name, at) => got.push([slot, name, at]));
    expect(got).toEqual([
      [13, 'x', 0],
      [14, 'y', 3],
    ]);
  });
});
