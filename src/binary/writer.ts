import { WriteRangeError } from '../errors/write-range-error.js';
import { BLOCK_HEADER_SIZE_LONG, BLOCK_HEADER_SIZE_SHORT, MAX_SHORT_BLOCK_ID, MAX_SHORT_BLOCK_SIZE, packShortBlockHeader } from './block-header.js';
import { encodeLatin1Into } from './latin1.js';
import { BufferPool } from './buffer-pool.js';

/**
 * The mirror image of `BinaryReader`: every primitive the reader has, with the same name, writes
 * exactly the bytes that primitive reads back.
 *
 * - A growable buffer (doubling), written in place: no per-value allocation.
 * - Inputs are asserted: a value outside the primitive's domain throws a `RangeError` instead of
 *   becoming different bytes (LLVM's writer truncated silently; we would rather know).
 * - Blocks: `beginBlock` reserves the header, `endBlock` back-patches the size once the body is
 *   known, as LLVM's writer did. The size counts the body only — never the header, never the
 *   alignment padding after it (LLVM 1.0–1.9 alike). For streams of versions 0–3 construct the
 *   writer with `alignAfterBlocks: true`: LLVM 1.1–1.3 padded to 32 bits after every block.
 *
 * Offsets (`length`, alignment) are positions in the stream, which starts with the `llvm`
 * signature, so write that first: alignment is relative to the stream start, as in LLVM.
 */
export interface BinaryWriterOptions {
  /** Initial buffer size in bytes (default 64 KiB); it doubles as needed. */
  initialCapacity?: number;
  /**
   * Fill byte for `align32` (default 0xAB, the only fill LLVM ever wrote: versions 0–3 pad with
   * it; later versions do not align at all).
   */
  alignFill?: number;
  /** Pad to 32 bits after every `endBlock` (LLVM 1.1–1.3, versions 0–3). Default false. */
  alignAfterBlocks?: boolean;
}

const TWO_32 = 0x1_0000_0000;
const TWO_63 = 1n << 63n;
const TWO_64 = 1n << 64n;
const MAX_U64 = TWO_64 - 1n;

function fail(what: string, value: unknown): never {
  throw new WriteRangeError(what, `${what} out of range: ${String(value)}`);
}

/**
 * Buffers given back by writers that are done (`release`), for the next writers: a module written
 * again (or the next of a batch) then starts with room for it instead of doubling its way up from
 * a few kilobytes, allocating and copying at each step. Up to 2 MiB each are kept.
 */
const POOL = new BufferPool(2, 1 << 21);

