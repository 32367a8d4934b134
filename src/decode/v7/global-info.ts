/**
 * Version 7's ModuleGlobalInfo block (r36867's ParseModuleGlobalInfo): global variables, function
 * signatures, dependent libraries, target triple, data layout, then (when bytes remain) section
 * names, module inline asm and aliases.
 *
 * - A global is `slot << 6 | threadLocal << 5 | linkage << 2 | hasInit << 1 | constant`, followed,
 *   when linkage is 3 (internal) without an initializer, by an extension word
 *   `visibility << 10 | hasSection << 9 | log2(align)+1 << 4 | linkage << 1 | hasInit` (and the
 *   section id), then the initializer's slot. The list ends with 0.
 * - A function is `hasExt << 31 | slot << 5 | noBody << 4 | (cc + 1) & 15`, with an extension word
 *   `declLinkage << 11 | hasSection << 10 | (cc + 1) >> 4 << 5 | log2(align)+1` (and the section
 *   id). The list ends with slot 0.
 * - An alias is `slot << 3 | constantAliasee << 2 | linkage`, then the aliasee's slot; ends with 0.
 *
 * The words are read by the one global-info reader (`decode/global-info-records.ts`, the row
 * saying where version 7's bits are). Why this part is its own: what it makes of them is version
 * 7's graph (visibility, thread_local, aliases and their aliasees), defined in `V7Scope`'s slot
 * numbering with r36867's checks (its section-id rule, its declaration linkages); the 1.x
 * builder's is `decode/global-info.ts`.
 */
import type { BinaryReader } from '../../binary/reader.js';
import { V7_ALIAS_LINKAGES, V7_LINKAGES, V7_VISIBILITIES } from '../../format/version7.js';
import { describeType } from '../../graph/describe.js';
import { formatFor } from '../../format/format-table.js';
import type { FunctionType, PointerType } from '../../graph/type.js';
import { readGlobalInfoRecords } from '../global-info-records.js';
import { readString } from '../global-info.js';
import type { Argument, Function, GlobalAlias, GlobalVariable, Linkage } from '../../graph/value.js';
import type { V7Scope } from './scope.js';

const V7_ROW = formatFor(7)!;

/** What the rest of the module needs from the block. */
export interface GlobalInfo {
  /** Functions with a body, in the order their Function blocks follow. */
  readonly bodies: Function[];
  /** Each body's function number in the module (for block paths: `Function #n`). */
  readonly bodyIndexes: number[];
  /** Initializers to look up once the module's constants are read. */
  readonly initializers: { global: GlobalVariable; slot: number; offset: number }[];
  /** Aliases whose aliasee is a constant not read yet. */
  readonly aliasees: { alias: GlobalAlias; slot: number; offset: number }[];
}

