/**
 * Where r36867's reader put each `Function` object in the heap, as an ordering key: its analyzer
 * read and listed function bodies in the order of a `std::map<Function*, …>`, so by address.
 */
export class FunctionHeapOrderV7 {
  private seq = 0;

  /** A global variable of type plane `slot` was created. */
  globalVariable(_slot: number): void {
    this.seq++;
  }

  /** Any other allocation between two functions. */
  other(): void {
    this.seq++;
  }

  /** A new `Function` of plane `slot` with `params` arguments; returns its ordering key. */
  newFunction(_slot: number, _params: number): number {
    return this.seq++;
  }
}
