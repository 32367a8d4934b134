/**
 * What the fuzzers (`npm run fuzz`, `npm run fuzz:coverage`) and the regression test run on each
 * input: every public consumer of bytes or of a module read from them, and a differential oracle
 * between the writer and the reader. Each consumer may end only in its typed error (see
 * `isTypedError`); anything else is a failure.
 */
import { EncodeError } from '../src/encode/encode-error.js';
import { convertToVersion7, ConversionError } from '../src/convert/to-version7.js';
import { InvalidModuleError } from '../src/verify/verify.js';
import { writeModule } from '../src/encode/write.js';
import { SUPPORTED_VERSIONS } from '../src/encode/module-block.js';
import { BytecodeError } from '../src/errors/bytecode-error.js';
import { analyzeBytes, dumpAnalysis } from '../src/analyze/index.js';
import type { Module } from '../src/graph/module.js';
import { PrintError, printModule } from '../src/print/index.js';
import { printModern, UpgradeError, writeModern } from '../src/modern/index.js';
import { readModule } from '../src/read.js';
import { isArchive, memberContents, readArchive, readArchiveModules } from '../src/archive/index.js';
import { formatNm, nmSymbols } from '../src/nm/index.js';
import { LinkError, linkModules } from '../src/link/index.js';
import { buildHelloModule } from './hello-module.js';

/**
 * An input slower than this (all consumers together, in CPU time: wall time on the shared
 * machine counted other processes and flagged inputs that take a quarter of it) counts as a hang.
 */
export const TIME_LIMIT_MS = 1000;

export interface Consumer {
  readonly name: string;
  run(input: Uint8Array): void;
}

/** Limits small enough that a hostile input cannot make the fuzzer itself slow. */
const LIMITS = { maxDecompressedSize: 8 * 1024 * 1024 };

/** The typed errors a consumer may end in: the documented refusals of each one. */
export function isTypedError(e: unknown): boolean {
  return (
    e instanceof BytecodeError ||
    e instanceof EncodeError ||
    e instanceof InvalidModuleError ||
    e instanceof UpgradeError ||
    e instanceof PrintError ||
    e instanceof LinkError ||
    e instanceof ConversionError
  );
}

/** The version the writer writes a module in by default: its own, or 6 for 2, 4 and 7. */
function ownVersion(m: Module): number {
  const v = m.source?.bytecodeVersion ?? 6;
  return SUPPORTED_VERSIONS.has(v) ? v : 6;
}

/** What the differential oracle found wrong: a failure even though it is thrown as an error. */
export class OracleMismatch extends Error {
  override readonly name = 'OracleMismatch';
}

/**
 * The differential oracle: a module that reads must either be written at its own version or be
 * refused by the writer (`EncodeError`, or `InvalidModuleError` from its verifier), and the bytes
 * written must read back and print exactly as the module did (LLVM 1.9's dialect).
 */
function roundTrip(input: Uint8Array): void {
  let m: Module;
  try {
    m = readModule(input, { limits: LIMITS });
  } catch (e) {
    if (e instanceof BytecodeError) return;
    throw e;
  }
  const version = ownVersion(m);
  let written: Uint8Array;
  try {
    written = writeModule(m, { bytecodeVersion: version, compression: 'none' });
  } catch (e) {
    if (e instanceof EncodeError || e instanceof InvalidModuleError) return;
    throw e;
  }
  let text: string;
  try {
    text = printModule(m);
  } catch (e) {
    // A module the printer refuses has nothing to compare; the printer's own check covers it.
    if (isTypedError(e)) return;
    throw e;
  }
  let back: Module;
  try {
    back = readModule(written, { limits: LIMITS });
  } catch (e) {
    if (e instanceof BytecodeError) throw new OracleMismatch(`written at version ${version}, the module does not read back: ${e.message}`);
    throw e;
  }
  const again = printModule(back);
  if (again !== text) throw new OracleMismatch(`written at version ${version} and read back, the module prints differently: ${firstDifference(text, again)}`);
}

