/**
 * The tokens of LLVM assembly, as the releases' flex lexers (`lib/AsmParser/Lexer.l`) cut them,
 * for LLVM 1.x text and r36867's LLVM 2.0-development text alike: keywords, `%names` and `%N`
 * slots (with r36867, `@names`, `@N`, `@"…"` and `iN` types too), `label:` definitions,
 * "strings", integers (decimal, negative, `s0x…`/`u0x…`), floating point (decimal with a point,
 * or `0x…` IEEE bits) and single characters. Flex took the longest match of its rules, and any
 * other character as itself (so `x` in `[4 x int]` and `c` before a string are characters).
 * What the dialects' lexers cut differently (their words and sigils) is a `LexicalDialect`
 * (`dialect.ts`); everything else is one rule here.
 *
 * One token of look-ahead, held in the lexer's fields (no object per token: a 4 MB file has a
 * million of them). The text is a JavaScript string with one character per byte (latin1), as
 * names are raw bytes.
 */
import type { SourceText } from './assembly-error.js';
import { LEXICAL_1X, type LexicalDialect } from './dialect.js';

export const enum Tok {
  Eof,
  /** A keyword (or r36867's `iN`); `value` holds it. */
  Keyword,
  /** A single punctuation character; `value` holds it. */
  Char,
  /** `%name`: `value` is the name (no escapes: a backslash is no name character). */
  VarName,
  /** `%N` (1.x: also `%-N`): `value` holds the digits. */
  VarNumber,
  /** `name:` or `"name":` — a basic block's label; `value` is the name, escapes resolved. */
  Label,
  /** `"…"`: `value` is the raw contents (escapes not resolved: `c"…"` needs them raw). */
  String,
  /** An integer literal: `value` holds its digits (with `-` for negative, `s0x…`/`u0x…` for hex). */
  Integer,
  /** A floating-point literal: `value` holds its text. */
  Float,
  /** r36867's `@name`: `value` is the name. */
  GlobalName,
  /** r36867's `@N`: `value` holds the digits. */
  GlobalNumber,
  /** r36867's `@"…"`: `value` is the raw contents. */
  GlobalString,
}

/** LLVM 1.x's keywords, in the order the 1.x parser numbers them (`Lexer.keyword`). */
export const KEYWORD_LIST: readonly string[] = LEXICAL_1X.keywords;

/**
 * A dialect's keywords by first character and length, so that a word is found without cutting it
 * out of the text, and the token's value is the keyword's own (interned) string: the parser's
 * comparisons and table lookups with it are then pointer comparisons.
 */
type KeywordBuckets = readonly (readonly number[] | undefined)[];
const BUCKETS = new WeakMap<LexicalDialect, KeywordBuckets>();

function bucketsOf(dialect: LexicalDialect): KeywordBuckets {
  let buckets = BUCKETS.get(dialect);
  if (buckets === undefined) {
    const made: number[][] = new Array(256 * 32);
    dialect.keywords.forEach((kw, i) => (made[kw.charCodeAt(0) * 32 + kw.length] ??= []).push(i));
    BUCKETS.set(dialect, (buckets = made));
  }
  return buckets;
}

/** The index among `keywords` of the keyword that `t[p, q)` spells, or -1. */
function keywordAt(buckets: KeywordBuckets, keywords: readonly string[], t: string, p: number, q: number): number {
  const length = q - p;
  if (length >= 32) return -1;
  const bucket = buckets[t.charCodeAt(p) * 32 + length];
  if (bucket === undefined) return -1;
  for (let i = 0; i < bucket.length; i++) if (t.startsWith(keywords[bucket[i]!]!, p)) return bucket[i]!;
  return -1;
}

