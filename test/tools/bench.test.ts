/** `npm run bench` runs end to end (one quick pass over a corpus of our own) and prints its table. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const SCRIPT = new URL('dist/tools/bench.js', ROOT).pathname;

describe.skipIf(!existsSync(SCRIPT))('npm run bench', () => {
  it('measures every stage on a small corpus', () => {
    const corpus = mkdtempSync(join(tmpdir(), 'bench-'));
    mkdirSync(join(corpus, 'v6'));
    writeFileSync(join(corpus, 'v6/hello.bc'), readFileSync(new URL('corpus/hello.bc', ROOT)));
    const r = spawnSync(process.execPath, ['--expose-gc', SCRIPT, '--runs', '1', '--generated', '20', '--corpus', corpus], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const measure of ['read', 'read+print', 'write', 'bzip2', 'module heap', 'peak RSS']) {
      expect(r.stdout).toMatch(new RegExp(`^v6 \\(1 files\\) +${measure.replace('+', '\\+')} `, 'm'));
    }
  });

  it('measures the generated module alone, saying so, when the corpus is absent', () => {
    const r = spawnSync(process.execPath, [SCRIPT, '--runs', '1', '--generated', '20', '--corpus', join(tmpdir(), 'no-such-corpus')], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/not found .*generated module only/);
    expect(r.stdout).toMatch(/^generated \(20 functions\) +read /m);
  });
});
