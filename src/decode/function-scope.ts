/**
 * The state of one function while its body is decoded: its types, planes, and the compact body
 * (graph/compact-body.ts) being written.
 */
import type { BinaryReader } from '../binary/reader.js';
import type { PointerType, Type } from '../graph/type.js';
import type { Function, Value } from '../graph/value.js';
import { describeType, pointerTo, type ModuleContext } from './context.js';
import { TAG_BLOCK, UNRESOLVED, type CompactBody, type CompactLayout, type InstructionExtras } from '../graph/compact-body.js';
import { LocalPlane } from './planes.js';
import type { TypeTable } from './types.js';

/**
 * Growable scratch arrays for the body being decoded, shared by every read (decoding is
 * synchronous, one body at a time) so a body allocates only its exact-size result.
 */
class BodyScratch {
  opcodes: Int32Array = new Int32Array(1024);
  opEnds: Int32Array = new Int32Array(1024);
  operands: Int32Array = new Int32Array(4096);
  blockEnds: Int32Array = new Int32Array(256);

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
}

function grown(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

const SCRATCH = new BodyScratch();

/** Distinct result types searched in turn before `typeIndex` builds a map. */
const LINEAR_TYPES = 16;
/** Shared by bodies that have none of a kind of entry. */
const NONE: never[] = [];
/** `a` at its exact size: an array that grew by pushes reserves room for 17 entries or more. */
const orNone = <T>(a: T[]): T[] => (a.length === 0 ? NONE : a.slice());

export class FunctionScope {
  /** Types by (function-local, possibly compacted) id. */
  types: TypeTable;
  /** Compaction-table prefixes by type; planes not listed fall back to the module's. */
  readonly compacted = new Map<Type, Value[]>();
  private readonly planes = new Map<Type, LocalPlane>();
  private lastType: Type | null = null;
  private lastPlane: LocalPlane | null = null;
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
  argumentsPlaced = false;
  instructionCount = 0;

  // The compact body being written (graph/compact-body.ts).
  readonly scratch = SCRATCH;
  /** Operands written so far. */
  operandCount = 0;
  /** The values that tag-0 codes name. */
  readonly values: Value[] = [];
  /** The distinct result types of the body's instructions (see `typeIndex`). */
  readonly resultTypes: Type[] = [];
  private resultTypeIds: Map<Type, number> | null = null;
  private lastResultType: Type | null = null;
  private lastResultIndex = 0;
  readonly extraAt: number[] = [];
  readonly extras: InstructionExtras[] = [];
  readonly nameCodes: number[] = [];
  readonly names: string[] = [];
  layout: CompactLayout | undefined;

  constructor(
    readonly ctx: ModuleContext,
    readonly fn: Function,
    moduleTypes: TypeTable,
  ) {
    this.types = moduleTypes;
  }

  get r(): BinaryReader {
    return this.ctx.r;
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

  plane(t: Type): LocalPlane {
    // Consecutive lookups usually ask for the same plane (an instruction's operands share a type).
    if (t === this.lastType) return this.lastPlane!;
    let p = this.planes.get(t);
    if (p === undefined) {
      p = new LocalPlane(this.compacted.get(t) ?? this.ctx.planes.plane(t), this.values);
      this.planes.set(t, p);
    }
    this.lastType = t;
    this.lastPlane = p;
    return p;
  }

  /**
   * The number of `t` among the body's result types. A body uses few distinct types, so a short
   * list searched in turn serves; past `LINEAR_TYPES` a map takes over.
   */
  typeIndex(t: Type): number {
    if (t === this.lastResultType) return this.lastResultIndex;
    const list = this.resultTypes;
    let i = -1;
    if (this.resultTypeIds !== null) i = this.resultTypeIds.get(t) ?? -1;
    else for (let k = 0; k < list.length; k++) if (list[k] === t) { i = k; break; }
    if (i < 0) {
      i = list.length;
      list.push(t);
      if (this.resultTypeIds !== null) this.resultTypeIds.set(t, i);
      else if (list.length > LINEAR_TYPES) this.resultTypeIds = new Map(list.map((x, k) => [x, k]));
    }
    this.lastResultType = t;
    this.lastResultIndex = i;
    return i;
  }

  /** A new tag-0 code for `v`. */
  valueCode(v: Value): number {
    this.values.push(v);
    return (this.values.length - 1) * 4;
  }

  /** Puts the arguments in their planes (LLVM did so at the first constant pool or instruction list). */
  placeArguments(): void {
    if (this.argumentsPlaced) return;
    this.argumentsPlaced = true;
    for (const a of this.fn.args) this.plane(a.type).push(this.valueCode(a));
  }

  /** The value code of basic block `index` (label operands may point forward). */
  block(index: number, offset: number): number {
    if (index > this.highestLabel) {
      if (index >= this.ctx.limits.maxBasicBlocksPerFunction) this.r.fail(`basic block ${index} exceeds the limit of ${this.ctx.limits.maxBasicBlocksPerFunction} per function`, offset);
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
    this.forwardAt.push(at);
    this.forwardPlane.push(plane);
    this.forwardSlot.push(slot);
    this.forwardType.push(t);
    this.forwardOffset.push(offset);
  }

  /** Resolves forward references once every instruction is read; a slot never defined is an error. */
  resolveForwardReferences(): void {
    const r: BinaryReader = this.ctx.r;
    const operands = this.scratch.operands;
    for (let i = 0; i < this.forwardAt.length; i++) {
      const code = this.forwardPlane[i]!.code(this.forwardSlot[i]!);
      if (code < 0) r.fail(`instruction operand refers to slot ${this.forwardSlot[i]} of type ${describeType(this.forwardType[i]!)}, which is never defined`, this.forwardOffset[i]);
      operands[this.forwardAt[i]!] = code;
    }
    this.forwardAt.length = 0;
    this.forwardPlane.length = 0;
    this.forwardSlot.length = 0;
    this.forwardType.length = 0;
    this.forwardOffset.length = 0;
    const limit = this.ctx.limits.maxValuesPerPlane;
    for (const [t, plane] of this.planes) {
      if (plane.length > limit) r.fail(`the plane of type ${describeType(t)} holds ${plane.length} values, over the limit of ${limit}`);
    }
    if (this.highestLabel >= this.completedBlocks) {
      this.r.fail(`a label names basic block ${this.highestLabel}, but the function has ${this.completedBlocks}`, this.highestLabelOffset);
    }
  }

  /** The body as decoded: exact-size copies of the scratch arrays. */
  compactBody(): CompactBody {
    const s = this.scratch;
    const n = this.instructionCount;
    const blocks = this.completedBlocks;
    // (Opcode numbers carry the result type's index above bit 6.)
    const data = new Int32Array(2 * n + blocks + this.operandCount);
    data.set(s.opcodes.subarray(0, n), 0);
    data.set(s.opEnds.subarray(0, n), n);
    data.set(s.blockEnds.subarray(0, blocks), 2 * n);
    data.set(s.operands.subarray(0, this.operandCount), 2 * n + blocks);
    return {
      instructionCount: n,
      blockCount: blocks,
      data,
      types: this.resultTypes.slice(),
      values: orNone(this.values),
      extraAt: orNone(this.extraAt),
      extras: orNone(this.extras),
      nameCodes: orNone(this.nameCodes),
      names: orNone(this.names),
      layout: this.layout,
    };
  }
}
