/**
 * The bitcode row of `npm run bench`: `llvm-bytecode upgrade big-bf --llvm 16 --emit bitcode -o X`
 * (read, upgrade, write LLVM bitcode: `writeModern`) against `llvm-as-16` of our text for the same
 * module (`upgrade --llvm 16`, written once before timing), whole process against whole process,
 * alternating, as the other side-by-side rows (bench-processes.ts). The mark is a ratio
 * within 2×. Skipped, saying why, without llvm-as-16 (`$LLVM_BYTECODE_DEBIAN_LLVM16`, else
 * /usr/lib/llvm-16/bin), the corpus's `v6/Large__big-bf.bc`, or the built CLI.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchEnvironment, pairTable } from './bench-processes.js';
import { debianLlvmSpec, locateTools } from './tool-location.js';

export interface BitcodeBenchOptions {
  /** The built CLI (dist/cli/llvm-bytecode.cjs). */
  cli: string;
  /** The reference corpus. */
  corpus: string;
  rounds: number;
  log(line: string): void;
}

/** The row, as printed: a heading, the table, and the ratio the issue asks about. */
export function bitcodeBench(o: BitcodeBenchOptions): string {
  const llvm16 = locateTools(debianLlvmSpec(16));
  const llvmAs = join(llvm16.dir, 'llvm-as');
  const big = join(o.corpus, 'v6', 'Large__big-bf.bc');
  if (!existsSync(llvmAs)) return `bench: llvm-as-16 not found at ${llvmAs}: no bitcode row (apt-get install llvm-16, or LLVM_BYTECODE_DEBIAN_LLVM16=DIR)\n`;
  if (!existsSync(big)) return `bench: no ${big}: no bitcode row\n`;
  if (!existsSync(o.cli)) return `bench: ${o.cli} not built: no bitcode row\n`;
  const scratch = mkdtempSync(join(tmpdir(), 'bench-bitcode-'));
  try {
    const text = join(scratch, 'big-bf.ll');
    const made = spawnSync(process.execPath, [o.cli, 'upgrade', '--llvm', '16', big, '-o', text], { env: benchEnvironment(), encoding: 'utf8' });
    if (made.status !== 0) return `bench: upgrade of ${big} failed (${made.stderr.trim()}): no bitcode row\n`;
    const table = pairTable(
      [
        {
          row: 'upgrade big-bf to bitcode',
          a: {
            label: 'ours upgrade --emit bitcode',
            argv: [process.execPath, o.cli, 'upgrade', '--llvm', '16', '--emit', 'bitcode', big, '-o', join(scratch, 'ours.bc')],
          },
          b: { label: 'llvm-as-16 of our text', argv: [llvmAs, text, '-o', join(scratch, 'theirs.bc')] },
          rounds: o.rounds,
        },
      ],
      o.log,
    );
    return `bitcode: upgrade of v6/Large__big-bf.bc to LLVM 16 bitcode (read, upgrade, write) against llvm-as-16 of our text for it (parse, verify, write); whole processes, alternating, ${o.rounds} rounds; the issue's mark: within 2×\n\n${table}`;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
