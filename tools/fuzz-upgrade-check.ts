/**
 * What `npm run fuzz:upgrade` (fuzz-upgrade.ts) and the replay of its findings
 * (test/tools/fuzz-upgrade.test.ts) run on one input: read and upgrade it for LLVM N as text and
 * as bitcode, where any error outside the library's typed family is a failure; and LLVM N's
 * judgement of what we wrote.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LlvmBytecodeError } from '../src/errors/library-error.js';
import type { Module } from '../src/graph/module.js';
import { printModern, writeModern } from '../src/modern/index.js';
import { readModule } from '../src/read.js';
import { sameDisassembly } from './upgrade-scoreboard-compare.js';

/** An LLVM tool that takes longer on one small file is counted as failing on it. */
const LLVM_TIMEOUT_MS = 20_000;
/** The limits the reader runs under: small, so a hostile edit cannot make the fuzzer slow. */
const LIMITS = { maxDecompressedSize: 8 * 1024 * 1024 };

/** What became of one edited file. */
export type Outcome =
  | { readonly kind: 'unread'; readonly reason: string }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'untyped'; readonly stage: string; readonly reason: string }
  | { readonly kind: 'upgraded'; readonly text: string; readonly bitcode: Uint8Array };

/** `e` as one line: its class and message. */
function describe(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : `thrown ${typeof e}: ${String(e)}`;
}

/** Reads and upgrades one input; an error outside the typed family is an outcome of its own. */
export function upgradeOutcome(bytes: Uint8Array, llvm: number): Outcome {
  let m: Module;
  try {
    m = readModule(bytes, { limits: LIMITS });
  } catch (e) {
    return e instanceof LlvmBytecodeError ? { kind: 'unread', reason: describe(e) } : { kind: 'untyped', stage: 'read', reason: describe(e) };
  }
  let stage = 'writeModern';
  try {
    // The bitcode first, of the module as read: printing a body turns it into objects, and the
    // direct lowering (src/modern/direct-lowering.ts) takes only bodies still compact.
    const bitcode = writeModern(m, { llvm });
    stage = 'printModern';
    const text = printModern(readModule(bytes, { limits: LIMITS }), { llvm });
    return { kind: 'upgraded', text, bitcode };
  } catch (e) {
    return e instanceof LlvmBytecodeError ? { kind: 'refused', reason: describe(e) } : { kind: 'untyped', stage, reason: describe(e) };
  }
}

/** The first two lines of what a tool said, on one line. */
function toolMessage(r: ReturnType<typeof spawnSync>, work: string, tools: string): string {
  if (r.error) return r.error.message;
  if (r.status === null) return `killed by ${r.signal ?? 'a signal'} (timed out after ${LLVM_TIMEOUT_MS} ms?)`;
  const said = `${String(r.stderr)}${String(r.stdout)}`.trim().split('\n').slice(0, 2).join(' ');
  // Without the scratch folder's and the tools' paths, which differ from run to run and machine to machine.
  return `exit ${r.status}: ${said.replaceAll(`${work}/`, '').replaceAll(`${tools}/`, '')}`;
}

/**
 * LLVM's judgement of what we wrote (`tools`: LLVM N's bin folder; `work`: a scratch folder):
 * undefined when it took all of it, else what failed.
 */
export function judgeWithLlvm(tools: string, work: string, text: string, bitcode: Uint8Array): string | undefined {
  const ll = join(work, 'ours.ll');
  const ours = join(work, 'ours.bc');
  const ref = join(work, 'ref.bc');
  writeFileSync(ll, text, 'latin1');
  writeFileSync(ours, bitcode);
  const run = (tool: string, args: string[]) => spawnSync(join(tools, tool), args, { timeout: LLVM_TIMEOUT_MS, maxBuffer: 1 << 26, encoding: 'latin1' });
  // The text: parsed, verified, and written as LLVM's bitcode for the comparison.
  const text_ = run('opt', ['-passes=verify', ll, '-o', ref]);
  if (text_.status !== 0) return `text: opt -passes=verify refused it: ${toolMessage(text_, work, tools)}`;
  const dis = run('llvm-dis', [ours, '-o', '-']);
  if (dis.status !== 0) return `bitcode: llvm-dis refused it: ${toolMessage(dis, work, tools)}`;
  const verify = run('opt', ['-passes=verify', '-disable-output', ours]);
  if (verify.status !== 0) return `bitcode: opt -passes=verify refused it: ${toolMessage(verify, work, tools)}`;
  const refDis = run('llvm-dis', [ref, '-o', '-']);
  if (refDis.status !== 0) return `reference: llvm-dis of LLVM's own bitcode of the text failed: ${toolMessage(refDis, work, tools)}`;
  const why = sameDisassembly(String(dis.stdout), String(refDis.stdout));
  return why === undefined ? undefined : `bitcode: llvm-dis of it differs from llvm-dis of llvm-as of the text: ${why}`;
}
