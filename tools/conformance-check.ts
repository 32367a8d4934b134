/**
 * One corpus file against its references: does it read, does each printing match what LLVM
 * printed, does writing it back give the file's own bytes, and does the analyzer's summary match
 * llvm-bcanalyzer's. Used by `conformance.ts`, in the main thread or in workers
 * (`conformance-worker.ts`).
 */
import { sameBytes } from './same-bytes.js';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { analyzeBytes, formatAnalysis } from '../src/analyze/index.js';
import { isBzip2Loaded, loadBzip2, unwrapContainer } from '../src/container/index.js';
import { writeModule } from '../src/encode/write.js';
import { SUPPORTED_VERSIONS } from '../src/encode/module-block.js';
import { BytecodeError } from '../src/errors/bytecode-error.js';
import type { Module } from '../src/graph/module.js';
import { dialectFor, printModule } from '../src/print/index.js';
import { readModule } from '../src/read.js';
import { checkAssemblyOf } from './conformance-asm.js';

/**
 * `pass`/`fail`: compared with a reference. `crash`: our code threw something other than a
 * typed error. `n/a`: nothing to compare with (no reference file, or a version we do not write).
 */
export type Outcome = 'pass' | 'fail' | 'crash' | 'n/a';

export interface FileResult {
  folder: string;
  name: string;
  /** `ok`, `error` (a BytecodeError: the typed refusal) or `crash` (anything else). */
  read: 'ok' | 'error' | 'crash';
  /** The reader's message when it did not return a module. */
  readMessage?: string;
  /** Default printing (LLVM 1.9 dialect) against the folder's 1.9 reference. */
  print19: Outcome;
  /** Native printing against `.dis.ll` (the writing release's own llvm-dis). */
  native: Outcome;
  /** The written stream (after the signature, uncompressed) against the file's. */
  payload: Outcome;
  /** The whole written file, container and compression included, against the file. */
  file: Outcome;
  /** The analyzer's summary against `.bca.txt` (LLVM 1.9's llvm-bcanalyzer). */
  analyze: Outcome;
  /** The assembler: every reference text assembles and prints back identically. */
  asmText: Outcome;
  /** The assembler: `.dis.ll` assembled at the file's version gives the file byte for byte. */
  asmBytes: Outcome;
  /** Where `asmBytes` fails: `pass` if only the symbol tables' heap-address order differs. */
  asmOrder: Outcome;
  /** For failures: where the first difference is, or the exception's message. */
  notes: Partial<Record<'print19' | 'native' | 'payload' | 'file' | 'analyze' | 'asmText' | 'asmBytes' | 'asmOrder', string>>;
  /** With `--timings` only: seconds spent per stage on this file. */
  seconds?: Partial<Record<Stage, number>>;
}

/** The reference suffix for the default (LLVM 1.9 dialect) printing, by folder (see corpus README). */
function reference19(folder: string, version: number | undefined): string {
  if (folder === 'v6') return '.dis.ll';
  if (folder === 'v0' || folder === 'v1') return '.via19.ll';
  if (folder === 'historical' && version === 6) return '.dis.ll';
  return '.dis19.ll';
}

/** Loads what the checks need once per thread: the bzip2 codec (for writing `llvc2` files back). */
export async function prepare(): Promise<void> {
  if (!isBzip2Loaded()) await loadBzip2();
}

/** Each folder's file names, listed once per thread: cheaper than asking the OS per reference. */
const listings = new Map<string, ReadonlySet<string>>();

function exists(path: string): boolean {
  const dir = dirname(path);
  let names = listings.get(dir);
  if (!names) listings.set(dir, (names = new Set(readdirSync(dir))));
  return names.has(basename(path));
}

function readText(path: string): string | undefined {
  return exists(path) ? readFileSync(path, 'latin1') : undefined;
}

/**
 * A short unified diff around the first differing line of two texts (known to differ): three lines
 * of context, then up to three lines each of what LLVM printed (`-`) and what we printed (`+`).
 */
