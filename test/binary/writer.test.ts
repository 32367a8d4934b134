import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BinaryReader } from '../../src/binary/reader.js';
import { BinaryWriter } from '../../src/binary/writer.js';
import { WriteRangeError } from '../../src/errors/write-range-error.js';
import { LlvmBytecodeError } from '../../src/errors/library-error.js';

const U64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);

describe('BinaryWriter: inputs are asserted, never silently wrong bytes', () => {
  const cases: [string, (w: BinaryWriter) => unknown][] = [
    ['uint8 256', (w) => w.uint8(256)],
    ['uint8 -1', (w) => w.uint8(-1)],
    ['uint8 1.5', (w) => w.uint8(1.5)],
    ['uint32 2^32', (w) => w.uint32(2 ** 32)],
    ['uint32 -1', (w) => w.uint32(-1)],
    ['uint32 NaN', (w) => w.uint32(Number.NaN)],
    ['vbr32 2^32', (w) => w.vbr32(2 ** 32)],
    ['vbr32 -1', (w) => w.vbr32(-1)],
    ['vbr32 0.5', (w) => w.vbr32(0.5)],
    ['vbr32 Infinity', (w) => w.vbr32(Infinity)],
    ['vbr64 2^64', (w) => w.vbr64(1n << 64n)],
    ['vbr64 -1n', (w) => w.vbr64(-1n)],
    ['vbr64 unsafe number', (w) => w.vbr64(2 ** 53)],
    ['svbr64 2^63', (w) => w.svbr64(1n << 63n)],
    ['svbr64 below INT64_MIN', (w) => w.svbr64(INT64_MIN - 1n)],
    ['svbr64 unsafe number', (w) => w.svbr64(-(2 ** 53))],
    ['svbr32 2^31', (w) => w.svbr32(2 ** 31)],
    ['svbr32 below INT32_MIN', (w) => w.svbr32(-(2 ** 31) - 1)],
    ['float32Bits 2^32', (w) => w.float32Bits(2 ** 32)],
    ['float64Bits 2^64', (w) => w.float64Bits(1n << 64n)],
    ['string with U+0100', (w) => w.string('ok\u0100')],
    ['string with an emoji', (w) => w.string('\u{1F600}')],
    ['align32 fill 256', (w) => w.align32(256)],
    ['short block id 32', (w) => w.beginBlock(32)],
    ['long block id 2^32', (w) => w.beginBlock(2 ** 32, true)],
  ];
  for (const [name, write] of cases) {
    it(`${name} throws a WriteRangeError (one of the family) and writes nothing`, () => {
      const w = new BinaryWriter();
      w.uint8(7);
      expect(() => write(w)).toThrow(WriteRangeError);
      expect(() => write(w)).toThrow(LlvmBytecodeError);
      expect(w.length).toBe(1);
      expect(w.finish()).toEqual(Uint8Array.of(7));
    });
  }

  it('rejects a fill byte or capacity that is out of range at construction', () => {
    expect(() => new BinaryWriter({ alignFill: -1 })).toThrow(WriteRangeError);
    expect(() => new BinaryWriter({ initialCapacity: 1.5 })).toThrow(WriteRangeError);
  });
});

describe('BinaryWriter: encodings', () => {
  it('vbr32 writes 7 bits a byte, low groups first, high bit on all but the last', () => {
    expect(new BinaryWriter().vbr32(0).finish()).toEqual(Uint8Array.of(0));
    expect(new BinaryWriter().vbr32(127).finish()).toEqual(Uint8Array.of(0x7f));
    expect(new BinaryWriter().vbr32(128).finish()).toEqual(Uint8Array.of(0x80, 0x01));
    expect(new BinaryWriter().vbr32(300).finish()).toEqual(Uint8Array.of(0xac, 0x02));
    expect(new BinaryWriter().vbr32(0xffffffff).finish()).toEqual(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f));
    expect(new BinaryWriter().vbr64(U64_MAX).finish()).toEqual(Uint8Array.of(...new Array<number>(9).fill(0xff), 0x01));
  });

  it('uint32, float32 and float64 are little-endian IEEE', () => {
    expect(new BinaryWriter().uint32(0x01020304).finish()).toEqual(Uint8Array.of(4, 3, 2, 1));
    expect(new BinaryWriter().float32(1).finish()).toEqual(Uint8Array.of(0, 0, 0x80, 0x3f));
    expect(new BinaryWriter().float64(-2).finish()).toEqual(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0xc0));
  });

  it('align32 pads relative to the stream start with the configured byte (0xAB by default, as LLVM 1.1–1.3)', () => {
    expect(new BinaryWriter().uint8(1).align32().finish()).toEqual(Uint8Array.of(1, 0xab, 0xab, 0xab));
    expect(new BinaryWriter({ alignFill: 0 }).uint8(1).align32().finish()).toEqual(Uint8Array.of(1, 0, 0, 0));
    expect(new BinaryWriter().uint8(1).align32(0x11).finish()).toEqual(Uint8Array.of(1, 0x11, 0x11, 0x11));
    expect(new BinaryWriter().uint32(5).align32().length).toBe(4);
  });

  it('grows by doubling from a tiny buffer without losing bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 500 }), (values) => {
        const w = new BinaryWriter({ initialCapacity: 1 });
        for (const v of values) w.vbr32(v).uint32(v);
        const r = new BinaryReader(w.finish());
        for (const v of values) {
          expect(r.vbr32()).toBe(v);
          expect(r.uint32()).toBe(v);
        }
        expect(r.atEnd()).toBe(true);
      }),
    );
  });

  it('patchUint32 overwrites an earlier word and refuses positions not yet written', () => {
    const w = new BinaryWriter().uint32(0).uint32(0);
    w.patchUint32(4, 0xdeadbeef);
    expect(new BinaryReader(w.finish()).pos).toBe(0);
    expect(Array.from(w.finish().subarray(4))).toEqual([0xef, 0xbe, 0xad, 0xde]);
    expect(() => w.patchUint32(6, 1)).toThrow(WriteRangeError);
  });
});

