/**
 * Version 7's slot numbering: LLVM r36867's `SlotCalculator` (the last bytecode writer, LLVM 2.0
 * development), which is much simpler than LLVM 1.9's (`../slot-calculator.ts`):
 *
 * - types: void, float, double, label (ids 0–3, the primitive type ids), then i1, i8, i16, i32,
 *   i64 always; every other type in the order the module walk first meets it, each type before
 *   the types it contains (pre order, unlike LLVM 1.9's post order); with 64 types or more the
 *   first-class types are swapped to the front, as LLVM 1.9 did;
 * - values: global variables, functions, aliases, the constants of initializers and aliasees
 *   (operands before the constant), then every constant any instruction uses (there are no
 *   function constant pools and no compaction tables any more), each in its type's plane after
 *   the plane's implicit null value;
 * - a function's arguments, blocks and non-void instructions are appended to the module planes
 *   while the function is written, and removed after it.
 *
 * Values are canonical representatives (see `Canonicalizer`): LLVM keyed its maps by the unique
 * constant objects.
 *
 * Why its own: r36867's numbering is a different algorithm from 1.9's (pre-order types, fixed
 * integer slots, no compaction tables, function values appended to module planes); the
 * constants' operands are the shared `writtenConstantOperands` (`encode/gep-indices.ts`).
 */
import type { Type } from '../../graph/type.js';
import { integerType, primitiveTypes, subtypes } from '../../graph/type.js';
import type { Module } from '../../graph/module.js';
import type { Function, Instruction, Value } from '../../graph/value.js';
import { Canonicalizer, hasNullValue, isGlobalValue, isI8String } from '../canonical.js';
import { llvmOperandIndex } from '../slot-calculator.js';
import { writtenConstantOperands } from '../gep-indices.js';
import { formatFor } from '../../format/format-table.js';
import type { ModuleSlotNumbering } from '../slot-numbering.js';

/** `Type::isFirstClassType() || isPrimitiveType()` at r36867: what the ≥ 64 types reordering moves up. */
function isValueType(t: Type): boolean {
  switch (t.kind) {
    case 'void':
    case 'float':
    case 'double':
    case 'label':
    case 'integer':
    case 'pointer':
    case 'packed':
      return true;
    default:
      return false;
  }
}

/** Version 7's row: its `gepIndexEncoding` writes every operand as it is. */
const V7_ROW = formatFor(7)!;

/** An instruction's operands in LLVM's order (a conditional branch keeps its condition last). */
export function llvmOperands(inst: Instruction): Value[] {
  const ops = inst.operands;
  if (inst.opcode !== 'br' || ops.length !== 3) return ops;
  const out: Value[] = [];
  for (let i = 0; i < ops.length; i++) out.push(ops[llvmOperandIndex(inst, i)]!);
  return out;
}

export class V7SlotCalculator implements ModuleSlotNumbering {
  readonly canon = new Canonicalizer();
  /** The type table, in slot order. */
  readonly types: Type[] = [];
  private readonly typeMap = new Map<Type, number>();
  /** Value planes by type slot (canonical representatives; function values while one is incorporated). */
  private readonly table: Value[][] = [];
  private readonly nodeMap = new Map<Value, number>();
  /** Module-level strings in the order they were met (LLVM's `ConstantStrings`). */
  readonly strings: Value[] = [];
  /** Each plane's size before the current function, for the planes the function touched. */
  private readonly moduleLevel = new Map<number, number>();

  constructor(private readonly module: Module) {
    for (const t of [primitiveTypes.void, primitiveTypes.float, primitiveTypes.double, primitiveTypes.label]) this.getOrCreateTypeSlot(t);
    for (const bits of [1, 8, 16, 32, 64]) this.getOrCreateTypeSlot(integerType(bits));
    this.processModule();
  }

  /** The type table (version 7 compacts no types). */
  get visibleTypes(): readonly Type[] {
    return this.types;
  }

  get moduleTypeLevel(): number {
    return this.types.length;
  }

  /** A plane's size without the current function's values. */
  getModuleLevel(plane: number): number {
    return this.moduleLevel.get(plane) ?? this.table[plane]?.length ?? 0;
  }

  /** A constant's operands are numbered as instruction operands (there are no pointer references). */
  constantOperandSlot(v: Value): number {
    return this.slotOf(v);
  }

  get numPlanes(): number {
    return this.table.length;
  }

  getPlane(plane: number): readonly Value[] {
    return this.table[plane] ?? [];
  }

  /**
   * The object LLVM's maps were keyed by: constants are unique in LLVM, so a structural
   * representative; inline asm was not (r36867's `InlineAsm::get` made a new one each time), so
   * each object stands for itself.
   */
  private rep(v: Value): Value {
    return v.kind === 'inlineasm' ? v : this.canon.canon(v);
  }

  /** A value's slot in its plane, or -1. */
  slotOf(v: Value): number {
    return this.nodeMap.get(this.rep(v)) ?? -1;
  }

  /** A type's slot, or -1. */
  typeSlot(t: Type): number {
    return this.typeMap.get(t) ?? -1;
  }

  isNullRep(rep: Value): boolean {
    return this.canon.isNull(rep);
  }

