/**
 * Access to the reference corpus in `../shared/corpus` (never copied into the project). Tests
 * that need it call `corpusFolder(...)` and skip, saying so, when it is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const CORPUS_ROOT = resolve(HERE, '../../../shared/corpus');
export const CORPUS_PRESENT = existsSync(CORPUS_ROOT);
export const CORPUS_SKIP_REASON = `reference corpus not found at ${CORPUS_ROOT} (tests that need it are skipped)`;

if (!CORPUS_PRESENT) console.warn(CORPUS_SKIP_REASON);

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
