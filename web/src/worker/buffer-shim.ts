/**
 * The bzip2 decoder the library uses (`seek-bzip`) was written for Node and allocates a few small
 * `Buffer`s for scratch space: `new Buffer(n)` used as a byte array, plus `toString('hex')` on the
 * 6-byte block magic. Browsers have no `Buffer`, so the worker installs this minimal stand-in
 * before any decompression. It is deliberately not a general Buffer polyfill (nothing else in the
 * page needs one, and a real polyfill would be a dependency for two methods).
 */
class ScratchBuffer extends Uint8Array {
  override toString(encoding?: string): string {
    if (encoding === 'hex') {
      let s = '';
      for (const b of this) s += b.toString(16).padStart(2, '0');
      return s;
    }
    return String.fromCharCode(...this);
  }
}

export function installBufferShim(): void {
  const g = globalThis as { Buffer?: unknown };
  if (g.Buffer === undefined) g.Buffer = ScratchBuffer;
}
