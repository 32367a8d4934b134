/**
 * What version 7 (LLVM 2.0 development) adds to the upgrade: its modules already have signless
 * integers and sign-carrying opcodes (`icmp`/`fcmp` with predicates, `lshr`/`ashr`, the twelve
 * casts), which LLVM 16 spells the same way; this module holds the rest: parameter attributes on
 * function types, visibility and thread_local on globals.
 */
import { isSignlessInteger, PARAM_ATTRIBUTE_BITS, type FunctionType, type Type } from '../graph/type.js';
import { sretAttribute } from './sret.js';
import type { Linkage, Visibility } from '../graph/value.js';
import type { TypePrinter } from './types.js';

const B = PARAM_ATTRIBUTE_BITS;

/** The attribute bits version 7 gave parameter `index` (0 = the return value) of `ft`. */
export function paramAttributeBits(ft: FunctionType, index: number): number {
  for (const a of ft.paramAttributes ?? []) if (a.index === index) return a.attributes;
  return 0;
}

/**
 * LLVM 16's spelling of a parameter's (or, for index 0, the return value's) attributes, each
 * with a leading space: zext → zeroext, sext → signext (integers only, and not both: LLVM 16
 * refuses them on other types, and the pair, which r36867 allowed), inreg, sret → sret(<pointee>) (on the first parameter that
 * has it, where sret.ts allows it).
 */
export function valueAttributes(types: TypePrinter, ft: FunctionType, index: number, type: Type): string {
  const bits = paramAttributeBits(ft, index);
  let s = '';
  // Both at once contradict each other (LLVM 16 refuses the pair): neither is kept.
  if (isSignlessInteger(type) && (bits & (B.zext | B.sext)) !== (B.zext | B.sext)) {
    if (bits & B.zext) s += ' zeroext';
    if (bits & B.sext) s += ' signext';
  }
  if (bits & B.inreg && type.kind !== 'void') s += ' inreg';
  if (index > 0 && bits & B.sret && firstSretIndex(ft) === index) s += sretAttribute(types, ft, index - 1, type);
  return s;
}

/** The attribute index of the first parameter version 7 marks `sret` (modern LLVM takes one). */
function firstSretIndex(ft: FunctionType): number | undefined {
  for (const a of ft.paramAttributes ?? []) if (a.index > 0 && a.attributes & B.sret) return a.index;
  return undefined;
}

/** Function attributes (`noreturn`, `nounwind`, each with a leading space) from the return value's bits. */
export function functionAttributes(ft: FunctionType): string {
  const bits = paramAttributeBits(ft, 0);
  let s = '';
  if (bits & B.noreturn) s += ' noreturn';
  if (bits & B.nounwind) s += ' nounwind';
  return s;
}

/** `hidden `/`protected ` where LLVM 16 allows it (not on local linkage), else nothing. */
export function visibilityPrefix(v: Visibility | undefined, linkage: Linkage): string {
  if (v === undefined || v === 'default' || linkage === 'internal') return '';
  return `${v} `;
}
