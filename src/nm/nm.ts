/**
 * What LLVM 1.9's `llvm-nm` printed for a module: one line per function, then per global
 * variable, in module order, each with a letter — `U` declared (no body / no initializer), `C`
 * linkonce, `W` weak, `t`/`T` internal/other function, `d`/`D` internal/other variable — in one
 * of three layouts. `llvm-nm` had no addresses: the value column is always eight spaces.
 */
import type { Module } from '../graph/module.js';
import type { GlobalValue } from '../graph/value.js';

/** @category Archives and nm */
export type NmFormat = 'bsd' | 'sysv' | 'posix';
/** @category Archives and nm */
export const NM_FORMATS: readonly NmFormat[] = ['bsd', 'sysv', 'posix'];

/** @category Archives and nm */
export interface NmSymbol {
  /** The name, one character per byte; empty for an unnamed global. */
  readonly name: string;
  readonly letter: 'U' | 'C' | 'W' | 't' | 'T' | 'd' | 'D';
}

function letterFor(value: GlobalValue): NmSymbol['letter'] {
  const declared = value.kind === 'function' ? value.isDeclaration : value.initializer === undefined;
  if (declared) return 'U';
  if (value.linkage === 'linkonce') return 'C';
  if (value.linkage === 'weak') return 'W';
  const internal = value.linkage === 'internal';
  if (value.kind === 'function') return internal ? 't' : 'T';
  return internal ? 'd' : 'D';
}

/**
 * The module's symbols in `llvm-nm`'s order: functions, then global variables.
 *
 * @category Archives and nm
 */
export function nmSymbols(module: Module): NmSymbol[] {
  const out: NmSymbol[] = [];
  for (const f of module.functions) out.push({ name: f.name ?? '', letter: letterFor(f) });
  for (const g of module.globals) out.push({ name: g.name ?? '', letter: letterFor(g) });
  return out;
}

/** @category Archives and nm */
export interface NmListingOptions {
  format?: NmFormat;
  /** Print the `FILE:` heading (bsd, posix): more than one file was named, or this is an archive member. */
  heading?: boolean;
}

const ADDRESS = '        ';

/**
 * One module's listing; `moduleId` is the file name, or `archive(member)` for an archive member.
 *
 * @category Archives and nm
 */
export function formatNm(moduleId: string, symbols: readonly NmSymbol[], options: NmListingOptions = {}): string {
  const format = options.format ?? 'bsd';
  let out = '';
  if (format === 'posix' && options.heading) out += `${moduleId}:\n`;
  else if (format === 'bsd' && options.heading) out += `\n${moduleId}:\n`;
  else if (format === 'sysv') {
    out += `\n\nSymbols from ${moduleId}:\n\nName                  Value   Class        Type         Size   Line  Section\n`;
  }
  for (const { name, letter } of symbols) {
    if (format === 'posix') out += `${name} ${letter} ${ADDRESS}\n`;
    else if (format === 'bsd') out += `${ADDRESS} ${letter} ${name}\n`;
    else out += `${name.padEnd(20)}|${ADDRESS}|   ${letter}  |                  |      |     |\n`;
  }
  return out;
}
