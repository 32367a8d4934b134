/**
 * A function symbol table whose body was read with a layout (`CompactBody.layout`), written from
 * positions instead of the generic `symbolPlanesOf` (symbol-order.ts), which groups and matches
 * entries through Maps and objects per entry: for a module of many small functions that was a
 * sixth of the writing time.
 *
 * The output is the generic path's, entry for entry: planes in the layout's order (each type once,
 * only types with named values), each listing the layout's values once in its order and then
 * its other named values sorted by name; then the other planes by type slot, sorted by name. A
 * named value is matched to the layout by what it is (instruction, block or argument), as the
 * generic path matches keys. Where the generic path could answer differently or fail (named
 * constants of LLVM 1.0–1.2, a value without a slot, an unnumbered type, many arguments),
 * this answers `false` before writing anything and the caller takes the generic path.
 */
import type { Type } from '../graph/type.js';
import type { Argument, Function } from '../graph/value.js';
import { isNamedConstant, TAG_BLOCK, TAG_INSTRUCTION, TAG_VALUE, typeOfCode, type CompactBody } from './body-view.js';
import type { EncodeContext } from './context.js';
import { beginBlock, endBlock, typeSlotOf, writeTypeId } from './context.js';
import { EncodeError } from './encode-error.js';
import { compareNames } from './symbol-order.js';

/** Beyond this many arguments the quadratic argument matching below is left to the generic path. */
const MAX_ARGUMENTS = 32;

/**
 * Scratch, reused from table to table (a write is synchronous, and a table allocates nothing
 * else in the common case): per entry its name, plane, slot and whether it is placed; per
 * instruction and block of the body the entry naming it (-1: none; reset after each table); the
 * planes' types and the output order.
 */
const names: string[] = [];
const planeOf: number[] = [];
const slots: number[] = [];
const taken: boolean[] = [];
const ranks: number[] = [];

/**
 * A scratch list with its live length kept apart: `length = 0` on a JavaScript array drops its
 * storage, which every table then grew anew (seven arrays per function).
 */
class List<T> {
  readonly items: T[] = [];
  n = 0;
  push(x: T): void {
    this.items[this.n++] = x;
  }
  indexOf(x: T): number {
    const items = this.items;
    for (let i = 0; i < this.n; i++) if (items[i] === x) return i;
    return -1;
  }
}

const namedArgs = new List<Argument>();
const planeTypes = new List<Type>();
const placed = new List<boolean>();
const rest = new List<number>();
/** Entry numbers in output order; plane `planeOrder[j]` has `ordered[planeStart[j]] … ordered[planeStart[j + 1] - 1]`. */
const ordered = new List<number>();
const planeOrder = new List<number>();
const planeStart = new List<number>();
let entryOfInst = new Int32Array(256).fill(-1);
let entryOfBlock = new Int32Array(64).fill(-1);

function grown(buf: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  if (buf.length >= n) return buf;
  return new Int32Array(Math.max(n, buf.length * 2)).fill(-1);
}

/** Entry count of the table being built (the scratch arrays' live length). */
let count = 0;

function addEntry(name: string, plane: number, slot: number): void {
  names[count] = name;
  planeOf[count] = plane;
  slots[count] = slot;
  taken[count] = false;
  count++;
}

/** The plane number of `type` among this table's planes, added when new. */
function planeFor(type: Type): number {
  const at = planeTypes.indexOf(type);
  if (at >= 0) return at;
  placed.push(false);
  planeTypes.push(type);
  return planeTypes.n - 1;
}

