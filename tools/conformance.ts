/**
 * `npm run conformance [-- options]`: the scoreboard. Every `.bc` of the reference corpus
 * (`../shared/corpus`, every folder) is read, printed in both dialects and compared with what LLVM
 * printed, and written back and compared with its own bytes. Prints a table per folder.
 *
 *   --json             the scoreboard (and every failing file, with its first difference) as JSON
 *   --markdown         the scoreboard as a Markdown table (for README.md)
 *   --failures         also list failing files under the table
 *   --ratchet          exit 1 if any count fell below conformance/ratchet.json
 *   --update-ratchet   rewrite conformance/ratchet.json with today's counts
 *   --corpus DIR, DIR  another corpus root (default: $LLVM_BYTECODE_CORPUS, else ../shared/corpus);  --folder NAME  only that folder (repeatable)
 *   --jobs N           worker threads (default: the available cores; 1 = in-process)
 *   --ratchet-file P   another ratchet file (tests use a temporary one)
 *   --timings          also print (to stderr) the seconds each stage took, per folder
 *
 * Columns: read, printed (1.9 dialect and native) against LLVM's listings, written back against the
 * file (uncompressed payload and whole file), analyzed against llvm-bcanalyzer's summary.
 *
 * The ratchet holds, per folder, minimum counts of good outcomes: files read, files nothing crashed
 * on, and passes of each comparison. Counts only rise: a change that loses one fails CI.
 */
import { locateCorpus, noCorpusMessage, PROJECT_ROOT } from './corpus-location.js';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { join, resolve } from 'node:path';
import { workerPool, type ParallelRunner } from '../src/cli/pool.js';
import { STAGES, type FileResult, type Outcome, type Stage } from './conformance-check.js';
import type { Task } from './conformance-worker.js';

const PROJECT = PROJECT_ROOT;
const DEFAULT_RATCHET = join(PROJECT, 'conformance/ratchet.json');
const FOLDER_ORDER = ['v0', 'v1', 'v3', 'v5', 'v6', 'historical'];
const COMPARISONS = ['print19', 'native', 'payload', 'file', 'analyze', 'asmText', 'asmBytes', 'asmOrder'] as const;
type Comparison = (typeof COMPARISONS)[number];

interface Options {
  json: boolean;
  markdown: boolean;
  failures: boolean;
  ratchet: boolean;
  updateRatchet: boolean;
  corpus: string;
  ratchetFile: string;
  folders: string[];
  jobs: number;
  timings: boolean;
}

/** A column's tally: passes out of the files that have something to compare with. */
interface Tally {
  pass: number;
  of: number;
}

export interface FolderScore {
  files: number;
  readOk: number;
  /** Files refused with a BytecodeError (right for damaged files, wrong for sound ones). */
  readError: number;
  /** Files on which any stage threw something other than a typed error. */
  crashed: number;
  print19: Tally;
  native: Tally;
  payload: Tally;
  file: Tally;
  analyze: Tally;
  asmText: Tally;
  asmBytes: Tally;
  asmOrder: Tally;
}

/**
 * The counts the ratchet keeps from falling. `asmOrder` is not held: it counts files that fall
 * short of `asmBytes`, and shrinks as that grows.
 */
// (see above) is not held: it counts files that fall short of `asmBytes`, and shrinks as that grows.
const RATCHETED = ['readOk', 'noCrash', 'print19', 'native', 'payload', 'file', 'analyze', 'asmText', 'asmBytes'] as const;
type RatchetKey = (typeof RATCHETED)[number];
type Ratchet = Record<string, Partial<Record<RatchetKey, number>>>;

function ratchetValues(s: FolderScore): Record<RatchetKey, number> {
  return {
    readOk: s.readOk,
    noCrash: s.files - s.crashed,
    print19: s.print19.pass,
    native: s.native.pass,
    payload: s.payload.pass,
    file: s.file.pass,
    analyze: s.analyze.pass,
    asmText: s.asmText.pass,
    asmBytes: s.asmBytes.pass,
  };
}

