/**
 * `npm run bench [-- options]`: our CLI against LLVM 1.9's own tools, whole process against whole
 * process (bench-processes.ts), stack maps against llvm-readobj-16 (bench-stackmap.ts), upgrade to
 * bitcode against llvm-as-16 (bench-bitcode.ts), then throughput and memory in this process on
 * real files.
 *
 *   --runs N            in-process: best of N runs (default 10)
 *   --rounds N          side by side: rounds of A B per single-file row (default 5; the tiny file
 *                       against bare node 4 times as many, the stack map rows 3 times)
 *   --batch-rounds N    side by side: rounds per batch row (default 3)
 *   --llvm DIR          LLVM 1.9's bin folder (default $LLVM_BYTECODE_LLVM19, else ../shared/llvm-1.9/bin; skipped, saying so,
 *                       when absent)
 *   --no-side-by-side   only the in-process table;  --side-by-side-only  only the comparison
 *   --corpus DIR        the reference corpus;  --generated N  functions of the generated module
 *   --one-process       the in-process table's workloads one after another in this process, as
 *                       the bench did until 2026-11-26, instead of each in a process of its own
 *
 * The in-process table:
 * Two workloads: `v6/Large__big-bf.bc` (the largest module in the corpus) and every file of `v6/`
 * together. Rates are megabytes (10^6 bytes) of *uncompressed* bytecode per second, so reading is
 * measured apart from decompression: the streams are unwrapped once, before timing.
 *
 *   read          readModule on the uncompressed streams
 *   read+print    readModule then printModule (LLVM 1.9 dialect)
 *   write         writeModule (no compression) from modules already read
 *   bzip2         compressing the streams as LLVM did (libbzip2's compressor ported to WebAssembly, block size 5)
 *   bunzip2       decompressing the llvc2 files (container/bunzip2.ts)
 *
 * A third workload, `v6/Large__big-bf.dis.ll` (3.8 MB of text), times `as` the way the CLI runs it
 * (parse, verify, write, bzip2; rates in megabytes of text): its first run in a fresh process,
 * then the best of N. The two show how much of a cold `as` is V8 warming up (the side-by-side
 * `as` row is a whole cold process).
 *
 * A fourth, `v6/Large__big-bf.bc` upgraded (rates in megabytes of bytecode, the module read before
 * timing): `writeModern` for LLVM 16 (check, lower, write bitcode) first in a fresh process, then
 * the best of N, and `printModern` (the text) the best of N: the bitcode row of the side by side
 * is one cold run, and this says how much of it is V8 warming up (docs/performance.md).
 *
 * Each figure is the best of N runs (default 10) after three untimed warm-up runs (so V8 has
 * compiled the hot code, as in any long-lived use), by wall-clock and by CPU time (the latter stays
 * meaningful on a machine busy with other work). Memory: what the read modules keep alive (JavaScript
 * heap plus ArrayBuffers, as read and with every body materialized), and the peak resident set of
 * the workload's process. Run with `--expose-gc` (the npm script does) for clean figures.
 *
 * Each workload runs in a Node process of its own (this script again, `--workload NAME`), as
 * benchmark harnesses fork per benchmark: V8 compiles the reader, printer and writer for the
 * values and types it has seen, so a workload measured after another ran code compiled for both
 * (after the 1,212 varied modules of v6, the generated module read and printed 15-25% slower than
 * alone), and each would be measured for the order of the table rather than for itself.
 * `--one-process` keeps that order-dependent measurement, to see what a long-lived process that
 * reads many kinds of module gets.
 */
import { locateCorpus, noCorpusMessage, PROJECT_ROOT } from './corpus-location.js';
import { LLVM19_SPEC, locateTools } from './tool-location.js';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compressBzip2, loadBzip2, unwrapContainer } from '../src/container/index.js';
import { writeModule } from '../src/encode/write.js';
import type { Module } from '../src/graph/module.js';
import { printModule } from '../src/print/index.js';
import { DIALECT_VERSION, detectDialect, parseAssembly } from '../src/asm/index.js';
import { readModule } from '../src/read.js';
import { printModern, writeModern } from '../src/modern/index.js';
import { sideBySide } from './bench-processes.js';
import { stackmapBench } from './bench-stackmap.js';
import { bitcodeBench } from './bench-bitcode.js';
import { syntheticModule } from './synthetic-module.js';

