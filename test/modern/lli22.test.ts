/**
 * Everything that ran under LLVM 16 still runs under LLVM 22 (issue 33 item 4, from text and from
 * bitcode): each `ExecutionEngine__*` program of the corpus and `corpus/hello.bc`, upgraded for
 * LLVM 22 and run with `lli-22`, prints the same output and exits with the same status as
 * upgraded for LLVM 16 and run with `lli-16`, and the bitcode `writeModern` writes for LLVM 22
 * runs under `lli-22` as its text does. (The exception programs are compared in
 * exceptions.test.ts.) Both JITs
 * run as MCJIT, the engine the 1.x tests were written for (test/modern/corpus.test.ts says why);
 * hello.bc runs with each release's default engine too. The same holds for LLVM 14, the last
 * release written with typed pointers (docs/upgrade.md, "Typed pointers"): the text and bitcode
 * for LLVM 14 run under `lli-14` as LLVM 16's under `lli-16`. Skips, saying why, without the tools.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { printModern, writeModern } from '../../src/modern/index.js';
import { readModule } from '../../src/read.js';
import { CORPUS_PRESENT, corpusFiles, readCorpusFile } from '../support/corpus.js';
import { debianLlvm, needs } from '../support/tools.js';

const LLVM16 = debianLlvm(16);
const work = mkdtempSync(join(tmpdir(), 'llvm-bytecode-lli22-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  status: number | null;
  signal: string | null;
  stdout: string;
}

/**
 * Upgrades for LLVM `n` and runs the text (or, `bitcode`, what `writeModern` writes) with that
 * release's lli (10 s limit, no input).
 */
function run(bytes: Uint8Array, n: 14 | 16 | 22, name: string, engine: string[], form: 'text' | 'bitcode' = 'text'): Run {
  const ll = join(work, `${name}.${n}.${form === 'text' ? 'll' : 'bc'}`);
  writeFileSync(
    ll,
    form === 'text' ? printModern(readModule(bytes), { llvm: n, triple: 'none' }) : writeModern(readModule(bytes), { llvm: n, triple: 'none' }),
  );
  const lli = debianLlvm(n).path('lli');
  const r = spawnSync(lli, [...engine, ll], { encoding: 'latin1', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
  // A program that prints its argv[0] (ExecutionEngine__2002-12-16-ArgTest) prints the file's
  // path (lli drops a `.bc` from it).
  return { status: r.status, signal: r.signal, stdout: (r.stdout ?? '').split(form === 'text' ? ll : ll.replace(/\.bc$/, '')).join('PROGRAM.ll') };
}

const MCJIT = ['-jit-kind=mcjit'];

/** Programs whose exit status is undefined in LLVM 1.x too: only their output is compared. */
const UNDEFINED_STATUS: ReadonlyMap<string, string> = new Map([
  [
    'ExecutionEngine__2004-12-04-LazyCompileFuncs.bc',
    'main ends in `ret int undef`: the status is whatever printf left in the register (16 under lli-16, 56 under lli-22)',
  ],
]);

for (const n of [22, 14] as const) {
  const OTHER = debianLlvm(n);
  describe.skipIf(!LLVM16.present || !OTHER.present)(`lli-${n} runs the upgrade as lli-16 does`, needs(LLVM16, OTHER), () => {
    const hello = new Uint8Array(readFileSync(new URL('../../corpus/hello.bc', import.meta.url)));

    it('corpus/hello.bc: the same output and status (default engines and MCJIT)', () => {
      for (const engine of [[], MCJIT]) {
        const old = run(hello, 16, 'hello', engine);
        expect(old).toEqual({ status: 0, signal: null, stdout: 'Hello, world!\nsum(10) = 55\n' });
        expect(run(hello, n, 'hello', engine)).toEqual(old);
        expect(run(hello, n, 'hello', engine, 'bitcode')).toEqual(old);
      }
    });

    describe.skipIf(!CORPUS_PRESENT)('the ExecutionEngine programs', { tags: [...needs(LLVM16, OTHER).tags, 'corpus'] }, () => {
      for (const folder of ['v0', 'v1', 'v3', 'v5', 'v6', 'v7']) {
        it(
          `${folder}: every ExecutionEngine__ program gives the same output and status`,
          () => {
            const programs = corpusFiles(folder).filter((n) => n.startsWith('ExecutionEngine__'));
            expect(programs.length).toBeGreaterThan(30);
            const differences: string[] = [];
            for (const name of programs) {
              const bytes = readCorpusFile(folder, name);
              const old = run(bytes, 16, `${folder}-${name}`, MCJIT);
              const now = run(bytes, n, `${folder}-${name}`, MCJIT);
              const fromBitcode = run(bytes, n, `${folder}-${name}`, MCJIT, 'bitcode');
              if (UNDEFINED_STATUS.has(name)) old.status = fromBitcode.status = now.status;
              if (JSON.stringify(old) !== JSON.stringify(now)) differences.push(`${name}: lli-16 ${JSON.stringify(old)}, lli-${n} ${JSON.stringify(now)}`);
              if (JSON.stringify(now) !== JSON.stringify(fromBitcode))
                differences.push(`${name}: lli-${n} of the text ${JSON.stringify(now)}, of the bitcode ${JSON.stringify(fromBitcode)}`);
            }
            expect(differences).toEqual([]);
          },
          20 * 60_000,
        );
      }
    });
  });
}