function parseOptions(argv: string[]): Options {
  const o: Options = {
    json: false,
    markdown: false,
    failures: false,
    ratchet: false,
    updateRatchet: false,
    corpus: '',
    ratchetFile: DEFAULT_RATCHET,
    folders: [],
    jobs: availableParallelism(),
    timings: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--json') o.json = true;
    else if (a === '--markdown') o.markdown = true;
    else if (a === '--failures') o.failures = true;
    else if (a === '--ratchet') o.ratchet = true;
    else if (a === '--update-ratchet') o.updateRatchet = true;
    else if (a === '--timings') o.timings = true;
    else if (a === '--corpus') o.corpus = value();
    else if (a === '--folder') o.folders.push(value());
    else if (a === '--ratchet-file') o.ratchetFile = resolve(value());
    else if (a === '--jobs') o.jobs = Math.max(1, Number.parseInt(value(), 10) || 1);
    else if (a === '-h' || a === '--help') {
      process.stdout.write(
        'usage: npm run conformance -- [--json | --markdown] [--failures] [--ratchet | --update-ratchet] [--corpus DIR | DIR] [--folder NAME]... [--jobs N] [--ratchet-file PATH] [--timings]\n(corpus: --corpus DIR, else $LLVM_BYTECODE_CORPUS, else ../shared/corpus)\n',
      );
      process.exit(0);
    } else if (!a.startsWith('-'))
      o.corpus = a; // `npm run conformance -- DIR`
    else throw new Error(`unknown option ${a} (see --help)`);
  }
  return o;
}

/** The corpus files to check, by folder then name. */
function listFiles(o: Options): Task[] {
  const present = readdirSync(o.corpus).filter((d) => statSync(join(o.corpus, d)).isDirectory());
  const ordered = [...FOLDER_ORDER.filter((f) => present.includes(f)), ...present.filter((f) => !FOLDER_ORDER.includes(f)).sort()];
  const folders = o.folders.length ? ordered.filter((f) => o.folders.includes(f)) : ordered;
  const tasks: Task[] = [];
  for (const folder of folders) {
    for (const name of readdirSync(join(o.corpus, folder)).sort()) {
      if (name.endsWith('.bc') || /\.bc-\d+$/.test(name)) tasks.push({ root: o.corpus, folder, name, ...(o.timings ? { timed: true } : {}) });
    }
  }
  return tasks;
}

/**
 * Largest first, so the big files do not end up alone at the tail of the run (the workers take
 * from the front, this thread from the back: the small files, cheapest while its engines are cold).
 */
function largestFirst(tasks: Task[]): Task[] {
  const size = (t: Task): number => statSync(join(t.root, t.folder, t.name)).size;
  return tasks
    .map((t) => ({ t, s: size(t) }))
    .sort((a, b) => b.s - a.s)
    .map(({ t }) => t);
}

/**
 * V8's tier-up threshold for the run (bytecode executed before a function is optimized; V8's
 * default is 66 KiB), as the CLI's batch mode sets it (src/cli/batch.ts). Each thread runs every
 * engine (reader, printer, writer, analyzer, assembler) from cold over thousands of small files:
 * measured, a thread's first pass over the corpus took 12.7 s of CPU and a second pass in the same
 * thread 4.7 s. At V8's default one run optimized 639 functions 1,773 times (911 deoptimizations):
 * TurboFan optimizing early, on the feedback of the first files, then again each time a later file
 * (another version, another dialect) deoptimized them. Waiting longer gathers feedback that holds:
 * the whole run on two threads took 12.6-14.1 s of CPU at 1,000,000 and at 2,000,000, 13.7-15.0 s
 * at 400,000, 15.0-16.6 s at 200,000 and about 20 s at the default. Process-wide (the worker
 * threads share it), set before the engines are loaded.
 */
const INTERRUPT_BUDGET = 1_000_000;

/**
 * Runs every task: in this thread alone without a pool, else in the pool the CLI's batch mode uses
 * (its worker threads take tasks from a shared counter) with this thread as one of the `jobs`.
 */
