/**
 * The bitstream writer (src/modern/bitcode/bitstream.ts) against the container's definition
 * (LLVM's docs/BitCodeFormat.rst): bits filled from the least significant end of little-endian
 * 32-bit words, VBR chunks with their continuation bit, blocks whose length word counts the 32-bit
 * words after it, abbreviations and BLOCKINFO. A small reader here decodes what was written.
 */
import { describe, expect, it } from 'vitest';
import { BitstreamWriteError, BitstreamWriter } from '../../../src/modern/bitcode/bitstream.js';

/** Reads bits back, least significant first. */
class Bits {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}
  read(width: number): number {
    let v = 0;
    for (let i = 0; i < width; i++, this.pos++) v += ((this.bytes[this.pos >> 3]! >> (this.pos & 7)) & 1) * 2 ** i;
    return v;
  }
  vbr(width: number): number {
    const hi = 2 ** (width - 1);
    let v = 0;
    let scale = 1;
    for (;;) {
      const chunk = this.read(width);
      v += (chunk % hi) * scale;
      if (chunk < hi) return v;
      scale *= hi;
    }
  }
  align(): void {
    this.pos = Math.ceil(this.pos / 32) * 32;
  }
  get bit(): number {
    return this.pos;
  }
}

describe('fields', () => {
  it('fixed fields fill each byte from its least significant bit, and words are little-endian', () => {
    const w = new BitstreamWriter();
    w.fixed(0b101, 3);
    w.fixed(0b11111, 5);
    w.fixed(0xabcd, 16);
    expect(Array.from(w.finish())).toEqual([0b11111101, 0xcd, 0xab, 0]);
  });

  it('a field that crosses a word boundary continues in the next word', () => {
    const w = new BitstreamWriter();
    w.fixed(0, 30);
    w.fixed(0b1011, 4);
    const out = w.finish();
    expect(out.length).toBe(8);
    const r = new Bits(out);
    r.read(30);
    expect(r.read(4)).toBe(0b1011);
  });

  it('32-bit fields hold values up to 2^32 - 1', () => {
    const w = new BitstreamWriter();
    w.fixed(3, 2);
    w.fixed(0xffffffff, 32);
    const r = new Bits(w.finish());
    expect(r.read(2)).toBe(3);
    expect(r.read(32)).toBe(0xffffffff);
  });

  it('VBR: chunks of width-1 payload bits, the top bit set on all but the last', () => {
    const w = new BitstreamWriter();
    w.vbr(27, 4); // 27 = 011 011 → chunks 1011, 0011
    expect(Array.from(w.finish())).toEqual([0b00111011, 0, 0, 0]);
  });

  it('VBR round-trips small, 32-bit and 64-bit values', () => {
    const values = [0n, 1n, 31n, 32n, 0xffffffffn, 0x100000000n, (1n << 64n) - 1n];
    const w = new BitstreamWriter();
    for (const v of values) w.vbr(v, 6);
    const r = new Bits(w.finish());
    for (const v of values.slice(0, 6)) expect(BigInt(r.vbr(6))).toBe(v);
  });

  it('refuses a value its field cannot hold', () => {
    const w = new BitstreamWriter();
    expect(() => w.fixed(8, 3)).toThrow(BitstreamWriteError);
    expect(() => w.fixed(-1, 8)).toThrow(BitstreamWriteError);
    expect(() => w.vbr(-1n, 6)).toThrow(BitstreamWriteError);
    expect(() => w.vbr(1n << 64n, 6)).toThrow(BitstreamWriteError);
    expect(() => w.vbr(1, 1)).toThrow(BitstreamWriteError);
  });
});

describe('blocks', () => {
  it('ENTER_SUBBLOCK: abbrev id 1, block id vbr8, abbrev width vbr4, aligned, then the length in words', () => {
    const w = new BitstreamWriter();
    w.enterBlock(8, 3);
    w.record(1, [2]);
    w.endBlock();
    const out = w.finish();
    const r = new Bits(out);
    expect(r.read(2)).toBe(1);
    expect(r.vbr(8)).toBe(8);
    expect(r.vbr(4)).toBe(3);
    r.align();
    const length = r.read(32);
    const bodyStart = r.bit;
    // The record: UNABBREV_RECORD (3), code vbr6, count vbr6, operand vbr6.
    expect(r.read(3)).toBe(3);
    expect(r.vbr(6)).toBe(1);
    expect(r.vbr(6)).toBe(1);
    expect(r.vbr(6)).toBe(2);
    expect(r.read(3)).toBe(0); // END_BLOCK
    r.align();
    expect((r.bit - bodyStart) / 32).toBe(length);
    expect(out.length * 8).toBe(r.bit);
  });

  it('nested blocks each get their own length, and the outer abbreviation width comes back', () => {
    const w = new BitstreamWriter();
    w.enterBlock(8, 3);
    w.enterBlock(17, 4);
    w.record(1, [0]);
    w.endBlock();
    w.record(2, []);
    w.endBlock();
    const out = w.finish();
    const words = new Uint32Array(out.buffer.slice(0));
    // Outer: header word, length word; inner: header word, length word.
    expect(words[1]).toBe(words.length - 2);
    expect(words[3]).toBeGreaterThan(0);
    expect(words[3]).toBeLessThan(words[1]!);
  });

  it('refuses to end a block that was not entered, or to finish inside one', () => {
    const w = new BitstreamWriter();
    expect(() => w.endBlock()).toThrow(BitstreamWriteError);
    w.enterBlock(8, 3);
    expect(() => w.finish()).toThrow(/still open/);
  });
});

