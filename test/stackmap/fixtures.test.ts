/**
 * Stack maps LLVM wrote before version 3, and the forks' variants, rebuilt from LLVM's own tests:
 * the directive files in fixtures/ (each header names its source, licence and how the CHECK lines'
 * holes were filled) are assembled here with llvm-mc-16, as LLVM's tests spelled the sections out.
 * That this reproduces what LLVM of the time wrote is checked first, on the one real object we
 * have (../shared/stackmaps/historic/): it comes out byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeStackMapSection,
  encodeStackMapSection,
  LLILC_FORK,
  printStackMapReadobj as printReadobj,
  printStackMapText as printText,
  readStackMaps,
  StackMapError,
  YKLLVM_FORK,
  type StackMap,
  type StackMapSection,
} from '../../src/stackmap/index.js';
import { assembleStackmapFixture, STACKMAP_FIXTURES as FIXTURES, type AssembledFixture } from '../../tools/stackmap-fixtures.js';
import { debianLlvm, needs } from '../support/tools.js';
import { DXC_EXPECTED, HAVE_HISTORIC, HISTORIC_DIR, HISTORIC_OBJECT } from '../support/stackmap-historic.js';

const LLVM16 = debianLlvm(16);

/** The record ids and location counts of stackmap.ll's section, as ManticoreProject/llvm's stackmap-dump.test prints them. */
const STACKMAP_LL_IDS = [
  1n,
  3n,
  4n,
  5n,
  6n,
  7n,
  8n,
  11n,
  12n,
  13n,
  14n,
  15n,
  16n,
  17n,
  4294967295n,
  4294967296n,
  9223372036854775807n,
  18446744073709551615n,
  16n,
  0n,
];
const STACKMAP_LL_LOCATIONS = [12, 2, 2, 2, 2, 2, 2, 17, 17, 1, 2, 1, 1, 2, 0, 0, 0, 0, 1, 0];
const STACKMAP_LL_COUNTS = [1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n, 2n, 4n, 1n, 1n];

function read(bytes: Uint8Array): StackMapSection {
  const file = readStackMaps(bytes);
  expect(file.sections.length).toBe(1);
  return file.sections[0]!;
}

/** The thrown error, for assertions on refusals. */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** The model without what differs between two byte orders of the same section. */
function content(map: StackMap): unknown {
  return { ...map, endian: undefined };
}

