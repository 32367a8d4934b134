/**
 * `npm run upgrade-scoreboard -- --llvm N`: every `.bc` of the reference corpus (v0 … v7 and the
 * sound historical `constexpr.ll.bc-13`) upgraded with `printModern(module, { llvm: N })`, then
 * Debian's `llvm-as-N` must accept the text and `opt-N -passes=verify` pass its output. Prints one
 * line per corpus version (upgraded / refused / accepted), then every refusal and every file LLVM
 * rejected with the reason, and exits 1 when LLVM rejected any file (a refusal by the upgrade is
 * a named outcome, not a failure).
 *
 * With `--emit bitcode`, the module is written with `writeModern` instead, and LLVM N's `llvm-dis`
 * must read it, `opt -passes=verify` pass it, and `llvm-dis` of it equal `llvm-dis` of `llvm-as`
 * of the text for the same module (modulo the numbering of attribute groups); `--read-with N`
 * reads the bitcode written for `--llvm` with another release's tools (13 to 22: the range of
 * releases that read our bitcode, docs/upgrade.md, "Bitcode"). The typed-pointer bitcode of
 * `--llvm 13`/`14` read by LLVM 15 on is read and verified but not compared: those releases make
 * its pointers opaque and keep each bitcast between pointer types as an instruction.
 *
 * With `--emit both`, one pass does both (what a whole-corpus rerun at several releases can afford
 * on a shared machine): the text must pass `opt -passes=verify`, which parses it as `llvm-as` does
 * and writes LLVM's bitcode of it (the reference); our bitcode must pass `opt -passes=verify`; and
 * `llvm-dis` disassembles both for the comparison, each in a process of its own (one `llvm-dis` of
 * many files shares one LLVMContext among them, which renames the later modules' struct types:
 * `%T` becomes `%T.4`).
 *
 * Options: `--llvm N` (default: the newest supported), `--emit text|bitcode|both`, `--read-with N`,
 * `--corpus DIR`, `--tools DIR` (default /usr/lib/llvm-N/bin, or the environment variable
 * LLVM_BYTECODE_DEBIAN_LLVMN), `--jobs N`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { printModern, UpgradeError, writeModern } from '../src/modern/index.js';
import { sameDisassembly } from './upgrade-scoreboard-compare.js';
import { checkLlvmVersion, DEFAULT_LLVM, LAST_TYPED_POINTERS } from '../src/modern/llvm-versions.js';
import { readModule } from '../src/read.js';
import { locateCorpus, noCorpusMessage } from './corpus-location.js';

const FOLDERS = ['v0', 'v1', 'v3', 'v5', 'v6', 'v7', 'historical'];

interface Options {
  llvm: number;
  emit: 'text' | 'bitcode' | 'both';
  /** The release whose tools read the output (default: llvm). */
  readWith: number | undefined;
  corpus: string | undefined;
  tools: string | undefined;
  jobs: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { llvm: DEFAULT_LLVM, emit: 'text', readWith: undefined, corpus: undefined, tools: undefined, jobs: Math.max(1, availableParallelism()) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`option ${a} needs a value`);
      return v;
    };
    if (a === '--llvm') o.llvm = checkLlvmVersion(Number(value()));
    else if (a === '--emit') {
      const e = value();
      if (e !== 'text' && e !== 'bitcode' && e !== 'both') throw new Error(`--emit takes text, bitcode or both, not ${e}`);
      o.emit = e;
    } else if (a === '--read-with') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 3 || n > 99) throw new Error('--read-with takes an LLVM major version');
      o.readWith = n;
    } else if (a === '--corpus') o.corpus = value();
    else if (a === '--tools') o.tools = value();
    else if (a === '--jobs') o.jobs = Math.max(1, Number(value()) || 1);
    else throw new Error(`unknown option ${a} (options: --llvm N, --emit text|bitcode|both, --read-with N, --corpus DIR, --tools DIR, --jobs N)`);
  }
  return o;
}

/** The shell loop that checks text: llvm-as, then opt -passes=verify. */
function textScript(llvmAs: string, opt: string): string {
  return `for f in "$@"; do
  if ! err=$("${llvmAs}" "$f" -o "$f.bc" 2>&1); then printf 'FAIL\\t%s\\tllvm-as: %s\\n' "$f" "$(printf '%s' "$err" | head -2 | tr '\\n\\t' '  ')"; continue; fi
  if ! err=$("${opt}" -passes=verify -disable-output "$f.bc" 2>&1); then printf 'FAIL\\t%s\\topt: %s\\n' "$f" "$(printf '%s' "$err" | head -2 | tr '\\n\\t' '  ')"; rm -f "$f.bc"; continue; fi
  rm -f "$f.bc"; printf 'DONE\\t%s\\n' "$f"
done`;
}