export function readGlobalInfoV7(scope: V7Scope): GlobalInfo {
  const r: BinaryReader = scope.r;
  const { limits, module } = scope;
  const info: GlobalInfo = { bodies: [], bodyIndexes: [], initializers: [], aliasees: [] };
  const sectionIds: { value: GlobalVariable | Function; id: number; offset: number }[] = [];
  const sections: string[] = [];
  const aliases: GlobalAlias[] = [];
  let type!: PointerType;
  let sectionsChecked = false;
  const checkSections = (): void => {
    sectionsChecked = true;
    for (const { value, id, offset } of sectionIds) {
      // r36867 compared the id with the number of sectioned globals (not of names); both must hold.
      if (id > sectionIds.length || id > sections.length) r.fail(`section id ${id} of a global, but the module names ${sections.length} section(s)`, offset);
      value.section = sections[id - 1]!;
    }
  };
  readGlobalInfoRecords<GlobalVariable>(r, V7_ROW, {
    globalWord: (g) => {
      if (module.globals.length >= limits.maxGlobals) r.fail(`more than the limit of ${limits.maxGlobals} global variables`, g.at);
    },
    global: (g) => {
      const at = g.at;
      if (g.visibility >= V7_VISIBILITIES.length) r.fail(`unknown visibility ${g.visibility} of a global variable`, at);
      const type = scope.typeAt(g.slot, at);
      if (type.kind !== 'pointer') r.fail(`a global variable of type ${describeType(type)}, not a pointer`, at);
      const global: GlobalVariable = {
        kind: 'global',
        type,
        valueType: type.element,
        linkage: V7_LINKAGES[g.linkage]!,
        isConstant: g.isConstant,
        alignment: alignmentOf(g.alignmentLog),
      };
      if (g.visibility !== 0) global.visibility = V7_VISIBILITIES[g.visibility];
      if (g.isThreadLocal) global.isThreadLocal = true;
      module.globals.push(global);
      scope.define(global, g.slot, true, at);
      if (g.section !== 0) sectionIds.push({ value: global, id: g.section, offset: at });
      return global;
    },
    globalDone: (global, initializer, g) => {
      if (initializer !== undefined) info.initializers.push({ global, slot: initializer, offset: g.at });
    },
    functionWord: (f) => {
      const at = f.at;
      if (module.functions.length >= limits.maxFunctions) r.fail(`more than the limit of ${limits.maxFunctions} functions`, at);
      const t = scope.typeAt(f.slot, at);
      if (t.kind !== 'pointer' || t.element.kind !== 'function') r.fail(`a function of type ${describeType(t)}, not a pointer to a function type`, at);
      type = t;
    },
    function: (f) => {
      const at = f.at;
      const fnType = type.element as FunctionType;
      let linkage: Linkage = 'external';
      if (f.declarationLinkage === 3) r.fail('external linkage code 3 of a function (0 none, 1 dllimport, 2 extern_weak)', at);
      if (f.declarationLinkage === 1) linkage = 'dllimport';
      else if (f.declarationLinkage === 2) linkage = 'extern_weak';
      // The file stores the convention plus one; a damaged 0 wrapped to 2^32 - 1 in r36867's
      // reader (unsigned arithmetic), as in LLVM 1.9's (see decode/global-info.ts), and so here.
      const cc = (f.flags & 15) | (f.callingConvHigh << 4);
      const hasBody = (f.flags & 16) === 0;
      const fn = {
        kind: 'function',
        type,
        functionType: fnType,
        linkage,
        callingConv: (cc - 1) >>> 0,
        alignment: alignmentOf(f.alignmentLog),
        isDeclaration: !hasBody,
        args: fnType.params.map((p, index): Argument => ({ kind: 'argument', type: p, index })),
      } as Omit<Function, 'blocks'> as Function;
      if (!hasBody) fn.blocks = [];
      module.functions.push(fn);
      scope.define(fn, f.slot, true, at);
      if (f.section !== 0) sectionIds.push({ value: fn, id: f.section, offset: at });
      if (hasBody) {
        info.bodies.push(fn);
        info.bodyIndexes.push(module.functions.length - 1);
      }
    },
    libraryCount: (n, at) => r.checkCount(n, 1, limits.maxDependentLibraries, 'dependent libraries', at),
    sectionCount: (n, at) => r.checkCount(n, 1, limits.maxGlobals + limits.maxFunctions, 'section names', at),
    string: (_r, what) => readString(scope, what),
    library: (name) => module.dependentLibraries.push(name),
    triple: (triple) => {
      module.targetTriple = triple;
    },
    dataLayout: (layout) => {
      module.dataLayout = layout;
    },
    section: (name) => sections.push(name),
    inlineAsm: (asm) => {
      module.inlineAsm = asm;
    },
    beforeAliases: () => {
      checkSections();
      scope.module.aliases = aliases;
    },
    aliasWord: (a) => {
      if (aliases.length >= limits.maxGlobals) r.fail(`more than the limit of ${limits.maxGlobals} aliases`, a.at);
    },
    alias: (a) => {
      const at = a.at;
      const aliaseeSlot = a.aliasee;
      const type = scope.typeAt(a.slot, at);
      if (type.kind !== 'pointer') r.fail(`an alias of type ${describeType(type)}, not a pointer`, at);
      if (a.linkage === 3) r.fail('alias linkage code 3 (0 external, 1 internal, 2 weak)', at);
      const v = scope.find(a.slot, aliaseeSlot, at);
      if (v === undefined && !a.constantAliasee) r.fail(`the aliasee (slot ${aliaseeSlot} of type ${describeType(type)}) is not defined`, at);
      if (!a.constantAliasee && v !== undefined && v.kind !== 'global' && v.kind !== 'function' && v.kind !== 'alias')
        r.fail(`the aliasee (slot ${aliaseeSlot}) is not a global value`, at);
      const alias: GlobalAlias = { kind: 'alias', type, linkage: V7_ALIAS_LINKAGES[a.linkage]!, aliasee: undefined as unknown as GlobalAlias['aliasee'] };
      if (v !== undefined) {
        if (v.kind === 'argument' || v.kind === 'block' || v.kind === 'instruction') r.fail(`the aliasee (slot ${aliaseeSlot}) is not a constant`, at);
        alias.aliasee = v;
      } else {
        info.aliasees.push({ alias, slot: aliaseeSlot, offset: at });
      }
      aliases.push(alias);
      scope.define(alias, a.slot, true, at);
    },
  });
  if (!sectionsChecked) checkSections();
  return info;
}

/** r36867's alignment fields hold log2(alignment) + 1, 0 meaning none. */
function alignmentOf(field: number): number {
  return field === 0 ? 0 : 2 ** (field - 1);
}
