/**
 * How LLVM's reader named what a symbol table names, where names clash (LLVM 1.9's
 * `Value::setName`, lib/VMCore/Value.cpp, and `SymbolTable::changeName` / `insertEntry` /
 * `getUniqueName`, lib/VMCore/SymbolTable.cpp, at r31488). The reader named each entry in turn,
 * in file order. Within one symbol table (a function's, or the module's) a name is unique per
 * type: a name another value of the type already holds becomes the name followed by a number, the
 * table's one counter (`LastUnique`, from 0, never reset) incremented until the result is free; a
 * value named again gives up its old name first; naming a value with the name it has does nothing.
 *
 * No file LLVM wrote has a clash (its writer wrote one table per function, names unique per
 * plane), so the reader checks cheaply for one (`PlaneNameFilter`) and follows LLVM's rules
 * (`SymbolNaming`) only from the entry where one may arise: a name twice in a plane, a type's
 * plane twice in a table, or a function's second table (a damaged or made-up file). Without them
 * a listing would define `%x` twice in one function, which no assembler takes back.
 */
import type { Type } from '../graph/type.js';

/** The names held in one symbol table, per type, as LLVM's reader assigned them. */
export class SymbolNaming<K> {
  private readonly planes = new Map<Type, Map<string, K>>();
  private readonly current = new Map<K, string>();
  private lastUnique = 0;

  /** Names `key` (a value of `type`) `name` as LLVM's `setName` did: the name it ends up with. */
  name(key: K, type: Type, name: string): string {
    const old = this.current.get(key) ?? '';
    if (old === name) return name;
    let plane = this.planes.get(type);
    if (plane === undefined) this.planes.set(type, (plane = new Map()));
    if (old !== '') plane.delete(old);
    if (name === '') {
      // Named → unnamed: LLVM removed the entry.
      this.current.delete(key);
      return name;
    }
    let held = name;
    while (plane.has(held)) held = name + String(++this.lastUnique);
    plane.set(held, key);
    this.current.set(key, held);
    return held;
  }
}

/** The fewest slots of the clash check's table (a power of two). */
const MIN_SLOTS = 1024;
/**
 * The most (4 MiB per typed array): a plane of more than half as many names is checked with a
 * set of the names as they come instead, so that memory follows the names read, not a count.
 */
const MAX_SLOTS = 1 << 20;

/**
 * Whether a name repeats within one plane: an open-addressing set of the plane's names, keyed by
 * their hashes (from the name interner, computed as the name was read), at most half full, reset
 * per plane by a stamp. A plane of distinct names costs a few typed-array accesses per name;
 * names are compared only where their hashes are equal.
 */
export class PlaneNameFilter {
  private marks = new Int32Array(MIN_SLOTS);
  private hashes = new Int32Array(MIN_SLOTS);
  /** The names, by slot (a packed array: written at any slot, so made full-size, never with holes). */
  private names: string[] = new Array<string>(MIN_SLOTS).fill('');
  private mask = MIN_SLOTS - 1;
  private stamp = 0;
  /** The names of a plane too large for the table. */
  private large: Set<string> | undefined = undefined;

  /** Starts a plane of `count` names. */
  beginPlane(count: number): void {
    this.large = 2 * count > MAX_SLOTS ? new Set<string>() : undefined;
    if (this.large !== undefined) return;
    let slots = this.marks.length;
    // Grown for a large plane, the table goes back to its least size for small ones, so that a
    // reader kept for long (one per thread) does not hold megabytes for one file.
    if (2 * count > slots || (slots > 16 * MIN_SLOTS && 2 * count <= MIN_SLOTS)) {
      slots = MIN_SLOTS;
      while (2 * count > slots) slots *= 2;
      this.marks = new Int32Array(slots);
      this.hashes = new Int32Array(slots);
      this.names = new Array<string>(slots).fill('');
      this.stamp = 0;
    }
    this.mask = slots - 1;
    if (++this.stamp === 0x7fffffff) {
      this.marks.fill(0);
      this.stamp = 1;
    }
  }

  /** True when `name` (whose hash is `hash`) was already met in this plane; else records it. */
  repeats(name: string, hash: number): boolean {
    const large = this.large;
    if (large !== undefined) {
      if (large.has(name)) return true;
      large.add(name);
      return false;
    }
    const { marks, hashes, mask, stamp } = this;
    let slot = hash & mask;
    while (marks[slot] === stamp) {
      if (hashes[slot] === hash && this.names[slot] === name) return true;
      slot = (slot + 1) & mask;
    }
    marks[slot] = stamp;
    hashes[slot] = hash;
    this.names[slot] = name;
    return false;
  }
}
