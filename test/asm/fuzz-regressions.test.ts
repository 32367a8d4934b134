/**
 * Every assembly text a fuzzer found to misbehave (`npm run fuzz:asm`, or the `asm` target of
 * `npm run fuzz:coverage`), saved in test/fuzz-regressions/asm/, is replayed through the same
 * check: it must assemble, print and write (or be refused with the writer's typed error), or be
 * refused with an `AssemblyError`, within the time limit. The limit is held to CPU time here, as
 * test/fuzz-regressions.test.ts holds its own: wall time under a loaded `npm test` counts other
 * processes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkAssemblyInput, SLOW_INPUT_MS } from '../../src/tools/fuzz-asm-check.js';

const DIR = new URL('../fuzz-regressions/asm/', import.meta.url);
const files = readdirSync(DIR).filter((n) => n.endsWith('.ll')).sort();

describe('assembler fuzz regressions', () => {
  it('replays every input saved in the folder', () => {
    // Anything saved there but its README is a .ll replayed below: an input saved under another
    // name would never run.
    expect(readdirSync(DIR).filter((n) => n !== 'README.md').sort()).toEqual(files);
    expect(files.length).toBeGreaterThan(0);
  });
  for (const name of files) {
    it(name, () => {
      const text = readFileSync(new URL(name, DIR), 'latin1');
      const start = process.cpuUsage();
      expect(checkAssemblyInput(text, Infinity)).toBeUndefined();
      const used = process.cpuUsage(start);
      expect((used.user + used.system) / 1000).toBeLessThan(SLOW_INPUT_MS);
    });
  }
});
