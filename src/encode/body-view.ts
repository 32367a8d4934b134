/**
 * The one form in which the writer walks a function body: the graph's `CompactBody`
 * (graph/compact-body.ts), numbers instead of objects.
 *
 * A body read from a file and not touched since is already in that form (`compactBodyOf`): the
 * writer walks it as it is, without building one object per instruction, and numbers the body's
 * own values (instructions, blocks) in dense arrays indexed by their position instead of maps
 * keyed by objects. A body built in code, or materialized by a caller who looked at `fn.blocks`,
 * is first put into the same form here (`compactFromBlocks`, one linear pass), so there is one
 * encoder, not one for objects and one for numbers.
 *
 * Value codes are the compact body's: `index * 4 + tag` (tag 0: `values[index]`, any value that
 * is not one of the body's instructions or blocks; tag 1: instruction `index`; tag 2: block
 * `index`). An operand of a converted body that names an instruction or block of *another*
 * function (a broken graph, written with `verify: false`) becomes a tag-0 value, which has no
 * slot: the writer then refuses it as it always did.
 */
import {
  compactBodyOf,
  OPCODE_NUMBER,
  TAG_BLOCK,
  TAG_INSTRUCTION,
  TAG_VALUE,
  UNRESOLVED,
  type CompactBody,
  type CompactLayout,
  type InstructionExtras,
} from '../graph/compact-body.js';
import { primitiveTypes as P, type Type } from '../graph/type.js';
import type { BasicBlock, Function, Instruction, Value } from '../graph/value.js';
import { nameOf } from './symbol-order.js';
import { InvalidModuleError } from '../verify/verify.js';

export { TAG_BLOCK, TAG_INSTRUCTION, TAG_VALUE, UNRESOLVED, type CompactBody };

/** A body in compact form, plus (for a converted body) where its objects went. */
export interface BodyView {
  readonly body: CompactBody;
  /** Converted bodies only: each instruction's and block's value code, so a caller holding the objects can ask for their slots. */
  readonly codeOf: ReadonlyMap<Value, number> | undefined;
}

/** The extras fields an instruction may carry (see `InstructionExtras`). */
const EXTRA_FIELDS = ['isVolatile', 'callingConv', 'isTailCall', 'allocatedType', 'alignment', 'argType', 'legacyVarArgs', 'constantRefOperands'] as const;

/**
 * Whether `inst` has any of `EXTRA_FIELDS`, asked by name: most instructions have none, and
 * named reads are much cheaper than the loop's reads by a computed key.
 */
function hasExtras(inst: Instruction): boolean {
  return (
    inst.isVolatile !== undefined ||
    inst.callingConv !== undefined ||
    inst.isTailCall !== undefined ||
    inst.allocatedType !== undefined ||
    inst.alignment !== undefined ||
    inst.argType !== undefined ||
    inst.legacyVarArgs !== undefined ||
    inst.constantRefOperands !== undefined
  );
}

/** `f`'s body as the writer walks it, or undefined for a function without blocks. */
export function bodyViewOf(f: Function): BodyView | undefined {
  const body = compactBodyOf(f);
  if (body !== undefined) return body.blockCount === 0 ? undefined : { body, codeOf: undefined };
  if (f.blocks.length === 0) return undefined;
  return compactFromBlocks(f);
}

