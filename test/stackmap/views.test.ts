import { describe, expect, it } from 'vitest';
import {
  checkStackMap,
  decodeStackMapSection,
  dwarfRegisterName,
  printStackMapHuman,
  printStackMapReadobj,
  printStackMapText,
  readStackMaps,
  readStatepoint,
  stackMapJson,
} from './imports.js';
import { buildSection, sampleSpec } from '../support/stackmap-builder.js';

const section = (bytes: Uint8Array) => readStackMaps(bytes).sections[0]!;

describe('--syntax readobj: llvm-readobj-16 --stackmap from its version line on', () => {
  it("prints small constants unsigned, offsets signed, sizes and live-outs as LLVM 16's StackMapPrinter does", () => {
    expect(printStackMapReadobj(section(buildSection(sampleSpec(3))))).toBe(
      [
        'LLVM StackMap Version: 3',
        'Num Functions: 2',
        '  Function address: 0, stack size: 16, callsite record count: 2',
        '  Function address: 0, stack size: 18446744073709551615, callsite record count: 1',
        'Num Constants: 1',
        '  #1: 10000000000',
        'Num Records: 3',
        '  Record ID: 2, instruction offset: 1',
        '    3 locations:',
        '      #1: Register R#5, size: 8',
        '      #2: Constant 4294967286, size: 4',
        '      #3: ConstantIndex #0 (10000000000), size: 8',
        '    1 live-outs: [ R#7 (8-bytes) ]',
        '  Record ID: 3, instruction offset: 9',
        '    2 locations:',
        '      #1: Direct R#4 + -8, size: 8',
        '      #2: Indirect [R#6 + -16], size: 8',
        '    0 live-outs: [ ]',
        '  Record ID: 1099511627776, instruction offset: 4',
        '    0 locations:',
        '    2 live-outs: [ R#0 (8-bytes) R#7 (8-bytes) ]',
        '',
      ].join('\n'),
    );
  });

  it('prints nothing for a location kind LLVM never wrote, as its switch did', () => {
    const spec = sampleSpec(3);
    spec.records[1]!.locations![0]!.kind = 9;
    expect(printStackMapReadobj(section(buildSection(spec)))).toContain('      #1: , size: 8\n');
  });
});

describe("--syntax text: LLVM 3.7's and 4.0's llvm-readobj -stackmap", () => {
  it('version 1: no location sizes, no record counts, a blank line after each record', () => {
    expect(printStackMapText(section(buildSection(sampleSpec(1))))).toBe(
      [
        'LLVM StackMap Version: 1',
        'Num Functions: 2',
        '  Function address: 0, stack size: 16',
        '  Function address: 0, stack size: 18446744073709551615',
        'Num Constants: 1',
        '  #1: 10000000000',
        'Num Records: 3',
        '  Record ID: 2, instruction offset: 1',
        '    3 locations:',
        '      #1: Register R#5',
        '      #2: Constant 4294967286',
        '      #3: ConstantIndex #0 (10000000000)',
        '    1 live-outs: [ R#7 (8-bytes) ]',
        '',
        '  Record ID: 3, instruction offset: 9',
        '    2 locations:',
        '      #1: Direct R#4 + -8',
        '      #2: Indirect [R#6 + -16]',
        '    0 live-outs: [ ]',
        '',
        '  Record ID: 1099511627776, instruction offset: 4',
        '    0 locations:',
        '    2 live-outs: [ R#0 (8-bytes) R#7 (8-bytes) ]',
        '',
        '',
      ].join('\n'),
    );
  });

  it("version 2: 4.0's record counts", () => {
    expect(printStackMapText(section(buildSection(sampleSpec(2))))).toContain('  Function address: 0, stack size: 16, callsite record count: 2\n');
  });
});

