/**
 * Archives as link inputs, as LLVM 1.x's `llvm-ld` treated them (lib/Linker/LinkArchives.cpp):
 * an archive contributes only the members that define a symbol the modules linked so far leave
 * undefined, and taking a member may leave new symbols undefined, so the search repeats until a
 * round takes nothing. `llvm-link` itself read no archives.
 *
 * Where llvm-ld took the chosen members in the order of its `std::set` of member pointers (heap
 * addresses), we take them in archive order: a choice, the same every time.
 */
import type { Module } from '../graph/module.js';
import { moduleArchiveSymbols } from '../archive/symbol-table.js';
import { linkModules, type LinkOptions } from './link-modules.js';

/**
 * LLVM's GetAllUndefinedSymbols: names declared but not defined (internal names aside).
 *
 * @category Link
 */
export function undefinedSymbols(module: Module): Set<string> {
  const defined = new Set(moduleArchiveSymbols(module));
  const out = new Set<string>();
  const consider = (name: string | undefined, linkage: string, isDeclaration: boolean): void => {
    if (name && isDeclaration && linkage !== 'internal' && !defined.has(name)) out.add(name);
  };
  for (const g of module.globals) consider(g.name, g.linkage, g.initializer === undefined);
  for (const f of module.functions) consider(f.name, f.linkage, f.isDeclaration);
  return out;
}

/**
 * One link input: a module, or an archive's bytecode members (each a module).
 *
 * @category Link
 */
export type LinkInput =
  | { kind: 'module'; module: Module; identifier?: string }
  | { kind: 'archive'; members: readonly { module: Module; identifier?: string }[] };

/**
 * Links `inputs` in order; each archive adds, round by round, the members (in archive order) that
 * define a symbol still undefined. Throws a `LinkError` as `linkModules` does.
 *
 * @category Link
 */
export function linkInputs(inputs: readonly LinkInput[], options: Omit<LinkOptions, 'identifiers'> = {}): Module {
  const modules: Module[] = [];
  const identifiers: (string | undefined)[] = [];
  let linked: Module | undefined;
  const relink = (): Module => (linked = linkModules(modules, { ...options, identifiers }));
  for (const input of inputs) {
    if (input.kind === 'module') {
      modules.push(input.module);
      identifiers.push(input.identifier);
      linked = undefined;
      continue;
    }
    const taken = new Set<number>();
    for (;;) {
      if (modules.length === 0) break; // nothing undefined yet: llvm-ld took nothing either
      const undefinedNow = undefinedSymbols(linked ?? relink());
      const round: number[] = [];
      input.members.forEach((m, i) => {
        if (!taken.has(i) && moduleArchiveSymbols(m.module).some((s) => undefinedNow.has(s))) round.push(i);
      });
      if (round.length === 0) break;
      for (const i of round) {
        taken.add(i);
        modules.push(input.members[i]!.module);
        identifiers.push(input.members[i]!.identifier);
      }
      linked = undefined;
    }
  }
  return linked ?? relink();
}
