/**
 * Where the numbers of a module's compact bodies (graph/compact-body.ts, `CompactBody.data`) are
 * kept: views into one buffer per module (or a few, for a large one), not an `ArrayBuffer` of
 * their own per body. A buffer of its own cost each body about 200 bytes of bookkeeping and an
 * allocation outside the heap, which in a module of thousands of small functions weighed as much
 * as the numbers themselves.
 *
 * Bodies are written into a staging buffer that every read of the thread shares (decoding is
 * synchronous, one module at a time); when the module is complete (`finish`), what it holds is
 * copied into a buffer of exactly that size, and each body's `data` becomes a view of its part.
 * So a module kept alive keeps no other module's numbers, nor unused room; but small modules
 * (at most 1 KiB of numbers) share 4 KiB buffers, so one of them kept alive keeps at most 4 KiB.
 * When a large module fills the staging buffer, its bodies keep that buffer (at most a quarter
 * of it unused) and a new one takes its place. A large body gets a buffer of its own at once.
 *
 * A body may keep more numbers than its `data` shows, right after them in the same buffer (see
 * read-body.ts): `data` covers the first `dataSize` of the `size` reserved.
 */
import type { CompactBody } from '../graph/compact-body.js';

/** The staging buffer's size, in numbers (256 KiB). */
const STAGING_SIZE = 65536;
/** Bodies of more numbers than this get a buffer of their own. */
const LARGEST_STAGED = STAGING_SIZE / 4;

let staging: Int32Array | null = null;

export class BodyArena {
  /** Numbers of the staging buffer used by this module's bodies not yet moved out. */
  private used = 0;
  /** Those bodies, and where each starts in the staging buffer. */
  private readonly pending: CompactBody[] = [];
  private readonly starts: number[] = [];
  private readonly dataSizes: number[] = [];
  private pendingCount = 0;
  /** Where the numbers of the body being written go (see `reserve`). */
  buffer: Int32Array = EMPTY;

  /**
   * Makes room for a body of `size` numbers: write them into `buffer` from the returned offset,
   * then give the body to `place`.
   */
  reserve(size: number): number {
    if (size > LARGEST_STAGED) {
      this.buffer = new Int32Array(size);
      return 0;
    }
    staging ??= new Int32Array(STAGING_SIZE);
    if (this.used + size > staging.length) {
      // Nearly full: its bodies keep it, and the next ones get a new one (no copy). Else copied.
      if (this.used >= staging.length - LARGEST_STAGED) this.handOver();
      else this.flush();
    }
    this.buffer = staging;
    return this.used;
  }

  /**
   * `body` holds the `size` numbers written at `start` after the last `reserve`, its `data` the
   * first `dataSize` of them; `data` is set here or at `finish`.
   */
  place(body: CompactBody, start: number, size: number, dataSize: number = size): void {
    if (this.buffer !== staging) {
      (body as { data: Int32Array }).data = dataSize === size ? this.buffer : this.buffer.subarray(0, dataSize);
      return;
    }
    const i = this.pendingCount++;
    this.pending[i] = body;
    this.starts[i] = start;
    this.dataSizes[i] = dataSize;
    this.used = start + size;
  }

  /** The module is complete: every body gets its numbers. */
  finish(): void {
    if (this.pendingCount !== 0) this.flush();
    this.buffer = EMPTY;
  }

  /** The staged bodies keep the staging buffer (at most a quarter of it unused); a new one is made. */
  private handOver(): void {
    const buffer = staging!.buffer;
    for (let i = 0; i < this.pendingCount; i++) {
      const body = this.pending[i]! as { data: Int32Array };
      // (A view made directly: `subarray` looks up the species constructor, twice as slow.)
      body.data = new Int32Array(buffer, this.starts[i]! * 4, this.dataSizes[i]!);
    }
    staging = new Int32Array(STAGING_SIZE);
    this.pendingCount = 0;
    this.used = 0;
  }

  /**
   * Moves the staged bodies to a buffer of their exact size; a small module's go to the end of a
   * small buffer that small modules share (a buffer of its own cost a small module more than its
   * bodies' numbers; a small module kept alive keeps at most 4 KiB of others' alive with it).
   */
  private flush(): void {
    const used = this.used;
    let buffer: Int32Array;
    let offset = 0;
    if (used <= SMALL_MODULE) {
      if (shared === null || sharedUsed + used > SHARED_SIZE) {
        shared = new Int32Array(SHARED_SIZE);
        sharedUsed = 0;
      }
      buffer = shared;
      offset = sharedUsed;
      const from = staging!;
      for (let i = 0; i < used; i++) buffer[offset + i] = from[i]!;
      sharedUsed += used;
    } else {
      buffer = staging!.slice(0, used);
    }
    for (let i = 0; i < this.pendingCount; i++) {
      const body = this.pending[i]! as { data: Int32Array };
      body.data = new Int32Array(buffer.buffer, buffer.byteOffset + (offset + this.starts[i]!) * 4, this.dataSizes[i]!);
    }
    this.pendingCount = 0;
    this.used = 0;
  }
}

/** The buffer small modules share (numbers), and how many of them a module may have to use it. */
const SHARED_SIZE = 1024;
const SMALL_MODULE = 256;
let shared: Int32Array | null = null;
let sharedUsed = 0;

/** A body's `data` until `place` or `finish` sets it. */
export const EMPTY = new Int32Array(0);
