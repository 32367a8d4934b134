/**
 * The tokens of LLVM 1.x assembly, as the releases' flex lexers (`lib/AsmParser/Lexer.l`) cut
 * them: keywords, `%names` and `%N` slots, `label:` definitions, "strings", integers (decimal,
 * negative, `s0x…`/`u0x…`), floating point (decimal with a point, or `0x…` IEEE bits) and single
 * characters. One token of look-ahead, held in the lexer's fields (no object per token: a 4 MB
 * file has a million of them).
 *
 * The text is a JavaScript string with one character per byte (latin1), as names are raw bytes.
 */
import type { SourceText } from './assembly-error.js';

export const enum Tok {
  Eof,
  /** A keyword; `value` holds it. */
  Keyword,
  /** A single punctuation character; `value` holds it. */
  Char,
  /** `%name` or a quoted name: `value` is the name, escapes resolved. */
  VarName,
  /** `%N`: `value` holds the digits. */
  VarNumber,
  /** `name:` or `"name":` — a basic block's label; `value` is the name. */
  Label,
  /** `"…"`: `value` is the raw contents (escapes not resolved: `c"…"` needs them raw). */
  String,
  /** An integer literal: `value` holds its digits (with `-` for negative, `0x…` for hex). */
  Integer,
  /** A floating-point literal: `value` holds its text. */
  Float,
}

/** Every keyword of the 1.x lexers, including those that later releases dropped. */
export const KEYWORD_LIST: readonly string[] = [
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
  'uninitialized',
  'external',
  'implementation',
  'zeroinitializer',
  'undef',
  'null',
  'to',
  'except',
  'not',
  'tail',
  'target',
  'triple',
  'deplibs',
  'endian',
  'pointersize',
  'datalayout',
  'little',
  'big',
  'volatile',
  'align',
  'section',
  'module',
  'asm',
  'sideeffect',
  'cc',
  'ccc',
  'csretcc',
  'fastcc',
  'coldcc',
  'x86_stdcallcc',
  'x86_fastcallcc',
  'void',
  'bool',
  'sbyte',
  'ubyte',
  'short',
  'ushort',
  'int',
  'uint',
  'long',
  'ulong',
  'float',
  'double',
  'label',
  'type',
  'opaque',
  'add',
  'sub',
  'mul',
  'div',
  'udiv',
  'sdiv',
  'fdiv',
  'rem',
  'urem',
  'srem',
  'frem',
  'and',
  'or',
  'xor',
  'setne',
  'seteq',
  'setlt',
  'setgt',
  'setle',
  'setge',
  'phi',
  'call',
  'cast',
  'select',
  'shl',
  'shr',
  'vanext',
  'vaarg',
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
/**
 * The keywords by first character and length, so that a word is found without cutting it out of
 * the text, and the token's value is the keyword's own (interned) string: the parser's
 * comparisons and table lookups with it are then pointer comparisons.
 */
const KEYWORD_BUCKETS: (number[] | undefined)[] = new Array(256 * 32);
KEYWORD_LIST.forEach((kw, i) => (KEYWORD_BUCKETS[kw.charCodeAt(0) * 32 + kw.length] ??= []).push(i));

/** The index in `KEYWORD_LIST` of the keyword that `t[p, q)` spells, or -1. */
function keywordAt(t: string, p: number, q: number): number {
  const length = q - p;
  if (length >= 32) return -1;
  const bucket = KEYWORD_BUCKETS[t.charCodeAt(p) * 32 + length];
  if (bucket === undefined) return -1;
  for (let i = 0; i < bucket.length; i++) if (t.startsWith(KEYWORD_LIST[bucket[i]!]!, p)) return bucket[i]!;
  return -1;
}

/** Characters of a bare identifier or label: `[-a-zA-Z$._0-9]`. */
const IDENT = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const ch = String.fromCharCode(c);
  IDENT[c] = /[-a-zA-Z$._0-9]/.test(ch) ? 1 : 0;
}
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

