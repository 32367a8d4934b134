/**
 * The module global info block: global variables, function signatures, libraries, triple, (version
 * 7) data layout, section names, module inline asm and (version 7) aliases. Version 7's
 * additions are row fields: `hasThreadLocal` (a bit in the global's word, which moves the type
 * slot up one bit), `hasVisibility` (in the extension word), `hasDataLayout`, `hasAliases`.
 */
import type { GlobalAlias, Linkage, Visibility } from '../graph/value.js';
import type { Module } from '../graph/module.js';
import type { ModuleEncodeContext } from './context.js';
import { beginBlock, constantOperandSlot, encodedAlignment, endBlock, pad, slotOf, typeSlotOf, writeTypeId } from './context.js';
import { isGlobalValue } from './canonical.js';
import { EncodeError } from './encode-error.js';
import { SectionNames } from './section-names.js';

const LINKAGE_CODE: Readonly<Record<Linkage, number>> = {
  external: 0,
  weak: 1,
  appending: 2,
  internal: 3,
  linkonce: 4,
  dllimport: 5,
  dllexport: 6,
  extern_weak: 7,
};
const VISIBILITY_CODE: Readonly<Record<Visibility, number>> = { default: 0, hidden: 1, protected: 2 };
const ALIAS_LINKAGE_CODE: Readonly<Record<GlobalAlias['linkage'], number>> = { external: 0, internal: 1, weak: 2 };

/** The linkage number LLVM wrote, refusing linkages the version lacks. */
export function encodedLinkage(ctx: Pick<ModuleEncodeContext, 'row'>, linkage: Linkage): number {
  const code = LINKAGE_CODE[linkage];
  if (code > 4 && !ctx.row.hasDllLinkages) throw new EncodeError(`${linkage} linkage`, ctx.row.version);
  return code;
}

/** A visibility's number (version 7). */
export function encodedVisibility(v: Visibility | undefined): number {
  return VISIBILITY_CODE[v ?? 'default'];
}

