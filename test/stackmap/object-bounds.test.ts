/**
 * The container readers' bounds on hostile tables: work proportional to the file, whatever the
 * tables say (docs/stackmaps.md, "Bounds").
 */
import { describe, expect, it } from 'vitest';
import { readStackMaps, StackMapError } from './imports.js';
import { elfObject, randomSection } from '../../tools/stackmap-samples.js';
import { seededRandom } from '../../tools/seeded-random.js';
import { MAX_NAME } from '../../src/stackmap/object.js';

function elfWithFunctions(n: number): Uint8Array {
  const section = randomSection(seededRandom(5), { version: 3, endian: 'little', functions: n, records: n, maxLocations: 1 });
  return elfObject(section, {
    is64: true,
    endian: 'little',
    functionNames: Array.from({ length: n }, (_, i) => `f${String(i).padStart(9, '0')}`),
    functionEntrySize: 24,
  });
}

/** Section header field of ELF64 section `index`: its file offset (+24) or size (+32). */
function sectionField(elf: Uint8Array, index: number, field: 24 | 32): number {
  const view = new DataView(elf.buffer, elf.byteOffset);
  const shoff = Number(view.getBigUint64(40, true));
  return Number(view.getBigUint64(shoff + index * 64 + field, true));
}

describe('object file bounds', () => {
  it('a symbol name table without terminators costs at most MAX_NAME characters a name', () => {
    const elf = elfWithFunctions(1000);
    const strtab = { offset: sectionField(elf, 5, 24), size: sectionField(elf, 5, 32) };
    for (let i = strtab.offset + 1; i < strtab.offset + strtab.size; i++) if (elf[i] === 0) elf[i] = 0x79;
    const names = readStackMaps(elf).sections[0]!.functionNames;
    expect(names.length).toBe(1000);
    expect(names[0]!.length).toBe(MAX_NAME);
    expect(names.every((n) => n !== undefined && n.length <= MAX_NAME)).toBe(true);
  });

  it('function sizes of many symbols at one address are found in one pass', () => {
    const elf = elfWithFunctions(1000);
    const symtab = sectionField(elf, 4, 24);
    const view = new DataView(elf.buffer, elf.byteOffset);
    for (let k = 1; k <= 1000; k++) view.setBigUint64(symtab + k * 24 + 8, 0n, true); // every symbol at address 0
    expect(readStackMaps(elf).sections[0]!.functionNames[999]).toBe('f000000999');
  });

  it('a section header table beyond the file is a StackMapError with the offset', () => {
    const elf = elfWithFunctions(2);
    new DataView(elf.buffer, elf.byteOffset).setBigUint64(40, BigInt(elf.length), true);
    expect(() => readStackMaps(elf)).toThrow(StackMapError);
  });
});
