/**
 * LLVM's bitstream container, written (docs/BitCodeFormat.rst, "Bitstream Format"): fields of
 * fixed width and variable width (VBR), 32-bit aligned blocks whose length is patched in when the
 * block ends, abbreviations that give a record's fields their widths, and the BLOCKINFO block
 * that shares abbreviations among blocks of one id. Little-endian 32-bit words, bits filled from
 * the least significant end, as LLVM's reader expects.
 */

/** The abbreviation ids every block has (ids from 4 are the block's own abbreviations). */
export const END_BLOCK = 0;
export const ENTER_SUBBLOCK = 1;
export const DEFINE_ABBREV = 2;
export const UNABBREV_RECORD = 3;

/** The block id of BLOCKINFO and its record codes. */
export const BLOCKINFO_BLOCK_ID = 0;
const BLOCKINFO_CODE_SETBID = 1;

/** One operand of an abbreviation. */
export type AbbrevOp =
  | { readonly kind: 'literal'; readonly value: number }
  | { readonly kind: 'fixed'; readonly width: number }
  | { readonly kind: 'vbr'; readonly width: number }
  | { readonly kind: 'array' }
  | { readonly kind: 'char6' }
  | { readonly kind: 'blob' };

/** An abbreviation: its operands, the first usually the record code. An `array` is followed by its element's operand. */
export type Abbrev = readonly AbbrevOp[];

/** A value a field cannot hold, or an abbreviation used against its definition: a defect of the writer's caller. */
export class BitstreamWriteError extends RangeError {
  override readonly name = 'BitstreamWriteError';
}

const CHAR6 = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._';

/** Whether every code unit of `values` has a char6 encoding. */
export function isChar6(values: readonly number[]): boolean {
  for (const v of values) if (v > 127 || CHAR6.indexOf(String.fromCharCode(v)) < 0) return false;
  return true;
}

/** 2^width for each field width 0 … 32: a table, as `2 ** width` is a call in the hottest path. */
const FIELD_LIMIT: readonly number[] = Array.from({ length: 33 }, (_, width) => 2 ** width);

interface OpenBlock {
  /** Byte offset of the block's length word. */
  readonly lengthAt: number;
  readonly outerWidth: number;
  readonly outerAbbrevs: Abbrev[];
}

export class BitstreamWriter {
  private buf = new Uint8Array(1 << 16);
  /** Bytes of whole 32-bit words written so far. */
  private words = 0;
  /** Bits pending in the current word (an int32: bit 31 may be set), and how many. */
  private cur = 0;
  private curBits = 0;
  private width = 2;
  private abbrevs: Abbrev[] = [];
  private readonly blocks: OpenBlock[] = [];
  /** BLOCKINFO abbreviations, by block id, given to each block of that id as it is entered. */
  private readonly blockInfo = new Map<number, Abbrev[]>();

  /** Appends `width` (0 … 32) low bits of `value`. */
  fixed(value: number, width: number): void {
    if (width < 0 || width > 32) throw new BitstreamWriteError(`a fixed field is 0 to 32 bits wide, not ${width}`);
    if (width === 0) return;
    if (value < 0 || value >= FIELD_LIMIT[width]!) throw misfit(value, width);
    this.put(width === 32 ? value >>> 0 : value & (FIELD_LIMIT[width]! - 1), width);
  }

  /** Appends `value` (a non-negative safe integer or bigint below 2^64) in `width`-bit VBR chunks. */
  vbr(value: number | bigint, width: number): void {
    if (width < 2 || width > 32) throw new BitstreamWriteError(`a VBR field is 2 to 32 bits wide, not ${width}`);
    if (typeof value === 'number' && value >>> 0 === value) {
      this.vbr32(value, width);
      return;
    }
    let v = BigInt(value);
    if (v < 0n || v >= 1n << 64n) throw new BitstreamWriteError(`${v} is not a 64-bit unsigned value`);
    if (v <= 0xffffffffn) {
      this.vbr32(Number(v), width);
      return;
    }
    const payload = BigInt(width - 1);
    const hi = 1n << payload;
    const mask = hi - 1n;
    while (v >= hi) {
      this.put(Number((v & mask) | hi), width);
      v >>= payload;
    }
    this.put(Number(v), width);
  }

