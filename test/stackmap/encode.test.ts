import { describe, expect, it } from 'vitest';
import { decodeStackMapSection, encodeStackMapSection, groupStackMapRecords, StackMapError } from './imports.js';
import { buildSection, Bytes, sampleSpec } from '../support/stackmap-builder.js';

describe('writing back: every section read writes back byte for byte at its own version', () => {
  it.each([
    ['version 0', buildSection(sampleSpec(0))],
    ['version 1', buildSection(sampleSpec(1))],
    ['version 2', buildSection(sampleSpec(2))],
    ['version 3', buildSection(sampleSpec(3))],
    ['version 3, big-endian', buildSection(sampleSpec(3, 'big'))],
    ['version 1, big-endian', buildSection(sampleSpec(1, 'big'))],
    ["Manticore's version 1 (u32 counts)", buildSection({ ...sampleSpec(1), layout: 'manticore' })],
    ["Manticore's version 1 (u64 counts)", buildSection({ ...sampleSpec(1), layout: 'manticore-u64' })],
    ['the version-3 layout under byte 2', buildSection({ ...sampleSpec(2), layout: 'v3' })],
    [
      'with a container padding after the records',
      new Bytes()
        .raw(buildSection(sampleSpec(3)))
        .u32(0)
        .bytes(),
    ],
  ])('%s', (_name, bytes) => {
    expect(encodeStackMapSection(decodeStackMapSection(bytes))).toEqual(bytes);
  });

  it('reserved fields and padding that are not zero are kept', () => {
    const bytes = buildSection(sampleSpec(3));
    bytes[1] = 0x5a; // header reserved byte
    bytes[16 + 2 * 24 + 8 + 12] = 0x77; // record #0's reserved flags
    const lastPad = bytes.length - 1; // the last record has 16 + 4 + 8 bytes: 4 bytes of padding at the end
    bytes[lastPad] = 0x99;
    expect(encodeStackMapSection(decodeStackMapSection(bytes, { endian: 'little' }))).toEqual(bytes);
  });
});

