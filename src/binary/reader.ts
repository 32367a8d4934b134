import { BytecodeError } from '../errors/bytecode-error.js';

/** Text decoder for names and strings in files: LLVM wrote raw bytes; latin1 keeps every byte. */
const latin1 = new TextDecoder('latin1');

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
      this.fail(
        `${name} block claims ${size} bytes but only ${this.end - this.pos} remain in the enclosing block`,
        headerOffset,
      );
    }
    this.ends.push(this.end);
    this.path.push(name);
    this.end = this.pos + size;
  }

  /** Leaves the innermost block; its end becomes the position (trailing bytes are skipped). */
  leaveBlock(): void {
    const outerEnd = this.ends.pop();
    if (outerEnd === undefined) throw new Error('leaveBlock without enterBlock');
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
   * on every byte but the last. More than 5 bytes, or bits beyond 32, is an error.
   */
  vbr32(): number {
    const bytes = this.bytes;
    let pos = this.pos;
    if (pos < this.end) {
      const b = bytes[pos]!;
      if (b < 0x80) {
        this.pos = pos + 1;
        return b;
      }
    }
    return this.vbr32Slow();
  }

  private vbr32Slow(): number {
    const start = this.pos;
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) this.fail('unexpected end of block inside a variable-length integer', start);
      const b = this.bytes[this.pos++]!;
      if (shift === 28 && (b & 0x70) !== 0) this.fail('variable-length 32-bit integer exceeds 32 bits', start);
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result;
      shift += 7;
      if (shift > 28) this.fail('variable-length 32-bit integer longer than 5 bytes', start);
    }
  }

  /** An unsigned 64-bit VBR, exact (up to 10 bytes). */
  vbr64(): bigint {
    const start = this.pos;
    if (this.pos < this.end && this.bytes[this.pos]! < 0x80) return BigInt(this.bytes[this.pos++]!);
    // Accumulate in a number while exact (< 2^49 after 7 groups), then switch to bigint.
    let low = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) this.fail('unexpected end of block inside a variable-length integer', start);
      const b = this.bytes[this.pos++]!;
      if (shift < 49) {
        low += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) return BigInt(low);
        shift += 7;
        continue;
      }
      // shift is 49, 56 or 63 here
      let result = BigInt(low);
      let s = BigInt(shift);
      let byte = b;
      for (;;) {
        if (shift === 63 && (byte & 0x7e) !== 0) this.fail('variable-length 64-bit integer exceeds 64 bits', start);
        result |= BigInt(byte & 0x7f) << s;
        if (byte < 0x80) return result;
        shift += 7;
        s += 7n;
        if (shift > 63) this.fail('variable-length 64-bit integer longer than 10 bytes', start);
        if (this.pos >= this.end) this.fail('unexpected end of block inside a variable-length integer', start);
        byte = this.bytes[this.pos++]!;
      }
    }
  }

  /**
   * A signed 64-bit VBR: the magnitude shifted left by one with the sign in bit 0. LLVM wrote
   * INT64_MIN as "negative zero" (the encoding of 1), and reads it back as INT64_MIN.
   */
  svbr64(): bigint {
    const v = this.vbr64();
    if ((v & 1n) === 0n) return v >> 1n;
    const magnitude = v >> 1n;
    return magnitude === 0n ? -(1n << 63n) : -magnitude;
  }

  /** A signed 32-bit VBR (sign in bit 0), as used by some old instruction operands. */
  svbr32(): number {
    const v = this.vbr32();
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
    const s = latin1.decode(this.bytes.subarray(this.pos, this.pos + len));
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
