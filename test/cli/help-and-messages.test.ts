/**
 * Help and messages (issue 30, item 5): help is valid UTF-8 and aligned, every command run bare
 * shows its usage on standard error with exit status 2, every command spells the version the
 * same way, and an error that quotes the input shows printable characters only, its caret under
 * the column whatever the tabs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeAssemblyError, describeError, isAssemblyError } from '../../src/cli/describe-error.js';
import { AssemblyError } from '../../src/asm/assembly-error.js';
import { InputRefused, InputTooLarge } from '../../src/cli/bounded-read.js';
import { EncodeError } from '../../src/encode/encode-error.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { PrintError } from '../../src/print/print-error.js';
import { ANALYZE_HELP, AR_HELP, AS_HELP, DIS_HELP, LINK_HELP, NM_HELP, OVERALL_HELP, REWRITE_HELP, UPGRADE_HELP } from '../../src/cli/help.js';
import { run } from '../../src/cli/run.js';
import { memoryIo } from './memory-io.js';

const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const COMMANDS = ['dis', 'rewrite', 'analyze', 'upgrade', 'as', 'ar', 'nm', 'link'];
const HELPS: Record<string, string> = {
  overall: OVERALL_HELP,
  dis: DIS_HELP,
  rewrite: REWRITE_HELP,
  analyze: ANALYZE_HELP,
  upgrade: UPGRADE_HELP,
  as: AS_HELP,
  ar: AR_HELP,
  nm: NM_HELP,
  link: LINK_HELP,
};

async function cli(argv: string[], stdinIsTerminal = true, files: Record<string, Uint8Array> = {}) {
  const io = { ...memoryIo(files), stdinIsTerminal: () => stdinIsTerminal };
  const code = await run(argv, io);
  return { code, out: io.outBytes(), err: io.err() };
}

describe('help is valid UTF-8, and aligned', () => {
  it('every help, as written, decodes as UTF-8 and keeps its arrows and dashes', async () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    for (const argv of [['--help'], ...COMMANDS.map((c) => [c, '--help'])]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(0);
      const text = strict.decode(r.out);
      expect(text.startsWith('usage:') || text.startsWith('llvm-bytecode:'), argv.join(' ')).toBe(true);
    }
    const as = strict.decode((await cli(['as', '--help'])).out);
    expect(as).toContain('1.1 → 0');
    expect(Buffer.from((await cli(['as', '--help'])).out).includes(Buffer.from('→', 'utf8'))).toBe(true);
    expect(strict.decode((await cli(['rewrite', '--help'])).out)).toContain('version 0–6');
  });

  /**
   * In each help's option lists, every description starts in one column: a line is an option
   * (two spaces, then a flag), a continuation (spaces up to the column), or prose.
   */
  for (const [name, text] of Object.entries(HELPS)) {
    it(`${name}: the descriptions of its options start in one column`, () => {
      const columns = new Set<number>();
      const lines = text.split('\n');
      let inList = false;
      for (const line of lines) {
        if (/^[a-z]+:$/.test(line)) {
          inList = true;
          continue;
        }
        if (line === '' || !line.startsWith('  ')) {
          inList = line !== '' && inList && line.startsWith(' ');
          continue;
        }
        if (!inList) continue;
        const option = /^ {2}(\S(?:\S| (?! ))*)( {2,})(\S)/.exec(line);
        if (option) columns.add(2 + option[1]!.length + option[2]!.length);
        else if (/^ {3,}\S/.test(line)) columns.add(line.length - line.trimStart().length);
      }
      // Commands and options may keep separate columns in the overall help; within one list, one.
      expect(columns.size, `${name}: columns ${[...columns].join(', ')}`).toBeLessThanOrEqual(name === 'overall' || name === 'ar' ? 2 : 1);
    });
  }
});

