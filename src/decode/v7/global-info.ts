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
 * Why its own: every word of version 7's global info is laid out differently (thread_local,
 * visibility, an extension word, data layout, aliases); `decode/global-info.ts` reads 1.x's.
 */
import type { BinaryReader } from '../../binary/reader.js';
import { V7_ALIAS_LINKAGES, V7_LINKAGES, V7_VISIBILITIES } from '../../format/version7.js';
import { describeType } from '../../graph/describe.js';
import type { PointerType } from '../../graph/type.js';
import type { Argument, Function, GlobalAlias, GlobalVariable, Linkage } from '../../graph/value.js';
import type { V7Scope } from './scope.js';

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

  for (let at = r.pos, word = r.vbr32(); word !== 0; at = r.pos, word = r.vbr32()) {
    if (module.globals.length >= limits.maxGlobals) r.fail(`more than the limit of ${limits.maxGlobals} global variables`, at);
    const slot = word >>> 6;
    let linkage = (word >>> 2) & 7;
    let hasInit = (word & 2) !== 0;
    let alignment = 0;
    let visibility = 0;
    let section = 0;
    if (linkage === 3 && !hasInit) {
      const ext = r.vbr32();
      hasInit = (ext & 1) !== 0;
      linkage = (ext >>> 1) & 7;
      alignment = alignmentOf((ext >>> 4) & 31);
      visibility = (ext >>> 10) & 7;
      if (ext & (1 << 9)) section = r.vbr32();
    }
    if (visibility >= V7_VISIBILITIES.length) r.fail(`unknown visibility ${visibility} of a global variable`, at);
    const type = scope.typeAt(slot, at);
    if (type.kind !== 'pointer') r.fail(`a global variable of type ${describeType(type)}, not a pointer`, at);
    const g: GlobalVariable = { kind: 'global', type, valueType: type.element, linkage: V7_LINKAGES[linkage]!, isConstant: (word & 1) !== 0, alignment };
    if (visibility !== 0) g.visibility = V7_VISIBILITIES[visibility];
    if ((word >>> 5) & 1) g.isThreadLocal = true;
    module.globals.push(g);
    scope.define(g, slot, true, at);
    if (section !== 0) sectionIds.push({ value: g, id: section, offset: at });
    if (hasInit) info.initializers.push({ global: g, slot: r.vbr32(), offset: at });
  }

  for (let at = r.pos, word = r.vbr32(); (word & 0x7fff_ffff) >>> 5 !== 0; at = r.pos, word = r.vbr32()) {
    if (module.functions.length >= limits.maxFunctions) r.fail(`more than the limit of ${limits.maxFunctions} functions`, at);
    const slot = (word & 0x7fff_ffff) >>> 5;
    const type = scope.typeAt(slot, at);
    if (type.kind !== 'pointer' || type.element.kind !== 'function') r.fail(`a function of type ${describeType(type)}, not a pointer to a function type`, at);
    const fnType = type.element;
    let cc = word & 15;
    let alignment = 0;
    let linkage: Linkage = 'external';
    let section = 0;
    if (word & 0x8000_0000) {
      const ext = r.vbr32();
      alignment = alignmentOf(ext & 31);
      cc |= ((ext >>> 5) & 15) << 4;
      if (ext & (1 << 10)) section = r.vbr32();
      const declLinkage = (ext >>> 11) & 3;
      if (declLinkage === 3) r.fail('external linkage code 3 of a function (0 none, 1 dllimport, 2 extern_weak)', at);
      if (declLinkage === 1) linkage = 'dllimport';
      else if (declLinkage === 2) linkage = 'extern_weak';
    }
    // The file stores the convention plus one; a damaged 0 wrapped to 2^32 - 1 in r36867's
    // reader (unsigned arithmetic), as in LLVM 1.9's (see decode/global-info.ts), and so here.
    const hasBody = (word & (1 << 4)) === 0;
    const fn = {
      kind: 'function',
      type: type as PointerType,
      functionType: fnType,
      linkage,
      callingConv: (cc - 1) >>> 0,
      alignment,
      isDeclaration: !hasBody,
      args: fnType.params.map((p, index): Argument => ({ kind: 'argument', type: p, index })),
    } as Omit<Function, 'blocks'> as Function;
    if (!hasBody) fn.blocks = [];
    module.functions.push(fn);
    scope.define(fn, slot, true, at);
    if (section !== 0) sectionIds.push({ value: fn, id: section, offset: at });
    if (hasBody) {
      info.bodies.push(fn);
      info.bodyIndexes.push(module.functions.length - 1);
    }
  }

  const libAt = r.pos;
  const libs = r.checkCount(r.vbr32(), 1, limits.maxDependentLibraries, 'dependent libraries', libAt);
  for (let i = 0; i < libs; i++) module.dependentLibraries.push(readString(scope, 'a dependent library name'));
  module.targetTriple = readString(scope, 'the target triple');
  module.dataLayout = readString(scope, 'the data layout');
  const sections: string[] = [];
  if (!r.atEnd()) {
    const at = r.pos;
    const n = r.checkCount(r.vbr32(), 1, limits.maxGlobals + limits.maxFunctions, 'section names', at);
    for (let i = 0; i < n; i++) sections.push(readString(scope, 'a section name'));
  }
  if (!r.atEnd()) module.inlineAsm = readString(scope, 'the module inline asm');
  for (const { value, id, offset } of sectionIds) {
    // r36867 compared the id with the number of sectioned globals (not of names); both must hold.
    if (id > sectionIds.length || id > sections.length) r.fail(`section id ${id} of a global, but the module names ${sections.length} section(s)`, offset);
    value.section = sections[id - 1]!;
  }
  if (!r.atEnd()) readAliases(scope, info);
  return info;
}

