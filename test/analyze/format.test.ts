import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analysisToJson, analyzeBytes, analyzeBytesStrict, dumpAnalysis, formatAnalysis, formatDouble } from '../../src/analyze/index.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';

describe('formatDouble (C++ iostream %g as glibc printed it)', () => {
  it.each([
    [19.5, 6, '19.5'],
    [8.66667 * 3, 6, '26'],
    [4, 6, '4'],
    [435.2142857, 6, '435.214'],
    [54.2124542, 4, '54.21'],
    [7.8125, 4, '7.812'], // exact tie: round half to even
    [0.78125, 4, '0.7812'],
    [73.125, 4, '73.12'],
    [73.135, 4, '73.14'],
    [100, 4, '100'],
    [620.72, 4, '620.7'],
    [1234567, 6, '1.23457e+06'],
    [0.00001234, 6, '1.234e-05'],
    [0, 6, '0'],
    [NaN, 6, '-nan'],
    [Infinity, 6, 'inf'],
  ])('%d at %d digits → %s', (x, p, s) => {
    expect(formatDouble(x, p)).toBe(s);
  });

  it('rounds ties as the 100-digit expansion says (its quick rejection of non-ties loses none)', () => {
    // The rounding before the quick rejection: a tie, read off the whole exact expansion.
    const fullRound = (x: number, p: number): number => {
      const [m, e] = x.toExponential(99).split('e') as [string, string];
      const digits = m.replace('-', '').replace('.', '');
      if (digits[p] !== '5' || !/^0*$/.test(digits.slice(p + 1)) || Number(digits[p - 1]) % 2 !== 0) return x;
      return Number(`${x < 0 ? '-' : ''}${digits[0]}.${digits.slice(1, p)}e${e}`);
    };
    // Ties are exact binary fractions: k / 2^n scaled, among arbitrary doubles.
    const ties = fc.tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 0, max: 12 })).map(([k, n]) => k / 2 ** n);
    fc.assert(
      fc.property(fc.oneof(ties, fc.double({ noNaN: true, noDefaultInfinity: true })), fc.constantFrom(4, 6), (x, p) => {
        if (x === 0) return;
        expect(formatDouble(x, p)).toBe(formatDouble(fullRound(x, p), p));
      }),
      { numRuns: 5000 },
    );
  });
});

/** A minimal v6 module: header, version word, empty global type plane, empty global info. */
function tinyModule(): Uint8Array {
  const body = [
    0x60, // version 6 << 4
    0x06,
    0x00,
    0x00,
    0x00, // GlobalTypePlane, size 0
    0xa5,
    0x00,
    0x00,
    0x00, // ModuleGlobalInfo (id 5), size 5
    0x00,
    0x01,
    0x00,
    0x00,
    0x00, // no globals, no functions, no libs, empty triple
  ];
  const size = body.length;
  return Uint8Array.from([0x6c, 0x6c, 0x76, 0x6d, 1, 0, 0, 0, size, 0, 0, 0, ...body]);
}

/**
 * A v6 module with one function `void ()` whose body is one long-form instruction of opcode
 * `opcode` (type void, one operand 0): LLVM 1.9 counted an unknown instruction, then stopped.
 */
function oneInstructionModule(opcode: number): Uint8Array {
  const vbr = (v: number): number[] => {
    const out: number[] = [];
    while (v >= 0x80) {
      out.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 0x80);
    }
    return [...out, v];
  };
  const block = (id: number, body: number[]): number[] => {
    const w = id | (body.length << 5);
    return [w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, w >>> 24, ...body];
  };
  const types = block(6, [2, 13, 0, 0, 16, 13]); // function void (), pointer to it (slot 14)
  const globals = block(5, [0, ...vbr(14 << 5), 0, 0, 0]); // no globals, one function with a body, no libs, no triple
  const instruction = [...vbr(opcode << 2), 0, 1, 0];
  const fn = block(2, [0, ...block(7, instruction)]);
  const body = [0x60, ...types, ...globals, ...fn];
  const size = body.length;
  return Uint8Array.from([0x6c, 0x6c, 0x76, 0x6d, 1, 0, 0, 0, size, 0, 0, 0, ...body]);
}

describe('analyzeBytes on hand-made input', () => {
  it('counts an unknown long-form opcode by its number, then stops as LLVM did', () => {
    for (const opcode of [50, 100, 123456]) {
      const a = analyzeBytes(oneInstructionModule(opcode));
      expect(a.error?.reason).toBe('Unrecognized instruction!');
      expect(a.counts.instructions).toBe(1);
      expect(a.opcodes).toEqual({ [`opcode${opcode}`]: 1 });
      expect(a.instructionFormats).toEqual({ format0: 1 });
    }
  });

  it('analyzes a minimal module', () => {
    const a = analyzeBytes(tinyModule(), { moduleId: 'tiny.bc' });
    expect(a.error).toBeNull();
    expect(a.version).toBe(6);
    expect(a.counts.blocks).toBe(2);
    expect(a.blockHeaderBytes).toBe(8);
    expect(a.bytes.moduleGlobals).toBe(5);
    expect(a.blocks[0]!.children.map((b) => b.kind)).toEqual(['globalTypePlane', 'moduleGlobalInfo']);
    expect(formatAnalysis(a)).toContain('Bytecode Analysis Of Module: tiny.bc\n');
    const json = JSON.parse(analysisToJson(a)) as { schema: number; counts: { blocks: number } };
    expect(json.schema).toBe(1);
    expect(json.counts.blocks).toBe(2);
  });

  it('reports where and why a damaged file stopped', () => {
    const bytes = tinyModule();
    bytes[13] = 0x66; // GlobalTypePlane now claims 3 bytes it has, then the next header is garbage
    const a = analyzeBytes(bytes);
    expect(a.error).not.toBeNull();
    expect(dumpAnalysis(bytes)).toMatch(/stopped at offset \d+/);
    expect(() => analyzeBytesStrict(bytes)).toThrow(BytecodeError);
  });

  it('never throws and never reports an internal error on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(60), (tail, cut) => {
        const base = tinyModule();
        const bytes = new Uint8Array([...base.subarray(0, Math.min(cut, base.length)), ...tail]);
        const a = analyzeBytes(bytes);
        if (a.error) expect(a.error.reason).not.toMatch(/^internal error/);
        dumpAnalysis(bytes);
      }),
      { numRuns: 2000 },
    );
  });
});
