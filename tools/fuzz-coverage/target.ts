/**
 * A coverage-guided fuzz target (for Jazzer.js, which calls the module's exported `fuzz` with each
 * input): one consumer of `fuzz-check.ts`, the same check the mutation fuzzer and the regression
 * test run, `asm`, the assembler's check of `fuzz-asm-check.ts` (the input's bytes as latin1
 * text, as the CLI reads a `.ll` file), or `stackmap`, every stack map consumer on the bytes as an
 * object file and as a bare section (`fuzz-stackmap-check.ts`). A failure does not stop the run: the input is saved under
 * `$FUZZ_FINDINGS` (a few per distinct failure) and listed in `findings.txt` there, and fuzzing
 * goes on, so one run of N seconds reports everything it met.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkAssemblyInput } from '../fuzz-asm-check.js';
import { checkOne, consumer, consumers, TIME_LIMIT_MS } from '../fuzz-check.js';
import { checkStackMapInput } from '../fuzz-stackmap-check.js';

/** What a target's inputs are, and so which seeds it starts from and how its findings are named. */
export type TargetInput = 'bytecode' | 'assembly' | 'stackmap' | 'archive';

export interface TargetInfo {
  readonly name: string;
  readonly input: TargetInput;
}

/** The target that assembles its input as LLVM 1.x text. */
export const ASSEMBLY_TARGET = 'asm';

/** The target that reads its input as an object file or a stack map section. */
export const STACKMAP_TARGET = 'stackmap';

/** Every target, in the order `npm run fuzz:coverage` runs them: the consumers, then `asm` and `stackmap`. */
export const targets: readonly TargetInfo[] = [
  // The archive consumer looks only at archives: bytecode seeds would never reach it.
  ...consumers.map((c): TargetInfo => ({ name: c.name, input: c.name === 'archive' ? 'archive' : 'bytecode' })),
  { name: ASSEMBLY_TARGET, input: 'assembly' },
  { name: STACKMAP_TARGET, input: 'stackmap' },
];

/** The file extension of a target's inputs (seeds and findings). */
export function inputExtension(input: TargetInput): string {
  return input === 'assembly' ? '.ll' : input === 'stackmap' ? '.bin' : input === 'archive' ? '.a' : '.bc';
}

/** What a target's inputs are. */
function targetInput(name: string): TargetInput {
  return targets.find((t) => t.name === name)?.input ?? 'bytecode';
}

/** Inputs kept per distinct failure (the first few are enough to reproduce and shrink). */
const KEEP_PER_FAILURE = 3;
/**
 * Instrumented code runs several times slower; an input counts as slow only well past the limit,
 * in CPU time (wall time on a shared machine counts other processes and once flagged a file that
 * prints in 60 ms).
 */
const INSTRUMENTED_TIME_LIMIT_MS = 5 * TIME_LIMIT_MS;

/** The check a target runs on one input: a description of the failure, or undefined. */
function targetCheck(name: string): (input: Uint8Array) => string | undefined {
  if (name === ASSEMBLY_TARGET) {
    // Slowness is judged below, in CPU time, as for every target. (Buffer's latin1, as the CLI
    // reads a file: TextDecoder's 'latin1' is windows-1252 by the WHATWG standard.)
    return (input) => {
      const text = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('latin1');
      const failure = checkAssemblyInput(text, Infinity);
      return failure === undefined ? undefined : `${name}: ${failure}`;
    };
  }
  if (name === STACKMAP_TARGET) {
    return (input) => {
      const failure = checkStackMapInput(input);
      return failure === undefined ? undefined : `${name}: ${failure}`;
    };
  }
  const c = consumer(name);
  return (input) => checkOne(c, input);
}

export function fuzzTarget(name: string): (data: Buffer) => void {
  const check = targetCheck(name);
  const extension = inputExtension(targetInput(name));
  const findings = process.env.FUZZ_FINDINGS;
  const kept = new Map<string, number>();
  return (data: Buffer): void => {
    const input = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const start = process.cpuUsage();
    let failure = check(input);
    const used = process.cpuUsage(start);
    const ms = (used.user + used.system) / 1000;
    if (failure === undefined && ms > INSTRUMENTED_TIME_LIMIT_MS) failure = `${name}: slow: ${ms.toFixed(0)} ms of CPU`;
    if (failure === undefined) return;
    // One kind per message shape: numbers (offsets, sizes, times) vary between inputs of one bug.
    const kind = failure.replace(/\d+/g, 'N').slice(0, 160);
    const n = kept.get(kind) ?? 0;
    kept.set(kind, n + 1);
    if (n >= KEEP_PER_FAILURE) return;
    const file = `${name}-${createHash('sha1').update(input).digest('hex').slice(0, 12)}${extension}`;
    if (findings) {
      mkdirSync(findings, { recursive: true });
      writeFileSync(join(findings, file), input);
      appendFileSync(join(findings, 'findings.txt'), `${file}\t${input.length} bytes\t${failure.replace(/\s+/g, ' ')}\n`);
    }
    process.stderr.write(`FINDING ${file}: ${failure}\n`);
  };
}