/**
 * The shell loop that checks our bitcode (FILE.ll's is FILE.ll.ours.bc): llvm-dis reads it, opt
 * verifies it; then llvm-as and llvm-dis of the text, for the comparison (FILE.ll.ours.dis and
 * FILE.ll.ref.dis; the latter absent when that release's llvm-as does not take the text).
 */
function bitcodeScript(tools: string, flags: string, compare: boolean): string {
  return `for f in "$@"; do
  if ! err=$("${tools}/llvm-dis" ${flags} "$f.ours.bc" -o "$f.ours.dis" 2>&1); then printf 'FAIL\\t%s\\tllvm-dis: %s\\n' "$f" "$(printf '%s' "$err" | head -2 | tr '\\n\\t' '  ')"; continue; fi
  if ! err=$("${tools}/opt" ${flags} -passes=verify -disable-output "$f.ours.bc" 2>&1); then printf 'FAIL\\t%s\\topt: %s\\n' "$f" "$(printf '%s' "$err" | head -2 | tr '\\n\\t' '  ')"; continue; fi
  ${compare ? `if "${tools}/llvm-as" ${flags} "$f" -o "$f.ref.bc" 2>/dev/null && "${tools}/llvm-dis" ${flags} "$f.ref.bc" -o "$f.ref.dis" 2>/dev/null; then :; else rm -f "$f.ref.dis"; fi` : ':'}
  printf 'DONE\\t%s\\n' "$f"
done`;
}

/**
 * `--emit both`: the text through `opt -passes=verify` (LLVM's parser, as llvm-as, then the
 * verifier; its output, LLVM's bitcode of the text, is the reference: FILE.ll.ref.bc), our bitcode
 * through `opt -passes=verify`, then `llvm-dis` of each (FILE.ll.ours.ll, FILE.ll.ref.ll). A text
 * LLVM refuses is TEXTFAIL, our bitcode FAIL.
 */
function bothScript(tools: string, flags: string): string {
  const said = `"$(printf '%s' "$err" | head -2 | tr '\\n\\t' '  ')"`;
  return `ok=""
for f in "$@"; do
  if ! err=$("${tools}/opt" ${flags} -passes=verify "$f" -o "$f.ref.bc" 2>&1); then printf 'TEXTFAIL\\t%s\\topt (parsing as llvm-as): %s\\n' "$f" ${said}; rm -f "$f.ref.bc"; fi
  if ! err=$("${tools}/opt" ${flags} -passes=verify -disable-output "$f.ours.bc" 2>&1); then printf 'FAIL\\t%s\\topt: %s\\n' "$f" ${said}; continue; fi
  ok="$ok $f"
done
for f in $ok; do
  if ! err=$("${tools}/llvm-dis" ${flags} "$f.ours.bc" -o "$f.ours.ll" 2>&1); then printf 'FAIL\\t%s\\tllvm-dis: %s\\n' "$f" ${said}; continue; fi
  if [ -f "$f.ref.bc" ] && ! "${tools}/llvm-dis" ${flags} "$f.ref.bc" -o "$f.ref.ll" 2>/dev/null; then rm -f "$f.ref.ll"; fi
done
for f in $ok; do printf 'DONE\\t%s\\n' "$f"; done`;
}

/**
 * Runs `script` over `files`, 25 per shell, `jobs` shells at a time; returns file → the tools'
 * message (and, in `textFailures`, file → the message of a TEXTFAIL line).
 */