describe('the human view', () => {
  it('groups records under their functions, names registers and explains UINT64_MAX stack sizes', () => {
    const text = printStackMapHuman(section(buildSection(sampleSpec(3))));
    expect(text).toContain('function #0 (address 0, stack size 16): 2 records');
    expect(text).toContain('function #1 (address 0, variable-sized or realigned frame): 1 records');
    expect(text).toContain('  record #1 id 3 at offset 9');
  });

  it('reads a statepoint as calling convention, flags, deopt values and (base, derived) pairs', () => {
    const bytes = buildSection({
      version: 3,
      functions: [{ stackSize: 24, count: 1 }],
      records: [
        {
          id: 1,
          offset: 19,
          locations: [
            { kind: 4, offset: 0 },
            { kind: 4, offset: 1 },
            { kind: 4, offset: 1 },
            { kind: 4, offset: 3 },
            { kind: 3, reg: 7, offset: 8 },
            { kind: 3, reg: 7, offset: 16 },
          ],
        },
      ],
    });
    const s = section(bytes);
    const sp = readStatepoint(s.map, s.map.records[0]!);
    expect(sp).toMatchObject({ callingConvention: 0, flags: 1, deopt: [{ kind: 4, offset: 3 }], gcPairs: [{ base: { offset: 8 }, derived: { offset: 16 } }] });
    expect(printStackMapHuman(s)).toContain('deopt (1):');
  });

  it('a record whose locations do not have the shape is not read as a statepoint', () => {
    const s = section(buildSection(sampleSpec(3)));
    expect(readStatepoint(s.map, s.map.records[0]!)).toBeUndefined();
  });

  it.each([
    ['x86-64', 6, 'rbp'],
    ['x86-64', 7, 'rsp'],
    ['x86-64', 17, 'xmm0'],
    ['aarch64', 29, 'x29'],
    ['aarch64', 31, 'sp'],
    ['aarch64', 72, 'v8'],
    ['ppc64', 1, 'r1'],
    ['ppc64', 33, 'f1'],
    ['ppc64', 78, 'v1'],
    ['systemz', 15, 'r15'],
    ['systemz', 17, 'f2'],
  ] as const)('DWARF register %s %i is %s', (arch, n, name) => {
    expect(dwarfRegisterName(arch, n)).toBe(name);
  });
});

describe('JSON', () => {
  it('carries 64-bit values as decimal strings and names location kinds', () => {
    const json = stackMapJson(section(buildSection(sampleSpec(3)))) as {
      functions: Array<{ stackSize: string }>;
      records: Array<{ id: string; locations: Array<{ kind: string }> }>;
    };
    expect(json.functions[1]!.stackSize).toBe('18446744073709551615');
    expect(json.records[2]!.id).toBe('1099511627776');
    expect(json.records[0]!.locations.map((l) => l.kind)).toEqual(['Register', 'Constant', 'ConstantIndex']);
    expect(() => JSON.stringify(json)).not.toThrow();
  });
});

describe('check', () => {
  const diagnose = (bytes: Uint8Array, arch: 'unknown' | 'ppc64' = 'unknown') => {
    const s = section(bytes);
    return checkStackMap({ map: s.map, grouping: s.grouping, arch });
  };

  it('a section as LLVM writes it has only notes', () => {
    expect(diagnose(buildSection(sampleSpec(3))).map((d) => d.severity)).toEqual(['note']);
  });

  it('explains UINT64_MAX stack sizes', () => {
    expect(diagnose(buildSection(sampleSpec(3)))[0]!.message).toMatch(/variable-sized or realigned/);
  });

  it('a constant index out of range and an unknown kind are errors', () => {
    const spec = sampleSpec(3);
    spec.records[0]!.locations![2]!.offset = 4;
    spec.records[1]!.locations![0]!.kind = 0;
    const errors = diagnose(buildSection(spec)).filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.message)).toEqual([expect.stringMatching(/indexes constant 4 of 1/), expect.stringMatching(/kind 0, which no LLVM wrote/)]);
  });

  it('record counts that do not sum to the records are an error', () => {
    const spec = sampleSpec(2);
    spec.functions![1]!.count = 3;
    expect(diagnose(buildSection(spec)).some((d) => d.severity === 'error' && /sum to 5/.test(d.message))).toBe(true);
  });

  it("explains LLVM's invalid-record marker", () => {
    const spec = sampleSpec(3);
    spec.records[2] = { id: (1n << 64n) - 1n, offset: 4 };
    expect(diagnose(buildSection(spec)).some((d) => /invalid-record marker/.test(d.message))).toBe(true);
  });

  it("flags PowerPC's SPE register numbers for plain GPRs (an LLVM bug) on PowerPC64", () => {
    const spec = sampleSpec(3);
    spec.records[0]!.locations![0] = { kind: 1, reg: 1204, size: 4 };
    expect(diagnose(buildSection(spec), 'ppc64').filter((d) => d.severity === 'warning')[0]!.message).toMatch(/SPE's number for the upper half of r4/);
  });

  it('flags statepoint ids as possibly cut to 32 bits (an LLVM bug)', () => {
    const spec = sampleSpec(3);
    spec.records[1] = { id: 1, offset: 2, locations: [{ kind: 4 }, { kind: 4 }, { kind: 4 }] };
    expect(diagnose(buildSection(spec)).some((d) => d.severity === 'warning' && /32 bits/.test(d.message))).toBe(true);
  });

  it('version 1 records that the rule cannot group are a note, not an error', () => {
    const spec = sampleSpec(1);
    spec.records = [
      { id: 1, offset: 1 },
      { id: 2, offset: 2 },
      { id: 3, offset: 3 },
    ];
    const map = decodeStackMapSection(buildSection(spec));
    expect(map.version).toBe(1);
    const d = diagnose(buildSection(spec)).find((x) => /cannot be given to functions/.test(x.message));
    expect(d?.severity).toBe('note');
  });
});
