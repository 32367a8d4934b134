/**
 * `npm run fuzz:coverage -- --seconds N [--target NAME]… [--corpus DIR]… [--no-dictionary]`:
 * coverage-guided fuzzing with Jazzer.js (libFuzzer driving instrumented JavaScript) over each
 * consumer in turn, N seconds per target: read, print (both syntaxes), write (own version, 6, and
 * 1.x converted to 7), analyze, upgrade, link, archive, the differential oracle `roundtrip` (see
 * fuzz-check.ts), `asm`, the assembler on text (see fuzz-asm-check.ts), and `stackmap`, the stack
 * map consumers on objects and bare sections (fuzz-stackmap-check.ts; seeds fuzz-stackmap-corpus.ts).
 *
 * Seeds are copied into a temporary directory: nothing is written into the project. The bytecode
 * targets start from the `.bc` files of `corpus/` and the reference corpus (`$LLVM_BYTECODE_CORPUS`,
 * else `../shared/corpus`) (compressed ones as
 * their uncompressed stream); `archive` from archives of those; `stackmap` from objects and
 * sections (fuzz-stackmap-corpus.ts); `asm` from assembly text (`asm-seeds.ts`: the grammar files and the
 * corpus's 1.x listings), with a dictionary of the 1.x grammar's words and punctuation that
 * libFuzzer splices into its mutations. Each target gets its own working corpus there, so what
 * one target found interesting does not steer another. At the end a table gives, per target, the
 * seconds, inputs tried, coverage (edges and libFuzzer features), inputs kept for new coverage and
 * findings; the inputs of the findings stay in the temporary directory, whose path is printed, to
 * be shrunk into `test/fuzz-regressions/` (`test/fuzz-regressions/asm/` for `asm`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEYWORD_LIST } from '../src/asm/lexer.js';
import { ASSEMBLY_PIECES } from './asm-pieces.js';
import { writeArchive, type NewArchiveMember } from '../src/archive/index.js';
import { unwrapContainer } from '../src/container/index.js';
import { corpusListingFiles, projectAssemblyFiles } from './asm-seeds.js';
import { writeStackMapSeeds } from './fuzz-stackmap-corpus.js';
import { locateCorpus, PROJECT_ROOT } from './corpus-location.js';
import { seededRandom } from './seeded-random.js';
import { targets, type TargetInput } from './fuzz-coverage/target.js';
import { checkSeconds, readToolOptions } from './tool-options.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const PROJECT = PROJECT_ROOT;
/** Seeds larger than this are left out: libFuzzer's mutations pay for every byte of an input. */
const MAX_SEED = 64 * 1024;

interface Options {
  seconds: number;
  targets: string[];
  corpora: string[];
  /** Whether `asm` gets the grammar's dictionary (`--no-dictionary` measures what it adds). */
  dictionary: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { seconds: 60, targets: [], corpora: [], dictionary: true };
  const usage = `usage: npm run fuzz:coverage -- [--seconds N] [--target NAME]… [--corpus DIR]… [--no-dictionary]\ntargets: ${targets.map((t) => t.name).join(', ')}`;
  readToolOptions(argv, usage, (option, value) => {
    if (option === '--seconds') o.seconds = Number(value());
    else if (option === '--target') o.targets.push(value());
    else if (option === '--corpus') o.corpora.push(resolve(value()));
    else if (option === '--no-dictionary') o.dictionary = false;
    else return false;
    return true;
  });
  checkSeconds(o.seconds);
  const known = new Set(targets.map((t) => t.name));
  for (const t of o.targets) if (!known.has(t)) throw new Error(`unknown target '${t}' (known: ${[...known].join(', ')})`);
  if (o.targets.length === 0) o.targets = [...known];
  // The project's samples and the reference corpus by the one rule ($LLVM_BYTECODE_CORPUS, else ../shared/corpus).
  if (o.corpora.length === 0) o.corpora = [join(PROJECT, 'corpus'), locateCorpus().root];
  return o;
}

/** Every `.bc` file under `dir` (one level of folders deep, as the corpora are laid out). */
function bytecodeFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name.startsWith('.')) continue;
    if (statSync(path).isDirectory()) {
      for (const inner of readdirSync(path)) if (inner.endsWith('.bc')) out.push(join(path, inner));
    } else if (name.endsWith('.bc')) out.push(path);
  }
  return out;
}

/** Copies the seeds of one kind of input into `dir`; how many. */
function writeSeeds(input: TargetInput, corpora: string[], dir: string): number {
  if (input === 'stackmap') {
    const { count, notes } = writeStackMapSeeds(dir, MAX_SEED);
    for (const note of notes) console.log(`  [stackmap] seeds: ${note}`);
    return count;
  }
  if (input === 'archive') return writeArchiveSeeds(corpora, dir);
  return input === 'assembly' ? writeAssemblySeeds(corpora, dir) : writeBytecodeSeeds(corpora, dir);
}

