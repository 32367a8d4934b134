/**
 * Seeds and mutations for the stack map fuzzers: generated sections of every version in both byte
 * orders, the forks' variants, ELF objects (both classes and byte orders) around them, and, when
 * given, real objects (llc's). Mutations are those of `npm run fuzz`: bit flips, byte sets to
 * boundary values, 32-bit counts set to large values, truncation, duplication of a slice.
 */
import { encodeStackMapSection } from '../src/stackmap/encode.js';
import { elfObject, randomStackMap } from './stackmap-samples.js';
import type { StackMapVersion } from '../src/stackmap/model.js';

export interface Seed {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export function stackMapSeeds(random: () => number, extra: readonly Seed[] = []): Seed[] {
  const seeds: Seed[] = [];
  for (const version of [0, 1, 2, 3] as StackMapVersion[]) {
    for (const endian of ['little', 'big'] as const) {
      const map = randomStackMap(random, { version, endian, functions: 3, records: 5, maxLocations: 4 });
      const section = encodeStackMapSection(map);
      seeds.push({ name: `version ${version} ${endian}-endian section`, bytes: section });
      if (version === 1)
        seeds.push({
          name: `Manticore version 1 ${endian}-endian`,
          bytes: encodeStackMapSection({ ...map, functions: map.functions.map((f) => ({ ...f, recordCount: 0n })), records: [] }, { variant: 'manticore-v1' }),
        });
      if (version === 2) seeds.push({ name: `version-3 layout under byte 2, ${endian}-endian`, bytes: encodeStackMapSection(map, { variant: 'v3-layout' }) });
      if (version >= 1) {
        for (const is64 of [true, false]) {
          seeds.push({
            name: `ELF${is64 ? 64 : 32} ${endian}-endian, version ${version}`,
            bytes: elfObject(section, { is64, endian, functionNames: map.functions.map((_, i) => `f${i}`), functionEntrySize: version === 1 ? 16 : 24 }),
          });
        }
      }
    }
  }
  // LLILC's flat version 2 header and a ykllvm-shaped version 3 record, for the fork probes.
  seeds.push({
    name: 'LLILC flat version 2',
    bytes: Uint8Array.from([2, 0, 0, 0, 1, 0, 0, 0, 32, 0, 0, 0, 32, 0, 0, 0, 64, 0, 0, 0, 64, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 0, ...new Array(32).fill(0)]),
  });
  return [...seeds, ...extra];
}

const BOUNDARY = [0, 1, 2, 3, 7, 8, 0x7f, 0x80, 0xfe, 0xff];

/** One damaged copy of `bytes`. */
export function mutate(random: () => number, bytes: Uint8Array): Uint8Array {
  const int = (n: number) => Math.floor(random() * n);
  let out = bytes.slice();
  const edits = 1 + int(3);
  for (let e = 0; e < edits && out.length > 0; e++) {
    const at = int(out.length);
    switch (int(6)) {
      case 0:
        out[at] = out[at]! ^ (1 << int(8));
        break;
      case 1:
        out[at] = BOUNDARY[int(BOUNDARY.length)]!;
        break;
      case 2: {
        const v = [0xffffffff, 0x7fffffff, 0x10000, 0xffff, 1 << 20][int(5)]!;
        for (let k = 0; k < 4 && at + k < out.length; k++) out[at + k] = (v >>> (8 * k)) & 0xff;
        break;
      }
      case 3:
        out = out.slice(0, at);
        break;
      case 4: {
        const len = int(32);
        const copy = out.slice(at, at + len);
        const merged = new Uint8Array(out.length + copy.length);
        merged.set(out.subarray(0, at));
        merged.set(copy, at);
        merged.set(out.subarray(at), at + copy.length);
        out = merged;
        break;
      }
      default:
        out[at] = int(256);
    }
  }
  return out;
}
