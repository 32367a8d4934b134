import { describe, expect, it } from 'vitest';
import { decodeStackMapSection, StackMapError, LLILC_FORK, YKLLVM_FORK, BytecodeErrorCheck } from './imports.js';
import { buildSection, Bytes, sampleSpec } from '../support/stackmap-builder.js';

function errorOf(f: () => unknown): StackMapError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(StackMapError);
    expect(e).toBeInstanceOf(BytecodeErrorCheck);
    return e as StackMapError;
  }
  throw new Error('expected a StackMapError');
}

describe('decoding every layout LLVM wrote', () => {
  it.each([1, 2, 3] as const)('version %i: header, functions, constants, records, locations and live-outs', (version) => {
    const map = decodeStackMapSection(buildSection(sampleSpec(version)));
    expect(map.version).toBe(version);
    expect(map.variant).toBe('llvm');
    expect(map.functions.map((f) => f.stackSize)).toEqual([16n, (1n << 64n) - 1n]);
    expect(map.functions.map((f) => f.recordCount)).toEqual(version === 1 ? [undefined, undefined] : [2n, 1n]);
    expect(map.constants).toEqual([10000000000n]);
    expect(map.records.map((r) => r.id)).toEqual([2n, 3n, 1n << 40n]);
    expect(map.records[0]!.locations[1]).toMatchObject({ kind: 4, offset: -10, size: 4 });
    expect(map.records[1]!.locations[0]).toMatchObject({ kind: 2, reg: 4, offset: -8, size: 8 });
    expect(map.records[2]!.liveOuts).toEqual([
      { reg: 0, reserved: 0, size: 8 },
      { reg: 7, reserved: 0, size: 8 },
    ]);
  });

  it('version 0 (LLVM 3.4): no function table, 32-bit ids, no live-outs, no padding', () => {
    const map = decodeStackMapSection(buildSection(sampleSpec(0)));
    expect(map.version).toBe(0);
    expect(map.functions).toEqual([]);
    expect(map.records.map((r) => [r.id, r.instructionOffset, r.locations.length])).toEqual([
      [2n, 1, 3],
      [3n, 9, 1],
    ]);
    expect(map.records[1]!.locations[0]).toMatchObject({ kind: 3, reg: 6, offset: -16 });
  });

  it('versions 1 and 2 keep the location size in byte 1 (the version-1 document calls it reserved)', () => {
    const map = decodeStackMapSection(
      buildSection({ version: 1, functions: [{ stackSize: 8 }], records: [{ id: 1, offset: 0, locations: [{ kind: 1, size: 4, reg: 3 }] }] }),
    );
    expect(map.records[0]!.locations[0]!.size).toBe(4);
  });

  it.each([0, 1, 2, 3] as const)('version %i: the byte order is found from the sizes when not given', (version) => {
    const big = decodeStackMapSection(buildSection(sampleSpec(version, 'big')));
    expect(big.endian).toBe('big');
    expect(big.records.map((r) => r.id)).toEqual(decodeStackMapSection(buildSection(sampleSpec(version))).records.map((r) => r.id));
  });

  it('a given byte order is used, and the wrong one fails with an offset', () => {
    const bytes = buildSection(sampleSpec(3, 'big'));
    expect(decodeStackMapSection(bytes, { endian: 'big' }).endian).toBe('big');
    const e = errorOf(() => decodeStackMapSection(bytes, { endian: 'little' }));
    expect(e.offset).toBeGreaterThanOrEqual(0);
  });
});

