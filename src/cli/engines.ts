/**
 * The reader, the printer, the analyzer and the upgrader, loaded on demand: `--help`,
 * `--version` and `rewrite` do not pay for code they do not use, and `dis` loads the printer
 * alongside the reader.
 */
export type Reader = typeof import('../read.js');
/** The listing printer alone (print/listing.ts): `dis` does not load the upgrade. */
export type Printer = typeof import('../print/listing.js');
export type Analyzer = typeof import('../analyze/index.js');
export type Upgrader = typeof import('../modern/index.js');

// Each load is asked for once per file of a batch: the promise is kept (a dynamic `import()` of a
// module already loaded still resolves it again, some microseconds each, thousands of times).
let reader: Promise<Reader> | undefined;
let printer: Promise<Printer> | undefined;
let analyzer: Promise<Analyzer> | undefined;
let upgrader: Promise<Upgrader> | undefined;

export function loadReader(): Promise<Reader> {
  return (reader ??= import('../read.js'));
}

export function loadPrinter(): Promise<Printer> {
  return (printer ??= import('../print/listing.js'));
}

export function loadAnalyzer(): Promise<Analyzer> {
  return (analyzer ??= import('../analyze/index.js'));
}

export function loadUpgrader(): Promise<Upgrader> {
  return (upgrader ??= import('../modern/index.js'));
}
