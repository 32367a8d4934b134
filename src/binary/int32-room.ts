/** Growing the scratch `Int32Array`s that the writer and the printer reuse from call to call. */

/**
 * `list` when it has at least `n` entries, else a copy at least twice as long (the entries past
 * the old end are zeros): doubling keeps a list grown one entry at a time linear.
 */
export function withRoom<A extends Int32Array>(list: A, n: number): A | Int32Array<ArrayBuffer> {
  if (list.length >= n) return list;
  const grown = new Int32Array(Math.max(n, list.length * 2));
  grown.set(list);
  return grown;
}
