/**
 * Every assembly text a fuzzer found to misbehave (`npm run fuzz:asm`, or the `asm` target of
 * `npm run fuzz:coverage`), saved in test/fuzz-regressions/asm/, is replayed through the same
 * check: it must assemble, print and write (or be refused with the writer's typed error), or be
 * refused with an `AssemblyError`.
 *
 * No time is asserted: a test's CPU or wall time depends on what runs beside it (the fuzzers keep
 * their time limits, for new inputs). The texts that were slow (quadratic) are held to a bound on
 * work instead: the same text at twice the size must cost about twice the operations, counted as
 * the lookups and scans of the collections the assembler, printer and writer work through.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkAssemblyInput } from '../../tools/fuzz-asm-check.js';

const DIR = new URL('../fuzz-regressions/asm/', import.meta.url);
const files = readdirSync(DIR)
  .filter((n) => n.endsWith('.ll'))
  .sort();

describe('assembler fuzz regressions', () => {
  it('replays every input saved in the folder', () => {
    // Anything saved there but its README is a .ll replayed below: an input saved under another
    // name would never run.
    expect(
      readdirSync(DIR)
        .filter((n) => n !== 'README.md')
        .sort(),
    ).toEqual(files);
    expect(files.length).toBeGreaterThan(0);
  });
  for (const name of files) {
    it(name, () => {
      const text = readFileSync(new URL(name, DIR), 'latin1');
      expect(checkAssemblyInput(text, Infinity)).toBeUndefined();
    });
  }
});

/**
 * The operations `run` makes on collections: each lookup or insertion of a Map or Set, and each
 * element an `indexOf`, `includes`, `splice`, `push` or `concat` may touch. A deterministic count of
 * work (what a quadratic pass repeats N times over N things), the same on any machine under any load.
 */
function countOperations(run: () => void): number {
  let count = 0;
  const restores: (() => void)[] = [];
  const counting = <T extends object>(proto: T, name: keyof T & string, cost: (self: unknown, args: unknown[]) => number): void => {
    const original = proto[name] as unknown as (...args: unknown[]) => unknown;
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        count += cost(this, args);
        return original.apply(this, args);
      },
    });
    restores.push(() => Object.defineProperty(proto, name, { configurable: true, writable: true, value: original }));
  };
  const one = (): number => 1;
  const length = (self: unknown): number => 1 + (self as unknown[]).length;
  for (const name of ['get', 'has', 'set'] as const) counting(Map.prototype, name, one);
  for (const name of ['has', 'add'] as const) counting(Set.prototype, name, one);
  for (const name of ['indexOf', 'includes', 'splice', 'concat'] as const) counting(Array.prototype, name, length);
  counting(Array.prototype, 'push', (_self, args) => args.length);
  try {
    run();
  } finally {
    for (const restore of restores.reverse()) restore();
  }
  return count;
}

/** Generators of the slow regression texts, at any size (the saved files are one size of each). */
const GROWING: Record<string, (n: number) => string> = {
  'thousands-of-old-vaargs.ll': (n) => `target datalayout = "E"\nimplementation\nvoid %f(sbyte* %a) {\n${'vaarg sbyte* %a, int\n'.repeat(n)}ret void\n}\n`,
  'long-chain-of-named-types.ll': (n) =>
    Array.from({ length: n }, (_, i) => `%t${i} = type { %t${i + 1}* }\n`).join('') + `%t${n} = type int\n%g = external global %t0\nimplementation\n`,
  'long-chain-of-unused-named-types.ll': (n) =>
    '%a0=type int\n' + Array.from({ length: n }, (_, i) => `%a${i + 1}=type{%a${i}*}\n`).join('') + 'implementation\n',
};

describe('the texts that were quadratic take linear work', () => {
  for (const [name, text] of Object.entries(GROWING)) {
    it(`${name}: twice the size, about twice the operations`, () => {
      const n = 1500;
      const work = (size: number): number => countOperations(() => expect(checkAssemblyInput(text(size), Infinity)).toBeUndefined());
      work(100); // warm: first-use costs (lazy tables) are not the input's
      const once = work(n);
      const twice = work(2 * n);
      // Linear: a ratio of 2 (a little more for the wider numbers of a larger text); quadratic: 4.
      expect(twice / once, `${once} operations for ${n}, ${twice} for ${2 * n}`).toBeLessThan(2.6);
    });
  }
});
