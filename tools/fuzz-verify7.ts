/**
 * `npm run fuzz:verify7 -- [--seconds N] [--cases N] [--seed S] [--llvm DIR] [--corpus DIR] [--out DIR]`:
 * differential check of the version-7 verifier against r36867 itself. Corpus v7 modules are
 * mutated at the graph level, one mutation each (verify7-mutations.ts: an operand of another
 * type, a terminator moved, a phi edge dropped, a cast's opcode or types changed, …), printed as
 * LLVM 2.0 text (our v7 printer) and given to r36867's `llvm-as`, which parses and verifies. Our
 * verifier must refuse exactly the modules it refuses. Each disagreement is saved under `--out`
 * (default a new folder in the system's temporary folder) with the text, our problems and
 * LLVM's message; the run ends with the counts per mutation.
 *
 * Needs r36867's tools (`--llvm DIR`, else `$LLVM_BYTECODE_R36867`, else
 * `../shared/llvm-2.0-dev/bin`) and the corpus; says so and stops when either is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Module } from '../src/graph/module.js';
import { isTerminatorOpcode } from '../src/graph/opcodes.js';
import { printModule } from '../src/print/index.js';
import { readModule } from '../src/read.js';
import { verifyModule } from '../src/verify/verify.js';
import { locateCorpus, noCorpusMessage } from './corpus-location.js';
import { R36867_SPEC, locateTools, noToolsMessage } from './tool-location.js';
import { seededRandom } from './seeded-random.js';
import { checkSeconds, readToolOptions } from './tool-options.js';
import { MUTATIONS, type Mutation, type Random } from './verify7-mutations.js';

/** Seeds up to this size keep each `llvm-as` run short. */
const MAX_SEED = 16 * 1024;
/** An `llvm-as` run that takes longer counts as a refusal (none should). */
const LLVM_TIMEOUT_MS = 10_000;

interface Options {
  seconds: number;
  cases: number;
  seed: number;
  llvm: string;
  corpus: string;
  out: string;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { seconds: 60, cases: Infinity, seed: Date.now() % 2 ** 31, llvm: '', corpus: '', out: '' };
  readToolOptions(argv, 'usage: npm run fuzz:verify7 -- [--seconds N] [--cases N] [--seed S] [--llvm DIR] [--corpus DIR] [--out DIR]', (option, value) => {
    if (option === '--seconds') o.seconds = Number(value());
    else if (option === '--cases') o.cases = Number(value());
    else if (option === '--seed') o.seed = Number(value());
    else if (option === '--llvm') o.llvm = resolve(value());
    else if (option === '--corpus') o.corpus = value();
    else if (option === '--out') o.out = resolve(value());
    else return false;
    return true;
  });
  checkSeconds(o.seconds);
  if (!(o.cases > 0)) throw new Error('--cases takes a positive number');
  return o;
}

/** What r36867's `llvm-as` made of a text: accepted, or refused with its message. */
export interface LlvmVerdict {
  refused: boolean;
  message: string;
}

/** Runs r36867's `llvm-as` (which verifies before writing) on `text`. */
export function llvmAsVerdict(llvmAs: string, text: string): LlvmVerdict {
  const r = spawnSync(llvmAs, ['-f', '-o', '/dev/null'], { input: Buffer.from(text, 'latin1'), timeout: LLVM_TIMEOUT_MS, maxBuffer: 1 << 24 });
  const message = (r.stderr?.toString('latin1') ?? '').trim();
  return { refused: r.status !== 0, message: message || (r.signal ? `killed by ${r.signal}` : '') };
}

/** One differential case: the verdicts on a mutated module, or why there is none. */
export type CaseResult = { kind: 'skipped'; why: string } | { kind: 'compared'; what: string; ours: string[]; llvm: LlvmVerdict; text: string };

/** Mutates `module` with `mutation`, prints it, and asks both verifiers. */
export function runCase(module: Module, mutation: Mutation, random: Random, llvmAs: string): CaseResult {
  const before = printModule(module);
  const what = mutation.apply(module, random);
  if (what === undefined) return { kind: 'skipped', why: 'not applicable' };
  let text: string;
  try {
    text = printModule(module);
  } catch (e) {
    // A graph no LLVM 2.0 text can say (the printer refuses it): nothing to ask r36867.
    return { kind: 'skipped', why: `unprintable: ${(e as Error).message}` };
  }
  // What the text cannot say, r36867 cannot be asked about: a change the listing does not show
  // (a declaration's linkage, printed `external` whatever it is), or a terminator inside a block
  // (the parser ends the block there and starts a new one).
  if (text === before) return { kind: 'skipped', why: 'not in the text' };
  if (terminatorInside(module)) return { kind: 'skipped', why: 'not in the text' };
  const ours = verifyModule(module, { bytecodeVersion: 7, maxProblems: 5 });
  return { kind: 'compared', what, ours, llvm: llvmAsVerdict(llvmAs, text), text };
}

