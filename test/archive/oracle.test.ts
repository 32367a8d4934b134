/**
 * The archive layer and the `ar` / `nm` commands against the real tools:
 * - `ar rcs` / `rcsz` byte-identical to LLVM 1.9's `llvm-ar` on 60 seeded member sets drawn from
 *   the corpus (short and long names, paths, llvc0/llvc2/uncompressed bytecode, text, ELF, a
 *   >64 KiB blob), the files' mtimes and modes set first as `touch -d` / `chmod` would;
 * - `t`, `tv`, `x` agreeing with llvm-ar's on those archives;
 * - archives made by GNU `ar` and `llvm-ar-16 --format=bsd|gnu` read (`t` as the tool lists it);
 * - `nm` identical to LLVM 1.9's `llvm-nm` on every v6 corpus file and on those archives, in
 *   all three formats.
 * Each part skips, saying so, when its tool or the corpus is absent. `rcs` runs the built CLI
 * (`dist/`), since llvm-ar takes its names from the command line relative to the directory.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFileMember, readArchive } from '../../src/archive/index.js';
import { run } from '../../src/cli/run.js';
import { writeModule } from '../../src/encode/write.js';
import { readModule } from '../../src/read.js';
import { memoryIo } from '../cli/memory-io.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const CORPUS_V6 = resolve(ROOT, '../shared/corpus/v6');
const LLVM19 = resolve(ROOT, '../shared/llvm-1.9/bin');
const LLVM_AR = join(LLVM19, 'llvm-ar');
const LLVM_NM = join(LLVM19, 'llvm-nm');
const CLI = join(ROOT, 'dist/cli/main.js');
const HAVE_CORPUS = existsSync(CORPUS_V6);
const HAVE_AR = existsSync(LLVM_AR) && HAVE_CORPUS;
const HAVE_NM = existsSync(LLVM_NM) && HAVE_CORPUS;
const HAVE_CLI = existsSync(CLI);
const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

if (!HAVE_CORPUS) console.warn(`skipping archive oracle tests: no corpus at ${CORPUS_V6}`);
if (HAVE_CORPUS && !existsSync(LLVM_AR)) console.warn(`skipping llvm-ar oracle tests: no ${LLVM_AR}`);
if (HAVE_CORPUS && !existsSync(LLVM_NM)) console.warn(`skipping llvm-nm oracle tests: no ${LLVM_NM}`);
if (HAVE_AR && !HAVE_CLI) console.warn('skipping ar rcs byte-identity: the CLI is not built (npm run build)');

const ENV = { ...process.env, TZ: 'UTC' };

/** A small seeded generator (mulberry32), so the sample is the same every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function tool(cmd: string, args: string[], cwd: string): { out: string; err: string; status: number | null } {
  const r = spawnSync(cmd, args, { cwd, env: ENV, maxBuffer: 1 << 28 });
  return { out: r.stdout.toString('latin1'), err: r.stderr.toString('latin1'), status: r.status };
}

async function ours(argv: string[], files: Record<string, Uint8Array>): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo(files);
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err() };
}

let work = '';
let pool: string[] = [];
const V6 = HAVE_CORPUS ? readdirSync(CORPUS_V6).filter((f) => f.endsWith('.bc')).sort() : [];

beforeAll(() => {
  if (!HAVE_CORPUS) return;
  work = mkdtempSync(join(tmpdir(), 'archive-oracle-'));
  const rnd = random(2006);
  const pick = (): string => V6[Math.floor(rnd() * V6.length)]!;
  const add = (name: string, data: Uint8Array | string): void => {
    mkdirSync(dirname(join(work, name)), { recursive: true });
    writeFileSync(join(work, name), data);
    pool.push(name);
  };
  for (let i = 0; i < 30; i++) {
    const f = pick();
    if (!pool.includes(f)) add(f, readFileSync(join(CORPUS_V6, f)));
  }
  for (const f of ['Large__big-bf.bc', 'Bytecode__slow.bc']) if (existsSync(join(CORPUS_V6, f)) && !pool.includes(f)) add(f, readFileSync(join(CORPUS_V6, f)));
  for (const short of ['a.bc', 'b.bc', 'c.bc', 'lib_fifteen.bc', 'sub/x.bc']) add(short, readFileSync(join(CORPUS_V6, pick())));
  for (const plain of ['u1.bc', 'uncompressed_long_name.bc']) add(plain, writeModule(readModule(readFileSync(join(CORPUS_V6, pick()))), { bytecodeVersion: 6, compression: 'none' }));
  add('notes.txt', 'an odd-length text member\n!');
  add('README_with_a_long_name.txt', 'text\n');
  const blob = new Uint8Array(100_000);
  for (let i = 0; i < blob.length; i++) blob[i] = Math.floor(rnd() * 16);
  add('blob.bin', blob);
  if (existsSync('/usr/lib/x86_64-linux-gnu/crt1.o')) {
    copyFileSync('/usr/lib/x86_64-linux-gnu/crt1.o', join(work, 'crt1.o'));
    pool.push('crt1.o');
  }
  const modes = [0o644, 0o444, 0o755, 0o600];
  for (const f of pool) {
    const when = 1_050_000_000 + Math.floor(rnd() * 120_000_000); // 2003–2007, as `touch -d` would set
    chmodSync(join(work, f), modes[Math.floor(rnd() * modes.length)]!);
    utimesSync(join(work, f), when, when);
  }
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The member sets: seeded, 1–8 distinct files each. */
function memberSets(count: number): string[][] {
  const rnd = random(31488);
  const sets: string[][] = [];
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(rnd() * 8);
    const set = new Set<string>();
    while (set.size < n) set.add(pool[Math.floor(rnd() * pool.length)]!);
    sets.push([...set]);
  }
  return sets;
}