async function verifyAll(files: string[], script: string, jobs: number, textFailures?: Map<string, string>): Promise<Map<string, string>> {
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
        if (tag === 'TEXTFAIL') textFailures?.set(file, msg.join(' ').trim());
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
  const reader = o.readWith ?? o.llvm;
  const toolsDir = resolve(o.tools ?? process.env[`LLVM_BYTECODE_DEBIAN_LLVM${reader}`] ?? `/usr/lib/llvm-${reader}/bin`);
  // LLVM 14 reads opaque pointers only when asked (docs/upgrade.md, "Bitcode").
  const typedBitcode = o.llvm <= LAST_TYPED_POINTERS;
  const flags = reader === 14 && !typedBitcode ? '-opaque-pointers' : '';
  const compare = typedBitcode === reader <= LAST_TYPED_POINTERS;
  let differing = 0;
  let compared = 0;
  const llvmAs = join(toolsDir, 'llvm-as');
  const opt = join(toolsDir, 'opt');
  if (!existsSync(llvmAs) || !existsSync(opt) || !existsSync(join(toolsDir, 'llvm-dis'))) {
    console.error(`upgrade-scoreboard: llvm-as, llvm-dis and opt of LLVM ${reader} not found in ${toolsDir} (apt-get install llvm-${reader}, or --tools DIR)`);
    return 2;
  }
  // `both` compares by nature; typed-pointer bitcode read by an opaque-pointer release is not compared.
  const script = o.emit === 'both' ? bothScript(toolsDir, flags) : o.emit === 'bitcode' ? bitcodeScript(toolsDir, flags, compare) : textScript(llvmAs, opt);
  // `both`: our bitcode's disassembly and the reference's are FILE.ll.ours.ll and FILE.ll.ref.ll.
  const dis = o.emit === 'both' ? '.ll' : '.dis';
  const textLines: string[] = [];
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
        const path = join(work, `${folder}__${name}.ll`);
        try {
          const module = readModule(new Uint8Array(readFileSync(join(dir, name))));
          text = printModern(module, { llvm: o.llvm });
          if (o.emit !== 'text') writeFileSync(`${path}.ours.bc`, writeModern(module, { llvm: o.llvm }));
        } catch (e) {
          refused++;
          const kind = e instanceof UpgradeError ? 'refused' : `unexpected ${(e as Error).name}`;
          refusals.push(`${folder}/${name}: ${kind}: ${(e as Error).message}`);
          continue;
        }
        writeFileSync(path, text);
        written.set(path, `${folder}/${name}`);
      }
      const textFailures = new Map<string, string>();
      const failures = await verifyAll([...written.keys()], script, o.jobs, textFailures);
      for (const [path, msg] of failures) rejected.push(`${written.get(path)!}: ${msg}`);
      for (const [path, msg] of textFailures) rejected.push(`${written.get(path)!}: the text: ${msg}`);
      anyRejected ||= textFailures.size > 0;
      if (o.emit === 'both')
        textLines.push(
          `${folder.padEnd(10)} ${String(names.length).padStart(5)} files  ${String(written.size - textFailures.size).padStart(5)} text accepted by opt-${o.llvm} -passes=verify (llvm-as's parser)  ${String(refused).padStart(3)} refused by the upgrade  ${String(textFailures.size).padStart(3)} rejected by LLVM`,
        );
      if (o.emit === 'both' || (o.emit === 'bitcode' && compare)) {
        for (const path of written.keys()) {
          if (failures.has(path) || !existsSync(`${path}.ref${dis}`)) continue;
          compared++;
          const why = sameDisassembly(readFileSync(`${path}.ours${dis}`, 'latin1'), readFileSync(`${path}.ref${dis}`, 'latin1'));
          if (why !== undefined) {
            differing++;
            anyRejected = true;
            rejected.push(`${written.get(path)!}: llvm-dis differs from llvm-dis of llvm-as of the text: ${why}`);
          }
        }
      }
      anyRejected ||= failures.size > 0;
      const accepted = written.size - failures.size;
      const how =
        o.emit !== 'text' ? `read by llvm-dis-${reader} + opt-${reader} -passes=verify` : `accepted by llvm-as-${o.llvm} + opt-${o.llvm} -passes=verify`;
      lines.push(
        `${folder.padEnd(10)} ${String(names.length).padStart(5)} files  ${String(accepted).padStart(5)} ${how}  ${String(refused).padStart(3)} refused by the upgrade  ${String(failures.size).padStart(3)} rejected by LLVM`,
      );
      // Progress on standard error, folder by folder: a long run cut short still says what it found.
      console.error(
        `upgrade-scoreboard: ${lines[lines.length - 1]!.replace(/ +/g, ' ')}; equal so far ${compared - differing} of ${compared}; rejected so far ${rejected.length}`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`upgrade --llvm ${o.llvm}${o.emit !== 'text' ? ` --emit ${o.emit}, read with LLVM ${reader}` : ''} over ${corpus.root}:`);
  if (textLines.length) console.log(`  the text:\n${textLines.map((l) => `  ${l}`).join('\n')}\n  the bitcode:`);
  if (o.emit === 'bitcode' && !compare) console.log(`  not compared with llvm-dis of llvm-as-${reader} of the text: typed-pointer bitcode read as opaque`);
  else if (o.emit !== 'text')
    console.log(
      `  llvm-dis of our bitcode equal to llvm-dis of llvm-as-${reader} of the text: ${compared - differing} of ${compared} compared (files whose text llvm-as-${reader} takes)`,
    );
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
