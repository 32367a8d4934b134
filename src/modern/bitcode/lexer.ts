/**
 * Tokens of the modern IR that `printModern` writes (the subset the bitcode writer reads back:
 * see parse-ir.ts). Strings are byte strings: one char per byte, `\XX` escapes decoded, other
 * characters as their UTF-8 bytes, as `llvm-as` reads a file's bytes.
 *
 * The lexer is pulled by the parser, one token at a time, and keeps no array of tokens: the
 * read-back of a large module (three megabytes of text, some 700,000 tokens) would otherwise
 * spend more time allocating and collecting token objects than reading them. It works on char
 * codes, and hands out one string object per distinct keyword and per distinct name: keywords
 * are the parser's own literals (so comparing them is comparing pointers), names the same key
 * string at every use (so the maps keyed by them hash each name once).
 */
import { UpgradeError } from '../upgrade-error.js';

export const enum Tok {
  /** The end of the text. */
  End,
  /** A bare word: `define`, `i32`, `getelementptr`. */
  Word,
  /** A number as written (`-5`, `1.5e+00`, `0x3FF0000000000000`). */
  Num,
  /** `( ) [ ] { } < > , = * ~`, `...` and `!{` (`~`: a function body written without its text: parse-ir.ts). */
  Punct,
  /** `%x`/`@x`: the name key (ir.ts, isNumberedName). */
  Local,
  Global,
  /** `name:` or `"name":` or `3:` at a block's start: the label's key. */
  Label,
  /** `"…"`. */
  Str,
  /** `c"…"`. */
  CStr,
  /** `!"…"`. */
  MStr,
  /** `!name`/`!3` (the text without the `!`). */
  Meta,
}

/** The most tokens a text may have (a bound on the work a damaged input can cause). */
export const MAX_TOKENS = 1 << 26;

/** Which character codes below 128 a bare name may hold (`[-a-zA-Z$._0-9]`): a table, not a regular expression per character. */
const NAME_CHAR = new Uint8Array(128);
for (const c of '-$._0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ') NAME_CHAR[c.charCodeAt(0)] = 1;
const isNameCode = (code: number): boolean => code < 128 && NAME_CHAR[code] === 1;
const isDigitCode = (code: number): boolean => code >= 48 && code <= 57;
/** The value of a hex digit's code, or -1. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(d)] = d;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(d)] = d;
}
const hexValue = (code: number): number => (code < 128 ? HEX_VALUE[code]! : -1);
/** One-character punctuation, as the literal strings the parser compares with. */
const PUNCT: readonly (string | undefined)[] = (() => {
  const out: (string | undefined)[] = [];
  // `~`: a body lowered straight to records rather than printed (parse-ir.ts, ModernIrReader).
  for (const p of ['(', ')', '[', ']', '{', '}', '<', '>', ',', '=', '*', '~']) out[p.charCodeAt(0)] = p;
  return out;
})();

/**
 * Numbered names (`%3`, `@0`) are kept in arrays by number, the lexer's keys and the parser's
 * values: the numbers grow one by one through a function, and are looked up by index rather than
 * by hash. An array grows to `n` only when `n` is below MAX_INDEXED and at most twice its length
 * (or 65,536) ahead, so that a name like `%99999999` in a short text allocates nothing; such a
 * name is read as any other.
 */
export const MAX_INDEXED = 1 << 24;
export function indexable(n: number, length: number): boolean {
  return n < MAX_INDEXED && n < Math.max(2 * length, length + 65536);
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** Encodes a JS string's characters as UTF-8 bytes, one char per byte. */
function utf8Bytes(s: string): string {
  if (!/[^\x00-\x7f]/.test(s)) return s;
  return Array.from(new TextEncoder().encode(s), (b) => String.fromCharCode(b)).join('');
}

export class IrSyntaxError extends UpgradeError {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`the modern IR could not be read back for bitcode (line ${line}, column ${column}): ${message}`);
  }
}

/** Line and column (1-based) of offset `at` in `text`. */
export function lineColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: at - start + 1 };
}