export class BinaryWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;
  private readonly fill: number;
  private readonly alignAfterBlocks: boolean;
  /** Per open block: header position, body start and whether the header is long (parallel stacks). */
  private readonly blockHeaderPos: number[] = [];
  private readonly blockBodyPos: number[] = [];
  private readonly blockIds: number[] = [];
  private readonly blockLong: boolean[] = [];

  constructor(options: BinaryWriterOptions = {}) {
    const cap = options.initialCapacity ?? 64 * 1024;
    if (!(Number.isInteger(cap) && cap >= 0)) fail('initialCapacity', cap);
    const fill = options.alignFill ?? 0xab;
    if (!(Number.isInteger(fill) && fill >= 0 && fill <= 0xff)) fail('alignFill', fill);
    this.buf = POOL.take(Math.max(16, cap));
    this.view = new DataView(this.buf.buffer);
    this.fill = fill;
    this.alignAfterBlocks = options.alignAfterBlocks ?? false;
  }

  /** Bytes written so far (= the stream offset of the next byte). */
  get length(): number {
    return this.pos;
  }

  /** How many blocks are open. */
  get depth(): number {
    return this.blockHeaderPos.length;
  }

  /** A copy of the bytes written, exactly `length` long. Every block must have been ended. */
  finish(): Uint8Array {
    if (this.blockHeaderPos.length) {
      throw new Error(`internal error: finish() with ${this.blockHeaderPos.length} block(s) still open (beginBlock without endBlock)`);
    }
    return this.buf.slice(0, this.pos);
  }

  /**
   * Gives the buffer back for the next writers once this one is done (call after `finish`; what
   * was written is dropped, and a later write starts a new buffer). A writer never released
   * leaves its buffer to the collector.
   */
  release(): void {
    const buf = this.buf;
    this.buf = new Uint8Array(16);
    this.view = new DataView(this.buf.buffer);
    this.pos = 0;
    POOL.give(buf);
  }

  /** A view (no copy) of the bytes written so far; invalidated by the next write. */
  peek(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  private grow(n: number): void {
    let cap = this.buf.length * 2;
    while (cap < this.pos + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  // ---- fixed-size primitives ---------------------------------------------------------------------

  uint8(v: number): this {
    if (!(v >= 0 && v <= 0xff && Number.isInteger(v))) fail('uint8', v);
    if (this.pos >= this.buf.length) this.grow(1);
    this.buf[this.pos++] = v;
    return this;
  }

  /** A little-endian 32-bit unsigned word. */
  uint32(v: number): this {
    if (!(v >= 0 && v < TWO_32 && Number.isInteger(v))) fail('uint32', v);
    if (this.pos + 4 > this.buf.length) this.grow(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
    return this;
  }

  /** Overwrites the 32-bit word at `at` (an earlier position). */
  patchUint32(at: number, v: number): this {
    if (!(Number.isInteger(at) && at >= 0 && at + 4 <= this.pos)) fail('patch position', at);
    if (!(v >= 0 && v < TWO_32 && Number.isInteger(v))) fail('uint32', v);
    this.view.setUint32(at, v, true);
    return this;
  }

  /** An IEEE single. NaN payloads are not preserved by JavaScript numbers: use `float32Bits`. */
  float32(v: number): this {
    if (typeof v !== 'number') fail('float32', v);
    if (this.pos + 4 > this.buf.length) this.grow(4);
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
    return this;
  }

  /** The raw bits of an IEEE single (a uint32), so NaN payloads survive. */
  float32Bits(bits: number): this {
    if (!(bits >= 0 && bits < TWO_32 && Number.isInteger(bits))) fail('float32 bits', bits);
    return this.uint32(bits);
  }

  /** An IEEE double. NaN payloads may be canonicalised: use `float64Bits` for exact bits. */
  float64(v: number): this {
    if (typeof v !== 'number') fail('float64', v);
    if (this.pos + 8 > this.buf.length) this.grow(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
    return this;
  }

  /** The raw bits of an IEEE double (a bigint in 0..2^64-1), so NaN payloads survive. */
  float64Bits(bits: bigint): this {
    if (!(typeof bits === 'bigint' && bits >= 0n && bits <= MAX_U64)) fail('float64 bits', bits);
    if (this.pos + 8 > this.buf.length) this.grow(8);
    this.view.setBigUint64(this.pos, bits, true);
    this.pos += 8;
    return this;
  }

  // ---- variable-length integers ------------------------------------------------------------------

  /** An unsigned 32-bit VBR: 7 bits a byte, low groups first, high bit on all but the last byte. */
  vbr32(v: number): this {
    if (v >= 0 && v < 0x80 && (v | 0) === v) {
      if (this.pos >= this.buf.length) this.grow(1);
      this.buf[this.pos++] = v;
      return this;
    }
    if (!(v >= 0 && v < TWO_32 && Number.isInteger(v))) fail('vbr32', v);
    this.writeVbrNumber(v);
    return this;
  }

  /** Writes a VBR of a non-negative safe integer (≤ 8 bytes). */
  private writeVbrNumber(v: number): void {
    if (this.pos + 8 > this.buf.length) this.grow(8);
    const b = this.buf;
    let p = this.pos;
    // Above 2^31 bitwise operators would wrap: divide instead.
    while (v >= 0x80000000) {
      b[p++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    while (v >= 0x80) {
      b[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[p++] = v;
    this.pos = p;
  }

  /** An unsigned 64-bit VBR (1–10 bytes), from a bigint in 0..2^64-1 or a safe non-negative number. */
  vbr64(v: bigint | number): this {
    if (typeof v === 'number') {
      if (!(v >= 0 && Number.isSafeInteger(v))) fail('vbr64', v);
      if (v < 0x80) {
        if (this.pos >= this.buf.length) this.grow(1);
        this.buf[this.pos++] = v;
      } else {
        this.writeVbrNumber(v);
      }
      return this;
    }
    if (!(typeof v === 'bigint' && v >= 0n && v <= MAX_U64)) fail('vbr64', v);
    if (v <= 0x1f_ffff_ffff_ffffn) {
      this.writeVbrNumber(Number(v));
      return this;
    }
    if (this.pos + 10 > this.buf.length) this.grow(10);
    const b = this.buf;
    let p = this.pos;
    while (v >= 0x80n) {
      b[p++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    b[p++] = Number(v);
    this.pos = p;
    return this;
  }

  /**
   * A signed 64-bit VBR: magnitude << 1 with the sign in bit 0. INT64_MIN has no magnitude in 63
   * bits; LLVM's writer produced "negative zero" (the encoding of 1) for it, and so do we.
   */
  svbr64(v: bigint | number): this {
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) fail('svbr64', v);
      // |v| ≤ 2^53 - 1, so 2|v| + 1 may exceed 2^53: go through bigint only when it would.
      if (v >= 0) return v <= 0xf_ffff_ffff_ffff ? this.vbr64(v * 2) : this.vbr64(BigInt(v) << 1n);
      return -v <= 0xf_ffff_ffff_ffff ? this.vbr64(-v * 2 + 1) : this.vbr64((BigInt(-v) << 1n) | 1n);
    }
    if (!(typeof v === 'bigint' && v >= -TWO_63 && v < TWO_63)) fail('svbr64', v);
    if (v === -TWO_63) return this.vbr64(1);
    return this.vbr64(v < 0n ? (-v << 1n) | 1n : v << 1n);
  }

  /** A signed 32-bit VBR (sign in bit 0); INT32_MIN is written as "negative zero" (1), as by LLVM. */
  svbr32(v: number): this {
    if (!(Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff)) fail('svbr32', v);
    if (v === -0x80000000) return this.vbr32(1);
    return this.vbr32(v < 0 ? -v * 2 + 1 : v * 2);
  }

  // ---- byte sequences ----------------------------------------------------------------------------

  /** A string: VBR length, then one byte per character. Characters above U+00FF are an error. */
  string(s: string): this {
    if (typeof s !== 'string') fail('string', s);
    const start = this.pos;
    this.vbr32(s.length);
    if (this.pos + s.length > this.buf.length) this.grow(s.length);
    try {
      this.pos = encodeLatin1Into(s, this.buf, this.pos);
    } catch (e) {
      this.pos = start; // leave no half-written string behind
      throw e;
    }
    return this;
  }

  /** Raw bytes, as they are. */
  bytes(data: Uint8Array): this {
    if (this.pos + data.length > this.buf.length) this.grow(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
    return this;
  }

  /** Pads to the next multiple of 4 (relative to the stream start) with `fill` (default: the writer's). */
  align32(fill: number = this.fill): this {
    if (!(Number.isInteger(fill) && fill >= 0 && fill <= 0xff)) fail('fill byte', fill);
    const pad = (4 - (this.pos & 3)) & 3;
    if (pad) {
      if (this.pos + pad > this.buf.length) this.grow(pad);
      this.buf.fill(fill, this.pos, this.pos + pad);
      this.pos += pad;
    }
    return this;
  }

  // ---- blocks ------------------------------------------------------------------------------------

  /**
   * Opens a block: reserves its header and remembers where the body starts. `longForm`: two words
   * (id, size) — versions 0–2, and the module block in every version; otherwise one word with the
   * id in the low 5 bits and the size in the high 27.
   */
  beginBlock(id: number, longForm = false): this {
    if (longForm) {
      if (!(id >= 0 && id < TWO_32 && Number.isInteger(id))) fail('block id', id);
    } else if (!(Number.isInteger(id) && id >= 0 && id <= MAX_SHORT_BLOCK_ID)) {
      fail('short-form block id (5 bits)', id);
    }
    const headerSize = longForm ? BLOCK_HEADER_SIZE_LONG : BLOCK_HEADER_SIZE_SHORT;
    if (this.pos + headerSize > this.buf.length) this.grow(headerSize);
    this.blockHeaderPos.push(this.pos);
    this.blockIds.push(id);
    this.blockLong.push(longForm);
    if (longForm) this.view.setUint32(this.pos, id, true);
    this.view.setUint32(this.pos + headerSize - 4, 0, true);
    this.pos += headerSize;
    this.blockBodyPos.push(this.pos);
    return this;
  }

  /**
   * Closes the innermost block: back-patches its size (the body's bytes, header excluded) and, with
   * `alignAfterBlocks`, pads after it. With `elideIfEmpty`, an empty block is removed entirely,
   * header included, as LLVM did for empty constant pools and symbol tables. Returns the body size.
   */
  endBlock(options?: { elideIfEmpty?: boolean }): number {
    const headerPos = this.blockHeaderPos.pop();
    if (headerPos === undefined) throw new Error('internal error: endBlock without beginBlock');
    const bodyPos = this.blockBodyPos.pop()!;
    const id = this.blockIds.pop()!;
    const longForm = this.blockLong.pop()!;
    const size = this.pos - bodyPos;
    if (size === 0 && options?.elideIfEmpty) {
      this.pos = headerPos;
      return 0;
    }
    if (longForm) {
      if (size >= TWO_32) fail('block size', size);
      this.view.setUint32(headerPos + 4, size, true);
    } else {
      if (size > MAX_SHORT_BLOCK_SIZE) {
        throw new WriteRangeError('block size', `block ${id} is ${size} bytes; a short block header holds at most ${MAX_SHORT_BLOCK_SIZE} (27 bits)`);
      }
      this.view.setUint32(headerPos, packShortBlockHeader(id, size), true);
    }
    if (this.alignAfterBlocks) this.align32();
    return size;
  }
}
