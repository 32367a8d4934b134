/**
 * `npm run fuzz:upgrade -- [--seconds N] [--seed S] [--llvm N] [--tools DIR] [--versions 0,1,3,5,6,7] [--corpus DIR] [--out DIR]`:
 * differential fuzzing of the upgrade against today's LLVM. Small corpus files of every version
 * get one to three bytes edited; each edited file that we read is upgraded for LLVM N (default
 * 16) as text (`printModern`) and as bitcode (`writeModern`), and LLVM N's tools judge both:
 *
 * - the text: `opt -passes=verify` must parse and verify it (it also writes the bitcode LLVM
 *   makes of it, the reference below);
 * - our bitcode: `llvm-dis` must read it and `opt -passes=verify` verify it;
 * - `llvm-dis` of our bitcode must equal `llvm-dis` of LLVM's bitcode of our text (modulo the
 *   numbering of attribute groups, as the upgrade scoreboard compares).
 *
 * Anything LLVM refuses of what we wrote is a failure, and so is an error outside the library's
 * typed family (`LlvmBytecodeError`) from reading, upgrading or writing: an input we refuse must be
 * refused with a typed error. Each failure is saved under `--out` (default
 * test/fuzz-regressions/upgrade/, which test/modern/bitcode/fuzz-regressions.test.ts replays) as
 * `NAME.bc` with `NAME.txt` holding what failed and LLVM's message; a few per distinct message, so
 * one bug does not fill the folder. The exit status is 1 when anything failed.
 *
 * It needs the corpus and LLVM N's `llvm-dis` and `opt` (`--tools DIR`, else
 * `$LLVM_BYTECODE_DEBIAN_LLVMN`, else /usr/lib/llvm-N/bin) and stops, saying which, without them.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkLlvmVersion } from '../src/modern/llvm-versions.js';
import { PROJECT_ROOT } from './corpus-location.js';
import { corpusSeedsOrExit, smallEdit } from './fuzz-edits.js';
import { judgeWithLlvm, upgradeOutcome } from './fuzz-upgrade-check.js';
import { seededRandom } from './seeded-random.js';
import { debianLlvmSpec, locateTools, noToolsMessage } from './tool-location.js';
import { checkSeconds, readToolOptions } from './tool-options.js';

/** Seeds up to this size: small files keep each LLVM run short and most edits meaningful. */
const MAX_SEED = 8 * 1024;
/** Inputs saved per distinct failure message (digits aside). */
const KEEP_PER_KIND = 3;

const USAGE =
  'usage: npm run fuzz:upgrade -- [--seconds N] [--seed S] [--llvm N] [--tools DIR] [--versions 0,1,3,5,6,7] [--corpus DIR] [--out DIR]\n' +
  "(LLVM N's llvm-dis and opt: --tools DIR, else $LLVM_BYTECODE_DEBIAN_LLVMN, else /usr/lib/llvm-N/bin; failures go to --out, default test/fuzz-regressions/upgrade)";

interface Options {
  seconds: number;
  seed: number;
  llvm: number;
  tools: string;
  versions: number[];
  corpus: string;
  out: string;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { seconds: 60, seed: Date.now() % 2 ** 31, llvm: 16, tools: '', versions: [0, 1, 3, 5, 6, 7], corpus: '', out: '' };
  readToolOptions(argv, USAGE, (option, value) => {
    if (option === '--seconds') o.seconds = Number(value());
    else if (option === '--seed') o.seed = Number(value());
    else if (option === '--llvm') o.llvm = checkLlvmVersion(Number(value()));
    else if (option === '--tools') o.tools = resolve(value());
    else if (option === '--versions') o.versions = value().split(',').map(Number);
    else if (option === '--corpus') o.corpus = value();
    else if (option === '--out') o.out = resolve(value());
    else return false;
    return true;
  });
  checkSeconds(o.seconds);
  if (o.versions.some((v) => !Number.isInteger(v) || v < 0 || v > 7)) throw new Error('--versions takes bytecode versions from 0 to 7');
  return o;
}

