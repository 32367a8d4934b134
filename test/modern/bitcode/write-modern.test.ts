/**
 * `writeModern` without LLVM: the bitcode's framing (the 'BC' 0xC0DE magic, an IDENTIFICATION
 * block, then one MODULE block of version 1), that it writes exactly the module `printModern`
 * lowers (the reader of the printer's text refuses anything else, with a line and column), the
 * records of a few constructs decoded with a small reader, and the CLI's `--emit` and `-o FILE.bc`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeModern as fromRoot } from '../../../src/index.js';
import { printModern, UpgradeError, writeModern } from '../../../src/modern/index.js';
import { IrSyntaxError, parseModernIr, bitcodeOfModernIr } from '../../../src/modern/bitcode/index.js';
import { parseFloatBits } from '../../../src/modern/bitcode/parse-ir.js';
import { signRotated } from '../../../src/modern/bitcode/write-module.js';
import { readModule } from '../../../src/read.js';
import { nodeIo, type CliIo } from '../../../src/cli/io.js';
import { run } from '../../../src/cli/run.js';
import { memoryIo } from '../../cli/memory-io.js';

const HELLO_PATH = new URL('../../../corpus/hello.bc', import.meta.url).pathname;
const HELLO = readModule(new Uint8Array(readFileSync(HELLO_PATH)));

/** The top-level blocks of a bitstream: [block id, length in words]. */
function topBlocks(bytes: Uint8Array): [number, number][] {
  const words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: [number, number][] = [];
  let at = 4;
  while (at < bytes.length) {
    // abbrev id 1 (2 bits), block id vbr8, abbrev width vbr4: small ids fit one chunk each.
    const w = words.getUint32(at, true);
    expect(w & 3).toBe(1);
    out.push([(w >>> 2) & 0xff, words.getUint32(at + 4, true)]);
    at += 8 + words.getUint32(at + 4, true) * 4;
  }
  expect(at).toBe(bytes.length);
  return out;
}

describe('writeModern', () => {
  it('is exported from the package root', () => {
    expect(fromRoot).toBe(writeModern);
  });

  it("writes 'BC' 0xC0DE, an IDENTIFICATION block (13), then one MODULE block (8), nothing after", () => {
    const bc = writeModern(HELLO);
    expect(Array.from(bc.slice(0, 4))).toEqual([0x42, 0x43, 0xc0, 0xde]);
    expect(topBlocks(bc).map(([id]) => id)).toEqual([13, 8]);
  });

  it('names the producer and is the same bytes every time', () => {
    const bc = writeModern(HELLO);
    expect(Buffer.from(bc).includes(Buffer.from('llvm-bytecode'))).toBe(false); // 6-bit VBR chars, not bytes
    expect(writeModern(HELLO)).toEqual(bc);
  });

  it('writes the module printModern lowers for the same options', () => {
    for (const llvm of [15, 16, 19, 22]) expect(writeModern(HELLO, { llvm })).toEqual(bitcodeOfModernIr(printModern(HELLO, { llvm })));
    // LLVM 13 and 14: the typed-pointer text, read back with its pointee types.
    for (const llvm of [13, 14]) expect(writeModern(HELLO, { llvm })).toEqual(bitcodeOfModernIr(printModern(HELLO, { llvm }), { typedPointers: true }));
    expect(writeModern(HELLO, { triple: 'x86_64-pc-linux-gnu' })).not.toEqual(writeModern(HELLO));
  });

  it('refuses an LLVM version outside 13 … 22 as printModern does', () => {
    expect(() => writeModern(HELLO, { llvm: 12 })).toThrow(RangeError);
    expect(() => writeModern(HELLO, { llvm: 23 })).toThrow(RangeError);
  });
});

