import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BinaryReader } from '../../src/binary/reader.js';
import { BinaryWriter } from '../../src/binary/writer.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const U64_MAX = (1n << 64n) - 1n;

/** Bytes written by `fill` on a fresh writer. */
function written(fill: (w: BinaryWriter) => void): Uint8Array {
  const w = new BinaryWriter();
  fill(w);
  return w.finish();
}

/** The BytecodeError `fn` throws (failing the test if it throws anything else or nothing). */
function errorOf(fn: () => unknown): BytecodeError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BytecodeError);
    return e as BytecodeError;
  }
  throw new Error('expected a BytecodeError');
}

/** Number of bits needed for `v` (at least 1, so 0 takes one byte). */
function bitLength(v: bigint): number {
  return Math.max(1, v.toString(2).length);
}

describe('BinaryReader: every primitive reads back what BinaryWriter wrote, over its whole domain', () => {
  it('vbr32: 0..2^32-1, in ceil(bits/7) bytes (1–5)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (v) => {
        const bytes = written((w) => w.vbr32(v));
        expect(bytes.length).toBe(Math.ceil(bitLength(BigInt(v)) / 7));
        const r = new BinaryReader(bytes);
        expect(r.vbr32()).toBe(v);
        expect(r.atEnd()).toBe(true);
      }),
      { numRuns: 2000 },
    );
    for (const v of [0, 0x7f, 0x80, 0x3fff, 0x4000, 0x1fffff, 0x200000, 0xfffffff, 0x10000000, 0xffffffff]) {
      expect(new BinaryReader(written((w) => w.vbr32(v))).vbr32()).toBe(v);
    }
  });

  it('vbr64: 0..2^64-1 as bigint, in ceil(bits/7) bytes (1–10)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), (v) => {
        const bytes = written((w) => w.vbr64(v));
        expect(bytes.length).toBe(Math.ceil(bitLength(v) / 7));
        const r = new BinaryReader(bytes);
        expect(r.vbr64()).toBe(v);
        expect(r.atEnd()).toBe(true);
      }),
      { numRuns: 2000 },
    );
    for (let bits = 0; bits <= 64; bits++) {
      for (const v of [(1n << BigInt(bits)) - 1n, bits < 64 ? 1n << BigInt(bits) : 0n]) {
        const bytes = written((w) => w.vbr64(v));
        expect(bytes.length).toBe(Math.ceil(bitLength(v) / 7));
        expect(new BinaryReader(bytes).vbr64()).toBe(v);
      }
    }
  });

  it('VBRs read the same with bytes after them (the unchecked fast path) as at the very end', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.bigInt({ min: 0n, max: U64_MAX }),
        fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
        fc.uint8Array({ minLength: 0, maxLength: 12 }),
        (a, b, c, tail) => {
          const bytes = written((w) => w.vbr32(a).vbr64(b).svbr64(c).bytes(tail));
          const r = new BinaryReader(bytes);
          expect(r.vbr32()).toBe(a);
          expect(r.vbr64()).toBe(b);
          expect(r.svbr64()).toBe(c);
          expect(r.remaining).toBe(tail.length);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('vbr64 accepts numbers and writes the same bytes as for the equal bigint', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (v) => {
        expect(written((w) => w.vbr64(v))).toEqual(written((w) => w.vbr64(BigInt(v))));
      }),
    );
  });

  it('svbr64: the whole int64 range, INT64_MIN included', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), (v) => {
        const r = new BinaryReader(written((w) => w.svbr64(v)));
        expect(r.svbr64()).toBe(v);
        expect(r.atEnd()).toBe(true);
      }),
      { numRuns: 2000 },
    );
    for (const v of [0n, 1n, -1n, INT64_MAX, INT64_MIN, INT64_MIN + 1n]) {
      expect(new BinaryReader(written((w) => w.svbr64(v))).svbr64()).toBe(v);
    }
  });

  it('svbr64 writes INT64_MIN as "negative zero", the encoding of 1, as LLVM did', () => {
    expect(written((w) => w.svbr64(INT64_MIN))).toEqual(Uint8Array.of(1));
    expect(new BinaryReader(Uint8Array.of(1)).svbr64()).toBe(INT64_MIN);
    // sign in bit 0, magnitude above it
    expect(written((w) => w.svbr64(-1n))).toEqual(Uint8Array.of(3));
    expect(written((w) => w.svbr64(1n))).toEqual(Uint8Array.of(2));
    expect(written((w) => w.svbr64(-5))).toEqual(written((w) => w.svbr64(-5n)));
  });

  it('svbr64 accepts every safe-integer number', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (v) => {
        expect(new BinaryReader(written((w) => w.svbr64(v))).svbr64()).toBe(BigInt(v));
      }),
    );
  });

  it('svbr32: the whole int32 range, INT32_MIN as "negative zero" and never -0', () => {
    fc.assert(
      fc.property(fc.integer({ min: -0x80000000, max: 0x7fffffff }), (v) => {
        const read = new BinaryReader(written((w) => w.svbr32(v))).svbr32();
        expect(Object.is(read, v)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    expect(written((w) => w.svbr32(-0x80000000))).toEqual(Uint8Array.of(1));
    expect(Object.is(new BinaryReader(Uint8Array.of(1)).svbr32(), -0x80000000)).toBe(true);
    expect(Object.is(new BinaryReader(Uint8Array.of(0)).svbr32(), 0)).toBe(true);
  });

  it('uint8 and uint32 (little-endian)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 0xffffffff }), (a, b) => {
        const bytes = written((w) => w.uint8(a).uint32(b));
        expect(bytes.length).toBe(5);
        expect(bytes[1]).toBe(b & 0xff);
        const r = new BinaryReader(bytes);
        expect([r.uint8(), r.uint32()]).toEqual([a, b]);
      }),
    );
  });

  it('float32Bits and float64Bits keep every bit pattern, NaN payloads included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.bigInt({ min: 0n, max: U64_MAX }), (f, d) => {
        const r = new BinaryReader(written((w) => w.float32Bits(f).float64Bits(d)));
        expect(r.float32Bits()).toBe(f);
        expect(r.float64Bits()).toBe(d);
      }),
      { numRuns: 1000 },
    );
    const signallingNaN = 0x7ff0_0000_0000_0001n;
    expect(new BinaryReader(written((w) => w.float64Bits(signallingNaN))).float64Bits()).toBe(signallingNaN);
    expect(new BinaryReader(written((w) => w.float32Bits(0xffc00001))).float32Bits()).toBe(0xffc00001);
  });

  it('float32 and float64 values (including NaN, ±0, ±Infinity, subnormals)', () => {
    fc.assert(
      fc.property(fc.float(), fc.double(), (f, d) => {
        const r = new BinaryReader(written((w) => w.float32(f).float64(d)));
        expect(Object.is(r.float32(), f)).toBe(true);
        expect(Object.is(r.float64(), d)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('strings: every byte value maps to the character with the same code (latin1), both ways', () => {
    const all = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i));
    const bytes = written((w) => w.string(all));
    expect(bytes.subarray(2)).toEqual(Uint8Array.from({ length: 256 }, (_, i) => i)); // vbr 256 = 2 bytes
    expect(new BinaryReader(bytes).string()).toBe(all);
    // 0x80–0x9F in particular (windows-1252 would turn 0x80 into '€')
    expect(new BinaryReader(Uint8Array.of(2, 0x80, 0x9f)).string()).toBe('\u0080\u009f');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (raw) => {
        const s = String.fromCharCode(...raw);
        const r = new BinaryReader(written((w) => w.string(s)));
        expect(r.string()).toBe(s);
        expect(r.atEnd()).toBe(true);
      }),
    );
  });

  it('long strings (beyond one decoding chunk) read back whole', () => {
    const s = 'x'.repeat(40_000) + '\u00ff';
    expect(new BinaryReader(written((w) => w.string(s))).string()).toBe(s);
  });
});

