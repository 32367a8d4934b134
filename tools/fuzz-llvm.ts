/**
 * `npm run fuzz:llvm -- [--seconds N] [--seed S] [--versions 3,5,6] [--llvm DIR] [--corpus DIR] [--out DIR]`:
 * differential fuzzing against LLVM 1.9 itself. Corpus files of the versions LLVM 1.9 reads
 * (3, 5, 6) get one or two bytes edited, and each edited file is read and printed by LLVM 1.9's
 * `llvm-dis` and by us (LLVM 1.9's dialect). Where both read it, the listings must be the same
 * (the `; ModuleID` line aside): a difference is a failure, saved under `--out` (default a new
 * folder in the system's temporary folder) with both listings. Where only LLVM reads it, our
 * reason is counted: some are on purpose (docs/format.md §15.10: LLVM read on and dropped part of
 * the file), any other is worth a look.
 *
 * What the mutation fuzzer (`npm run fuzz`) cannot tell, this does: not whether we fail well, but
 * whether we read a file as LLVM did. It needs `llvm-dis` (`--llvm DIR`, else `$LLVM_BYTECODE_LLVM19`,
 * else `../shared/llvm-1.9/bin`: tools/tool-location.ts)
 * and the corpus, and says so and stops when either is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { printModule } from '../src/print/index.js';
import { readModule } from '../src/read.js';
import { LLVM19_SPEC, locateTools, noToolsMessage } from './tool-location.js';
import { isTypedError } from './fuzz-check.js';
import { corpusSeedsOrExit, smallEdit } from './fuzz-edits.js';
import { seededRandom } from './seeded-random.js';
import { checkSeconds, readToolOptions } from './tool-options.js';

/** Seeds up to this size: small files keep each `llvm-dis` run short and most edits meaningful. */
const MAX_SEED = 8 * 1024;
/** An `llvm-dis` run that takes longer is counted as LLVM failing (it loops on some damage). */
const LLVM_TIMEOUT_MS = 3000;

interface Options {
  seconds: number;
  seed: number;
  versions: number[];
  llvm: string;
  corpus: string;
  out: string;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { seconds: 60, seed: Date.now() % 2 ** 31, versions: [3, 5, 6], llvm: '', corpus: '', out: '' };
  readToolOptions(argv, 'usage: npm run fuzz:llvm -- [--seconds N] [--seed S] [--versions 3,5,6] [--llvm DIR] [--corpus DIR] [--out DIR]', (option, value) => {
    if (option === '--seconds') o.seconds = Number(value());
    else if (option === '--seed') o.seed = Number(value());
    else if (option === '--versions') o.versions = value().split(',').map(Number);
    else if (option === '--llvm') o.llvm = resolve(value());
    else if (option === '--corpus') o.corpus = value();
    else if (option === '--out') o.out = resolve(value());
    else return false;
    return true;
  });
  checkSeconds(o.seconds);
  if (o.versions.some((v) => v !== 3 && v !== 5 && v !== 6)) throw new Error('--versions takes 3, 5 and 6 (the versions LLVM 1.9 reads)');
  return o;
}

const withoutModuleId = (listing: string): string => listing.replace(/^; ModuleID = .*\n/, '');

function main(): void {
  const o = parseArgs(process.argv.slice(2));
  const llvm = locateTools(LLVM19_SPEC, o.llvm);
  const llvmDis = join(llvm.dir, 'llvm-dis');
  if (!existsSync(llvmDis)) {
    console.error(`fuzz:llvm: LLVM 1.9's llvm-dis not found at ${llvmDis}: nothing to compare with (${noToolsMessage(LLVM19_SPEC, llvm)})`);
    process.exit(1);
  }
  const { seeds } = corpusSeedsOrExit('fuzz:llvm', o.corpus, o.versions, MAX_SEED);
  const out = o.out || mkdtempSync(join(tmpdir(), 'fuzz-llvm-'));
  mkdirSync(out, { recursive: true });
  const scratch = join(out, 'input.bc');
  console.log(`fuzz:llvm for ${o.seconds} s with seed ${o.seed} over ${seeds.length} seeds (versions ${o.versions.join(', ')}); differences go to ${out}`);

  const rnd = seededRandom(o.seed);
  const counts = { runs: 0, bothRead: 0, same: 0, differ: 0, neither: 0, llvmOnly: 0, oursOnly: 0 };
  const oursRefusals = new Map<string, number>();
  const end = Date.now() + o.seconds * 1000;
  while (Date.now() < end) {
    const seed = seeds[Math.floor(rnd() * seeds.length)]!;
    const { bytes, at } = smallEdit(seed.stream, rnd);
    counts.runs++;
    writeFileSync(scratch, bytes);
    const llvm = spawnSync(llvmDis, ['-f', '-o', '-', scratch], { timeout: LLVM_TIMEOUT_MS, maxBuffer: 1 << 26 });
    const llvmRead = llvm.status === 0 && llvm.stdout.length > 0;
    let ours: string | undefined;
    let refusal: string | undefined;
    try {
      ours = printModule(readModule(bytes));
    } catch (e) {
      // Anything but our typed errors is the mutation fuzzer's business; count it here too.
      refusal = isTypedError(e) ? ((e as Error & { reason?: string }).reason ?? (e as Error).message) : `crash: ${String(e)}`;
    }
    if (!llvmRead && refusal !== undefined) counts.neither++;
    else if (!llvmRead) counts.oursOnly++;
    else if (refusal !== undefined) {
      counts.llvmOnly++;
      const kind = refusal.replace(/\d+/g, 'N');
      oursRefusals.set(kind, (oursRefusals.get(kind) ?? 0) + 1);
    } else {
      counts.bothRead++;
      const theirs = withoutModuleId(llvm.stdout.toString('latin1'));
      if (theirs === withoutModuleId(ours!)) counts.same++;
      else {
        counts.differ++;
        const base = join(out, `differ-${counts.differ}`);
        writeFileSync(`${base}.bc`, bytes);
        writeFileSync(`${base}.llvm.ll`, theirs);
        writeFileSync(`${base}.ours.ll`, withoutModuleId(ours!));
        console.log(`difference: ${seed.name} edited at ${at.join(', ')} → ${base}.bc`);
      }
    }
  }
  console.log(
    `${counts.runs} edited files: both read ${counts.bothRead} (same listing ${counts.same}, different ${counts.differ}); neither ${counts.neither}; only we ${counts.oursOnly}; only LLVM ${counts.llvmOnly}`,
  );
  if (oursRefusals.size > 0) {
    console.log('read by LLVM, refused by us (docs/format.md §15.10 says which are on purpose):');
    for (const [kind, n] of [...oursRefusals].sort((a, b) => b[1] - a[1])) console.log(`  ${n} × ${kind}`);
  }
  process.exitCode = counts.differ > 0 ? 1 : 0;
}

main();