describe('a command run bare shows its usage: standard error, exit status 2', () => {
  for (const command of COMMANDS) {
    it(`${command}, at a terminal`, async () => {
      const r = await cli([command], true);
      expect(r.code).toBe(2);
      expect(r.out.length).toBe(0);
      expect(r.err).toMatch(new RegExp(`^usage: llvm-bytecode ${command} `));
    });
  }

  it('rewrite, ar and link need arguments even when standard input is not a terminal; dis reads the pipe', async () => {
    for (const command of ['rewrite', 'ar', 'link']) {
      const r = await cli([command], false);
      expect(r.code, command).toBe(2);
      expect(r.err, command).toMatch(/^usage: /);
    }
    const piped = await cli(['dis'], false);
    expect(piped.err).toMatch(/^llvm-bytecode: error: <stdin>: not LLVM bytecode: the file has only 0 byte/);
  });

  it('llvm-bytecode alone: the overall help on standard error, exit status 2', async () => {
    const r = await cli([]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(OVERALL_HELP);
  });
});

describe('-v, -V and --version: one line, the same everywhere', () => {
  it('at the top and after every command', async () => {
    const line = `llvm-bytecode ${PACKAGE.version}\n`;
    for (const argv of [
      ['-v'],
      ['-V'],
      ['--version'],
      ['version'],
      ...COMMANDS.flatMap((c) => [
        [c, '-v'],
        [c, '--version'],
        [c, '-V'],
      ]),
    ]) {
      const r = await cli(argv);
      expect({ argv, code: r.code, out: Buffer.from(r.out).toString('utf8'), err: r.err }).toEqual({ argv, code: 0, out: line, err: '' });
    }
  });
});

describe('an error quoting the input shows printable characters only', () => {
  it('bytes that are not printable text are shown as \\xNN, and the caret still stands under the column', () => {
    // Column 5 is the `q`, the thirteenth character as shown.
    const text = describeAssemblyError('x.ll', { reason: 'bad', line: 1, column: 5, sourceLine: '\x89\xff\x1b[q!' });
    expect(text).toBe(`x.ll:1:5: bad\n\\x89\\xff\\x1b[q!\n${' '.repeat(13)}^`);
    expect(text).toMatch(/^[\x20-\x7e\n\t]*$/);
  });

  it('a tab-indented line keeps its tabs in the caret line', () => {
    expect(describeAssemblyError('x.ll', { reason: 'r', line: 2, column: 4, sourceLine: '\t\tab c' })).toBe('x.ll:2:4: r\n\t\tab c\n\t\t ^');
  });

  it('a long line (a binary file has few line breaks) shows the part around the column', () => {
    const line = 'a'.repeat(500) + 'X' + 'b'.repeat(500);
    const [, shown, caret] = describeAssemblyError('x.ll', { reason: 'r', line: 1, column: 501, sourceLine: line }).split('\n');
    expect(shown!.length).toBeLessThan(140);
    expect(shown![caret!.length - 1]).toBe('X');
  });

  it('assembling a binary file that has no NUL byte: the whole message is printable', async () => {
    const binary = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x9b, 0x32, 0x4a, 0xff, 0xfe, 0x07, 0x41]);
    const r = await cli(['as', 'image.png', '-o', 'out.bc'], false, { 'image.png': binary });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^llvm-bytecode: error: image\.png:\d+:\d+: /);
    expect(r.err).toMatch(/^[\x20-\x7e\n\t]*$/);
  });

  it('control characters of any kind (C0, DEL, C1) in a message are escaped', () => {
    const e = new PrintError('name \x1b[2J\x9b31m\x7f end');
    expect(describeError(e)).toBe('name \\x1b[2J\\x9b31m\\x7f end');
  });
});

describe('errors are described by class, never by name', () => {
  it('every error of the family is a refusal of the input, shown as it is', () => {
    expect(describeError(new BytecodeError('bad block', 12, ['Module']))).toBe('bad block (offset 12, in Module)');
    expect(describeError(new EncodeError('a thing', 3))).toBe('a thing cannot be written in bytecode version 3');
    expect(describeError(new InputRefused('not an archive'))).toBe('not an archive');
    expect(describeError(new InputTooLarge(10, 20))).toMatch(/^the input is 20 bytes, more than the limit of 10 bytes/);
  });

  it('an error that only calls itself one of ours is our bug, and says so', () => {
    const impostor = Object.assign(new Error('boom'), { name: 'BytecodeError' });
    expect(describeError(impostor)).toBe('internal error (BytecodeError): boom');
  });

  it("an assembly error is recognised by its class and its position's kind", () => {
    const e = new AssemblyError('expected a type', 3, 7, '  %x = add');
    expect(e.position).toEqual({ kind: 'text', line: 3, column: 7 });
    expect(isAssemblyError(e)).toBe(true);
    expect(isAssemblyError(Object.assign(new Error('x'), { name: 'AssemblyError', line: 1, column: 1, reason: 'x', sourceLine: '' }))).toBe(false);
    expect(describeError(e)).toBe('expected a type (line 3, column 7)');
  });
});
