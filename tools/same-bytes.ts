/** Whether two byte arrays hold the same bytes (the tools' comparisons of written output; Node's native compare). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}
