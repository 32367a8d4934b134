/**
 * Value planes: every value lives in the plane of its type and is referred to by its slot there
 * (docs/format.md §7). Module planes hold globals, functions and module constants; a function sees
 * the module planes (or its compaction table's view of them) followed by its own values.
 */
import type { BinaryReader } from '../binary/reader.js';
import { hasImplicitNull, type FormatRow } from '../format/format-table.js';
import { nullValue } from '../graph/describe.js';
import type { Type } from '../graph/type.js';
import type { Value } from '../graph/value.js';

/** The null value of `t` that occupies slot 0 of its plane when the version gives planes one. */
export const nullValueOf = nullValue;

/** Module-level planes, created on first use with their implicit null. */
export class ModulePlanes {
  private readonly planes = new Map<Type, Value[]>();

  constructor(
    private readonly row: FormatRow,
    /** Normalized type id of each type, to decide whether its plane starts with a null. */
    private readonly typeIdOf: (t: Type) => number,
  ) {}

  plane(t: Type): Value[] {
    let p = this.planes.get(t);
    if (p === undefined) {
      p = [];
      if (hasImplicitNull(this.row, this.typeIdOf(t), t.kind === 'opaque')) p.push(nullValueOf(t));
      this.planes.set(t, p);
    }
    return p;
  }

  /** The value at `slot` of `t`'s plane, or undefined if there is none (yet). */
  get(t: Type, slot: number): Value | undefined {
    return this.plane(t)[slot];
  }

  private ownSlots: Map<Value, number> | undefined;

  /**
   * Whether `slot` of `g`'s plane is `g`'s own slot. It is not when the slot holds a version-0
   * "constant pointer reference" to `g` (which the reader resolves to `g` itself). Globals are
   * numbered before any constant, so a global's first slot in its plane is its own.
   */
  isOwnSlot(slot: number, g: Value): boolean {
    if (this.ownSlots === undefined) {
      this.ownSlots = new Map();
      for (const plane of this.planes.values()) {
        for (let i = 0; i < plane.length; i++) {
          const v = plane[i]!;
          if ((v.kind === 'global' || v.kind === 'function') && !this.ownSlots.has(v)) this.ownSlots.set(v, i);
        }
      }
    }
    const own = this.ownSlots.get(g);
    return own === undefined || own === slot;
  }
}

/** Where a function's planes record the values that tag-0 codes name (the function scope). */
export interface ValueCodes {
  /** A new tag-0 code for `v`. */
  valueCode(v: Value): number;
}

/**
 * One plane as a function sees it: a prefix shared with the module (the module plane itself, or
 * the compaction table's selection from it) and the function's own values after it, as value
 * codes (graph/compact-body.ts). The prefix is not copied, so a function costs nothing for module
 * planes it does not touch; a prefix value gets a code in the function's values when an operand
 * names it.
 *
 * A plane is reused by the next functions of the module (`reset`): setting up a plane and its
 * arrays for every function was a good part of reading a module of many small functions.
 */
export class LocalPlane {
  /** How many values of `prefix` the plane starts with (a compaction table's list is reused). */
  private prefixLength: number;
  /** The codes of the function's own values: `own[0, ownLength)` (the rest is stale). */
  private readonly own: number[] = [];
  private ownLength = 0;
  /** Codes given to prefix slots in this function (-1 or past the end: none yet). */
  private readonly prefixCodes: number[] = [];
  /** The prefix slots given a code in this function, to forget them at `reset`. */
  private readonly touched: number[] = [];
  private touchedLength = 0;

  constructor(
    private prefix: readonly Value[],
    prefixLength: number,
    /** The function's table of tag-0 values (shared by all its planes). */
    private readonly values: ValueCodes,
    /** The function this plane was last set up for (see FunctionScope). */
    public generation: number,
  ) {
    this.prefixLength = prefixLength;
  }

  /** Makes the plane empty again for another function, starting with `prefix[0, prefixLength)`. */
  reset(prefix: readonly Value[], prefixLength: number, generation: number): void {
    const codes = this.prefixCodes;
    const touched = this.touched;
    for (let i = 0; i < this.touchedLength; i++) codes[touched[i]!] = -1;
    this.touchedLength = 0;
    this.prefix = prefix;
    this.prefixLength = prefixLength;
    this.ownLength = 0;
    this.generation = generation;
  }

  get length(): number {
    return this.prefixLength + this.ownLength;
  }

  /** The value code of `slot`, or -1 when the plane has no such slot (yet). */
  code(slot: number): number {
    const n = this.prefixLength;
    if (slot < n) {
      const codes = this.prefixCodes;
      let c = slot < codes.length ? codes[slot]! : -1;
      if (c < 0) {
        const v = this.prefix[slot];
        if (v === undefined) return -1;
        c = this.values.valueCode(v);
        // Filled to the prefix's length at once, so the array stays dense (a module plane can hold
        // thousands of globals and functions).
        while (codes.length < n) codes.push(-1);
        codes[slot] = c;
        this.touched[this.touchedLength++] = slot;
      }
      return c;
    }
    const k = slot - n;
    return k < this.ownLength ? this.own[k]! : -1;
  }

  /** The value at `slot` when it is not one of the function's instructions (constant pools, arguments). */
  value(slot: number, values: readonly Value[]): Value | undefined {
    const n = this.prefixLength;
    if (slot < n) return this.prefix[slot];
    const k = slot - n;
    if (k >= this.ownLength) return undefined;
    const c = this.own[k]!;
    return (c & 3) !== 0 ? undefined : values[c >>> 2];
  }

  /** Appends a value code. */
  push(code: number): void {
    this.own[this.ownLength++] = code;
  }
}

/** Fails with a message naming the plane and slot when `v` is missing. */
export function valueOrFail(r: BinaryReader, v: Value | undefined, t: Type, slot: number, offset: number, typeName: (t: Type) => string): Value {
  if (v === undefined) r.fail(`value slot ${slot} of type ${typeName(t)} is not defined`, offset);
  return v;
}
