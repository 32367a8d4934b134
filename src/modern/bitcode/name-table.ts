/**
 * A function's local names (ir.ts's keys: `n:name`, `#N`) and what they number. Most locals of
 * a large function are numbered (`%4671`): such a key's number indexes an array, so a use costs
 * reading a few digits rather than hashing a fresh string and comparing it with the stored key.
 * Every other key (named, or a number past the array) goes in a Map; which of the two holds a
 * key depends on the key alone, so each key has one place.
 */
export class NameTable {
  private readonly named = new Map<string, number>();
  /** By number: the value of `#N`, or -1 when it is not defined. */
  private readonly numbered: Int32Array;

  /** `capacity`: how many names the table can hold (numbers from 0 below it take the array). */
  constructor(capacity: number) {
    this.numbered = new Int32Array(capacity).fill(-1);
  }

  /** Adds `key` with `value` (a non-negative int32); false when `key` is already there. */
  add(key: string, value: number): boolean {
    const n = this.index(key);
    if (n < 0) {
      if (this.named.has(key)) return false;
      this.named.set(key, value);
      return true;
    }
    if (this.numbered[n] !== -1) return false;
    this.numbered[n] = value;
    return true;
  }

  get(key: string): number | undefined {
    const n = this.index(key);
    if (n < 0) return this.named.get(key);
    const v = this.numbered[n]!;
    return v < 0 ? undefined : v;
  }

  /** The keys that are not numbers in the array, with their values, in the order they were added. */
  others(): IterableIterator<[string, number]> {
    return this.named.entries();
  }

  /** The array slot of `#N` (N written without leading zeros, below the capacity), or -1. */
  private index(key: string): number {
    const length = key.length;
    if (length < 2 || length > 10 || key.charCodeAt(0) !== 35 /* # */) return -1;
    if (key.charCodeAt(1) === 48 /* 0 */ && length > 2) return -1;
    let n = 0;
    for (let i = 1; i < length; i++) {
      const d = key.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return -1;
      n = n * 10 + d;
    }
    return n < this.numbered.length ? n : -1;
  }
}
