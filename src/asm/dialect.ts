/**
 * Which release's assembly a text is. The grammar each `llvm-as` took differs little, and mostly
 * in what it accepted and upgraded; what the dialect decides here is what the text *means* where
 * releases disagreed (`vaarg` before and after LLVM 1.6) and which bytecode version the text
 * becomes by default (what that release's `llvm-as` wrote).
 */
import type { Dialect } from './build-module.js';

export type { Dialect } from './build-module.js';

/** @category Assemble */
export const DIALECT_NAMES: readonly Dialect[] = ['1.1', '1.2', '1.3', '1.8', '1.9'];

/**
 * The bytecode version each release's `llvm-as` wrote.
 *
 * @category Assemble
 */
export const DIALECT_VERSION: Readonly<Record<Dialect, number>> = { '1.1': 0, '1.2': 1, '1.3': 3, '1.8': 5, '1.9': 6 };

/** What every signal of `detectDialect` contains (one pass of one expression: ten `includes` cost ten). */
const SIGNAL_WORDS = /datalayout|div|rem|dllimport|dllexport|extern_weak|x86_stdcallcc|x86_fastcallcc|vaarg|vanext/;

/**
 * The dialect the text says it is, from what only some releases took or printed. Most text means
 * the same to every release's parser, and LLVM 1.9's took the older texts too, so without a
 * signal the answer is LLVM 1.9. The signals: `target datalayout`, `sdiv`/`udiv`/… and the DLL
 * linkages exist only from LLVM 1.9; a `; ModuleID` line (printed by 1.8 and 1.9) with signless
 * `div`/`rem` is LLVM 1.8's listing; `vaarg`/`vanext` used as instructions, without LLVM 1.6's
 * `va_arg`, is text from before 1.6, whose meaning LLVM 1.6+ rewrote (so: LLVM 1.3).
 *
 * @category Assemble
 */
export function detectDialect(text: string): Dialect {
  // Every signal below needs one of these words: without them (most texts), no need to look.
  if (!SIGNAL_WORDS.test(text)) return '1.9';
  // Look at code only: strings and comments removed.
  const code = text.replace(/"[^"\n]*"/g, '""').replace(/;[^\n]*/g, '');
  if (/\btarget\s+datalayout\b/.test(code) || /(?:^|[\s=(])(?:[suf]div|[suf]rem)\s/m.test(code) || /\b(?:dllimport|dllexport|extern_weak|x86_stdcallcc|x86_fastcallcc)\b/.test(code)) return '1.9';
  const signless = /(?:^|[\s=(])(?:div|rem)\s/m.test(code);
  if (/^; ModuleID = /.test(text) && signless) return '1.8';
  if (/(?:^|=)\s*(?:vaarg|vanext)\s/m.test(code) && !/\bva_arg\b/.test(code)) return '1.3';
  return '1.9';
}
