/**
 * `npm run fuzz:asm -- --seconds N [--seed S] [--corpus DIR]`: damages real assembly text (the
 * corpus's listings and the project's grammar files, see `asm-seeds.ts`) and runs the assembler,
 * then the printer and the writer on whatever assembles. A failure is any exception other than `AssemblyError` (or, from
 * the writer, `EncodeError` for what a version cannot express), or an input that takes over a
 * second. Each failure is saved under `test/fuzz-regressions/asm/`, where
 * `test/asm/fuzz-regressions.test.ts` replays it on every `npm test`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ASSEMBLY_PIECES } from './asm-pieces.js';
import { assemblySeedFiles } from './asm-seeds.js';
import { locateCorpus, NO_CORPUS_HINT, PROJECT_ROOT } from './corpus-location.js';
import { checkAssemblyInput } from './fuzz-asm-check.js';
import { seededRandom } from './seeded-random.js';
import { checkSeconds, readToolOptions } from './tool-options.js';

const PROJECT = PROJECT_ROOT;
const REGRESSIONS = join(PROJECT, 'test/fuzz-regressions/asm');
const MAX_INPUT = 256 * 1024;

interface Options {
  seconds: number;
  seed: number;
  corpus: string;
}

function parseArgs(argv: string[]): Options {
  // The corpus by the one rule (--corpus, LLVM_BYTECODE_CORPUS, ../shared/corpus): its listings are seeds.
  const o: Options = { seconds: 60, seed: Date.now() % 2 ** 31, corpus: locateCorpus().root };
  readToolOptions(
    argv,
    "usage: npm run fuzz:asm -- [--seconds N] [--seed S] [--corpus DIR]\n(corpus: --corpus DIR, else $LLVM_BYTECODE_CORPUS, else ../shared/corpus; its listings join the project's grammar files as seeds)",
    (option, value) => {
      if (option === '--seconds') o.seconds = Number(value());
      else if (option === '--seed') o.seed = Number(value());
      else if (option === '--corpus') o.corpus = resolve(value());
      else return false;
      return true;
    },
  );
  checkSeconds(o.seconds);
  return o;
}

function seeds(corpus: string): string[] {
  return assemblySeedFiles(PROJECT, corpus, MAX_INPUT).map((path) => readFileSync(path, 'latin1'));
}

function mutate(text: string, rnd: () => number): string {
  const n = text.length;
  const at = (): number => Math.floor(rnd() * (n + 1));
  switch (Math.floor(rnd() * 6)) {
    case 0:
      return text.slice(0, at());
    case 1: {
      const a = at();
      return text.slice(0, a) + text.slice(Math.min(n, a + 1 + Math.floor(rnd() * 40)));
    }
    case 2: {
      const a = at();
      const b = Math.min(n, a + Math.floor(rnd() * 200));
      return text.slice(0, b) + text.slice(a, b) + text.slice(b);
    }
    case 3: {
      const a = at();
      return text.slice(0, a) + ASSEMBLY_PIECES[Math.floor(rnd() * ASSEMBLY_PIECES.length)] + text.slice(a);
    }
    case 4: {
      const lines = text.split('\n');
      const i = Math.floor(rnd() * lines.length);
      const j = Math.floor(rnd() * lines.length);
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      return lines.join('\n');
    }
    default: {
      const a = at();
      return text.slice(0, a) + String.fromCharCode(Math.floor(rnd() * 256)) + text.slice(a + 1);
    }
  }
}

function main(): void {
  const o = parseArgs(process.argv.slice(2));
  const pool = seeds(o.corpus);
  if (!existsSync(o.corpus)) process.stdout.write(`fuzz:asm: no corpus at ${o.corpus}: the project's grammar files are the only seeds (${NO_CORPUS_HINT})\n`);
  const rnd = seededRandom(o.seed);
  const end = Date.now() + o.seconds * 1000;
  let tried = 0;
  let failures = 0;
  process.stdout.write(`fuzz:asm: ${pool.length} seed texts, seed ${o.seed}, ${o.seconds} s\n`);
  while (Date.now() < end) {
    let text = pool[Math.floor(rnd() * pool.length)]!;
    const rounds = 1 + Math.floor(rnd() * 3);
    for (let r = 0; r < rounds; r++) text = mutate(text, rnd);
    tried++;
    const problem = checkAssemblyInput(text);
    if (problem === undefined) continue;
    failures++;
    mkdirSync(REGRESSIONS, { recursive: true });
    const file = join(REGRESSIONS, `seed${o.seed}-${tried}.ll`);
    writeFileSync(file, text, 'latin1');
    process.stdout.write(`FAIL ${file}: ${problem}\n`);
    if (failures >= 20) break;
  }
  process.stdout.write(`fuzz:asm: ${tried} inputs, ${failures} failures\n`);
  process.exitCode = failures > 0 ? 1 : 0;
}

main();