/** Whether `t[p, q)` is `i` and digits: r36867's integer types (`i1`, `i32`, `i17`, …). */
function isIntegerTypeWord(t: string, p: number, q: number): boolean {
  if (q - p < 2 || t.charCodeAt(p) !== 105 /* i */) return false;
  for (let i = p + 1; i < q; i++) if (!isDigit(t.charCodeAt(i))) return false;
  return true;
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
  /** For a keyword of the dialect's list, its index there (so the parser can look things up by number); -1 for `iN`. */
  keyword = -1;
  /** Offset of the current token's first character. */
  start = 0;
  private readonly keywords: readonly string[];
  private readonly buckets: KeywordBuckets;
  private readonly globalSigil: boolean;
  private readonly integerTypes: boolean;
  private readonly negativeNumbers: boolean;

  constructor(
    readonly source: SourceText,
    dialect: LexicalDialect = LEXICAL_1X,
  ) {
    this.text = source.text;
    this.keywords = dialect.keywords;
    this.buckets = bucketsOf(dialect);
    this.globalSigil = dialect.globalSigil;
    this.integerTypes = dialect.integerTypes;
    this.negativeNumbers = dialect.negativeNumbers;
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
    if (c === 37 /* % */) return this.sigil(p, false);
    if (c === 34 /* " */) return this.quoted(p);
    if (IDENT[c] === 1 || c === 43 /* + */) return this.word(p);
    if (c === 64 /* @ */ && this.globalSigil) return this.sigil(p, true);
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

  /** The character at `p` as a token of its own (flex's `.` rule). */
  private single(p: number): void {
    this.kind = Tok.Char;
    this.value = this.text[p]!;
    this.pos = p + 1;
  }

  /** `%` (or `@`) and what follows: a number, a name, r36867's `@"…"`, or the character alone. */
  private sigil(p: number, global: boolean): void {
    const t = this.text;
    let q = p + 1;
    const c = t.charCodeAt(q);
    if (isDigit(c)) {
      while (isDigit(t.charCodeAt(q))) q++;
      this.kind = global ? Tok.GlobalNumber : Tok.VarNumber;
      this.value = digitsText(t, p + 1, q);
    } else if (c === 45 /* - */ && this.negativeNumbers && isDigit(t.charCodeAt(q + 1))) {
      q++;
      while (isDigit(t.charCodeAt(q))) q++;
      this.kind = Tok.VarNumber;
      this.value = t.slice(p + 1, q);
    } else if (IDENT[c] === 1) {
      while (IDENT[t.charCodeAt(q)] === 1) q++;
      this.kind = global ? Tok.GlobalName : Tok.VarName;
      // No escapes to resolve: a backslash is no identifier character (only quoted names have them).
      this.value = t.slice(p + 1, q);
    } else if (c === 34 /* " */ && global) {
      const close = t.indexOf('"', p + 2);
      if (close < 0) this.fail('a string with no closing quote', p);
      this.kind = Tok.GlobalString;
      this.value = t.slice(p + 2, close);
      q = close + 1;
    } else return this.single(p);
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
    // A keyword (the common case, looked up here without a call: see keywordOrType).
    const w = keywordAt(this.buckets, this.keywords, t, p, q);
    if (w >= 0) {
      this.kind = Tok.Keyword;
      this.value = this.keywords[w]!;
      this.keyword = w;
      this.pos = q;
      return;
    }
    if (this.integerTypes && this.keywordOrType(p, q)) return;
    if ((c === 115 || c === 117) /* s, u */ && t.charCodeAt(p + 1) === 48 && t.charCodeAt(p + 2) === 120 && isHex(t.charCodeAt(p + 3))) {
      let e = p + 3;
      while (isHex(t.charCodeAt(e))) e++;
      this.kind = Tok.Integer;
      this.value = t.slice(p, e);
      this.pos = e;
      return;
    }
    // flex takes the longest rule that matches here: a keyword that is a prefix of the run
    // (`cc42` is `cc` then `42`), else one character (`x`, `c`, …).
    for (let e = q - 1; e > p + 1; e--) if (this.keywordOrType(p, e)) return;
    // Anything else is one character to the grammar (flex's `.` rule): `x`, `c`, …
    this.single(p);
  }

  /** When `t[p, q)` is a keyword (or, where the dialect has them, an `iN` type), makes it the token. */
  private keywordOrType(p: number, q: number): boolean {
    const t = this.text;
    const w = keywordAt(this.buckets, this.keywords, t, p, q);
    if (w >= 0) {
      this.kind = Tok.Keyword;
      this.value = this.keywords[w]!;
      this.keyword = w;
      this.pos = q;
      return true;
    }
    if (this.integerTypes && isIntegerTypeWord(t, p, q)) {
      this.kind = Tok.Keyword;
      this.value = t.slice(p, q);
      this.keyword = -1;
      this.pos = q;
      return true;
    }
    return false;
  }

  private number(p: number): void {
    const t = this.text;
    let q = p;
    const sign = t.charCodeAt(q);
    if (sign === 45 || sign === 43) q++;
    if (!isDigit(t.charCodeAt(q))) return this.single(p);
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
    // `+5` is no integer to the lexer: `+` is a character.
    if (sign === 43) return this.single(p);
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
