/**
 * Where the numbers of a module's compact bodies (graph/compact-body.ts, `CompactBody.data`) are
 * kept: consecutive views into a few shared buffers, not an `ArrayBuffer` of its own per body.
 * A buffer of its own cost each body about 200 bytes of bookkeeping and an allocation outside the
 * heap, which in a module of thousands of small functions weighed as much as the numbers
 * themselves; a view is one small object.
 *
 * One arena per module read: its buffers hold only that module's bodies, so a module kept alive
 * keeps no other module's numbers alive, and the last buffer is cut to what it holds when the
 * module is complete (`finish`). A large body still gets a buffer of its own.
 */
import type { CompactBody } from '../graph/compact-body.js';

/** The largest buffer shared by bodies, in numbers (256 KiB). */
const LARGEST_CHUNK = 65536;
/** Bodies of more numbers than this get a buffer of their own. */
const LARGEST_SHARED = LARGEST_CHUNK / 4;
/** The smallest buffer shared by bodies, in numbers. */
const SMALLEST_CHUNK = 256;

export class BodyArena {
  private chunk: Int32Array | null = null;
  /** Numbers of `chunk` handed out so far. */
  private used = 0;
  /** Bodies whose numbers are in `chunk`, to move them when it is cut (`finish`). */
  private readonly inChunk: CompactBody[] = [];
  /** Whether the last `take` came from `chunk`. */
  private lastShared = false;

  /**
   * Room for `size` numbers, zeroed. `bytesLeft`, the bytes of the module still to be read, sizes
   * a new buffer: a body's numbers are fewer than its bytes in the files LLVM wrote (an
   * instruction of 4 bytes holds at most 3 operands), so a buffer sized by it rarely runs out.
   */
  take(size: number, bytesLeft: number): Int32Array {
    if (size > LARGEST_SHARED) {
      this.lastShared = false;
      return new Int32Array(size);
    }
    let chunk = this.chunk;
    if (chunk === null || this.used + size > chunk.length) {
      chunk = this.chunk = new Int32Array(Math.min(LARGEST_CHUNK, Math.max(SMALLEST_CHUNK, size, bytesLeft)));
      this.used = 0;
      this.inChunk.length = 0;
    }
    const start = this.used;
    this.used = start + size;
    this.lastShared = true;
    return chunk.subarray(start, start + size);
  }

  /** Records the body that holds the numbers the last `take` returned. */
  placed(body: CompactBody): void {
    if (this.lastShared) this.inChunk.push(body);
  }

  /**
   * The module is complete: when the last buffer is mostly unused, its bodies move to one of
   * their exact size, so the unused part is not kept alive with the module.
   */
  finish(): void {
    const chunk = this.chunk;
    if (chunk === null) return;
    const used = this.used;
    if (chunk.length - used > used >>> 3) {
      const copy = chunk.slice(0, used);
      for (const body of this.inChunk) {
        const data = body.data;
        const start = (data.byteOffset - chunk.byteOffset) >>> 2;
        (body as { data: Int32Array }).data = copy.subarray(start, start + data.length);
      }
    }
    this.chunk = null;
    this.inChunk.length = 0;
  }
}