/**
 * Strings by the span of text they were read from: one entry per distinct span, found by its
 * hash and compared in place (no slice of the text to look one up). Grows with the distinct
 * spans, which the text's length bounds.
 */
class SpanTable {
  private slots = new Int32Array(1024);
  private readonly hashes: number[] = [];
  private readonly raws: string[] = [];
  readonly values: string[] = [];

  /** The entry of the text whose code units are `codes[start, end)` and hash `hash`, or -1. */
  find(codes: Uint16Array, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s]!;
      if (e === 0) return -1;
      const k = e - 1;
      if (this.hashes[k] === hash) {
        const raw = this.raws[k]!;
        if (raw.length === length && holds(codes, start, raw)) return k;
      }
    }
  }

  add(raw: string, value: string, hash: number): number {
    const k = this.raws.length;
    this.hashes.push(hash);
    this.raws.push(raw);
    this.values.push(value);
    if (this.raws.length * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(this.slots, k);
    return k;
  }

  private place(slots: Int32Array, k: number): void {
    const mask = slots.length - 1;
    let s = this.hashes[k]! & mask;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = k + 1;
  }

  private rehash(size: number): void {
    const slots = new Int32Array(size);
    for (let k = 0; k < this.raws.length; k++) this.place(slots, k);
    this.slots = slots;
  }
}

/** Whether `codes` hold `raw` from `start`. */
function holds(codes: Uint16Array, start: number, raw: string): boolean {
  for (let i = 0; i < raw.length; i++) if (codes[start + i] !== raw.charCodeAt(i)) return false;
  return true;
}

/**
 * The code units of `text` (what charCodeAt reads), then PADDING zeros: the lexer reads them
 * from an array, not from the string, which `printModern` hands over as a rope of pieces
 * whose every charCodeAt would find its way through the rope first. Past the end the lexer
 * reads a zero, which no token holds, as it would read NaN from the string.
 */
function codeUnits(text: string): Uint16Array {
  const codes = new Uint16Array(text.length + PADDING);
  // UTF-8 is one byte a code unit exactly when the text is ASCII, as printModern's nearly always is.
  const ascii = new TextEncoder().encode(text);
  if (ascii.length === text.length) codes.set(ascii);
  else for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i);
  return codes;
}
const PADDING = 4;