async function runAll(tasks: Task[], jobs: number, pool: ParallelRunner | undefined): Promise<FileResult[]> {
  const check = await import('./conformance-check.js');
  await check.prepare();
  const checkTask = (t: Task): FileResult => check.checkFile(t.root, t.folder, t.name, t.timed);
  if (!pool) return tasks.map(checkTask);
  const results: FileResult[] = [];
  const lost: string[] = [];
  await pool.run<Task, FileResult>(tasks, {
    jobs,
    onResult: (_, result) => results.push(result!), // a check always has a verdict
    onLost: (index, error) => lost.push(`${tasks[index]!.folder}/${tasks[index]!.name} (${error.message})`),
    // This thread is one of the jobs (it would only wait otherwise): one thread fewer to start.
    local: (t) => Promise.resolve(checkTask(t)),
  });
  // A worker that died (out of memory, say) leaves no verdict: that is a failure of the run.
  if (lost.length) throw new Error(`conformance worker failed on one of: ${lost.join(', ')}`);
  return results;
}

function score(results: FileResult[]): Map<string, FolderScore> {
  const scores = new Map<string, FolderScore>();
  for (const r of results) {
    let s = scores.get(r.folder);
    if (!s) {
      const t = (): Tally => ({ pass: 0, of: 0 });
      s = {
        files: 0,
        readOk: 0,
        readError: 0,
        crashed: 0,
        print19: t(),
        native: t(),
        payload: t(),
        file: t(),
        analyze: t(),
        asmText: t(),
        asmBytes: t(),
        asmOrder: t(),
      };
      scores.set(r.folder, s);
    }
    s.files++;
    if (r.read === 'ok') s.readOk++;
    if (r.read === 'error') s.readError++;
    const outcomes: Outcome[] = COMPARISONS.map((c) => r[c]);
    if (r.read === 'crash' || outcomes.includes('crash')) s.crashed++;
    for (const c of COMPARISONS) {
      if (r[c] === 'n/a') continue;
      s[c].of++;
      if (r[c] === 'pass') s[c].pass++;
    }
  }
  return scores;
}

function total(scores: Map<string, FolderScore>): FolderScore {
  const t = (): Tally => ({ pass: 0, of: 0 });
  const sum: FolderScore = {
    files: 0,
    readOk: 0,
    readError: 0,
    crashed: 0,
    print19: t(),
    native: t(),
    payload: t(),
    file: t(),
    analyze: t(),
    asmText: t(),
    asmBytes: t(),
    asmOrder: t(),
  };
  for (const s of scores.values()) {
    sum.files += s.files;
    sum.readOk += s.readOk;
    sum.readError += s.readError;
    sum.crashed += s.crashed;
    for (const c of COMPARISONS) {
      sum[c].pass += s[c].pass;
      sum[c].of += s[c].of;
    }
  }
  return sum;
}

const TABLE_HEAD = ['folder', 'files', 'read', 'refused', 'crashed', 'print 1.9', 'native', 'payload', 'file', 'analyze', 'as text', 'as bytes', 'as order'];

function tableRows(scores: Map<string, FolderScore>, dash: string): string[][] {
  const tally = (t: Tally): string => (t.of === 0 ? dash : `${t.pass}/${t.of}`);
  const row = (name: string, s: FolderScore): string[] => [
    name,
    String(s.files),
    String(s.readOk),
    String(s.readError),
    String(s.crashed),
    ...COMPARISONS.map((c) => tally(s[c])),
  ];
  return [...[...scores].map(([f, s]) => row(f, s)), row('total', total(scores))];
}

function markdown(scores: Map<string, FolderScore>): string {
  const rows = tableRows(scores, '–');
  const last = rows.length - 1;
  const lines = [TABLE_HEAD, TABLE_HEAD.map(() => '---'), ...rows.map((r, i) => (i === last ? r.map((c, j) => (j === 0 ? `**${c}**` : c)) : r))];
  return lines.map((r) => `| ${r.join(' | ')} |`).join('\n') + '\n';
}

function table(scores: Map<string, FolderScore>): string {
  const head = TABLE_HEAD;
  const rows = [head, ...tableRows(scores, '-')];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n') + '\n';
}

