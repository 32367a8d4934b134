import { describe, expect, it } from 'vitest';
import { encodeStackMapSection, printStackMapReadobj, readStackMaps, writeStackMap } from './imports.js';
import { needs } from '../support/tools.js';
import { LLVM16, SIMPLE_TARGETS, TARGETS, llcObject, llcSimpleObject, readobjStackmap, tempFile, universalObject } from '../support/stackmap-objects.js';
import { elfObject, randomSection } from '../../tools/stackmap-samples.js';
import { seededRandom } from '../../tools/seeded-random.js';

describe.skipIf(!LLVM16.present)(`objects made by llc-16 for every target (${LLVM16.present ? 'present' : LLVM16.skipReason})`, () => {
  for (const { triple, statepoints, container } of TARGETS) {
    for (const opt of [0, 2] as const) {
      it(`${triple} -O${opt}: --syntax readobj prints what llvm-readobj-16 --stackmap prints`, needs(LLVM16), () => {
        const { path, bytes } = llcObject(triple, opt, statepoints);
        const file = readStackMaps(bytes);
        expect(file.container).toBe(container);
        expect(file.sections.map(printStackMapReadobj).join('')).toBe(readobjStackmap(path));
      });

      it(`${triple} -O${opt}: every function entry is named and the section writes back byte for byte`, needs(LLVM16), () => {
        const { bytes } = llcObject(triple, opt, statepoints);
        const [s] = readStackMaps(bytes).sections;
        const names = s!.functionNames.map((n) => n?.replace(/^_/, ''));
        expect(names).toEqual(['constants', 'anyreg', 'dynamic', ...(statepoints ? ['gc'] : [])]);
        expect(encodeStackMapSection(s!.map)).toEqual(s!.found.bytes);
        expect(writeStackMap(bytes, s!)).toMatchObject({ kind: 'object', bytes });
      });

      it(`${triple} -O${opt}: version 3 to 2 to 3 gives the original bytes`, needs(LLVM16), () => {
        const { bytes } = llcObject(triple, opt, statepoints);
        const [s] = readStackMaps(bytes).sections;
        const v2 = encodeStackMapSection(s!.map, { version: 2 });
        expect(v2[0]).toBe(2);
        const back = readStackMaps(v2, { endian: s!.map.endian }).sections[0]!;
        expect(encodeStackMapSection(back.map, { version: 3 })).toEqual(s!.found.bytes);
      });
    }
  }
});

describe.skipIf(!LLVM16.present)('the other containers: 32-bit ELF and Mach-O, COFF for ARM64, universal Mach-O, generated ELF objects', () => {
  for (const { triple, container } of SIMPLE_TARGETS) {
    it(`${triple}: readobj text equal, functions named, byte-identical write-back`, needs(LLVM16), () => {
      const { path, bytes } = llcSimpleObject(triple);
      const file = readStackMaps(bytes);
      expect(file.container).toBe(container);
      expect(file.sections.map(printStackMapReadobj).join('')).toBe(readobjStackmap(path));
      expect(file.sections[0]!.functionNames.map((n) => n?.replace(/^_/, ''))).toEqual(['f', 'g']);
      expect(writeStackMap(bytes, file.sections[0]!)).toMatchObject({ kind: 'object', bytes });
    });
  }

  it('a universal Mach-O file: each slice read, in order, as llvm-readobj-16 prints them', needs(LLVM16), () => {
    const { path, bytes } = universalObject();
    const file = readStackMaps(bytes);
    expect(file.sections.map((s) => s.found.format)).toEqual(['Mach-O 64-bit x86-64 (slice 1 of 2 of a universal file)', 'Mach-O 64-bit arm64 (slice 2 of 2 of a universal file)']);
    const theirs = readobjStackmap(path).split(/\n(?=File: )/);
    const versionOn = (t: string) => t.slice(t.indexOf('LLVM StackMap Version:')).replace(/\n+$/, '\n');
    expect(file.sections.map(printStackMapReadobj)).toEqual([versionOn(theirs[0]!), versionOn(`File: ${theirs[1]!}`)]);
  });

  for (const is64 of [true, false]) {
    for (const endian of ['little', 'big'] as const) {
      it(`a generated ELF${is64 ? 64 : 32} ${endian}-endian object of 500 records prints as llvm-readobj-16 prints it`, needs(LLVM16), () => {
        const section = randomSection(seededRandom(is64 ? 3 : 4), { version: 3, endian, functions: 20, records: 500 });
        const bytes = elfObject(section, { is64, endian, functionNames: Array.from({ length: 20 }, (_, i) => `fn${i}`), functionEntrySize: 24 });
        const path = tempFile(`generated-${is64 ? 64 : 32}-${endian}.o`, bytes);
        const file = readStackMaps(bytes);
        expect(file.sections[0]!.functionNames[19]).toBe('fn19');
        expect(printStackMapReadobj(file.sections[0]!)).toBe(readobjStackmap(path));
      });
    }
  }
});