  private processModule(): void {
    const m = this.module;
    const aliases = m.aliases ?? [];
    for (const g of m.globals) this.createSlotIfNeeded(g);
    for (const f of m.functions) this.createSlotIfNeeded(f);
    for (const a of aliases) this.createSlotIfNeeded(a);
    for (const g of m.globals) if (g.initializer !== undefined) this.createSlotIfNeeded(g.initializer);
    for (const a of aliases) this.createSlotIfNeeded(a.aliasee);

    // Strings (and the null value) first in the planes of i8 arrays.
    for (let p = 0; p < this.table.length; p++) {
      const t = this.types[p]!;
      if (t.kind !== 'array' || t.element !== integerType(8)) continue;
      const plane = this.table[p]!;
      let firstNonString = 0;
      for (let i = 0; i < plane.length; i++) {
        const v = plane[i]!;
        if (this.canon.isNull(v) || isI8String(v)) {
          if (i !== firstNonString) {
            plane[i] = plane[firstNonString]!;
            plane[firstNonString] = v;
            this.nodeMap.set(plane[i]!, i);
            this.nodeMap.set(v, firstNonString);
          }
          firstNonString++;
        }
      }
    }

    // Every constant an instruction uses lives at module level.
    for (const f of m.functions) {
      for (const bb of f.blocks) {
        for (const inst of bb.instructions) {
          for (const op of llvmOperands(inst)) {
            if (op.kind === 'inlineasm' || (isConstantKind(op) && !isGlobalValue(op))) this.createSlotIfNeeded(op);
          }
          this.getOrCreateTypeSlot(inst.type);
        }
      }
    }

    // Named types (std::map: by name).
    for (const name of [...m.typeNames.keys()].sort(compareBytes)) this.getOrCreateTypeSlot(m.typeNames.get(name)!);

    if (this.types.length >= 64) this.moveValueTypesFirst();
  }

  /** LLVM's reordering of a large type table: first-class types to the front, by swaps. */
  private moveValueTypesFirst(): void {
    const types = this.types;
    const table = this.table;
    let firstNonValue = 0;
    for (let i = 0; i < types.length; i++) {
      if (!isValueType(types[i]!)) continue;
      if (i !== firstNonValue) {
        const t = types[i]!;
        types[i] = types[firstNonValue]!;
        types[firstNonValue] = t;
        this.typeMap.set(types[i]!, i);
        this.typeMap.set(t, firstNonValue);
        if (table.length > firstNonValue) {
          while (table.length <= i) table.push([]);
          const p = table[i]!;
          table[i] = table[firstNonValue]!;
          table[firstNonValue] = p;
        }
      }
      firstNonValue++;
    }
  }

  private createSlotIfNeeded(v: Value): void {
    const rep = this.rep(v);
    if (this.nodeMap.has(rep)) return;
    if (isConstantKind(rep) && !isGlobalValue(rep)) {
      if (isI8String(rep)) this.strings.push(rep);
      else for (const op of writtenConstantOperands(V7_ROW, rep)) this.createSlotIfNeeded(op);
    }
    this.insert(rep);
  }

  /** Appends `rep` to its type's plane, after the plane's implicit null value when it is the first. */
  private insert(rep: Value): void {
    const t = rep.type;
    const p = this.getOrCreateTypeSlot(t);
    while (this.table.length <= p) this.table.push([]);
    const plane = this.table[p]!;
    if (plane.length === 0 && hasNullValue(t)) {
      const zero = this.canon.nullOf(t);
      if (zero !== rep) {
        plane.push(zero);
        this.nodeMap.set(zero, 0);
      }
    }
    this.nodeMap.set(rep, plane.length);
    plane.push(rep);
  }

  /** A type's slot, numbering it and then (pre order) the types inside it when it is new. */
  getOrCreateTypeSlot(t: Type): number {
    const known = this.typeMap.get(t);
    if (known !== undefined) return known;
    const slot = this.addType(t);
    const stack: { subs: readonly Type[]; i: number }[] = [{ subs: subtypes(t), i: 0 }];
    while (stack.length !== 0) {
      const top = stack[stack.length - 1]!;
      if (top.i >= top.subs.length) {
        stack.pop();
        continue;
      }
      const child = top.subs[top.i++]!;
      if (this.typeMap.has(child)) continue;
      this.addType(child);
      stack.push({ subs: subtypes(child), i: 0 });
    }
    return slot;
  }

  private addType(t: Type): number {
    const slot = this.types.length;
    this.typeMap.set(t, slot);
    this.types.push(t);
    return slot;
  }

  /** Numbers a function's arguments, blocks and non-void instructions after the module's values. */
  incorporateFunction(f: Function): void {
    for (const a of f.args) this.insertLocal(a);
    for (const bb of f.blocks) {
      this.insertLocal(bb);
      for (const inst of bb.instructions) if (inst.type.kind !== 'void') this.insertLocal(inst);
    }
  }

  private insertLocal(v: Value): void {
    const p = this.getOrCreateTypeSlot(v.type);
    if (!this.moduleLevel.has(p)) this.moduleLevel.set(p, this.table[p]?.length ?? 0);
    this.insert(v);
  }

  /** Forgets the current function's values. */
  purgeFunction(): void {
    for (const [p, level] of this.moduleLevel) {
      const plane = this.table[p]!;
      for (let i = level; i < plane.length; i++) this.nodeMap.delete(plane[i]!);
      plane.length = level;
    }
    this.moduleLevel.clear();
  }
}

function isConstantKind(v: Value): boolean {
  switch (v.kind) {
    case 'argument':
    case 'block':
    case 'instruction':
    case 'inlineasm':
      return false;
    default:
      return true;
  }
}

/** Bytewise order of names (std::string's operator<). */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
