/**
 * Where the reference corpus is: one rule for every test, tool and the browser test.
 *
 * The reference corpus is ~4,000 `.bc` files written by real LLVM 1.1–1.9 with what those
 * releases' own tools printed for them. It is not part of the project (it is not ours to ship);
 * it is looked for, in this order:
 *
 *  1. an explicit folder (a tool's `--corpus DIR`),
 *  2. the environment variable `LLVM_BYTECODE_CORPUS`,
 *  3. `../shared/corpus` next to the project's checkout.
 *
 * A tool that was asked to check the corpus and cannot find it fails with {@link NO_CORPUS_HINT};
 * tests skip, and `npm test` ends by saying how many skipped and how to provide it.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The environment variable naming the corpus folder. */
export const CORPUS_ENV = 'LLVM_BYTECODE_CORPUS';

/**
 * The project's root: the nearest folder above this file with a package.json. The tools run from
 * their sources (`tools/`, one level down, under vitest) and from their build
 * (`dist-tools/tools/`, two levels down), so no fixed number of `..` fits both.
 */
export const PROJECT_ROOT = projectRoot(dirname(fileURLToPath(import.meta.url)));

function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}: the tools run inside the project's checkout`);
  }
}

/** The default location, `../shared/corpus` beside the checkout. */
export const DEFAULT_CORPUS = resolve(PROJECT_ROOT, '../shared/corpus');

/** What to tell a user whose corpus is missing. */
export const NO_CORPUS_HINT = `pass --corpus DIR or set ${CORPUS_ENV}=DIR (default: ../shared/corpus beside the checkout)`;

export interface CorpusLocation {
  /** The absolute folder looked at. */
  readonly root: string;
  /** Where the folder came from. */
  readonly from: 'option' | 'environment' | 'default';
  /** True when the folder exists. */
  readonly present: boolean;
}

/** Resolves the corpus folder from an explicit option, then the environment, then the default. */
export function locateCorpus(explicit?: string, env: NodeJS.ProcessEnv = process.env): CorpusLocation {
  const fromEnv = env[CORPUS_ENV];
  const [root, from] =
    explicit !== undefined && explicit !== ''
      ? [resolve(explicit), 'option' as const]
      : fromEnv !== undefined && fromEnv !== ''
        ? [resolve(fromEnv), 'environment' as const]
        : [DEFAULT_CORPUS, 'default' as const];
  return { root, from, present: isFolder(root) };
}

/** The one-line message for a corpus that is not there. */
export function noCorpusMessage(location: CorpusLocation): string {
  const where = location.from === 'option' ? '--corpus' : location.from === 'environment' ? CORPUS_ENV : 'default';
  return `no corpus at ${location.root} (${where}): ${NO_CORPUS_HINT}`;
}

function isFolder(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