describe.skipIf(!HAVE_AR || !HAVE_CLI)('ar rcs / rcsz against LLVM 1.9 llvm-ar', () => {
  it('writes byte-identical archives for 60 member sets (symbol table date aside, which is the clock)', () => {
    const sets = memberSets(60);
    let identical = 0;
    sets.forEach((set, i) => {
      const op = i % 2 === 0 ? 'rcs' : 'rcsz';
      rmSync(join(work, 'theirs.a'), { force: true });
      rmSync(join(work, 'ours.a'), { force: true });
      const t = tool(LLVM_AR, [op, 'theirs.a', ...set], work);
      expect(t.status, t.err).toBe(0);
      const o = tool(process.execPath, [CLI, 'ar', op, 'ours.a', ...set], work);
      expect(o.status, o.err).toBe(0);
      const theirs = readFileSync(join(work, 'theirs.a'));
      const mine = readFileSync(join(work, 'ours.a'));
      // The symbol table's date field (bytes 24–35) is llvm-ar's clock (+946684800 s): ours must
      // be within a minute of it; then the rest must match byte for byte.
      const date = (b: Buffer): number => Number(b.subarray(24, 36).toString('latin1').trim());
      expect(Math.abs(date(mine) - date(theirs)), `set ${i}`).toBeLessThan(60);
      theirs.copy(mine, 24, 24, 36);
      expect(mine.equals(theirs), `set ${i} (${op} ${set.join(' ')})`).toBe(true);
      identical++;
    });
    expect(identical).toBe(60);
  });

  it('lists (t, tv, tV) and extracts (x) as llvm-ar does', () => {
    memberSets(60)
      .slice(0, 8)
      .forEach((set, i) => {
        const op = i % 2 === 0 ? 'rcs' : 'rcsz';
        rmSync(join(work, 'theirs.a'), { force: true });
        expect(tool(LLVM_AR, [op, 'theirs.a', ...set], work).status).toBe(0);
        for (const list of ['t', 'tv', 'tV']) {
          const o = tool(process.execPath, [CLI, 'ar', list, 'theirs.a'], work);
          expect(o.out, `${list} of set ${i}`).toBe(tool(LLVM_AR, [list, 'theirs.a'], work).out);
        }
        const [mineDir, theirDir] = ['x-ours', 'x-theirs'].map((d) => join(work, d));
        for (const d of [mineDir!, theirDir!]) {
          rmSync(d, { recursive: true, force: true });
          mkdirSync(d);
        }
        expect(tool(process.execPath, [CLI, 'ar', 'x', '../theirs.a'], mineDir!).status).toBe(0);
        expect(tool(LLVM_AR, ['x', '../theirs.a'], theirDir!).status).toBe(0);
        for (const name of set) expect(readFileSync(join(mineDir!, name)).equals(readFileSync(join(theirDir!, name))), name).toBe(true);
      });
  });
});

