/** `llvm-bytecode link`: llvm-link's command line over linkModules, the output written as version 6. */
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { writeArchive } from '../../src/archive/index.js';
import { run } from '../../src/cli/run.js';
import { writeModule } from '../../src/encode/write.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { memoryIo } from '../cli/memory-io.js';

const bc = (text: string): Uint8Array => writeModule(parseAssembly(text, { dialect: '1.9' }), { bytecodeVersion: 6, compression: 'none' });
const MAIN = bc('declare int %f()\nint %main() {\n\t%r = call int %f()\n\tret int %r\n}\n');
const F = bc('implementation\nint %f() {\n\tret int 7\n}\n');
const F2 = bc('implementation\nint %f() {\n\tret int 8\n}\n');

describe('link', () => {
  it('links the inputs into -o, as version 6 bytecode', async () => {
    const io = memoryIo({ 'main.bc': MAIN, 'f.bc': F });
    expect(await run(['link', 'main.bc', 'f.bc', '-o', 'out.bc'], io)).toBe(0);
    const out = readModule(io.files.get('out.bc')!);
    expect(out.source?.bytecodeVersion).toBe(6);
    expect(printModule(out)).toContain('int %f() {\n\tret int 7\n}');
  });

  it("refuses on one line with LLVM's reason and the input being linked in", async () => {
    const io = memoryIo({ 'f.bc': F, 'f2.bc': F2 });
    expect(await run(['link', 'f.bc', 'f2.bc', '-o', 'out.bc'], io)).toBe(1);
    expect(io.err()).toBe('llvm-bytecode: error: f2.bc: link error: Function \' int ()\':"f" - Function is already defined!\n');
    expect(io.files.has('out.bc')).toBe(false);
  });

  it('takes from an archive the members that resolve undefined symbols', async () => {
    const lib = writeArchive(
      [
        { name: 'f2.bc', data: bc('implementation\nint %unrelated() {\n\tret int 8\n}\n'), date: 0, uid: 0, gid: 0, mode: 0o100644 },
        { name: 'f.bc', data: F, date: 0, uid: 0, gid: 0, mode: 0o100644 },
      ],
      {},
    );
    const io = memoryIo({ 'main.bc': MAIN, 'libf.a': lib });
    expect(await run(['link', 'main.bc', 'libf.a', '-o', 'out.bc'], io)).toBe(0);
    const text = printModule(readModule(io.files.get('out.bc')!));
    expect(text).toContain('ret int 7');
    expect(text).not.toContain('unrelated');
  });

  it('needs -o and inputs; --help shows the usage', async () => {
    expect(await run(['link', 'a.bc'], memoryIo())).toBe(2);
    expect(await run(['link', '-o', 'x.bc'], memoryIo())).toBe(2);
    const io = memoryIo();
    expect(await run(['link', '--help'], io)).toBe(0);
    expect(io.out()).toMatch(/^usage: llvm-bytecode link/);
  });
});
