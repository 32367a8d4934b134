/**
 * The compaction-table reader the graph builder and the analyzer share
 * (decode/compaction-records.ts): the version 2+ type list, then planes whose word holds a short
 * count and type id, or 3 and a long count before a type id; versions 0–1 list their compacted
 * types as the type type's plane.
 */
import { describe, expect, it } from 'vitest';
import { readCompactionTable, type CompactionReading } from '../../src/decode/compaction-records.js';
import { BytecodeReader } from '../../src/decode/reader.js';
import { formatFor } from '../../src/format/format-table.js';

const reader = (...bytes: number[]): BytecodeReader => new BytecodeReader(Uint8Array.from(bytes), 0, bytes.length);

function recorder(): { reading: CompactionReading; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const hook =
    (name: string) =>
    (...args: unknown[]): void => {
      calls.push([name, ...args]);
    };
  return {
    calls,
    reading: {
      typeCount: (n, at) => (calls.push(['typeCount', n, at]), n),
      types: hook('types'),
      type: hook('type'),
      typesEnd: hook('typesEnd'),
      planeHeader: hook('planeHeader'),
      valuePlane: hook('valuePlane'),
      entry: hook('entry'),
      valuePlaneEnd: hook('valuePlaneEnd'),
    },
  };
}

describe('compaction tables', () => {
  it('version 2+: the type list first, then a short plane (count 2 of type 14) and a long one (count 5, type 15)', () => {
    const { reading, calls } = recorder();
    // 1 type: 14; plane word (14 << 2) | 2, slots 0 and 3; plane word (5 << 2) | 3, type 15, five slots
    const r = reader(1, 14, (14 << 2) | 2, 0, 3, (5 << 2) | 3, 15, 1, 2, 3, 4, 5);
    readCompactionTable(r, formatFor(3)!, reading);
    expect(calls).toEqual([
      ['typeCount', 1, 0],
      ['types', 1, 0],
      ['type', 0, 14, 1],
      ['typesEnd', 1],
      ['planeHeader', 2, 2],
      ['valuePlane', 2, 14, 2],
      ['entry', 0, 0, 3],
      ['entry', 1, 3, 4],
      ['valuePlaneEnd', 2, 14, 2],
      ['planeHeader', 5, 5],
      ['valuePlane', 5, 15, 5],
      ['entry', 0, 1, 7],
      ['entry', 1, 2, 8],
      ['entry', 2, 3, 9],
      ['entry', 3, 4, 10],
      ['entry', 4, 5, 11],
      ['valuePlaneEnd', 5, 15, 5],
    ]);
  });

  it("versions 0–1: no list first; the type type's plane (12) is the list, and ids above it move down by one", () => {
    const { reading, calls } = recorder();
    // plane word (12 << 2) | 1: one compacted type, id 14 (13 once normalized); then plane 14 -> 13 with one slot
    readCompactionTable(reader((12 << 2) | 1, 14, (14 << 2) | 1, 9), formatFor(1)!, reading);
    expect(calls).toEqual([
      ['planeHeader', 1, 0],
      ['types', 1, 0],
      ['type', 0, 13, 1],
      ['typesEnd', 1],
      ['planeHeader', 1, 2],
      ['valuePlane', 1, 13, 2],
      ['entry', 0, 9, 3],
      ['valuePlaneEnd', 1, 13, 2],
    ]);
  });
});
