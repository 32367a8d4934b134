/**
 * Value planes: every value lives in the plane of its type and is referred to by its slot there
 * (docs/format.md §7). Module planes hold globals, functions and module constants; a function sees
 * the module planes (or its compaction table's view of them) followed by its own values.
 */
import type { BinaryReader } from '../binary/reader.js';
import { hasImplicitNull, type FormatRow } from '../format/format-table.js';
import { nullValue } from '../graph/describe.js';
import type { Type } from '../graph/type.js';
import type { Constant, Value } from '../graph/value.js';

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

/**
 * One plane as a function sees it: a prefix shared with the module (the module plane itself, or
 * the compaction table's selection from it) and the function's own values after it, as value
 * codes (graph/compact-body.ts). The prefix is not copied, so a function costs nothing for module
 * planes it does not touch; a prefix value gets a code in `values` when an operand names it.
 */
export class LocalPlane {
  readonly own: number[] = [];
  constructor(
    readonly prefix: readonly Value[],
    /** The function's table of tag-0 values (shared by all its planes). */
    private readonly values: Value[],
  ) {}

  get length(): number {
    return this.prefix.length + this.own.length;
  }

  /** Codes given to prefix slots so far (a prefix value named twice gets one code). */
  private readonly prefixCodes: number[] = [];

  /** The value code of `slot`, or -1 when the plane has no such slot (yet). */
  code(slot: number): number {
    const n = this.prefix.length;
    if (slot < n) {
      let c = this.prefixCodes[slot];
      if (c === undefined) {
        const v = this.prefix[slot];
        if (v === undefined) return -1;
        this.values.push(v);
        c = (this.values.length - 1) * 4; // TAG_VALUE
        this.prefixCodes[slot] = c;
      }
      return c;
    }
    const c = this.own[slot - n];
    return c === undefined ? -1 : c;
  }

  /** The value at `slot` when it is not one of the function's instructions (constant pools, arguments). */
  value(slot: number): Value | undefined {
    const n = this.prefix.length;
    if (slot < n) return this.prefix[slot];
    const c = this.own[slot - n];
    return c === undefined || (c & 3) !== 0 ? undefined : this.values[c >>> 2];
  }

  /** Appends a value code. */
  push(code: number): void {
    this.own.push(code);
  }
}

/** Fails with a message naming the plane and slot when `v` is missing. */
export function valueOrFail(r: BinaryReader, v: Value | undefined, t: Type, slot: number, offset: number, typeName: (t: Type) => string): Value {
  if (v === undefined) r.fail(`value slot ${slot} of type ${typeName(t)} is not defined`, offset);
  return v;
}
