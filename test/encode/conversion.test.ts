/**
 * Converting between bytecode versions (issue 7): every corpus file written at every other
 * writable version either reads back and prints exactly as the original does in LLVM 1.9's
 * syntax, or is refused with an `EncodeError` that names the construct and the target version.
 * Nothing is dropped silently and nothing else may be thrown.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_ROOT, NEEDS_CORPUS } from '../support/corpus.js';
import { EncodeError } from '../../src/encode/encode-error.js';
import { SUPPORTED_VERSIONS } from '../../src/encode/module-block.js';
import { formatFor } from '../../src/format/format-table.js';
import { writeModule } from '../../src/encode/write.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';

const CORPUS = CORPUS_ROOT;
// Version 7 changes the types themselves (signless integers): a 1.x module is converted to it as
// llvm-upgrade did (src/convert, test/convert/to-version7.test.ts), not written as it stands.
const TARGETS = [...SUPPORTED_VERSIONS].filter((v) => formatFor(v)?.typeIdScheme === 'llvm1').sort();

interface Tally {
  same: number;
  refused: number;
  problems: string[];
}

describe('every corpus file converted to every other writable version', () => {
  for (const folder of ['v0', 'v1', 'v3', 'v5', 'v6']) {
    const dir = join(CORPUS, folder);
    if (!existsSync(dir)) {
      it.skip(`${dir} is absent: skipping the conversion test`, NEEDS_CORPUS, () => {});
      continue;
    }
    it(`${folder}: prints identically after conversion, or is refused naming the construct`, () => {
      const tallies = new Map<number, Tally>();
      const reasons = new Map<string, number>();
      for (const name of readdirSync(dir)
        .filter((f) => f.endsWith('.bc'))
        .sort()) {
        const module = readModule(new Uint8Array(readFileSync(join(dir, name))));
        const source = module.source!.bytecodeVersion;
        const expected = printModule(module);
        for (const target of TARGETS) {
          if (target === source) continue;
          let tally = tallies.get(target);
          if (tally === undefined) tallies.set(target, (tally = { same: 0, refused: 0, problems: [] }));
          let bytes: Uint8Array;
          try {
            bytes = writeModule(module, { bytecodeVersion: target, compression: 'none' });
          } catch (e) {
            if (e instanceof EncodeError && e.message.includes(`bytecode version ${target}`)) {
              tally.refused++;
              const reason = e.message.replace(/"[^"]*"/g, '"…"').replace(/\d+(\.\d+)?/g, 'N');
              reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
            } else {
              tally.problems.push(`${name} → v${target}: threw ${(e as Error).name}: ${(e as Error).message}`);
            }
            continue;
          }
          try {
            const printed = printModule(readModule(bytes));
            if (printed === expected) tally.same++;
            else tally.problems.push(`${name} → v${target}: prints differently`);
          } catch (e) {
            tally.problems.push(`${name} → v${target}: reading it back threw ${(e as Error).message}`);
          }
        }
      }
      const summary = [...tallies].map(([t, x]) => `v${t}: ${x.same} identical, ${x.refused} refused`).join('; ');
      console.log(`[convert] ${folder} → ${summary}`);
      for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 5)) console.log(`    ${n} × ${reason}`);
      const problems = [...tallies.values()].flatMap((x) => x.problems);
      expect(problems.slice(0, 10), `${problems.length} conversion problem(s)`).toEqual([]);
      // Most conversions must succeed: a writer that refused everything would pass the rest.
      for (const [target, x] of tallies) expect(x.same, `${folder} → v${target}`).toBeGreaterThan(x.refused);
    });
  }
});
