/**
 * The constant reader every walk shares (decode/constant-record.ts): it reads a constant's fields
 * as the row stores them and hands each to the consumer in the order its reader read; the range
 * of an integer is checked here, the words of the refusal are the consumer's.
 */
import { describe, expect, it } from 'vitest';
import { readConstantRecord, readStringRecords, ValueLayout, type ConstantReading, type ConstantTexts } from '../../src/decode/constant-record.js';
import { BytecodeReader } from '../../src/decode/reader.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { formatFor } from '../../src/format/format-table.js';

const reader = (...bytes: number[]): BytecodeReader => new BytecodeReader(Uint8Array.from(bytes), 0, bytes.length);
const V4 = formatFor(4)!;
const V6 = formatFor(6)!;
const V7 = formatFor(7)!;
const TEXTS: ConstantTexts = { float: 'a float', asm: 'an asm string', constraints: 'constraints', string: 'a string constant' };

/** A consumer that records every hook call (name and arguments) and returns the call's name. */
function recorder(layout: ValueLayout, bits = 0, count = 0): { reading: ConstantReading<string>; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const hook =
    (name: string) =>
    (...args: unknown[]): string => {
      calls.push([name, ...args]);
      return name;
    };
  const reading: ConstantReading<string> = {
    texts: TEXTS,
    bits,
    count,
    valueLayout: (at) => {
      calls.push(['valueLayout', at]);
      return layout;
    },
    undef: hook('undef'),
    inlineAsmBegins: hook('inlineAsmBegins'),
    inlineAsm: hook('inlineAsm'),
    expressionCount: hook('expressionCount'),
    expressionOpcode: hook('expressionOpcode'),
    operandType: (r) => r.vbr32(),
    operand: hook('operand'),
    expressionOperands: hook('expressionOperands'),
    expression: hook('expression'),
    outOfRange: (value, at) => {
      throw new BytecodeError(`out of range: ${value}`, at, []);
    },
    smallInteger: hook('smallInteger'),
    integer: hook('integer'),
    wordCount: (n) => n,
    wideInteger: hook('wideInteger'),
    float: hook('float'),
    double: hook('double'),
    aggregate: hook('aggregate'),
    elementBegins: hook('elementBegins'),
    element: hook('element'),
    aggregateEnd: hook('aggregateEnd'),
    pointer: hook('pointer'),
    noValue: (at) => {
      throw new BytecodeError('no value', at, []);
    },
  };
  return { reading, calls };
}

describe('the leading count', () => {
  it('from version 5 on, 1 is undef and 0xFFFFFFFF inline asm (its strings, then its flags)', () => {
    const u = recorder(ValueLayout.None);
    expect(readConstantRecord(reader(1), V6, u.reading)).toBe('undef');
    const asm = recorder(ValueLayout.None);
    const r = reader(0xff, 0xff, 0xff, 0xff, 0x0f, 1, 0x61, 2, 0x3d, 0x72, 1);
    expect(readConstantRecord(r, V6, asm.reading)).toBe('inlineAsm');
    expect(asm.calls).toEqual([
      ['inlineAsmBegins', 0],
      ['inlineAsm', 'a', '=r', 1, 0],
    ]);
    expect(r.pos).toBe(11);
  });

  it('before version 5 there is no undef: 1 is an expression of one operand', () => {
    const { reading, calls } = recorder(ValueLayout.None);
    // one operand, opcode 31, operand slot 4 of type 7
    expect(readConstantRecord(reader(1, 31, 4, 7), V4, reading)).toBe('expression');
    expect(calls.map((c) => c[0])).toEqual(['expressionCount', 'expressionOpcode', 'operand', 'expressionOperands', 'expression']);
    expect(calls[0]).toEqual(['expressionCount', 1, 0]);
  });

  it('from version 5 on, an expression counts its operands plus one; each operand is [slot][type id], at its own offset', () => {
    const { reading, calls } = recorder(ValueLayout.None);
    expect(readConstantRecord(reader(3, 6, 4, 7, 5, 7), V6, reading)).toBe('expression');
    expect(calls).toEqual([
      ['expressionCount', 2, 0],
      ['expressionOpcode', 6, 2, 0],
      ['operand', 0, 4, 7, 2],
      ['operand', 1, 5, 7, 4],
      ['expressionOperands', 6, 2, 0],
      ['expression', 6, 2, -1, 6, 0],
    ]);
  });

  it("reads a comparison's predicate after its operands where the row's opcode is icmp or fcmp (version 7)", () => {
    const icmp = V7.opcodes.indexOf('icmp');
    const { reading, calls } = recorder(ValueLayout.None);
    const r = reader(3, icmp, 4, 8, 5, 8, 33);
    readConstantRecord(r, V7, reading);
    expect(calls[calls.length - 1]).toEqual(['expression', icmp, 2, 33, 6, 0]);
    expect(r.pos).toBe(7);
  });

  it('asks the layout only when a plain value follows (LLVM looked the type up only then)', () => {
    const { reading, calls } = recorder(ValueLayout.Unsigned32, 8);
    readConstantRecord(reader(1), V6, reading);
    expect(calls.some((c) => c[0] === 'valueLayout')).toBe(false);
  });
});