/** Writes `f`'s symbol table from `body` and its layout; false (nothing written) where the generic path must. */
export function writeLaidOutFunctionSymbolTable(ctx: EncodeContext, f: Function, body: CompactBody): boolean {
  const layout = body.layout;
  if (layout === undefined) return false;
  const args = f.args;
  if (args.length > MAX_ARGUMENTS) return false;
  entryOfInst = grown(entryOfInst, body.instructionCount);
  entryOfBlock = grown(entryOfBlock, body.blockCount);
  const sc = ctx.sc;
  count = 0;
  namedArgs.n = 0;
  planeTypes.n = 0;
  placed.n = 0;
  ordered.n = 0;
  planeOrder.n = 0;
  planeStart.n = 0;
  rest.n = 0;
  let lastType: Type | undefined;
  let lastPlane = -1;
  let ok = true;
  // Arguments first, then the body's names in their (file) order: the generic path takes the
  // body's names in body order, which differs only among equal names (refused either way).
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.name) continue;
    const slot = sc.slotOf(a);
    if (slot < 0) ok = false;
    addEntry(a.name, planeFor(a.type), slot);
    namedArgs.push(a);
  }
  const { nameCodes } = body;
  for (let e = 0; e < nameCodes.length && ok; e++) {
    const name = body.names[e]!;
    if (name === '') continue;
    const code = nameCodes[e]!;
    const tag = code & 3;
    const index = code >>> 2;
    if (code < 0 || (tag === TAG_INSTRUCTION ? index >= body.instructionCount : tag !== TAG_BLOCK || index >= body.blockCount)) {
      ok = false;
      break;
    }
    const table = tag === TAG_INSTRUCTION ? entryOfInst : entryOfBlock;
    const slot = sc.codeSlot(code);
    if (slot < 0) ok = false;
    // A value named twice (only a damaged file does that) has its last name, as reading gave it:
    // the generic path writes that one.
    if (table[index]! >= 0) {
      ok = false;
      break;
    }
    table[index] = count;
    const type = typeOfCode(body, code)!;
    if (type !== lastType) {
      lastType = type;
      lastPlane = planeFor(type);
    }
    addEntry(name, lastPlane, slot);
  }

  // Planes: the layout's, in its order, then the rest by type slot.
  const valuePlanes = layout.valuePlanes;
  for (let p = 0; p < valuePlanes.length && ok; p++) {
    const codes = valuePlanes[p]!.codes;
    let plane = planeTypes.indexOf(valuePlanes[p]!.type);
    if (plane >= 0 && placed.items[plane]) plane = -1;
    if (plane >= 0) {
      placed.items[plane] = true;
      planeOrder.push(plane);
      planeStart.push(ordered.n);
    }
    for (let c = 0; c < codes.length; c++) {
      const code = codes[c]!;
      if (code < 0) continue;
      let e = -1;
      const tag = code & 3;
      const index = code >>> 2;
      if (tag === TAG_VALUE) {
        const v = body.values[index]!;
        if (v.kind === 'argument') e = namedArgs.indexOf(v);
        else if (isNamedConstant(v)) ok = false; // (LLVM 1.0–1.2) the generic path lists it
      } else if (plane < 0) {
        continue;
      } else if (tag === TAG_INSTRUCTION) {
        e = index < body.instructionCount ? entryOfInst[index]! : -1;
      } else if (tag === TAG_BLOCK) {
        e = index < body.blockCount ? entryOfBlock[index]! : -1;
      }
      if (plane < 0 || e < 0 || planeOf[e] !== plane || taken[e]) continue;
      taken[e] = true;
      ordered.push(e);
    }
    if (plane < 0) continue;
    // The plane's named values the layout does not list, sorted by name.
    const others = ordered.n;
    for (let e = 0; e < count; e++) if (planeOf[e] === plane && !taken[e]) ordered.push(e);
    sortTailByName(others);
  }
  for (let plane = 0; plane < planeTypes.n && ok; plane++) {
    if (placed.items[plane]) continue;
    const rank = sc.typeSlot(planeTypes.items[plane]!);
    if (rank < 0) ok = false; // the generic path says which type has no slot
    rest.push(plane);
    ranks[plane] = rank;
  }
  // Forget this body's entries before anything can throw.
  resetEntries(body);
  if (!ok) return false;
  if (rest.n > 1) {
    const sorted = rest.items.slice(0, rest.n).sort((a, b) => ranks[a]! - ranks[b]!);
    for (let r = 0; r < sorted.length; r++) rest.items[r] = sorted[r]!;
  }
  for (let r = 0; r < rest.n; r++) {
    const plane = rest.items[r]!;
    planeOrder.push(plane);
    planeStart.push(ordered.n);
    const from = ordered.n;
    for (let e = 0; e < count; e++) if (planeOf[e] === plane) ordered.push(e);
    sortTailByName(from);
  }
  planeStart.push(ordered.n);

  if (count === 0 && ctx.row.elidesEmptyBlocks) return true;
  const out = ctx.out;
  beginBlock(ctx, 'symbolTable');
  if (ctx.row.typeTypePlaneId === null) out.vbr32(0); // no type names in a function's table
  for (let j = 0; j < planeOrder.n; j++) {
    const from = planeStart.items[j]!;
    const to = planeStart.items[j + 1]!;
    checkUniqueNames(ctx, from, to);
    out.vbr32(to - from);
    writeTypeId(ctx, typeSlotOf(ctx, planeTypes.items[planeOrder.items[j]!]!));
    for (let k = from; k < to; k++) {
      const e = ordered.items[k]!;
      out.vbr32(slots[e]!);
      out.string(names[e]!);
    }
  }
  endBlock(ctx, ctx.row.elidesEmptyBlocks);
  return true;
}

/** Clears the per-position entry tables for `body`'s named values. */
function resetEntries(body: CompactBody): void {
  const { nameCodes } = body;
  for (let e = 0; e < nameCodes.length; e++) {
    const code = nameCodes[e]!;
    if (code < 0) continue;
    const index = code >>> 2;
    const tag = code & 3;
    if (tag === TAG_INSTRUCTION && index < entryOfInst.length) entryOfInst[index] = -1;
    else if (tag === TAG_BLOCK && index < entryOfBlock.length) entryOfBlock[index] = -1;
  }
}

/** Sorts `ordered[from …]` by the entries' names, bytewise, stably (entry numbers break ties). */
function sortTailByName(from: number): void {
  const to = ordered.n;
  const list = ordered.items;
  if (to - from < 2) return;
  if (to - from > 16) {
    // (`Array.prototype.sort` is stable.)
    const part = list.slice(from, to).sort((x, y) => compareNames(names[x]!, names[y]!));
    for (let i = 0; i < part.length; i++) list[from + i] = part[i]!;
    return;
  }
  // Insertion sort: the common case (a read body's names beyond its layout) is none or a few.
  for (let i = from + 1; i < to; i++) {
    const e = list[i]!;
    const name = names[e]!;
    let j = i - 1;
    while (j >= from && compareNames(names[list[j]!]!, name) > 0) {
      list[j + 1] = list[j]!;
      j--;
    }
    list[j + 1] = e;
  }
}

/** LLVM kept one value per name and type; a reader could not tell two apart (as symbol-table.ts). */
function checkUniqueNames(ctx: EncodeContext, from: number, to: number): void {
  let i = from + 1;
  while (i < to && names[ordered.items[i - 1]!]! < names[ordered.items[i]!]!) i++;
  if (i >= to) return;
  const seen = new Set<string>();
  for (let k = from; k < to; k++) {
    const name = names[ordered.items[k]!]!;
    if (seen.has(name)) throw new EncodeError(`two values named "${name}" of one type`, ctx.row.version);
    seen.add(name);
  }
}