function readAliases(scope: V7Scope, info: GlobalInfo): void {
  const r: BinaryReader = scope.r;
  const aliases: GlobalAlias[] = [];
  scope.module.aliases = aliases;
  for (let at = r.pos, word = r.vbr32(); word !== 0; at = r.pos, word = r.vbr32()) {
    if (aliases.length >= scope.limits.maxGlobals) r.fail(`more than the limit of ${scope.limits.maxGlobals} aliases`, at);
    const slot = word >>> 3;
    const linkage = word & 3;
    const constantAliasee = (word & 4) !== 0;
    const aliaseeSlot = r.vbr32();
    const type = scope.typeAt(slot, at);
    if (type.kind !== 'pointer') r.fail(`an alias of type ${describeType(type)}, not a pointer`, at);
    if (linkage === 3) r.fail('alias linkage code 3 (0 external, 1 internal, 2 weak)', at);
    const v = scope.find(slot, aliaseeSlot, at);
    if (v === undefined && !constantAliasee) r.fail(`the aliasee (slot ${aliaseeSlot} of type ${describeType(type)}) is not defined`, at);
    if (!constantAliasee && v !== undefined && v.kind !== 'global' && v.kind !== 'function' && v.kind !== 'alias')
      r.fail(`the aliasee (slot ${aliaseeSlot}) is not a global value`, at);
    const alias: GlobalAlias = { kind: 'alias', type, linkage: V7_ALIAS_LINKAGES[linkage]!, aliasee: undefined as unknown as GlobalAlias['aliasee'] };
    if (v !== undefined) {
      if (v.kind === 'argument' || v.kind === 'block' || v.kind === 'instruction') r.fail(`the aliasee (slot ${aliaseeSlot}) is not a constant`, at);
      alias.aliasee = v;
    } else {
      info.aliasees.push({ alias, slot: aliaseeSlot, offset: at });
    }
    aliases.push(alias);
    scope.define(alias, slot, true, at);
  }
}

/** r36867's alignment fields hold log2(alignment) + 1, 0 meaning none. */
function alignmentOf(field: number): number {
  return field === 0 ? 0 : 2 ** (field - 1);
}

function readString(scope: V7Scope, what: string): string {
  const r: BinaryReader = scope.r;
  const at = r.pos;
  const length = r.vbr32();
  if (length > scope.limits.maxStringLength) r.fail(`${what} of ${length} bytes exceeds the limit of ${scope.limits.maxStringLength}`, at);
  r.pos = at;
  return r.string(what);
}
