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