describe('BinaryReader: malformed variable-length integers', () => {
  it('accepts non-minimal encodings, as LLVM did (0x80 0x00 is 0)', () => {
    expect(new BinaryReader(Uint8Array.of(0x80, 0x00)).vbr32()).toBe(0);
    expect(new BinaryReader(Uint8Array.of(0x81, 0x80, 0x00)).vbr64()).toBe(1n);
  });

  it('vbr32 longer than 5 bytes is an error at the first byte of the integer', () => {
    const bytes = Uint8Array.of(9, 9, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00);
    const r = new BinaryReader(bytes, 2);
    const e = errorOf(() => r.vbr32());
    expect(e.offset).toBe(2);
    expect(e.reason).toMatch(/longer than 5 bytes/);
  });

  it('vbr32 with bits beyond 32 in its fifth byte is an error at the integer start', () => {
    for (const last of [0x10, 0x20, 0x40, 0x7f]) {
      const e = errorOf(() => new BinaryReader(Uint8Array.of(7, 0xff, 0xff, 0xff, 0xff, last), 1).vbr32());
      expect(e.offset).toBe(1);
      expect(e.reason).toMatch(/exceeds 32 bits/);
    }
    expect(new BinaryReader(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f)).vbr32()).toBe(0xffffffff);
  });

  it('vbr64 longer than 10 bytes, or with bits beyond 64, is an error at the integer start', () => {
    const tooLong = Uint8Array.of(0, ...new Array<number>(10).fill(0x80), 0);
    expect(errorOf(() => new BinaryReader(tooLong, 1).vbr64()).offset).toBe(1);
    const tooLarge = Uint8Array.of(0, ...new Array<number>(9).fill(0xff), 0x02);
    const e = errorOf(() => new BinaryReader(tooLarge, 1).vbr64());
    expect(e.offset).toBe(1);
    expect(e.reason).toMatch(/exceeds 64 bits/);
    expect(new BinaryReader(Uint8Array.of(...new Array<number>(9).fill(0xff), 0x01)).vbr64()).toBe(U64_MAX);
  });

  it('a truncated VBR is an error at the start of the integer, wherever it is cut', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 128n, max: U64_MAX }), fc.nat(), fc.nat(20), (v, cutSeed, prefix) => {
        const body = written((w) => w.vbr64(v));
        const cut = 1 + (cutSeed % (body.length - 1));
        const bytes = new Uint8Array(prefix + cut);
        bytes.set(body.subarray(0, cut), prefix);
        const e = errorOf(() => new BinaryReader(bytes, prefix).vbr64());
        expect(e.offset).toBe(prefix);
        expect(e.reason).toMatch(/end of/);
        if (v <= 0xffffffffn) expect(errorOf(() => new BinaryReader(bytes, prefix).vbr32()).offset).toBe(prefix);
      }),
    );
  });

  it('a string longer than the bytes left is an error, before anything is decoded', () => {
    const e = errorOf(() => new BinaryReader(Uint8Array.of(5, 0x61, 0x62)).string('a name'));
    expect(e.reason).toMatch(/a name/);
    expect(e.offset).toBe(1);
  });
});