describe('abbreviations', () => {
  it('a defined abbreviation is id 4 and writes literal, fixed, vbr and char6 operands as defined', () => {
    const w = new BitstreamWriter();
    w.enterBlock(14, 4);
    const id = w.defineAbbrev([{ kind: 'literal', value: 1 }, { kind: 'fixed', width: 8 }, { kind: 'vbr', width: 6 }, { kind: 'array' }, { kind: 'char6' }]);
    expect(id).toBe(4);
    w.abbreviated(id, [1, 200, 1000, ...Array.from('ab.9', (c) => c.charCodeAt(0))]);
    w.endBlock();
    const r = new Bits(w.finish());
    r.read(2);
    r.vbr(8);
    r.vbr(4);
    r.align();
    r.read(32);
    // DEFINE_ABBREV: id 2, 5 operands.
    expect(r.read(4)).toBe(2);
    expect(r.vbr(5)).toBe(5);
    expect([r.read(1), r.vbr(8)]).toEqual([1, 1]); // literal 1
    expect([r.read(1), r.read(3), r.vbr(5)]).toEqual([0, 1, 8]); // fixed(8)
    expect([r.read(1), r.read(3), r.vbr(5)]).toEqual([0, 2, 6]); // vbr(6)
    expect([r.read(1), r.read(3)]).toEqual([0, 3]); // array
    expect([r.read(1), r.read(3)]).toEqual([0, 4]); // char6
    // The record: abbrev id 4, then no code (a literal), 200 in 8 bits, 1000 in vbr6, the array.
    expect(r.read(4)).toBe(4);
    expect(r.read(8)).toBe(200);
    expect(r.vbr(6)).toBe(1000);
    expect(r.vbr(6)).toBe(4);
    expect([r.read(6), r.read(6), r.read(6), r.read(6)]).toEqual([0, 1, 62, 61]); // a b . 9
  });

  it('a blob is its length, then 32-bit aligned bytes, then alignment', () => {
    const w = new BitstreamWriter();
    w.enterBlock(23, 3);
    const id = w.defineAbbrev([{ kind: 'literal', value: 1 }, { kind: 'blob' }]);
    w.abbreviated(id, [1], new Uint8Array([0x41, 0x42, 0x43]));
    w.endBlock();
    const out = w.finish();
    expect(Array.from(out).join(',')).toContain('65,66,67,0');
  });

  it('refuses a record that does not match its abbreviation', () => {
    const w = new BitstreamWriter();
    w.enterBlock(14, 4);
    const id = w.defineAbbrev([
      { kind: 'literal', value: 1 },
      { kind: 'fixed', width: 3 },
    ]);
    expect(() => w.abbreviated(id, [2, 1])).toThrow(/literal/);
    expect(() => w.abbreviated(id, [1])).toThrow(/more operands/);
    expect(() => w.abbreviated(id, [1, 1, 1])).toThrow(/fewer operands/);
    expect(() => w.abbreviated(id + 1, [1])).toThrow(/not defined/);
    expect(() => w.abbreviated(id, [1, 9])).toThrow(BitstreamWriteError);
  });

  it('BLOCKINFO gives every later block of an id its abbreviations, from id 4', () => {
    const w = new BitstreamWriter();
    const ids = w.blockInfoBlock(
      new Map([
        [
          14,
          [
            [
              { kind: 'literal', value: 2 },
              { kind: 'fixed', width: 7 },
            ],
          ],
        ],
      ]),
    );
    expect(ids.get(14)).toEqual([4]);
    w.enterBlock(14, 4);
    w.abbreviated(4, [2, 100]);
    expect(w.defineAbbrev([{ kind: 'literal', value: 3 }])).toBe(5); // the block's own come after
    w.endBlock();
    w.enterBlock(15, 4);
    expect(() => w.abbreviated(4, [2, 100])).toThrow(/not defined/); // another block id has none
    w.endBlock();
    const r = new Bits(w.finish());
    // BLOCKINFO is block 0 with 2-bit abbreviation ids; its first record is SETBID 14.
    expect(r.read(2)).toBe(1);
    expect(r.vbr(8)).toBe(0);
    expect(r.vbr(4)).toBe(2);
    r.align();
    r.read(32);
    expect([r.read(2), r.vbr(6), r.vbr(6), r.vbr(6)]).toEqual([3, 1, 1, 14]);
  });
});