describe('the reader of the printed text', () => {
  it('reads the printed module back: globals, functions, blocks and names', () => {
    const m = parseModernIr(printModern(HELLO));
    expect(m.globals.map((g) => g.name)).toEqual(['n:.str', 'n:fmt', 'n:state']);
    expect(m.functions.map((f) => [f.name, f.blocks?.length ?? 'declaration'])).toEqual([
      ['n:puts', 'declaration'],
      ['n:printf', 'declaration'],
      ['n:sum', 3],
      ['n:main', 1],
    ]);
    expect(m.structs.map((s) => s.name)).toEqual(['n:struct.counter']);
  });

  it('refuses what the printer never writes, with the line and column', () => {
    const bad = (text: string): IrSyntaxError => {
      try {
        parseModernIr(text);
      } catch (e) {
        expect(e).toBeInstanceOf(IrSyntaxError);
        expect(e).toBeInstanceOf(UpgradeError);
        return e as IrSyntaxError;
      }
      throw new Error('accepted');
    };
    expect(bad('@g = global i32* null\n')).toMatchObject({ line: 1, column: 16, message: expect.stringMatching(/typed pointers/) });
    expect(bad('define void @f() {\nentry:\n  fence seq_cst\n  ret void\n}\n')).toMatchObject({ line: 3, column: 3 });
    expect(bad('@s = constant [2 x i8] c"ab\n')).toMatchObject({ line: 1 });
    expect(bad('\n\n  ^')).toMatchObject({ line: 3, column: 3 });
  });

  it('bounds the nesting of types and constants', () => {
    const deep = `@g = global ${'{ '.repeat(600)}`;
    expect(() => parseModernIr(deep)).toThrow(/nested deeper/);
  });

  it('writes a named struct that contains itself through another aggregate (LLVM before 20 takes it)', () => {
    const bc = bitcodeOfModernIr('%t = type { { ptr, %t } }\n@g = external global %t\n');
    expect(Array.from(bc.slice(0, 4))).toEqual([0x42, 0x43, 0xc0, 0xde]);
  });

  it('refuses a use of an undefined value or label by name, not with a crash', () => {
    expect(() => bitcodeOfModernIr('define i32 @f() {\nentry:\n  ret i32 %x\n}\n')).toThrow(/%x is used but not defined in @f/);
    expect(() => bitcodeOfModernIr('define void @f() {\nentry:\n  br label %nowhere\n}\n')).toThrow(/label %nowhere/);
    expect(() => bitcodeOfModernIr('@g = global ptr @h\n')).toThrow(/@h is used but not declared/);
  });
});

describe('encodings', () => {
  it('signed values rotate the sign into bit 0; the most negative 64-bit value is 1, as LLVM writes it', () => {
    expect(signRotated(0n)).toBe(0n);
    expect(signRotated(5n)).toBe(10n);
    expect(signRotated(-5n)).toBe(11n);
    expect(signRotated(-(1n << 63n))).toBe(1n);
    expect(signRotated((1n << 63n) - 1n)).toBe((1n << 64n) - 2n);
  });

  it("floating-point literals: a float's 0x form is the double's bits, decimals exact", () => {
    expect(parseFloatBits('1.000000e+00', 'double')).toBe(0x3ff0000000000000n);
    expect(parseFloatBits('1.000000e+00', 'float')).toBe(0x3f800000n);
    expect(parseFloatBits('0x3FF0000000000000', 'float')).toBe(0x3f800000n);
    expect(parseFloatBits('-0.0', 'double')).toBe(1n << 63n);
    expect(parseFloatBits('0x7FF8000000000000', 'float')).toBe(0x7fc00000n);
  });
});

describe('the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'upgrade-bitcode-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  async function cli(argv: string[], terminal = false) {
    const mem = memoryIo();
    const io: CliIo = { ...nodeIo(), stdout: mem.stdout, stderr: mem.stderr, stdinIsTerminal: () => false, stdoutIsTerminal: () => terminal };
    delete (io as { parallel?: unknown }).parallel;
    const code = await run(argv, io);
    return { code, out: mem.out(), err: mem.err() };
  }
  const magic = (path: string): number[] => Array.from(readFileSync(path).subarray(0, 4));

  it('-o FILE.bc writes bitcode, -o FILE.ll text, and --emit overrides the extension', async () => {
    expect((await cli(['upgrade', HELLO_PATH, '-o', join(dir, 'a.bc')])).code).toBe(0);
    expect(magic(join(dir, 'a.bc'))).toEqual([0x42, 0x43, 0xc0, 0xde]);
    expect(readFileSync(join(dir, 'a.bc'))).toEqual(Buffer.from(writeModern(HELLO)));
    expect((await cli(['upgrade', HELLO_PATH, '-o', join(dir, 'a.ll')])).code).toBe(0);
    expect(readFileSync(join(dir, 'a.ll'), 'utf8')).toBe(printModern(HELLO));
    expect((await cli(['upgrade', HELLO_PATH, '--emit', 'text', '-o', join(dir, 'b.bc')])).code).toBe(0);
    expect(readFileSync(join(dir, 'b.bc'), 'utf8')).toBe(printModern(HELLO));
    expect((await cli(['upgrade', HELLO_PATH, '--emit', 'bitcode', '--llvm', '16', '-o', join(dir, 'c.out')])).code).toBe(0);
    expect(readFileSync(join(dir, 'c.out'))).toEqual(Buffer.from(writeModern(HELLO, { llvm: 16 })));
  });

  it('never writes bitcode to a terminal; text still goes there', async () => {
    const r = await cli(['upgrade', HELLO_PATH, '--emit', 'bitcode'], true);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/refusing to write bitcode to a terminal/);
    expect(r.out).toBe('');
    expect((await cli(['upgrade', HELLO_PATH], true)).code).toBe(0);
  });

  it('refuses an --emit it does not know', async () => {
    expect((await cli(['upgrade', HELLO_PATH, '--emit', 'asm'])).code).toBe(2);
  });
});
