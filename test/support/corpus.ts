/**
 * Access to the reference corpus (never copied into the project). Where it is comes from one rule
 * shared with the tools (tools/corpus-location.ts): `LLVM_BYTECODE_CORPUS`, else
 * `../shared/corpus` beside the checkout.
 *
 * Tests that need it are tagged `corpus` ({@link NEEDS_CORPUS}) and skip when it is absent; the
 * reporter in test/support/skip-reporter.ts then ends `npm test` by counting the skips by cause and saying
 * how to provide the corpus.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_ENV, locateCorpus } from '../../tools/corpus-location.js';

const LOCATION = locateCorpus();
export const CORPUS_ROOT = LOCATION.root;
export const CORPUS_PRESENT = LOCATION.present;
export const CORPUS_SKIP_REASON = `reference corpus not found at ${CORPUS_ROOT} (tests that need it are skipped; set ${CORPUS_ENV}=DIR or place it at ../shared/corpus)`;
export { CORPUS_ENV };

/** Options for a `describe`/`it` that needs the corpus: the tag the reporter counts. */
export const NEEDS_CORPUS = { tags: ['corpus'] };

export const VERSION_FOLDERS = ['v0', 'v1', 'v3', 'v5', 'v6'] as const;

/** The `.bc` file names of a corpus folder (historical files end in `.bc-NN` too). */
export function corpusFiles(folder: string): string[] {
  const dir = join(CORPUS_ROOT, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.bc') || /\.bc-\d+$/.test(n))
    .sort();
}

export function readCorpusFile(folder: string, name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(CORPUS_ROOT, folder, name)));
}

/** A sibling of a corpus file (`NAME.dis.ll` for `NAME.bc`), or undefined when absent. */
export function readCorpusText(folder: string, bcName: string, suffix: string): string | undefined {
  const path = join(CORPUS_ROOT, folder, bcName.replace(/\.bc$/, '') + suffix);
  return existsSync(path) ? readFileSync(path, 'latin1') : undefined;
}

/**
 * How many `.bc` files the corpus's README says `folder` holds (its table of folders), so that a
 * test over a folder can check it saw them all: a test that compared no file passes nothing.
 * Undefined when the corpus or its README says nothing of the folder.
 */
export function corpusStatedCount(folder: string): number | undefined {
  const path = join(CORPUS_ROOT, 'README.md');
  if (!existsSync(path)) return undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^\|\s*`([^`]+)\/`\s*\|.*\|\s*([\d,]+)\s*\|\s*$/.exec(line);
    if (m !== null && m[1] === folder) return Number(m[2]!.replace(/,/g, ''));
  }
  return undefined;
}
