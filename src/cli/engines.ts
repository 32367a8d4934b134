/**
 * The printer, the analyzer and the upgrader, loaded on demand: `--help`, `--version` and
 * `rewrite` do not pay for code they do not use, and `dis` loads the printer alongside the reader.
 */
export type Printer = typeof import('../print/index.js');
export type Analyzer = typeof import('../analyze/index.js');
export type Upgrader = typeof import('../modern/index.js');

export function loadPrinter(): Promise<Printer> {
  return import('../print/index.js');
}

export function loadAnalyzer(): Promise<Analyzer> {
  return import('../analyze/index.js');
}

export function loadUpgrader(): Promise<Upgrader> {
  return import('../modern/index.js');
}
