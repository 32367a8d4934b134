/**
 * The CLI, run in-process through `run(argv, io)` with in-memory files (fast), plus one spawn of
 * the built entry point to prove the binding to the real process works.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeError, run } from '../../src/cli/run.js';
import { ConversionError } from '../../src/convert/to-version7.js';
import { ModuleBuilder } from '../../src/build/index.js';
import { writeModule } from '../../src/encode/write.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { readModule } from '../../src/read.js';
import { memoryIo } from './memory-io.js';

const ROOT = new URL('../../', import.meta.url);
const HELLO = new Uint8Array(readFileSync(new URL('corpus/hello.bc', ROOT)));
const HELLO_LL = readFileSync(new URL('corpus/hello.ll', ROOT), 'latin1');
const VERSION = (JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version: string }).version;
const PRINTER_PRESENT = existsSync(new URL('src/print/index.ts', ROOT));
const ANALYZER_PRESENT = existsSync(new URL('src/analyze/index.ts', ROOT));
const UPGRADER_PRESENT = existsSync(new URL('src/modern/index.ts', ROOT));
const BUILT = existsSync(new URL('dist/cli/main.js', ROOT));

/** One error line as the CLI promises it: tool, FILE, message, offset and optional block path. */
const ERROR_LINE = /^llvm-bytecode: error: ([^:]+): (.+) \(offset (\d+)(?:, in ([^)]+))?\)\n$/;

async function cli(argv: string[], files: Record<string, Uint8Array> = {}, stdin?: Uint8Array) {
  const io = memoryIo(files, stdin);
  const code = await run(argv, io);
  return { code, out: io.out(), outBytes: io.outBytes(), err: io.err(), files: io.files };
}

describe('help and version', () => {
  it('prints the overall help with --help and -h, exit 0', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await cli([flag]);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^llvm-bytecode: /);
      for (const command of ['dis', 'rewrite', 'analyze', 'upgrade']) expect(r.out).toContain(`  ${command} `);
      expect(r.err).toBe('');
    }
  });

  it("prints each command's help", async () => {
    for (const command of ['dis', 'rewrite', 'analyze', 'upgrade']) {
      const r = await cli([command, '--help']);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(new RegExp(`^usage: llvm-bytecode ${command} `));
    }
    expect((await cli(['dis', '--help'])).out).toContain('--syntax native');
    expect((await cli(['rewrite', '-h'])).out).toContain('--bytecode-version N');
  });

  it('prints the package version', async () => {
    const r = await cli(['--version']);
    expect(r).toMatchObject({ code: 0, out: `llvm-bytecode ${VERSION}\n` });
  });

  it('shows the help on stderr with exit 2 when given nothing', async () => {
    const r = await cli([]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('usage: llvm-bytecode');
  });
});

describe('usage errors: one line, exit 2', () => {
  const cases: [string[], RegExp][] = [
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['dis', '--bogus', 'x.bc'], /unknown option '--bogus'/],
    [['dis', '--syntax', '2.0', 'x.bc'], /'--syntax' must be one of 1\.9, native, not '2\.0'/],
    [['dis', 'a.bc', 'b.bc'], /dis of several files needs an output directory: -o DIR/],
    [['dis', 'a.bc', 'b.bc', '-o', '-'], /writes to a directory, not to standard output/],
    [['analyze', 'a.bc', '-'], /standard input \(-\) cannot be one of several inputs/],
    [['dis', '--jobs', '0', 'a.bc'], /'--jobs' must be a whole number/],
    [['dis', '-o'], /'--output' needs a value/],
    [['rewrite', 'x.bc'], /rewrite needs an output file/],
    [['rewrite', '-o', 'y.bc'], /rewrite needs an input file/],
    [['rewrite', 'x.bc', '-o', 'y.bc', '--bytecode-version', '4'], /must be one of 0, 1, 3, 5, 6/],
    [['rewrite', 'x.bc', '-o', 'y.bc', '--compress', 'zip'], /must be one of auto, llvm, none, bzip2/],
    [['analyze', '--dump', '--json', 'x.bc'], /cannot be combined/],
    [['dis', '--help=yes'], /takes no value/],
  ];
  for (const [argv, message] of cases) {
    it(argv.join(' '), async () => {
      const r = await cli(argv);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^llvm-bytecode: error: [^\n]+\n$/);
      expect(r.err).toMatch(message);
      expect(r.out).toBe('');
    });
  }
});

