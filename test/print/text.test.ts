import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeString, formatExponential, formatFloat, llvmName } from '../../src/print/text.js';

const bitsOf = (v: number): bigint => {
  const d = new DataView(new ArrayBuffer(8));
  d.setFloat64(0, v);
  return d.getBigUint64(0);
};

describe('llvmName', () => {
  it('prefixes simple names with %', () => {
    expect(llvmName('foo.bar-1_x')).toBe('%foo.bar-1_x');
  });
  it('quotes names starting with a digit or holding other characters, without escaping', () => {
    expect(llvmName('1abc')).toBe('"1abc"');
    expect(llvmName('a b')).toBe('"a b"');
    expect(llvmName('a$b')).toBe('"a$b"');
    expect(llvmName('caf\u00e9')).toBe('"caf\u00e9"');
  });
  it('omits the % for labels', () => {
    expect(llvmName('entry', false)).toBe('entry');
    expect(llvmName('2x', false)).toBe('"2x"');
  });
});

describe('escapeString', () => {
  it('keeps printable ASCII and escapes the rest in upper-case hex', () => {
    expect(escapeString('hello world')).toBe('hello world');
    expect(escapeString('a"b\\c\n\u0000\u00ff')).toBe('a\\22b\\5Cc\\0A\\00\\FF');
  });
});

describe('formatFloat', () => {
  it('prints exactly representable values in %e form', () => {
    expect(formatFloat(0, 0n, false)).toBe('0.000000e+00');
    expect(formatFloat(1, bitsOf(1), false)).toBe('1.000000e+00');
    expect(formatFloat(-2.5e-12, bitsOf(-2.5e-12), false)).toBe('-2.500000e-12');
    expect(formatFloat(1.23e100, bitsOf(1.23e100), false)).toBe('1.230000e+100');
    expect(formatFloat(-0, bitsOf(-0), false)).toBe('-0.000000e+00');
  });
  it('falls back to the double bits in hex', () => {
    expect(formatFloat(0.1 + 0.2, bitsOf(0.1 + 0.2), false)).toBe('0x3FD3333333333334');
    expect(formatFloat(1.1, bitsOf(1.1), false)).toBe('1.100000e+00');
    expect(formatFloat(Infinity, bitsOf(Infinity), false)).toBe('0x7FF0000000000000');
    expect(formatFloat(NaN, 0x7ff8000000000000n, false)).toBe('0x7FF8000000000000');
  });
  it('widens float NaNs and infinities from their 32 bits', () => {
    expect(formatFloat(NaN, 0x7fc00000n, true)).toBe('0x7FF8000000000000');
    expect(formatFloat(-Infinity, 0xff800000n, true)).toBe('0xFFF0000000000000');
  });
  it('formats like C printf %.6e', () => {
    expect(formatExponential(123456789)).toBe('1.234568e+08');
    expect(formatExponential(5e-324)).toBe('4.940656e-324');
  });
});

describe('properties', () => {
  it('llvmName quotes exactly the names LLVM could not write bare', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), (name) => {
        const out = llvmName(name);
        const bare = /^[A-Za-z\-._][A-Za-z0-9\-._]*$/.test(name);
        expect(out).toBe(bare ? '%' + name : '"' + name + '"');
      }),
    );
  });

  it('formatFloat gives back the same double, in decimal or in hex bits', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (v) => {
        const text = formatFloat(v, bitsOf(v), false);
        if (text.startsWith('0x')) {
          expect(BigInt(text)).toBe(bitsOf(v));
        } else {
          expect(Object.is(Number(text), v) || (v === 0 && Number(text) === 0)).toBe(true);
          expect(text).toMatch(/^-?\d\.\d{6}e[+-]\d{2,3}$/);
        }
      }),
    );
  });
});