describe('byte 0 is never trusted alone: the counts must account for the section', () => {
  it('a section with bytes after its last record is not read as that version', () => {
    const bytes = new Bytes()
      .raw(buildSection(sampleSpec(3)))
      .u64(0x1234)
      .bytes();
    const e = errorOf(() => decodeStackMapSection(bytes, { endian: 'little' }));
    expect(e.reason).toMatch(/the counts do not account for it/);
  });

  it('fewer than 8 zero bytes after the records are a container padding, kept for writing back', () => {
    const bytes = new Bytes()
      .raw(buildSection(sampleSpec(3)))
      .u32(0)
      .bytes();
    expect(decodeStackMapSection(bytes).trailing).toEqual(new Uint8Array(4));
  });

  it('a truncated section fails at the offset where it ends, naming the record', () => {
    const whole = buildSection(sampleSpec(3));
    const e = errorOf(() => decodeStackMapSection(whole.subarray(0, whole.length - 12), { endian: 'little' }));
    expect(e.offset).toBeGreaterThan(16);
    expect(e.blockPath.join('/')).toMatch(/record #/);
  });

  it('counts larger than the section are refused before anything is allocated', () => {
    const bytes = new Bytes().u8(3).u8(0).u16(0).u32(0xffffffff).u32(0xffffffff).u32(0xffffffff).bytes();
    const e = errorOf(() => decodeStackMapSection(bytes, { endian: 'little' }));
    expect(e.reason).toMatch(/need at least/);
    expect(e.offset).toBe(4);
  });

  it('a byte 0 no LLVM wrote is named', () => {
    expect(errorOf(() => decodeStackMapSection(Uint8Array.of(7, 0, 0, 0, 0, 0, 0, 0))).reason).toMatch(/byte 0 is 7/);
  });

  it('a section shorter than a header is an error, not a crash', () => {
    expect(errorOf(() => decodeStackMapSection(Uint8Array.of(3))).reason).toMatch(/at least a 4-byte header/);
  });
});

describe('the forks: read or refused by name, never misread', () => {
  it("ManticoreProject's version 1 (20-byte function entries with a u32 record count) is read as such", () => {
    const spec = { ...sampleSpec(1), layout: 'manticore' as const };
    const map = decodeStackMapSection(buildSection(spec));
    expect(map.variant).toBe('manticore-v1');
    expect(map.functions.map((f) => f.recordCount)).toEqual([2n, 1n]);
  });

  it("ManticoreProject's version 1 as its writer emits it (LLVM 4.0's 24-byte entries with a u64 record count) is read as such", () => {
    const map = decodeStackMapSection(buildSection({ ...sampleSpec(1), layout: 'manticore-u64' }));
    expect(map.version).toBe(1);
    expect(map.variant).toBe('manticore-v1-u64');
    expect(map.functions.map((f) => f.recordCount)).toEqual([2n, 1n]);
  });

  it('llc -stackmap-version=2 of LLVM 5.0 onwards (the version-3 layout under byte 2) is read as that', () => {
    const map = decodeStackMapSection(buildSection({ ...sampleSpec(2), layout: 'v3' }));
    expect(map.version).toBe(2);
    expect(map.variant).toBe('v3-layout');
  });

  it("LLILC's flat version 2 of the 2015 RFC is refused by name", () => {
    // u8 2, u8 0, u16 0, u32 NumFunctions, five u32 offsets, pad to 8; one function record.
    const w = new Bytes().u8(2).u8(0).u16(0).u32(1).u32(32).u32(32).u32(64).u32(64).u32(64).align(8);
    w.u64(0).u32(20).u32(8).u16(0).u16(7).u16(0).u16(0).align(8);
    w.u64(0).u64(0).u64(0).u64(0);
    const e = errorOf(() => decodeStackMapSection(w.bytes()));
    expect(e.fork).toBe(LLILC_FORK);
    expect(e.reason).toMatch(/LLILC/);
  });

  it("ykllvm's extended version 3 (a u8 location count per live variable) is refused by name", () => {
    const w = new Bytes().u8(3).u8(0).u16(0).u32(1).u32(0).u32(1).u64(0).u64(8).u64(1);
    w.u64(1).u32(4).u16(0).u16(2); // two live variables
    w.u8(1).u8(1).u8(0).u16(8).u16(3).u16(0).u32(0); // one location
    w.u8(2).u8(1).u8(0).u16(8).u16(4).u16(0).u32(0).u8(3).u8(0).u16(8).u16(6).u16(0).u32(16); // two locations
    w.align(8).u16(0).u16(0).align(8);
    const e = errorOf(() => decodeStackMapSection(w.bytes()));
    expect(e.fork).toBe(YKLLVM_FORK);
  });
});