describe('errors in files: one line, exit 1', () => {
  it('names a missing file', async () => {
    const r = await cli(['rewrite', 'nope.bc', '-o', 'out.bc']);
    expect(r).toMatchObject({ code: 1, out: '', err: 'llvm-bytecode: error: nope.bc: no such file or directory\n' });
  });

  it('reports a truncated file with offset and block path (rewrite and dis alike)', async () => {
    const cut = HELLO.subarray(0, 200);
    for (const argv of [
      ['rewrite', 'cut.bc', '-o', 'out.bc'],
      ['dis', 'cut.bc'],
    ]) {
      const r = await cli(argv, { 'cut.bc': cut });
      expect(r.code).toBe(1);
      expect(r.out).toBe('');
      const m = ERROR_LINE.exec(r.err);
      expect(m, r.err).not.toBeNull();
      expect(m![1]).toBe('cut.bc');
      // The message is the reader's own: the same text, offset and path readModule throws.
      let thrown: Error | undefined;
      try {
        readModule(cut);
      } catch (e) {
        thrown = e as Error;
      }
      expect(thrown?.name).toBe('BytecodeError');
      expect(r.err).toBe(`llvm-bytecode: error: cut.bc: ${thrown!.message}\n`);
      expect(r.files.has('out.bc')).toBe(false);
    }
  });

  it('names the block path where a damaged byte is found', async () => {
    // 0x93 is the opcode byte of the first constant expression (the getelementptr of %.str).
    const bad = HELLO.slice();
    bad[0x93] = 0xff;
    const r = await cli(['dis', 'bad.bc'], { 'bad.bc': bad });
    expect(r.code).toBe(1);
    const m = ERROR_LINE.exec(r.err);
    expect(m, r.err).not.toBeNull();
    expect(m![1]).toBe('bad.bc');
    expect(m![4]).toBe('Module/ConstantPool');
  });

  it('labels standard input <stdin>', async () => {
    const r = await cli(['dis'], {}, new TextEncoder().encode('not bytecode at all'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^llvm-bytecode: error: <stdin>: .*\(offset \d+/);
    expect(r.err.split('\n')).toHaveLength(2);
  });

  it('refuses what the target version cannot express, naming it', async () => {
    // Version 3 predates compressed files, so bzip2 is refused rather than silently dropped.
    const r = await cli(['rewrite', 'hello.bc', '-o', 'v3.bc', '--bytecode-version', '3', '--compress', 'bzip2'], { 'hello.bc': HELLO });
    expect(r.code).toBe(1);
    expect(r.err).toBe('llvm-bytecode: error: hello.bc: bzip2 compression cannot be written in bytecode version 3\n');
  });
});

describe('describeError', () => {
  it('keeps any message on one line, with control bytes from file names escaped', () => {
    expect(describeError(new BytecodeError('bad name "a\nb\x1b[2J"', 9, ['Module']))).toBe('bad name "a b\\x1b[2J" (offset 9, in Module)');
  });

  it("marks anything but the library's own errors as an internal error", () => {
    expect(describeError(new TypeError('x is undefined'))).toBe('internal error (TypeError): x is undefined');
    expect(describeError('thrown string')).toBe('internal error: thrown string');
  });

  it("shows the version-7 conversion's refusal as the file's problem, not ours", () => {
    expect(describeError(new ConversionError('inline asm with the constraints "==m"'))).toBe(
      'inline asm with the constraints "==m" cannot be converted to bytecode version 7',
    );
  });
});

describe('rewrite', () => {
  it('writes hello.bc back byte for byte', async () => {
    const r = await cli(['rewrite', 'hello.bc', '-o', 'out.bc'], { 'hello.bc': HELLO });
    expect(r).toMatchObject({ code: 0, out: '', err: '' });
    expect(Buffer.from(r.files.get('out.bc')!).equals(Buffer.from(HELLO))).toBe(true);
  });

  it('writes to standard output with -o -', async () => {
    const r = await cli(['rewrite', 'hello.bc', '-o', '-'], { 'hello.bc': HELLO });
    expect(r.code).toBe(0);
    expect(Buffer.from(r.outBytes).equals(Buffer.from(HELLO))).toBe(true);
  });

  it('changes version and compression on request', async () => {
    const r = await cli(['rewrite', '-', '--output=v5.bc', '--bytecode-version=5', '--compress', 'bzip2'], {}, HELLO);
    expect(r.code).toBe(0);
    const out = r.files.get('v5.bc')!;
    expect(Buffer.from(out.subarray(0, 5)).toString('latin1')).toBe('llvc2');
    expect(readModule(out).source).toMatchObject({ bytecodeVersion: 5, compression: 'bzip2' });

    const v3 = await cli(['rewrite', 'hello.bc', '-o', 'v3.bc', '--bytecode-version', '3'], { 'hello.bc': HELLO });
    expect(v3.code).toBe(0);
    expect(readModule(v3.files.get('v3.bc')!).source).toMatchObject({ bytecodeVersion: 3, signature: 'llvm' });
  });
});

describe.skipIf(!PRINTER_PRESENT)('dis', () => {
  it('prints corpus/hello.bc exactly as corpus/hello.ll', async () => {
    const r = await cli(['dis', 'hello.bc'], { 'hello.bc': HELLO });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(HELLO_LL);
  });

  it('reads standard input for - or no file, and writes -o OUT', async () => {
    expect((await cli(['dis', '-'], {}, HELLO)).out).toBe(HELLO_LL);
    expect((await cli(['dis'], {}, HELLO)).out).toBe(HELLO_LL);
    const r = await cli(['dis', 'hello.bc', '-o', 'hello.ll'], { 'hello.bc': HELLO });
    expect(r).toMatchObject({ code: 0, out: '' });
    expect(Buffer.from(r.files.get('hello.ll')!).toString('latin1')).toBe(HELLO_LL);
  });

  it('accepts --syntax native (a version 6 file prints the same in both)', async () => {
    const r = await cli(['dis', '--syntax', 'native', 'hello.bc'], { 'hello.bc': HELLO });
    expect(r.out).toBe(HELLO_LL);
  });
});

describe.skipIf(!ANALYZER_PRESENT)('analyze', () => {
  it('summarizes hello.bc as text, JSON and dump', async () => {
    const text = await cli(['analyze', 'hello.bc'], { 'hello.bc': HELLO });
    expect(text.code).toBe(0);
    expect(text.out.length).toBeGreaterThan(0);
    const json = await cli(['analyze', '--json', 'hello.bc'], { 'hello.bc': HELLO });
    expect(json.code).toBe(0);
    expect(() => JSON.parse(json.out) as unknown).not.toThrow();
    const dump = await cli(['analyze', '--dump', 'hello.bc'], { 'hello.bc': HELLO });
    expect(dump.code).toBe(0);
    expect(dump.out.length).toBeGreaterThan(text.out.length);
  });

  it('names the file as llvm-bcanalyzer did, <stdin> for standard input', async () => {
    expect((await cli(['analyze', 'hello.bc'], { 'hello.bc': HELLO })).out).toContain('Summary Analysis Of hello.bc:');
    expect((await cli(['analyze'], {}, HELLO)).out).toContain('Summary Analysis Of <stdin>:');
  });

  it('prints the partial figures of a damaged file, then one error line and exit 1', async () => {
    const bad = HELLO.slice();
    bad[0x93] = 0xff;
    const r = await cli(['analyze', 'bad.bc'], { 'bad.bc': bad });
    expect(r.code).toBe(1);
    expect(r.out).toContain('Summary Analysis Of bad.bc:');
    expect(r.err).toMatch(ERROR_LINE);
    expect(ERROR_LINE.exec(r.err)![1]).toBe('bad.bc');
  });
});

describe.skipIf(!UPGRADER_PRESENT)('upgrade', () => {
  it('prints hello.bc as LLVM 22 IR (the newest supported), to standard output or -o OUT', async () => {
    const r = await cli(['upgrade', 'hello.bc'], { 'hello.bc': HELLO });
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^; Upgraded to LLVM 22 IR/);
    expect(r.out).toContain('define i32 @sum(i32 %n) {');
    const o = await cli(['upgrade', '-', '-o', 'hello16.ll'], {}, HELLO);
    expect(o).toMatchObject({ code: 0, out: '' });
    expect(Buffer.from(o.files.get('hello16.ll')!).toString('latin1')).toBe(r.out);
  });

  it('--llvm N chooses the release, 13 to 22; another is a usage error naming the choices', async () => {
    const r = await cli(['upgrade', '--llvm', '16', 'hello.bc'], { 'hello.bc': HELLO });
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^; Upgraded to LLVM 16 IR/);
    const typed = await cli(['upgrade', '--llvm', '13', 'hello.bc'], { 'hello.bc': HELLO });
    expect(typed.out).toMatch(/^; Upgraded to LLVM 13 IR/);
    expect(typed.out).toContain('i8*');
    const bad = await cli(['upgrade', '--llvm', '12', 'hello.bc'], { 'hello.bc': HELLO });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("option '--llvm' must be one of 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, not '12'");
  });

  it('--exceptions chooses how invoke and unwind are upgraded (native by default)', async () => {
    const mb = new ModuleBuilder();
    const { types: t, constants: c } = mb;
    const thrower = mb.addFunction('thrower', t.function(t.void, []), { linkage: 'internal' });
    mb.builder(mb.addBlock(thrower, 'entry')).unwind();
    const main = mb.addFunction('main', t.function(t.int, []));
    const [entry, ok, caught] = [mb.addBlock(main, 'entry'), mb.addBlock(main, 'ok'), mb.addBlock(main, 'caught')];
    const b = mb.builder(entry);
    b.invoke(thrower, [], ok, caught);
    b.positionAtEnd(ok).ret(c.int(t.int, 0));
    b.positionAtEnd(caught).ret(c.int(t.int, 1));
    const files = { 'eh.bc': writeModule(mb.build(), { bytecodeVersion: 6 }) };
    const native = await cli(['upgrade', 'eh.bc'], files);
    expect(native.out).toContain('invoke void @thrower() to label %ok unwind label %lpad');
    expect((await cli(['upgrade', '--exceptions', 'native', 'eh.bc'], files)).out).toBe(native.out);
    const abort = await cli(['upgrade', '--exceptions=abort', 'eh.bc'], files);
    expect(abort.out).toContain('call void @thrower() ; LLVM 1.x: invoke, unwind to %caught');
    const bad = await cli(['upgrade', '--exceptions', 'sjlj', 'eh.bc'], files);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("option '--exceptions' must be one of native, abort, not 'sjlj'");
  });

  it('reports a damaged file like the other commands', async () => {
    const r = await cli(['upgrade', 'cut.bc'], { 'cut.bc': HELLO.subarray(0, 200) });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(ERROR_LINE);
  });
});

describe.skipIf(!BUILT)('the built entry point (dist/cli/main.js)', () => {
  it('runs as a process: version, and a one-line error with exit 1 on a truncated file', () => {
    const main = new URL('dist/cli/main.js', ROOT).pathname;
    const v = spawnSync(process.execPath, [main, '--version'], { encoding: 'latin1' });
    expect(v.status).toBe(0);
    expect(v.stdout).toBe(`llvm-bytecode ${VERSION}\n`);
    const bad = spawnSync(process.execPath, [main, 'rewrite', '-', '-o', '-'], { input: HELLO.subarray(0, 100), encoding: 'latin1' });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(ERROR_LINE);
  });
});
