/**
 * `sameBytesInOrderOf` (tools/plane-order.ts), the comparison the assembler's and the linker's
 * checks against LLVM rest on: our module, written in the symbol-table order of LLVM's file, must
 * be that file byte for byte. It must accept a file whose only difference is the order of its
 * symbol tables' planes (what LLVM took from heap addresses), and refuse any other difference,
 * including those that keep the length, the bytes' counts and the listing.
 */
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { writeModule, type WriteOptions } from '../../src/encode/write.js';
import type { Module } from '../../src/graph/module.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { sameBytesInOrderOf, withSymbolOrderOf } from '../../tools/plane-order.js';

const TEXT = `%a = global int 1
%b = global float 2.0
%c = global sbyte 3
%d = global int 4
%e = external global float

implementation

int %f(int %x, float %y) {
entry:
	%s = sub int %x, 7
	%t = cast float %y to int
	%u = mul int %s, %t
	%v = cast int %u to sbyte
	%w = cast sbyte %v to int
	ret int %w
}

float %g(float %y) {
	%z = add float %y, 1.0
	ret float %z
}
`;

const V6: WriteOptions = { bytecodeVersion: 6, compression: 'none' };
const asm = (text: string): Module => parseAssembly(text, { dialect: '1.9' });

/** The bytes of `text` with every symbol table's planes in reverse order (as another heap could have put them). */
function reversedPlanes(text: string, options: WriteOptions): Uint8Array {
  const m = readModule(writeModule(asm(text), options));
  m.layout!.valuePlanes.reverse();
  for (const f of m.functions) f.layout?.valuePlanes.reverse();
  return writeModule(m, options);
}

describe('sameBytesInOrderOf', () => {
  it('accepts the same module with its planes in another order', () => {
    const theirs = reversedPlanes(TEXT, V6);
    expect(Buffer.from(theirs).equals(Buffer.from(writeModule(asm(TEXT), V6)))).toBe(false);
    expect(sameBytesInOrderOf(asm(TEXT), theirs, V6)).toBe(true);
  });

  it('accepts it at every version that has planes, 0 to 6', () => {
    for (const bytecodeVersion of [0, 1, 3, 5, 6]) {
      const options: WriteOptions = { bytecodeVersion, compression: 'none' };
      expect(sameBytesInOrderOf(asm(TEXT), reversedPlanes(TEXT, options), options), `version ${bytecodeVersion}`).toBe(true);
    }
  });

  it('accepts identical bytes', () => {
    expect(sameBytesInOrderOf(asm(TEXT), writeModule(asm(TEXT), V6), V6)).toBe(true);
  });

  it('refuses a constant changed for another of the same size', () => {
    expect(sameBytesInOrderOf(asm(TEXT), reversedPlanes(TEXT.replace('global int 4', 'global int 5'), V6), V6)).toBe(false);
  });

  it('refuses swapped operands: the same length, the same bytes counted, another module', () => {
    const swapped = TEXT.replace('%u = mul int %s, %t', '%u = mul int %t, %s');
    const ours = writeModule(asm(TEXT), V6);
    const theirs = writeModule(asm(swapped), V6);
    expect(theirs.length).toBe(ours.length);
    expect([...theirs].sort()).toEqual([...ours].sort());
    expect(sameBytesInOrderOf(asm(TEXT), theirs, V6)).toBe(false);
  });

  it('refuses two names exchanged within a plane, which the listing shows but no byte count does', () => {
    const exchanged = TEXT.replace('%a = global int 1', '%tmp = global int 1')
      .replace('%d = global int 4', '%a = global int 4')
      .replace('%tmp = global int 1', '%d = global int 1');
    expect(printModule(asm(exchanged))).not.toBe(printModule(asm(TEXT)));
    expect(sameBytesInOrderOf(asm(TEXT), reversedPlanes(exchanged, V6), V6)).toBe(false);
  });

  it('refuses a file written at another version or compression than asked', () => {
    expect(sameBytesInOrderOf(asm(TEXT), reversedPlanes(TEXT, { bytecodeVersion: 5, compression: 'none' }), V6)).toBe(false);
    expect(sameBytesInOrderOf(asm(TEXT), writeModule(asm(TEXT), { bytecodeVersion: 6, compression: 'bzip2' }), V6)).toBe(false);
  });

  it('refuses bytes that are no module, without throwing', () => {
    const theirs = writeModule(asm(TEXT), V6);
    expect(sameBytesInOrderOf(asm(TEXT), theirs.slice(0, theirs.length - 3), V6)).toBe(false);
    expect(sameBytesInOrderOf(asm(TEXT), new Uint8Array(0), V6)).toBe(false);
  });
});

describe('withSymbolOrderOf', () => {
  it("gives our module the other's plane order and leaves its content alone", () => {
    const theirs = readModule(reversedPlanes(TEXT, V6));
    const ours = asm(TEXT);
    const listing = printModule(ours);
    withSymbolOrderOf(ours, theirs);
    expect(ours.layout!.valuePlanes.map((p) => p.values.map((v) => (v as { name?: string }).name))).toEqual(
      theirs.layout!.valuePlanes.map((p) => p.values.map((v) => (v as { name?: string }).name)),
    );
    expect(printModule(ours)).toBe(listing);
  });
});
