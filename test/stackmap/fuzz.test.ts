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
import { readStackMaps, StackMapError } from '../../src/stackmap/index.js';
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
const input = (f: string): Uint8Array => new Uint8Array(readFileSync(join(REGRESSIONS, f)));

describe('saved inputs (test/fuzz-regressions/stackmap: what the fuzzers found or kept)', () => {
  it('there are some', () => {
    expect(saved.length).toBeGreaterThan(20);
  });

  it('each passes the check: only StackMapError, byte-identical write-back, conversions that keep the records or refuse', () => {
    expect(saved.map((f) => [f, checkStackMapInput(input(f))]).filter(([, failure]) => failure !== undefined)).toEqual([]);
  });

  it('each read-CONTAINER-vVERSION-VARIANT input reads as its name says', () => {
    const wrong: string[] = [];
    for (const f of saved) {
      const m = /^read-(bare|elf|macho|coff)-v(\d)-([a-z0-9-]+?)-[0-9a-f]{12}\.bin$/.exec(f);
      if (m === null) continue;
      const file = readStackMaps(input(f));
      const s = file.sections[0];
      const got = `${file.container} v${s?.map.version} ${s?.map.variant}`;
      if (got !== `${m[1]} v${m[2]} ${m[3]}`) wrong.push(`${f}: read as ${got}`);
    }
    expect(wrong).toEqual([]);
  });

  it('each refused- input is refused with a StackMapError naming an offset', () => {
    const wrong: string[] = [];
    for (const f of saved.filter((name) => name.startsWith('refused-'))) {
      try {
        readStackMaps(input(f));
        wrong.push(`${f}: read`);
      } catch (e) {
        if (!(e instanceof StackMapError) || !Number.isInteger(e.offset)) wrong.push(`${f}: ${String(e)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
