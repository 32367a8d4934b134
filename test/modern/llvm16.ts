/**
 * Running Debian's LLVM 16 tools on upgraded modules, many files per process launch (each tool
 * start costs tens of milliseconds, thousands of files are checked). Where they are is the shared
 * rule of test/support/tools.ts (`LLVM_BYTECODE_DEBIAN_LLVM16`, else /usr/lib/llvm-16/bin); tests
 * that run them carry `needs(LLVM16)` and skip, counted, without them.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { debianLlvm } from '../support/tools.js';

/** Debian's LLVM 16: the tag of the tests that run it, and its folder. */
export const LLVM16 = debianLlvm(16);

/** Absolute path of an LLVM 16 tool in its folder (present when LLVM16 is: the package has them all). */
export function findTool(name: 'llvm-as' | 'opt' | 'lli' | 'llc' | 'llvm-link'): string {
  return LLVM16.path(name);
}

/** The system C compiler driver (`cc`, else `gcc` or `clang`), if installed. */
export function findCc(): string | undefined {
  for (const dir of ['/usr/bin', '/usr/local/bin']) {
    for (const name of ['cc', 'gcc', 'clang']) {
      const p = join(dir, name);
      if (existsSync(p)) return p;
    }
  }
  return undefined;
}

/** A POSIX shell script run with the files as its arguments; it prints `FAIL<TAB>file<TAB>message` lines. */
function runScript(script: string, files: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', script, 'sh', ...files], { timeout: timeoutMs, maxBuffer: 64 << 20 }, (_err, stdout) => resolve(String(stdout)));
  });
}

/** Runs `script` over `files` in chunks, several chunks at a time; returns file → failure message. */
export async function runBatched(script: string, files: string[], timeoutPerFileMs: number): Promise<Map<string, string>> {
  const chunkSize = 25;
  const chunks: string[][] = [];
  for (let i = 0; i < files.length; i += chunkSize) chunks.push(files.slice(i, i + chunkSize));
  const failures = new Map<string, string>();
  const workers = Math.max(2, availableParallelism() * 2);
  let next = 0;
  const work = async (): Promise<void> => {
    while (next < chunks.length) {
      const chunk = chunks[next++]!;
      const out = await runScript(script, chunk, timeoutPerFileMs * chunk.length + 10_000);
      const reported = new Set<string>();
      for (const line of out.split('\n')) {
        const [tag, file, ...msg] = line.split('\t');
        if (tag === 'FAIL' && file) {
          failures.set(file, msg.join(' ').trim());
          reported.add(file);
        }
        if (tag === 'DONE' && file) reported.add(file);
      }
      // A chunk cut short by its time limit: whatever it did not report failed.
      for (const f of chunk) if (!reported.has(f)) failures.set(f, 'no result (timed out)');
    }
  };
  await Promise.all(Array.from({ length: workers }, work));
  return failures;
}

/** Script: `llvm-as-16 FILE` must succeed, then `opt-16 -passes=verify` on its output. */
export function verifyScript(llvmAs: string, opt: string): string {
  return `for f in "$@"; do
  if ! err=$("${llvmAs}" "$f" -o "$f.bc" 2>&1); then printf 'FAIL\\t%s\\tllvm-as: %s\\n' "$f" "$(printf '%s' "$err" | head -3 | tr '\\n\\t' '  ')"; continue; fi
  if ! err=$("${opt}" -passes=verify -disable-output "$f.bc" 2>&1); then printf 'FAIL\\t%s\\topt: %s\\n' "$f" "$(printf '%s' "$err" | head -3 | tr '\\n\\t' '  ')"; continue; fi
  rm -f "$f.bc"; printf 'DONE\\t%s\\n' "$f"
done`;
}

/** Script: `llvm-as-16 FILE`, then `opt-16 -O2` on it, then `opt-16 -passes=verify` on the optimized module must all succeed. */
export function optimizeScript(llvmAs: string, opt: string): string {
  return `for f in "$@"; do
  if ! err=$("${llvmAs}" "$f" -o "$f.O2in.bc" 2>&1); then printf 'FAIL\\t%s\\tllvm-as: %s\\n' "$f" "$(printf '%s' "$err" | head -3 | tr '\\n\\t' '  ')"; continue; fi
  if ! err=$("${opt}" -O2 "$f.O2in.bc" -o "$f.O2.bc" 2>&1); then printf 'FAIL\\t%s\\topt -O2: %s\\n' "$f" "$(printf '%s' "$err" | head -3 | tr '\\n\\t' '  ')"; continue; fi
  if ! err=$("${opt}" -passes=verify -disable-output "$f.O2.bc" 2>&1); then printf 'FAIL\\t%s\\tverify after -O2: %s\\n' "$f" "$(printf '%s' "$err" | head -3 | tr '\\n\\t' '  ')"; continue; fi
  rm -f "$f.O2in.bc" "$f.O2.bc"; printf 'DONE\\t%s\\n' "$f"
done`;
}

/**
 * Script: `lli-16 FILE` must exit 0 (10 s limit per program when `timeout` exists). MCJIT, the
 * ExecutionEngine the 1.x tests were written for: LLVM 16's default ORC runner calls `main` with
 * no environment pointer, so `ExecutionEngine__2003-08-21-EnvironmentTest` would crash.
 */
export function runScriptLli(lli: string): string {
  return `for f in "$@"; do
  if command -v timeout >/dev/null 2>&1; then timeout 10 "${lli}" -jit-kind=mcjit "$f" >/dev/null 2>"$f.err" </dev/null; rc=$?; else "${lli}" -jit-kind=mcjit "$f" >/dev/null 2>"$f.err" </dev/null; rc=$?; fi
  if [ $rc -ne 0 ]; then printf 'FAIL\\t%s\\texit %s: %s\\n' "$f" "$rc" "$(head -2 "$f.err" | tr '\\n\\t' '  ')"; else printf 'DONE\\t%s\\n' "$f"; fi
done`;
}
