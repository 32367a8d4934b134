/**
 * `npm run link-scoreboard`: our `link` against LLVM 1.9's `llvm-link` over sets of 2–5 corpus
 * files (versions 3, 5, 6): files of one test directory taken together (they often share
 * symbols), the linker's own tests in pairs, and random sets; never a file LLVM 1.9's reader aborts
 * on (the corpus's FAILURES.tsv), since llvm-link cannot load it.
 * Each set ends in one of:
 *
 * - `identical`: both linked, our bytes are llvm-link's;
 * - `differing`: both linked, the bytes differ; the reason says whether only the symbol tables'
 *   plane order differs (LLVM ordered planes by heap address: docs/link.md), proven by writing our
 *   module in llvm-link's order and getting its bytes, or the content;
 * - `both refuse`: both refused, for the same reason (LLVM's message);
 * - `mismatch`: one refused and the other did not, or the reasons differ.
 *
 * Options: `--sets N` (default 240), `--seed S`, `--corpus DIR`, `--llvm-link PATH` (default: llvm-link
 * in $LLVM_BYTECODE_LLVM19, else ../shared/llvm-1.9/bin), `--verbose`.
 */
import { sameBytes } from './same-bytes.js';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unwrapContainer } from '../src/container/index.js';
import type { Module } from '../src/graph/module.js';
import { writeModuleAsync } from '../src/encode/write.js';
import { linkModules } from '../src/link/index.js';
import { printModule } from '../src/print/index.js';
import { readModule } from '../src/read.js';
import { locateCorpus, noCorpusMessage } from './corpus-location.js';
import { withSymbolOrderOf } from './plane-order.js';
import { LLVM19_SPEC, locateTools } from './tool-location.js';
import { seededRandom } from './seeded-random.js';

/** LLVM 1.9's llvm-link: in $LLVM_BYTECODE_LLVM19, else ../shared/llvm-1.9/bin (tools/tool-location.ts). */
export const DEFAULT_LLVM_LINK = join(locateTools(LLVM19_SPEC).dir, 'llvm-link');

export type Outcome = 'identical' | 'differing' | 'both refuse' | 'mismatch';

export interface SetResult {
  files: string[];
  outcome: Outcome;
  /** Why, for every outcome but `identical`. */
  reason?: string;
}

/**
 * The files LLVM 1.9's own reader aborts on (the corpus's FAILURES.tsv, `llvm-dis-19` rows):
 * llvm-link cannot load them either, so they make no link case.
 */
function unreadableByLlvm19(dir: string): Set<string> {
  const path = join(dir, 'FAILURES.tsv');
  if (!existsSync(path)) return new Set();
  const names = new Set<string>();
  for (const line of readFileSync(path, 'latin1').split('\n')) {
    const [name, tool] = line.split('\t');
    if (name !== undefined && tool === 'llvm-dis-19') names.add(name);
  }
  return names;
}

/** Sets of corpus files to link: same-directory groups, the Linker tests, random sets. */
export function chooseLinkSets(corpus: string, count: number, seed = 1): string[][] {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const sets: string[][] = [];
  const byVersion = new Map<string, string[]>();
  for (const v of ['v3', 'v5', 'v6']) {
    const dir = join(corpus, v);
    if (!existsSync(dir)) continue;
    const unreadable = unreadableByLlvm19(dir);
    byVersion.set(
      v,
      readdirSync(dir)
        .filter((f) => f.endsWith('.bc') && !unreadable.has(f.slice(0, -3)))
        .sort()
        .map((f) => join(dir, f)),
    );
  }
  // The linker's own regression tests: each linked with its neighbour (the tests come in pairs).
  for (const files of byVersion.values()) {
    const linker = files.filter((f) => f.includes('Linker__'));
    for (let i = 0; i + 1 < linker.length; i += 2) sets.push([linker[i]!, linker[i + 1]!]);
  }
  // Files of one test directory, 2–3 at a time.
  const groups: string[][] = [];
  for (const files of byVersion.values()) {
    const byDir = new Map<string, string[]>();
    for (const f of files) {
      const dir = f.slice(0, f.lastIndexOf('__'));
      const list = byDir.get(dir);
      if (list === undefined) byDir.set(dir, [f]);
      else list.push(f);
    }
    for (const list of byDir.values()) if (list.length >= 2) groups.push(list);
  }
  const sameDirTarget = Math.floor((count * 2) / 3);
  while (sets.length < sameDirTarget && groups.length !== 0) {
    const g = pick(groups);
    const n = Math.min(g.length, 2 + Math.floor(random() * 2));
    const start = Math.floor(random() * (g.length - n + 1));
    sets.push(g.slice(start, start + n));
  }
  // Random sets of 2–5 files of one version.
  const versions = [...byVersion.values()].filter((fs) => fs.length !== 0);
  while (sets.length < count && versions.length !== 0) {
    const files = pick(versions);
    const n = 2 + Math.floor(random() * 4);
    sets.push(Array.from({ length: n }, () => pick(files)));
  }
  return sets.slice(0, count);
}

