/**
 * Which release's assembly a text is. The grammar each `llvm-as` took differs little, and mostly
 * in what it accepted and upgraded; what the dialect decides here is what the text *means* where
 * releases disagreed (`vaarg` before and after LLVM 1.6) and which bytecode version the text
 * becomes by default (what that release's `llvm-as` wrote).
 */
import type { Dialect } from './build-module.js';

export type { Dialect } from './build-module.js';

/** @category Assemble */
export const DIALECT_NAMES: readonly Dialect[] = ['1.1', '1.2', '1.3', '1.8', '1.9', '2.0'];

/** The LLVM 1.x dialects, oldest first (what `dialectForVersion` chooses among for 1.x text). */
const RELEASES_1X: readonly Dialect[] = ['1.1', '1.2', '1.3', '1.8', '1.9'];

/**
 * The bytecode version each release's `llvm-as` wrote.
 *
 * @category Assemble
 */
export const DIALECT_VERSION: Readonly<Record<Dialect, number>> = { '1.1': 0, '1.2': 1, '1.3': 3, '1.8': 5, '1.9': 6, '2.0': 7 };

/** What every signal of `detectDialect` contains (one pass of one expression: ten `includes` cost ten). */
const SIGNAL_WORDS = /datalayout|div|rem|dllimport|dllexport|extern_weak|x86_stdcallcc|x86_fastcallcc|vaarg|vanext|const\s/;

/**
 * The dialect the text says it is, from what only some releases took or printed. Most text means
 * the same to every release's parser, and LLVM 1.9's took the older texts too, so without a
 * signal the answer is LLVM 1.9. The signals: `target datalayout`, `sdiv`/`udiv`/… and the DLL
 * linkages exist only from LLVM 1.9; a `; ModuleID` line (printed by 1.8 and 1.9) with signless
 * `div`/`rem` is LLVM 1.8's listing; `vaarg`/`vanext` used as instructions, without LLVM 1.6's
 * `va_arg`, is text from before 1.6, whose meaning LLVM 1.6+ rewrote (so: LLVM 1.3); a named
 * constant (`%X = const int 0`) only LLVM 1.1 and 1.2 took (so: LLVM 1.2, the later).
 *
 * @category Assemble
 */
export function detectDialect(text: string): Dialect {
  if (isLlvm2Text(text)) return '2.0';
  return signalledDialect(text) ?? '1.9';
}

/**
 * The dialect to read a text in when it is to become bytecode version `version` and nobody named
 * one: the release whose `llvm-as` wrote that version reads it (LLVM 1.3's `llvm-as` did not
 * rename `llvm.memmove` as LLVM 1.9's did, and LLVM 1.9's rewrote the pre-1.6 `vaarg` that a 1.3
 * text holds), unless the text says it is a later release's (which that release could not have
 * read), or uses what the release had dropped (`const`, only 1.1 and 1.2's).
 *
 * @category Assemble
 */
export function dialectForVersion(text: string, version: number): Dialect {
  // LLVM 2.0's text is 2.0's whatever the version asked for (no 1.x release could read it); 1.x
  // text asked to become version 7 is read as LLVM 1.9's (what llvm-upgrade took).
  if (isLlvm2Text(text)) return '2.0';
  const signalled = signalledDialect(text);
  const release = releaseWriting(Math.min(version, DIALECT_VERSION['1.9']));
  if (signalled === undefined) return release;
  // `const` text is 1.1's or 1.2's: the release asked for reads it if it is one of the two.
  if (signalled === '1.2' && NAMED_CONSTANT.test(codeOf(text))) return release === '1.1' ? release : signalled;
  if (RELEASES_1X.indexOf(signalled) >= RELEASES_1X.indexOf(release)) return signalled;
  return release;
}

/** The last release (of those we read) whose `llvm-as` wrote `version` or an earlier one. */
function releaseWriting(version: number): Dialect {
  let release: Dialect = '1.1';
  for (const d of RELEASES_1X) if (DIALECT_VERSION[d] <= version) release = d;
  return release;
}

const NAMED_CONSTANT = /^\s*(?:%[-a-zA-Z$._0-9]+|"[^"\n]*")\s*=\s*const\s/m;

