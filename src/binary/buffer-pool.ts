/**
 * Byte buffers given back by writers that are done, for the next writers of the same kind: a new
 * buffer costs more than its allocation (growing one by doubling allocates and copies at each
 * step, and TextDecoder reads a fresh ArrayBuffer far slower than one used before). A pool keeps
 * a few buffers up to a size; larger ones are left to the collector.
 */
export class BufferPool {
  private readonly buffers: Uint8Array[] = [];

  /** Keeps at most `count` buffers of at most `maxBytes` each. */
  constructor(
    private readonly count: number,
    private readonly maxBytes: number,
  ) {}

  /** A buffer of at least `size` bytes (its contents are whatever was there). */
  take(size: number): Uint8Array {
    const buffers = this.buffers;
    return buffers.length > 0 && buffers[buffers.length - 1]!.length >= size ? buffers.pop()! : new Uint8Array(size);
  }

  /** Gives `buf` back; the caller no longer uses it. */
  give(buf: Uint8Array): void {
    if (this.buffers.length < this.count && buf.length <= this.maxBytes) this.buffers.push(buf);
  }
}