/** llvm-link's reason: its "link error in 'FILE': REASON" line, or the assertion it died on. */
export function refusalReason(stderr: string): string {
  const lines = stderr.split('\n');
  const assertion = lines.find((l) => l.includes('Assertion `'));
  if (assertion !== undefined) return assertion.replace(/^.*Assertion `/, 'Assertion `');
  const linkError = lines.find((l) => l.includes(': link error in '));
  if (linkError !== undefined) return linkError.replace(/^.*?: link error in '[^']*': /, '');
  return lines.filter((l) => l !== '').pop() ?? '';
}

/** Links `files` both ways and compares. */
export async function scoreSet(files: string[], llvmLink: string, work: string): Promise<SetResult> {
  const refPath = join(work, 'ref.bc');
  rmSync(refPath, { force: true });
  const ref = spawnSync(llvmLink, ['-f', '-o', refPath, ...files], { encoding: 'latin1' });
  const theyRefused = ref.status !== 0;
  // llvm-link: "<argv0>: link error in '<file>': <reason>", or an assertion.
  const theirReason = theyRefused ? refusalReason(ref.stderr) : '';
  let ours: Uint8Array | undefined;
  let linked: Module | undefined;
  let ourReason = '';
  try {
    const modules = files.map((f) => readModule(new Uint8Array(readFileSync(f))));
    linked = linkModules(modules, { identifiers: files });
    ours = await writeModuleAsync(linked, { bytecodeVersion: 6, compression: 'auto' });
  } catch (e) {
    ourReason = e instanceof Error ? e.message : String(e);
  }
  if (theyRefused || ours === undefined) {
    if (theyRefused && ours === undefined && theirReason.includes(ourReason)) return { files, outcome: 'both refuse', reason: ourReason };
    return { files, outcome: 'mismatch', reason: `llvm-link: ${theyRefused ? theirReason : 'linked'}; we: ${ours === undefined ? ourReason : 'linked'}` };
  }
  const theirs = new Uint8Array(readFileSync(refPath));
  if (sameBytes(theirs, ours)) return { files, outcome: 'identical' };
  return { files, outcome: 'differing', reason: await differenceReason(theirs, ours, linked!) };
}

/** Whether two linked modules differ in content or only in their symbol tables' plane order. */
export async function differenceReason(theirs: Uint8Array, ours: Uint8Array, linked: Module): Promise<string> {
  // Written in llvm-link's symbol-table order, our module must be its bytes exactly.
  const reordered = await writeModuleAsync(withSymbolOrderOf(linked, readModule(theirs)), { bytecodeVersion: 6, compression: 'auto' });
  if (sameBytes(reordered, theirs)) return 'symbol-table plane order (LLVM: heap addresses)';
  const a = printModule(readModule(theirs)).split('\n');
  const b = printModule(readModule(ours)).split('\n');
  const at = a.findIndex((line, i) => line !== b[i]);
  if (at < 0 && a.length === b.length) {
    // Compared uncompressed: a bzip2'd file's size depends on the order of what it holds.
    const a = unwrapContainer(theirs).stream.length;
    const b = unwrapContainer(ours).stream.length;
    return `same listing, ${a} vs ${b} bytes uncompressed, not llvm-link's bytes in its symbol-table order`;
  }
  const line = at < 0 ? Math.min(a.length, b.length) : at;
  return `content: listing line ${line + 1}: llvm-link '${(a[line] ?? '').slice(0, 80)}' / ours '${(b[line] ?? '').slice(0, 80)}'`;
}

export async function runScoreboard(sets: string[][], llvmLink: string): Promise<SetResult[]> {
  const work = mkdtempSync(join(tmpdir(), 'link-scoreboard-'));
  try {
    const out: SetResult[] = [];
    for (const s of sets) out.push(await scoreSet(s, llvmLink, work));
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The scoreboard's text: the four counts, then each reason with its count. */
export function formatScoreboard(results: readonly SetResult[]): string {
  const counts = new Map<Outcome, number>([
    ['identical', 0],
    ['differing', 0],
    ['both refuse', 0],
    ['mismatch', 0],
  ]);
  const reasons = new Map<string, number>();
  for (const r of results) {
    counts.set(r.outcome, counts.get(r.outcome)! + 1);
    if (r.outcome === 'differing' || r.outcome === 'mismatch') {
      const key = `${r.outcome}: ${r.reason!.replace(/line \d+.*/, 'line …')}`;
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
    }
  }
  const lines = [`link scoreboard over ${results.length} sets`, ...[...counts].map(([k, v]) => `  ${k.padEnd(12)} ${v}`)];
  if (reasons.size !== 0) lines.push('reasons:', ...[...reasons].sort((x, y) => y[1] - x[1]).map(([k, v]) => `  ${String(v).padStart(4)}  ${k}`));
  return lines.join('\n') + '\n';
}

async function main(argv: string[]): Promise<number> {
  const opt = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const location = locateCorpus(opt('--corpus'));
  if (!location.present) {
    process.stderr.write(noCorpusMessage(location) + '\n');
    return 1;
  }
  const llvmLink = opt('--llvm-link') ?? DEFAULT_LLVM_LINK;
  if (!existsSync(llvmLink)) {
    process.stderr.write(`no llvm-link at ${llvmLink}: pass --llvm-link PATH or set LLVM_BYTECODE_LLVM19=DIR\n`);
    return 1;
  }
  const sets = chooseLinkSets(location.root, Number(opt('--sets') ?? 240), Number(opt('--seed') ?? 1));
  const results = await runScoreboard(sets, llvmLink);
  process.stdout.write(formatScoreboard(results));
  if (argv.includes('--verbose')) {
    for (const r of results)
      if (r.outcome === 'differing' || r.outcome === 'mismatch') process.stdout.write(`${r.outcome}\t${r.files.join(' ')}\t${r.reason}\n`);
  }
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) process.exitCode = await main(process.argv.slice(2));