describe('plain values by layout', () => {
  it('checks an integer against its width, and lets the consumer word the refusal', () => {
    expect(readConstantRecord(reader(0, 0xff, 0x01), V6, recorder(ValueLayout.Unsigned32, 8).reading)).toBe('smallInteger');
    expect(() => readConstantRecord(reader(0, 0x80, 0x02), V6, recorder(ValueLayout.Unsigned32, 8).reading)).toThrow('out of range: 256');
    expect(() => readConstantRecord(reader(0, 2), V6, recorder(ValueLayout.Unsigned32, 1).reading)).toThrow('out of range: 2');
    expect(() => readConstantRecord(reader(0, 0x80, 0x02), V6, recorder(ValueLayout.Unsigned64, 8).reading)).toThrow('out of range: 256');
  });

  it('reads a signed value as magnitude and sign bit; "negative zero" is INT64_MIN', () => {
    const got: bigint[] = [];
    const signed = (bits: number): ConstantReading<string> => {
      const { reading } = recorder(ValueLayout.Signed64, bits);
      return { ...reading, integer: (v) => (got.push(v), 'integer') };
    };
    readConstantRecord(reader(0, 0xff, 0x01), V6, signed(8)); // 255: -127
    readConstantRecord(reader(0, 1), V6, signed(64));
    expect(got).toEqual([-127n, -(1n << 63n)]);
    expect(() => readConstantRecord(reader(0, 0x80, 0x02), V6, signed(8))).toThrow('out of range: 128');
    expect(() => readConstantRecord(reader(0, 1), V6, signed(32))).toThrow(/out of range/);
  });

  it('reads floats and doubles as raw bits, naming a truncated float in the consumer words', () => {
    const { reading, calls } = recorder(ValueLayout.Float);
    readConstantRecord(reader(0, 0x00, 0x00, 0x80, 0x3f), V6, reading);
    expect(calls[1]).toEqual(['float', 0x3f800000, 0]);
    expect(() => readConstantRecord(reader(0, 1, 2), V6, recorder(ValueLayout.Float).reading)).toThrow(/a float/);
    const d = recorder(ValueLayout.Double);
    readConstantRecord(reader(0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f), V6, d.reading);
    expect(d.calls[1]).toEqual(['double', 0x3ff0000000000000n, 0]);
  });

  it("reads an aggregate's element slots, each at its own offset, after the consumer saw the count", () => {
    const { reading, calls } = recorder(ValueLayout.Aggregate, 0, 2);
    expect(readConstantRecord(reader(0, 7, 0x80, 0x01), V6, reading)).toBe('aggregateEnd');
    expect(calls.slice(1)).toEqual([
      ['aggregate', 2, 0],
      ['elementBegins', 0, 1],
      ['element', 0, 7, 1],
      ['elementBegins', 1, 2],
      ['element', 1, 128, 2],
      ['aggregateEnd', 0],
    ]);
  });

  it("reads version 7's wide integers as a word count and 64-bit words, low word first", () => {
    const { reading, calls } = recorder(ValueLayout.WideInteger, 128);
    readConstantRecord(reader(0, 2, 5, 1), V7, reading);
    expect(calls[1]).toEqual(['wideInteger', [5n, 1n], 0]);
  });

  it('leaves a type with no value to the consumer', () => {
    expect(() => readConstantRecord(reader(0), V6, recorder(ValueLayout.None).reading)).toThrow('no value');
  });
});

describe('the strings plane', () => {
  it('reads a type id, asks the consumer the length, then hands over the bytes', () => {
    const seen: unknown[][] = [];
    readStringRecords(reader(20, 0x68, 0x69, 21, 0x21), 2, {
      texts: TEXTS,
      typeId: (r) => r.vbr32(),
      length: (id) => (id === 20 ? 2 : 1),
      string: (bytes, id, at) => seen.push([String.fromCharCode(...bytes), id, at]),
    });
    expect(seen).toEqual([
      ['hi', 20, 0],
      ['!', 21, 3],
    ]);
  });
});
