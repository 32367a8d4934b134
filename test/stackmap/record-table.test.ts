// A decoded section keeps its records as positions in its bytes until `map.records` is first read
// (src/stackmap/record-table.ts), and the readobj printer prints them straight from there
// (readobj-records.ts). These say that nobody can tell: the same text as the model's printer, the
// same records, the same bytes written back, whatever happens to the caller's bytes.
import { describe, expect, it } from 'vitest';
import {
  decodeStackMapSection,
  encodeStackMapSection,
  printStackMapReadobj,
  printStackMapReadobjBytes,
  type StackMap,
  type StackMapVersion,
} from './imports.js';
import { randomStackMap } from '../../tools/stackmap-samples.js';
import { seededRandom } from '../../tools/seeded-random.js';

const settled = { settled: false, reason: 'not asked' } as const;
/** The readobj text printed from the bytes (records not made yet). */
const fromBytes = (map: StackMap): string => printStackMapReadobj({ map, grouping: settled });
/** The readobj text printed from the records' objects (made first). */
const fromModel = (map: StackMap): string => {
  void map.records.length;
  return printStackMapReadobj({ map, grouping: settled });
};

const VERSIONS: StackMapVersion[] = [0, 1, 2, 3];

describe('records kept as bytes until asked for', () => {
  for (const version of VERSIONS) {
    for (const endian of ['little', 'big'] as const) {
      it(`version ${version}, ${endian}-endian: the readobj text from the bytes is the model's, and the section writes back byte for byte`, () => {
        for (let seed = 1; seed <= 4; seed++) {
          const section = encodeStackMapSection(randomStackMap(seededRandom(seed), { version, endian, functions: 5, records: 60, maxLocations: 12 }));
          const text = fromBytes(decodeStackMapSection(section));
          expect(text).toBe(fromModel(decodeStackMapSection(section)));
          expect(encodeStackMapSection(decodeStackMapSection(section))).toEqual(section);
        }
      });
    }
  }

  it('prints ids between 2^32 and 2^64 − 1, unknown kinds, constant indices past the pool and sizes of 256 and more as the model does', () => {
    const map = randomStackMap(seededRandom(9), { version: 3, endian: 'little', functions: 1, records: 1 });
    const ids = [2n ** 32n, 2n ** 53n - 1n, 2n ** 53n + 1n, 999_999n * 2n ** 32n + 999_999n, 2n ** 64n - 1n, 4_294_967_295n];
    map.records = ids.map((id, i) => ({
      id,
      instructionOffset: i,
      flags: 0,
      locations: [
        { kind: 9, size: 8, reg: 3, offset: -4, reserved: 0, reserved2: 0 },
        { kind: 5, size: 300, reg: 0, offset: 1_000_000, reserved: 0, reserved2: 0 },
        { kind: 3, size: 65535, reg: 65535, offset: -2147483648, reserved: 0, reserved2: 0 },
        { kind: 4, size: 4, reg: 0, offset: -1, reserved: 0, reserved2: 0 },
      ],
      liveOuts: [{ reg: 7, reserved: 0, size: 255 }],
      liveOutPadding: 0,
    }));
    map.functions = [{ address: 0n, stackSize: 16n, recordCount: BigInt(ids.length) }];
    const section = encodeStackMapSection(map);
    const text = fromBytes(decodeStackMapSection(section));
    expect(text).toBe(fromModel(decodeStackMapSection(section)));
    expect(text).toContain('Record ID: 18446744073709551615,');
    expect(text).toContain('Record ID: 4294963002032703,'); // a remainder of 999,999 by 10^6 on each side
    expect(text).toContain('      #1: , size: 8\n'); // kind 9: nothing, as llvm-readobj
    expect(text).toContain('ConstantIndex #1000000 ((no such constant)), size: 300');
  });

  it('keeps non-zero padding and reserved bytes when the records are made', () => {
    const map = randomStackMap(seededRandom(3), { version: 3, endian: 'big', functions: 2, records: 4 });
    map.records[0]!.locationPadding = new Uint8Array([0, 0, 0, 7]).subarray(0, 8 - ((16 + 12 * map.records[0]!.locations.length) % 8 || 8));
    map.records[1]!.flags = 5;
    const section = encodeStackMapSection(map);
    const read = decodeStackMapSection(section);
    expect(read.records[1]!.flags).toBe(5);
    expect(encodeStackMapSection(read)).toEqual(section);
  });

  it("makes the records from its own copy: changing the caller's bytes after decoding changes nothing", () => {
    const section = encodeStackMapSection(randomStackMap(seededRandom(5), { version: 2, endian: 'little', functions: 3, records: 20 }));
    // Inside a larger buffer at an odd offset, as a Node Buffer from a pool would be.
    const whole = new Uint8Array(section.length + 20);
    whole.set(section, 13);
    const bytes = whole.subarray(13, 13 + section.length);
    const map = decodeStackMapSection(bytes);
    const text = fromBytes(decodeStackMapSection(bytes));
    whole.fill(0xff);
    expect(fromBytes(map)).toBe(text);
    expect(encodeStackMapSection(map)).toEqual(section);
  });

  it("with shareBytes, makes the records from the caller's bytes themselves, wherever they sit in their buffer", () => {
    const section = encodeStackMapSection(randomStackMap(seededRandom(10), { version: 3, endian: 'big', functions: 3, records: 40 }));
    const whole = new Uint8Array(section.length + 20);
    whole.set(section, 13);
    const bytes = whole.subarray(13, 13 + section.length);
    const shared = decodeStackMapSection(bytes, { shareBytes: true });
    expect(fromBytes(shared)).toBe(fromBytes(decodeStackMapSection(section)));
    expect(encodeStackMapSection(shared)).toEqual(section);
    // What the option promises not to do, done: the records change with the bytes (not made yet).
    const other = decodeStackMapSection(bytes, { shareBytes: true });
    whole.fill(0);
    expect(other.records.every((r) => r.id === 0n)).toBe(true);
  });

  it('hands the text to a sink in pieces that join to the whole text, each valid until the sink returns', () => {
    // Some 6,000 records: the text is several of the printer's 256 KB pieces.
    const section = encodeStackMapSection(randomStackMap(seededRandom(11), { version: 3, endian: 'little', functions: 20, records: 6000, maxLocations: 12 }));
    const whole = fromBytes(decodeStackMapSection(section));
    const pieces: string[] = [];
    const rest = printStackMapReadobjBytes({ map: decodeStackMapSection(section), grouping: settled }, (chunk) => {
      pieces.push(Buffer.from(chunk).toString('latin1'));
    });
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('') + Buffer.from(rest).toString('latin1')).toBe(whole);
  });

  it('prints the records as changed once they have been made or replaced', () => {
    const section = encodeStackMapSection(randomStackMap(seededRandom(6), { version: 3, endian: 'little', functions: 1, records: 3 }));
    const map = decodeStackMapSection(section);
    map.records[0]!.instructionOffset = 123456;
    expect(fromBytes(map)).toContain('instruction offset: 123456');
    const other = decodeStackMapSection(section);
    other.records = [];
    expect(fromBytes(other)).toContain('Num Records: 0\n');
    expect(fromBytes(other)).not.toContain('Record ID');
  });

  it('prints the constants as changed once they have been made, and from the bytes until then', () => {
    const model = randomStackMap(seededRandom(8), { version: 3, endian: 'big', functions: 2, records: 30 });
    expect(model.constants.length).toBeGreaterThan(2);
    model.constants[0] = 2n ** 64n - 1n;
    model.constants[1] = 2n ** 32n;
    const section = encodeStackMapSection(model);
    const text = fromBytes(decodeStackMapSection(section));
    expect(text).toContain('  #1: 18446744073709551615\n  #2: 4294967296\n');
    expect(text).toContain('(18446744073709551615)');
    const map = decodeStackMapSection(section);
    map.constants[0] = 7n;
    const changed = fromBytes(map);
    expect(changed).toContain('  #1: 7\n');
    expect(changed).not.toContain('18446744073709551615');
    expect(decodeStackMapSection(section).constants).toEqual(model.constants);
  });

  it('shows the records to copies and comparisons like a plain property', () => {
    const section = encodeStackMapSection(randomStackMap(seededRandom(7), { version: 1, endian: 'little', functions: 2, records: 5 }));
    const a = decodeStackMapSection(section);
    const b = decodeStackMapSection(section);
    expect({ ...a }.records).toHaveLength(5);
    expect(b).toEqual(a);
    expect(Object.keys(decodeStackMapSection(section))).toEqual([
      'version',
      'variant',
      'endian',
      'headerReserved',
      'functions',
      'constants',
      'records',
      'trailing',
    ]);
  });
});
