/**
 * The analyzer: LLVM 1.9 `llvm-bcanalyzer` figures for a bytecode file, platform-neutral
 * (Uint8Array in). See docs/analyze.md for the figures, the JSON schema and LLVM's known errors.
 */
import { BytecodeError } from '../errors/bytecode-error.js';
import type { Analysis, DumpRecord } from './analysis.js';
import { formatAnalysis, formatDump } from './format.js';
import { AnalyzerWalk, emptyAnalysis } from './analyze-stream.js';
import type { AnalyzeOptions } from './analysis.js';

export type { Analysis, AnalysisError, BlockBytes, BlockNode, DumpRecord, FunctionAnalysis } from './analysis.js';
export type { AnalyzeOptions } from './analysis.js';
export { formatAnalysis, formatDouble } from './format.js';

function walk(bytes: Uint8Array, options: AnalyzeOptions, dump: boolean): AnalyzerWalk {
  const w = new AnalyzerWalk(options.moduleId ?? '<stdin>', bytes.length, dump);
  try {
    w.run(bytes, options.maxDecompressedSize);
  } catch (e) {
    // run() records every BytecodeError itself; anything else is a bug, reported as data.
    const msg = e instanceof Error ? e.message : String(e);
    w.a.error = { reason: `internal error: ${msg}`, offset: 0, blockPath: [], phase: 'module' };
  }
  return w;
}

/**
 * Analyzes a file. Never throws for bad input: a damaged file gives a partial analysis whose
 * `error` says where and why the walk stopped (LLVM printed its partial figures the same way).
 *
 * @category Analyze
 */
export function analyzeBytes(bytes: Uint8Array, options: AnalyzeOptions = {}): Analysis {
  return walk(bytes, options, false).a;
}

/** Like `analyzeBytes`, but throws the `BytecodeError` when the file is damaged. */
export function analyzeBytesStrict(bytes: Uint8Array, options: AnalyzeOptions = {}): Analysis {
  const a = analyzeBytes(bytes, options);
  if (a.error) throw new BytecodeError(a.error.reason, a.error.offset, a.error.blockPath);
  return a;
}

/** The analysis plus the `--dump` records (every block and record at its offset). */
export function analyzeWithDump(bytes: Uint8Array, options: AnalyzeOptions = {}): { analysis: Analysis; records: DumpRecord[] } {
  const w = walk(bytes, options, true);
  return { analysis: w.a, records: w.dumpLines };
}

/**
 * The `--dump` text: the block/record listing, the stop reason if any, then the summary.
 *
 * @category Analyze
 */
export function dumpAnalysis(bytes: Uint8Array, options: AnalyzeOptions = {}): string {
  const { analysis, records } = analyzeWithDump(bytes, options);
  return formatDump(analysis, records) + formatAnalysis(analysis);
}

/**
 * `--json`: the analysis as stable JSON (NaN/Infinity densities become null).
 *
 * @category Analyze
 */
export function analysisToJson(a: Analysis, space?: number): string {
  return JSON.stringify(a, null, space);
}

export { emptyAnalysis };
