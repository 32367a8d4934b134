/**
 * Where the outside tools the oracle tests run are: one rule for every test, like the corpus's
 * (test/support/corpus.ts). Each tool set is looked for in its environment variable, else in its
 * default place; a test that needs one carries its tag ({@link needs}) and skips, with the reason,
 * when it is absent, so that the reporter (test/support/corpus-reporter.ts) can count the skips by
 * cause at the end of `npm test`.
 *
 * A check against an outside tool is a test of its own, skipped when the tool is missing: never an
 * `if (HAVE_TOOL)` inside a test that passes either way.
 */
import { existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** An outside tool set: a folder of executables that may or may not be on this machine. */
export interface ToolSet {
  /** The vitest tag that tests needing this set carry (counted by cause at the end of the run). */
  readonly tag: string;
  /** What it is, for messages: "LLVM 1.9's tools". */
  readonly title: string;
  /** The environment variable that names its folder. */
  readonly env: string;
  /** The folder looked in. */
  readonly dir: string;
  /** True when the set's probe executable exists. */
  readonly present: boolean;
  /** Why tests needing it skipped, and how to provide it. */
  readonly skipReason: string;
  /** The path of one of its executables (whether or not it exists). */
  path(name: string): string;
}

function toolSet(tag: string, title: string, env: string, defaultDir: string, probe: string, howToGet: string): ToolSet {
  const fromEnv = process.env[env];
  const dir = fromEnv !== undefined && fromEnv !== '' ? resolve(fromEnv) : defaultDir;
  const present = existsSync(join(dir, probe));
  return {
    tag,
    title,
    env,
    dir,
    present,
    skipReason: `${title} not found at ${dir} (set ${env}=DIR; ${howToGet})`,
    path: (name: string) => join(dir, name),
  };
}

/** LLVM 1.9's own tools (llvm-as, llvm-dis, llvm-bcanalyzer, llvm-ar, llvm-nm, llvm-link). */
export const LLVM19 = toolSet(
  'llvm19',
  "LLVM 1.9's tools",
  'LLVM_BYTECODE_LLVM19',
  resolve(PROJECT_ROOT, '../shared/llvm-1.9/bin'),
  'llvm-as',
  'default ../shared/llvm-1.9/bin beside the checkout',
);

/** The last bytecode revision's tools (LLVM trunk r36867: version 7, llvm-upgrade). */
export const R36867 = toolSet(
  'r36867',
  "LLVM r36867's tools (version 7)",
  'LLVM_BYTECODE_R36867',
  resolve(PROJECT_ROOT, '../shared/llvm-2.0-dev/bin'),
  'llvm-dis',
  'default ../shared/llvm-2.0-dev/bin beside the checkout',
);

const debianSets = new Map<number, ToolSet>();

/** Debian's LLVM N (llvm-as, opt, lli, llc, llvm-readobj, llvm-mc, ... in /usr/lib/llvm-N/bin). */
export function debianLlvm(n: number): ToolSet {
  let set = debianSets.get(n);
  if (set === undefined) {
    set = toolSet(
      // Not `llvm19`/`LLVM_BYTECODE_LLVM19`: those are LLVM 1.9's, and Debian has an LLVM 19.
      `debian-llvm${n}`,
      `Debian's LLVM ${n}`,
      `LLVM_BYTECODE_DEBIAN_LLVM${n}`,
      `/usr/lib/llvm-${n}/bin`,
      'llvm-as',
      `apt-get install llvm-${n}; .ci/run installs it when run as root`,
    );
    debianSets.set(n, set);
  }
  return set;
}

/** Test options for a `describe`/`it` that needs these tool sets: their tags. */
export function needs(...sets: ToolSet[]): { tags: string[] } {
  return { tags: sets.map((s) => s.tag) };
}

/** True when every set is present. */
export function allPresent(...sets: ToolSet[]): boolean {
  return sets.every((s) => s.present);
}
