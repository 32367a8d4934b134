/** One rule finds the reference corpus for every test and tool: --corpus, then LLVM_BYTECODE_CORPUS, then ../shared/corpus. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_ENV, DEFAULT_CORPUS, locateCorpus, noCorpusMessage, PROJECT_ROOT } from '../../tools/corpus-location.js';

describe('locateCorpus', () => {
  const here = mkdtempSync(join(tmpdir(), 'corpus-'));

  it('prefers the option, then the environment, then ../shared/corpus', () => {
    expect(locateCorpus(here, { [CORPUS_ENV]: '/elsewhere' })).toEqual({ root: here, from: 'option', present: true });
    expect(locateCorpus(undefined, { [CORPUS_ENV]: here })).toEqual({ root: here, from: 'environment', present: true });
    expect(locateCorpus('', { [CORPUS_ENV]: '' })).toMatchObject({ root: DEFAULT_CORPUS, from: 'default' });
    expect(DEFAULT_CORPUS).toBe(resolve(PROJECT_ROOT, '../shared/corpus'));
  });

  it('says how to provide a missing corpus', () => {
    const missing = locateCorpus(join(here, 'absent'), {});
    expect(missing.present).toBe(false);
    expect(noCorpusMessage(missing)).toBe(
      `no corpus at ${join(here, 'absent')} (--corpus): pass --corpus DIR or set LLVM_BYTECODE_CORPUS=DIR (default: ../shared/corpus beside the checkout)`,
    );
  });
});

const FUZZ = new URL('../../dist-tools/tools/fuzz.js', import.meta.url).pathname;

describe.skipIf(!existsSync(FUZZ))('npm run fuzz without a corpus', () => {
  it('fails, saying how to provide one, instead of fuzzing nothing', () => {
    const absent = join(tmpdir(), 'no-such-corpus');
    const r = spawnSync(process.execPath, [FUZZ, '--seconds', '1', '--corpus', absent], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`fuzz: no corpus at ${absent} (--corpus): pass --corpus DIR or set LLVM_BYTECODE_CORPUS=DIR`);
  });
});
