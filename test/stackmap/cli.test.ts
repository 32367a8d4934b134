import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { memoryIo } from '../cli/memory-io.js';
import { buildSection, Bytes, sampleSpec } from '../support/stackmap-builder.js';

async function cli(args: string[], files: Record<string, Uint8Array>) {
  const io = memoryIo(files);
  const code = await run(args, io);
  return { code, out: io.out(), err: io.err(), files: io.files };
}

describe('llvm-bytecode stackmap', () => {
  const v3 = buildSection(sampleSpec(3));
  const v3big = buildSection(sampleSpec(3, 'big'));

  it('has help', async () => {
    const r = await cli(['stackmap', '--help'], {});
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--syntax readobj/);
  });

  it('prints the human view by default, readobj and text on request', async () => {
    expect((await cli(['stackmap', 'a.sec'], { 'a.sec': v3 })).out).toMatch(/^Stack map version 3, little-endian/);
    expect((await cli(['stackmap', '--syntax', 'readobj', 'a.sec'], { 'a.sec': v3 })).out).toMatch(/^LLVM StackMap Version: 3\nNum Functions: 2\n/);
    expect((await cli(['stackmap', '--syntax', 'text', 'a.sec'], { 'a.sec': v3 })).out).toMatch(/^LLVM StackMap Version: 3\n/);
  });

  it('heads each file when given several, and goes on after a bad one with exit status 1', async () => {
    const r = await cli(['stackmap', '--syntax', 'readobj', 'a.sec', 'bad.sec', 'b.sec'], {
      'a.sec': v3,
      'bad.sec': Uint8Array.of(9, 9, 9, 9),
      'b.sec': v3big,
    });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^a\.sec: bare stack map section\nLLVM StackMap Version: 3/);
    expect(r.out).toMatch(/b\.sec: bare stack map section\nLLVM StackMap Version: 3/);
    expect(r.err).toBe(
      'llvm-bytecode: error: bad.sec: byte 0 is 9: not a stack map version LLVM wrote (0 to 3) (offset 0, in bare section (not an object file))\n',
    );
  });

  it('--endian forces a bare section byte order', async () => {
    const r = await cli(['stackmap', '--endian', 'little', 'b.sec'], { 'b.sec': v3big });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^llvm-bytecode: error: b\.sec: /);
  });

  it('--json prints every section as JSON', async () => {
    const r = await cli(['stackmap', '--json', 'a.sec'], { 'a.sec': v3 });
    expect(JSON.parse(r.out)[0]).toMatchObject({ file: 'a.sec', version: 3, endian: 'little' });
  });

  it('--check prints diagnostics and exits 1 on errors', async () => {
    const spec = sampleSpec(3);
    spec.records[0]!.locations![2]!.offset = 7;
    const r = await cli(['stackmap', '--check', 'a.sec', 'bad.sec'], { 'a.sec': v3, 'bad.sec': buildSection(spec) });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/a\.sec: note: function #1's stack size is UINT64_MAX/);
    expect(r.out).toMatch(/bad\.sec: error: record #0 \(id 2\), location #3 indexes constant 7 of 1/);
  });

  it('--to-version writes the converted section, and refuses with the reason what the target cannot hold', async () => {
    const ok = await cli(['stackmap', '--to-version', '2', 'a.sec', '-o', 'b.sec'], { 'a.sec': v3 });
    expect(ok.code).toBe(0);
    expect(ok.files.get('b.sec')).toEqual(buildSection(sampleSpec(2)));
    const spec = sampleSpec(3);
    spec.records[0]!.locations![0]!.size = 512;
    const refused = await cli(['stackmap', '--to-version', '1', 'a.sec', '-o', 'b.sec'], { 'a.sec': buildSection(spec) });
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/cannot write version 1: record #0's location #1 is 512 bytes/);
    expect(refused.files.has('b.sec')).toBe(false);
  });

  it('usage mistakes exit 2', async () => {
    expect((await cli(['stackmap'], {})).code).toBe(2);
    expect((await cli(['stackmap', '--to-version', '2', 'a.sec'], { 'a.sec': v3 })).code).toBe(2);
    expect((await cli(['stackmap', '--json', '--check', 'a.sec'], { 'a.sec': v3 })).code).toBe(2);
  });

  it('an output that is the input is refused as every command refuses it: one line, exit 1', async () => {
    const r = await cli(['stackmap', '--to-version', '2', 'a.sec', '-o', 'a.sec'], { 'a.sec': v3 });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^llvm-bytecode: error: a\.sec: refusing to write over the input[^\n]*\n$/);
  });

  it('an object file without a stack map section says so', async () => {
    const elf = new Bytes().raw([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]).raw(new Uint8Array(57)).bytes();
    const r = await cli(['stackmap', 'x.o'], { 'x.o': elf });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no stack map section in this ELF file/);
  });
});