function terminatorInside(m: Module): boolean {
  for (const f of m.functions) {
    if (f.isDeclaration) continue;
    for (const b of f.blocks) for (let i = 0; i < b.instructions.length - 1; i++) if (isTerminatorOpcode(b.instructions[i]!.opcode)) return true;
  }
  return false;
}

function seedFiles(corpus: string): string[] {
  const dir = join(corpus, 'v7');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.bc') && statSync(join(dir, f)).size <= MAX_SEED)
    .sort()
    .map((f) => join(dir, f));
}

interface Tally {
  cases: number;
  bothRefuse: number;
  bothAccept: number;
  onlyOurs: number;
  onlyLlvm: number;
}

function main(): void {
  const o = parseArgs(process.argv.slice(2));
  const corpus = locateCorpus(o.corpus || undefined);
  if (!corpus.present) {
    console.error(noCorpusMessage(corpus));
    process.exit(1);
  }
  const tools = locateTools(R36867_SPEC, o.llvm || undefined);
  if (!tools.present) {
    console.error(noToolsMessage(R36867_SPEC, tools));
    process.exit(1);
  }
  const llvmAs = join(tools.dir, 'llvm-as');
  const seeds = seedFiles(corpus.root);
  if (seeds.length === 0) {
    console.error(`no version-7 files of at most ${MAX_SEED} bytes under ${join(corpus.root, 'v7')}`);
    process.exit(1);
  }
  const out = o.out || mkdtempSync(join(tmpdir(), 'fuzz-verify7-'));
  mkdirSync(out, { recursive: true });
  const random = seededRandom(o.seed);
  const tallies = new Map<string, Tally>(MUTATIONS.map((m) => [m.name, { cases: 0, bothRefuse: 0, bothAccept: 0, onlyOurs: 0, onlyLlvm: 0 }]));
  const skipped = new Map<string, number>();
  const deadline = Date.now() + o.seconds * 1000;
  let compared = 0;
  let saved = 0;
  while (Date.now() < deadline && compared < o.cases) {
    const file = seeds[Math.floor(random() * seeds.length)]!;
    const mutation = MUTATIONS[Math.floor(random() * MUTATIONS.length)]!;
    const module = readModule(new Uint8Array(readFileSync(file)));
    const r = runCase(module, mutation, random, llvmAs);
    if (r.kind === 'skipped') {
      const key = r.why.startsWith('unprintable') ? 'unprintable' : r.why;
      skipped.set(key, (skipped.get(key) ?? 0) + 1);
      continue;
    }
    compared++;
    const t = tallies.get(mutation.name)!;
    t.cases++;
    const oursRefuse = r.ours.length > 0;
    if (oursRefuse && r.llvm.refused) t.bothRefuse++;
    else if (!oursRefuse && !r.llvm.refused) t.bothAccept++;
    else {
      if (oursRefuse) t.onlyOurs++;
      else t.onlyLlvm++;
      const base = join(out, `case-${++saved}`);
      writeFileSync(`${base}.ll`, r.text, 'latin1');
      writeFileSync(
        `${base}.txt`,
        [
          `seed file: ${file}`,
          `mutation: ${mutation.name}: ${r.what}`,
          `ours: ${oursRefuse ? r.ours.join('\n      ') : 'accepted'}`,
          `r36867 llvm-as: ${r.llvm.refused ? r.llvm.message : 'accepted'}`,
          '',
        ].join('\n'),
      );
    }
  }
  let agree = 0;
  console.log(`fuzz:verify7 seed ${o.seed}: ${compared} mutated modules compared with r36867's llvm-as`);
  console.log('mutation                                   cases  both-refuse  both-accept  only-ours  only-llvm');
  for (const [name, t] of tallies) {
    agree += t.bothRefuse + t.bothAccept;
    if (t.cases === 0) continue;
    console.log(
      `${name.padEnd(42)} ${String(t.cases).padStart(5)} ${String(t.bothRefuse).padStart(12)} ${String(t.bothAccept).padStart(12)} ${String(t.onlyOurs).padStart(10)} ${String(t.onlyLlvm).padStart(10)}`,
    );
  }
  console.log(
    `agreement: ${agree}/${compared}${compared ? ` (${((100 * agree) / compared).toFixed(2)} %)` : ''}; skipped: ${[...skipped].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`,
  );
  if (saved > 0) console.log(`${saved} disagreement${saved > 1 ? 's' : ''} saved in ${out}`);
  process.exitCode = saved > 0 ? 1 : 0;
}

// Run only as a script (the test imports runCase).
if (process.argv[1] !== undefined && resolve(process.argv[1]).endsWith(join('tools', 'fuzz-verify7.js'))) main();
