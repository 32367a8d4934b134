/**
 * A seeded mutation fuzz of the stack map consumers (the check of tools/fuzz-stackmap-check.ts,
 * which `npm run fuzz:stackmap` and the Jazzer.js target run too): sections of every version and
 * both byte orders, the forks' variants, and ELF objects of both classes and byte orders, each
 * damaged a bounded number of times. Every input must end in the data or in a StackMapError,
 * and whatever decodes must write back byte for byte.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkStackMapInput } from '../../tools/fuzz-stackmap-check.js';
import { stackMapSeeds, mutate } from '../../tools/fuzz-stackmap-seeds.js';
import { seededRandom } from '../../tools/seeded-random.js';

const MUTATIONS_PER_SEED = 60;

describe('damaged stack map sections and objects end only in StackMapError', () => {
  const seeds = stackMapSeeds(seededRandom(31));

  it('every seed passes the check undamaged', () => {
    expect(seeds.length).toBeGreaterThan(10);
    expect(seeds.map((s) => checkStackMapInput(s.bytes)).filter((f) => f !== undefined)).toEqual([]);
  });

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: ${MUTATIONS_PER_SEED} mutations of each input`, () => {
      const random = seededRandom(seed);
      const failures: string[] = [];
      for (const s of seeds) {
        for (let i = 0; i < MUTATIONS_PER_SEED; i++) {
          const failure = checkStackMapInput(mutate(random, s.bytes));
          if (failure) failures.push(`${s.name}: ${failure}`);
        }
      }
      expect(failures.slice(0, 5)).toEqual([]);
    });
  }
});

const REGRESSIONS = fileURLToPath(new URL('../fuzz-regressions/stackmap', import.meta.url));
const saved = existsSync(REGRESSIONS) ? readdirSync(REGRESSIONS).filter((f) => f.endsWith('.bin')) : [];

describe('inputs npm run fuzz:stackmap once failed on (test/fuzz-regressions/stackmap)', () => {
  it.skipIf(saved.length === 0)('each passes the check now', () => {
    expect(saved.map((f) => [f, checkStackMapInput(new Uint8Array(readFileSync(join(REGRESSIONS, f))))]).filter(([, failure]) => failure !== undefined)).toEqual([]);
  });
});
