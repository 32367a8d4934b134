/**
 * `npm run fuzz:stackmap -- [--seconds N] [--seed S] [--object FILE]…`: damages generated stack map
 * sections and objects (fuzz-stackmap-seeds.ts, plus any object files given, e.g. llc's) and runs
 * every stack map consumer on them (fuzz-stackmap-check.ts). A failure is any exception other than
 * StackMapError, a write-back that is not byte for byte, a conversion that changes the records,
 * or an input over the time limit (CPU). Failures are saved under
 * `test/fuzz-regressions/stackmap/`, which test/stackmap/fuzz.test.ts replays on every `npm test`.
 * The coverage-guided twin is the Jazzer.js target fuzz-coverage/targets/stackmap.ts.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkStackMapInput } from './fuzz-stackmap-check.js';
import { mutate, stackMapSeeds, type Seed } from './fuzz-stackmap-seeds.js';
import { seededRandom } from './seeded-random.js';
import { checkSeconds, readToolOptions } from './tool-options.js';
import { TIME_LIMIT_MS } from './fuzz-check.js';
import { PROJECT_ROOT } from './corpus-location.js';

const PROJECT = PROJECT_ROOT;
const REGRESSIONS = join(PROJECT, 'test/fuzz-regressions/stackmap');

const o = { seconds: 60, seed: Date.now() % 2 ** 31, objects: [] as string[] };
readToolOptions(process.argv.slice(2), 'usage: npm run fuzz:stackmap -- [--seconds N] [--seed S] [--object FILE]…', (option, value) => {
  if (option === '--seconds') o.seconds = Number(value());
  else if (option === '--seed') o.seed = Number(value());
  else if (option === '--object') o.objects.push(value());
  else return false;
  return true;
});
checkSeconds(o.seconds);

const random = seededRandom(o.seed);
const extra: Seed[] = o.objects.map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(f)) }));
const seeds = stackMapSeeds(random, extra);
const end = Date.now() + o.seconds * 1000;
let tried = 0;
const found = new Map<string, string>();
while (Date.now() < end) {
  const seed = seeds[Math.floor(random() * seeds.length)]!;
  const input = mutate(random, seed.bytes);
  const start = process.cpuUsage();
  let failure = checkStackMapInput(input);
  const used = process.cpuUsage(start);
  const ms = (used.user + used.system) / 1000;
  if (!failure && ms > TIME_LIMIT_MS) failure = `slow: ${ms.toFixed(0)} ms of CPU`;
  tried++;
  if (!failure) continue;
  const kind = failure.replace(/\d+/g, 'N');
  if (found.has(kind)) continue;
  mkdirSync(REGRESSIONS, { recursive: true });
  const file = join(REGRESSIONS, `${createHash('sha1').update(input).digest('hex').slice(0, 12)}.bin`);
  writeFileSync(file, input);
  found.set(kind, file);
  process.stdout.write(`failure (${seed.name}): ${failure}\n  saved ${file}\n`);
}
process.stdout.write(`fuzz:stackmap: seed ${o.seed}, ${tried} inputs from ${seeds.length} seeds in ${o.seconds} s, ${found.size} distinct failures\n`);
process.exitCode = found.size ? 1 : 0;
