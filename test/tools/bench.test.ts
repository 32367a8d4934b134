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

  it('measures the generated module alone with --no-corpus, saying so', () => {
    const r = spawnSync(process.execPath, [SCRIPT, '--runs', '1', '--generated', '20', '--no-corpus'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--no-corpus: measuring the generated module only/);
    expect(r.stdout).toMatch(/^generated \(20 functions\) +read /m);
  });

  it('fails, saying how to provide it, when the corpus it was given is absent', () => {
    const absent = join(tmpdir(), 'no-such-corpus');
    for (const [args, env] of [[['--corpus', absent], {}], [[], { LLVM_BYTECODE_CORPUS: absent }]] as const) {
      const r = spawnSync(process.execPath, [SCRIPT, '--runs', '1', '--generated', '20', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`bench: no corpus at ${absent}`);
      expect(r.stderr).toContain('pass --corpus DIR or set LLVM_BYTECODE_CORPUS=DIR');
    }
  });
});
