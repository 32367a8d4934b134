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

/** A released writer's buffer (see `release`). */
const NO_BYTES = new Uint8Array(0);
const NO_BYTES_VIEW = new DataView(NO_BYTES.buffer);

/**
 * Texts made once into 32-bit words (four characters each, the first in the low byte), which
 * `Latin1Writer.piece` copies four bytes at a time: the printer writes the same few texts (type
 * names, value names, punctuation) millions of times, and copying them character by character from
 * strings was a third of printing. A piece is known by the index of its header word (its length
 * times two, plus one when a character is above 0x7F), its words following; one array holds them
 * all, so a piece costs its bytes, not an object.
 */
const NO_WORDS = new Uint32Array(0);
/** Words of released Latin1Pieces, for the next (a few, up to 256 KiB each). */
const WORDS_POOL: Uint32Array[] = [];

export class Latin1Pieces {
  words: Uint32Array;
  private end: number;

  /**
   * Starts with the pieces of `base`, at the same indices (e.g. fixed texts added once), in words
   * given back by a set of pieces done before (see `release`) when there are some.
   */
  constructor(base?: Latin1Pieces) {
    const start = base === undefined ? 0 : base.end;
    const kept = WORDS_POOL.length > 0 ? WORDS_POOL.pop()! : undefined;
    this.words = kept !== undefined && kept.length >= start ? kept : new Uint32Array(Math.max(256, 2 * start));
    if (base !== undefined) this.words.set(base.words.subarray(0, start));
    this.end = start;
  }

  /**
   * Gives the words back for later sets of pieces (a printer per module of a batch of small ones:
   * a new typed array each is an allocation outside the heap, which cost more than the few pieces
   * of a small module). The pieces are unusable after.
   */
  release(): void {
    const words = this.words;
    this.words = NO_WORDS;
    this.end = 0;
    if (WORDS_POOL.length < 4 && words.length <= 1 << 16 && words !== NO_WORDS) WORDS_POOL.push(words);
  }

  /** Adds `s` (one character per byte; a code above 0xFF keeps its low 8 bits) and gives its index. */
  add(s: string): number {
    const n = s.length;
    const count = (n + 3) >>> 2;
    if (this.end + 1 + count > this.words.length) {
      let size = Math.max(256, this.words.length * 2);
      while (size < this.end + 1 + count) size *= 2;
      const bigger = new Uint32Array(size);
      bigger.set(this.words.subarray(0, this.end));
      this.words = bigger;
    }
    const words = this.words;
    const at = this.end;
    let high = 0;
    for (let w = 0; w < count; w++) {
      let word = 0;
      for (let k = 0, i = 4 * w; k < 4 && i < n; k++, i++) {
        const c = s.charCodeAt(i) & 0xff;
        high |= c;
        word |= c << (8 * k);
      }
      words[at + 1 + w] = word;
    }
    words[at] = n * 2 + (high >= 0x80 ? 1 : 0);
    this.end = at + 1 + count;
    return at;
  }

  /** The piece added right after the one at `at` (a caller may add related texts in pairs). */
  next(at: number): number {
    return at + 1 + (((this.words[at]! >>> 1) + 3) >>> 2);
  }
}

export class Latin1Writer {
  private buf: Uint8Array;
  /** `buf` as a DataView, for `piece`'s four-byte stores (little-endian on every platform). */
  private view: DataView;
  private pos = 0;
  /** Every byte written since the last `take`, OR-ed: below 0x80 while the text is ASCII. */
  private high = 0;

  constructor(capacity = INITIAL_CAPACITY) {
    this.buf = POOL.take(Math.max(16, capacity));
    this.view = viewOf(this.buf);
  }

  /**
   * Gives the buffer back for other writers once this one is done (what was written is dropped);
   * a later write starts a new buffer. A writer never released simply leaves its buffer to the
   * collector.
   */
  release(): void {
    const buf = this.buf;
    // Writes check their room first: a later one takes a new buffer (see grow).
    this.buf = NO_BYTES;
    this.view = NO_BYTES_VIEW;
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

  /**
   * Writes the piece at `at` of `pieces` (see Latin1Pieces). Its last word may store up to three
   * bytes past the text's end, which the next write overwrites.
   */
  piece(pieces: Latin1Pieces, at: number): void {
    const words = pieces.words;
    const head = words[at]!;
    const n = head >>> 1;
    const end = at + 1 + ((n + 3) >>> 2);
    let p = this.pos;
    if (p + 4 * (end - at - 1) > this.buf.length) this.grow(4 * (end - at - 1));
    const view = this.view;
    for (let w = at + 1; w < end; w++, p += 4) view.setUint32(p, words[w]!, true);
    this.pos += n;
    this.high |= (head & 1) << 7;
  }

  /**
   * `piece(pieces, at)` then `uint(n)` in one call (`%` and a slot, a comment and a count): the
   * printer writes millions of such pairs, and each call costs more than the few bytes it copies.
   */
  pieceUint(pieces: Latin1Pieces, at: number, n: number): void {
    if (n >= 0x1_0000_0000) {
      this.piece(pieces, at);
      this.uint(n);
      return;
    }
    const words = pieces.words;
    const head = words[at]!;
    const length = head >>> 1;
    const end = at + 1 + ((length + 3) >>> 2);
    let digits = 1;
    for (let t = n; t >= 10; t = (t / 10) >>> 0) digits++;
    let p = this.pos;
    if (p + 4 * (end - at - 1) + digits > this.buf.length) this.grow(4 * (end - at - 1) + digits);
    const view = this.view;
    for (let w = at + 1; w < end; w++, p += 4) view.setUint32(p, words[w]!, true);
    this.pos += length;
    this.high |= (head & 1) << 7;
    this.digitsAt(n, digits);
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
    this.digitsAt(n, digits);
  }

  /** Writes `n` (below 2^32, `digits` decimal digits long) where the buffer already has room. */
  private digitsAt(n: number, digits: number): void {
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
    let size = Math.max(16, this.buf.length * 2);
    while (size < this.pos + extra) size *= 2;
    const bigger = new Uint8Array(size);
    bigger.set(this.buf.subarray(0, this.pos));
    this.buf = bigger;
    this.view = viewOf(bigger);
  }
}

function viewOf(buf: Uint8Array): DataView {
  return new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
}