/** The text with strings and comments removed: only code says what dialect it is. */
function codeOf(text: string): string {
  return text.replace(/"[^"\n]*"/g, '""').replace(/;[^\n]*/g, '');
}

/** The dialect a text's own words say it is, or undefined where they don't (see detectDialect). */
function signalledDialect(text: string): Dialect | undefined {
  // Every signal below needs one of these words: without them (most texts), no need to look.
  if (!SIGNAL_WORDS.test(text)) return undefined;
  const code = codeOf(text);
  if (
    /\btarget\s+datalayout\b/.test(code) ||
    /(?:^|[\s=(])(?:[suf]div|[suf]rem)\s/m.test(code) ||
    /\b(?:dllimport|dllexport|extern_weak|x86_stdcallcc|x86_fastcallcc)\b/.test(code)
  )
    return '1.9';
  const signless = /(?:^|[\s=(])(?:div|rem)\s/m.test(code);
  if (/^; ModuleID = /.test(text) && signless) return '1.8';
  if (/(?:^|=)\s*(?:vaarg|vanext)\s/m.test(code) && !/\bva_arg\b/.test(code)) return '1.3';
  if (NAMED_CONSTANT.test(code)) return '1.2';
  return undefined;
}

/**
 * Whether a text is LLVM 2.0's (r36867's grammar): it defines a function with `define`, names a
 * global with `@`, or spells an integer type `iN` — none of which any 1.x release's lexer took
 * (1.x names were all `%`, its integer types words, its functions defined without a keyword).
 *
 * @category Assemble
 */
export function isLlvm2Text(text: string): boolean {
  const code = codeOf(text);
  return /^\s*define\s/m.test(code) || /(?:^|[\s,(=[{<*])@(?:[-a-zA-Z$._0-9]|"")/m.test(code) || /(?:^|[\s,(=[{<])i[0-9]+(?:[\s*,)\]}>]|$)/m.test(code);
}

/**
 * What one family of dialects' lexer cuts its own way (`lexer.ts` reads it). LLVM 1.x's flex
 * lexers and r36867's differ only in their words and sigils; white space, comments, strings,
 * labels, numbers and escapes are the same rules in both, and one lexer applies them.
 */
export interface LexicalDialect {
  /** The keywords, each a token of its own (the parser may number them by their index here). */
  readonly keywords: readonly string[];
  /** `@name`, `@N` and `@"…"` are global names (r36867's); to 1.x's lexers `@` was a character. */
  readonly globalSigil: boolean;
  /** `i` and digits is a word, an integer type (r36867's `iN`). */
  readonly integerTypes: boolean;
  /** `%-N` is a numbered value (1.x's lexers took a sign there); to r36867's it is a name. */
  readonly negativeNumbers: boolean;
}

/** The keywords LLVM 1.x's lexers and r36867's share. */
const SHARED_KEYWORDS: readonly string[] = [
  'begin',
  'end',
  'true',
  'false',
  'declare',
  'global',
  'constant',
  'internal',
  'linkonce',
  'weak',
  'appending',
  'dllimport',
  'dllexport',
  'extern_weak',
  'external',
  'zeroinitializer',
  'undef',
  'null',
  'to',
  'tail',
  'target',
  'triple',
  'deplibs',
  'datalayout',
  'volatile',
  'align',
  'section',
  'module',
  'asm',
  'sideeffect',
  'cc',
  'ccc',
  'fastcc',
  'coldcc',
  'x86_stdcallcc',
  'x86_fastcallcc',
  'void',
  'float',
  'double',
  'label',
  'type',
  'opaque',
  'add',
  'sub',
  'mul',
  'udiv',
  'sdiv',
  'fdiv',
  'urem',
  'srem',
  'frem',
  'and',
  'or',
  'xor',
  'phi',
  'call',
  'select',
  'shl',
  'va_arg',
  'ret',
  'br',
  'switch',
  'invoke',
  'unwind',
  'unreachable',
  'malloc',
  'alloca',
  'free',
  'load',
  'store',
  'getelementptr',
  'extractelement',
  'insertelement',
  'shufflevector',
];

/** LLVM 1.x's lexers: its own words besides the shared ones (including those later 1.x releases dropped: LLVM 1.9's lexer took them all). */
export const LEXICAL_1X: LexicalDialect = {
  keywords: [
    ...SHARED_KEYWORDS,
    ...[
      'uninitialized',
      'implementation',
      'except',
      'not',
      'endian',
      'pointersize',
      'little',
      'big',
      'csretcc',
      'bool',
      'sbyte',
      'ubyte',
      'short',
      'ushort',
      'int',
      'uint',
      'long',
      'ulong',
      'div',
      'rem',
      'setne',
      'seteq',
      'setlt',
      'setgt',
      'setle',
      'setge',
      'cast',
      'shr',
      'vanext',
      'vaarg',
    ],
  ],
  globalSigil: false,
  integerTypes: false,
  negativeNumbers: true,
};

/** r36867's lexer (LLVM 2.0-development): `@` globals, `iN` types and the words it added. */
export const LEXICAL_2_0: LexicalDialect = {
  keywords: [
    ...SHARED_KEYWORDS,
    ...[
      'define',
      'hidden',
      'protected',
      'thread_local',
      'alias',
      'inreg',
      'sret',
      'nounwind',
      'noreturn',
      'lshr',
      'ashr',
      'icmp',
      'fcmp',
      'eq',
      'ne',
      'slt',
      'sgt',
      'sle',
      'sge',
      'ult',
      'ugt',
      'ule',
      'uge',
      'oeq',
      'one',
      'olt',
      'ogt',
      'ole',
      'oge',
      'ord',
      'uno',
      'ueq',
      'une',
      'trunc',
      'zext',
      'sext',
      'fptrunc',
      'fpext',
      'uitofp',
      'sitofp',
      'fptoui',
      'fptosi',
      'inttoptr',
      'ptrtoint',
      'bitcast',
    ],
  ],
  globalSigil: true,
  integerTypes: true,
  negativeNumbers: false,
};

/**
 * What one family of dialects' parser says and takes its own way, where the grammar is otherwise
 * the same (`parser-base.ts` reads it): its lexer, its calling-convention words, and the wording of
 * the messages its parser has always given (each dialect's messages stay exactly as they were).
 */
export interface SyntaxDialect {
  readonly lexical: LexicalDialect;
  /** `cc` words and their numbers (LLVM 1.9 had `csretcc`, r36867 a parameter attribute instead). */
  readonly callingConventions: Readonly<Record<string, number>>;
  /** How a message shows a number token: `the number 5` (1.x) or `'5'` (2.0). */
  readonly numberShown: 'the number' | 'quoted';
  /** What "expected … (a string)" calls a string token. */
  readonly stringNoun: string;
  /** What follows a count that does not fit 32 bits (`alignment 8589934592 is too large`). */
  readonly tooLarge: string;
  /** A section name holding `"` or `\`. */
  readonly badSectionName: string;
  /** More type nodes than `maxTypeNodes`. */
  tooManyTypes(limit: number): string;
}

/** LLVM 1.x text (every 1.x release: LLVM 1.9's parser took them all). */
export const SYNTAX_1X: SyntaxDialect = {
  lexical: LEXICAL_1X,
  callingConventions: { ccc: 0, csretcc: 1, fastcc: 8, coldcc: 9, x86_stdcallcc: 64, x86_fastcallcc: 65 },
  numberShown: 'the number',
  stringNoun: 'a quoted string',
  tooLarge: 'is too large',
  badSectionName: 'a section name cannot hold a quote or a backslash',
  tooManyTypes: (limit) => `more than ${limit} types`,
};

/** r36867's LLVM 2.0-development text. */
export const SYNTAX_2_0: SyntaxDialect = {
  lexical: LEXICAL_2_0,
  callingConventions: { ccc: 0, fastcc: 8, coldcc: 9, x86_stdcallcc: 64, x86_fastcallcc: 65 },
  numberShown: 'quoted',
  stringNoun: 'a string',
  tooLarge: 'is larger than 32 bits',
  badSectionName: 'invalid character in section name',
  tooManyTypes: (limit) => `more than the limit of ${limit} type nodes`,
};
