/** BufferPool: writers give their buffers back and the next writers take them. */
import { describe, expect, it } from 'vitest';
import { BufferPool } from '../../src/binary/buffer-pool.js';

describe('BufferPool', () => {
  it('hands a buffer given back to the next taker that fits in it', () => {
    const pool = new BufferPool(2, 1024);
    const buf = pool.take(100);
    expect(buf.length).toBe(100);
    pool.give(buf);
    expect(pool.take(50)).toBe(buf);
    expect(pool.take(50)).not.toBe(buf); // taken already: a new one
  });

  it('makes a new buffer when the kept one is too small', () => {
    const pool = new BufferPool(2, 1024);
    const small = pool.take(10);
    pool.give(small);
    const big = pool.take(200);
    expect(big).not.toBe(small);
    expect(big.length).toBe(200);
  });

  it('keeps at most `count` buffers, and none larger than `maxBytes`', () => {
    const pool = new BufferPool(1, 64);
    const a = pool.take(32);
    const b = pool.take(32);
    const huge = pool.take(128);
    pool.give(huge);
    pool.give(a);
    pool.give(b);
    expect(pool.take(32)).toBe(a);
    const next = pool.take(32);
    expect(next).not.toBe(b);
    expect(next).not.toBe(huge);
  });
});
