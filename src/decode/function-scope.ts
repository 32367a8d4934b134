/**
 * The state of one function while its body is decoded: its types, planes, and the compact body
 * (graph/compact-body.ts) being written.
 *
 * One scope serves every function of a module in turn (`begin` resets it): a module of thousands
 * of small functions spent much of its read setting up a fresh scope, its maps, planes and
 * arrays for each function and collecting them afterwards. Lists are kept with a length of their
 * own so that their storage survives from one function to the next; what a body keeps is copied
 * out at its exact size (`compactBody`).
 */
import type { BinaryReader } from '../binary/reader.js';
import type { PointerType, Type } from '../graph/type.js';
import type { Function, Value } from '../graph/value.js';
import { describeType, pointerTo, type ModuleContext } from './context.js';
import { TAG_BLOCK, TAG_VALUE, UNRESOLVED, type CompactBody, type InstructionExtras } from '../graph/compact-body.js';
import { ReadBody, valuePlanesOf, type TypeNamesOfTable } from './read-body.js';
import { LocalPlane, type ValueCodes } from './planes.js';
import { TypeTable } from './types.js';
import { BodyArena, EMPTY } from './body-arena.js';
import { SymbolNaming } from './symbol-naming.js';
import type { ValueScope } from './constant-pool.js';
import type { BlockKinds } from './function-block.js';

/**
 * Growable scratch arrays for the body being decoded, shared by every read (decoding is
 * synchronous, one body at a time) so a body allocates only its exact-size result.
 */
class BodyScratch {
  opcodes: Int32Array = new Int32Array(1024);
  opEnds: Int32Array = new Int32Array(1024);
  operands: Int32Array = new Int32Array(4096);
  blockEnds: Int32Array = new Int32Array(256);
  /** The codes of the function symbol table being read (see `symbolPlane`). */
  tableCodes: Int32Array = new Int32Array(256);
  /**
   * LLVM's naming of the function's values, once a clash may arise (see symbol-naming.ts): from
   * then on every name an entry gives goes through it. Keys: an argument, or an instruction's or a
   * block's code. (Here rather than in the scope: one more field there made every scope, one per
   * module read, several times dearer to make.)
   */
  naming: SymbolNaming<number | Value> | undefined = undefined;

  /** Makes room for instruction number `i`. */
  growInstructions(i: number): void {
    const size = Math.max(2 * this.opcodes.length, i + 1);
    this.opcodes = grown(this.opcodes, size);
    this.opEnds = grown(this.opEnds, size);
  }

  growOperands(n: number): void {
    this.operands = grown(this.operands, Math.max(2 * this.operands.length, n));
  }

  growBlocks(n: number): void {
    this.blockEnds = grown(this.blockEnds, Math.max(2 * this.blockEnds.length, n));
  }

  growTableCodes(n: number): void {
    this.tableCodes = grown(this.tableCodes, Math.max(2 * this.tableCodes.length, n));
  }
}

