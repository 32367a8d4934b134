import { describe, expect, it } from 'vitest';
import { encodeStackMapSection, printStackMapReadobj, readStackMaps, writeStackMap } from './imports.js';
import { needs } from '../support/tools.js';
import { LLVM16, TARGETS, llcObject, readobjStackmap } from '../support/stackmap-objects.js';

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