describe('BinaryReader: bounded windows', () => {
  it('a block can never read past its end, whatever is read', () => {
    const ops: ((r: BinaryReader) => unknown)[] = [
      (r) => r.uint8(),
      (r) => r.uint32(),
      (r) => r.vbr32(),
      (r) => r.vbr64(),
      (r) => r.svbr64(),
      (r) => r.float32(),
      (r) => r.float64(),
      (r) => r.float64Bits(),
      (r) => r.string(),
      (r) => r.bytesView(3),
      (r) => r.align32(),
    ];
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.nat(),
        fc.nat(),
        fc.array(fc.nat(ops.length - 1), { maxLength: 30 }),
        (bytes, a, b, script) => {
          const start = a % bytes.length;
          const size = b % (bytes.length - start + 1);
          const r = new BinaryReader(bytes);
          r.pos = start;
          r.enterBlock('Test', size);
          const end = start + size;
          for (const op of script) {
            const before = r.pos;
            try {
              ops[op]!(r);
            } catch (e) {
              expect(e).toBeInstanceOf(BytecodeError);
              expect((e as BytecodeError).blockPath).toEqual(['Test']);
              expect((e as BytecodeError).offset).toBeGreaterThanOrEqual(before);
              expect((e as BytecodeError).offset).toBeLessThanOrEqual(end);
              r.pos = before; // a failed read may have advanced; the caller abandons the block anyway
              break;
            }
            expect(r.pos).toBeLessThanOrEqual(end);
          }
          r.leaveBlock();
          expect(r.pos).toBe(end);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a block claiming more bytes than its parent holds is an error at its header', () => {
    const r = new BinaryReader(new Uint8Array(16));
    r.enterBlock('Module', 12);
    r.pos = 4;
    const e = errorOf(() => r.enterBlock('Function', 9, 0));
    expect(e.offset).toBe(0);
    expect(e.blockPath).toEqual(['Module']);
    expect(e.reason).toMatch(/claims 9 bytes but only 8 remain/);
  });

  it('errors name the path of blocks, and leaveBlock skips what the block did not read', () => {
    const r = new BinaryReader(new Uint8Array(32));
    r.enterBlock('Module', 32);
    r.enterBlock('Function', 8);
    r.renameBlock('Function #0');
    expect(r.depth).toBe(2);
    r.uint32();
    expect(errorOf(() => r.float64()).blockPath).toEqual(['Module', 'Function #0']);
    r.leaveBlock();
    expect(r.pos).toBe(8);
    expect(r.blockPath).toEqual(['Module']);
  });

  it('align32 is relative to the stream start and may not run past the block', () => {
    const r = new BinaryReader(new Uint8Array(12));
    r.pos = 5;
    r.align32();
    expect(r.pos).toBe(8);
    r.align32();
    expect(r.pos).toBe(8);
    r.pos = 9;
    r.enterBlock('Tiny', 1);
    expect(errorOf(() => r.align32()).reason).toMatch(/alignment/);
  });

  it('checkCount refuses counts above the limit or too many for the bytes left', () => {
    const r = new BinaryReader(new Uint8Array(10));
    expect(r.checkCount(10, 1, 100, 'types')).toBe(10);
    expect(errorOf(() => r.checkCount(101, 0, 100, 'types')).reason).toMatch(/exceeds the limit of 100/);
    expect(errorOf(() => r.checkCount(6, 2, 100, 'types')).reason).toMatch(/cannot fit/);
  });
});