export class Lexer {
  private readonly text: string;
  private pos = 0;
  kind: Tok = Tok.Eof;
  value = '';
  /** For a keyword, its index in `KEYWORD_LIST` (so the parser can look things up by number). */
  keyword = -1;
  /** Offset of the current token's first character. */
  start = 0;

  constructor(readonly source: SourceText) {
    this.text = source.text;
    this.next();
  }

  /** Moves to the next token. */
  next(): void {
    const t = this.text;
    const n = t.length;
    let p = this.pos;
    // White space and `; comments` to the end of the line.
    for (;;) {
      if (p >= n) {
        this.kind = Tok.Eof;
        this.start = this.pos = n;
        this.value = '';
        return;
      }
      const c = t.charCodeAt(p);
      if (c === 32 || c === 9 || c === 10 || c === 13) p++;
      else if (c === 59) {
        const e = t.indexOf('\n', p);
        p = e < 0 ? n : e + 1;
      } else break;
    }
    this.start = p;
    const c = t.charCodeAt(p);
    if (c === 37 /* % */) return this.percent(p);
    if (c === 34 /* " */) return this.quoted(p);
    if (IDENT[c] === 1 || c === 43 /* + */) return this.word(p);
    this.kind = Tok.Char;
    this.value = t[p]!;
    this.pos = p + 1;
  }

  /**
   * When the current token starts the bare word `word` (a word that is no keyword of the later
   * lexers, such as LLVM 1.1's `const`, which the longest-keyword rule would cut into pieces),
   * moves past it to the next token and returns true.
   */
  takeBareWord(word: string): boolean {
    const end = this.start + word.length;
    if (!this.text.startsWith(word, this.start) || IDENT[this.text.charCodeAt(end)] === 1) return false;
    this.pos = end;
    this.next();
    return true;
  }

  fail(message: string, at = this.start): never {
    throw this.source.error(message, at);
  }

  private percent(p: number): void {
    const t = this.text;
    let q = p + 1;
    const c = t.charCodeAt(q);
    if (isDigit(c)) {
      while (isDigit(t.charCodeAt(q))) q++;
      this.kind = Tok.VarNumber;
      this.value = digitsText(t, p + 1, q);
    } else if (c === 45 /* - */ && isDigit(t.charCodeAt(q + 1))) {
      q++;
      while (isDigit(t.charCodeAt(q))) q++;
      this.kind = Tok.VarNumber;
      this.value = t.slice(p + 1, q);
    } else if (IDENT[c] === 1) {
      while (IDENT[t.charCodeAt(q)] === 1) q++;
      this.kind = Tok.VarName;
      // No escapes to resolve: a backslash is no identifier character (only quoted names have them).
      this.value = t.slice(p + 1, q);
    } else {
      this.kind = Tok.Char;
      this.value = '%';
      q = p + 1;
    }
    this.pos = q;
  }

  private quoted(p: number): void {
    const t = this.text;
    const close = t.indexOf('"', p + 1);
    if (close < 0) this.fail('a string with no closing quote', p);
    const contents = t.slice(p + 1, close);
    if (t.charCodeAt(close + 1) === 58 /* : */ && contents.length > 0) {
      this.kind = Tok.Label;
      this.value = unescapeName(contents);
      this.pos = close + 2;
      return;
    }
    this.kind = Tok.String;
    this.value = contents;
    this.pos = close + 1;
  }