/** Functions in the generated workload by default: about 1 MB of bytecode. */
const SYNTHETIC_FUNCTIONS = 4000;

const PROJECT = PROJECT_ROOT;
const BIG = 'Large__big-bf.bc';
/** big-bf as LLVM 1.9's `llvm-dis` printed it: the assembler's workload. */
const BIG_TEXT = 'Large__big-bf.dis.ll';

interface Workload {
  label: string;
  files: Uint8Array[];
  /** The same files unwrapped: `llvm` + uncompressed stream. */
  streams: Uint8Array[];
}

interface Row extends Timing {
  workload: string;
  measure: string;
  megabytes: number;
  note?: string;
}

const gc = (globalThis as { gc?: () => void }).gc;

interface Options {
  runs: number;
  rounds: number;
  batchRounds: number;
  llvm: string;
  sideBySide: boolean;
  table: boolean;
  corpus: string;
  noCorpus: boolean;
  generated: number;
  onePerProcess: boolean;
  /** Internal: measure this one workload and print its rows as JSON (a child of the bench). */
  workload: WorkloadName | undefined;
}

/** The in-process table's workloads, in the table's order. */
const WORKLOAD_NAMES = ['big-bf', 'v6', 'generated', 'big-bf-text', 'big-bf-upgrade'] as const;
type WorkloadName = (typeof WORKLOAD_NAMES)[number];

function parseOptions(argv: string[]): Options {
  const o: Options = {
    runs: 10,
    rounds: 5,
    batchRounds: 3,
    llvm: locateTools(LLVM19_SPEC).dir,
    sideBySide: true,
    table: true,
    corpus: '',
    noCorpus: false,
    generated: SYNTHETIC_FUNCTIONS,
    onePerProcess: true,
    workload: undefined,
  };
  const count = (i: number): number => Math.max(1, Number.parseInt(argv[i] ?? '', 10) || 1);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs') o.runs = count(++i);
    else if (a === '--rounds') o.rounds = count(++i);
    else if (a === '--batch-rounds') o.batchRounds = count(++i);
    else if (a === '--llvm') o.llvm = resolve(argv[++i] ?? '.');
    else if (a === '--no-side-by-side') o.sideBySide = false;
    else if (a === '--side-by-side-only') o.table = false;
    else if (a === '--corpus') o.corpus = argv[++i] ?? '.';
    else if (a === '--no-corpus') o.noCorpus = true;
    else if (a === '--generated') o.generated = Math.max(1, Number.parseInt(argv[++i] ?? '', 10) || 1);
    else if (a === '--one-process') o.onePerProcess = false;
    else if (a === '--workload') {
      const name = argv[++i];
      if (!(WORKLOAD_NAMES as readonly string[]).includes(name ?? '')) throw new Error(`unknown workload ${name}`);
      o.workload = name as WorkloadName;
    } else if (a === '-h' || a === '--help') {
      process.stdout.write(
        'usage: npm run bench -- [--runs N] [--rounds N] [--batch-rounds N] [--llvm DIR] [--no-side-by-side | --side-by-side-only] [--corpus DIR | --no-corpus] [--generated FUNCTIONS] [--one-process]\n',
      );
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  return o;
}

/**
 * Best time of `runs` runs of `fn`, in seconds: wall-clock, and the process's CPU time (user +
 * system). On a busy machine the wall time counts other processes' turns too; the CPU time does
 * not (it includes V8's helper threads, so it can exceed the wall time on an idle machine).
 */
function best(runs: number, fn: () => void, warmUpRuns = WARM_UP_RUNS): Timing {
  let wall = Infinity;
  let cpu = Infinity;
  for (let i = 0; i < warmUpRuns; i++) fn();
  // One collection before the series, none between runs: a forced full GC makes V8 drop the
  // optimized code of classes with no live instance, so collecting before every run timed a
  // freshly deoptimized program (up to 3x slower than any long-lived use sees).
  gc?.();
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    fn();
    wall = Math.min(wall, (performance.now() - t) / 1000);
    const used = process.cpuUsage(c);
    cpu = Math.min(cpu, (used.user + used.system) / 1e6);
  }
  return { seconds: wall, cpuSeconds: cpu };
}