const COLUMN_TITLES: Record<Comparison, string> = {
  print19: 'default printing (1.9 dialect) differs',
  native: 'native printing differs',
  payload: 'written stream differs',
  file: 'written file differs',
  analyze: 'analyzer summary differs from .bca.txt',
  asmText: 'assembled text prints back differently',
  asmBytes: 'assembled .dis.ll differs from the .bc',
  asmOrder: 'assembled .dis.ll differs from the .bc beyond symbol-table order',
};

function failureList(results: FileResult[]): string {
  const lines: string[] = [];
  const unread = results.filter((r) => r.read !== 'ok');
  if (unread.length) {
    lines.push('', 'not read:');
    for (const r of unread) lines.push(`  ${r.folder}/${r.name}: ${r.read === 'crash' ? 'CRASH ' : ''}${r.readMessage ?? ''}`);
  }
  for (const c of COMPARISONS) {
    // A file that did not read fails the reader's columns by that alone; the analyzer still ran.
    const failed = results.filter((r) => (r.read === 'ok' || c === 'analyze') && (r[c] === 'fail' || r[c] === 'crash'));
    if (!failed.length) continue;
    lines.push('', `${COLUMN_TITLES[c]} (${failed.length}):`);
    for (const r of failed) lines.push(`  ${r.folder}/${r.name}: ${r[c] === 'crash' ? 'CRASH ' : ''}${r.notes[c] ?? ''}`);
  }
  return lines.join('\n') + '\n';
}

/** The first `n` printing mismatches with their short diffs (all of them: `--failures`). */
function firstMismatches(results: FileResult[], n: number): string {
  const shown: string[] = [];
  for (const r of results) {
    for (const c of ['print19', 'native'] as const) {
      if (shown.length >= n) break;
      if (r.read === 'ok' && r[c] === 'fail' && r.notes[c]) shown.push(`\n${r.folder}/${r.name} (${COLUMN_TITLES[c]}):\n${r.notes[c]}`);
    }
  }
  return shown.length ? `\nfirst mismatches (all of them: --failures):${shown.join('\n')}\n` : '';
}

/** Drops below (and rises above) the ratchet; with `--folder`, only the folders that were run. */
function checkRatchet(scores: Map<string, FolderScore>, path: string, only: string[]): { drops: string[]; rises: string[] } {
  const ratchet = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Ratchet) : {};
  const drops: string[] = [];
  const rises: string[] = [];
  for (const [folder, minimums] of Object.entries(ratchet)) {
    if (only.length && !only.includes(folder)) continue;
    const s = scores.get(folder);
    for (const key of RATCHETED) {
      const min = minimums[key];
      if (min === undefined) continue;
      const now = s ? ratchetValues(s)[key] : 0;
      if (now < min) drops.push(`${folder} ${key}: ${now} < ${min}`);
      else if (now > min) rises.push(`${folder} ${key}: ${now} > ${min}`);
    }
  }
  return { drops, rises };
}

/**
 * Where the time went (`--timings`): seconds per stage and folder, summed over the threads (each
 * stage timed on its thread's clock, so a busy machine's waits count in).
 */
function timingTable(results: FileResult[]): string {
  const byFolder = new Map<string, Record<Stage, number>>();
  const zero = (): Record<Stage, number> => Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  const sum = zero();
  for (const r of results) {
    let row = byFolder.get(r.folder);
    if (!row) byFolder.set(r.folder, (row = zero()));
    for (const stage of STAGES) {
      const t = r.seconds?.[stage] ?? 0;
      row[stage] += t;
      sum[stage] += t;
    }
  }
  const head = ['seconds', ...STAGES, 'all'];
  const rowOf = (name: string, t: Record<Stage, number>): string[] => [
    name,
    ...STAGES.map((s) => t[s].toFixed(2)),
    STAGES.reduce((a, s) => a + t[s], 0).toFixed(2),
  ];
  const rows = [head, ...[...byFolder].map(([f, t]) => rowOf(f, t)), rowOf('total', sum)];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')).join('\n') + '\n';
}

