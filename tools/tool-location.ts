/**
 * Where the outside tools are: one rule for every test (test/support/tools.ts) and every tool of
 * `npm run` (fuzz:llvm, link-scoreboard, bench, the conversion scoreboard), like the corpus's
 * (tools/corpus-location.ts).
 *
 * Each set is looked for, in this order: an explicit folder (a tool's `--llvm DIR`), its
 * environment variable, its default place.
 *
 * | set                  | variable               | default                              |
 * |----------------------|------------------------|--------------------------------------|
 * | LLVM 1.9's tools     | `LLVM_BYTECODE_LLVM19` | `../shared/llvm-1.9/bin` beside the checkout |
 * | r36867's (version 7) | `LLVM_BYTECODE_R36867` | `../shared/llvm-2.0-dev/bin`         |
 * | Debian's LLVM N      | `LLVM_BYTECODE_DEBIAN_LLVM<N>` | `/usr/lib/llvm-N/bin`        |
 * | Chromium (web page)  | `CHROMIUM_PATH`        | `/usr/bin/chromium` (an executable)  |
 *
 * They are oracles and nothing is shipped with them: LLVM 1.9's tools are x86-64 Linux binaries
 * from 2006, which LLVM's release gave us; the reference corpus's README says where they came from.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from './corpus-location.js';

/** A tool set's identity: where to look and how to tell a user to provide it. */
export interface ToolSetSpec {
  /** The vitest tag that tests needing this set carry. */
  readonly tag: string;
  /** What it is, for messages: "LLVM 1.9's tools". */
  readonly title: string;
  /** The environment variable that names its folder (or, for Chromium, its executable). */
  readonly env: string;
  /** Where it is looked for when the variable is unset. */
  readonly defaultDir: string;
  /** The file whose presence says the set is there (relative to the folder; '' = the path itself). */
  readonly probe: string;
  /** How to get it, after "set ENV=DIR": "or apt-get install llvm-16 (...)". */
  readonly howToGet: string;
}

/** A set resolved on this machine. */
export interface ToolLocation {
  readonly dir: string;
  readonly from: 'option' | 'environment' | 'default';
  readonly present: boolean;
}

export const LLVM19_SPEC: ToolSetSpec = {
  tag: 'llvm19',
  title: "LLVM 1.9's tools",
  env: 'LLVM_BYTECODE_LLVM19',
  defaultDir: resolve(PROJECT_ROOT, '../shared/llvm-1.9/bin'),
  probe: 'llvm-as',
  howToGet: 'or place them at ../shared/llvm-1.9/bin beside the checkout',
};

export const R36867_SPEC: ToolSetSpec = {
  tag: 'r36867',
  title: "LLVM r36867's tools (version 7)",
  env: 'LLVM_BYTECODE_R36867',
  defaultDir: resolve(PROJECT_ROOT, '../shared/llvm-2.0-dev/bin'),
  probe: 'llvm-dis',
  howToGet: 'or place them at ../shared/llvm-2.0-dev/bin beside the checkout',
};

/**
 * Debian's LLVM N: llvm-as, opt, lli, llc, llvm-readobj, llvm-mc... in /usr/lib/llvm-N/bin. Its
 * tag and variable say "debian": Debian's LLVM 19 and LLVM 1.9 would otherwise both be "llvm19".
 */
export function debianLlvmSpec(n: number): ToolSetSpec {
  return {
    tag: `debian-llvm${n}`,
    title: `Debian's LLVM ${n}`,
    env: `LLVM_BYTECODE_DEBIAN_LLVM${n}`,
    defaultDir: `/usr/lib/llvm-${n}/bin`,
    probe: 'llvm-as',
    howToGet: `or apt-get install llvm-${n} (.ci/run does, when run as root)`,
  };
}

/** The Debian LLVM releases the tests use (each has its tag in vitest.config.ts). */
export const DEBIAN_LLVM_RELEASES = [13, 14, 15, 16, 19, 22] as const;

/** Chromium, for the web page's browser test (`npm run test:web`): the variable names the executable. */
export const CHROMIUM_SPEC: ToolSetSpec = {
  tag: 'chromium',
  title: 'Chromium',
  env: 'CHROMIUM_PATH',
  defaultDir: '/usr/bin/chromium',
  probe: '',
  howToGet: 'or apt-get install chromium',
};

/** Resolves a set from an explicit folder, then its environment variable, then its default. */
export function locateTools(spec: ToolSetSpec, explicit?: string, env: NodeJS.ProcessEnv = process.env): ToolLocation {
  const fromEnv = env[spec.env];
  const [dir, from] =
    explicit !== undefined && explicit !== ''
      ? [resolve(explicit), 'option' as const]
      : fromEnv !== undefined && fromEnv !== ''
        ? [resolve(fromEnv), 'environment' as const]
        : [spec.defaultDir, 'default' as const];
  return { dir, from, present: existsSync(spec.probe === '' ? dir : join(dir, spec.probe)) };
}

/** The one-line message for a set that is not there: where it was looked for and how to give it. */
export function noToolsMessage(spec: ToolSetSpec, location: ToolLocation, option = '--llvm DIR'): string {
  const where = location.from === 'option' ? option.split(' ')[0] : location.from === 'environment' ? spec.env : 'default';
  return `${spec.title} not found at ${location.dir} (${where}): pass ${option}, set ${spec.env}=DIR ${spec.howToGet}`;
}