/** Untimed runs before timing: the first runs measure V8's compiler, not the code. */
const WARM_UP_RUNS = 3;

interface Timing {
  seconds: number;
  cpuSeconds: number;
}

const NO_TIMING: Timing = { seconds: NaN, cpuSeconds: NaN };

const sizeOf = (arrays: Uint8Array[]): number => arrays.reduce((n, a) => n + a.length, 0) / 1e6;

/**
 * Memory kept alive by the modules of `streams` (needs --expose-gc; else undefined): the JavaScript
 * heap plus ArrayBuffer storage (compact function bodies live in typed arrays, outside the heap
 * proper), with bodies as read, and again once every body has been materialized into objects.
 */
function retainedHeap(streams: Uint8Array[]): { asRead: number; materialized: number } | undefined {
  if (!gc) return undefined;
  const used = (): number => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  gc();
  gc();
  const before = used();
  const kept = streams.map((s) => readModule(s));
  gc();
  const asRead = used() - before;
  for (const m of kept) for (const f of m.functions) void f.blocks.length;
  gc();
  const materialized = used() - before;
  if (kept.length < 0) console.log(kept); // keep `kept` alive until after the measurement
  return { asRead, materialized };
}

/** `w`'s rows; `peakOf` says whose peak resident set the process's is. */
function measure(w: Workload, runs: number, peakOf: string): Row[] {
  const rows: Row[] = [];
  const mb = sizeOf(w.streams);
  let modules: Module[] = [];
  rows.push({ workload: w.label, measure: 'read', megabytes: mb, ...best(runs, () => void (modules = w.streams.map((s) => readModule(s)))) });
  let chars = 0;
  const printing = best(runs, () => {
    chars = 0;
    for (const s of w.streams) chars += printModule(readModule(s), { syntax: '1.9' }).length;
  });
  rows.push({ workload: w.label, measure: 'read+print', megabytes: mb, ...printing, note: `${(chars / 1e6).toFixed(1)} MB of text` });
  rows.push({
    workload: w.label,
    measure: 'write',
    megabytes: mb,
    ...best(runs, () => {
      for (const m of modules) writeModule(m, { bytecodeVersion: m.source?.bytecodeVersion ?? 6, compression: 'none' });
    }),
  });
  rows.push({
    workload: w.label,
    measure: 'bzip2',
    megabytes: mb,
    ...best(runs, () => {
      for (const s of w.streams) compressBzip2(s.subarray(4), 5);
    }),
  });
  const compressed = w.files.filter((f) => f[3] === 0x63 && f[4] === 0x32); // llvc2
  if (compressed.length) {
    rows.push({
      workload: w.label,
      measure: 'bunzip2',
      megabytes: sizeOf(compressed.map((f) => unwrapContainer(f).stream)),
      ...best(runs, () => {
        for (const f of compressed) unwrapContainer(f);
      }),
      note: `${compressed.length} llvc2 file(s)`,
    });
  }
  modules = []; // only what retainedHeap reads counts
  const heap = retainedHeap(w.streams);
  if (heap !== undefined) {
    rows.push({
      workload: w.label,
      measure: 'module heap',
      megabytes: heap.asRead / 1e6,
      ...NO_TIMING,
      note: `${(heap.asRead / (mb * 1e6)).toFixed(1)} bytes per byte of bytecode (heap + ArrayBuffers)`,
    });
    rows.push({
      workload: w.label,
      measure: 'heap, all bodies',
      megabytes: heap.materialized / 1e6,
      ...NO_TIMING,
      note: `${(heap.materialized / (mb * 1e6)).toFixed(1)} bytes per byte, every body materialized`,
    });
  }
  // maxRSS (KiB) only grows: in one process, measured after each workload, the first gets its own peak.
  rows.push({
    workload: w.label,
    measure: 'peak RSS',
    megabytes: (process.resourceUsage().maxRSS * 1024) / 1e6,
    ...NO_TIMING,
    note: `whole process, ${peakOf}`,
  });
  return rows;
}

