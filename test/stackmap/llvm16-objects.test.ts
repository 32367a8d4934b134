/**
 * Known answers against LLVM 16: each target's reference module (fixed IR whose functions are
 * known by name: tools/stackmap-ir.ts's referenceModule, compiled by the one generator,
 * tools/stackmap-objects.ts) at -O0 and -O2, a universal Mach-O file of two of them, and
 * generated ELF objects of both classes and byte orders, each printed as llvm-readobj-16 prints it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeStackMapSection, printStackMapReadobj, readStackMaps, writeStackMap } from './imports.js';
import { debianLlvm, needs } from '../support/tools.js';
import { STACKMAP_TARGETS } from '../../tools/stackmap-ir.js';
import { generateStackmapObjects, readobjStackmap, universalMachO, type GeneratedObject } from '../../tools/stackmap-objects.js';
import { elfObject, randomSection } from '../../tools/stackmap-samples.js';
import { seededRandom } from '../../tools/seeded-random.js';

const LLVM16 = debianLlvm(16);
const OPT_LEVELS = [0, 2] as const;

describe.skipIf(!LLVM16.present)(`objects made by llc-16 for every target (${LLVM16.present ? 'present' : LLVM16.skipReason})`, needs(LLVM16), () => {
  let dir = '';
  let manifest: GeneratedObject[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'stackmap-llc-'));
    manifest = generateStackmapObjects({ out: dir, count: 0, seed: 1, bin: LLVM16.dir, reference: OPT_LEVELS });
  });
  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  /** The reference object of `target` at `opt`: its path, bytes and function names. */
  const reference = (target: string, opt: number): { path: string; bytes: Uint8Array; functionNames: string[] } => {
    const m = manifest.find((e) => e.target === target && e.name === `reference-O${opt}`);
    expect(m?.status, `${target} -O${opt}: ${m?.message ?? 'not generated'}`).toBe('ok');
    const path = join(dir, m!.object!);
    return { path, bytes: new Uint8Array(readFileSync(path)), functionNames: m!.functionNames! };
  };

  for (const { name, triple, format } of STACKMAP_TARGETS) {
    for (const opt of OPT_LEVELS) {
      it(`${name} (${triple}) -O${opt}: --syntax readobj prints what llvm-readobj-16 --stackmap prints`, () => {
        const { path, bytes } = reference(name, opt);
        const file = readStackMaps(bytes);
        expect(file.container).toBe(format);
        expect(file.sections.map(printStackMapReadobj).join('')).toBe(readobjStackmap(LLVM16.dir, path));
      });

      it(`${name} (${triple}) -O${opt}: every function entry is named and the section writes back byte for byte`, () => {
        const { bytes, functionNames } = reference(name, opt);
        const [s] = readStackMaps(bytes).sections;
        expect(s!.functionNames.map((n) => n?.replace(/^_/, ''))).toEqual(functionNames);
        expect(encodeStackMapSection(s!.map)).toEqual(s!.found.bytes);
        expect(writeStackMap(bytes, s!)).toMatchObject({ kind: 'object', bytes });
      });

      it(`${name} (${triple}) -O${opt}: version 3 to 2 to 3 gives the original bytes`, () => {
        const { bytes } = reference(name, opt);
        const [s] = readStackMaps(bytes).sections;
        const v2 = encodeStackMapSection(s!.map, { version: 2 });
        expect(v2[0]).toBe(2);
        const back = readStackMaps(v2, { endian: s!.map.endian }).sections[0]!;
        expect(encodeStackMapSection(back.map, { version: 3 })).toEqual(s!.found.bytes);
      });
    }
  }

  it('a universal Mach-O file: each slice read, in order, as llvm-readobj-16 prints them', () => {
    const path = join(dir, 'universal.o');
    const bytes = universalMachO(LLVM16.dir, [reference('x86-64-macho', 2).path, reference('arm64-macho', 2).path], path);
    const file = readStackMaps(bytes);
    expect(file.sections.map((s) => s.found.format)).toEqual([
      'Mach-O 64-bit x86-64 (slice 1 of 2 of a universal file)',
      'Mach-O 64-bit arm64 (slice 2 of 2 of a universal file)',
    ]);
    const theirs = readobjStackmap(LLVM16.dir, path).split(/\n(?=File: )/);
    const versionOn = (t: string) => t.slice(t.indexOf('LLVM StackMap Version:')).replace(/\n+$/, '\n');
    expect(file.sections.map(printStackMapReadobj)).toEqual([versionOn(theirs[0]!), versionOn(`File: ${theirs[1]!}`)]);
  });

  for (const is64 of [true, false]) {
    for (const endian of ['little', 'big'] as const) {
      it(`a generated ELF${is64 ? 64 : 32} ${endian}-endian object of 500 records prints as llvm-readobj-16 prints it`, () => {
        const section = randomSection(seededRandom(is64 ? 3 : 4), { version: 3, endian, functions: 20, records: 500 });
        const bytes = elfObject(section, { is64, endian, functionNames: Array.from({ length: 20 }, (_, i) => `fn${i}`), functionEntrySize: 24 });
        const path = join(dir, `generated-${is64 ? 64 : 32}-${endian}.o`);
        writeFileSync(path, bytes);
        const file = readStackMaps(bytes);
        expect(file.sections[0]!.functionNames[19]).toBe('fn19');
        expect(printStackMapReadobj(file.sections[0]!)).toBe(readobjStackmap(LLVM16.dir, path));
      });
    }
  }
});