/** The compact form of a body held as objects (the inverse of `materializeBody`). */
export function compactFromBlocks(f: Function): BodyView {
  const blocks = f.blocks;
  const codeOf = new Map<Value, number>();
  let n = 0;
  let operandCount = 0;
  for (let b = 0; b < blocks.length; b++) {
    const bb = blocks[b]!;
    if (!codeOf.has(bb)) codeOf.set(bb, b * 4 + TAG_BLOCK);
    const insts = bb.instructions;
    for (let i = 0; i < insts.length; i++) {
      const inst = insts[i]!;
      if (!codeOf.has(inst)) codeOf.set(inst, n * 4 + TAG_INSTRUCTION);
      n++;
      operandCount += inst.operands.length;
    }
  }
  const blockCount = blocks.length;
  const data = new Int32Array(2 * n + blockCount + operandCount);
  const types: Type[] = [];
  const typeIndex = new Map<Type, number>();
  const values: Value[] = [];
  const valueIndex = new Map<Value, number>();
  const extraAt: number[] = [];
  const extras: InstructionExtras[] = [];
  const nameCodes: number[] = [];
  const names: string[] = [];
  const codeFor = (v: Value | undefined): number => {
    if (v === undefined || v === null) return UNRESOLVED;
    const local = codeOf.get(v);
    if (local !== undefined) return local;
    let i = valueIndex.get(v);
    if (i === undefined) {
      i = values.length;
      values.push(v);
      valueIndex.set(v, i);
    }
    return i * 4 + TAG_VALUE;
  };
  const operandBase = 2 * n + blockCount;
  let at = 0;
  let k = 0;
  for (let b = 0; b < blockCount; b++) {
    const bb = blocks[b]!;
    if (bb.name) {
      nameCodes.push(b * 4 + TAG_BLOCK);
      names.push(bb.name);
    }
    const insts = bb.instructions;
    for (let j = 0; j < insts.length; j++) {
      const inst = insts[j]!;
      let ti = typeIndex.get(inst.type);
      if (ti === undefined) {
        ti = types.length;
        types.push(inst.type);
        typeIndex.set(inst.type, ti);
      }
      const opcode = OPCODE_NUMBER[inst.opcode];
      if (opcode === undefined) throw new InvalidModuleError([`unknown opcode '${String(inst.opcode)}' (verify: false let the module through)`]);
      data[at] = opcode | (ti << 6);
      const ops = inst.operands;
      for (let o = 0; o < ops.length; o++) data[operandBase + k++] = codeFor(ops[o]);
      data[n + at] = k;
      if (hasExtras(inst)) {
        let extra: InstructionExtras | undefined;
        for (const field of EXTRA_FIELDS) {
          if (inst[field] !== undefined) ((extra ??= {}) as Record<string, unknown>)[field] = inst[field];
        }
        if (extra !== undefined) {
          extraAt.push(at);
          extras.push(extra);
        }
      }
      if (inst.name) {
        nameCodes.push(at * 4 + TAG_INSTRUCTION);
        names.push(inst.name);
      }
      at++;
    }
    data[2 * n + b] = at;
  }
  let layout: CompactLayout | undefined;
  if (f.layout !== undefined) {
    const l = f.layout;
    layout = { valuePlanes: l.valuePlanes.map((p) => ({ type: p.type, codes: p.values.map(codeFor) })) };
    if (l.typeNames !== undefined) layout.typeNames = l.typeNames;
    if (l.typeNamesPlaneIndex !== undefined) layout.typeNamesPlaneIndex = l.typeNamesPlaneIndex;
  }
  const body: CompactBody = { instructionCount: n, blockCount, data, types, values, extraAt, extras, nameCodes, names, layout };
  return { body, codeOf };
}

/** Opcode numbers of the compact form that the writer tests for. */
export const VANEXT = OPCODE_NUMBER.vanext;
export const GETELEMENTPTR = OPCODE_NUMBER.getelementptr;
export const BR = OPCODE_NUMBER.br;

/**
 * The named constants of a body's symbol table layout (LLVM 1.0–1.2 only; see `namedConstants`
 * in symbol-order.ts, which this is over value codes).
 */
export function namedConstantsOfBody(body: CompactBody): readonly Value[] {
  if (body.layout === undefined) return NO_VALUES;
  let out: Value[] | undefined;
  const planes = body.layout.valuePlanes;
  for (let p = 0; p < planes.length; p++) {
    const codes = planes[p]!.codes;
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i]!;
      if (code < 0 || (code & 3) !== TAG_VALUE) continue;
      const v = body.values[code >>> 2]!;
      if (isNamedConstant(v)) (out ??= []).push(v);
    }
  }
  return out ?? NO_VALUES;
}