/** Rows whose figure is a size, not a rate. */
const MEMORY = new Set(['module heap', 'heap, all bodies', 'peak RSS']);

function table(rows: Row[]): string {
  const rate = (t: number, r: Row): string => (MEMORY.has(r.measure) || Number.isNaN(t) ? '' : (r.megabytes / t).toFixed(1));
  const cells = rows.map((r) => [
    r.workload,
    r.measure,
    MEMORY.has(r.measure) ? '' : r.megabytes.toFixed(2),
    Number.isNaN(r.seconds) ? '' : (r.seconds * 1000).toFixed(1),
    MEMORY.has(r.measure) ? `${r.megabytes.toFixed(1)} MB` : rate(r.seconds, r),
    rate(r.cpuSeconds, r),
    r.note ?? '',
  ]);
  const head = ['workload', 'measure', 'MB', 'ms (best)', 'MB/s', 'MB/s (CPU)', 'note'];
  const all = [head, ...cells];
  const widths = head.map((_, i) => Math.max(...all.map((c) => c[i]!.length)));
  const line = (c: string[]): string =>
    c
      .map((x, i) => (i < 2 || i === 6 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n') + '\n';
}

async function main(argv: string[]): Promise<number> {
  const o = parseOptions(argv);
  // --corpus DIR, then LLVM_BYTECODE_CORPUS, then ../shared/corpus (tools/corpus-location.ts).
  const location = locateCorpus(o.corpus);
  if (!o.noCorpus && !location.present && location.from !== 'default') {
    // A corpus the user named and that is not there is a mistake, not a reason to measure less.
    process.stderr.write(`bench: ${noCorpusMessage(location)}\n`);
    return 1;
  }
  o.corpus = location.root;
  if (o.workload !== undefined) {
    // A child of the bench (see the top of this file): its rows, for the parent's table.
    await loadBzip2();
    process.stdout.write(JSON.stringify(measureWorkload(o.workload, o, true)));
    return 0;
  }
  // The in-process table is measured first and printed last: the side-by-side batches create and
  // delete some 16,000 files, which the kernel goes on cleaning up in the background, and big-bf
  // measured right after them read and printed 15% slower (14.2-14.7 MB/s, 16.5-17.6 alone).
  const tableText = o.table ? await inProcessTable(o, location) : '';
  if (o.sideBySide) {
    const cli = join(PROJECT, 'dist/cli/llvm-bytecode.cjs'); // the package's bin
    if (!existsSync(join(o.llvm, 'llvm-dis'))) process.stdout.write(`bench: LLVM 1.9's tools not found at ${o.llvm}: no side-by-side comparison\n\n`);
    else if (o.noCorpus || !location.present) process.stdout.write(`bench: no corpus: no side-by-side comparison (it times the corpus's files)\n\n`);
    else if (!existsSync(cli)) process.stdout.write(`bench: ${cli} not built: no side-by-side comparison\n\n`);
    else {
      const log = (line: string): void => void (process.stderr.isTTY && process.stderr.write(`${line}\n`));
      process.stdout.write(sideBySide({ llvm: o.llvm, corpus: o.corpus, cli, rounds: o.rounds, batchRounds: o.batchRounds, log }) + '\n');
    }
  }
  if (o.sideBySide) {
    // Stack maps against llvm-readobj-16 (bench-stackmap.ts): needs no corpus. A pair is a
    // fraction of a second, and both sides mostly start-up, which the machine's noise moves most:
    // three times the rounds.
    const llvm16 = process.env.LLVM_BYTECODE_LLVM16 || '/usr/lib/llvm-16/bin';
    process.stdout.write(
      stackmapBench({ cli: join(PROJECT, 'dist/cli/llvm-bytecode.cjs'), readobj: join(llvm16, 'llvm-readobj'), rounds: o.rounds * 3, runs: o.runs }) + '\n',
    );
    // Upgrade to bitcode against llvm-as-16 of our text (bench-bitcode.ts): the corpus's big-bf.
    const log = (line: string): void => void (process.stderr.isTTY && process.stderr.write(`${line}\n`));
    if (!o.noCorpus && location.present)
      process.stdout.write(bitcodeBench({ cli: join(PROJECT, 'dist/cli/llvm-bytecode.cjs'), corpus: o.corpus, rounds: o.rounds, log }) + '\n');
    else process.stdout.write("bench: no corpus: no bitcode row (it upgrades the corpus's big-bf)\n\n");
  }
  process.stdout.write(tableText);
  return 0;
}

/** The in-process table, as printed (with what it says about missing workloads first). */
async function inProcessTable(o: Options, location: ReturnType<typeof locateCorpus>): Promise<string> {
  const { names, note } = workloadNames(o, location);
  let text = `${note}bench: best of ${o.runs} runs, node ${process.version}${gc ? '' : ' (no --expose-gc: no heap figures)'}, ${o.onePerProcess ? 'each workload in a process of its own' : 'every workload in this process, one after another'}\n\n`;
  let rows: Row[];
  if (o.onePerProcess) rows = names.flatMap((name) => measureInChild(name, o));
  else {
    await loadBzip2();
    rows = names.flatMap((name) => measureWorkload(name, o, false));
  }
  text += table(rows);
  return text;
}

/** The workloads there are to measure, and a note saying why when the corpus's are not among them. */
function workloadNames(o: Options, location: ReturnType<typeof locateCorpus>): { names: WorkloadName[]; note: string } {
  const v6 = join(o.corpus, 'v6');
  if (o.noCorpus) return { names: ['generated'], note: 'bench: --no-corpus: measuring the generated module only\n' };
  if (!location.present || !existsSync(v6)) return { names: ['generated'], note: `bench: ${noCorpusMessage(location)}; measuring the generated module only\n` };
  return {
    names: [
      ...(existsSync(join(v6, BIG)) ? (['big-bf'] as const) : []),
      'v6',
      'generated',
      ...(existsSync(join(v6, BIG_TEXT)) ? (['big-bf-text'] as const) : []),
      ...(existsSync(join(v6, BIG)) ? (['big-bf-upgrade'] as const) : []),
    ],
    note: '',
  };
}

/** The rows of workload `name`, measured in this process (`alone`: one that has measured nothing else). */
function measureWorkload(name: WorkloadName, o: Options, alone: boolean): Row[] {
  if (name === 'big-bf-text') return measureAssembly(join(o.corpus, 'v6', BIG_TEXT), o.runs, alone);
  if (name === 'big-bf-upgrade') return measureUpgrade(join(o.corpus, 'v6', BIG), o.runs, alone);
  return measure(loadWorkload(name, o), o.runs, alone ? 'this workload' : 'this and earlier workloads');
}

/** The row of `run`'s first run, untimed before (`fresh`: in a process that has run nothing else). */
function firstRun(workload: string, measure: string, megabytes: number, run: () => void, fresh: boolean): Row {
  const note = fresh ? 'cold: V8 has optimized none of it yet' : 'after the workloads above, in this process';
  return { workload, measure, megabytes, ...best(1, run, 0), note };
}

/**
 * `as` of the text at `path` as the CLI runs it (the dialect detected, its release's version, LLVM's
 * compression by size): the first run (`fresh`: in a process that has run nothing else) and the
 * best of `runs` after the warm-up. Rates are megabytes of text.
 */
function measureAssembly(path: string, runs: number, fresh: boolean): Row[] {
  const text = readFileSync(path, 'latin1');
  const label = `v6/${BIG_TEXT}`;
  const megabytes = text.length / 1e6;
  const dialect = detectDialect(text);
  let written = 0;
  const assemble = (): void => {
    written = writeModule(parseAssembly(text, { fileName: label, dialect }), { bytecodeVersion: DIALECT_VERSION[dialect] }).length;
  };
  return [
    firstRun(label, 'as, first run', megabytes, assemble, fresh),
    { workload: label, measure: 'as', megabytes, ...best(runs, assemble), note: `parse, verify, write, bzip2: ${written} bytes` },
  ];
}

/**
 * The upgrade of the module at `path` for LLVM 16 (read before timing): `writeModern`'s first run
 * (`fresh`: in a process that has run nothing else) and best of `runs`, and `printModern`'s best.
 * Rates are megabytes of uncompressed bytecode.
 */
function measureUpgrade(path: string, runs: number, fresh: boolean): Row[] {
  const file = new Uint8Array(readFileSync(path));
  const module = readModule(file);
  const label = `v6/${BIG}`;
  const megabytes = unwrapContainer(file).stream.length / 1e6;
  let written = 0;
  let printed = 0;
  const toBitcode = (): void => void (written = writeModern(module, { llvm: 16 }).length);
  const toText = (): void => void (printed = printModern(module, { llvm: 16 }).length);
  return [
    firstRun(label, 'upgrade to bitcode, first run', megabytes, toBitcode, fresh),
    { workload: label, measure: 'upgrade to bitcode', megabytes, ...best(runs, toBitcode), note: `writeModern, LLVM 16: ${written} bytes` },
    { workload: label, measure: 'upgrade to text', megabytes, ...best(runs, toText), note: `printModern, LLVM 16: ${(printed / 1e6).toFixed(1)} MB of text` },
  ];
}

/** A workload's files, read (or, for the generated module, made and written) in this process. */
function loadWorkload(name: Exclude<WorkloadName, 'big-bf-text' | 'big-bf-upgrade'>, o: Options): Workload {
  if (name === 'generated') {
    // A large module made in code: measured with or without the corpus.
    const synthetic = writeModule(syntheticModule(o.generated), { bytecodeVersion: 6, compression: 'none' });
    return { label: `generated (${o.generated} functions)`, files: [synthetic], streams: [synthetic] };
  }
  const v6 = join(o.corpus, 'v6');
  const names =
    name === 'big-bf'
      ? [BIG]
      : readdirSync(v6)
          .filter((n) => n.endsWith('.bc'))
          .sort();
  const files = names.map((n) => new Uint8Array(readFileSync(join(v6, n))));
  return { label: name === 'big-bf' ? `v6/${BIG}` : `v6 (${names.length} files)`, files, streams: files.map((f) => unwrapContainer(f).stream) };
}

/** One workload's rows, measured by this script run again in a new process (`--workload`). */
function measureInChild(name: WorkloadName, o: Options): Row[] {
  const args = [
    ...process.execArgv,
    fileURLToPath(import.meta.url),
    '--no-side-by-side',
    '--workload',
    name,
    '--runs',
    String(o.runs),
    '--generated',
    String(o.generated),
  ];
  // --no-corpus goes to the child too: else it would look for LLVM_BYTECODE_CORPUS's corpus again.
  args.push(...(o.noCorpus ? ['--no-corpus'] : ['--corpus', o.corpus]));
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (child.status !== 0)
    throw new Error(`bench: the ${name} workload's process failed (${child.error?.message ?? `exit ${child.status ?? child.signal}`}): ${child.stderr}`);
  // JSON has no NaN: the memory rows' missing times come back as null.
  return (JSON.parse(child.stdout) as Row[]).map((r) => ({ ...r, seconds: r.seconds ?? NaN, cpuSeconds: r.cpuSeconds ?? NaN }));
}

process.exitCode = await main(process.argv.slice(2));
