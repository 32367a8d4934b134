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
import { namedConstantsOfBody, TAG_BLOCK, TAG_INSTRUCTION, TAG_VALUE, typeOfCode, type CompactBody } from './body-view.js';
import type { EncodeContext } from './context.js';
import { beginBlock, endBlock, typeSlotOf, writeTypeId } from './context.js';
import { EncodeError } from './encode-error.js';
import { compareNames } from './symbol-order.js';

/** Beyond this many arguments the quadratic argument matching below is left to the generic path. */
const MAX_ARGUMENTS = 32;

/**
 * Scratch, reused from table to table (a write is synchronous): per entry its name, plane, slot
 * and whether it repeats an earlier entry's value; per instruction and block of the body the
 * entry naming it first (-1: none; reset after each table).
 */
const names: string[] = [];
const planeOf: number[] = [];
const slots: number[] = [];
const repeated: boolean[] = [];
const taken: boolean[] = [];
let entryOfInst = new Int32Array(256).fill(-1);
let entryOfBlock = new Int32Array(64).fill(-1);

function grown(buf: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  if (buf.length >= n) return buf;
  return new Int32Array(Math.max(n, buf.length * 2)).fill(-1);
}

/** Writes `f`'s symbol table from `body` and its layout; false (nothing written) where the generic path must. */
export function writeLaidOutFunctionSymbolTable(ctx: EncodeContext, f: Function, body: CompactBody): boolean {
  const layout = body.layout;
  if (layout === undefined) return false;
  const args = f.args;
  if (args.length > MAX_ARGUMENTS || namedConstantsOfBody(body).length !== 0) return false;
  entryOfInst = grown(entryOfInst, body.instructionCount);
  entryOfBlock = grown(entryOfBlock, body.blockCount);
  const sc = ctx.sc;
  const planeTypes: Type[] = [];
  let count = 0;
  let lastType: Type | undefined;
  let lastPlane = -1;
  const add = (name: string, type: Type, slot: number, isRepeat: boolean): void => {
    if (type !== lastType) {
      lastType = type;
      lastPlane = planeTypes.indexOf(type);
      if (lastPlane < 0) lastPlane = planeTypes.push(type) - 1;
    }
    names[count] = name;
    planeOf[count] = lastPlane;
    slots[count] = slot;
    repeated[count] = isRepeat;
    taken[count] = false;
    count++;
  };
  let ok = true;
  // Arguments first, then the body's names in their (file) order: the generic path takes the
  // body's names in body order, which differs only among repeats of one value (same position,
  // then file order) and among equal names (refused either way).
  const namedArgs: Argument[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.name) continue;
    const slot = sc.slotOf(a);
    if (slot < 0) ok = false;
    add(a.name, a.type, slot, namedArgs.includes(a));
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
    const first = table[index]! < 0;
    if (first) table[index] = count;
    add(name, typeOfCode(body, code)!, slot, !first);
  }

  // Planes: the layout's, in its order, then the rest by type slot.
  const order: number[][] = [];
  const planeOrder: number[] = [];
  const placed: boolean[] = new Array<boolean>(planeTypes.length).fill(false);
  for (const p of ok ? layout.valuePlanes : []) {
    const plane = planeTypes.indexOf(p.type);
    if (plane < 0 || placed[plane]) continue;
    placed[plane] = true;
    planeOrder.push(plane);
    const listed: number[] = [];
    for (const code of p.codes) {
      let e = -1;
      if (code < 0) continue;
      const tag = code & 3;
      const index = code >>> 2;
      if (tag === TAG_VALUE) {
        const v = body.values[index]!;
        if (v.kind === 'argument') {
          const at = namedArgs.indexOf(v);
          e = at < 0 ? -1 : at;
        }
      } else if (tag === TAG_INSTRUCTION) {
        e = index < body.instructionCount ? entryOfInst[index]! : -1;
      } else if (tag === TAG_BLOCK) {
        e = index < body.blockCount ? entryOfBlock[index]! : -1;
      }
      if (e < 0 || planeOf[e] !== plane || taken[e] || repeated[e]) continue;
      taken[e] = true;
      listed.push(e);
    }
    const others: number[] = [];
    for (let e = 0; e < count; e++) if (planeOf[e] === plane && !taken[e] && !repeated[e]) others.push(e);
    sortByName(others);
    for (const e of others) listed.push(e);
    order[plane] = listed;
  }
  const rest: number[] = [];
  const ranks: number[] = [];
  for (let plane = 0; plane < planeTypes.length && ok; plane++) {
    if (placed[plane]) continue;
    const rank = sc.typeSlot(planeTypes[plane]!);
    if (rank < 0) ok = false; // the generic path says which type has no slot
    rest.push(plane);
    ranks[plane] = rank;
    const all: number[] = [];
    for (let e = 0; e < count; e++) if (planeOf[e] === plane) all.push(e);
    sortByName(all);
    order[plane] = all;
  }
  // Forget this body's entries before anything can throw.
  resetEntries(body);
  if (!ok) return false;
  rest.sort((a, b) => ranks[a]! - ranks[b]!);
  for (const plane of rest) planeOrder.push(plane);

  if (count === 0 && ctx.row.elidesEmptyBlocks) return true;
  const out = ctx.out;
  beginBlock(ctx, 'symbolTable');
  if (ctx.row.typeTypePlaneId === null) out.vbr32(0); // no type names in a function's table
  for (const plane of planeOrder) {
    const entries = order[plane]!;
    checkUniqueNames(ctx, entries);
    out.vbr32(entries.length);
    writeTypeId(ctx, typeSlotOf(ctx, planeTypes[plane]!));
    for (let j = 0; j < entries.length; j++) {
      const e = entries[j]!;
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

/** Sorts entry numbers by their names, bytewise (stable: `Array.prototype.sort` is). */
function sortByName(entries: number[]): void {
  if (entries.length > 1) entries.sort((x, y) => compareNames(names[x]!, names[y]!));
}

/** LLVM kept one value per name and type; a reader could not tell two apart (as symbol-table.ts). */
function checkUniqueNames(ctx: EncodeContext, entries: readonly number[]): void {
  let i = 1;
  while (i < entries.length && names[entries[i - 1]!]! < names[entries[i]!]!) i++;
  if (i >= entries.length) return;
  const seen = new Set<string>();
  for (const e of entries) {
    const name = names[e]!;
    if (seen.has(name)) throw new EncodeError(`two values named "${name}" of one type`, ctx.row.version);
    seen.add(name);
  }
}