  /** Pads with zero bits to a 32-bit boundary. */
  align32(): void {
    if (this.curBits > 0) {
      this.flushWord(this.cur);
      this.cur = 0;
      this.curBits = 0;
    }
  }

  /** Enters block `id`, whose abbreviation ids are `abbrevWidth` bits wide. */
  enterBlock(id: number, abbrevWidth: number): void {
    this.fixed(ENTER_SUBBLOCK, this.width);
    this.vbr(id, 8);
    this.vbr(abbrevWidth, 4);
    this.align32();
    const lengthAt = this.words;
    this.flushWord(0); // patched by endBlock
    this.blocks.push({ lengthAt, outerWidth: this.width, outerAbbrevs: this.abbrevs });
    this.width = abbrevWidth;
    this.abbrevs = [...(this.blockInfo.get(id) ?? [])];
  }

  /** Ends the innermost block and writes its length, in 32-bit words after the length word. */
  endBlock(): void {
    const b = this.blocks.pop();
    if (!b) throw new BitstreamWriteError('no block to end');
    this.fixed(END_BLOCK, this.width);
    this.align32();
    const words = (this.words - b.lengthAt) / 4 - 1;
    new DataView(this.buf.buffer).setUint32(b.lengthAt, words, true);
    this.width = b.outerWidth;
    this.abbrevs = b.outerAbbrevs;
  }

  /** Defines an abbreviation in the current block; returns its id. */
  defineAbbrev(abbrev: Abbrev): number {
    this.emitAbbrevDefinition(abbrev);
    this.abbrevs.push(abbrev);
    return this.abbrevs.length + 3;
  }

  /**
   * Writes a BLOCKINFO block that gives every block of each listed id the listed abbreviations
   * (ids from 4, in order); returns their ids per block id.
   */
  blockInfoBlock(entries: ReadonlyMap<number, readonly Abbrev[]>): Map<number, number[]> {
    const ids = new Map<number, number[]>();
    this.enterBlock(BLOCKINFO_BLOCK_ID, 2);
    for (const [blockId, abbrevs] of entries) {
      this.record(BLOCKINFO_CODE_SETBID, [blockId]);
      const list = this.blockInfo.get(blockId) ?? [];
      for (const a of abbrevs) {
        this.emitAbbrevDefinition(a);
        list.push(a);
      }
      this.blockInfo.set(blockId, list);
      ids.set(
        blockId,
        list.map((_, i) => i + 4),
      );
    }
    this.endBlock();
    return ids;
  }

  /** An unabbreviated record: code and operands as 6-bit VBRs. */
  record(code: number, ops: readonly (number | bigint)[]): void {
    this.fixed(UNABBREV_RECORD, this.width);
    this.vbr6(code);
    this.vbr6(ops.length);
    for (let i = 0; i < ops.length; i++) {
      const o = ops[i]!;
      if (typeof o === 'number') this.vbr6(o);
      else this.vbr(o, 6);
    }
  }

  /**
   * An unabbreviated record of the first `count` numbers of `ops`: what `record` writes, for a
   * caller that fills one scratch array record after record instead of allocating one each.
   */
  recordOf(code: number, ops: readonly number[], count: number): void {
    if (count > ops.length) throw new BitstreamWriteError(`a record of ${count} operands given ${ops.length}`);
    this.fixed(UNABBREV_RECORD, this.width);
    this.vbr6(code);
    this.vbr6(count);
    for (let i = 0; i < count; i++) this.vbr6(ops[i]!);
  }

  /**
   * A record written with abbreviation `id`: `values` are the code and operands in order (a
   * literal's value must be given and equal); an array takes all remaining values, a blob the
   * bytes `blob`.
   */
  abbreviated(id: number, values: readonly (number | bigint)[], blob?: Uint8Array): void {
    const abbrev = this.abbrevs[id - 4];
    if (!abbrev) throw new BitstreamWriteError(`abbreviation ${id} is not defined in this block`);
    this.fixed(id, this.width);
    let i = 0;
    for (let k = 0; k < abbrev.length; k++) {
      const op = abbrev[k]!;
      if (op.kind === 'array') {
        const el = abbrev[++k];
        if (!el || el.kind === 'array' || el.kind === 'blob') throw new BitstreamWriteError('an array abbreviation needs a scalar element operand');
        this.vbr6(values.length - i);
        for (; i < values.length; i++) this.scalar(el, values[i]!);
      } else if (op.kind === 'blob') {
        if (!blob) throw new BitstreamWriteError('a blob abbreviation needs bytes');
        this.vbr(blob.length, 6);
        this.align32();
        for (let k = 0; k < blob.length; k++) this.put(blob[k]!, 8);
        this.align32();
      } else {
        const v = values[i++];
        if (v === undefined) throw new BitstreamWriteError(`abbreviation ${id} has more operands than the record`);
        this.scalar(op, v);
      }
    }
    if (i < values.length) throw new BitstreamWriteError(`abbreviation ${id} has fewer operands than the record`);
  }

