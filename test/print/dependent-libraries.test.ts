/**
 * A dependent library named twice: LLVM 1.4–1.9 kept the list as a set (its reader and its
 * `llvm-as` dropped the repeat), LLVM 1.3 as a list (the format table's `uniqueDependentLibraries`).
 * The graph keeps what the file holds, so it writes back byte for byte; each dialect prints what
 * its release's reader held, and the assembler builds what its release's `llvm-as` did.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { writeModule } from '../../src/encode/write.js';
import { emptyModule } from '../../src/graph/describe.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';

import { LLVM19, needs } from '../support/tools.js';

/** A module naming `a` twice, as LLVM 1.3's writer could have written it. */
function twice(): Uint8Array {
  const m = emptyModule();
  m.dependentLibraries = ['a', 'b', 'a'];
  return writeModule(m, { bytecodeVersion: 6, compression: 'none' });
}

describe('a dependent library named twice', () => {
  it("is kept by the reader, printed once in LLVM 1.9's dialect, and written back as it was", () => {
    const bytes = twice();
    const read = readModule(bytes);
    expect(read.dependentLibraries).toEqual(['a', 'b', 'a']);
    const listing = printModule(read);
    expect(listing).toContain('deplibs = [ "a", "b" ]\n');
    expect(writeModule(read, { bytecodeVersion: 6, compression: 'none' })).toEqual(bytes);
  });

  it("is printed twice in LLVM 1.3's dialect, whose reader kept the list", () => {
    const m = emptyModule();
    m.dependentLibraries = ['a', 'a'];
    const read = readModule(writeModule(m, { bytecodeVersion: 3 }));
    expect(printModule(read, { syntax: 'native' })).toContain('deplibs = [\n"a",\n"a" ]\n');
    expect(printModule(read, { syntax: '1.9' })).toContain('deplibs = [ "a" ]\n');
  });

  it('is dropped by the assembler of LLVM 1.8 and 1.9 text, kept in LLVM 1.3 text', () => {
    const text = 'deplibs = [ "a", "b", "a" ]\n';
    expect(parseAssembly(text, { dialect: '1.9' }).dependentLibraries).toEqual(['a', 'b']);
    expect(parseAssembly(text, { dialect: '1.8' }).dependentLibraries).toEqual(['a', 'b']);
    expect(parseAssembly(text, { dialect: '1.3' }).dependentLibraries).toEqual(['a', 'b', 'a']);
  });
});

describe("a dependent library named twice, against LLVM 1.9's tools", needs(LLVM19), () => {
  it('llvm-dis prints it once, as we do', () => {
    const bytes = twice();
    expect(printModule(readModule(bytes))).toBe(execFileSync(LLVM19.path('llvm-dis'), { input: bytes }).toString('latin1'));
  });

  it('llvm-as drops the repeat, and writes the bytes we write', () => {
    const text = 'deplibs = [ "a", "b", "a" ]\n';
    const ours = writeModule(parseAssembly(text), { bytecodeVersion: 6, compression: 'auto' });
    expect(ours).toEqual(new Uint8Array(execFileSync(LLVM19.path('llvm-as'), ['-f', '-o', '-'], { input: text })));
  });
});