export function writeGlobalInfo(ctx: ModuleEncodeContext, m: Module): void {
  const { out, row } = ctx;
  beginBlock(ctx, 'moduleGlobalInfo');
  const sections = new SectionNames();
  const sectionNames = sections.names;
  const attributes = row.hasPackedAndAttributes && row.hasSectionNames;
  // Version 7's thread_local bit is bit 5 of the word: the type slot starts at bit 6 there.
  const slotScale = row.hasThreadLocal ? 64 : 32;

  for (const g of m.globals) {
    const slot = typeSlotOf(ctx, g.type);
    const hasInit = g.initializer !== undefined;
    const section = g.section ?? '';
    const tls = row.hasThreadLocal && g.isThreadLocal === true ? 1 : 0;
    const visibility = row.hasVisibility ? encodedVisibility(g.visibility) : 0;
    const linkage = encodedLinkage(ctx, g.linkage);
    if (g.alignment === 0 && section === '' && visibility === 0) {
      out.vbr32(slot * slotScale + ((tls << 5) | (linkage << 2) | ((hasInit ? 1 : 0) << 1) | (g.isConstant ? 1 : 0)));
    } else {
      if (!attributes) throw new EncodeError(section !== '' ? 'a global section' : 'a global alignment', row.version);
      // Extension word: linkage "internal" without initializer (impossible) flags it.
      out.vbr32(slot * slotScale + ((tls << 5) | (3 << 2) | (g.isConstant ? 1 : 0)));
      out.vbr32((hasInit ? 1 : 0) | (linkage << 1) | (encodedAlignment(g.alignment) << 4) | ((section !== '' ? 1 : 0) << 9) | (visibility << 10));
      if (section !== '') out.vbr32(sections.id(section));
    }
    if (g.initializer !== undefined) out.vbr32(constantOperandSlot(ctx, g.initializer));
  }
  writeTypeId(ctx, 0);

  for (const f of m.functions) {
    const slot = typeSlotOf(ctx, f.type);
    const section = f.section ?? '';
    if (row.noFlagsForFunctions) {
      // Before LLVM 1.4 a function was its type slot alone.
      if (f.callingConv !== 0) throw new EncodeError(`calling convention ${f.callingConv} on a function`, row.version);
      if (f.alignment !== 0 || section !== '') throw new EncodeError('a function alignment or section', row.version);
      writeTypeId(ctx, slot);
      continue;
    }
    const cc = f.callingConv + 1;
    let word = slot * 32 + (cc & 15);
    // A declaration is flagged, unless the file gave it a linkage-only block (which then holds
    // its linkage, as for a definition) and the version writes such blocks back.
    const flagged = f.isDeclaration && (f.linkageOnlyBlock !== true || !row.writesLinkageOnlyBlocks);
    if (flagged) word += 16;
    const extLinkage = flagged ? (f.linkage === 'dllimport' ? 1 : f.linkage === 'extern_weak' ? 2 : 0) : 0;
    if (extLinkage !== 0 && !row.hasDllLinkages) throw new EncodeError(`${f.linkage} linkage`, row.version);
    const needsExt = f.alignment !== 0 || section !== '' || (cc & ~15) !== 0 || extLinkage !== 0;
    if (needsExt) word += 2 ** 31;
    if (word >= 2 ** 32) throw new EncodeError(`a function type slot of ${slot}`, row.version, 'the function word has 26 bits for it');
    out.vbr32(word);
    if (needsExt) {
      out.vbr32(encodedAlignment(f.alignment) | ((cc >>> 4) << 5) | ((section !== '' ? 1 : 0) << 10) | ((extLinkage & 3) << 11));
      if (section !== '') out.vbr32(sections.id(section));
    }
  }
  if (row.noFlagsForFunctions) writeTypeId(ctx, 0);
  else out.vbr32(0); // the void type's slot << 5

  if (row.noDependentLibraries) {
    // Name exactly what is in the way, so that the user can decide to leave it out.
    if (m.targetTriple !== '') {
      throw new EncodeError(`the target triple "${m.targetTriple}"`, row.version, 'this version has no field for a target triple');
    }
    if (m.dependentLibraries.length !== 0) {
      const list = m.dependentLibraries.map((l) => `"${l}"`).join(', ');
      throw new EncodeError(`dependent libraries (${list})`, row.version, 'this version has no field for dependent libraries');
    }
  } else {
    out.vbr32(m.dependentLibraries.length);
    for (const lib of m.dependentLibraries) out.string(lib);
    out.string(m.targetTriple);
  }
  if (row.hasDataLayout) out.string(m.dataLayout ?? '');
  if (row.mgiPaddedInside) pad(ctx);
  if (attributes) {
    // LLVM 1.4–1.6 ended the block earlier (Module.globalInfoEnd); so do we, unless the module
    // now holds what the left-out fields would say (section names, inline asm).
    let end = row.honoursGlobalInfoEnd ? m.globalInfoEnd : undefined;
    if (m.inlineAsm !== '') end = undefined;
    else if (end === 'triple' && sectionNames.length !== 0) end = 'sections';
    if (end !== 'triple') {
      out.vbr32(sectionNames.length);
      for (const s of sectionNames) out.string(s);
      if (end !== 'sections') out.string(m.inlineAsm);
    }
  } else if (m.inlineAsm !== '') {
    throw new EncodeError('module inline asm', row.version);
  }
  if (row.hasAliases) writeAliases(ctx, m);
  endBlock(ctx);
}

/** Version 7's aliases: each its type slot with the aliasee's kind and linkage, then the aliasee's slot; a zero type id ends them. */
function writeAliases(ctx: ModuleEncodeContext, m: Module): void {
  for (const a of m.aliases ?? []) {
    const typeSlot = typeSlotOf(ctx, a.type);
    const constantAliasee = isGlobalValue(a.aliasee) ? 0 : 4;
    ctx.out.vbr32(typeSlot * 8 + (constantAliasee | ALIAS_LINKAGE_CODE[a.linkage]));
    ctx.out.vbr32(slotOf(ctx, a.aliasee));
  }
  writeTypeId(ctx, 0);
}