/** Archives made by one seed: enough shapes (members, names, symbol table or not) without swamping the run. */
const ARCHIVE_SEEDS = 400;

/**
 * llvm-ar-style archives of the bytecode seeds (the archive consumer ignores anything else): one
 * to three members each, with LLVM's symbol table or without, short names and names longer than
 * 15 bytes (BSD `#1/N`), under MAX_SEED.
 */
function writeArchiveSeeds(corpora: string[], dir: string): number {
  const bytecode = join(dir, '..', 'archive-members');
  const count = writeBytecodeSeeds(corpora, bytecode);
  mkdirSync(dir, { recursive: true });
  const random = seededRandom(7);
  let n = 0;
  for (let tries = 0; n < ARCHIVE_SEEDS && tries < ARCHIVE_SEEDS * 4 && count > 0; tries++) {
    const members: NewArchiveMember[] = [];
    for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
      const pick = Math.floor(random() * count);
      const name = random() < 0.3 ? `a-rather-long-member-name-${pick}.bc` : `m${pick}.bc`;
      members.push({ name, data: new Uint8Array(readFileSync(join(bytecode, `seed-${pick}.bc`))) });
    }
    let archive: Uint8Array;
    try {
      archive = writeArchive(members, { symbolTable: random() < 0.7 });
    } catch {
      continue; // a damaged seed whose symbols cannot be listed
    }
    if (archive.length > MAX_SEED) continue;
    writeFileSync(join(dir, `seed-${n++}.a`), archive);
  }
  return n;
}

/** The assembly texts of the project and of each corpus, as they are (latin1 bytes). */
function writeAssemblySeeds(corpora: string[], dir: string): number {
  mkdirSync(dir, { recursive: true });
  const files = [...projectAssemblyFiles(PROJECT, MAX_SEED), ...corpora.flatMap((corpus) => corpusListingFiles(corpus, MAX_SEED))];
  files.forEach((file, n) => writeFileSync(join(dir, `seed-${n}.ll`), readFileSync(file)));
  return files.length;
}

/** A libFuzzer dictionary (`-dict=`) of the 1.x grammar: its keywords and `ASSEMBLY_PIECES`. */
function writeAssemblyDictionary(file: string): void {
  // libFuzzer's format: one `"…"` entry a line, with `\\`, `\"` and `\xNN` escapes.
  const entry = (piece: string): string => `"${piece.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\x0A')}"`;
  writeFileSync(file, [...KEYWORD_LIST, ...ASSEMBLY_PIECES].map(entry).join('\n') + '\n');
}

/** Copies the `.bc` seeds into `dir`; compressed files as their stream, so mutations reach the format. */
function writeBytecodeSeeds(corpora: string[], dir: string): number {
  mkdirSync(dir, { recursive: true });
  let n = 0;
  for (const corpus of corpora) {
    for (const file of bytecodeFiles(corpus)) {
      let bytes = new Uint8Array(readFileSync(file));
      try {
        const { stream, compression } = unwrapContainer(bytes);
        if (compression !== 'none') bytes = stream.slice();
      } catch {
        // A damaged file is a seed as it is.
      }
      if (bytes.length > MAX_SEED) continue;
      writeFileSync(join(dir, `seed-${n++}.bc`), bytes);
    }
  }
  return n;
}

interface Result {
  target: string;
  seconds: number;
  execs: number;
  edges: number;
  features: number;
  corpus: number;
  findings: string[];
  exitCode: number | null;
}

/** The Jazzer.js command line: its CLI module, run by this Node. */
function jazzerCli(): string {
  const require = createRequire(import.meta.url);
  return require.resolve('@jazzer.js/core/dist/cli.js');
}

