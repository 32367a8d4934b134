/**
 * The coverage-guided fuzz targets (run by Jazzer.js in `npm run fuzz:coverage`) are plain
 * functions: each runs its consumer on every seed of the project's corpus and on every saved
 * regression without a finding, and a failing input is saved where `FUZZ_FINDINGS` says.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consumers } from '../../src/tools/fuzz-check.js';
import { fuzzTarget } from '../../src/tools/fuzz-coverage/target.js';

const ROOT = new URL('../../', import.meta.url);
const REGRESSIONS = new URL('test/fuzz-regressions/', ROOT);
const inputs: [string, Buffer][] = [
  ['corpus/hello.bc', readFileSync(new URL('corpus/hello.bc', ROOT))],
  ...readdirSync(REGRESSIONS)
    .filter((n) => n.endsWith('.bc'))
    .map((n): [string, Buffer] => [n, readFileSync(new URL(n, REGRESSIONS))]),
];

describe('coverage-guided fuzz targets', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('has one target per consumer, the differential oracle included', () => {
    expect(consumers.map((c) => c.name)).toEqual(['read', 'print', 'write', 'analyze', 'upgrade', 'roundtrip', 'link', 'archive']);
  });

  for (const { name } of consumers) {
    it(`${name}: every seed runs without a finding`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'fuzz-target-test-'));
      vi.stubEnv('FUZZ_FINDINGS', dir);
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        const fuzz = fuzzTarget(name);
        for (const [, bytes] of inputs) fuzz(bytes);
        expect(stderr).not.toHaveBeenCalled();
        expect(readdirSync(dir)).toEqual([]);
      } finally {
        stderr.mockRestore();
      }
    });
  }

  it('refuses an unknown target name', () => {
    expect(() => fuzzTarget('nope')).toThrow(/no consumer 'nope'/);
  });
});
