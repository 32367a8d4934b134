import { describe, expect, it } from 'vitest';
import { bunzip2, Bzip2Error, Bzip2TooLarge } from '../../src/container/bunzip2.js';
import { compressBzip2, loadBzip2 } from '../../src/container/index.js';

/**
 * The WebAssembly decoder keeps one instance (and its memory) from call to call: these check that
 * nothing of one stream leaks into the next, whatever the first one did.
 */

/** Bytes of a fixed pseudo-random text: repetitive like bytecode, with runs of every length. */
function sample(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let s = seed;
  for (let i = 0; i < length; ) {
    s = (s * 1103515245 + 12345) >>> 0;
    const byte = (s >>> 16) % 40;
    const run = (s >>> 8) % 9 === 0 ? (s >>> 4) % 300 : 1;
    for (let k = 0; k < run && i < length; k++) out[i++] = byte;
  }
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

describe('bunzip2 (the WebAssembly decoder)', () => {
  it('decodes a stream of many blocks, after the reserved prefix', async () => {
    await loadBzip2();
    const data = sample(450_000, 1);
    const stream = compressBzip2(data, 1);
    const { buffer, consumed } = bunzip2(concat(stream, Uint8Array.of(1, 2, 3)), data.length, 4);
    expect(consumed).toBe(stream.length);
    expect(buffer.length).toBe(4 + data.length);
    expect(buffer.subarray(0, 4)).toEqual(new Uint8Array(4));
    expect(buffer.subarray(4)).toEqual(data);
  });

  it('decodes correctly after a corrupt stream, a stream over its cap and a large output', async () => {
    await loadBzip2();
    const data = sample(200_000, 2);
    const good = compressBzip2(data);
    const corrupt = good.slice();
    corrupt[good.length >> 1] ^= 0x10;
    // Longer than the 32 MiB the decoder keeps between calls: the next call starts afresh.
    const large = compressBzip2(new Uint8Array(33 * 1024 * 1024).fill(7));
    for (const before of [
      () => expect(() => bunzip2(corrupt, 1 << 30, 0)).toThrow(Bzip2Error),
      () => expect(() => bunzip2(good, data.length - 1, 0)).toThrow(Bzip2TooLarge),
      () => expect(bunzip2(large, 1 << 30, 0).buffer.length).toBe(33 * 1024 * 1024),
    ]) {
      before();
      expect(bunzip2(good, data.length, 0).buffer).toEqual(data);
    }
  });

  it('reports a bad block CRC with both values', async () => {
    await loadBzip2();
    const good = compressBzip2(sample(1000, 3));
    const bad = good.slice();
    // The block CRC follows the 4-byte header and the 6-byte block magic.
    bad[10] ^= 0xff;
    expect(() => bunzip2(bad, 1 << 20, 0)).toThrow(/^bad block CRC \(got [0-9a-f]{8}, expected [0-9a-f]{8}\)$/);
  });
});
