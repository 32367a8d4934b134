/**
 * The side-by-side half of `npm run bench`: our CLI and LLVM 1.9's own tools (`llvm-dis`,
 * `llvm-bcanalyzer`, `llvm-as`), each as a whole process, timed in the same run.
 *
 * Each row pairs two commands, A (ours) and B (theirs, or bare `node -e ''`), and runs them
 * alternately, A B A B …, after one untimed run of each (so both find the files in the page
 * cache): the machine's changing load falls on both alike. Reported per command: the median wall
 * time with the range, the median CPU time (user + system: still meaningful when other work shares
 * the machine), and the peak resident set; per row, the ratio of the medians with the range of
 * the per-round ratios.
 *
 * How: each run is one `spawnSync`, timed around the call in this process. Peak RSS and CPU time
 * come from GNU time (`/usr/bin/time -f … -o FILE`), which waits for the child with wait4() and so
 * reports the kernel's own maximum resident set of the child; where it is missing, those columns
 * say n/a. The wrapper is the same for both commands, so its small cost cancels out of the ratio.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export interface SideBySideOptions {
  /** LLVM 1.9's bin folder. */
  llvm: string;
  /** The reference corpus (its v0…v6 folders). */
  corpus: string;
  /** Our CLI's entry point (the bundle). */
  cli: string;
  /** Rounds for the single-file rows. */
  rounds: number;
  /** Rounds for the batch rows (each one costs seconds). */
  batchRounds: number;
  /** Writes a line of progress (to stderr). */
  log(line: string): void;
}

/** A command to run: argv, and files for standard input and output (default: none, /dev/null). */
export interface Command {
  label: string;
  argv: string[];
  stdin?: string;
}

interface Sample {
  wall: number;
  cpu: number | undefined;
  rssKiB: number | undefined;
}

const GNU_TIME = '/usr/bin/time';
/** The tiny file against bare Node runs this many times the rounds of the other rows. */
const TINY_ROUNDS = 4;

/**
 * The environment every command runs in: ours minus NODE_EXTRA_CA_CERTS, which makes every Node
 * start read and parse a certificate file (bare `node -e ''` too, so it would flatter a ratio to
 * bare Node), and which a user's shell seldom sets.
 */
export function benchEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env['NODE_EXTRA_CA_CERTS'];
  return env;
}
const ENV = benchEnvironment();
/** The corpus folders of released LLVM versions: the issue's 4,050 files. */
const RELEASED = ['v0', 'v1', 'v3', 'v5', 'v6'];

function hasGnuTime(): boolean {
  if (!existsSync(GNU_TIME)) return false;
  const r = spawnSync(GNU_TIME, ['-f', '%M', 'true'], { encoding: 'utf8' });
  return r.status === 0 && /^\d+\s*$/.test(r.stderr);
}

