/**
 * What the encoders ask of a slot numbering. Two algorithms implement it: `SlotCalculator`
 * (LLVM 1.2–1.9: every constant at module level, compaction tables per function) and
 * `LegacySlotCalculator` (LLVM 1.0/1.1: a constant pool per function, no compaction tables).
 */
import type { PointerType, Type } from '../graph/type.js';
import type { Function, GlobalValue, Value } from '../graph/value.js';

/**
 * LLVM 1.0/1.1's "constant pointer reference": a global's address used inside a constant (an
 * initializer, an aggregate element, an expression operand) was a constant of its own, with its
 * own slot in the pointer plane, written as the global's slot. The graph has no such object (the
 * reader resolves it to the global), so the legacy numbering creates one per global.
 */
export interface PointerRef {
  readonly kind: 'pointerref';
  readonly type: PointerType;
  readonly target: GlobalValue;
}

/** An entry of a value plane: a graph value or (LLVM 1.0/1.1) a pointer reference. */
export type PlaneEntry = Value | PointerRef;

export interface SlotNumbering {
  /** A value's slot in its plane as an instruction operand (compaction table first), or -1. */
  slotOf(v: Value): number;
  /** A value's slot as the operand of a constant or a global's initializer, or -1. */
  constantOperandSlot(v: Value): number;
  /** A type's slot (compacted when a type compaction table is active), or -1. */
  typeSlot(t: Type): number;
  globalSlotOf(rep: Value): number;
  globalTypeSlot(t: Type): number;
  readonly numPlanes: number;
  getPlane(plane: number): readonly PlaneEntry[];
  getModuleLevel(plane: number): number;
  /** The types visible now (compacted types if any). */
  readonly visibleTypes: readonly Type[];
  /** Size of the type table before the current function. */
  readonly moduleTypeLevel: number;
  /** Module-level strings in strings-plane order (empty where there is no strings plane). */
  readonly strings: readonly Value[];
  readonly compactionTable: readonly (readonly Value[])[];
  readonly compactionTypes: readonly Type[];
  compactionTableIsEmpty(): boolean;
  incorporateFunction(f: Function): void;
  purgeFunction(): void;
}
