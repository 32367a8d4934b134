/**
 * Tokens of the modern IR that `printModern` writes (the subset the bitcode writer reads back:
 * see parse-ir.ts). Strings are byte strings: one char per byte, `\XX` escapes decoded, other
 * characters as their UTF-8 bytes, as `llvm-as` reads a file's bytes.
 */
import { UpgradeError } from '../upgrade-error.js';

export type Token =
  | { readonly t: 'word' | 'num' | 'punct'; readonly v: string; readonly at: number }
  /** `%x`/`@x`: the name key (ir.ts, isNumberedName). */
  | { readonly t: 'local' | 'global'; readonly v: string; readonly at: number }
  /** `name:` or `"name":` or `3:` at a block's start: the label's key. */
  | { readonly t: 'label'; readonly v: string; readonly at: number }
  /** `"…"`, `c"…"`, `!"…"`, `!name`/`!3` (v without the `!`). */
  | { readonly t: 'str' | 'cstr' | 'mstr' | 'meta'; readonly v: string; readonly at: number };

/** The most tokens a text may have (a bound on memory for damaged input). */
export const MAX_TOKENS = 1 << 26;

/** Which character codes below 128 a bare name may hold (`[-a-zA-Z$._0-9]`): a table, not a regular expression per character. */
const NAME_CHAR = new Uint8Array(128);
for (const c of '-$._0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ') NAME_CHAR[c.charCodeAt(0)] = 1;
const isNameCode = (code: number): boolean => code < 128 && NAME_CHAR[code] === 1;
const isDigitCode = (code: number): boolean => code >= 48 && code <= 57;
/** A number at `lastIndex` (sticky: matched in place, without slicing the text). */
const NUMBER = /-?(0x[0-9A-Fa-f]+|[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)/y;

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

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const n = text.length;
  let i = 0;
  const fail = (msg: string, at: number): never => {
    const { line, column } = lineColumn(text, at);
    throw new IrSyntaxError(msg, line, column);
  };
  const quoted = (start: number): [string, number] => {
    // text[start] is the opening quote
    let j = start + 1;
    let s = '';
    while (j < n && text[j] !== '"') {
      if (text[j] === '\\') {
        const h = text.slice(j + 1, j + 3);
        if (/^[0-9a-fA-F]{2}$/.test(h)) {
          s += String.fromCharCode(parseInt(h, 16));
          j += 3;
          continue;
        }
        if (text[j + 1] === '\\') {
          s += '\\';
          j += 2;
          continue;
        }
      }
      let k = j;
      while (k < n && text[k] !== '"' && text[k] !== '\\') k++;
      if (k === j) k++;
      s += utf8Bytes(text.slice(j, k));
      j = k;
    }
    if (j >= n) fail('unterminated string', start);
    return [s, j + 1];
  };
  const bare = (start: number): number => {
    let j = start;
    while (j < n && isNameCode(text.charCodeAt(j))) j++;
    return j;
  };
  while (i < n) {
    if (out.length > MAX_TOKENS) fail(`more than ${MAX_TOKENS} tokens`, i);
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === ';') {
      const e = text.indexOf('\n', i);
      i = e < 0 ? n : e;
      continue;
    }
    const at = i;
    if (c === '%' || c === '@') {
      const t = c === '%' ? 'local' : 'global';
      if (text[i + 1] === '"') {
        const [s, e] = quoted(i + 1);
        out.push({ t, v: 'n:' + s, at });
        i = e;
      } else {
        const e = bare(i + 1);
        if (e === i + 1) fail(`a name after ${c}`, i);
        const name = text.slice(i + 1, e);
        out.push({ t, v: /^[0-9]+$/.test(name) ? '#' + name : 'n:' + name, at });
        i = e;
      }
      continue;
    }
    if (c === '!') {
      if (text[i + 1] === '"') {
        const [s, e] = quoted(i + 1);
        out.push({ t: 'mstr', v: s, at });
        i = e;
      } else if (text[i + 1] === '{') {
        out.push({ t: 'punct', v: '!{', at });
        i += 2;
      } else {
        const e = bare(i + 1);
        out.push({ t: 'meta', v: text.slice(i + 1, e), at });
        i = e;
      }
      continue;
    }
    if (c === '"') {
      const [s, e] = quoted(i);
      if (text[e] === ':') {
        out.push({ t: 'label', v: 'n:' + s, at });
        i = e + 1;
      } else {
        out.push({ t: 'str', v: s, at });
        i = e;
      }
      continue;
    }
    if (c === 'c' && text[i + 1] === '"') {
      const [s, e] = quoted(i + 1);
      out.push({ t: 'cstr', v: s, at });
      i = e;
      continue;
    }
    if (c === '.' && text.startsWith('...', i)) {
      out.push({ t: 'punct', v: '...', at });
      i += 3;
      continue;
    }
    if ('()[]{}<>,=*'.includes(c)) {
      out.push({ t: 'punct', v: c, at });
      i++;
      continue;
    }
    if (isDigitCode(text.charCodeAt(i)) || (c === '-' && isDigitCode(text.charCodeAt(i + 1)))) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text)!;
      const e = i + m[0].length;
      if (text[e] === ':' && /^[0-9]+$/.test(m[0])) {
        out.push({ t: 'label', v: '#' + m[0], at });
        i = e + 1;
        continue;
      }
      if (e < n && isNameCode(text.charCodeAt(e)) && !/^-?0x/.test(m[0])) {
        // a name that begins with digits (only as a label: values' are quoted)
        const be = bare(i);
        if (text[be] === ':') {
          out.push({ t: 'label', v: 'n:' + text.slice(i, be), at });
          i = be + 1;
          continue;
        }
      }
      out.push({ t: 'num', v: m[0], at });
      i = e;
      continue;
    }
    if (isNameCode(text.charCodeAt(i))) {
      const e = bare(i);
      const w = text.slice(i, e);
      if (text[e] === ':') {
        out.push({ t: 'label', v: 'n:' + w, at });
        i = e + 1;
      } else {
        out.push({ t: 'word', v: w, at });
        i = e;
      }
      continue;
    }
    fail(`unexpected character '${c}'`, i);
  }
  return out;
}
