/**
 * The order in which LLVM r36867's `StringMap` (a value symbol table) iterated its names: by
 * bucket, after Bernstein hashing (`x * 33 + c` over *signed* chars, then `+ (x >> 5)`),
 * quadratic probing, 16 buckets to start and doubling when more than 3/4 full. It depends only
 * on the names and the order they were inserted (no removals are modelled), so a writer can
 * reproduce LLVM's order for a module that does not record the file's (`SymbolTableLayout`).
 *
 * Why its own: only r36867's value symbol tables were `StringMap`s; LLVM 1.x's were `std::map`s.
 */

function hashName(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i) & 0xff;
    h = (Math.imul(h, 33) + (c >= 0x80 ? c - 0x100 : c)) >>> 0;
  }
  return (h + (h >>> 5)) >>> 0;
}

/** `names` (distinct, in insertion order) in the order LLVM's StringMap iterated them. */
export function stringMapOrder(names: readonly string[]): string[] {
  let size = 16;
  let table: (number | undefined)[] = new Array<number | undefined>(size).fill(undefined);
  const hashes = names.map(hashName);
  let items = 0;
  const place = (tbl: (number | undefined)[], n: number, i: number): void => {
    let b = hashes[i]! & (n - 1);
    let probe = 1;
    while (tbl[b] !== undefined) b = (b + probe++) & (n - 1);
    tbl[b] = i;
  };
  for (let i = 0; i < names.length; i++) {
    place(table, size, i);
    items++;
    if (items * 4 > size * 3 || size - items < size / 8) {
      const bigger = new Array<number | undefined>(size * 2).fill(undefined);
      for (const j of table) if (j !== undefined) place(bigger, size * 2, j);
      table = bigger;
      size *= 2;
    }
  }
  const out: string[] = [];
  for (const j of table) if (j !== undefined) out.push(names[j]!);
  return out;
}