describe.skipIf(!LLVM16.present)('stack map fixtures of versions 0–2 and the forks, assembled by llvm-mc-16', needs(LLVM16), () => {
  let dir = '';
  const built = new Map<string, AssembledFixture>();

  /** Assembles fixtures/NAME.s for its `# triple:` (or `triple`, as ELF), once. */
  const fixture = (name: string, triple?: string): AssembledFixture => {
    const key = `${name}@${triple ?? ''}`;
    const cached = built.get(key);
    if (cached) return cached;
    const result = assembleStackmapFixture(LLVM16.dir, name, dir, triple);
    built.set(key, result);
    return result;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'stackmap-fixtures-'));
  });
  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  describe('the method', () => {
    it.skipIf(!HAVE_HISTORIC)("assembling the historic object's directives gives that object byte for byte", () => {
      expect(Buffer.from(fixture('v1-dxc-stackmap-test').object).equals(readFileSync(HISTORIC_OBJECT))).toBe(true);
    });
  });

  describe('version 0 (LLVM 3.4): anyregcc.ll', () => {
    it('reads as version 0: eight records of 32-bit ids, no functions, no live-outs', () => {
      const { map } = read(fixture('v0-anyregcc-llvm34').object);
      expect(map.version).toBe(0);
      expect(map.functions).toEqual([]);
      expect(map.records.map((r) => r.id)).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 12n, 13n]);
      expect(map.records.map((r) => r.locations.length)).toEqual([3, 2, 2, 2, 14, 14, 3, 5]);
      expect(map.records[7]!.locations[3]).toMatchObject({ kind: 3, reg: 7, offset: 16 });
      expect(map.records.every((r) => r.liveOuts.length === 0)).toBe(true);
    });
    it('writes back byte for byte', () => {
      const { object, section } = fixture('v0-anyregcc-llvm34');
      expect(Buffer.from(encodeStackMapSection(read(object).map)).equals(section)).toBe(true);
    });
    it("stackmap.ll's section reads with its CHECK lines' constant, ids, location kinds and sizes, and writes back byte for byte", () => {
      const { object, section } = fixture('v0-stackmap-ll-llvm34');
      const { map } = read(object);
      expect(map.version).toBe(0);
      expect(map.constants).toEqual([4294967296n]);
      expect(map.records.map((r) => r.id)).toEqual([1n, 3n, 4n, 5n, 6n, 7n, 8n, 11n, 12n, 13n, 14n]);
      expect(map.records.map((r) => r.locations.length)).toEqual([4, 2, 2, 0, 0, 2, 2, 17, 17, 1, 2]);
      // Version 0's byte 1 (the size, in LLVM 3.4's own writer; reserved to WebKit's reader) is kept as `reserved`.
      expect(map.records[0]!.locations.map((l) => [l.kind, l.reserved, l.offset])).toEqual([
        [4, 8, 65535],
        [4, 8, 65536],
        [4, 8, -1],
        [5, 8, 0],
      ]);
      // subRegOffset: AL and BL, one byte each (DWARF 0 and 3), fully given by the CHECK lines.
      expect(map.records[10]!.locations.map((l) => [l.kind, l.reserved, l.reg])).toEqual([
        [1, 1, 0],
        [1, 1, 3],
      ]);
      expect(map.records[9]!.locations[0]).toMatchObject({ kind: 3, reserved: 4, reg: 6 });
      expect(Buffer.from(encodeStackMapSection(read(object).map)).equals(section)).toBe(true);
    });
    it('refuses version 3, whose records must belong to functions version 0 does not have', () => {
      const e = thrown(() => encodeStackMapSection(read(fixture('v0-anyregcc-llvm34').object).map, { version: 3 }));
      expect(e).toBeInstanceOf(StackMapError);
    });
  });

  describe('version 1 (LLVM 3.5–3.9)', () => {
    it.skipIf(!HAVE_HISTORIC)("the historic object reads as DirectXShaderCompiler's stackmap-dump.test says", () => {
      const s = read(new Uint8Array(readFileSync(HISTORIC_OBJECT)));
      expect(s.map.version).toBe(1);
      expect(printText(s).trimEnd()).toBe(DXC_EXPECTED);
      expect(s.functionNames).toEqual(['_trivial_patchpoint_codegen']);
      // llvm-readobj-16 reads it as version 3 and prints a record count of 10000000000; we do not follow it.
      const readobj16 = readFileSync(join(HISTORIC_DIR, 'v1-dxc.readobj16.txt'), 'utf8');
      expect(readobj16).toContain('callsite record count: 10000000000');
      expect(printReadobj(s)).not.toContain('10000000000,');
      expect(printReadobj(s)).toContain('LLVM StackMap Version: 1');
    });
    it('the historic object writes back byte for byte and goes 1 → 3 → 1 (one function: the grouping is settled)', () => {
      const { object, section } = fixture('v1-dxc-stackmap-test');
      const s = read(object);
      expect(Buffer.from(encodeStackMapSection(s.map)).equals(section)).toBe(true);
      const v3 = encodeStackMapSection(s.map, { version: 3 });
      const back = decodeStackMapSection(v3);
      expect(back.version).toBe(3);
      expect(back.functions[0]!.recordCount).toBe(1n);
      expect(Buffer.from(encodeStackMapSection(back, { version: 1 })).equals(section)).toBe(true);
    });
    it("stackmap.ll's section reads with the ids, locations and names of its CHECK lines", () => {
      const s = read(fixture('v1-stackmap-ll').object);
      expect(s.map.version).toBe(1);
      expect(s.map.variant).toBe('llvm');
      expect(s.map.records.map((r) => r.id)).toEqual(STACKMAP_LL_IDS);
      expect(s.map.records.map((r) => r.locations.length)).toEqual(STACKMAP_LL_LOCATIONS);
      expect(s.map.constants).toEqual([2147483648n, 4294967295n, 4294967296n]);
      expect(s.map.functions.at(-1)!.stackSize).toBe(18446744073709551615n);
      expect(s.functionNames[0]).toBe('_constantargs');
      // Location sizes live in byte 1: the 1-byte subregisters of subRegOffset, the 4-byte spills.
      expect(s.map.records[10]!.locations.map((l) => l.size)).toEqual([1, 1]);
      expect(s.map.records[9]!.locations[0]!.size).toBe(4);
    });
    it('writes back byte for byte', () => {
      const { object, section } = fixture('v1-stackmap-ll');
      expect(Buffer.from(encodeStackMapSection(read(object).map)).equals(section)).toBe(true);
    });
    it('refuses version 3 when the grouping rule cannot settle which function a record belongs to (it does not guess)', () => {
      const s = read(fixture('v1-stackmap-ll').object);
      expect(s.grouping.settled).toBe(false);
      const e = thrown(() => encodeStackMapSection(s.map, { version: 3 }));
      expect(e).toBeInstanceOf(StackMapError);
      expect((e as Error).message).toMatch(/function|group/);
    });
    it('is the big-endian twin on PowerPC64 (the same directives assembled as ELF for powerpc64)', () => {
      const little = read(fixture('v1-stackmap-ll').object);
      const { object, section } = fixture('v1-stackmap-ll', 'powerpc64-unknown-linux-gnu');
      const big = read(object);
      expect(big.map.endian).toBe('big');
      expect(content(big.map)).toEqual(content(little.map));
      expect(big.functionNames).toEqual(little.functionNames);
      expect(Buffer.from(encodeStackMapSection(big.map)).equals(section)).toBe(true);
      expect(decodeStackMapSection(section).endian).toBe('big');
    });
  });

  describe('version 2 (LLVM 4.0)', () => {
    it('reads the record counts and writes back byte for byte', () => {
      const { object, section } = fixture('v2-stackmap-ll');
      const s = read(object);
      expect(s.map.version).toBe(2);
      expect(s.map.functions.map((f) => f.recordCount)).toEqual(STACKMAP_LL_COUNTS);
      expect(Buffer.from(encodeStackMapSection(s.map)).equals(section)).toBe(true);
    });
    it('is version 1 without the counts: 2 → 1 gives the version-1 fixture, and 1 with the counts → 2 gives this one', () => {
      const v2 = fixture('v2-stackmap-ll');
      const v1 = fixture('v1-stackmap-ll');
      expect(Buffer.from(encodeStackMapSection(read(v2.object).map, { version: 1 })).equals(v1.section)).toBe(true);
      const counted: StackMap = {
        ...read(v1.object).map,
        functions: read(v1.object).map.functions.map((f, i) => ({ ...f, recordCount: STACKMAP_LL_COUNTS[i]! })),
      };
      expect(Buffer.from(encodeStackMapSection(counted, { version: 2 })).equals(v2.section)).toBe(true);
    });
    it('goes 2 → 3 → 2 to the same bytes', () => {
      const { object, section } = fixture('v2-stackmap-ll');
      const v3 = encodeStackMapSection(read(object).map, { version: 3 });
      expect(Buffer.from(encodeStackMapSection(decodeStackMapSection(v3), { version: 2 })).equals(section)).toBe(true);
    });
    it('is the big-endian twin on PowerPC64', () => {
      const { object, section } = fixture('v2-stackmap-ll', 'powerpc64-unknown-linux-gnu');
      const big = read(object);
      expect(content(big.map)).toEqual(content(read(fixture('v2-stackmap-ll').object).map));
      expect(Buffer.from(encodeStackMapSection(big.map)).equals(section)).toBe(true);
    });
  });

  describe('the forks: read or refused by name, never misread as LLVM', () => {
    it("LLILC's flat version 2 is refused as LLILC's, not read as LLVM 4.0's version 2", () => {
      const e = thrown(() => readStackMaps(fixture('llilc-flat-v2-stackmap-ll').object));
      expect(e).toBeInstanceOf(StackMapError);
      expect((e as StackMapError).fork).toBe(LLILC_FORK);
    });
    it("ykllvm's extended version 3 is refused as ykllvm's (llvm-readobj-16 misreads it as plain version 3)", () => {
      const e = thrown(() => readStackMaps(fixture('ykllvm-v3-live-vars').object));
      expect(e).toBeInstanceOf(StackMapError);
      expect((e as StackMapError).fork).toBe(YKLLVM_FORK);
    });
    it("Manticore's version 1 as its reader reads it (u32 record counts) is read as Manticore's, counts and all", () => {
      const { object, section } = fixture('manticore-v1-u32-counts');
      const s = read(object);
      expect(s.map.version).toBe(1);
      expect(s.map.variant).toMatch(/manticore/);
      expect(s.map.functions.map((f) => f.recordCount)).toEqual(STACKMAP_LL_COUNTS);
      expect(Buffer.from(encodeStackMapSection(s.map)).equals(section)).toBe(true);
    });
    it("Manticore's version 1 prints, as text, what its stackmap-dump.test expects (20 records, record counts)", () => {
      const expected = readFileSync(join(FIXTURES, 'manticore-stackmap-dump.txt'), 'utf8')
        .split('\n')
        .filter((l) => !l.startsWith('#') && l !== '');
      const ours = printText(read(fixture('manticore-v1-u32-counts').object))
        .split('\n')
        .filter((l) => l !== '');
      expect(ours).toEqual(expected);
    });
    // ManticoreProject/llvm's writer emits u64 record counts under version byte 1 (LLVM 4.0's entries).
    it("Manticore's version 1 as its writer wrote it (u64 record counts) is read as Manticore's or refused naming Manticore", () => {
      const { object } = fixture('manticore-v1-u64-counts');
      let s: StackMapSection | undefined;
      const e = thrown(() => (s = read(object)));
      if (e !== undefined) {
        expect(e).toBeInstanceOf(StackMapError);
        expect(`${(e as StackMapError).fork ?? ''} ${(e as Error).message}`).toMatch(/Manticore/i);
      } else {
        expect(s!.map.variant).toMatch(/manticore/);
        expect(s!.map.functions.map((f) => f.recordCount)).toEqual(STACKMAP_LL_COUNTS);
      }
    });
  });
});
