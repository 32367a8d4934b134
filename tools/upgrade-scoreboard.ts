/**
 * `npm run upgrade-scoreboard -- --llvm N`: every `.bc` of the reference corpus (v0 … v7 and the
 * sound historical `constexpr.ll.bc-13`) upgraded with `printModern(module, { llvm: N })`, then
 * Debian's `llvm-as-N` must accept the text and `opt-N -passes=verify` pass its output. Prints one
 * line per corpus version (upgraded / refused / accepted), then every refusal and every file LLVM
 * rejected with the reason, and exits 1 when LLVM rejected any file (a refusal by the upgrade is
 * a named outcome, not a failure).
 *
 * Options: `--llvm N` (default: the newest supported), `--corpus DIR`, `--tools DIR` (default
 * /usr/lib/llvm-N/bin, or the environment variable LLVM_BYTECODE_DEBIAN_LLVMN), `--jobs N`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { printModern, UpgradeError } from '../src/modern/index.js';
import { checkLlvmVersion, DEFAULT_LLVM } from '../src/modern/llvm-versions.js';
import { readModule } from '../src/read.js';
import { locateCorpus, noCorpusMessage } from './corpus-location.js';

const FOLDERS = ['v0', 'v1', 'v3', 'v5', 'v6', 'v7', 'historical'];

interface Options {
  llvm: number;
  corpus: string | undefined;
  tools: string | undefined;
  jobs: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { llvm: DEFAULT_LLVM, corpus: undefined, tools: undefined, jobs: Math.max(1, availableParallelism()) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`option ${a} needs a value`);
      return v;
    };
    if (a === '--llvm') o.llvm = checkLlvmVersion(Number(value()));
    else if (a === '--corpus') o.corpus = value();
    else if (a === '--tools') o.tools = value();
    else if (a === '--jobs') o.jobs = Math.max(1, Number(value()) || 1);
    else throw new Error(`unknown option ${a} (options: --llvm N, --corpus DIR, --tools DIR, --jobs N)`);
  }
  return o;
}

/** Checks `files` with llvm-as and opt, 25 per shell, `jobs` shells at a time; returns file → LLVM's message. */
async function verifyAll(files: string[], llvmAs: string, opt: string, jobs: number): Promise<Map<string, string>> {
  const script = `for f in "$@"; do
  if ! err=$("${llvmAs}" "$f" -o "$f.bc" 2>&1); then printf 'FAIL\\t%s\\tllvm-as: %s\\n' "$f" "$(printf '%s' "$err" | head -2 | tr '\\n\\t' '  ')"; continue; fi
  if ! err=$("${opt}" -passes=verify -disable-output "$f.bc" 2>&1); then printf 'FAIL\\t%s\\topt: %s\\n' "$f" "$(printf '%s' "$err" | head -2 | tr '\\n\\t' '  ')"; rm -f "$f.bc"; continue; fi
  rm -f "$f.bc"; printf 'DONE\\t%s\\n' "$f"
done`;
  const chunks: string[][] = [];
  for (let i = 0; i < files.length; i += 25) chunks.push(files.slice(i, i + 25));
  const failures = new Map<string, string>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < chunks.length) {
      const chunk = chunks[next++]!;
      const out = await new Promise<string>((done) => {
        execFile('sh', ['-c', script, 'sh', ...chunk], { maxBuffer: 64 << 20, timeout: 30_000 * chunk.length }, (_e, stdout) => done(String(stdout)));
      });
      const reported = new Set<string>();
      for (const line of out.split('\n')) {
        const [tag, file, ...msg] = line.split('\t');
        if (file === undefined) continue;
        if (tag === 'FAIL') failures.set(file, msg.join(' ').trim());
        if (tag === 'FAIL' || tag === 'DONE') reported.add(file);
      }
      for (const f of chunk) if (!reported.has(f)) failures.set(f, 'no result (the tools timed out or crashed)');
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return failures;
}

async function main(): Promise<number> {
  const o = parseArgs(process.argv.slice(2));
  const corpus = locateCorpus(o.corpus);
  if (!corpus.present) {
    console.error(`upgrade-scoreboard: ${noCorpusMessage(corpus)}`);
    return 2;
  }
  const toolsDir = resolve(o.tools ?? process.env[`LLVM_BYTECODE_DEBIAN_LLVM${o.llvm}`] ?? `/usr/lib/llvm-${o.llvm}/bin`);
  const llvmAs = join(toolsDir, 'llvm-as');
  const opt = join(toolsDir, 'opt');
  if (!existsSync(llvmAs) || !existsSync(opt)) {
    console.error(`upgrade-scoreboard: llvm-as and opt of LLVM ${o.llvm} not found in ${toolsDir} (apt-get install llvm-${o.llvm}, or --tools DIR)`);
    return 2;
  }
  const work = mkdtempSync(join(tmpdir(), 'upgrade-scoreboard-'));
  const refusals: string[] = [];
  const rejected: string[] = [];
  const lines: string[] = [];
  let anyRejected = false;
  try {
    for (const folder of FOLDERS) {
      const dir = join(corpus.root, folder);
      if (!existsSync(dir)) continue;
      const names = readdirSync(dir)
        .filter((n) => (folder === 'historical' ? n === 'constexpr.ll.bc-13' : n.endsWith('.bc')))
        .sort();
      const written = new Map<string, string>();
      let refused = 0;
      for (const name of names) {
        let text: string;
        try {
          text = printModern(readModule(new Uint8Array(readFileSync(join(dir, name)))), { llvm: o.llvm });
        } catch (e) {
          refused++;
          const kind = e instanceof UpgradeError ? 'refused' : `unexpected ${(e as Error).name}`;
          refusals.push(`${folder}/${name}: ${kind}: ${(e as Error).message}`);
          continue;
        }
        const path = join(work, `${folder}__${name}.ll`);
        writeFileSync(path, text);
        written.set(path, `${folder}/${name}`);
      }
      const failures = await verifyAll([...written.keys()], llvmAs, opt, o.jobs);
      for (const [path, msg] of failures) rejected.push(`${written.get(path)!}: ${msg}`);
      anyRejected ||= failures.size > 0;
      const accepted = written.size - failures.size;
      lines.push(`${folder.padEnd(10)} ${String(names.length).padStart(5)} files  ${String(accepted).padStart(5)} accepted by llvm-as-${o.llvm} + opt-${o.llvm} -passes=verify  ${String(refused).padStart(3)} refused by the upgrade  ${String(failures.size).padStart(3)} rejected by LLVM`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`upgrade --llvm ${o.llvm} over ${corpus.root}:`);
  for (const l of lines) console.log(`  ${l}`);
  if (refusals.length) console.log(`refused by the upgrade (${refusals.length}):\n  ${refusals.sort().join('\n  ')}`);
  if (rejected.length) console.log(`rejected by LLVM ${o.llvm} (${rejected.length}):\n  ${rejected.sort().join('\n  ')}`);
  return anyRejected ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`upgrade-scoreboard: ${(e as Error).message}`);
    process.exit(2);
  },
);
