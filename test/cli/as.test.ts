/**
 * `llvm-bytecode as`: LLVM 1.x assembly text to bytecode, one file or a batch, with errors that
 * say where; and `upgrade` of assembly text, which gives what upgrading the bytecode gives.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { memoryIo } from './memory-io.js';

const HELLO_BC = new Uint8Array(readFileSync(new URL('../../corpus/hello.bc', import.meta.url)));
const HELLO_LL = new Uint8Array(readFileSync(new URL('../../corpus/hello.ll', import.meta.url)));
const BAD = Buffer.from('implementation\nint %f() {\n\tret int %nosuch\n}\n', 'latin1');

describe('llvm-bytecode as', () => {
  it('assembles corpus/hello.ll into corpus/hello.bc, byte for byte', async () => {
    const io = memoryIo({ 'hello.ll': HELLO_LL });
    expect(await run(['as', 'hello.ll', '-o', 'out.bc'], io)).toBe(0);
    expect(io.files.get('out.bc')).toEqual(HELLO_BC);
  });

  it('reads standard input and writes standard output by default', async () => {
    const io = memoryIo({}, HELLO_LL);
    expect(await run(['as'], io)).toBe(0);
    expect(io.outBytes()).toEqual(HELLO_BC);
  });

  it('writes the version asked for, and the dialect decides the default', async () => {
    const io = memoryIo({ 'hello.ll': HELLO_LL });
    expect(await run(['as', 'hello.ll', '-o', 'v5.bc', '--bytecode-version', '5'], io)).toBe(0);
    const v5 = io.files.get('v5.bc')!;
    expect(String.fromCharCode(...v5.subarray(0, 5))).toBe('llvc0');
    // 1.8's llvm-as wrote version 5: the version word's high bits (version << 4) say 5.
    expect(await run(['as', 'hello.ll', '-o', 'd18.bc', '--dialect', '1.8'], io)).toBe(0);
    expect(io.files.get('d18.bc')).toEqual(v5);
  });

  it('says where bad text is wrong: FILE:LINE:COL, the line and a caret; exit 1, no output', async () => {
    const io = memoryIo({ 'bad.ll': BAD });
    expect(await run(['as', 'bad.ll', '-o', 'bad.bc'], io)).toBe(1);
    // The caret line keeps the line's tab, so the caret stands under column 10 at any tab width.
    expect(io.err()).toBe("llvm-bytecode: error: bad.ll:3:10: use of undefined value '%nosuch' of type int\n\tret int %nosuch\n\t        ^\n");
    expect(io.files.has('bad.bc')).toBe(false);
  });

  it('assembles a directory of .ll files into NAME.bc beside their relative paths, one line per failure', async () => {
    const io = memoryIo({ 'src/a/hello.ll': HELLO_LL, 'src/b/bad.ll': BAD, 'src/ignored.bc': HELLO_BC });
    expect(await run(['as', 'src', '-o', 'out', '--jobs', '1'], io)).toBe(1);
    expect(io.files.get('out/a/hello.bc')).toEqual(HELLO_BC);
    expect(io.files.has('out/b/bad.bc')).toBe(false);
    expect(io.err()).toBe(
      "llvm-bytecode: note: src: 1 skipped: 1 not named .ll\nllvm-bytecode: error: src/b/bad.ll: use of undefined value '%nosuch' of type int (line 3, column 10)\n",
    );
  });
});

describe('llvm-bytecode upgrade of assembly text', () => {
  it('gives what upgrading the bytecode gives (its first line says which it came from)', async () => {
    const io = memoryIo({ 'hello.ll': HELLO_LL, 'hello.bc': HELLO_BC });
    expect(await run(['upgrade', 'hello.ll', '-o', 'from-text.ll'], io)).toBe(0);
    expect(await run(['upgrade', 'hello.bc', '-o', 'from-bc.ll'], io)).toBe(0);
    const body = (p: string): string => Buffer.from(io.files.get(p)!).toString('latin1').split('\n').slice(1).join('\n');
    expect(body('from-text.ll')).toBe(body('from-bc.ll'));
  });

  it('reports bad text with its line and column', async () => {
    const io = memoryIo({ 'bad.ll': BAD });
    expect(await run(['upgrade', 'bad.ll'], io)).toBe(1);
    expect(io.err()).toMatch(/^llvm-bytecode: error: bad\.ll:3:10: use of undefined value/);
  });
});
