/**
 * Nothing a user has is lost (issue 30, item 2): no command writes over one of its inputs, every
 * output replaces its file whole or not at all, a batch never turns a file name into a directory,
 * and a directory is walked as documented, saying what it left out. Real files in a temporary
 * directory, through the real file system (symbolic and hard links included).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_WALK_DEPTH } from '../../src/cli/batch.js';
import { isTerminal, nodeIo, type CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';
import { memoryIo } from './memory-io.js';

const ROOT = new URL('../../', import.meta.url);
const HELLO = new Uint8Array(readFileSync(new URL('corpus/hello.bc', ROOT)));
const HELLO_LL = new Uint8Array(readFileSync(new URL('corpus/hello.ll', ROOT)));
const MAIN = new URL('dist/cli/main.js', ROOT).pathname;
const BUILT = existsSync(MAIN);

const top = mkdtempSync(join(tmpdir(), 'never-lose-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));
let dirs = 0;

/** A fresh directory holding `files` (name → bytes). */
function folder(files: Record<string, Uint8Array | string>): string {
  const dir = join(top, `case-${dirs++}`);
  mkdirSync(dir);
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), data);
  }
  return dir;
}

/**
 * The CLI on the real file system with output captured, counting every read of an input; the
 * terminal answers are the test's.
 */
async function cli(argv: string[], options: { stdinIsFile?: string; terminal?: boolean } = {}) {
  const real = nodeIo();
  const mem = memoryIo();
  let reads = 0;
  const io: CliIo = {
    ...real,
    stdout: mem.stdout,
    stderr: mem.stderr,
    stderrIsTerminal: options.terminal === true,
    stdinIsTerminal: () => false,
    stdoutIsTerminal: () => options.terminal === true,
    readFile: (path, bounds) => {
      reads++;
      return real.readFile(path, bounds);
    },
    readPrefix: (path, length) => {
      reads++;
      return real.readPrefix!(path, length);
    },
    readStdin: (bounds) => {
      reads++;
      return options.stdinIsFile === undefined ? Promise.resolve(new Uint8Array()) : Promise.resolve(real.readFile(options.stdinIsFile, bounds));
    },
    standardIdentity: (fd) => (fd === 0 && options.stdinIsFile !== undefined ? real.identity!(options.stdinIsFile) : undefined),
  };
  delete (io as { parallel?: unknown }).parallel;
  const code = await run(argv, io);
  return { code, out: mem.out(), err: mem.err(), reads };
}

