/**
 * The stack map rows of `npm run bench`: a generated ELF object of 24,000 version-3 records
 * (stackmap-samples.ts, seed 1: 400 functions, up to 8 locations a record) read and printed
 *
 *   - whole process against whole process: `llvm-bytecode stackmap --syntax readobj OBJ` and
 *     `llvm-readobj-16 --stackmap OBJ`, alternately, N rounds after one untimed run of each,
 *     output to /dev/null, without NODE_EXTRA_CA_CERTS (see bench-processes.ts); median wall and
 *     CPU (GNU time), and the ratio of the medians;
 *   - in this process: readStackMaps + the readobj printer (to bytes), best of N after three
 *     warm-up runs, against llvm-readobj-16's whole process.
 *
 * Skipped, saying so, without llvm-readobj-16 (LLVM_BYTECODE_LLVM16 or /usr/lib/llvm-16/bin).
 * Ratios from one run on a shared machine: never a test (docs/stackmaps.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStackMaps } from '../src/stackmap/read.js';
import { printReadobjBytes } from '../src/stackmap/print.js';
import { elfObject, randomSection } from './stackmap-samples.js';
import { seededRandom } from './seeded-random.js';
import { benchEnvironment } from './bench-processes.js';
import { PROJECT_ROOT } from './corpus-location.js';

const GNU_TIME = '/usr/bin/time';
/** As the other side-by-side rows: without NODE_EXTRA_CA_CERTS, which makes every Node start parse a certificate file. */
const ENV = benchEnvironment();
export const STACKMAP_BENCH_RECORDS = 24_000;

interface Sample {
  wall: number;
  cpu: number | undefined;
}

function runOnce(argv: string[], scratch: string): Sample {
  const report = join(scratch, 'time.txt');
  const gnu = existsSync(GNU_TIME);
  const full = gnu ? [GNU_TIME, '-f', '%U %S', '-o', report, ...argv] : argv;
  const t = performance.now();
  const r = spawnSync(full[0]!, full.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], env: ENV });
  const wall = performance.now() - t;
  if (r.status !== 0) throw new Error(`${argv.join(' ')}: exit ${r.status}: ${r.stderr.toString().slice(0, 200)}`);
  if (!gnu) return { wall, cpu: undefined };
  const [user, system] = readFileSync(report, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return { wall, cpu: (user! + system!) * 1000 };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (x: number | undefined) => (x === undefined ? 'n/a' : `${x.toFixed(0)} ms`);

/** The generated object's bytes. */
export function stackmapBenchObject(): Uint8Array {
  const functions = 400;
  const section = randomSection(seededRandom(1), { version: 3, endian: 'little', functions, records: STACKMAP_BENCH_RECORDS });
  return elfObject(section, {
    is64: true,
    endian: 'little',
    functionNames: Array.from({ length: functions }, (_, i) => `function${i}`),
    functionEntrySize: 24,
  });
}

/** The rows, as printed. `readobj` is llvm-readobj-16's path; `cli` the built llvm-bytecode. */
export function stackmapBench(o: { cli: string; readobj: string; rounds: number; runs: number }): string {
  if (!existsSync(o.readobj)) return `bench: ${o.readobj} not found: no stack map rows (apt-get install llvm-16, or LLVM_BYTECODE_LLVM16=DIR)\n`;
  const scratch = mkdtempSync(join(tmpdir(), 'bench-stackmap-'));
  try {
    const bytes = stackmapBenchObject();
    const object = join(scratch, 'stackmaps.o');
    writeFileSync(object, bytes);
    const ours = [process.execPath, o.cli, 'stackmap', '--syntax', 'readobj', object];
    const theirs = [o.readobj, '--stackmap', object];
    runOnce(ours, scratch);
    runOnce(theirs, scratch);
    const a: Sample[] = [];
    const b: Sample[] = [];
    for (let i = 0; i < o.rounds; i++) {
      a.push(runOnce(ours, scratch));
      b.push(runOnce(theirs, scratch));
    }
    const wallA = median(a.map((s) => s.wall));
    const wallB = median(b.map((s) => s.wall));
    const cpuA = a.every((s) => s.cpu !== undefined) ? median(a.map((s) => s.cpu!)) : undefined;
    const cpuB = b.every((s) => s.cpu !== undefined) ? median(b.map((s) => s.cpu!)) : undefined;
    // In process: best of N after three warm-up runs.
    let best = Infinity;
    let bestCpu = Infinity;
    for (let i = 0; i < o.runs + 3; i++) {
      const c0 = process.cpuUsage();
      const t = performance.now();
      const file = readStackMaps(bytes);
      for (const s of file.sections) printReadobjBytes(s);
      const wall = performance.now() - t;
      const c = process.cpuUsage(c0);
      if (i >= 3) {
        best = Math.min(best, wall);
        bestCpu = Math.min(bestCpu, (c.user + c.system) / 1000);
      }
    }
    const lines = [
      `stack maps: a generated ELF object of ${STACKMAP_BENCH_RECORDS} version-3 records (${(bytes.length / 1e6).toFixed(1)} MB), --syntax readobj against llvm-readobj-16 --stackmap`,
      `  whole process, median of ${o.rounds}: llvm-bytecode ${ms(wallA)} wall, ${ms(cpuA)} CPU; llvm-readobj-16 ${ms(wallB)} wall, ${ms(cpuB)} CPU; ratio ${(wallA / wallB).toFixed(2)}× wall${cpuA !== undefined && cpuB !== undefined ? `, ${(cpuA / cpuB).toFixed(2)}× CPU` : ''}`,
      `  in process (read + print, best of ${o.runs}): ${ms(best)} wall, ${ms(bestCpu)} CPU; ${(best / wallB).toFixed(2)}× llvm-readobj-16's whole process (wall)`,
    ];
    return `${lines.join('\n')}\n`;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// `node dist-tools/tools/bench-stackmap.js [ROUNDS]`: these rows alone.
if (process.argv[1]?.endsWith('bench-stackmap.js')) {
  const dir = process.env.LLVM_BYTECODE_LLVM16 || '/usr/lib/llvm-16/bin';
  const cli = join(PROJECT_ROOT, 'dist/cli/llvm-bytecode.cjs');
  process.stdout.write(stackmapBench({ cli, readobj: join(dir, 'llvm-readobj'), rounds: Number(process.argv[2] ?? 7), runs: 10 }));
}