/** The message with numbers and quoted names blurred: one kind of failure, whatever file it met. */
function kindOf(message: string): string {
  return message
    .replace(/'[^']*'/g, "'…'")
    .replace(/\d+/g, 'N')
    .slice(0, 200);
}

function main(): void {
  const o = parseArgs(process.argv.slice(2));
  const spec = debianLlvmSpec(o.llvm);
  const location = locateTools(spec, o.tools || undefined);
  const missing = ['llvm-dis', 'opt'].filter((t) => !existsSync(join(location.dir, t)));
  if (missing.length > 0) {
    console.error(
      `fuzz:upgrade: ${missing.join(' and ')} of LLVM ${o.llvm} not found in ${location.dir}: nothing to judge our output (${noToolsMessage(spec, location, '--tools DIR')})`,
    );
    process.exit(1);
  }
  const { seeds } = corpusSeedsOrExit('fuzz:upgrade', o.corpus, o.versions, MAX_SEED);
  const out = o.out || join(PROJECT_ROOT, 'test/fuzz-regressions/upgrade');
  const work = mkdtempSync(join(tmpdir(), 'fuzz-upgrade-'));
  console.log(
    `fuzz:upgrade for ${o.seconds} s with seed ${o.seed} over ${seeds.length} seeds (versions ${o.versions.join(', ')}), judged by LLVM ${o.llvm} in ${location.dir}; failures go to ${out}`,
  );

  const rnd = seededRandom(o.seed);
  const counts = { runs: 0, unread: 0, refused: 0, upgraded: 0, accepted: 0, rejected: 0, untyped: 0 };
  const refusals = new Map<string, number>();
  const failures = new Map<string, number>();
  const end = Date.now() + o.seconds * 1000;
  try {
    while (Date.now() < end) {
      const seed = seeds[Math.floor(rnd() * seeds.length)]!;
      const { bytes, at } = smallEdit(seed.stream, rnd, 3);
      counts.runs++;
      const outcome = upgradeOutcome(bytes, o.llvm);
      let failure: string | undefined;
      if (outcome.kind === 'unread') counts.unread++;
      else if (outcome.kind === 'refused') {
        counts.refused++;
        const kind = kindOf(outcome.reason);
        refusals.set(kind, (refusals.get(kind) ?? 0) + 1);
      } else if (outcome.kind === 'untyped') {
        counts.untyped++;
        failure = `untyped error from ${outcome.stage}: ${outcome.reason}`;
      } else {
        counts.upgraded++;
        failure = judgeWithLlvm(location.dir, work, outcome.text, outcome.bitcode);
        if (failure === undefined) counts.accepted++;
        else counts.rejected++;
      }
      if (failure === undefined) continue;
      const kind = kindOf(failure);
      const seen = (failures.get(kind) ?? 0) + 1;
      failures.set(kind, seen);
      if (seen > KEEP_PER_KIND) continue;
      mkdirSync(out, { recursive: true });
      const name = `upgrade-${o.seed}-${counts.runs}`;
      writeFileSync(join(out, `${name}.bc`), bytes);
      writeFileSync(join(out, `${name}.txt`), `${seed.name} edited at ${at.join(', ')}, upgraded for LLVM ${o.llvm}\n${failure}\n`);
      console.log(`FAILURE ${name}.bc (${seed.name} edited at ${at.join(', ')}): ${failure.slice(0, 400)}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(
    `${counts.runs} edited files: unread ${counts.unread}; refused by the upgrade ${counts.refused}; upgraded ${counts.upgraded} (taken by LLVM ${counts.accepted}, rejected ${counts.rejected}); untyped errors ${counts.untyped}`,
  );
  if (refusals.size > 0) {
    console.log('refused by the upgrade (typed):');
    for (const [kind, n] of [...refusals].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${n} × ${kind}`);
  }
  if (failures.size > 0) {
    console.log('failures by kind:');
    for (const [kind, n] of [...failures].sort((a, b) => b[1] - a[1])) console.log(`  ${n} × ${kind}`);
  }
  process.exitCode = failures.size > 0 ? 1 : 0;
}

main();
