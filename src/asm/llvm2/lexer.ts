/**
 * The tokens of LLVM 2.0-development assembly as r36867's flex lexer (`lib/AsmParser/Lexer.l`)
 * cut them: keywords and `iN` types, `%local` and `@global` names (and their numbered forms
 * `%N`/`@N`), labels, strings (`"…"`, `@"…"`), integers (decimal, negative, `s0x…`/`u0x…`),
 * floating point and single characters. Flex took the longest match of its rules, and any other
 * character as itself (so `x` in `[4 x i32]` and `c` before a string are characters).
 *
 * Why its own and not the 1.x lexer (`../lexer.ts`) with more keywords: the sigils differ (`@`
 * for globals; in 1.x every name was `%`), `iN` is a family of keywords, and 1.x's keyword table
 * and its longest-keyword rule are tuned to 1.x's words. The escape rules are the shared ones.
 */
import type { SourceText } from '../assembly-error.js';
import { unescapeName } from '../lexer.js';

export const enum Tok2 {
  Eof,
  /** A keyword or an `iN` type; `value` holds it. */
  Word,
  /** A single character; `value` holds it. */
  Char,
  /** `%name` (a local value or a type name): `value` is the name, escapes resolved. */
  Local,
  /** `@name`: `value` is the name, escapes resolved. */
  Global,
  /** `%N`: `value` holds the digits. */
  LocalId,
  /** `@N`: `value` holds the digits. */
  GlobalId,
  /** `name:` or `"name":`; `value` is the name, escapes resolved. */
  Label,
  /** `"…"`: raw contents (escapes unresolved). */
  String,
  /** `@"…"`: raw contents. */
  AtString,
  /** An integer literal: digits with `-` for negative, or `s0x…`/`u0x…`. */
  Integer,
  /** A floating-point literal (decimal with a point, or `0x…` IEEE bits of a double). */
  Float,
}

/** The keywords of r36867's lexer (`iN` aside). */
export const KEYWORDS2: ReadonlySet<string> = new Set([
  'begin',
  'end',
  'true',
  'false',
  'declare',
  'define',
  'global',
  'constant',
  'internal',
  'linkonce',
  'weak',
  'appending',
  'dllimport',
  'dllexport',
  'hidden',
  'protected',
  'extern_weak',
  'external',
  'thread_local',
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
  'alias',
  'module',
  'asm',
  'sideeffect',
  'cc',
  'ccc',
  'fastcc',
  'coldcc',
  'x86_stdcallcc',
  'x86_fastcallcc',
  'inreg',
  'sret',
  'nounwind',
  'noreturn',
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
  'shl',
  'lshr',
  'ashr',
  'and',
  'or',
  'xor',
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
  'phi',
  'call',
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
  'select',
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
]);

const IDENT = new Uint8Array(256);
for (let c = 0; c < 256; c++) IDENT[c] = /[-a-zA-Z$._0-9]/.test(String.fromCharCode(c)) ? 1 : 0;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
/** The first character of a name after its sigil: `[-a-zA-Z$._]`. */
const isNameStart = (c: number): boolean => IDENT[c] === 1 && !isDigit(c);

/** Whether `w` is a keyword or an integer type (`i` and digits). */
function isWord(w: string): boolean {
  return KEYWORDS2.has(w) || /^i[0-9]+$/.test(w);
}

export class Lexer2 {
  private readonly text: string;
  private pos = 0;
  kind: Tok2 = Tok2.Eof;
  value = '';
  /** Offset of the current token's first character. */
  start = 0;

  constructor(readonly source: SourceText) {
    this.text = source.text;
    this.next();
  }

  fail(message: string, at = this.start): never {
    throw this.source.error(message, at);
  }

  next(): void {
    const t = this.text;
    const n = t.length;
    let p = this.pos;
    for (;;) {
      if (p >= n) {
        this.kind = Tok2.Eof;
        this.start = this.pos = n;
        this.value = '';
        return;
      }
      const c = t.charCodeAt(p);
      if (c === 32 || c === 9 || c === 10 || c === 13) p++;
      else if (c === 59 /* ; */) {
        const e = t.indexOf('\n', p);
        p = e < 0 ? n : e + 1;
      } else break;
    }
    this.start = p;
    const c = t.charCodeAt(p);
    if (c === 37 /* % */ || c === 64 /* @ */) return this.sigil(p, c === 64);
    if (c === 34 /* " */) return this.quoted(p);
    if (IDENT[c] === 1 || c === 43 /* + */) return this.word(p);
    this.single(p);
  }