/** Whether a value a layout lists is a named constant (see `namedConstantsOfBody`). */
export function isNamedConstant(v: Value): boolean {
  if (v.kind === 'argument' || v.kind === 'global' || v.kind === 'function' || v.kind === 'instruction' || v.kind === 'block') return false;
  return nameOf(v) !== '';
}

/** The answer of `namedConstantsOfBody` for nearly every body (shared: no allocation). */
const NO_VALUES: readonly Value[] = [];

/** The type of the value a code names (undefined for an unresolved operand). */
export function typeOfCode(body: CompactBody, code: number): Type | undefined {
  if (code === UNRESOLVED) return undefined;
  const tag = code & 3;
  if (tag === TAG_VALUE) return body.values[code >>> 2]!.type;
  if (tag === TAG_INSTRUCTION) return body.types[body.data[code >>> 2]! >>> 6]!;
  return P.label;
}

/** The extras of every instruction, by instruction number (undefined where none). */
export function extrasByInstruction(body: CompactBody): (InstructionExtras | undefined)[] | undefined {
  if (body.extraAt.length === 0) return undefined;
  const out = new Array<InstructionExtras | undefined>(body.instructionCount);
  for (let e = 0; e < body.extraAt.length; e++) out[body.extraAt[e]!] = body.extras[e];
  return out;
}

/** Whether a value is one of a body's own kinds (never a tag-0 operand of a valid body). */
export function isLocalKind(v: Value): v is Instruction | BasicBlock {
  return v.kind === 'instruction' || v.kind === 'block';
}

/**
 * The slots of the current function's own values, by position: its instructions and blocks (-1:
 * none yet), and a memo of its tag-0 values' slots (asked once each per function). Typed arrays
 * reused from function to function, instead of maps keyed by objects.
 */
export class LocalSlots {
  view: BodyView | undefined;
  private inst = shared.inst;
  private block = shared.block;
  private value = shared.value;

  /** Starts numbering `view`'s values (every slot unknown). */
  begin(view: BodyView | undefined): void {
    this.view = view;
    if (view === undefined) return;
    const body = view.body;
    this.inst = shared.inst = reset(shared.inst, body.instructionCount, -1);
    this.block = shared.block = reset(shared.block, body.blockCount, -1);
    this.value = shared.value = reset(shared.value, body.values.length, -2);
  }

  end(): void {
    this.view = undefined;
  }

  /** The slot of instruction or block `code` (tag 1 or 2), or -1. */
  get(code: number): number {
    if (this.view === undefined) return -1;
    return (code & 3) === TAG_INSTRUCTION ? this.inst[code >>> 2]! : this.block[code >>> 2]!;
  }

  set(code: number, slot: number): void {
    if ((code & 3) === TAG_INSTRUCTION) this.inst[code >>> 2] = slot;
    else this.block[code >>> 2] = slot;
  }

  /** The slot of an instruction or block object of a converted body (see `BodyView.codeOf`), or -1. */
  ofObject(v: Value): number {
    const code = this.view?.codeOf?.get(v);
    return code === undefined ? -1 : this.get(code);
  }

  /** The slot of operand `code` of the current body, or -1; tag-0 values are asked of `slotOf` once each. */
  codeSlot(code: number, slotOf: (v: Value) => number): number {
    if (code < 0) return -1;
    if ((code & 3) !== TAG_VALUE) return this.get(code);
    const i = code >>> 2;
    let s = this.value[i]!;
    if (s === -2) this.value[i] = s = slotOf(this.view!.body.values[i]!);
    return s;
  }
}

/**
 * The arrays every `LocalSlots` numbers in, shared: one function is numbered at a time (a write
 * is synchronous), and a write of a small module would otherwise spend more on allocating them
 * (typed arrays of this size live outside the heap) than on using them.
 */
const shared = { inst: new Int32Array(64), block: new Int32Array(64), value: new Int32Array(64) };

/** `buf` (or a larger array) with its first `n` entries set to `fill`. */
function reset(buf: Int32Array<ArrayBuffer>, n: number, fill: number): Int32Array<ArrayBuffer> {
  if (buf.length < n) buf = new Int32Array(Math.max(n, buf.length * 2));
  buf.fill(fill, 0, n);
  return buf;
}
