/**
 * The section names a module global info block lists at its end: each global or function that
 * has a section writes its number (1-based, in order of first use), and the list follows. Every
 * version that has sections (4–7) numbers them this way.
 */
export class SectionNames {
  /** The names in number order (number `k + 1` is `names[k]`). */
  readonly names: string[] = [];
  private readonly ids = new Map<string, number>();

  /** The number of section `name`, given it the first time it is asked for. */
  id(name: string): number {
    let n = this.ids.get(name);
    if (n === undefined) {
      this.names.push(name);
      n = this.names.length;
      this.ids.set(name, n);
    }
    return n;
  }
}