  private single(p: number): void {
    this.kind = Tok2.Char;
    this.value = this.text[p]!;
    this.pos = p + 1;
  }

  private sigil(p: number, global: boolean): void {
    const t = this.text;
    const c = t.charCodeAt(p + 1);
    if (isDigit(c)) {
      let q = p + 1;
      while (isDigit(t.charCodeAt(q))) q++;
      this.kind = global ? Tok2.GlobalId : Tok2.LocalId;
      this.value = t.slice(p + 1, q);
      this.pos = q;
      return;
    }
    if (isNameStart(c)) {
      let q = p + 1;
      while (IDENT[t.charCodeAt(q)] === 1) q++;
      this.kind = global ? Tok2.Global : Tok2.Local;
      this.value = unescapeName(t.slice(p + 1, q));
      this.pos = q;
      return;
    }
    if (global && c === 34) {
      const close = t.indexOf('"', p + 2);
      if (close < 0) this.fail('a string with no closing quote', p);
      this.kind = Tok2.AtString;
      this.value = t.slice(p + 2, close);
      this.pos = close + 1;
      return;
    }
    this.single(p);
  }

  private quoted(p: number): void {
    const t = this.text;
    const close = t.indexOf('"', p + 1);
    if (close < 0) this.fail('a string with no closing quote', p);
    const contents = t.slice(p + 1, close);
    if (t.charCodeAt(close + 1) === 58 /* : */ && contents.length > 0) {
      this.kind = Tok2.Label;
      this.value = unescapeName(contents);
      this.pos = close + 2;
      return;
    }
    this.kind = Tok2.String;
    this.value = contents;
    this.pos = close + 1;
  }

  private word(p: number): void {
    const t = this.text;
    let q = p;
    if (t.charCodeAt(q) === 43) q++;
    while (IDENT[t.charCodeAt(q)] === 1) q++;
    if (t.charCodeAt(q) === 58 /* : */ && t.charCodeAt(p) !== 43) {
      this.kind = Tok2.Label;
      this.value = unescapeName(t.slice(p, q));
      this.pos = q + 1;
      return;
    }
    const c = t.charCodeAt(p);
    if (isDigit(c) || c === 45 || c === 43) return this.number(p);
    const w = t.slice(p, q);
    if (isWord(w)) {
      this.kind = Tok2.Word;
      this.value = w;
      this.pos = q;
      return;
    }
    if ((c === 115 || c === 117) /* s, u */ && t.charCodeAt(p + 1) === 48 && t.charCodeAt(p + 2) === 120 && isHex(t.charCodeAt(p + 3))) {
      let e = p + 3;
      while (isHex(t.charCodeAt(e))) e++;
      this.kind = Tok2.Integer;
      this.value = t.slice(p, e);
      this.pos = e;
      return;
    }
    // Flex's longest match: a keyword or `iN` that is a prefix of the run (`cc10` is `cc`, `10`).
    for (let e = q - 1; e > p + 1; e--) {
      const prefix = t.slice(p, e);
      if (isWord(prefix)) {
        this.kind = Tok2.Word;
        this.value = prefix;
        this.pos = e;
        return;
      }
    }
    this.single(p);
  }

  private number(p: number): void {
    const t = this.text;
    let q = p;
    const sign = t.charCodeAt(q);
    if (sign === 45 || sign === 43) q++;
    if (!isDigit(t.charCodeAt(q))) return this.single(p);
    if (sign !== 45 && sign !== 43 && t.charCodeAt(q) === 48 && t.charCodeAt(q + 1) === 120 && isHex(t.charCodeAt(q + 2))) {
      let e = q + 2;
      while (isHex(t.charCodeAt(e))) e++;
      this.kind = Tok2.Float;
      this.value = t.slice(p, e);
      this.pos = e;
      return;
    }
    while (isDigit(t.charCodeAt(q))) q++;
    if (t.charCodeAt(q) === 46 /* . */) {
      q++;
      while (isDigit(t.charCodeAt(q))) q++;
      const e = t.charCodeAt(q);
      if (e === 101 || e === 69) {
        let r = q + 1;
        const s = t.charCodeAt(r);
        if (s === 43 || s === 45) r++;
        if (isDigit(t.charCodeAt(r))) {
          while (isDigit(t.charCodeAt(r))) r++;
          q = r;
        }
      }
      this.kind = Tok2.Float;
      this.value = t.slice(p, q);
      this.pos = q;
      return;
    }
    if (sign === 43) return this.single(p);
    this.kind = Tok2.Integer;
    this.value = t.slice(p, q);
    this.pos = q;
  }
}