function grown(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

const SCRATCH = new BodyScratch();

/**
 * Copies `from[0, count)` to `to` at `at`. A short list by a loop: `set` needs a subarray view
 * of the source, which for a small body cost more than the copy (96 bytes of garbage each: a
 * module of thousands of functions of some 100 operands made one per function). A long one by
 * `set`: a long loop would be compiled while it runs, and the code after it in the caller, never
 * run by then, would make that compiled code give up.
 */
function copyInts(from: Int32Array, count: number, to: Int32Array, at: number): void {
  if (count > SHORT_COPY) to.set(from.subarray(0, count), at);
  else for (let i = 0; i < count; i++) to[at + i] = from[i]!;
}

/** The longest list `copyInts` copies by a loop. */
const SHORT_COPY = 256;

/** Distinct result types searched in turn before `typeIndex` builds a map. */
const LINEAR_TYPES = 16;
/** Shared by bodies that have none of a kind of entry. */
const NONE: never[] = [];
/** `a[0, n)` as an array of its own (or the shared empty one). */
const exact = <T>(a: T[], n: number): T[] => (n === 0 ? NONE : a.slice(0, n));

/**
 * `list[0, n)`: `last` when it holds the same entries, else a copy. Bodies are read-only, and
 * functions alike in a module often have the same result types, planes, names (interned, see
 * name-interner.ts) and extra fields (a call's are shared): one list for all of them is one
 * array fewer per function to allocate and for the collector to copy.
 */
function reusedOrCopy<T>(last: readonly T[], list: readonly T[], n: number): readonly T[] {
  if (n === 0) return NONE;
  if (last.length === n) {
    let i = 0;
    while (i < n && last[i] === list[i]) i++;
    if (i === n) return last;
  }
  return list.slice(0, n);
}

/** A compaction table's list of module values for one type: `values[0, length)`, reused by later functions. */
export interface CompactedPlane {
  generation: number;
  readonly values: Value[];
  length: number;
}

/** What reads a body's instruction list (decode/instructions.ts), kept for the module's next functions. */
export interface InstructionListReader {
  readAll(oneBlock: boolean): void;
}

export class FunctionScope implements ValueCodes {
  fn!: Function;
  /** Types by (function-local, possibly compacted) id. */
  types: TypeTable;
  /**
   * Compaction-table prefixes by type, kept for the next functions (an entry whose `generation`
   * is not this function's is not this function's); planes not listed start with the module's.
   */
  private readonly compacted = new Map<Type, CompactedPlane>();
  /** How many planes this function's compaction table lists. */
  private compactedCount = 0;
  /**
   * Planes by type, kept for the next functions (a plane whose `generation` is not this
   * function's is reset before use, with this function's prefix). Cleared after a function that
   * defined types of its own, so that a module whose functions each define some does not keep a
   * plane for each of them.
   */
  private readonly planes = new Map<Type, LocalPlane>();
  /** The planes this function has used, in order of first use. */
  private readonly activePlanes: LocalPlane[] = [];
  private activePlaneCount = 0;
  private readonly activeTypes: Type[] = [];
  /** Numbers the functions read with this scope (0: none yet). */
  private generation = 0;
  private planesAreLocal = false;
  /**
   * The last two planes asked for, the last first (operands often alternate between two types);
   * `plane(t)` is `lastPlane` when `t` is `lastType`.
   */
  lastType: Type | null = null;
  lastPlane: LocalPlane | null = null;
  private previousType: Type | null = null;
  private previousPlane: LocalPlane | null = null;
  /** How many blocks have been completed by a terminator. */
  completedBlocks = 0;
  private highestLabel = -1;
  private highestLabelOffset = 0;
  /** Forward references: operand positions, with the plane, slot, type and offset of each. */
  private readonly forwardAt: number[] = [];
  private readonly forwardPlane: LocalPlane[] = [];
  private readonly forwardSlot: number[] = [];
  private readonly forwardType: Type[] = [];
  private readonly forwardOffset: number[] = [];
  private forwardCount = 0;
  argumentsPlaced = false;
  instructionCount = 0;
  instructionReader: InstructionListReader | undefined;
  /** Block kinds by id (function-block.ts), kept for the module's next functions. */
  blockKinds: BlockKinds | undefined;
  /** What the function's constant pools read through (function-block.ts), kept for the module's next functions. */
  poolScope: ValueScope | undefined;

  // The compact body being written (graph/compact-body.ts).
  readonly scratch = SCRATCH;
  /** Operands written so far. */
  operandCount = 0;
  /** The values that tag-0 codes name: `values[0, valueCount)`. */
  readonly values: Value[] = [];
  private valueCount = 0;
  /** The distinct result types of the body's instructions (see `typeIndex`). */
  private readonly resultTypes: Type[] = [];
  private resultTypeCount = 0;
  private resultTypeIds: Map<Type, number> | null = null;
  /** The result types, extras and names of the module's previous body (see `reusedOrCopy`). */
  private lastBodyTypes: readonly Type[] = NONE;
  private lastExtras: readonly InstructionExtras[] = NONE;
  private lastNames: readonly string[] = NONE;
  private lastResultType: Type | null = null;
  private lastResultIndex = 0;
  private readonly extraAt: number[] = [];
  private readonly extras: InstructionExtras[] = [];
  private extraCount = 0;
  private readonly nameCodes: number[] = [];
  private readonly names: string[] = [];
  private nameCount = 0;
  /**
   * Symbol tables read for this function. LLVM wrote one; a second one (a damaged or made-up
   * file) gives the layout but not all the names, so its body keeps them as arrays (`literalBody`).
   */
  private symbolTables = 0;
  /** The last symbol table's planes: `[0, symbolPlaneCount)`, their codes in `scratch.tableCodes`. */
  private readonly symbolPlaneTypes: Type[] = [];
  private readonly symbolPlaneEnds: number[] = [];
  symbolPlaneCount = 0;
  symbolCodeCount = 0;
  private symbolTypeNames: TypeNamesOfTable | undefined;
  /** The plane types of the module's previous symbol table (see `reusedOrCopy`). */
  private lastPlaneTypes: readonly Type[] = NONE;
  /** Where bodies' numbers are kept (see body-arena.ts). */
  readonly arena = new BodyArena();

  constructor(readonly ctx: ModuleContext) {
    this.types = ctx.types;
  }

  /** Makes the scope empty for `fn`'s body. */
  begin(fn: Function): void {
    this.fn = fn;
    this.generation++;
    if (this.planesAreLocal) {
      this.planes.clear();
      this.planesAreLocal = false;
    }
    this.compactedCount = 0;
    this.types = this.ctx.types;
    this.activePlaneCount = 0;
    this.lastType = null;
    this.lastPlane = null;
    this.previousType = null;
    this.previousPlane = null;
    this.completedBlocks = 0;
    this.highestLabel = -1;
    this.highestLabelOffset = 0;
    this.forwardCount = 0;
    this.argumentsPlaced = false;
    this.instructionCount = 0;
    this.operandCount = 0;
    this.valueCount = 0;
    this.resultTypeCount = 0;
    this.resultTypeIds = null;
    this.lastResultType = null;
    this.lastResultIndex = 0;
    this.extraCount = 0;
    this.nameCount = 0;
    this.symbolTables = 0;
    this.symbolPlaneCount = 0;
    this.symbolCodeCount = 0;
    this.symbolTypeNames = undefined;
    this.scratch.naming = undefined;
  }

  /** Whether the function had a symbol table (its body has a layout). */
  get hasSymbolTable(): boolean {
    return this.symbolTables !== 0;
  }

  /**
   * Starts a symbol table: its planes replace any earlier table's. A second table names what the
   * first named, perhaps otherwise: LLVM's naming takes over, starting from the first's names.
   */
  beginSymbolTable(): void {
    if (this.symbolTables !== 0 && this.scratch.naming === undefined) this.startNaming(undefined, this.symbolCodeCount);
    this.symbolTables++;
    this.symbolPlaneCount = 0;
    this.symbolCodeCount = 0;
    this.symbolTypeNames = undefined;
  }

  /**
   * Starts a plane of `count` entries of type `t`: write their codes into the returned array from
   * `symbolCodeCount` on, then call `endSymbolPlane` with where they end. (`count` was checked
   * against the bytes left, so the room is bounded by the input.)
   */
  symbolPlane(t: Type, count: number): Int32Array {
    const s = this.scratch;
    if (this.symbolCodeCount + count > s.tableCodes.length) s.growTableCodes(this.symbolCodeCount + count);
    this.symbolPlaneTypes[this.symbolPlaneCount] = t;
    return s.tableCodes;
  }

  /** Whether the table being read already had a plane of type `t` (LLVM wrote one per type). */
  hasSymbolPlane(t: Type): boolean {
    for (let p = 0; p < this.symbolPlaneCount; p++) if (this.symbolPlaneTypes[p] === t) return true;
    return false;
  }

  /** Whether names go through LLVM's naming (see `startNaming`). */
  get namesClash(): boolean {
    return this.scratch.naming !== undefined;
  }

  /**
   * From here on, names follow LLVM's rules (symbol-naming.ts), starting from the names the table
   * being read gave so far: its complete planes, then the codes `[symbolCodeCount, end)` of the
   * plane of `current` being read. (None of those clashed: this is called at the first entry that
   * may.) The names of the body's instructions and blocks are the last `addName` gave each.
   */
  startNaming(current: Type | undefined, end: number): void {
    const naming = (this.scratch.naming = new SymbolNaming<number | Value>());
    const named = new Map<number, string>();
    for (let i = 0; i < this.nameCount; i++) named.set(this.nameCodes[i]!, this.names[i]!);
    const codes = this.scratch.tableCodes;
    const seed = (type: Type, from: number, to: number): void => {
      for (let k = from; k < to; k++) {
        const code = codes[k]!;
        if ((code & 3) !== TAG_VALUE) naming.name(code, type, named.get(code) ?? '');
        else {
          const v = this.valueOfCode(code);
          if (v.kind === 'argument') naming.name(v, type, v.name ?? '');
        }
      }
    };
    let from = 0;
    for (let p = 0; p < this.symbolPlaneCount; p++) {
      seed(this.symbolPlaneTypes[p]!, from, this.symbolPlaneEnds[p]!);
      from = this.symbolPlaneEnds[p]!;
    }
    if (current !== undefined) seed(current, this.symbolCodeCount, end);
  }

  /**
   * The name the entry naming `code` (of `type`) gives, under LLVM's naming once it has taken over.
   * Values the function does not own (module values, constants) keep the entry's name: LLVM named
   * a global in the module's table, and a constant not at all.
   */
  nameOfEntry(code: number, type: Type, name: string): string {
    const naming = this.scratch.naming;
    if (naming === undefined) return name;
    if ((code & 3) !== TAG_VALUE) return naming.name(code, type, name);
    const v = this.valueOfCode(code);
    return v.kind === 'argument' ? naming.name(v, type, name) : name;
  }

  endSymbolPlane(end: number): void {
    this.symbolPlaneEnds[this.symbolPlaneCount++] = end;
    this.symbolCodeCount = end;
  }

  /** Ends a symbol table, with where it named types (rare in a function's table). */
  endSymbolTable(typeNamesPlaneIndex: number | undefined, typeNames: string[] | undefined): void {
    if (typeNamesPlaneIndex === undefined && typeNames === undefined) return;
    const extra: TypeNamesOfTable = {};
    if (typeNamesPlaneIndex !== undefined) extra.typeNamesPlaneIndex = typeNamesPlaneIndex;
    if (typeNames !== undefined) extra.typeNames = typeNames;
    this.symbolTypeNames = extra;
  }

  get r(): BinaryReader {
    return this.ctx.r;
  }

  /**
   * The function's own type table, made from the module's when the function first defines or
   * compacts types (most functions never do, and copying the module's table cost each of them).
   */
  ownTypes(): TypeTable {
    if (this.types === this.ctx.types) this.types = new TypeTable(this.ctx.types.types);
    this.planesAreLocal = true;
    return this.types;
  }

  /** Uses `table` as the function's types (a compaction table's numbering of module types). */
  useTypes(table: TypeTable): void {
    this.types = table;
  }

  /**
   * Types this function's pools define: each becomes the module's object for that structure
   * when there is one (see type-identity.ts), in this function's type table too.
   */
  registerTypes(added: readonly Type[]): void {
    const replaced = this.ctx.typeRegistry.canonicalize(added);
    if (replaced.size !== 0) this.types.replace(replaced);
  }

  /** The pointer type to `t`: the module's (or a new one, which becomes the module's). */
  pointerTo(t: Type): PointerType {
    return pointerTo(this.ctx, t);
  }

  /** Whether the compaction table has listed a plane of `t`. */
  isCompacted(t: Type): boolean {
    return this.compactedCount !== 0 && this.compacted.get(t)?.generation === this.generation;
  }

  /**
   * The list a compaction table's plane of `t` fills, empty (`values[0, length)`): the function's
   * plane of `t` starts with it instead of the module's plane.
   */
  compactedPlane(t: Type): CompactedPlane {
    let c = this.compacted.get(t);
    if (c === undefined) {
      c = { generation: this.generation, values: [], length: 0 };
      this.compacted.set(t, c);
    }
    c.generation = this.generation;
    c.length = 0;
    this.compactedCount++;
    return c;
  }

  plane(t: Type): LocalPlane {
    // Consecutive lookups usually ask for the same plane (an instruction's operands share a type).
    if (t === this.lastType) return this.lastPlane!;
    if (t === this.previousType) {
      const p = this.previousPlane!;
      this.previousType = this.lastType;
      this.previousPlane = this.lastPlane;
      this.lastType = t;
      this.lastPlane = p;
      return p;
    }
    let p = this.planes.get(t);
    if (p === undefined || p.generation !== this.generation) {
      const c = this.compactedCount === 0 ? undefined : this.compacted.get(t);
      let prefix: readonly Value[];
      let prefixLength: number;
      if (c !== undefined && c.generation === this.generation) {
        prefix = c.values;
        prefixLength = c.length;
      } else {
        prefix = this.ctx.planes.plane(t);
        prefixLength = prefix.length;
      }
      if (p === undefined) {
        p = new LocalPlane(prefix, prefixLength, this, this.generation);
        this.planes.set(t, p);
      } else {
        p.reset(prefix, prefixLength, this.generation);
      }
      this.activePlanes[this.activePlaneCount] = p;
      this.activeTypes[this.activePlaneCount++] = t;
    }
    this.previousType = this.lastType;
    this.previousPlane = this.lastPlane;
    this.lastType = t;
    this.lastPlane = p;
    return p;
  }

  /** The value at `slot` of `t`'s plane when it is not one of the body's instructions or blocks. */
  valueAt(t: Type, slot: number): Value | undefined {
    return this.plane(t).value(slot, this.values);
  }

  /** The value that tag-0 code `code` names. */
  valueOfCode(code: number): Value {
    return this.values[code >>> 2]!;
  }

  /**
   * The number of `t` among the body's result types. A body uses few distinct types, so a short
   * list searched in turn serves; past `LINEAR_TYPES` a map takes over.
   */
  typeIndex(t: Type): number {
    if (t === this.lastResultType) return this.lastResultIndex;
    const list = this.resultTypes;
    const n = this.resultTypeCount;
    let i = -1;
    if (this.resultTypeIds !== null) i = this.resultTypeIds.get(t) ?? -1;
    else
      for (let k = 0; k < n; k++)
        if (list[k] === t) {
          i = k;
          break;
        }
    if (i < 0) {
      i = n;
      list[this.resultTypeCount++] = t;
      if (this.resultTypeIds !== null) this.resultTypeIds.set(t, i);
      else if (this.resultTypeCount > LINEAR_TYPES) this.resultTypeIds = new Map(list.slice(0, this.resultTypeCount).map((x, k) => [x, k]));
    }
    this.lastResultType = t;
    this.lastResultIndex = i;
    return i;
  }

  /** A new tag-0 code for `v`. */
  valueCode(v: Value): number {
    const i = this.valueCount++;
    this.values[i] = v;
    return i * 4;
  }

  /** Records the fields beyond opcode, type and operands of instruction number `i`. */
  addExtras(i: number, extra: InstructionExtras): void {
    this.extraAt[this.extraCount] = i;
    this.extras[this.extraCount++] = extra;
  }

  /** Records the name the symbol table gives the body's instruction or block `code`. */
  addName(code: number, name: string): void {
    this.nameCodes[this.nameCount] = code;
    this.names[this.nameCount++] = name;
  }

  /** Puts the arguments in their planes (LLVM did so at the first constant pool or instruction list). */
  placeArguments(): void {
    if (this.argumentsPlaced) return;
    this.argumentsPlaced = true;
    const args = this.fn.args;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      this.plane(a.type).push(this.valueCode(a));
    }
  }

  /** The value code of basic block `index` (label operands may point forward). */
  block(index: number, offset: number): number {
    if (index > this.highestLabel) {
      if (index >= this.ctx.limits.maxBasicBlocksPerFunction)
        this.r.fail(`basic block ${index} exceeds the limit of ${this.ctx.limits.maxBasicBlocksPerFunction} per function`, offset);
      // A label can only name a block that will exist, and every block holds at least one
      // instruction of at least one byte: a label beyond that is an error now, not an allocation.
      if (index - this.completedBlocks > this.r.remaining + 1) this.r.fail(`label ${index} names a basic block that cannot exist`, offset);
      this.highestLabel = index;
      this.highestLabelOffset = offset;
    }
    return index * 4 + TAG_BLOCK;
  }

  /** Ends the current basic block after instruction number `end - 1`. */
  completeBlock(end: number): void {
    const s = this.scratch;
    if (this.completedBlocks >= s.blockEnds.length) s.growBlocks(this.completedBlocks + 1);
    s.blockEnds[this.completedBlocks++] = end;
  }

  /** Records that operand position `at` names `slot` of `plane`, which is not defined yet. */
  forward(at: number, plane: LocalPlane, t: Type, slot: number, offset: number): void {
    if (slot - plane.length > this.ctx.limits.maxValuesPerPlane) this.r.fail(`value slot ${slot} of type ${describeType(t)} is out of range`, offset);
    this.scratch.operands[at] = UNRESOLVED;
    const i = this.forwardCount++;
    this.forwardAt[i] = at;
    this.forwardPlane[i] = plane;
    this.forwardSlot[i] = slot;
    this.forwardType[i] = t;
    this.forwardOffset[i] = offset;
  }

  /** Resolves forward references once every instruction is read; a slot never defined is an error. */
  resolveForwardReferences(): void {
    const r: BinaryReader = this.ctx.r;
    const operands = this.scratch.operands;
    for (let i = 0; i < this.forwardCount; i++) {
      const code = this.forwardPlane[i]!.code(this.forwardSlot[i]!);
      if (code < 0)
        r.fail(
          `instruction operand refers to slot ${this.forwardSlot[i]} of type ${describeType(this.forwardType[i]!)}, which is never defined`,
          this.forwardOffset[i],
        );
      operands[this.forwardAt[i]!] = code;
    }
    this.forwardCount = 0;
    const limit = this.ctx.limits.maxValuesPerPlane;
    for (let i = 0; i < this.activePlaneCount; i++) {
      const plane = this.activePlanes[i]!;
      if (plane.length > limit) r.fail(`the plane of type ${describeType(this.activeTypes[i]!)} holds ${plane.length} values, over the limit of ${limit}`);
    }
    if (this.highestLabel >= this.completedBlocks) {
      this.r.fail(`a label names basic block ${this.highestLabel}, but the function has ${this.completedBlocks}`, this.highestLabelOffset);
    }
  }

  /**
   * The body as decoded: exact-size copies of the scratch arrays, its numbers in the arena, with
   * those of `extraAt` and of the symbol table after them (see read-body.ts).
   */
  compactBody(): CompactBody {
    if (this.symbolTables > 1) return this.literalBody();
    const s = this.scratch;
    const dataSize = this.dataSize;
    const extraCount = this.extraCount;
    const planeCount = this.symbolPlaneCount;
    const codeCount = this.symbolCodeCount;
    const size = dataSize + extraCount + planeCount + codeCount;
    const at = this.placeData(size);
    const data = this.arena.buffer;
    let side = at + dataSize;
    for (let i = 0; i < extraCount; i++) data[side++] = this.extraAt[i]!;
    for (let p = 0; p < planeCount; p++) data[side++] = this.symbolPlaneEnds[p]!;
    copyInts(s.tableCodes, codeCount, data, side);
    const body = new ReadBody(
      this.instructionCount,
      this.completedBlocks,
      (this.lastBodyTypes = reusedOrCopy(this.lastBodyTypes, this.resultTypes, this.resultTypeCount)),
      exact(this.values, this.valueCount),
      (this.lastExtras = reusedOrCopy(this.lastExtras, this.extras, this.extraCount)),
      (this.lastNames = reusedOrCopy(this.lastNames, this.names, this.nameCount)),
      this.symbolTables === 0 ? undefined : (this.lastPlaneTypes = reusedOrCopy(this.lastPlaneTypes, this.symbolPlaneTypes, this.symbolPlaneCount)),
      this.symbolTypeNames,
    );
    this.arena.place(body, at, size, dataSize);
    return body;
  }

  /** The numbers of the body's data: instruction words, operand ends, block ends, operands. */
  private get dataSize(): number {
    return 2 * this.instructionCount + this.completedBlocks + this.operandCount;
  }

  /**
   * Reserves `size` numbers in the arena (the body's data first, whatever its kind keeps after
   * it), copies the data in, and returns where it starts.
   */
  private placeData(size: number): number {
    const s = this.scratch;
    const n = this.instructionCount;
    const blocks = this.completedBlocks;
    const at = this.arena.reserve(size);
    const data = this.arena.buffer;
    // (Opcode numbers carry the result type's index above bit 6.)
    copyInts(s.opcodes, n, data, at);
    copyInts(s.opEnds, n, data, at + n);
    copyInts(s.blockEnds, blocks, data, at + 2 * n);
    copyInts(s.operands, this.operandCount, data, at + 2 * n + blocks);
    return at;
  }

  /** The body of a function with several symbol tables: its lists as arrays (see `symbolTables`). */
  private literalBody(): CompactBody {
    const size = this.dataSize;
    const at = this.placeData(size);
    const valuePlanes = valuePlanesOf(this.symbolPlaneTypes, this.symbolPlaneCount, this.symbolPlaneEnds, this.scratch.tableCodes);
    const body: CompactBody = {
      instructionCount: this.instructionCount,
      blockCount: this.completedBlocks,
      data: EMPTY, // set by the arena
      types: (this.lastBodyTypes = reusedOrCopy(this.lastBodyTypes, this.resultTypes, this.resultTypeCount)),
      values: exact(this.values, this.valueCount),
      extraAt: exact(this.extraAt, this.extraCount),
      extras: exact(this.extras, this.extraCount),
      nameCodes: exact(this.nameCodes, this.nameCount),
      names: exact(this.names, this.nameCount),
      layout: { valuePlanes, ...this.symbolTypeNames },
    };
    this.arena.place(body, at, size);
    return body;
  }
}
