/**
 * Scoreboard of the 1.x → version 7 conversion against LLVM's own path:
 * `llvm-dis-1.9 | llvm-upgrade | llvm-as` (r36867, with address randomisation off) versus
 * `readModule | convertToVersion7 | writeModule({ bytecodeVersion: 7 })`. Each file counts as
 * `bytes` (identical files), `text` (r36867's llvm-dis prints both the same, ModuleID aside),
 * `differs`, `refused` (ours refused with a named construct; `agreed` when LLVM's path failed
 * too), or `llvm-failed` (LLVM's path failed, ours did not).
 *
 *   node dist-tools/tools/convert-scoreboard.js [--all] [--sample N] [--folders v6,v5,…] [--list]
 *
 * Skips (exit 0, saying so) when the corpus or the tools are absent. Default: every v6 file and
 * the first 40 files of each of v0, v1, v3, v5 (`--sample`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readModule } from '../src/read.js';
import { writeModule } from '../src/encode/write.js';
import { convertToVersion7, ConversionError } from '../src/convert/to-version7.js';
import { EncodeError } from '../src/encode/encode-error.js';
import { InvalidModuleError } from '../src/verify/verify.js';
import { locateCorpus } from './corpus-location.js';
import { LLVM19_SPEC, locateTools, noToolsMessage, R36867_SPEC } from './tool-location.js';

// The corpus, LLVM 1.9's tools and r36867's, each by its one rule: LLVM_BYTECODE_CORPUS,
// LLVM_BYTECODE_LLVM19, LLVM_BYTECODE_R36867, else beside the checkout.
const corpusRoot = (): string => locateCorpus().root;
const LLVM19_AT = locateTools(LLVM19_SPEC);
const R36867_AT = locateTools(R36867_SPEC);
const LLVM19 = LLVM19_AT.dir;
const LLVM20 = R36867_AT.dir;

type Verdict = 'bytes' | 'text' | 'differs' | 'refused' | 'refused-agreed' | 'llvm-failed' | 'both-failed' | 'error';

function run(cmd: string, args: string[], input: Buffer | string, cwd?: string): { ok: boolean; out: Buffer; err: string } {
  // A fixed environment too: its size moves the heap, and with it LLVM's symbol-table plane order.
  const r = spawnSync(cmd, args, { input, cwd, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, maxBuffer: 256 << 20, timeout: 60_000 });
  return { ok: r.status === 0 && r.stdout !== null, out: r.stdout ?? Buffer.alloc(0), err: (r.stderr ?? Buffer.alloc(0)).toString() };
}

/** LLVM's path: 1.9 disassembly, llvm-upgrade, r36867 assembly (reproducible under setarch -R). */
function llvmPath(file: string, dir: string): Buffer | undefined {
  const dis = run(join(LLVM19, 'llvm-dis'), ['-f', '-o', '-', file], '');
  if (!dis.ok) return undefined;
  const up = run(join(LLVM20, 'llvm-upgrade'), ['-o', '-'], dis.out);
  if (!up.ok || up.out.length === 0) return undefined;
  // The heap layout (hence the order of symbol-table planes) depends on the command line: always
  // the same short one, in the scratch folder.
  const out = join(dir, 'ref.bc');
  const as = run('setarch', ['x86_64', '-R', join(LLVM20, 'llvm-as'), '-o', 'ref.bc', '-f'], up.out, dir);
  if (!as.ok || !existsSync(out)) return undefined;
  return readFileSync(out);
}

function dis20(bytes: Uint8Array, dir: string): string | undefined {
  const f = join(dir, 'x.bc');
  writeFileSync(f, bytes);
  const r = run(join(LLVM20, 'llvm-dis'), ['-f', '-o', '-', f], '');
  if (!r.ok) return undefined;
  return r.out.toString('latin1').replace(/^; ModuleID = .*\n/, '');
}

function main(): void {
  const args = process.argv.slice(2);
  const sample = Number(args[args.indexOf('--sample') + 1] ?? 40) || 40;
  const list = args.includes('--list');
  const folders = args.includes('--folders') ? args[args.indexOf('--folders') + 1]!.split(',') : ['v6', 'v0', 'v1', 'v3', 'v5'];
  for (const [spec, at, probe] of [
    [LLVM19_SPEC, LLVM19_AT, 'llvm-dis'],
    [R36867_SPEC, R36867_AT, 'llvm-upgrade'],
  ] as const) {
    if (!existsSync(join(at.dir, probe))) {
      console.log(`convert-scoreboard: skipped (${noToolsMessage(spec, at, 'its variable')})`);
      return;
    }
  }
  try {
    execFileSync('setarch', ['x86_64', '-R', 'true']);
  } catch {
    console.log('convert-scoreboard: skipped (setarch -R unavailable: r36867 llvm-as output would not be reproducible)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'convert-scoreboard-'));
  const totals = new Map<string, Map<Verdict, number>>();
  const reasons = new Map<string, number>();
  try {
    for (const folder of folders) {
      const root = join(corpusRoot(), folder);
      if (!existsSync(root)) {
        console.log(`convert-scoreboard: ${folder}: skipped (absent)`);
        continue;
      }
      let files = readdirSync(root)
        .filter((f) => f.endsWith('.bc'))
        .sort();
      if (folder !== 'v6' || args.includes('--sample-v6')) files = files.slice(0, args.includes('--all') ? files.length : sample);
      const counts = new Map<Verdict, number>();
      totals.set(folder, counts);
      for (const name of files) {
        const file = join(root, name);
        let verdict: Verdict;
        let why = '';
        const theirs = llvmPath(file, dir);
        let ours: Uint8Array | undefined;
        try {
          const m = readModule(new Uint8Array(readFileSync(file)));
          ours = writeModule(convertToVersion7(m), { bytecodeVersion: 7, compression: 'none' });
        } catch (e) {
          if (e instanceof ConversionError || e instanceof EncodeError) why = e.construct;
          // The writer's verifier (r36867's rules): a refusal naming the rule, not an error.
          else if (e instanceof InvalidModuleError) why = `verifier: ${(e.problems[0] ?? '').replace(/^.*?: (?=[A-Z])/, '')}`;
          else why = `error: ${(e as Error).message.slice(0, 120)}`;
        }
        if (ours === undefined) {
          verdict = why.startsWith('error: ') ? 'error' : theirs === undefined ? 'refused-agreed' : 'refused';
          reasons.set(why.replace(/"[^"]*"/g, '"…"'), (reasons.get(why.replace(/"[^"]*"/g, '"…"')) ?? 0) + 1);
        } else if (theirs === undefined) {
          verdict = 'llvm-failed';
        } else if (Buffer.compare(Buffer.from(ours), theirs) === 0) {
          verdict = 'bytes';
        } else {
          const a = dis20(ours, dir);
          const b = dis20(theirs, dir);
          verdict = a !== undefined && a === b ? 'text' : 'differs';
        }
        counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
        if (list) console.log(`${verdict}\t${folder}/${name}${why ? `\t${why}` : ''}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const [folder, counts] of totals) {
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const parts = (['bytes', 'text', 'differs', 'refused', 'refused-agreed', 'llvm-failed', 'both-failed', 'error'] as Verdict[])
      .filter((v) => counts.has(v))
      .map((v) => `${v} ${counts.get(v)}`);
    console.log(`${folder}: ${total} files: ${parts.join(', ')}`);
  }
  if (reasons.size !== 0) {
    console.log('refusals by construct:');
    for (const [r, n] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`  ${n}\t${r}`);
  }
}

main();