/** What a directory holds, name → bytes (to show that a refused run changed nothing). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    out[name] = lstatSync(path).isSymbolicLink() ? '(link)' : lstatSync(path).isDirectory() ? '(dir)' : readFileSync(path).toString('base64');
  }
  return out;
}

const REFUSAL = /^llvm-bytecode: error: [^\n]+: refusing to (write over (the|an) input|add the archive to itself)[^\n]*\n$/;

describe('no command writes over one of its inputs', () => {
  const cases: [string, (d: string) => string[]][] = [
    ['dis in.bc -o in.bc', (d) => ['dis', join(d, 'in.bc'), '-o', join(d, 'in.bc')]],
    ['analyze in.bc -o in.bc', (d) => ['analyze', join(d, 'in.bc'), '-o', join(d, 'in.bc')]],
    ['upgrade in.bc -o in.bc', (d) => ['upgrade', join(d, 'in.bc'), '-o', join(d, 'in.bc')]],
    ['rewrite in.bc -o in.bc', (d) => ['rewrite', join(d, 'in.bc'), '-o', join(d, 'in.bc')]],
    ['as m.ll -o m.ll', (d) => ['as', join(d, 'm.ll'), '-o', join(d, 'm.ll')]],
    ['link in.bc other.bc -o in.bc', (d) => ['link', join(d, 'in.bc'), join(d, 'other.bc'), '-o', join(d, 'in.bc')]],
    ['dis through a symbolic link: dis link.bc -o in.bc', (d) => ['dis', join(d, 'link.bc'), '-o', join(d, 'in.bc')]],
    ['dis to a hard link of the input: dis in.bc -o hard.bc', (d) => ['dis', join(d, 'in.bc'), '-o', join(d, 'hard.bc')]],
    ['upgrade to a symbolic link of the input: upgrade in.bc -o link.bc', (d) => ['upgrade', join(d, 'in.bc'), '-o', join(d, 'link.bc')]],
    ['link through a hard link: link other.bc hard.bc -o in.bc', (d) => ['link', join(d, 'other.bc'), join(d, 'hard.bc'), '-o', join(d, 'in.bc')]],
    ['a batch into its own directory: rewrite DIR -o DIR', (d) => ['rewrite', d, '-o', d]],
    ['ar r lib.a lib.a (the archive as its own member)', (d) => ['ar', 'rc', join(d, 'lib.a'), join(d, 'lib.a')]],
    ['stackmap in.bc --to-version 2 -o in.bc', (d) => ['stackmap', join(d, 'in.bc'), '--to-version', '2', '-o', join(d, 'in.bc')]],
    [
      'stackmap to a hard link of the input: stackmap in.bc --to-version 2 -o hard.bc',
      (d) => ['stackmap', join(d, 'in.bc'), '--to-version', '2', '-o', join(d, 'hard.bc')],
    ],
  ];
  for (const [title, argv] of cases) {
    it(`${title}: one line, exit 1, nothing read, nothing changed`, async () => {
      const d = folder({ 'in.bc': HELLO, 'other.bc': HELLO, 'm.ll': HELLO_LL, 'lib.a': '!<arch>\n' });
      symlinkSync('in.bc', join(d, 'link.bc'));
      linkSync(join(d, 'in.bc'), join(d, 'hard.bc'));
      const before = snapshot(d);
      const r = await cli(argv(d));
      expect(r.err).toMatch(REFUSAL);
      expect(r.code).toBe(1);
      expect(r.reads).toBe(0);
      expect(snapshot(d)).toEqual(before);
    });
  }

  it('standard input redirected from the output file (dis -o in.bc < in.bc) is refused too', async () => {
    const d = folder({ 'in.bc': HELLO });
    const r = await cli(['dis', '-', '-o', join(d, 'in.bc')], { stdinIsFile: join(d, 'in.bc') });
    expect(r.err).toMatch(/refusing to write over the input: it is the same file as <stdin>/);
    expect(r.code).toBe(1);
    expect(readFileSync(join(d, 'in.bc'))).toEqual(Buffer.from(HELLO));
  });

  it('ar x never extracts a member over the archive it is in', async () => {
    const d = folder({ 'x/self.a': 'a member named like the archive\n' });
    const cwd = process.cwd();
    try {
      process.chdir(d);
      // f stores the name without its directory: the member is `self.a`, as the archive is.
      expect((await cli(['ar', 'rcf', 'self.a', 'x/self.a'])).code).toBe(0);
      const archive = readFileSync('self.a');
      const r = await cli(['ar', 'x', 'self.a']);
      expect(r.code).toBe(1);
      expect(r.err).toBe("llvm-bytecode: error: self.a: refusing to extract member 'self.a' over the archive it is in\n");
      expect(readFileSync('self.a')).toEqual(archive);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('outputs replace their file whole or not at all', () => {
  it('a failed run leaves the old output as it was, and no temporary file beside it', async () => {
    const d = folder({ 'cut.bc': HELLO.subarray(0, 200), 'out.ll': 'what was there\n' });
    for (const command of ['dis', 'analyze', 'upgrade', 'rewrite']) {
      const r = await cli([command, join(d, 'cut.bc'), '-o', join(d, 'out.ll')]);
      expect(r.code).toBe(1);
      expect(readFileSync(join(d, 'out.ll'), 'utf8')).toBe('what was there\n');
    }
    expect(readdirSync(d).sort()).toEqual(['cut.bc', 'out.ll']);
  });

  it('an output that is a symbolic link is written through: the file it names is replaced, the link stays', async () => {
    const d = folder({ 'in.bc': HELLO, 'real.ll': 'old\n' });
    symlinkSync('real.ll', join(d, 'out.ll'));
    expect((await cli(['dis', join(d, 'in.bc'), '-o', join(d, 'out.ll')])).code).toBe(0);
    expect(lstatSync(join(d, 'out.ll')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(d, 'real.ll'), 'latin1')).toMatch(/^; ModuleID = /);
  });

  it.skipIf(!BUILT)('a run killed while writing leaves the old file (the write goes to a temporary name first)', () => {
    // The built CLI is stopped by SIGKILL as soon as it has started; whatever point it reached,
    // out.ll is either the old text or the whole new listing, never a part.
    const d = folder({ 'in.bc': HELLO, 'out.ll': 'old\n' });
    const r = spawnSync('sh', ['-c', `node ${MAIN} dis in.bc -o out.ll & pid=$!; kill -9 $pid; wait $pid; true`], { cwd: d, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const text = readFileSync(join(d, 'out.ll'), 'latin1');
    expect(text === 'old\n' || (text.startsWith('; ModuleID') && text.endsWith('\n'))).toBe(true);
  });
});

describe('a batch never makes a directory of a file name', () => {
  for (const name of ['out.ll', 'out.bc']) {
    it(`dis DIR -o ${name}: refused, nothing made`, async () => {
      const d = folder({ 'in/a.bc': HELLO, 'in/b.bc': HELLO });
      const r = await cli(['dis', join(d, 'in'), '-o', join(d, name)]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(
        new RegExp(`writes one file per input into a directory, and '.*${name.replace('.', '\\.')}' is named like a file: give a directory`),
      );
      expect(existsSync(join(d, name))).toBe(false);
    });
  }

  it('several files -o an existing file: refused, the file unchanged', async () => {
    const d = folder({ 'a.bc': HELLO, 'b.bc': HELLO, out: 'a file\n' });
    const r = await cli(['dis', join(d, 'a.bc'), join(d, 'b.bc'), '-o', join(d, 'out')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/'.*out' is a file: give a directory/);
    expect(readFileSync(join(d, 'out'), 'utf8')).toBe('a file\n');
  });

  it('an existing directory named like a file is a directory, and is used', async () => {
    const d = folder({ 'in/a.bc': HELLO, 'in/b.bc': HELLO });
    mkdirSync(join(d, 'odd.ll'));
    expect((await cli(['dis', join(d, 'in'), '-o', join(d, 'odd.ll')])).code).toBe(0);
    expect(readdirSync(join(d, 'odd.ll')).sort()).toEqual(['a.ll', 'b.ll']);
  });
});

describe('a directory is walked as documented, and what it left out is counted by reason', () => {
  it('takes files by their bytecode signature whatever their names (historical NAME.bc-NN), and says so', async () => {
    const d = folder({ 'hist/test.bc-01': HELLO, 'hist/test.bc-02': HELLO, 'hist/readme.txt': 'notes\n', 'hist/plain.bc': HELLO });
    const r = await cli(['dis', join(d, 'hist'), '-o', join(d, 'out')]);
    expect(r.code).toBe(0);
    expect(readdirSync(join(d, 'out')).sort()).toEqual(['plain.ll', 'test.bc-01.ll', 'test.bc-02.ll']);
    expect(r.err).toBe(
      `llvm-bytecode: note: ${join(d, 'hist')}: 2 files not named .bc taken for their bytecode signature (test.bc-01, test.bc-02); ` +
        '1 skipped: 1 not bytecode (neither named .bc nor starting with its signature)\n',
    );
  });

  it(`goes ${MAX_WALK_DEPTH} levels deep, skips links to directories and the output directory, and counts each`, async () => {
    const d = folder({ 'in/top.bc': HELLO });
    let deep = join(d, 'in');
    for (let level = 1; level <= MAX_WALK_DEPTH; level++) {
      deep = join(deep, `l${level}`);
      mkdirSync(deep);
      writeFileSync(join(deep, 'f.bc'), HELLO); // level+1: the deepest is one level too deep
    }
    symlinkSync(join(d, 'in'), join(d, 'in', 'loop'));
    const r = await cli(['dis', join(d, 'in'), '-o', join(d, 'in', 'out')]);
    expect(r.code).toBe(0);
    expect(r.err).toBe(`llvm-bytecode: note: ${join(d, 'in')}: 2 skipped: 1 links to directories (not followed), 1 deeper than ${MAX_WALK_DEPTH} levels\n`);
    // A second run finds its own earlier outputs' directory and leaves it out.
    const again = await cli(['rewrite', join(d, 'in'), '-o', join(d, 'in', 'out2')]);
    expect(again.code).toBe(0);
    const third = await cli(['rewrite', join(d, 'in'), '-o', join(d, 'in', 'out2')]);
    expect(third.err).toMatch(/1 the output directory/);
  });

  it('as takes .ll files and counts the rest', async () => {
    const d = folder({ 'src/a.ll': HELLO_LL, 'src/a.bc': HELLO, 'src/notes.txt': 'x' });
    const r = await cli(['as', join(d, 'src'), '-o', join(d, 'out')]);
    expect(r.code).toBe(0);
    expect(r.err).toBe(`llvm-bytecode: note: ${join(d, 'src')}: 2 skipped: 2 not named .ll\n`);
  });
});

describe('progress on a terminal, silence elsewhere', () => {
  it('on a terminal: files done of all, the rate, failures so far; cleared at the end', async () => {
    const d = folder({ 'in/a.bc': HELLO, 'in/b.bc': HELLO.subarray(0, 100), 'in/c.bc': HELLO });
    const r = await cli(['dis', join(d, 'in'), '-o', join(d, 'out')], { terminal: true });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/\r\x1b\[Kllvm-bytecode: 3\/3 files, [0-9.]+ files\/s, 1 failed/);
    expect(r.err.endsWith('\r\x1b[K')).toBe(true);
  });

  it('not a terminal: no progress line at all, only the error line', async () => {
    const d = folder({ 'in/a.bc': HELLO, 'in/b.bc': HELLO.subarray(0, 100), 'in/c.bc': HELLO });
    const r = await cli(['dis', join(d, 'in'), '-o', join(d, 'out')], { terminal: false });
    expect(r.err).not.toMatch(/\r|\x1b|files\/s/);
    expect(r.err).toMatch(/^llvm-bytecode: error: [^\n]*b\.bc: [^\n]+\n$/);
  });

  it('the decision: a terminal is what isatty says; progress also needs a terminal that is not dumb', () => {
    const tty = (): boolean => true;
    const pipe = (): boolean => false;
    expect(isTerminal(2, tty, { TERM: 'xterm' })).toBe(true);
    expect(isTerminal(2, tty, { TERM: 'dumb' })).toBe(false);
    expect(isTerminal(1, tty, { TERM: 'dumb' })).toBe(true);
    expect(isTerminal(2, pipe, { TERM: 'xterm' })).toBe(false);
    expect(isTerminal(0, pipe, {})).toBe(false);
  });

  it.skipIf(!BUILT)('the built CLI with stderr to a pipe draws nothing', () => {
    const d = folder({ 'in/a.bc': HELLO, 'in/b.bc': HELLO });
    const r = spawnSync(process.execPath, [MAIN, 'dis', 'in', '-o', 'out'], { cwd: d, encoding: 'latin1' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
});