describe('BinaryWriter: blocks', () => {
  it('short form: one word, id in the low 5 bits, body size (header excluded) in the high 27', () => {
    const w = new BinaryWriter();
    w.beginBlock(7);
    w.uint8(1).uint8(2).uint8(3);
    expect(w.endBlock()).toBe(3);
    const bytes = w.finish();
    expect(bytes.length).toBe(7);
    const word = new DataView(bytes.buffer).getUint32(0, true);
    expect(word & 0x1f).toBe(7);
    expect(word >>> 5).toBe(3);
  });

  it('long form: the id word, then the body size word', () => {
    const w = new BinaryWriter();
    w.beginBlock(0x11, true).uint32(9).uint8(1);
    expect(w.endBlock()).toBe(5);
    expect(Array.from(w.finish())).toEqual([0x11, 0, 0, 0, 5, 0, 0, 0, 9, 0, 0, 0, 1]);
  });

  it('nested blocks each count their own body; an outer size includes inner headers', () => {
    const w = new BinaryWriter();
    w.beginBlock(1, true);
    w.beginBlock(3).uint32(1);
    expect(w.endBlock()).toBe(4);
    w.beginBlock(4).uint8(1);
    expect(w.endBlock()).toBe(1);
    expect(w.depth).toBe(1);
    expect(w.endBlock()).toBe(4 + 4 + 4 + 1);
    expect(w.depth).toBe(0);
  });

  it('with alignAfterBlocks (versions 0–3) pads after each block with 0xAB, outside its size', () => {
    const w = new BinaryWriter({ alignAfterBlocks: true });
    w.beginBlock(0x12, true).uint8(0x42);
    expect(w.endBlock()).toBe(1);
    expect(Array.from(w.finish())).toEqual([0x12, 0, 0, 0, 1, 0, 0, 0, 0x42, 0xab, 0xab, 0xab]);
  });

  it('elideIfEmpty removes an empty block, header and all, and keeps a non-empty one', () => {
    const w = new BinaryWriter();
    w.uint8(9);
    w.beginBlock(4);
    expect(w.endBlock({ elideIfEmpty: true })).toBe(0);
    expect(w.length).toBe(1);
    w.beginBlock(4).uint8(1);
    expect(w.endBlock({ elideIfEmpty: true })).toBe(1);
    expect(w.length).toBe(6);
    w.beginBlock(4);
    expect(w.endBlock()).toBe(0); // not elided unless asked
    expect(w.length).toBe(10);
  });

  it('unbalanced blocks are programming errors', () => {
    expect(() => new BinaryWriter().endBlock()).toThrow(/endBlock without beginBlock/);
    expect(() => new BinaryWriter().beginBlock(1).finish()).toThrow(/still open/);
  });

  it('round-trips through BinaryReader.enterBlock: the reader sees exactly the body', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }), fc.boolean(), (bodies, long) => {
        const w = new BinaryWriter({ alignAfterBlocks: true });
        for (const [i, body] of bodies.entries())
          w.beginBlock(i + 1, long)
            .bytes(body)
            .endBlock();
        const r = new BinaryReader(w.finish());
        for (const [i, body] of bodies.entries()) {
          const headerOffset = r.pos;
          const id = long ? r.uint32() : undefined;
          const word = r.uint32();
          const size = long ? word : word >>> 5;
          expect(long ? id : word & 0x1f).toBe(i + 1);
          r.enterBlock(`B${i}`, size, headerOffset);
          expect(r.bytesView(r.remaining)).toEqual(body);
          r.leaveBlock();
          r.align32();
        }
        expect(r.atEnd()).toBe(true);
      }),
    );
  });
});
