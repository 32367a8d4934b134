/**
 * LLVM 2.0 text asked to become a 1.x bytecode version: r36867's `llvm-as` wrote version 7 only.
 * A module that uses nothing of version 7 (no `iN` type, alias, visibility, `thread_local`,
 * packed struct, parameter attribute or data layout: a text of floats and `void` functions) means
 * the same in LLVM 1.x and is written there; anything else is refused, naming the construct.
 */
import { EncodeError } from '../../encode/encode-error.js';
import { version7Feature } from '../../graph/describe.js';
import type { Module } from '../../graph/module.js';

/**
 * The module to write at `version` (0–6) for an LLVM 2.0 text's module: the module itself, without
 * the empty data layout and alias list that every 2.0 text's module has, when nothing in it needs
 * version 7; else an `EncodeError` naming the first construct that does.
 *
 * @category Assemble
 */
export function llvm2ModuleForVersion(module: Module, version: number): Module {
  if (version >= 7) return module;
  const { dataLayout, aliases, ...rest } = module;
  const probe: Module = { ...rest, ...(dataLayout ? { dataLayout } : {}), ...(aliases !== undefined && aliases.length > 0 ? { aliases } : {}) };
  const construct = version7Feature(probe);
  if (construct !== undefined)
    throw new EncodeError(
      construct,
      version,
      "LLVM 2.0 text's constructs exist from version 7 on (r36867's llvm-as wrote version 7 only), and there is no conversion to LLVM 1.x",
    );
  return probe;
}
