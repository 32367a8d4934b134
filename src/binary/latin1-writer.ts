/**
 * Text as latin1 bytes (one byte per character, see latin1.ts) in a growing buffer. The printer
 * writes its listing here instead of concatenating strings: a listing is megabytes of short
 * pieces, and bytes in one buffer cost neither rope nodes nor a final flattening, and can go to a
 * file or a stream as they are.
 */
import { decodeLatin1 } from './latin1.js';
import { BufferPool } from './buffer-pool.js';

const ascii = new TextDecoder();

/**
 * Bytes a writer starts with; it doubles as needed. Small: most listings are a few kilobytes, and
 * a batch prints thousands of them (zeroing 64 KiB for each cost more than printing many).
 */
const INITIAL_CAPACITY = 1 << 12;

/**
 * Buffers given back by writers that are done (see `release`), for the next writers: TextDecoder
 * takes ~12 us to decode from a fresh ArrayBuffer (0.6 us from one used before), which was a
 * tenth of printing a small module. Four of up to 1 MiB.
 */
const POOL = new BufferPool(4, 1 << 20);

export class Latin1Writer {
  private buf: Uint8Array;
  private pos = 0;
  /** Every byte written since the last `take`, OR-ed: below 0x80 while the text is ASCII. */
  private high = 0;

  constructor(capacity = INITIAL_CAPACITY) {
    this.buf = POOL.take(Math.max(16, capacity));
  }

  /**
   * Gives the buffer back for other writers once this one is done (what was written is dropped);
   * a later write starts a new buffer. A writer never released simply leaves its buffer to the
   * collector.
   */
  release(): void {
    const buf = this.buf;
    this.buf = new Uint8Array(16);
    this.pos = 0;
    this.high = 0;
    POOL.give(buf);
  }

  /** Bytes written since the last `take` (or since the start). */
  get length(): number {
    return this.pos;
  }

  /**
   * Writes each character of `s` as one byte. A character above U+00FF keeps its low 8 bits (as
   * Node's 'latin1' encoding does); names read from bytecode never have one.
   */
  text(s: string): void {
    const n = s.length;
    if (this.pos + n > this.buf.length) this.grow(n);
    const b = this.buf;
    let p = this.pos;
    let high = 0;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      high |= c;
      b[p++] = c;
    }
    this.pos = p;
    this.high |= high;
  }

  /** Writes one byte (a character code 0–255). */
  byte(c: number): void {
    if (this.pos >= this.buf.length) this.grow(1);
    this.buf[this.pos++] = c;
    this.high |= c;
  }

  /** Writes a non-negative integer below 2^53 in decimal, without building its string. */
  uint(n: number): void {
    if (n < 10) {
      this.byte(0x30 + n);
      return;
    }
    if (n >= 0x1_0000_0000) {
      this.text(String(n));
      return;
    }
    let digits = 1;
    for (let t = n; t >= 10; t = (t / 10) >>> 0) digits++;
    if (this.pos + digits > this.buf.length) this.grow(digits);
    const b = this.buf;
    let p = this.pos + digits;
    this.pos = p;
    let t = n >>> 0;
    do {
      const q = (t / 10) >>> 0;
      b[--p] = 0x30 + t - q * 10;
      t = q;
    } while (t > 0);
  }

  /** Writes an integer's decimal text (`-` and digits). */
  int(n: number): void {
    if (n < 0) {
      this.byte(0x2d);
      this.uint(-n);
    } else this.uint(n);
  }

  /** Writes raw bytes. */
  bytes(data: Uint8Array): void {
    if (this.pos + data.length > this.buf.length) this.grow(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
    for (let i = 0; i < data.length; i++) this.high |= data[i]!;
  }

  /** What was written from `start` on, one character per byte (the writer keeps it). */
  textFrom(start: number): string {
    return decodeLatin1(this.buf, start, this.pos);
  }

  /** The bytes written so far, as a new array; the writer starts over (keeping its buffer). */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.pos);
    this.pos = 0;
    this.high = 0;
    return out;
  }

  /**
   * The bytes written so far, as a view of the writer's own buffer, valid only until the next
   * write; the writer starts over. For a consumer that writes each piece out at once: no copy,
   * and no garbage the size of the whole text.
   */
  takeView(): Uint8Array {
    const out = this.buf.subarray(0, this.pos);
    this.pos = 0;
    this.high = 0;
    return out;
  }

  /** The bytes written so far, one character per byte; the writer starts over. */
  takeString(): string {
    // ASCII (nearly every listing) is the same in UTF-8, whose decoder is far faster than
    // building the string from character codes.
    const s = this.high < 0x80 ? ascii.decode(this.buf.subarray(0, this.pos)) : decodeLatin1(this.buf, 0, this.pos);
    this.pos = 0;
    this.high = 0;
    return s;
  }

  private grow(extra: number): void {
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const bigger = new Uint8Array(size);
    bigger.set(this.buf.subarray(0, this.pos));
    this.buf = bigger;
  }
}