  /** The stream so far; call when every block has ended. */
  finish(): Uint8Array {
    if (this.blocks.length) throw new BitstreamWriteError(`${this.blocks.length} block(s) still open`);
    this.align32();
    return this.buf.slice(0, this.words);
  }

  private scalar(op: AbbrevOp, v: number | bigint): void {
    switch (op.kind) {
      case 'literal':
        if (BigInt(v) !== BigInt(op.value)) throw new BitstreamWriteError(`literal operand ${op.value} given ${v}`);
        return;
      case 'fixed':
        this.fixed(Number(v), op.width);
        return;
      case 'vbr':
        this.vbr(v, op.width);
        return;
      case 'char6': {
        const c = CHAR6.indexOf(String.fromCharCode(Number(v)));
        if (c < 0) throw new BitstreamWriteError(`${v} has no char6 encoding`);
        this.fixed(c, 6);
        return;
      }
      default:
        throw new BitstreamWriteError(`a ${op.kind} operand cannot be an array element`);
    }
  }

  private emitAbbrevDefinition(abbrev: Abbrev): void {
    this.fixed(DEFINE_ABBREV, this.width);
    this.vbr(abbrev.length, 5);
    for (const op of abbrev) {
      if (op.kind === 'literal') {
        this.fixed(1, 1);
        this.vbr(op.value, 8);
        continue;
      }
      this.fixed(0, 1);
      const enc = { fixed: 1, vbr: 2, array: 3, char6: 4, blob: 5 }[op.kind];
      this.fixed(enc, 3);
      if (op.kind === 'fixed' || op.kind === 'vbr') this.vbr(op.width, 5);
    }
  }

  /** Appends the `width` low bits of `v`, which has no bits above them (an int32 or a uint32). */
  private put(v: number, width: number): void {
    const bits = this.curBits;
    const total = bits + width;
    this.cur |= v << bits;
    if (total < 32) {
      this.curBits = total;
      return;
    }
    this.flushWord(this.cur);
    // What did not fit starts the next word (nothing when the field ended exactly on the boundary).
    this.cur = bits === 0 ? 0 : v >>> (32 - bits);
    this.curBits = total - 32;
  }

  /** A 6-bit VBR (record codes, counts and operands), without the bigint path for the usual small values. */
  private vbr6(n: number): void {
    if ((n & 31) === n) {
      this.put(n, 6);
      return;
    }
    if (n >>> 0 !== n) {
      // Wide, negative or not an integer: the general path, which checks.
      this.vbr(n, 6);
      return;
    }
    do {
      this.put((n & 31) | 32, 6);
      n >>>= 5;
    } while (n > 31);
    this.put(n, 6);
  }

  /** A VBR of a value below 2^32. */
  private vbr32(n: number, width: number): void {
    const h = FIELD_LIMIT[width - 1]!;
    while (n >= h) {
      this.put((n % h) + h, width);
      n = Math.floor(n / h);
    }
    this.put(n, width);
  }

  private flushWord(w: number): void {
    if (this.words + 4 > this.buf.length) this.grow();
    const b = this.buf;
    const at = this.words;
    b[at] = w & 0xff;
    b[at + 1] = (w >>> 8) & 0xff;
    b[at + 2] = (w >>> 16) & 0xff;
    b[at + 3] = (w >>> 24) & 0xff;
    this.words += 4;
  }

  /** Doubles the buffer (apart from flushWord, which runs for every word). */
  private grow(): void {
    const bigger = new Uint8Array(this.buf.length * 2);
    bigger.set(this.buf);
    this.buf = bigger;
  }
}

function misfit(value: number, width: number): BitstreamWriteError {
  return new BitstreamWriteError(`${value} does not fit a ${width}-bit field`);
}
