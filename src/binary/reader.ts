import { BytecodeError } from '../errors/bytecode-error.js';
import { decodeLatin1 } from './latin1.js';

const INT64_MIN = -(1n << 63n);

/**
 * A bounded cursor over the bytecode stream.
 *
 * Every read is checked against `end`, the end of the innermost block being decoded, so a nested
 * structure can never read past its parent. Every error is a `BytecodeError` carrying the absolute
 * offset and the path of blocks the reader is inside (maintained with `enterBlock`/`leaveBlock`).
 *
 * Offsets are positions in `bytes`, which holds the stream as if it followed the 4-byte `llvm`
 * signature (the container layer arranges that), so they match what LLVM's tools report.
 */
export class BinaryReader {
  readonly bytes: Uint8Array;
  pos: number;
  end: number;
  private readonly view: DataView;
  private readonly path: string[] = [];
  private readonly ends: number[] = [];

  constructor(bytes: Uint8Array, start = 0, end = bytes.length) {
    this.bytes = bytes;
    this.pos = start;
    this.end = end;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The names of the blocks the reader is inside, outermost first. */
  get blockPath(): readonly string[] {
    return this.path.slice();
  }

  /** How many blocks the reader is inside (for `Limits.maxBlockDepth`). */
  get depth(): number {
    return this.path.length;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  atEnd(): boolean {
    return this.pos >= this.end;
  }

  /** Throws a `BytecodeError` at `offset` (default: the current position). */
  fail(message: string, offset: number = this.pos): never {
    throw new BytecodeError(message, offset, this.path.slice());
  }

  /**
   * Narrows the readable window to `[pos, pos + size)` for a block named `name`. The size is
   * checked against the enclosing window first, so a block can never claim bytes its parent lacks.
   */
  enterBlock(name: string, size: number, headerOffset: number = this.pos): void {
    if (size > this.end - this.pos) {
      this.fail(`${name} block claims ${size} bytes but only ${this.end - this.pos} remain in the enclosing block`, headerOffset);
    }
    this.ends.push(this.end);
    this.path.push(name);
    this.end = this.pos + size;
  }

  /** Leaves the innermost block; its end becomes the position (trailing bytes are skipped). */
  leaveBlock(): void {
    const outerEnd = this.ends.pop();
    if (outerEnd === undefined) throw new Error('internal error: leaveBlock without enterBlock');
    this.path.pop();
    this.pos = this.end;
    this.end = outerEnd;
  }

  /** Renames the innermost block (e.g. once a function's number is known). */
  renameBlock(name: string): void {
    if (this.path.length) this.path[this.path.length - 1] = name;
  }

  private need(n: number, what: string): void {
    if (n > this.end - this.pos) {
      this.fail(`unexpected end of ${this.path.length ? 'block' : 'file'} reading ${what}: need ${n} byte(s), ${this.end - this.pos} left`);
    }
  }

  uint8(): number {
    if (this.pos >= this.end) this.need(1, 'a byte');
    return this.bytes[this.pos++]!;
  }

  uint32(): number {
    this.need(4, 'a 32-bit word');
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  float32(): number {
    this.need(4, 'a float');
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  /** The raw IEEE bits of a float, so NaN payloads survive. */
  float32Bits(): number {
    return this.uint32();
  }

  float64(): number {
    this.need(8, 'a double');
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** The raw IEEE bits of a double as a bigint, so NaN payloads survive. */
  float64Bits(): bigint {
    this.need(8, 'a double');
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /**
   * An unsigned 32-bit variable-bit-rate integer: 7 bits a byte, low groups first, high bit set
   * on every byte but the last. More than 5 bytes, or bits beyond 32, is an error. Non-minimal
   * encodings (`80 00` for 0) are accepted, as LLVM accepted them.
   */
  vbr32(): number {
    const bytes = this.bytes;
    let pos = this.pos;
    // Fast path: at least 5 bytes left, so no per-byte bounds checks; integer arithmetic only.
    if (this.end - pos >= 5) {
      let b = bytes[pos++]!;
      if (b < 0x80) {
        this.pos = pos;
        return b;
      }
      let result = b & 0x7f;
      b = bytes[pos++]!;
      result |= (b & 0x7f) << 7;
      if (b < 0x80) {
        this.pos = pos;
        return result;
      }
      b = bytes[pos++]!;
      result |= (b & 0x7f) << 14;
      if (b < 0x80) {
        this.pos = pos;
        return result;
      }
      b = bytes[pos++]!;
      result |= (b & 0x7f) << 21;
      if (b < 0x80) {
        this.pos = pos;
        return result;
      }
      b = bytes[pos++]!;
      // The fifth byte holds bits 28–31 only; anything else is an error, reported by the slow path.
      if (b <= 0x0f) {
        this.pos = pos;
        return result + b * 0x10000000;
      }
    }
    return this.vbr32Slow();
  }

  /** The checked byte-at-a-time path: near the end of the window, and for every malformed VBR. */
  private vbr32Slow(): number {
    const start = this.pos;
    let result = 0;
    let scale = 1;
    for (let i = 0; ; i++) {
      if (this.pos >= this.end) this.fail('unexpected end of block inside a variable-length integer', start);
      const b = this.bytes[this.pos++]!;
      if (i === 4 && (b & 0x70) !== 0) this.fail('variable-length 32-bit integer exceeds 32 bits', start);
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      if (i === 4) this.fail('variable-length 32-bit integer longer than 5 bytes', start);
      scale *= 0x80;
    }
  }

  /**
   * Reads a VBR of at most 7 bytes (a value below 2^49) as an exact number, or returns -1 with the
   * position unchanged when it is longer or cut short (the bigint path then deals with it).
   */
  private smallVbr64(): number {
    const bytes = this.bytes;
    const end = this.end;
    let pos = this.pos;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 7 && pos < end; i++) {
      const b = bytes[pos++]!;
      result += (b & 0x7f) * scale;
      if (b < 0x80) {
        this.pos = pos;
        return result;
      }
      scale *= 0x80;
    }
    return -1;
  }

  /** An unsigned 64-bit VBR, exact (up to 10 bytes; bits beyond 64 are an error). */
  vbr64(): bigint {
    const n = this.smallVbr64();
    return n >= 0 ? BigInt(n) : this.vbr64Slow();
  }

  private vbr64Slow(): bigint {
    const start = this.pos;
    let result = 0n;
    for (let i = 0; ; i++) {
      if (this.pos >= this.end) this.fail('unexpected end of block inside a variable-length integer', start);
      const b = this.bytes[this.pos++]!;
      // The tenth byte holds bit 63 only.
      if (i === 9 && (b & 0x7e) !== 0) this.fail('variable-length 64-bit integer exceeds 64 bits', start);
      result |= BigInt(b & 0x7f) << BigInt(7 * i);
      if (b < 0x80) return result;
      if (i === 9) this.fail('variable-length 64-bit integer longer than 10 bytes', start);
    }
  }

  /**
   * A signed 64-bit VBR: the magnitude shifted left by one with the sign in bit 0. LLVM wrote
   * INT64_MIN as "negative zero" (the encoding of 1), and LLVM 1.3+ read it back as INT64_MIN.
   * (LLVM 1.1's reader read it as 0: a difference only a version-0 file holding INT64_MIN shows.)
   */
  svbr64(): bigint {
    const n = this.smallVbr64();
    if (n >= 0) {
      // Exact in number arithmetic: n < 2^49.
      if (n % 2 === 0) return BigInt(n / 2);
      return n === 1 ? INT64_MIN : BigInt(-(n - 1) / 2);
    }
    const v = this.vbr64Slow();
    if ((v & 1n) === 0n) return v >> 1n;
    const magnitude = v >> 1n;
    return magnitude === 0n ? INT64_MIN : -magnitude;
  }

  /**
   * A signed 32-bit VBR (sign in bit 0). As with `svbr64`, the "negative zero" encoding 1 is what
   * LLVM's writer produced for INT32_MIN (its negation overflows), so it reads back as INT32_MIN;
   * a plain `-magnitude` would give JavaScript's -0 there.
   */
  svbr32(): number {
    const v = this.vbr32();
    if (v === 1) return -0x80000000;
    const magnitude = Math.floor(v / 2);
    return v % 2 === 0 ? magnitude : -magnitude;
  }

  /** `n` raw bytes as a subarray view (no copy). */
  bytesView(n: number, what = 'bytes'): Uint8Array {
    this.need(n, what);
    const v = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** A string: a VBR length, then that many bytes, each byte one character (latin1). */
  string(what = 'a string'): string {
    const len = this.vbr32();
    this.need(len, what);
    const s = decodeLatin1(this.bytes, this.pos, this.pos + len);
    this.pos += len;
    return s;
  }

  /** Skips to the next multiple of 4 (relative to the stream start), within the block. */
  align32(): void {
    const pad = (4 - (this.pos & 3)) & 3;
    if (pad > this.end - this.pos) this.fail('block ends inside alignment padding');
    this.pos += pad;
  }

  /**
   * Checks that `count` items of at least `minBytes` each could fit in the rest of the block and
   * that the count is under `limit`, before anything is allocated for them.
   */
  checkCount(count: number, minBytes: number, limit: number, what: string, offset: number = this.pos): number {
    if (count > limit) this.fail(`${what}: count ${count} exceeds the limit of ${limit}`, offset);
    if (minBytes > 0 && count * minBytes > this.end - this.pos) {
      this.fail(`${what}: count ${count} cannot fit in the ${this.end - this.pos} byte(s) left in the block`, offset);
    }
    return count;
  }
}