export function firstDifference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const e = expected.split('\n');
  let i = 0;
  while (i < a.length && i < e.length && a[i] === e[i]) i++;
  const show = (s: string): string => (s.length > 160 ? s.slice(0, 160) + '…' : s);
  const from = Math.max(0, i - 3);
  const lines = [`@@ line ${i + 1} @@ (- LLVM, + ours)`];
  for (let k = from; k < i; k++) lines.push(` ${show(e[k]!)}`);
  for (let k = i; k < Math.min(e.length, i + 3); k++) lines.push(`-${show(e[k]!)}`);
  for (let k = i; k < Math.min(a.length, i + 3); k++) lines.push(`+${show(a[k]!)}`);
  return lines.join('\n');
}

/** The first differing byte offset of two arrays (which are known to differ). */
function firstByteDifference(actual: Uint8Array, expected: Uint8Array): string {
  const n = Math.min(actual.length, expected.length);
  for (let i = 0; i < n; i++) if (actual[i] !== expected[i]) return `byte ${i} differs (sizes ${actual.length} vs ${expected.length})`;
  return `sizes ${actual.length} vs ${expected.length}`;
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Where checking one file spent its time, by stage (see `--timings`): seconds per stage. */
export const STAGES = ['files', 'read', 'write', 'print19', 'native', 'analyze', 'asmText', 'asmBytes', 'asmOrder'] as const;
export type Stage = (typeof STAGES)[number];

/** Accumulates the time since the last lap into a stage. */
class Laps {
  readonly seconds: Partial<Record<Stage, number>> = {};
  private last = performance.now();

  lap(stage: Stage): void {
    const now = performance.now();
    this.seconds[stage] = (this.seconds[stage] ?? 0) + (now - this.last) / 1000;
    this.last = now;
  }
}

/**
 * Checks `root/folder/name`. Each file is read from disk once (the `.bc` and every reference
 * text), and the `.bc` is read as a module once: the writer and both printings take the same
 * module, since none of them changes it (the printer works on a view; reading each stage afresh
 * gave identical verdicts over the whole corpus and cost a third more time). With `timed`, the
 * result carries where the time went (`seconds`).
 */
export function checkFile(root: string, folder: string, name: string, timed = false): FileResult {
  const laps = timed ? new Laps() : undefined;
  const path = join(root, folder, name);
  const base = path.replace(/\.bc$/, '');
  const bytes = new Uint8Array(readFileSync(path));
  const result: FileResult = {
    folder,
    name,
    read: 'ok',
    print19: 'n/a',
    native: 'n/a',
    payload: 'n/a',
    file: 'n/a',
    analyze: 'n/a',
    asmText: 'n/a',
    asmBytes: 'n/a',
    asmOrder: 'n/a',
    notes: {},
  };

  // Every reference text, read once: the assembler works from the listings, the printings compare
  // with them, the analyzer with `.bca.txt`.
  const texts = new Map<string, string>();
  for (const suffix of ['.dis.ll', '.dis19.ll', '.via19.ll']) {
    const text = readText(base + suffix);
    if (text !== undefined) texts.set(suffix, text);
  }
  const bca = readText(base + '.bca.txt');
  laps?.lap('files');

  readWriteAndPrint(folder, bytes, base, texts, result, laps);

  // The assembler works from the texts, whatever the reader makes of the bytes.
  const asm = checkAssemblyOf({
    folder,
    bytes,
    texts,
    clock: laps && { asmText: () => laps.lap('asmText'), asmBytes: () => laps.lap('asmBytes'), asmOrder: () => laps.lap('asmOrder') },
  });
  result.asmText = asm.asmText;
  result.asmBytes = asm.asmBytes;
  result.asmOrder = asm.asmOrder;
  Object.assign(result.notes, asm.notes);
  laps?.lap('asmText');

  // The analyzer works on the bytes, damaged or not (it reports partial figures, as LLVM did).
  if (bca !== undefined) {
    try {
      const actual = formatAnalysis(analyzeBytes(bytes, { moduleId: name }));
      result.analyze = actual === bca ? 'pass' : 'fail';
      if (actual !== bca) result.notes.analyze = firstDifference(actual, bca);
    } catch (e) {
      result.analyze = 'crash';
      result.notes.analyze = errorText(e);
    }
    laps?.lap('analyze');
  }
  if (laps) result.seconds = laps.seconds;
  return result;
}

/**
 * The reader's columns: reads the file, writes it back (payload, file) and prints it in both
 * dialects against the references in `texts`.
 */
function readWriteAndPrint(
  folder: string,
  bytes: Uint8Array,
  base: string,
  texts: ReadonlyMap<string, string>,
  result: FileResult,
  laps: Laps | undefined,
): void {
  let first: Module;
  try {
    first = readModule(bytes);
  } catch (e) {
    result.read = e instanceof BytecodeError ? 'error' : 'crash';
    result.readMessage = errorText(e);
    // A file that does not read fails every comparison it has a reference for.
    const version = folder === 'v6' ? 6 : undefined;
    if (exists(base + reference19(folder, version))) result.print19 = 'fail';
    if (exists(base + '.dis.ll')) result.native = 'fail';
    if (/^v[0-9]$/.test(folder) && SUPPORTED_VERSIONS.has(Number(folder.slice(1)))) result.payload = result.file = 'fail';
    laps?.lap('read');
    return;
  }
  laps?.lap('read');
  const version = first.source?.bytecodeVersion;

  // The writer first (it leaves the module as it found it, so the printings can reuse it). One
  // write through the public API; the payload is compared after unwrapping both containers.
  if (version !== undefined && SUPPORTED_VERSIONS.has(version)) {
    try {
      const whole = writeModule(first, { bytecodeVersion: version, compression: 'auto' });
      result.file = sameBytes(whole, bytes) ? 'pass' : 'fail';
      if (result.file === 'pass') result.payload = 'pass';
      else {
        result.notes.file = firstByteDifference(whole, bytes);
        const stream = unwrapContainer(whole).stream;
        const original = unwrapContainer(bytes).stream;
        result.payload = sameBytes(stream, original) ? 'pass' : 'fail';
        if (result.payload === 'fail') result.notes.payload = firstByteDifference(stream, original);
      }
    } catch (e) {
      const outcome: Outcome = e instanceof Error && (e.name === 'EncodeError' || e.name === 'BytecodeError') ? 'fail' : 'crash';
      result.notes.payload = result.notes.file = errorText(e);
      if (result.payload === 'n/a') result.payload = outcome;
      result.file = outcome;
    }
    laps?.lap('write');
  }
  // Printing is deterministic per dialect: when the native dialect is LLVM 1.9's own (version 6
  // files), the native listing is the 1.9 one, printed once.
  let printed19: string | undefined;
  const comparePrint = (column: 'print19' | 'native', suffix: string, syntax: '1.9' | 'native'): void => {
    const expected = texts.get(suffix); // every reference suffix is among the texts read
    if (expected === undefined) return;
    try {
      const same = column === 'native' && printed19 !== undefined && dialectFor(first, 'native') === dialectFor(first, '1.9');
      const actual = same ? printed19! : printModule(first, { syntax });
      if (column === 'print19') printed19 = actual;
      result[column] = actual === expected ? 'pass' : 'fail';
      if (actual !== expected) result.notes[column] = firstDifference(actual, expected);
    } catch (e) {
      result[column] = e instanceof BytecodeError ? 'fail' : 'crash';
      result.notes[column] = errorText(e);
    }
    laps?.lap(column);
  };
  comparePrint('print19', reference19(folder, version), '1.9');
  comparePrint('native', '.dis.ll', 'native');
}
