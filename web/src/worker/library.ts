/**
 * The library as the worker uses it. The printer and analyzer are imported directly; the
 * modern-IR upgrader (`src/modern`) arrived later than the rest, so it is looked up with Vite's
 * `import.meta.glob`, which resolves to an empty object when the file is absent: the page builds
 * either way and simply offers no "Modern IR" option without it.
 */
import type { Module } from '../../../src/graph/module.js';
import { printModule } from '../../../src/print/index.js';
import { analyzeWithDump, type Analysis, type DumpRecord } from '../../../src/analyze/index.js';

export type { Analysis, DumpRecord };

interface ModernApi {
  printModern(module: Module): string;
}

const modernModules = import.meta.glob<ModernApi>('../../../src/modern/index.ts');

export interface Library {
  print(module: Module, syntax: '1.9' | 'native'): string;
  analyze(bytes: Uint8Array): { analysis: Analysis; records: DumpRecord[] };
  modern: ModernApi | null;
}

let library: Promise<Library> | undefined;

/** Loads the library (once), with the modern-IR printer if this build has it. */
export function loadLibrary(): Promise<Library> {
  library ??= (async () => {
    const loadModern = Object.values(modernModules)[0];
    let modern: ModernApi | null = null;
    if (loadModern) {
      const m = await loadModern();
      if (typeof m.printModern === 'function') modern = m;
    }
    return {
      print: (module, syntax) => printModule(module, { syntax }),
      analyze: (bytes) => analyzeWithDump(bytes),
      modern,
    };
  })();
  return library;
}
