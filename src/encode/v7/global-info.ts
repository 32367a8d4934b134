/**
 * Version 7's module global info block (r36867 `outputModuleInfoBlock`): global variables (with
 * thread_local and an extension word for alignment, section and visibility), function words,
 * dependent libraries, target triple, data layout, section names, module inline asm, aliases.
 *
 * Why its own: the mirror of `decode/v7/global-info.ts` (thread_local, visibility, extension
 * words, data layout, aliases); the section numbering is the shared `encode/section-names.ts`.
 */
import type { Module } from '../../graph/module.js';
import type { GlobalAlias, Linkage, Visibility } from '../../graph/value.js';
import { EncodeError } from '../encode-error.js';
import { SectionNames } from '../section-names.js';
import type { V7EncodeContext } from './context.js';
import { encodedAlignment, slotOf, typeSlotOf, writeTypeId } from '../context.js';
import { isGlobalValue } from './slot-calculator.js';

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

export function encodedV7Linkage(linkage: Linkage): number {
  return LINKAGE_CODE[linkage];
}

export function encodedVisibility(v: Visibility | undefined): number {
  return VISIBILITY_CODE[v ?? 'default'];
}

export function writeV7GlobalInfo(ctx: V7EncodeContext, m: Module): void {
  const { out, row } = ctx;
  out.beginBlock(row.blockIds.moduleGlobalInfo!, false);
  const sections = new SectionNames();
  const sectionNames = sections.names;

  for (const g of m.globals) {
    const slot = typeSlotOf(ctx, g.type);
    const hasInit = g.initializer !== undefined ? 1 : 0;
    const section = g.section ?? '';
    const tls = g.isThreadLocal === true ? 1 : 0;
    const visibility = encodedVisibility(g.visibility);
    const linkage = encodedV7Linkage(g.linkage);
    if (g.alignment === 0 && section === '' && visibility === 0) {
      out.vbr32(slot * 64 + ((tls << 5) | (linkage << 2) | (hasInit << 1) | (g.isConstant ? 1 : 0)));
    } else {
      // Extension word, flagged by linkage "internal" without initializer (impossible otherwise).
      out.vbr32(slot * 64 + ((tls << 5) | (3 << 2) | (g.isConstant ? 1 : 0)));
      out.vbr32(hasInit | (linkage << 1) | (encodedAlignment(g.alignment) << 4) | ((section !== '' ? 1 : 0) << 9) | (visibility << 10));
      if (section !== '') out.vbr32(sections.id(section));
    }
    if (g.initializer !== undefined) out.vbr32(slotOf(ctx, g.initializer));
  }
  writeTypeId(ctx, 0);

  for (const f of m.functions) {
    const slot = typeSlotOf(ctx, f.type);
    const section = f.section ?? '';
    const cc = f.callingConv + 1;
    let word = slot * 32 + (cc & 15);
    if (f.isDeclaration) word += 16;
    const extLinkage = f.isDeclaration ? (f.linkage === 'dllimport' ? 1 : f.linkage === 'extern_weak' ? 2 : 0) : 0;
    const needsExt = f.alignment !== 0 || section !== '' || (cc & ~15) !== 0 || extLinkage !== 0;
    if (needsExt) word += 2 ** 31;
    if (word >= 2 ** 32) throw new EncodeError(`a function type slot of ${slot}`, row.version, 'the function word has 26 bits for it');
    out.vbr32(word);
    if (needsExt) {
      out.vbr32(encodedAlignment(f.alignment) | ((cc >>> 4) << 5) | ((section !== '' ? 1 : 0) << 10) | ((extLinkage & 3) << 11));
      if (section !== '') out.vbr32(sections.id(section));
    }
  }
  out.vbr32(0); // the void type's slot << 5

  out.vbr32(m.dependentLibraries.length);
  for (const lib of m.dependentLibraries) out.string(lib);
  out.string(m.targetTriple);
  out.string(m.dataLayout ?? '');
  out.vbr32(sectionNames.length);
  for (const s of sectionNames) out.string(s);
  out.string(m.inlineAsm);

  for (const a of m.aliases ?? []) {
    const typeSlot = typeSlotOf(ctx, a.type);
    const constantAliasee = isGlobalValue(a.aliasee) ? 0 : 4;
    out.vbr32(typeSlot * 8 + (constantAliasee | ALIAS_LINKAGE_CODE[a.linkage]));
    out.vbr32(slotOf(ctx, a.aliasee));
  }
  writeTypeId(ctx, 0);
  out.endBlock();
}
