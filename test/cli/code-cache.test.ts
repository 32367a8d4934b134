/**
 * The command's start through V8's code cache (src/cli/llvm-bytecode.cts): the bin compiles the
 * bundle from a cache the first successful run leaves, refuses a cache that is not V8's, and works
 * the same with no cache at all. Run on a copy of the built bin and bundle in a temporary folder,
 * so the checkout's own cache is left alone.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeModule } from '../../src/encode/write.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { syntheticModule } from '../../tools/synthetic-module.js';

const ROOT = new URL('../../', import.meta.url);
const DIST = new URL('dist/cli/', ROOT).pathname;
const BUILT = existsSync(join(DIST, 'llvm-bytecode.cjs')) && existsSync(join(DIST, 'cli-bundle.cjs'));
const HELLO = new URL('corpus/hello.bc', ROOT).pathname;
const HELLO_LL = readFileSync(new URL('corpus/hello.ll', ROOT), 'latin1');

/** A copy of the bin and the bundle in a fresh folder, as an install would have them. */
function install(): { bin: string; cacheFolder: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), 'code-cache-'));
  const cli = join(root, 'dist', 'cli');
  mkdirSync(cli, { recursive: true });
  for (const name of ['llvm-bytecode.cjs', 'cli-bundle.cjs', 'batch-worker.cjs']) copyFileSync(join(DIST, name), join(cli, name));
  return { bin: join(cli, 'llvm-bytecode.cjs'), cacheFolder: join(cli, 'code-cache'), home: join(root, 'home') };
}

function dis(bin: string, input: string, home: string) {
  const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, 'xdg') };
  return spawnSync(process.execPath, [bin, 'dis', input], { encoding: 'latin1', env });
}

const caches = (folder: string): string[] => (existsSync(folder) ? readdirSync(folder).filter((n) => n.endsWith('.v8cache')) : []);

describe.skipIf(!BUILT)('the code cache of the command', () => {
  it('is written by the first successful run, beside the bundle, and used by the next', () => {
    const { bin, cacheFolder, home } = install();
    const failed = dis(bin, join(home, 'missing.bc'), home);
    expect(failed.status).toBe(1);
    expect(caches(cacheFolder)).toEqual([]);

    const first = dis(bin, HELLO, home);
    expect(first.status).toBe(0);
    expect(first.stdout).toBe(HELLO_LL);
    const [name] = caches(cacheFolder);
    expect(name).toMatch(/^[0-9a-f]{16}-v[0-9.]+-[a-z0-9]+-dis\.v8cache$/);
    const written = readFileSync(join(cacheFolder, name!));

    const second = dis(bin, HELLO, home);
    expect(second.stdout).toBe(HELLO_LL);
    expect(readFileSync(join(cacheFolder, name!)).equals(written)).toBe(true);
  });

  it("keeps a cache of its own for one large input (V8 set differently), and the small file's apart", () => {
    const { bin, cacheFolder, home } = install();
    mkdirSync(home, { recursive: true });
    // 200 generated functions: some 49 KB, above the 32 KiB from which an input is large.
    const bytes = writeModule(syntheticModule(200), { bytecodeVersion: 6, compression: 'none' });
    expect(bytes.length).toBeGreaterThanOrEqual(32 * 1024);
    const large = join(home, 'large.bc');
    writeFileSync(large, bytes);
    const listing = printModule(readModule(bytes));

    const first = dis(bin, large, home);
    expect(first.status).toBe(0);
    expect(first.stdout).toBe(listing);
    expect(caches(cacheFolder)).toEqual([expect.stringMatching(/-dis-large\.v8cache$/)]);
    const [name] = caches(cacheFolder);
    const written = readFileSync(join(cacheFolder, name!));

    // Used, not refused: the next run leaves it as it is.
    expect(dis(bin, large, home).stdout).toBe(listing);
    expect(readFileSync(join(cacheFolder, name!)).equals(written)).toBe(true);

    // A small file's run makes its own, and the large one's is still used as it is.
    expect(dis(bin, HELLO, home).stdout).toBe(HELLO_LL);
    expect(caches(cacheFolder).sort()).toEqual([expect.stringMatching(/-dis-large\.v8cache$/), expect.stringMatching(/-dis\.v8cache$/)].sort());
    expect(dis(bin, large, home).stdout).toBe(listing);
    expect(readFileSync(join(cacheFolder, name!)).equals(written)).toBe(true);
  });

  it("refuses a cache that is not V8's and writes a good one in its place", () => {
    const { bin, cacheFolder, home } = install();
    expect(dis(bin, HELLO, home).status).toBe(0);
    const [name] = caches(cacheFolder);
    writeFileSync(join(cacheFolder, name!), 'not a code cache');
    const r = dis(bin, HELLO, home);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(HELLO_LL);
    expect(r.stderr).toBe('');
    expect(readFileSync(join(cacheFolder, name!), 'latin1')).not.toBe('not a code cache');
  });

  it("goes to the user's cache folder when the bundle's cannot be written, and is not needed at all", () => {
    const { bin, cacheFolder, home } = install();
    writeFileSync(cacheFolder, ''); // a file where the folder would go: it cannot be made
    const r = dis(bin, HELLO, home);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(HELLO_LL);
    expect(caches(join(home, 'xdg', 'llvm-bytecode'))).toHaveLength(1);

    // Neither folder writable: the same output, nothing said.
    const blocked = install();
    writeFileSync(blocked.cacheFolder, '');
    mkdirSync(blocked.home, { recursive: true });
    writeFileSync(join(blocked.home, 'xdg'), '');
    const again = dis(blocked.bin, HELLO, blocked.home);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(HELLO_LL);
    expect(again.stderr).toBe('');
  });
});
