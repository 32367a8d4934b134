/**
 * The real version-1 object (../shared/stackmaps/historic, from microsoft/DirectXShaderCompiler's
 * test/Object/Inputs, written by an LLVM 3.7-era compiler), against that repository's expected
 * text (test/Object/stackmap-dump.test, whose fork renamed the tool's heading to "LLVM37"; LLVM 3.7
 * printed "LLVM StackMap Version").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeStackMapSection, printStackMapHuman, printStackMapText, readStackMaps, writeStackMap } from './imports.js';
import { DXC_EXPECTED, HAVE_HISTORIC, HISTORIC_OBJECT } from '../support/stackmap-historic.js';

const OBJECT = HISTORIC_OBJECT;
const present = HAVE_HISTORIC;
const EXPECTED_37 = `${DXC_EXPECTED}\n\n`;
describe.skipIf(!present)(`the real version-1 object (${present ? OBJECT : `not found at ${OBJECT}; set LLVM_BYTECODE_STACKMAPS=DIR`})`, () => {
  const bytes = () => new Uint8Array(readFileSync(OBJECT));

  it("reads as LLVM 3.7's llvm-readobj printed it (where llvm-readobj-16 prints a record count of 10000000000)", () => {
    const file = readStackMaps(bytes());
    expect(file.container).toBe('macho');
    expect(printStackMapText(file.sections[0]!)).toBe(EXPECTED_37);
  });

  it('names its function from the relocation and gives the location sizes (8) that byte 1 holds', () => {
    const s = readStackMaps(bytes()).sections[0]!;
    expect(s.functionNames).toEqual(['_trivial_patchpoint_codegen']);
    expect(s.map.records[0]!.locations.map((l) => l.size)).toEqual([8, 8, 8, 8, 8]);
    expect(printStackMapHuman(s)).toContain('function _trivial_patchpoint_codegen (address 0, stack size 16): 1 records');
  });

  it('writes back byte for byte, in place', () => {
    const s = readStackMaps(bytes()).sections[0]!;
    expect(writeStackMap(bytes(), s)).toEqual({ kind: 'object', bytes: bytes() });
  });

  it('converts to version 3 (one function, one record: the grouping is settled) and back to the same bytes', () => {
    const s = readStackMaps(bytes()).sections[0]!;
    const v3 = encodeStackMapSection(s.map, { version: 3 });
    const back = readStackMaps(v3).sections[0]!;
    expect(back.map.functions[0]!.recordCount).toBe(1n);
    expect(encodeStackMapSection(back.map, { version: 1 })).toEqual(s.found.bytes);
  });
});
