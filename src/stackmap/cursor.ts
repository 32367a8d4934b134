import { StackMapError } from './errors.js';
import type { Endian } from './model.js';

/**
 * A bounded reader of fixed-size integers in either byte order (stack maps and object files come in
 * both; the bytecode's BinaryReader is little-endian and VBR-oriented). Every read is checked
 * against `end`; a read past it is a StackMapError at the offset, in `base + position` terms so that
 * errors name the byte in the whole input file.
 */
export class Cursor {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly little: boolean;
  pos: number;
  end: number;
  /** Added to positions in errors: where `bytes` starts in the file the user gave. */
  readonly base: number;
  readonly path: string[];

  constructor(bytes: Uint8Array, endian: Endian, base = 0, path: readonly string[] = []) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.little = endian === 'little';
    this.pos = 0;
    this.end = bytes.length;
    this.base = base;
    this.path = [...path];
  }

  fail(reason: string, at = this.pos, fork?: string): never {
    throw new StackMapError(reason, this.base + at, this.path, fork);
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  /** Fails unless `n` more bytes are there (`what` names them in the message). */
  need(n: number, what: string): void {
    if (n > this.end - this.pos) this.fail(`${what} needs ${n} bytes but ${this.end - this.pos} remain`);
  }

  u8(what = 'a byte'): number {
    this.need(1, what);
    return this.bytes[this.pos++]!;
  }
  u16(what = 'a 16-bit field'): number {
    this.need(2, what);
    const v = this.view.getUint16(this.pos, this.little);
    this.pos += 2;
    return v;
  }
  u32(what = 'a 32-bit field'): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos, this.little);
    this.pos += 4;
    return v;
  }
  i32(what = 'a 32-bit field'): number {
    this.need(4, what);
    const v = this.view.getInt32(this.pos, this.little);
    this.pos += 4;
    return v;
  }
  u64(what = 'a 64-bit field'): bigint {
    this.need(8, what);
    const v = this.view.getBigUint64(this.pos, this.little);
    this.pos += 8;
    return v;
  }
  /** The bytes from here to the next multiple of `alignment` (relative to the start of `bytes`). */
  padTo(alignment: number, what: string): Uint8Array {
    const n = (alignment - (this.pos % alignment)) % alignment;
    this.need(n, what);
    const pad = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return pad;
  }

  /** Plain reads at a position, for peeking (undefined past the end). */
  peekU32(at: number): number | undefined {
    return at + 4 <= this.end ? this.view.getUint32(at, this.little) : undefined;
  }
}