async function main(argv: string[]): Promise<number> {
  const o = parseOptions(argv);
  // --corpus DIR, then LLVM_BYTECODE_CORPUS, then ../shared/corpus (tools/corpus-location.ts).
  const location = locateCorpus(o.corpus);
  o.corpus = location.root;
  if (!location.present) {
    // Asked to check a corpus that is not there: that is a failure, never a silent pass.
    process.stderr.write(`conformance: ${noCorpusMessage(location)}\n`);
    return 1;
  }
  const started = performance.now();
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
  const names = listFiles(o);
  // Threads for more than a handful of files (in this thread alone otherwise), started now so
  // that they load while this thread sizes the files.
  const pool = o.jobs > 1 && names.length >= 50 ? workerPool(new URL('./conformance-worker.js', import.meta.url)) : undefined;
  pool?.start?.(o.jobs - 1);
  const tasks = largestFirst(names);
  const results = await runAll(tasks, o.jobs, pool);
  const seconds = (performance.now() - started) / 1000;
  // Workers finish in any order; report in folder then name order.
  const folderRank = (f: string): number => (FOLDER_ORDER.includes(f) ? FOLDER_ORDER.indexOf(f) : FOLDER_ORDER.length);
  results.sort((a, b) => folderRank(a.folder) - folderRank(b.folder) || a.folder.localeCompare(b.folder) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const scores = score(results);
  if (o.timings) process.stderr.write(`conformance: seconds per stage (threads' clocks, summed)\n${timingTable(results)}`);

  if (o.json) {
    const failing = results.filter((r) => r.read !== 'ok' || COMPARISONS.some((c) => r[c] === 'fail' || r[c] === 'crash'));
    const report = {
      corpus: o.corpus,
      date: new Date().toISOString(),
      seconds: Number(seconds.toFixed(2)),
      folders: Object.fromEntries(scores),
      total: total(scores),
      failing,
    };
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  } else if (o.markdown) {
    process.stdout.write(`Scoreboard as of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (\`npm run conformance\`):\n\n`);
    process.stdout.write(markdown(scores));
  } else {
    process.stdout.write(`conformance over ${o.corpus} (${tasks.length} files, ${o.jobs} job(s), ${seconds.toFixed(1)} s)\n`);
    process.stdout.write('\n' + table(scores));
    process.stdout.write('\nread = read without error; refused = typed BytecodeError; crashed = any other exception in any stage;\n');
    process.stdout.write('print 1.9 vs .dis.ll (v6) / .dis19.ll (v3, v5) / .via19.ll (v0, v1); native vs .dis.ll; payload/file = written back identical;\n');
    process.stdout.write('analyze = analyzer summary vs .bca.txt (llvm-bcanalyzer 1.9; r36867 for v7).\n');
    if (o.failures) process.stdout.write(failureList(results));
    else process.stdout.write(firstMismatches(results, 3));
  }

  if (o.updateRatchet) {
    // With --folder, the other folders keep their entries.
    const previous = o.folders.length && existsSync(o.ratchetFile) ? (JSON.parse(readFileSync(o.ratchetFile, 'utf8')) as Ratchet) : {};
    const ratchet: Ratchet = { ...previous, ...Object.fromEntries([...scores].map(([f, s]) => [f, ratchetValues(s)])) };
    writeFileSync(o.ratchetFile, JSON.stringify(ratchet, null, 2) + '\n');
    process.stderr.write(`conformance: wrote ${o.ratchetFile}\n`);
  }
  if (o.ratchet) {
    const { drops, rises } = checkRatchet(scores, o.ratchetFile, o.folders);
    if (drops.length) {
      process.stderr.write(`conformance: below the ratchet (${o.ratchetFile}):\n  ${drops.join('\n  ')}\n`);
      return 1;
    }
    process.stderr.write(`conformance: ratchet holds${rises.length ? ` (${rises.length} count(s) above it; run --update-ratchet to raise it)` : ''}\n`);
  }
  return 0;
}

// `npm run conformance | head` stopping early is not a failure.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
process.exitCode = await main(process.argv.slice(2));
