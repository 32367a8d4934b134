/**
 * Every input the fuzzer ever found to misbehave (saved in test/fuzz-regressions/) is replayed
 * through every consumer: each may only end in the typed error, and quickly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { check } from '../src/tools/fuzz-check.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'fuzz-regressions');
const files = readdirSync(DIR).filter((n) => n.endsWith('.bc'));

describe('fuzz regressions', () => {
  it('the folder exists and is replayed', () => {
    expect(Array.isArray(files)).toBe(true);
  });
  for (const name of files) {
    it(name, () => {
      expect(check(new Uint8Array(readFileSync(join(DIR, name))))).toBeUndefined();
    });
  }
});
