/**
 * A dependent library named twice: LLVM 1.4–1.9 kept the list as a set (its reader and its
 * `llvm-as` dropped the repeat), LLVM 1.3 as a list (the format table's `uniqueDependentLibraries`).
 * The graph keeps what the file holds, so it writes back byte for byte; each dialect prints what
 * its release's reader held, and the assembler builds what its release's `llvm-as` did.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { writeModule } from '../../src/encode/write.js';
import { emptyModule } from '../../src/graph/describe.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';

const LLVM19 = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/llvm-1.9/bin');
const HAVE_LLVM19 = existsSync(join(LLVM19, 'llvm-dis'));
if (!HAVE_LLVM19) console.warn(`LLVM 1.9's tools not found at ${LLVM19}: repeated dependent libraries are checked without them`);

describe('a dependent library named twice', () => {
  it('is kept by the reader, printed once in LLVM 1.9\'s dialect, and written back as it was', () => {
    const m = emptyModule();
    m.dependentLibraries = ['a', 'b', 'a'];
    const bytes = writeModule(m, { bytecodeVersion: 6, compression: 'none' });
    const read = readModule(bytes);
    expect(read.dependentLibraries).toEqual(['a', 'b', 'a']);
    const listing = printModule(read);
    expect(listing).toContain('deplibs = [ "a", "b" ]\n');
    if (HAVE_LLVM19) expect(listing).toBe(execFileSync(join(LLVM19, 'llvm-dis'), { input: bytes }).toString('latin1'));
    expect(writeModule(read, { bytecodeVersion: 6, compression: 'none' })).toEqual(bytes);
  });

  it('is printed twice in LLVM 1.3\'s dialect, whose reader kept the list', () => {
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
    if (HAVE_LLVM19) {
      const ours = writeModule(parseAssembly(text), { bytecodeVersion: 6, compression: 'auto' });
      expect(ours).toEqual(new Uint8Array(execFileSync(join(LLVM19, 'llvm-as'), ['-f', '-o', '-'], { input: text })));
    }
  });
});
