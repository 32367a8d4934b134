/** The state of one function while its body is decoded: its types, planes and basic blocks. */
import type { BinaryReader } from '../binary/reader.js';
import { primitiveTypes as P, type PointerType, type Type } from '../graph/type.js';
import type { BasicBlock, Function, Instruction, Value } from '../graph/value.js';
import { describeType, pointerTo, type ModuleContext } from './context.js';
import { LocalPlane } from './planes.js';
import type { TypeTable } from './types.js';

/** An operand slot that names a value defined later in the function (e.g. a phi's back edge). */
interface ForwardReference {
  readonly inst: Instruction;
  readonly index: number;
  readonly plane: LocalPlane;
  readonly type: Type;
  readonly slot: number;
  readonly offset: number;
}

export class FunctionScope {
  /** Types by (function-local, possibly compacted) id. */
  types: TypeTable;
  /** Compaction-table prefixes by type; planes not listed fall back to the module's. */
  readonly compacted = new Map<Type, Value[]>();
  private readonly planes = new Map<Type, LocalPlane>();
  private lastType: Type | null = null;
  private lastPlane: LocalPlane | null = null;
  /** Blocks by index, created when first named (label operands may point forward). */
  readonly blocks: BasicBlock[] = [];
  /** How many blocks have been completed by a terminator. */
  completedBlocks = 0;
  private highestLabel = -1;
  private highestLabelOffset = 0;
  private readonly forward: ForwardReference[] = [];
  argumentsPlaced = false;
  instructionCount = 0;

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
      p = new LocalPlane(this.compacted.get(t) ?? this.ctx.planes.plane(t));
      this.planes.set(t, p);
    }
    this.lastType = t;
    this.lastPlane = p;
    return p;
  }

  /** Puts the arguments in their planes (LLVM did so at the first constant pool or instruction list). */
  placeArguments(): void {
    if (this.argumentsPlaced) return;
    this.argumentsPlaced = true;
    for (const a of this.fn.args) this.plane(a.type).push(a);
  }

  block(index: number, offset: number): BasicBlock {
    if (index > this.highestLabel) {
      if (index >= this.ctx.limits.maxBasicBlocksPerFunction) this.r.fail(`basic block ${index} exceeds the limit of ${this.ctx.limits.maxBasicBlocksPerFunction} per function`, offset);
      // A label can only name a block that will exist, and every block holds at least one
      // instruction of at least one byte: a label beyond that is an error now, not an allocation.
      if (index - this.completedBlocks > this.r.remaining + 1) this.r.fail(`label ${index} names a basic block that cannot exist`, offset);
      this.highestLabel = index;
      this.highestLabelOffset = offset;
    }
    let b = this.blocks[index];
    if (b === undefined) {
      for (let i = this.blocks.length; i <= index; i++) this.blocks.push({ kind: 'block', type: P.label, instructions: [] });
      b = this.blocks[index]!;
    }
    return b;
  }

  /** Operand `index` of `inst`: the value at `slot` of `t`'s plane, now or once it is defined. */
  operand(inst: Instruction, index: number, t: Type, slot: number, offset: number): void {
    const plane = this.plane(t);
    if (slot < plane.length) {
      const v = plane.get(slot)!;
      inst.operands[index] = v;
      if ((v.kind === 'global' || v.kind === 'function') && this.ctx.row.perFunctionConstantPools && !this.ctx.planes.isOwnSlot(slot, v)) {
        (inst.constantRefOperands ??= []).push(index);
      }
      return;
    }
    if (slot - plane.length > this.ctx.limits.maxValuesPerPlane) this.r.fail(`value slot ${slot} of type ${describeType(t)} is out of range`, offset);
    this.forward.push({ inst, index, plane, type: t, slot, offset });
  }

  /** Resolves forward references once every instruction is read; a slot never defined is an error. */
  resolveForwardReferences(): void {
    const r: BinaryReader = this.ctx.r;
    for (const f of this.forward) {
      const v = f.plane.get(f.slot);
      if (v === undefined) r.fail(`instruction operand refers to slot ${f.slot} of type ${describeType(f.type)}, which is never defined`, f.offset);
      f.inst.operands[f.index] = v;
    }
    this.forward.length = 0;
    const limit = this.ctx.limits.maxValuesPerPlane;
    for (const [t, plane] of this.planes) {
      if (plane.length > limit) r.fail(`the plane of type ${describeType(t)} holds ${plane.length} values, over the limit of ${limit}`);
    }
    if (this.highestLabel >= this.completedBlocks) {
      this.r.fail(`a label names basic block ${this.highestLabel}, but the function has ${this.completedBlocks}`, this.highestLabelOffset);
    }
  }
}