  /**
   * A run of identifier characters: a label (`name:`), a keyword, a number, or one of the single
   * letters the grammar uses as characters (`x` in `[4 x int]`, `c` before a string).
   */
  private word(p: number): void {
    const t = this.text;
    let q = p;
    if (t.charCodeAt(q) === 43 /* + */) q++;
    while (IDENT[t.charCodeAt(q)] === 1) q++;
    if (t.charCodeAt(q) === 58 /* : */ && t.charCodeAt(p) !== 43) {
      this.kind = Tok.Label;
      this.value = t.slice(p, q);
      this.pos = q + 1;
      return;
    }
    const c = t.charCodeAt(p);
    if (isDigit(c) || c === 45 || c === 43) return this.number(p);
    const w = keywordAt(t, p, q);
    if (w >= 0) {
      this.kind = Tok.Keyword;
      this.value = KEYWORD_LIST[w]!;
      this.keyword = w;
      this.pos = q;
      return;
    }
    if ((c === 115 || c === 117) /* s, u */ && t.charCodeAt(p + 1) === 48 && t.charCodeAt(p + 2) === 120 && isHex(t.charCodeAt(p + 3))) {
      let e = p + 3;
      while (isHex(t.charCodeAt(e))) e++;
      this.kind = Tok.Integer;
      this.value = (c === 115 ? 's' : 'u') + t.slice(p + 1, e);
      this.pos = e;
      return;
    }
    // flex takes the longest rule that matches here: a keyword that is a prefix of the run
    // (`cc42` is `cc` then `42`), else one character (`x`, `c`, …).
    for (let e = q - 1; e > p + 1; e--) {
      const prefix = keywordAt(t, p, e);
      if (prefix >= 0) {
        this.kind = Tok.Keyword;
        this.value = KEYWORD_LIST[prefix]!;
        this.keyword = prefix;
        this.pos = e;
        return;
      }
    }
    // Anything else is one character to the grammar (flex's `.` rule): `x`, `c`, …
    this.kind = Tok.Char;
    this.value = t[p]!;
    this.pos = p + 1;
  }

  private number(p: number): void {
    const t = this.text;
    let q = p;
    const sign = t.charCodeAt(q);
    if (sign === 45 || sign === 43) q++;
    if (!isDigit(t.charCodeAt(q))) {
      this.kind = Tok.Char;
      this.value = t[p]!;
      this.pos = p + 1;
      return;
    }
    if (sign !== 45 && sign !== 43 && t.charCodeAt(q) === 48 && t.charCodeAt(q + 1) === 120 && isHex(t.charCodeAt(q + 2))) {
      // 0x…: a double as its IEEE bits.
      let e = q + 2;
      while (isHex(t.charCodeAt(e))) e++;
      this.kind = Tok.Float;
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
      this.kind = Tok.Float;
      this.value = t.slice(p, q);
      this.pos = q;
      return;
    }
    if (sign === 43) {
      // `+5` is no integer to the lexer: `+` is a character.
      this.kind = Tok.Char;
      this.value = '+';
      this.pos = p + 1;
      return;
    }
    this.kind = Tok.Integer;
    this.value = sign === 45 ? t.slice(p, q) : digitsText(t, p, q);
    this.pos = q;
  }
}

/** The texts of small numbers, made once each (`%12` and `12` recur thousands of times in a body). */
const SMALL_NUMBERS: (string | undefined)[] = new Array<string | undefined>(10000);

/** `t[p, q)`, decimal digits: a small number's shared text, or a new string. */
function digitsText(t: string, p: number, q: number): string {
  if (q - p > 4 || (t.charCodeAt(p) === 48 && q - p > 1)) return t.slice(p, q);
  let n = 0;
  for (let i = p; i < q; i++) n = n * 10 + t.charCodeAt(i) - 48;
  let s = SMALL_NUMBERS[n];
  if (s === undefined) SMALL_NUMBERS[n] = s = String(n);
  return s;
}

/** LLVM's `UnEscapeLexed`: `\XX` (two hex digits) in a name becomes that byte. */
export function unescapeName(s: string): string {
  if (s.indexOf('\\') < 0) return s;
  return unescapeBytes(s);
}

/** `\XX` → the byte; a backslash not followed by two hex digits stays as it is. */
export function unescapeBytes(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 92 && i + 2 < s.length + 0 && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2))) {
      out += String.fromCharCode(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else out += s[i];
  }
  return out;
}
