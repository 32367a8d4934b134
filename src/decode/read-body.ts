/**
 * The compact body (graph/compact-body.ts) the reader makes for a function: the same fields, but
 * the lists of numbers that only the printer, the writer and materializing ever look at (which
 * instructions have extra fields, the symbol table's layout and the value codes it names) are
 * kept as numbers after the body's own in its arena buffer (body-arena.ts), and become arrays
 * when first asked for.
 *
 * A module of thousands of small functions spent a fifth of its read in the garbage collector,
 * copying what each body kept: a symbol table of three planes alone was eight objects and arrays
 * (the layout, its list of planes, a record and an array of codes per plane) and the list of
 * named codes two more, some 600 bytes of a function's 2,100. Numbers in the arena cost 4 bytes
 * each and nothing to the collector.
 *
 * The numbers after `data` (`data.buffer`, from `data.byteOffset + data.byteLength`): the
 * instruction numbers of `extraAt` (as many as `extras`), then for each plane of the symbol table
 * the end of its codes (exclusive, counted from the first code), then the codes.
 */
import type { Type } from '../graph/type.js';
import type { Value } from '../graph/value.js';
import { TAG_VALUE, type CompactBody, type CompactLayout, type InstructionExtras } from '../graph/compact-body.js';
import { EMPTY } from './body-arena.js';

/** The rarely present parts of a function symbol table's layout. */
export interface TypeNamesOfTable {
  typeNames?: string[];
  typeNamesPlaneIndex?: number;
}

/** The arrays made from the numbers after `data`, once asked for. */
interface Unpacked {
  readonly extraAt: readonly number[];
  readonly nameCodes: readonly number[];
  readonly layout: CompactLayout | undefined;
}

/** Shared by bodies that have none of a kind of entry (never written to). */
const NONE: never[] = [];

export class ReadBody implements CompactBody {
  /** Set by the arena when the module is complete. */
  data: Int32Array = EMPTY;
  private unpacked: Unpacked | undefined = undefined;

  constructor(
    readonly instructionCount: number,
    readonly blockCount: number,
    readonly types: readonly Type[],
    readonly values: readonly Value[],
    readonly extras: readonly InstructionExtras[],
    readonly names: readonly string[],
    /** The types of the symbol table's planes, in file order (undefined: the body had no table). */
    private readonly planeTypes: readonly Type[] | undefined,
    private readonly typeNames: TypeNamesOfTable | undefined,
  ) {}

  get extraAt(): readonly number[] {
    return this.extras.length === 0 ? NONE : (this.unpacked ??= this.unpack()).extraAt;
  }

  get nameCodes(): readonly number[] {
    return this.planeTypes === undefined ? NONE : (this.unpacked ??= this.unpack()).nameCodes;
  }

  get layout(): CompactLayout | undefined {
    return this.planeTypes === undefined ? undefined : (this.unpacked ??= this.unpack()).layout;
  }

  private unpack(): Unpacked {
    const d = this.data;
    const side = new Int32Array(d.buffer, d.byteOffset + d.byteLength);
    const extraCount = this.extras.length;
    const extraAt = extraCount === 0 ? NONE : Array.from(side.subarray(0, extraCount));
    const planeTypes = this.planeTypes;
    if (planeTypes === undefined) return { extraAt, nameCodes: NONE, layout: undefined };
    const planeCount = planeTypes.length;
    const codeBase = extraCount + planeCount;
    const valuePlanes = valuePlanesOf(planeTypes, planeCount, side.subarray(extraCount, codeBase), side.subarray(codeBase));
    const nameCodes: number[] = [];
    // (The table's arguments and module values were named directly; the body's own instructions
    // and blocks by these codes, in the table's order.)
    for (const plane of valuePlanes) for (const code of plane.codes) if ((code & 3) !== TAG_VALUE) nameCodes.push(code);
    const layout: CompactLayout = { valuePlanes };
    const extra = this.typeNames;
    if (extra?.typeNamesPlaneIndex !== undefined) layout.typeNamesPlaneIndex = extra.typeNamesPlaneIndex;
    if (extra?.typeNames !== undefined) layout.typeNames = extra.typeNames;
    return { extraAt, nameCodes: nameCodes.length === 0 ? NONE : nameCodes, layout };
  }
}

/**
 * The first `count` planes of a function symbol table: plane `p` has type `types[p]` and the codes
 * from the previous plane's end to `ends[p]` (exclusive) of `codes`.
 */
export function valuePlanesOf(types: readonly Type[], count: number, ends: ArrayLike<number>, codes: ArrayLike<number>): CompactLayout['valuePlanes'] {
  const planes: CompactLayout['valuePlanes'] = new Array(count);
  let start = 0;
  for (let p = 0; p < count; p++) {
    const end = ends[p]!;
    const planeCodes: number[] = new Array(end - start);
    for (let k = start; k < end; k++) planeCodes[k - start] = codes[k]!;
    planes[p] = { type: types[p]!, codes: planeCodes };
    start = end;
  }
  return planes;
}
