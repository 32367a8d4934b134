/**
 * The bin's loader (src/cli/llvm-bytecode.cts) guesses, before the CLI is loaded, whether a file
 * command was given one large input: such a run gets V8 settings and a code cache of its own. To
 * find the input it must skip the values of options (`--llvm 16`), and so must know every option
 * that takes one; a value taken for an input makes a run on one large file look like a batch, and
 * it then runs as a small file's (the bitcode row of `npm run bench` ran so, 20% slower, until
 * `--llvm` and `--emit` were added). The loader keeps its own list, as it must load nothing of the
 * CLI: this checks that list against the options the commands really take.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { FILE_COMMAND_OPTIONS } from '../../src/cli/run.js';
import { STACKMAP_OPTIONS } from '../../src/cli/stackmap.js';
import type { OptionSpec } from '../../src/cli/args.js';

const LOADER = new URL('../../dist/cli/llvm-bytecode.cjs', import.meta.url).pathname;

/** Each spelling of each option of `specs` that takes a value. */
function valueSpellings(specs: readonly OptionSpec[]): string[] {
  return specs.filter((s) => s.takesValue).flatMap((s) => [`--${s.name}`, ...(s.short ? [`-${s.short}`] : [])]);
}

describe.skipIf(!existsSync(LOADER))("the bin's loader (built: npm run build)", () => {
  const { VALUE_OPTIONS } = createRequire(import.meta.url)(LOADER) as { VALUE_OPTIONS: ReadonlySet<string> };

  it.each([
    ...Object.entries(COMMANDS).map(([name, spec]) => [name, [...FILE_COMMAND_OPTIONS, ...spec.options]] as const),
    ['stackmap', STACKMAP_OPTIONS] as const,
  ])('skips the value of every option of %s that takes one', (_name, specs) => {
    const spellings = valueSpellings(specs);
    expect(spellings.length).toBeGreaterThan(0);
    expect(spellings.filter((s) => !VALUE_OPTIONS.has(s))).toEqual([]);
  });
});
