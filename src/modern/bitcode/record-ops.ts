/**
 * One record's operands, filled in place and handed to `BitstreamWriter.recordOf`: the writer
 * emits tens of thousands of records a module, and an array (and spreads) per record was most of
 * what it allocated.
 */
import type { BitstreamWriter } from './bitstream.js';

/**
 * Appends to `out` the UTF-16 code unit that starts each code point of `s`: what a record of
 * characters holds (a name's characters, as `Array.from(s)` splits them).
 */
export function pushChars(out: { push(v: number): unknown }, s: string): void {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out.push(c);
    // A surrogate pair is one character: its first unit stands for it.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
}

export class RecordOps {
  private readonly ops: number[] = [];
  private count = 0;

  push(v: number): void {
    this.ops[this.count++] = v;
  }

  /** The characters of `s` (see `pushChars`). */
  chars(s: string): void {
    pushChars(this, s);
  }

  /** Appends these operands to `to`, and starts empty. */
  moveTo(to: RecordOps): void {
    for (let i = 0; i < this.count; i++) to.push(this.ops[i]!);
    this.count = 0;
  }

  /** Writes the record `code` with the operands pushed since the last write, and starts empty. */
  writeTo(w: BitstreamWriter, code: number): void {
    const n = this.count;
    this.count = 0;
    w.recordOf(code, this.ops, n);
  }
}
