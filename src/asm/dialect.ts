/**
 * Which release's assembly a text is. The grammar each `llvm-as` took differs little, and mostly
 * in what it accepted and upgraded; what the dialect decides here is what the text *means* where
 * releases disagreed (`vaarg` before and after LLVM 1.6) and which bytecode version the text
 * becomes by default (what that release's `llvm-as` wrote).
 */
import type { Dialect } from './build-module.js';

export type { Dialect } from './build-module.js';

export const DIALECT_NAMES: readonly Dialect[] = ['1.1', '1.2', '1.3', '1.8', '1.9'];

/** The bytecode version each release's `llvm-as` wrote. */
export const DIALECT_VERSION: Readonly<Record<Dialect, number>> = { '1.1': 0, '1.2': 1, '1.3': 3, '1.8': 5, '1.9': 6 };

/**
 * The dialect the text says it is, from constructs only some releases printed or accepted:
 * `target datalayout` and `sdiv`/`udiv`/… only LLVM 1.9; `div`/`rem` before 1.9; `va_arg` from
 * 1.6; `vaarg`/`vanext` as instructions before 1.6; `; ModuleID` is printed by 1.8 and 1.9's
 * `llvm-dis`; `invoke … except label` only by LLVM 1.1. Without any signal: LLVM 1.9, whose
 * parser also took the older texts.
 */
export function detectDialect(text: string): Dialect {
  // Look at code, not comments or strings: strip both cheaply, line by line.
  const code = text.replace(/"[^"\n]*"/g, '""').replace(/;[^\n]*/g, '');
  if (/\btarget\s+datalayout\b/.test(code) || /(?:^|[\s=])(?:[suf]div|[suf]rem)\s/m.test(code)) return '1.9';
  const signless = /(?:^|[\s=(])(?:div|rem)\s/m.test(code);
  if (/(?:^|=)\s*(?:vaarg|vanext)\s/m.test(code)) return /\bexcept\s+label\b/.test(code) ? '1.1' : '1.3';
  if (/\bexcept\s+label\b/.test(code)) return '1.1';
  if (/^; ModuleID = /.test(text) || /\bva_arg\b/.test(code)) return signless ? '1.8' : '1.9';
  if (signless) return '1.8';
  return '1.9';
}