describe('converting between versions', () => {
  it('version 3 to 2 to 3 gives the original bytes when every location size fits in a byte', () => {
    const v3 = buildSection(sampleSpec(3));
    const v2 = encodeStackMapSection(decodeStackMapSection(v3), { version: 2 });
    expect(v2).toEqual(buildSection(sampleSpec(2)));
    expect(encodeStackMapSection(decodeStackMapSection(v2), { version: 3 })).toEqual(v3);
  });

  it('version 3 to 2 is refused, with the reason, when a location is larger than 255 bytes (a spilled vector)', () => {
    const spec = sampleSpec(3);
    spec.records[0]!.locations![0] = { kind: 3, reg: 7, offset: 32, size: 256 };
    const map = decodeStackMapSection(buildSection(spec));
    expect(() => encodeStackMapSection(map, { version: 2 })).toThrow(StackMapError);
    expect(() => encodeStackMapSection(map, { version: 1 })).toThrow(/location #1 is 256 bytes, above the 255/);
  });

  it('version 1 to 3 takes the record counts from the grouping rule when it settles them', () => {
    // Function 0's records are at offsets 4 and 9, function 1's at 2: the decrease settles it.
    const spec = sampleSpec(1);
    spec.records = [
      { id: 1, offset: 4 },
      { id: 2, offset: 9 },
      { id: 3, offset: 2 },
    ];
    const v1 = buildSection(spec);
    const v3 = encodeStackMapSection(decodeStackMapSection(v1), { version: 3 });
    const back = decodeStackMapSection(v3);
    expect(back.functions.map((f) => f.recordCount)).toEqual([2n, 1n]);
    expect(encodeStackMapSection(back, { version: 1 })).toEqual(v1);
  });

  it('version 1 to 3 is refused when the grouping is not settled: nothing is guessed', () => {
    const spec = sampleSpec(1);
    spec.records = [
      { id: 1, offset: 4 },
      { id: 2, offset: 9 },
      { id: 3, offset: 12 },
    ];
    const map = decodeStackMapSection(buildSection(spec));
    expect(() => encodeStackMapSection(map, { version: 3 })).toThrow(/more than one division/);
  });

  it('version 3 to 0 is refused while it has function entries (version 0 has no function table)', () => {
    expect(() => encodeStackMapSection(decodeStackMapSection(buildSection(sampleSpec(3))), { version: 0 })).toThrow(/version 0 has no function table/);
  });

  it('a 64-bit id cannot go into version 0', () => {
    const map = decodeStackMapSection(buildSection(sampleSpec(3)));
    map.functions = [];
    map.records = [{ ...map.records[2]!, liveOuts: [] }];
    expect(() => encodeStackMapSection(map, { version: 0 })).toThrow(/needs more than version 0's 32 bits/);
  });

  it('location sizes cannot go into version 0, which has none', () => {
    const map = decodeStackMapSection(buildSection(sampleSpec(3)));
    map.functions = [];
    map.records = [{ ...map.records[1]!, liveOuts: [] }];
    expect(() => encodeStackMapSection(map, { version: 0 })).toThrow(/version 0 has no location sizes/);
  });

  it("asking for a version gives LLVM's layout of it: version 2 of the version-3 layout under byte 2 is LLVM 4.0's", () => {
    const map = decodeStackMapSection(buildSection({ ...sampleSpec(2), layout: 'v3' }));
    expect(encodeStackMapSection(map, { version: 2 })).toEqual(buildSection(sampleSpec(2)));
    expect(encodeStackMapSection(map)).toEqual(buildSection({ ...sampleSpec(2), layout: 'v3' }));
  });

  it('the byte order can be changed', () => {
    const map = decodeStackMapSection(buildSection(sampleSpec(3)));
    expect(encodeStackMapSection(map, { endian: 'big' })).toEqual(buildSection(sampleSpec(3, 'big')));
  });
});

describe('the version-1 grouping rule', () => {
  const v1 = (offsets: number[], functions: number) =>
    decodeStackMapSection(
      buildSection({
        version: 1,
        functions: Array.from({ length: functions }, () => ({ stackSize: 8 })),
        records: offsets.map((offset, i) => ({ id: i, offset })),
      }),
    );

  it('one record per function when there are as many records as functions', () => {
    expect(groupStackMapRecords(v1([5, 5, 5], 3))).toEqual({ settled: true, counts: [1, 1, 1], how: 'rule' });
  });

  it('a decreasing instruction offset starts a new function', () => {
    expect(groupStackMapRecords(v1([1, 8, 3, 9, 2], 3))).toMatchObject({ settled: true, counts: [2, 2, 1] });
  });

  it('function sizes from the symbol table settle what the offsets alone do not', () => {
    expect(groupStackMapRecords(v1([1, 12, 14], 2)).settled).toBe(false);
    // Function 0 is 10 bytes long: offset 12 is function 1's.
    expect(groupStackMapRecords(v1([1, 12, 14], 2), [10, 20])).toMatchObject({ settled: true, counts: [1, 2] });
  });

  it('fewer records than functions cannot be grouped (LLVM 3.5-3.9 made an entry only with a record)', () => {
    expect(groupStackMapRecords(v1([1], 2))).toMatchObject({ settled: false });
  });

  it("versions 2 and 3 take the section's own counts, and say when they do not sum to the records", () => {
    expect(groupStackMapRecords(decodeStackMapSection(buildSection(sampleSpec(3))))).toEqual({ settled: true, counts: [2, 1], how: 'counts' });
    const spec = sampleSpec(3);
    spec.functions![0]!.count = 5;
    expect(groupStackMapRecords(decodeStackMapSection(buildSection(spec)))).toMatchObject({ settled: false, reason: expect.stringMatching(/sum to 6/) });
  });
});
