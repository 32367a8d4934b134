/**
 * What version 7 (LLVM 2.0 development) adds to the upgrade: its modules already have signless
 * integers and sign-carrying opcodes (`icmp`/`fcmp` with predicates, `lshr`/`ashr`, the twelve
 * casts), which LLVM 16 spells the same way; this module holds the rest: parameter attributes on
 * function types, visibility and thread_local on globals.
 */
import { PARAM_ATTRIBUTE_BITS, type FunctionType, type Type } from '../graph/type.js';
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
 * with a leading space: zext → zeroext, sext → signext, inreg, sret → sret(<pointee>) (dropped
 * where the pointee has no size).
 */
export function valueAttributes(types: TypePrinter, ft: FunctionType, index: number, type: Type): string {
  const bits = paramAttributeBits(ft, index);
  let s = '';
  if (bits & B.zext) s += ' zeroext';
  if (bits & B.sext) s += ' signext';
  if (bits & B.inreg) s += ' inreg';
  if (index > 0 && bits & B.sret && type.kind === 'pointer') {
    const el = type.element;
    if (el.kind !== 'function' && el.kind !== 'opaque' && el.kind !== 'void' && el.kind !== 'label') s += ` sret(${types.str(el)})`;
  }
  return s;
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