describe.skipIf(!HAVE_CORPUS)('archives made by other tools', () => {
  const makers: [string, string, string[]][] = [
    ['GNU ar', 'ar', ['rcs']],
    ['llvm-ar-16 --format=gnu', 'llvm-ar-16', ['rcs', '--format=gnu']],
    ['llvm-ar-16 --format=bsd', 'llvm-ar-16', ['rcs', '--format=bsd']],
    ['LLVM 1.9 llvm-ar rcs', LLVM_AR, ['rcs']],
    ['LLVM 1.9 llvm-ar rcsz', LLVM_AR, ['rcsz']],
  ];
  for (const [label, cmd, args] of makers) {
    it.skipIf(!(cmd.startsWith('/') ? existsSync(cmd) : has(cmd)))(`reads archives from ${label}, listing what the tool lists, nm as llvm-nm`, async () => {
      const set = pool.filter((f) => !f.includes('/'));
      rmSync(join(work, 'made.a'), { force: true });
      const made = tool(cmd, [...args, 'made.a', ...set], work);
      expect(made.status, made.err).toBe(0);
      const bytes = new Uint8Array(readFileSync(join(work, 'made.a')));
      const archive = readArchive(bytes);
      const listed = tool(cmd, ['t', 'made.a'], work).out;
      expect(archive.members.filter(isFileMember).map((m) => `${m.name}\n`).join('')).toBe(listed);
      if (!HAVE_NM) return;
      for (const format of ['bsd', 'sysv', 'posix']) {
        const r = await ours(['nm', `-format=${format}`, 'made.a'], { 'made.a': bytes });
        expect(r.out, `${label} ${format}`).toBe(tool(LLVM_NM, [`-format=${format}`, 'made.a'], work).out);
      }
    });
  }
});

describe.skipIf(!has('llvm-as-16') || !has('llvm-ar-16'))('bitcode archives', () => {
  it('lists the bitcode members of an llvm-ar-16 archive as bitcode, and reads no module from them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bitcode-ar-'));
    try {
      writeFileSync(join(dir, 'm.ll'), 'define i32 @f() {\n  ret i32 0\n}\n');
      expect(tool('llvm-as-16', ['m.ll', '-o', 'm.bc'], dir).status).toBe(0);
      expect(tool('llvm-ar-16', ['rcs', 'lib.a', 'm.bc'], dir).status).toBe(0);
      const a = readArchive(new Uint8Array(readFileSync(join(dir, 'lib.a'))));
      expect(a.members.filter(isFileMember).map((m) => [m.name, m.kind])).toEqual([['m.bc', 'bitcode']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!HAVE_NM)('nm against LLVM 1.9 llvm-nm', () => {
  it('prints what llvm-nm printed for every v6 corpus file, in all three formats', async () => {
    const files: Record<string, Uint8Array> = {};
    for (const f of V6) files[f] = new Uint8Array(readFileSync(join(CORPUS_V6, f)));
    for (const format of ['bsd', 'sysv', 'posix']) {
      // All files at once (llvm-nm's multiple-file layout, a heading per file)…
      const theirs = tool(LLVM_NM, [`-format=${format}`, ...V6], CORPUS_V6).out;
      const mine = await ours(['nm', `-format=${format}`, ...V6], files);
      expect(mine.err).toBe('');
      expect(mine.out === theirs, `${format}: ${V6.length} files`).toBe(true);
      // …and one at a time (no heading) for a sample.
      for (const f of V6.filter((_, i) => i % 100 === 0)) {
        expect((await ours(['nm', `-format=${format}`, f], files)).out, `${format} ${f}`).toBe(tool(LLVM_NM, [`-format=${format}`, f], CORPUS_V6).out);
      }
    }
  });
});
