/**
 * Small numbers for objects, in the order they are first asked about (0, 1, 2, …). Structural keys
 * (of constants, of types) are built from them where a member is known by its identity.
 */
export class DenseIds<T> {
  private readonly ids = new Map<T, number>();

  /** The number of `x`, given on first request. */
  of(x: T): number {
    let id = this.ids.get(x);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(x, id);
    }
    return id;
  }
}
