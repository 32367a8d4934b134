/**
 * Where the outside tools the oracle tests run are: one rule for every test and every tool of
 * `npm run`, shared with them (tools/tool-location.ts), like the corpus's (test/support/corpus.ts).
 *
 * | set                         | environment variable     | default                        | tag      |
 * |-----------------------------|--------------------------|--------------------------------|----------|
 * | LLVM 1.9's tools            | `LLVM_BYTECODE_LLVM19`   | `../shared/llvm-1.9/bin`       | llvm19   |
 * | r36867's tools (version 7)  | `LLVM_BYTECODE_R36867`   | `../shared/llvm-2.0-dev/bin`   | r36867   |
 * | Debian's LLVM N             | `LLVM_BYTECODE_DEBIAN_LLVM<N>` | `/usr/lib/llvm-N/bin`    | debian-llvm<N> |
 * | Chromium (`npm run test:web`)| `CHROMIUM_PATH`         | `/usr/bin/chromium`            | chromium |
 *
 * A test that needs a set carries its tag ({@link needs}). The tag itself skips the test when the
 * set is absent (vitest.config.ts gives each tag `skip: !present`), so no test needs an `if`; the
 * reporter (test/support/skip-reporter.ts) then counts the skips by cause at the end of `npm test`
 * and says how to provide each set, and with `CI=true` fails the run when a tagged test skipped
 * although its set is present.
 *
 * A check against an outside tool is a test of its own, skipped when the tool is missing: never an
 * `if (HAVE_TOOL)` inside a test that passes either way. Where a test checks both what we state
 * and what the tool does, those are two tests: ours always runs.
 */
import { join } from 'node:path';
import { CHROMIUM_SPEC, DEBIAN_LLVM_RELEASES, debianLlvmSpec, LLVM19_SPEC, locateTools, R36867_SPEC, type ToolSetSpec } from '../../tools/tool-location.js';

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
  /** How to provide it, as a sentence: "Set LLVM_BYTECODE_LLVM16=DIR or apt-get install llvm-16 (...)". */
  readonly howToGet: string;
  /** The path of one of its executables (whether or not it exists). */
  path(name: string): string;
}

function toolSet(spec: ToolSetSpec): ToolSet {
  const { dir, present } = locateTools(spec);
  return {
    tag: spec.tag,
    title: spec.title,
    env: spec.env,
    dir,
    present,
    howToGet: `Set ${spec.env}=${spec.probe === '' ? 'PATH' : 'DIR'} ${spec.howToGet}`,
    skipReason: `${spec.title} not found at ${dir} (set ${spec.env}=${spec.probe === '' ? 'PATH' : 'DIR'} ${spec.howToGet})`,
    path: (name: string) => join(dir, name),
  };
}

/** LLVM 1.9's own tools (llvm-as, llvm-dis, llvm-bcanalyzer, llvm-ar, llvm-nm, llvm-link). */
export const LLVM19 = toolSet(LLVM19_SPEC);

/** The last bytecode revision's tools (LLVM trunk r36867: version 7, llvm-upgrade). */
export const R36867 = toolSet(R36867_SPEC);

/** Chromium, for the web page's test (its `dir` is the executable itself). */
export const CHROMIUM = toolSet(CHROMIUM_SPEC);

const debianSets = new Map<number, ToolSet>();

/** Debian's LLVM N (llvm-as, opt, lli, llc, llvm-readobj, llvm-mc, ... in /usr/lib/llvm-N/bin). */
export function debianLlvm(n: number): ToolSet {
  let set = debianSets.get(n);
  if (set === undefined) {
    set = toolSet(debianLlvmSpec(n));
    debianSets.set(n, set);
  }
  return set;
}

/** Every set a test may need, in the order the skip summary lists them. */
export function allToolSets(): ToolSet[] {
  return [LLVM19, R36867, ...DEBIAN_LLVM_RELEASES.map(debianLlvm), CHROMIUM];
}

/**
 * Test options for a `describe`/`it` that needs these tool sets: their tags. The corpus's options
 * may be given too: `needs(LLVM19, NEEDS_CORPUS)`.
 */
export function needs(...sets: Array<ToolSet | { readonly tags: readonly string[] }>): { tags: string[] } {
  return { tags: sets.flatMap((s) => ('tag' in s ? [s.tag] : [...s.tags])) };
}

/** True when every set is present. */
export function allPresent(...sets: ToolSet[]): boolean {
  return sets.every((s) => s.present);
}
