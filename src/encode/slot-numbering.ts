/**
 * What the encoders ask of a slot numbering. Three algorithms implement it: `SlotCalculator`
 * (LLVM 1.2–1.9: every constant at module level, compaction tables per function),
 * `LegacySlotCalculator` (LLVM 1.0/1.1: a constant pool per function, no compaction tables) and,
 * for the module-level part, `V7SlotCalculator` (r36867).
 */
import type { PointerType, Type } from '../graph/type.js';
import type { Function, GlobalValue, Value } from '../graph/value.js';
import type { BodyView } from './body-view.js';

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

/**
 * One of the current function's own instructions or blocks in a value plane: its value code in
 * the function's body (see body-view.ts), so that the body need not be objects.
 */
export type LocalEntry = number;

/** An entry of a value plane: a graph value, (LLVM 1.0/1.1) a pointer reference, or a local entry. */
export type PlaneEntry = Value | PointerRef | LocalEntry;

/**
 * What the module-level writers (the type list, the global info, the constant pools, the symbol
 * tables) ask of a numbering: every version's numbering answers it, version 7's
 * (`v7/slot-calculator.ts`) included.
 */
export interface ModuleSlotNumbering {
  /** A value's slot in its plane as an instruction operand (compaction table first), or -1. */
  slotOf(v: Value): number;
  /** A value's slot as the operand of a constant or a global's initializer, or -1. */
  constantOperandSlot(v: Value): number;
  /** A type's slot (compacted when a type compaction table is active), or -1. */
  typeSlot(t: Type): number;
  readonly numPlanes: number;
  getPlane(plane: number): readonly PlaneEntry[];
  getModuleLevel(plane: number): number;
  /** The types visible now (compacted types if any). */
  readonly visibleTypes: readonly Type[];
  /** Size of the type table before the current function. */
  readonly moduleTypeLevel: number;
  /** Module-level strings in strings-plane order (empty where there is no strings plane). */
  readonly strings: readonly Value[];
}

/** What the function writers of versions 0–6 ask besides: compaction tables and function bodies. */
export interface SlotNumbering extends ModuleSlotNumbering {
  globalSlotOf(rep: Value): number;
  globalTypeSlot(t: Type): number;
  readonly compactionTable: readonly (readonly PlaneEntry[])[];
  readonly compactionTypes: readonly Type[];
  compactionTableIsEmpty(): boolean;
  /** `f`'s body as the writer walks it, the same view for the whole write (undefined: no blocks). */
  viewOf(f: Function): BodyView | undefined;
  /** Numbers `f`'s own values (its body as `viewOf` gives it). */
  incorporateFunction(f: Function): void;
  /** The slot of operand `code` of the incorporated function's body (see body-view.ts), or -1. */
  codeSlot(code: number): number;
  purgeFunction(): void;
}
