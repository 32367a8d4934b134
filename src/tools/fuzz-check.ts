/**
 * What the fuzzer (and the regression test) runs on each input: every public consumer of bytes
 * or of a module read from them. Each may throw only the typed errors (see `check`).
 */
import { EncodeError } from '../encode/encode-error.js';
import { InvalidModuleError } from '../encode/verify.js';
import { writeModule } from '../encode/write.js';
import { SUPPORTED_VERSIONS } from '../encode/module-block.js';
import { BytecodeError } from '../errors/bytecode-error.js';
import { analyzeBytes, dumpAnalysis } from '../analyze/index.js';
import { printModule } from '../print/index.js';
import { readModule } from '../read.js';
import { isArchive, memberContents, readArchive, readArchiveModules } from '../archive/index.js';
import { formatNm, nmSymbols } from '../nm/index.js';

/** An input slower than this (all consumers together) counts as a hang. */
export const TIME_LIMIT_MS = 1000;

export interface Consumer {
  readonly name: string;
  run(input: Uint8Array): void;
}

/** Limits small enough that a hostile input cannot make the fuzzer itself slow. */
const LIMITS = { maxDecompressedSize: 8 * 1024 * 1024 };

export const consumers: readonly Consumer[] = [
  {
    name: 'read+write',
    run(input) {
      const m = readModule(input, { limits: LIMITS });
      const v = m.source?.bytecodeVersion ?? 6;
      // The file's own version (LLVM's writer for it) and, for the oldest, a newer one too.
      writeModule(m, { bytecodeVersion: SUPPORTED_VERSIONS.has(v) ? v : 6, compression: 'none' });
      if (v < 3) writeModule(m, { bytecodeVersion: 6, compression: 'none' });
    },
  },
  {
    name: 'read+print',
    run(input) {
      const m = readModule(input, { limits: LIMITS });
      printModule(m);
      printModule(m, { syntax: 'native' });
    },
  },
  {
    name: 'analyze',
    run(input) {
      analyzeBytes(input);
      dumpAnalysis(input);
    },
  },
  {
    // Archives (src/archive): every member's contents, every bytecode member's nm listing.
    name: 'archive',
    run(input) {
      if (!isArchive(input)) return;
      const archive = readArchive(input);
      for (const m of archive.members) memberContents(m, { limits: LIMITS });
      for (const { member, module } of readArchiveModules(archive, { limits: LIMITS })) formatNm(member.name, nmSymbols(module), { format: 'sysv' });
    },
  },
];

/** Runs every consumer; returns a description of the failure, or undefined if all behaved. */
export function check(input: Uint8Array): string | undefined {
  const t = performance.now();
  for (const c of consumers) {
    try {
      c.run(input);
    } catch (e) {
      // The typed errors: a format error, a module the target version cannot express, or a
      // damaged-but-readable module that the writer's verifier refuses.
      if (e instanceof BytecodeError || e instanceof EncodeError || e instanceof InvalidModuleError) continue;
      const err = e as Error;
      return `${c.name}: ${err.name}: ${err.message}`.slice(0, 300);
    }
  }
  const dt = performance.now() - t;
  return dt > TIME_LIMIT_MS ? `slow: ${dt.toFixed(0)} ms` : undefined;
}