function hashOf(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * The keywords as the parser's literals: a word of the text that is one of them is handed out as
 * the literal itself. A word not listed is read all the same, only compared more slowly.
 */
export class Keywords {
  readonly table = new SpanTable();
  constructor(words: Iterable<string>) {
    for (const w of new Set(words)) this.table.add(w, w, hashOf(w));
  }
}

/** Names of values and labels: the key of a name as ir.ts spells it. */
function nameKey(raw: string): string {
  for (let i = 0; i < raw.length; i++) if (!isDigitCode(raw.charCodeAt(i))) return 'n:' + raw;
  return raw.length ? '#' + raw : 'n:';
}

/** What the lexer holds of its current token, for looking one token ahead and coming back. */
interface LexerState {
  kind: Tok;
  at: number;
  end: number;
  val: string;
  int: number;
  integer: boolean;
  plain: boolean;
  index: number;
  count: number;
}

/**
 * The tokens of `text`, one at a time: the fields describe the current token, `advance()` moves
 * to the next. Throws IrSyntaxError (line and column) for a character no token begins with.
 */
export class Lexer {
  kind: Tok = Tok.End;
  /** Where the current token begins. */
  at = 0;
  /** Word: the word; Local, Global, Label: the name key; Str, CStr, MStr: the bytes; Meta: the name; Punct: the punctuation. */
  val = '';
  /** Num: the value when it is a decimal integer of at most 15 digits, else NaN. */
  int = Number.NaN;
  /** Num: a decimal integer (`-?[0-9]+`). */
  integer = false;
  /** Num: digits only (`[0-9]+`). */
  plain = false;
  /** Local, Global: N for a numbered name `%N` (no leading zero, below MAX_INDEXED), else -1. */
  index = -1;
  /** Where the current token ends (where the next one is looked for). */
  private end = 0;
  private count = 0;
  private readonly names = new SpanTable();
  private readonly words = new SpanTable();
  private codes: Uint16Array;

  constructor(
    private text: string,
    private readonly keywords: Keywords,
  ) {
    this.codes = codeUnits(text);
    this.scan();
  }

  /**
   * Starts over on another text, keeping the names and words met so far (the reader lexes the
   * module's text, and many short texts, one type or constant each, for the bodies lowered
   * directly).
   */
  restart(text: string): void {
    this.text = text;
    this.codes = codeUnits(text);
    this.end = 0;
    this.count = 0;
    this.scan();
  }

  /** Moves to the next token. */
  advance(): void {
    this.scan();
  }

  /** Comes back to the token that begins at `at` (one this lexer handed out before). */
  reset(at: number): void {
    this.end = at;
    this.scan();
  }

  /** The text of the current token as written. */
  raw(): string {
    return this.text.slice(this.at, this.end);
  }

  /** The code of the first character of the token after the current one (-1 at the end): a look ahead that reads no token. */
  nextChar(): number {
    const text = this.text;
    const codes = this.codes;
    const n = text.length;
    let i = this.end;
    while (i < n) {
      const c = codes[i]!;
      if (c === 32 || c === 10 || c === 9 || c === 13) i++;
      else if (c === 59) {
        const e = text.indexOf('\n', i);
        i = e < 0 ? n : e;
      } else return c;
    }
    return -1;
  }

  /** The kind of the token after the current one. */
  nextKind(): Tok {
    const saved = this.save();
    this.scan();
    const kind = this.kind;
    this.restore(saved);
    return kind;
  }

  fail(msg: string, at: number = this.at): never {
    const { line, column } = lineColumn(this.text, at);
    throw new IrSyntaxError(msg, line, column);
  }

  private save(): LexerState {
    return {
      kind: this.kind,
      at: this.at,
      end: this.end,
      val: this.val,
      int: this.int,
      integer: this.integer,
      plain: this.plain,
      index: this.index,
      count: this.count,
    };
  }

  private restore(s: LexerState): void {
    this.kind = s.kind;
    this.at = s.at;
    this.end = s.end;
    this.val = s.val;
    this.int = s.int;
    this.integer = s.integer;
    this.plain = s.plain;
    this.index = s.index;
    this.count = s.count;
  }

  private set(kind: Tok, at: number, end: number, val: string): void {
    this.kind = kind;
    this.at = at;
    this.end = end;
    this.val = val;
    this.index = -1;
  }

  /** The keys of numbered names (`#N`) by N, as far as `indexable` lets them grow. */
  private readonly numberedKeys: string[] = [];

  /**
   * Reads `N` of `%N` at `start` when it is a plain number that `indexable` allows: sets `end`,
   * `val` (the key, one string per N) and `index` (N), and says whether it did.
   */
  private numberedName(start: number): boolean {
    const text = this.text;
    const codes = this.codes;
    let j = start;
    let c = codes[j]!;
    if (!isDigitCode(c) || (c === 48 && isDigitCode(codes[j + 1]!))) return false;
    let n = 0;
    for (; isDigitCode(c); c = codes[++j]!) {
      n = n * 10 + (c - 48);
      if (n >= MAX_INDEXED) return false;
    }
    if (isNameCode(c)) return false;
    const keys = this.numberedKeys;
    if (!indexable(n, keys.length)) return false;
    while (keys.length <= n) keys.push('');
    let key = keys[n]!;
    if (key === '') keys[n] = key = '#' + text.slice(start, j);
    this.end = j;
    this.val = key;
    this.index = n;
    return true;
  }

  private scan(): void {
    const text = this.text;
    const codes = this.codes;
    const n = text.length;
    let i = this.end;
    for (;;) {
      if (i >= n) {
        this.set(Tok.End, n, n, '');
        return;
      }
      const c = codes[i]!;
      if (c === 32 || c === 10 || c === 9 || c === 13) i++;
      else if (c === 59) {
        const e = text.indexOf('\n', i);
        i = e < 0 ? n : e;
      } else break;
    }
    if (++this.count > MAX_TOKENS) this.fail(`more than ${MAX_TOKENS} tokens`, i);
    const c = codes[i]!;
    const next = i + 1 < n ? codes[i + 1]! : -1;
    if (c === 37 || c === 64) {
      // % or @
      const kind = c === 37 ? Tok.Local : Tok.Global;
      if (next === 34) {
        const s = this.quoted(i + 1);
        this.set(kind, i, this.quotedEnd, 'n:' + s);
        return;
      }
      if (this.numberedName(i + 1)) {
        this.kind = kind;
        this.at = i;
        return;
      }
      const e = this.name(i + 1);
      if (e === i + 1) this.fail(`a name after ${text[i]}`, i);
      this.set(kind, i, e, this.nameValue);
      return;
    }
    if (c === 33) {
      // !
      if (next === 34) {
        const s = this.quoted(i + 1);
        this.set(Tok.MStr, i, this.quotedEnd, s);
      } else if (next === 123) this.set(Tok.Punct, i, i + 2, '!{');
      else {
        let e = i + 1;
        while (e < n && isNameCode(codes[e]!)) e++;
        this.set(Tok.Meta, i, e, text.slice(i + 1, e));
      }
      return;
    }
    if (c === 34) {
      const s = this.quoted(i);
      const e = this.quotedEnd;
      if (codes[e]! === 58) this.set(Tok.Label, i, e + 1, 'n:' + s);
      else this.set(Tok.Str, i, e, s);
      return;
    }
    if (c === 99 && next === 34) {
      // c"…"
      const s = this.quoted(i + 1);
      this.set(Tok.CStr, i, this.quotedEnd, s);
      return;
    }
    if (c === 46 && next === 46 && codes[i + 2]! === 46) {
      this.set(Tok.Punct, i, i + 3, '...');
      return;
    }
    const p = c < 128 ? PUNCT[c] : undefined;
    if (p !== undefined) {
      this.set(Tok.Punct, i, i + 1, p);
      return;
    }
    if (isDigitCode(c) || (c === 45 && isDigitCode(next))) {
      this.number(i);
      return;
    }
    if (isNameCode(c)) {
      const e = this.word(i);
      if (codes[e]! === 58) {
        this.name(i);
        this.set(Tok.Label, i, e + 1, this.nameValue);
      } else this.set(Tok.Word, i, e, this.wordValue);
      return;
    }
    this.fail(`unexpected character '${text[i]}'`, i);
  }

  /** The key of the name read last by `name`. */
  private nameValue = '';

  /** The hash of the characters `bare` read last. */
  private bareHash = 0;

  /** Reads the characters a bare name may hold from `start`: their end, and their hash in `bareHash`. */
  private bare(start: number): number {
    const codes = this.codes;
    const n = this.text.length;
    let h = FNV_OFFSET;
    let j = start;
    while (j < n) {
      const c = codes[j]!;
      if (c >= 128 || NAME_CHAR[c] === 0) break;
      h = Math.imul(h ^ c, FNV_PRIME);
      j++;
    }
    this.bareHash = h;
    return j;
  }

  /** Reads a bare name at `start`: its end, and its key in `nameValue` (one string per distinct name). */
  private name(start: number): number {
    const j = this.bare(start);
    const h = this.bareHash;
    let k = this.names.find(this.codes, start, j, h);
    if (k < 0) {
      const raw = this.text.slice(start, j);
      k = this.names.add(raw, nameKey(raw), h);
    }
    this.nameValue = this.names.values[k]!;
    return j;
  }

  /** The word read last by `word`. */
  private wordValue = '';

  /** Reads a bare word at `start`: its end, and the word in `wordValue` (a keyword's literal when it is one). */
  private word(start: number): number {
    const codes = this.codes;
    const j = this.bare(start);
    const h = this.bareHash;
    const known = this.keywords.table;
    let k = known.find(codes, start, j, h);
    if (k >= 0) {
      this.wordValue = known.values[k]!;
      return j;
    }
    k = this.words.find(codes, start, j, h);
    if (k < 0) {
      const raw = this.text.slice(start, j);
      k = this.words.add(raw, raw, h);
    }
    this.wordValue = this.words.values[k]!;
    return j;
  }

  /** A number at `i` (`-?(0x[0-9A-Fa-f]+|[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)`), or a label that begins with digits. */
  private number(i: number): void {
    const text = this.text;
    const codes = this.codes;
    const n = text.length;
    let j = i;
    const negative = codes[j]! === 45;
    if (negative) j++;
    let hex = false;
    let integer = true;
    let value = 0;
    const digits = j;
    if (codes[j]! === 48 && codes[j + 1]! === 120 && hexValue(codes[j + 2]!) >= 0) {
      hex = true;
      integer = false;
      j += 2;
      while (j < n && hexValue(codes[j]!) >= 0) j++;
    } else {
      for (let c = codes[j]!; isDigitCode(c); c = codes[++j]!) value = value * 10 + (c - 48);
      const digitCount = j - digits;
      if (codes[j]! === 46) {
        integer = false;
        j++;
        while (isDigitCode(codes[j]!)) j++;
      }
      const e = codes[j]!;
      if (e === 101 || e === 69) {
        let k = j + 1;
        const sign = codes[k]!;
        if (sign === 43 || sign === 45) k++;
        if (isDigitCode(codes[k]!)) {
          integer = false;
          j = k;
          while (isDigitCode(codes[j]!)) j++;
        }
      }
      if (digitCount > 15) value = Number.NaN;
    }
    const end = j;
    const after = end < n ? codes[end]! : -1;
    if (after === 58 && integer && !negative) {
      // `3:`: a numbered block's label
      this.name(i);
      this.set(Tok.Label, i, end + 1, this.nameValue);
      return;
    }
    if (after >= 0 && isNameCode(after) && !hex) {
      // a name that begins with digits (only as a label: values' are quoted)
      const be = this.name(i);
      if (codes[be]! === 58) {
        this.set(Tok.Label, i, be + 1, this.nameValue);
        return;
      }
    }
    this.set(Tok.Num, i, end, '');
    this.integer = integer;
    this.plain = integer && !negative;
    this.int = integer ? (negative ? -value : value) : Number.NaN;
  }

  /** Where the string read last by `quoted` ends (after its closing quote). */
  private quotedEnd = 0;

  /** The bytes of the string whose opening quote is at `start`. */
  private quoted(start: number): string {
    const text = this.text;
    const codes = this.codes;
    const n = text.length;
    let j = start + 1;
    let s = '';
    while (j < n) {
      const c = codes[j]!;
      if (c === 34) break;
      if (c === 92) {
        const hi = hexValue(codes[j + 1]!);
        const lo = hexValue(codes[j + 2]!);
        if (hi >= 0 && lo >= 0) {
          s += String.fromCharCode(hi * 16 + lo);
          j += 3;
          continue;
        }
        if (codes[j + 1]! === 92) {
          s += '\\';
          j += 2;
          continue;
        }
      }
      let k = j;
      let ascii = true;
      for (; k < n; k++) {
        const d = codes[k]!;
        if (d === 34 || d === 92) break;
        if (d >= 128) ascii = false;
      }
      if (k === j) k++;
      const run = text.slice(j, k);
      s += ascii ? run : utf8Bytes(run);
      j = k;
    }
    if (j >= n) this.fail('unterminated string', start);
    this.quotedEnd = j + 1;
    return s;
  }
}

/** A token as a plain object (what `tokenize` lists). */
export interface Token {
  readonly kind: Tok;
  readonly at: number;
  /** The value the lexer gives (see Lexer.val); a number's text as written. */
  readonly v: string;
}

/** Every token of `text`, for tests and diagnostics: the parser pulls its tokens from a Lexer instead. */
export function tokenize(text: string, keywords: Keywords = new Keywords([])): Token[] {
  const lex = new Lexer(text, keywords);
  const out: Token[] = [];
  for (; lex.kind !== Tok.End; lex.advance()) out.push({ kind: lex.kind, at: lex.at, v: lex.kind === Tok.Num ? lex.raw() : lex.val });
  return out;
}