function runTarget(target: string, seconds: number, seeds: string, work: string, fuzzerFlags: string[]): Promise<Result> {
  const corpus = join(work, 'corpus', target);
  const findings = join(work, 'findings', target);
  const artifacts = join(work, 'artifacts', target) + '/';
  for (const d of [corpus, findings, artifacts]) mkdirSync(d, { recursive: true });
  const args = [
    jazzerCli(),
    join(HERE, 'fuzz-coverage', 'targets', `${target}.js`),
    corpus,
    seeds,
    '--sync',
    // Jazzer.js's per-input timeout (its default, 5 s, is libFuzzer's -timeout): instrumented code
    // runs 10-20 times slower, and a 12 KiB input whose analyzer dump takes 0.3 s uninstrumented
    // tripped 5 s. A real hang still ends the target, its input saved as an artifact.
    '--timeout',
    '30000',
    // Instrument the library only (not Jazzer.js, the fuzz harness or node_modules).
    '-i',
    join(PROJECT, 'dist-tools', 'src') + '/',
    '-e',
    'node_modules',
    '-e',
    join('dist-tools', 'tools') + '/',
    '--',
    `-max_total_time=${seconds}`,
    `-max_len=${MAX_SEED}`,
    '-rss_limit_mb=3072',
    '-print_final_stats=1',
    `-artifact_prefix=${artifacts}`,
    ...fuzzerFlags,
  ];
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, FUZZ_FINDINGS: findings }, stdio: ['ignore', 'pipe', 'pipe'] });
    let last = '';
    let execs = 0;
    let pending = '';
    const tail: string[] = [];
    const onLine = (line: string): void => {
      tail.push(line);
      if (tail.length > 20) tail.shift();
      if (/^#\d+\s.*cov: /.test(line)) last = line;
      const stat = /^stat::number_of_executed_units:\s*(\d+)/.exec(line);
      if (stat) execs = Number(stat[1]);
      if (line.startsWith('FINDING') || line.includes('ERROR') || line.startsWith('Dictionary:') || /^#\d+\s+(INITED|DONE)/.test(line))
        console.log(`  [${target}] ${line}`);
    };
    const onText = (chunk: Buffer): void => {
      const lines = (pending + chunk.toString('latin1')).split('\n');
      pending = lines.pop()!;
      lines.forEach(onLine);
    };
    child.stdout.on('data', onText);
    child.stderr.on('data', onText);
    child.on('close', (exitCode) => {
      onLine(pending);
      if (!/^#\d+/.test(last))
        console.log(`  [${target}] Jazzer.js stopped (exit ${exitCode}) before reporting coverage:\n${tail.map((l) => `    ${l}`).join('\n')}`);
      const m = /^#(\d+)\s+\S+\s+cov: (\d+) ft: (\d+)(?: corp: (\d+))?/.exec(last);
      const listed = join(findings, 'findings.txt');
      const found = existsSync(listed) ? readFileSync(listed, 'latin1').trim().split('\n').filter(Boolean) : [];
      for (const a of readdirSync(artifacts)) found.push(`${a}\t(libFuzzer artifact: crash, timeout or out of memory)`);
      done({
        target,
        seconds,
        execs: execs || Number(m?.[1] ?? 0),
        edges: Number(m?.[2] ?? 0),
        features: Number(m?.[3] ?? 0),
        corpus: readdirSync(corpus).length,
        findings: found,
        exitCode,
      });
    });
  });
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const work = mkdtempSync(join(tmpdir(), 'llvm-bytecode-fuzz-'));
  const chosen = targets.filter((t) => o.targets.includes(t.name));
  const seeds = new Map<TargetInput, string>();
  const counts: string[] = [];
  for (const input of new Set(chosen.map((t) => t.input))) {
    const dir = join(work, 'seeds', input);
    seeds.set(input, dir);
    counts.push(`${writeSeeds(input, o.corpora, dir)} ${input} seeds`);
  }
  const dictionary = join(work, 'assembly.dict');
  const useDictionary = o.dictionary && seeds.has('assembly');
  if (useDictionary) writeAssemblyDictionary(dictionary);
  console.log(
    `coverage-guided fuzzing (Jazzer.js): ${chosen.map((t) => t.name).join(', ')}, ${o.seconds} s each, ${counts.join(' and ')}; working directory ${work}`,
  );
  const results: Result[] = [];
  for (const t of chosen) {
    console.log(`${t.name}: fuzzing for ${o.seconds} s…`);
    const flags = t.input === 'assembly' && useDictionary ? [`-dict=${dictionary}`] : [];
    results.push(await runTarget(t.name, o.seconds, seeds.get(t.input)!, work, flags));
  }
  console.log('\n| target | seconds | inputs tried | coverage (edges) | features | inputs kept | findings |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of results) console.log(`| ${r.target} | ${r.seconds} | ${r.execs} | ${r.edges} | ${r.features} | ${r.corpus} | ${r.findings.length} |`);
  const all = results.flatMap((r) => r.findings.map((f) => `${r.target}: ${f}`));
  if (all.length) {
    console.log(`\nfindings (inputs in ${join(work, 'findings')} and ${join(work, 'artifacts')}):`);
    for (const f of all) console.log(`  ${f}`);
    process.exitCode = 1;
  }
  const broken = results.filter((r) => r.edges === 0);
  if (broken.length) {
    console.log(`\nno coverage reported for ${broken.map((r) => `${r.target} (exit ${r.exitCode})`).join(', ')}: Jazzer.js did not run`);
    process.exitCode = 1;
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 2;
});