function runOnce(c: Command, gnuTime: boolean, scratch: string): Sample {
  const stdin = c.stdin ? openSync(c.stdin, 'r') : 'ignore';
  const stdout = openSync('/dev/null', 'w');
  const report = join(scratch, 'time.txt');
  const argv = gnuTime ? [GNU_TIME, '-f', '%M %U %S', '-o', report, ...c.argv] : c.argv;
  try {
    const t = performance.now();
    const r = spawnSync(argv[0]!, argv.slice(1), { stdio: [stdin, stdout, 'pipe'], maxBuffer: 1 << 26, env: ENV });
    const wall = (performance.now() - t) / 1000;
    if (r.error) throw new Error(`${c.label}: ${r.error.message}`);
    if (!gnuTime) return { wall, cpu: undefined, rssKiB: undefined };
    const [rss, user, system] = readFileSync(report, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    return { wall, cpu: user! + system!, rssKiB: rss };
  } finally {
    if (typeof stdin === 'number') closeSync(stdin);
    closeSync(stdout);
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface RowResult {
  row: string;
  a: { label: string; samples: Sample[] };
  b: { label: string; samples: Sample[] };
}

/** Runs A and B alternately, `rounds` times, after one untimed run of each. */
function pair(row: string, a: Command, b: Command, rounds: number, gnuTime: boolean, scratch: string, before?: () => void): RowResult {
  const sa: Sample[] = [];
  const sb: Sample[] = [];
  before?.();
  runOnce(a, gnuTime, scratch);
  runOnce(b, gnuTime, scratch);
  for (let i = 0; i < rounds; i++) {
    before?.();
    sa.push(runOnce(a, gnuTime, scratch));
    sb.push(runOnce(b, gnuTime, scratch));
  }
  return { row, a: { label: a.label, samples: sa }, b: { label: b.label, samples: sb } };
}

function seconds(x: number): string {
  return x < 1 ? `${(x * 1000).toFixed(0)} ms` : `${x.toFixed(2)} s`;
}

function describeSamples(samples: Sample[]): string[] {
  const walls = samples.map((s) => s.wall);
  const cpus = samples.map((s) => s.cpu).filter((x): x is number => x !== undefined);
  const rss = samples.map((s) => s.rssKiB).filter((x): x is number => x !== undefined);
  return [
    `${seconds(median(walls))} (${seconds(Math.min(...walls))}–${seconds(Math.max(...walls))})`,
    cpus.length ? seconds(median(cpus)) : 'n/a',
    rss.length ? `${(Math.max(...rss) / 1024).toFixed(0)} MB` : 'n/a',
  ];
}

function ratio(r: RowResult): string {
  const wa = r.a.samples.map((s) => s.wall);
  const wb = r.b.samples.map((s) => s.wall);
  const perRound = wa.map((w, i) => w / wb[i]!);
  const ca = r.a.samples.map((s) => s.cpu);
  const cb = r.b.samples.map((s) => s.cpu);
  const cpu =
    ca.every((x) => x !== undefined) && cb.every((x) => x !== undefined && x > 0)
      ? ` (CPU ${(median(ca as number[]) / median(cb as number[])).toFixed(2)}×)`
      : '';
  return `${(median(wa) / median(wb)).toFixed(2)}× (${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})${cpu}`;
}

function table(results: RowResult[]): string {
  const head = ['row', 'A', 'wall median (min–max)', 'CPU', 'peak RSS', 'B', 'wall median (min–max)', 'CPU', 'peak RSS', 'A/B wall: median (min–max)'];
  const rows = results.map((r) => [r.row, r.a.label, ...describeSamples(r.a.samples), r.b.label, ...describeSamples(r.b.samples), ratio(r)]);
  const all = [head, ...rows];
  const widths = head.map((_, i) => Math.max(...all.map((c) => c[i]!.length)));
  const line = (c: string[]): string =>
    c
      .map((x, i) => x.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n') + '\n';
}

/** One row of a side-by-side table: A and B, `rounds` pairs; `before` runs ahead of each pair (untimed). */
export interface PairRow {
  row: string;
  a: Command;
  b: Command;
  rounds: number;
  before?: () => void;
}

/** Times each row as `sideBySide` does (alternating, GNU time where present) and returns the table. */
export function pairTable(rows: readonly PairRow[], log: (line: string) => void): string {
  const gnuTime = hasGnuTime();
  const scratch = mkdtempSync(join(tmpdir(), 'bench-pairs-'));
  try {
    return table(
      rows.map((r) => {
        log(`bench: ${r.row} (${r.rounds} rounds)`);
        return pair(r.row, r.a, r.b, r.rounds, gnuTime, scratch, r.before);
      }),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The `.bc` files of a folder, sorted. */
function bytecodeIn(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith('.bc'))
        .sort()
        .map((n) => join(dir, n))
    : [];
}

/**
 * A shell loop running `tool` once per file, as a user without a batch mode would: each file on
 * standard input, the listing into OUT/NAME.ll.
 */
function perFileLoop(label: string, tool: string, files: string[], out: string): Command {
  const script = 'tool=$1; out=$2; shift 2; for f in "$@"; do n=${f##*/}; "$tool" < "$f" > "$out/${n%.bc}.ll" 2>/dev/null || :; done';
  return { label, argv: ['sh', '-c', script, 'sh', tool, out, ...files] };
}

export function sideBySide(o: SideBySideOptions): string {
  const tool = (name: string): string => join(o.llvm, name);
  const gnuTime = hasGnuTime();
  const scratch = mkdtempSync(join(tmpdir(), 'bench-side-'));
  const node = process.execPath;
  const ours = (label: string, ...args: string[]): Command => ({ label, argv: [node, o.cli, ...args] });
  const results: RowResult[] = [];
  const notes: string[] = [];
  const run = (row: string, a: Command, b: Command, rounds: number, before?: () => void): void => {
    o.log(`bench: ${row} (${rounds} rounds)`);
    results.push(pair(row, a, b, rounds, gnuTime, scratch, before));
  };
  try {
    const v6 = join(o.corpus, 'v6');
    const v6Files = bytecodeIn(v6);
    const big = join(v6, 'Large__big-bf.bc');
    const tiny = v6Files.length ? v6Files.reduce((a, b) => (statSync(b).size < statSync(a).size ? b : a)) : undefined;

    if (existsSync(big)) {
      run('dis big-bf', ours('ours dis', 'dis', big), { label: 'llvm-dis', argv: [tool('llvm-dis')], stdin: big }, o.rounds);
      run('analyze big-bf', ours('ours analyze', 'analyze', big), { label: 'llvm-bcanalyzer', argv: [tool('llvm-bcanalyzer'), big] }, o.rounds);
    } else notes.push(`no ${big}: the big-bf rows are skipped`);
    if (tiny) {
      run(`dis tiny (${statSync(tiny).size} B)`, ours('ours dis', 'dis', tiny), { label: 'llvm-dis', argv: [tool('llvm-dis')], stdin: tiny }, o.rounds);
      // A start-up is tens of milliseconds and the machine's noise as much: more pairs (cheap).
      run(`dis tiny vs bare node`, ours('ours dis', 'dis', tiny), { label: "node -e ''", argv: [node, '-e', ''] }, o.rounds * TINY_ROUNDS);
    }
    const bigText = join(v6, 'Large__big-bf.dis.ll');
    if (existsSync(bigText)) {
      run(
        'as big-bf.dis.ll',
        ours('ours as', 'as', bigText, '-o', '/dev/null'),
        { label: 'llvm-as', argv: [tool('llvm-as'), '-f', '-o', '/dev/null'], stdin: bigText },
        o.rounds,
      );
    } else notes.push(`no ${bigText}: the as row is skipped`);

    // Batches: ours is one command into a directory; LLVM's is one process per file.
    const fresh = (dir: string) => (): void => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    };
    if (v6Files.length) {
      const oursOut = join(scratch, 'ours-v6');
      const theirsOut = join(scratch, 'llvm-v6');
      const clean = (): void => {
        fresh(oursOut)();
        fresh(theirsOut)();
      };
      run(
        `batch dis v6 (${v6Files.length} files)`,
        ours('ours dis DIR', 'dis', v6, '-o', oursOut),
        perFileLoop('llvm-dis per file', tool('llvm-dis'), v6Files, theirsOut),
        o.batchRounds,
        clean,
      );
    }
    // The issue's 4,050 files: the released versions' folders, copied side by side under one
    // directory so one command takes them all (v0/x.bc and v1/x.bc keep apart).
    const released = RELEASED.filter((f) => existsSync(join(o.corpus, f)));
    if (released.length > 1 && v6Files.length) {
      const all = join(scratch, 'corpus');
      for (const f of released) for (const file of bytecodeIn(join(o.corpus, f))) cpSync(file, join(all, f, basename(file)));
      const count = released.reduce((n, f) => n + bytecodeIn(join(all, f)).length, 0);
      const oursOut = join(scratch, 'ours-all');
      const theirsOut = join(scratch, 'llvm-v6');
      const clean = (): void => {
        fresh(oursOut)();
        fresh(theirsOut)();
      };
      run(
        `batch dis ${released.join('+')} (${count}) vs v6 (${v6Files.length})`,
        ours('ours dis DIR', 'dis', all, '-o', oursOut),
        perFileLoop('llvm-dis per v6 file', tool('llvm-dis'), v6Files, theirsOut),
        o.batchRounds,
        clean,
      );
      // The file system's share, as a floor: the same files copied, nothing converted. Any tool
      // that writes one output per input pays at least this (and writes less than a listing).
      if (existsSync('/bin/cp')) {
        const copy = join(oursOut, 'copy');
        run(
          `floor: cp -r of the ${count} vs v6 (${v6Files.length})`,
          { label: 'cp -r', argv: ['/bin/cp', '-r', all, copy] },
          perFileLoop('llvm-dis per v6 file', tool('llvm-dis'), v6Files, theirsOut),
          o.batchRounds,
          clean,
        );
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const tiny = results.find((r) => r.row === 'dis tiny vs bare node');
  const bigDis = results.find((r) => r.row === 'dis big-bf');
  if (tiny && bigDis) {
    const bare = median(tiny.b.samples.map((s) => s.wall));
    const beyond = median(bigDis.a.samples.map((s) => s.wall)) - bare;
    notes.push(`dis big-bf beyond bare node: ${seconds(beyond)} (llvm-dis whole process: ${seconds(median(bigDis.b.samples.map((s) => s.wall)))})`);
    notes.push(`dis tiny beyond bare node: ${seconds(median(tiny.a.samples.map((s) => s.wall)) - bare)}`);
  }
  const how = gnuTime ? 'CPU time and peak RSS from GNU time' : 'no GNU time at /usr/bin/time: CPU and peak RSS n/a';
  return `side by side with ${o.llvm}: whole processes, A and B alternating, ${o.rounds} rounds (the tiny file against bare node ${o.rounds * TINY_ROUNDS}, batches ${o.batchRounds}); ${how}; every command without NODE_EXTRA_CA_CERTS (as \`env -u NODE_EXTRA_CA_CERTS\`)\n\n${table(results)}${notes.map((n) => `- ${n}\n`).join('')}`;
}