function firstDifference(a: string, b: string): string {
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1}: ${JSON.stringify(la[i] ?? '(end)').slice(0, 80)} became ${JSON.stringify(lb[i] ?? '(end)').slice(0, 80)}`;
  }
  return 'none';
}

export const consumers: readonly Consumer[] = [
  {
    name: 'read',
    run(input) {
      readModule(input, { limits: LIMITS });
    },
  },
  {
    name: 'print',
    run(input) {
      const m = readModule(input, { limits: LIMITS });
      printModule(m);
      printModule(m, { syntax: 'native' });
    },
  },
  {
    name: 'write',
    run(input) {
      const m = readModule(input, { limits: LIMITS });
      const v = ownVersion(m);
      // The file's own version (LLVM's writer for it) and the newest one.
      writeModule(m, { bytecodeVersion: v, compression: 'none' });
      if (v !== 6) writeModule(m, { bytecodeVersion: 6, compression: 'none' });
      // And the 1.x → version 7 conversion (`rewrite --bytecode-version 7`).
      if (v !== 7) writeModule(convertToVersion7(m), { bytecodeVersion: 7, compression: 'none' });
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
    name: 'upgrade',
    run(input) {
      // LLVM 16's mapping, and LLVM 22's, which folds or materialises the constant expressions 17-22 removed.
      const m = readModule(input, { limits: LIMITS });
      printModern(m, { llvm: 16 });
      printModern(m, { llvm: 22 });
    },
  },
  {
    // Upgrade to bitcode (src/modern/bitcode): what printModern lowers, written as LLVM 22's and LLVM 16's bitcode, and LLVM 13's typed-pointer bitcode.
    // Each of a module read anew: the direct lowering (src/modern/direct-lowering.ts) takes only bodies still compact, and a body printed is not.
    name: 'upgrade-bitcode',
    run(input) {
      writeModern(readModule(input, { limits: LIMITS }), { llvm: 22 });
      writeModern(readModule(input, { limits: LIMITS }), { llvm: 16 });
      writeModern(readModule(input, { limits: LIMITS }), { llvm: 13 });
    },
  },
  { name: 'roundtrip', run: roundTrip },
  { name: 'link', run: linkConsumer },
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

/**
 * The linker (src/link) on a module read from the input: linked with itself (every definition
 * then collides, every type is met twice) and into the project's hello module (declarations
 * resolved against it), each result written as LLVM 1.9 would.
 */
function linkConsumer(input: Uint8Array): void {
  const m = readModule(input, { limits: LIMITS });
  for (const set of [
    [m, m],
    [buildHelloModule(), m],
  ]) {
    try {
      writeModule(linkModules(set), { bytecodeVersion: 6, compression: 'none' });
    } catch (e) {
      if (!isTypedError(e)) throw e;
    }
  }
}

/** The consumer named `name` (for the coverage-guided fuzz targets). */
export function consumer(name: string): Consumer {
  const c = consumers.find((x) => x.name === name);
  if (!c) throw new Error(`no consumer '${name}' (known: ${consumers.map((x) => x.name).join(', ')})`);
  return c;
}

/** Runs one consumer; a description of its failure, or undefined if it behaved. */
export function checkOne(c: Consumer, input: Uint8Array): string | undefined {
  try {
    c.run(input);
  } catch (e) {
    if (isTypedError(e)) return undefined;
    const err = e as Error;
    return `${c.name}: ${err?.name}: ${err?.message}`.slice(0, 300);
  }
  return undefined;
}

/** Runs every consumer; returns a description of the failure, or undefined if all behaved. */
export function check(input: Uint8Array): string | undefined {
  const start = process.cpuUsage();
  for (const c of consumers) {
    const failure = checkOne(c, input);
    if (failure !== undefined) return failure;
  }
  const used = process.cpuUsage(start);
  const ms = (used.user + used.system) / 1000;
  return ms > TIME_LIMIT_MS ? `slow: ${ms.toFixed(0)} ms of CPU` : undefined;
}
