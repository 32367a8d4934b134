/**
 * The library as the worker uses it: the printer, the analyzer and the modern-IR upgrader
 * (`src/modern`), all imported directly. (The upgrader was once looked up with Vite's
 * `import.meta.glob`, for builds without it; the printer imports it anyway, for `syntax:
 * 'modern'`, so the lookup only made `npm run build:web` warn that the dynamic import could not
 * move it into a chunk of its own.)
 */
import type { Module } from '../../../src/graph/module.js';
import { printModule } from '../../../src/print/index.js';
import { printModern, writeModern } from '../../../src/modern/index.js';
import { analyzeWithDump, type Analysis, type DumpRecord } from '../../../src/analyze/index.js';

export type { Analysis, DumpRecord };

interface ModernApi {
  printModern(module: Module, options?: { llvm?: number }): string;
  writeModern(module: Module, options?: { llvm?: number }): Uint8Array;
}

export interface Library {
  print(module: Module, syntax: '1.9' | 'native'): string;
  analyze(bytes: Uint8Array): { analysis: Analysis; records: DumpRecord[] };
  modern: ModernApi | null;
}

let library: Promise<Library> | undefined;

/** The library (a promise, so that a part loaded later would not change the worker). */
export function loadLibrary(): Promise<Library> {
  library ??= Promise.resolve({
    print: (module, syntax) => printModule(module, { syntax }),
    analyze: (bytes) => analyzeWithDump(bytes),
    modern: { printModern: (module, options) => printModern(module, options), writeModern: (module, options) => writeModern(module, options) },
  });
  return library;
}
