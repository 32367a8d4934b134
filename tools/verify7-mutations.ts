/**
 * Graph-level mutations of a version-7 module, each aimed at one of r36867's verifier rules (or
 * at the edge of one: a cast opcode swapped for another may stay valid). Used by
 * `npm run fuzz:verify7` (fuzz-verify7.ts) and its test: a mutated module is printed as LLVM 2.0
 * text and given to r36867's `llvm-as`, whose verdict ours must match.
 *
 * A mutation returns what it did, or undefined when the module has nothing it applies to (the
 * module is then unchanged). Only changes LLVM 2.0 text can show are made: a declaration's
 * linkage (printed as plain `declare`/`external` whatever it is) or a global's initializer of
 * another type (printed with the initializer's type) are not, and are left to the verifier's
 * own tests (test/verify/).
 */
import type { Module } from '../src/graph/module.js';
import { integerType, PARAM_ATTRIBUTE_BITS, primitiveTypes, type FunctionType, type Type } from '../src/graph/type.js';
import { isTerminatorOpcode } from '../src/graph/opcodes.js';
import {
  CAST_OPCODES,
  FLOAT_PREDICATES,
  INT_PREDICATES,
  isCastOpcode,
  type BasicBlock,
  type Constant,
  type Function,
  type Instruction,
  type Value,
} from '../src/graph/value.js';

export type Random = () => number;

export interface Mutation {
  readonly name: string;
  apply(m: Module, random: Random): string | undefined;
}

interface Site {
  fn: Function;
  block: BasicBlock;
  blockIndex: number;
  index: number;
  inst: Instruction;
}

function pick<T>(list: readonly T[], random: Random): T | undefined {
  return list.length === 0 ? undefined : list[Math.floor(random() * list.length)];
}

function definitions(m: Module): Function[] {
  return m.functions.filter((f) => !f.isDeclaration);
}

function sites(m: Module, keep: (inst: Instruction) => boolean): Site[] {
  const out: Site[] = [];
  for (const fn of definitions(m)) {
    fn.blocks.forEach((block, blockIndex) => {
      block.instructions.forEach((inst, index) => {
        if (keep(inst)) out.push({ fn, block, blockIndex, index, inst });
      });
    });
  }
  return out;
}

const where = (s: Site): string => `@${s.fn.name ?? '?'} block #${s.blockIndex} instruction #${s.index} (${s.inst.opcode})`;

/** Integer and floating-point types a replacement constant may take. */
const SCALARS: readonly Type[] = [
  integerType(1),
  integerType(8),
  integerType(16),
  integerType(32),
  integerType(64),
  primitiveTypes.float,
  primitiveTypes.double,
];

function constantOf(t: Type): Constant | undefined {
  // (2, not 1: the printer leaves out an allocation's count of 1, whatever its type.)
  if (t.kind === 'integer') return t.bits === 1 ? { kind: 'bool', type: t, value: true } : { kind: 'int', type: t, value: 2n };
  if (t.kind === 'float' || t.kind === 'double') return { kind: 'fp', type: t, value: 2, bits: t.kind === 'float' ? 0x40000000n : 0x4000000000000000n };
  if (t.kind === 'pointer') return { kind: 'null', type: t };
  return undefined;
}

/** A constant of a scalar type other than `t` (or of `t` itself when `same`). */
function otherConstant(t: Type, random: Random): Constant | undefined {
  const choices = SCALARS.filter((s) => s !== t);
  const ty = pick(choices, random);
  return ty === undefined ? undefined : constantOf(ty);
}

const BINARY = new Set(['add', 'sub', 'mul', 'udiv', 'sdiv', 'fdiv', 'urem', 'srem', 'frem', 'and', 'or', 'xor', 'shl', 'lshr', 'ashr']);

/** Replaces operand `i` of a random instruction accepted by `keep` with a constant of another type. */
function operandType(name: string, keep: (inst: Instruction) => boolean, operand: (inst: Instruction) => number): Mutation {
  return {
    name,
    apply(m, random) {
      const s = pick(sites(m, keep), random);
      if (s === undefined) return undefined;
      const i = operand(s.inst);
      const old = s.inst.operands[i];
      if (old === undefined || old.kind === 'block') return undefined;
      const c = otherConstant(old.type, random);
      if (c === undefined) return undefined;
      s.inst.operands[i] = c;
      return `${where(s)}: operand ${i} becomes a constant of another type`;
    },
  };
}

export const MUTATIONS: readonly Mutation[] = [
  operandType(
    'binary operand type',
    (i) => BINARY.has(i.opcode),
    () => 1,
  ),
  operandType(
    'shift amount type',
    (i) => i.opcode === 'shl' || i.opcode === 'lshr' || i.opcode === 'ashr',
    () => 1,
  ),
  operandType(
    'compare operand type',
    (i) => i.opcode === 'icmp' || i.opcode === 'fcmp',
    () => 1,
  ),
  operandType(
    'branch condition type',
    (i) => i.opcode === 'br' && i.operands.length === 3,
    () => 0,
  ),
  operandType(
    'select condition type',
    (i) => i.opcode === 'select',
    () => 0,
  ),
  operandType(
    'return value type',
    (i) => i.opcode === 'ret' && i.operands.length === 1,
    () => 0,
  ),
  operandType(
    'stored value type',
    (i) => i.opcode === 'store',
    () => 0,
  ),
  operandType(
    'call argument type',
    (i) => i.opcode === 'call' && i.operands.length > 1 && typedCallee(i),
    (i) => i.operands.length - 1,
  ),
  operandType(
    'cast source type',
    (i) => isCastOpcode(i.opcode),
    () => 0,
  ),
  operandType(
    'alloca count type',
    (i) => (i.opcode === 'alloca' || i.opcode === 'malloc') && i.operands[0]?.kind === 'int',
    () => 0,
  ),
  operandType(
    'getelementptr index type',
    (i) => i.opcode === 'getelementptr' && i.operands.length > 1,
    (i) => i.operands.length - 1,
  ),
  operandType(
    'switch case type',
    (i) => i.opcode === 'switch' && i.operands.length > 2,
    () => 2,
  ),
  operandType(
    'vector index type',
    (i) => i.opcode === 'extractelement' || i.opcode === 'insertelement',
    (i) => i.operands.length - 1,
  ),
  {
    name: 'cast opcode',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => isCastOpcode(i.opcode)),
        random,
      );
      const op = pick(CAST_OPCODES, random);
      if (s === undefined || op === undefined || op === s.inst.opcode) return undefined;
      const was = s.inst.opcode;
      s.inst.opcode = op;
      return `${where(s)}: ${was} becomes ${op}`;
    },
  },
  {
    name: 'cast result type',
    apply(m, random) {
      // Only where nothing uses the value, so that only the cast's own rule is at stake.
      const used = usedValues(m);
      const s = pick(
        sites(m, (i) => isCastOpcode(i.opcode) && !used.has(i)),
        random,
      );
      const ty = pick(SCALARS, random);
      if (s === undefined || ty === undefined) return undefined;
      s.inst.type = ty;
      return `${where(s)}: now produces ${ty.kind === 'integer' ? `i${ty.bits}` : ty.kind}`;
    },
  },
  {
    name: 'compare predicate',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => i.opcode === 'icmp' || i.opcode === 'fcmp'),
        random,
      );
      if (s === undefined) return undefined;
      // The other family's predicate (the printer refuses what it cannot name: such a case is skipped).
      const names = Object.keys(s.inst.opcode === 'icmp' ? FLOAT_PREDICATES : INT_PREDICATES) as (keyof typeof INT_PREDICATES)[];
      const p = pick(names, random);
      if (p === undefined) return undefined;
      s.inst.opcode = s.inst.opcode === 'icmp' ? 'fcmp' : 'icmp';
      s.inst.predicate = p;
      return `${where(s)}: becomes ${s.inst.opcode} ${p}`;
    },
  },
  {
    name: 'unreachable for the terminator',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => i.opcode !== 'unreachable' && (i.opcode === 'br' || i.opcode === 'switch' || i.opcode === 'ret' || i.opcode === 'invoke')),
        random,
      );
      if (s === undefined || s.index !== s.block.instructions.length - 1) return undefined;
      s.block.instructions[s.index] = { kind: 'instruction', opcode: 'unreachable', type: primitiveTypes.void, operands: [] };
      return `${where(s)}: replaced by unreachable`;
    },
  },
  {
    name: 'terminator dropped',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => i.opcode === 'br' || i.opcode === 'ret' || i.opcode === 'unreachable'),
        random,
      );
      if (s === undefined || s.index !== s.block.instructions.length - 1 || s.blockIndex === s.fn.blocks.length - 1) return undefined;
      // The text must still show the block, and show it ending where the next one begins: an
      // unnamed block has no label line (an empty one is not in the text at all, one followed by
      // an unnamed block runs on into it).
      if (!s.fn.blocks[s.blockIndex + 1]!.name || (s.index === 0 && !s.block.name)) return undefined;
      s.block.instructions.pop();
      return `${where(s)}: dropped (the block has no terminator)`;
    },
  },
  {
    name: 'phi edge dropped',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => i.opcode === 'phi' && i.operands.length >= 2),
        random,
      );
      if (s === undefined) return undefined;
      const k = 2 * Math.floor(random() * (s.inst.operands.length / 2));
      s.inst.operands.splice(k, 2);
      return `${where(s)}: incoming pair ${k / 2} dropped`;
    },
  },
  {
    name: 'phi edge repeated',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => i.opcode === 'phi' && i.operands.length >= 2),
        random,
      );
      if (s === undefined) return undefined;
      const k = 2 * Math.floor(random() * (s.inst.operands.length / 2));
      const value = random() < 0.5 ? s.inst.operands[k]! : (constantOf(s.inst.type) ?? s.inst.operands[k]!);
      s.inst.operands.push(value, s.inst.operands[k + 1]!);
      return `${where(s)}: incoming block of pair ${k / 2} repeated`;
    },
  },
  {
    name: 'phi moved down',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => i.opcode === 'phi'),
        random,
      );
      if (s === undefined) return undefined;
      const insts = s.block.instructions;
      const to = insts.length - 1;
      if (s.index + 1 >= to) return undefined;
      insts.splice(s.index, 1);
      insts.splice(to - 1, 0, s.inst);
      return `${where(s)}: moved before the terminator`;
    },
  },
  {
    name: 'branch to entry',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => i.opcode === 'br'),
        random,
      );
      if (s === undefined) return undefined;
      const k = s.inst.operands.length === 1 ? 0 : 1 + Math.floor(random() * 2);
      s.inst.operands[k] = s.fn.blocks[0]!;
      return `${where(s)}: target ${k} becomes the entry block`;
    },
  },
  {
    name: 'instructions swapped',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => i.opcode !== 'phi'),
        random,
      );
      if (s === undefined) return undefined;
      const insts = s.block.instructions;
      const next = insts[s.index + 1];
      if (next === undefined || s.index + 1 === insts.length - 1) return undefined;
      insts[s.index] = next;
      insts[s.index + 1] = s.inst;
      return `${where(s)}: swapped with the next instruction`;
    },
  },
  {
    name: 'instruction moved to another block',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => i.opcode !== 'phi' && !isTerminatorOpcode(i.opcode)),
        random,
      );
      if (s === undefined || s.fn.blocks.length < 2) return undefined;
      const to = pick(s.fn.blocks, random)!;
      if (to === s.block) return undefined;
      s.block.instructions.splice(s.index, 1);
      let at = 0;
      while (to.instructions[at]?.opcode === 'phi') at++;
      to.instructions.splice(at, 0, s.inst);
      return `${where(s)}: moved to the top of block #${s.fn.blocks.indexOf(to)}`;
    },
  },
  {
    name: 'invoke value used in a successor',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => i.opcode === 'invoke' && i.type.kind !== 'void'),
        random,
      );
      if (s === undefined) return undefined;
      const dest = s.inst.operands[random() < 0.5 ? 1 : 2];
      if (dest === undefined || dest.kind !== 'block') return undefined;
      let at = 0;
      while (dest.instructions[at]?.opcode === 'phi') at++;
      // select true, %v, %v: a use of any first-class value that changes nothing else.
      const use: Instruction = {
        kind: 'instruction',
        opcode: 'select',
        type: s.inst.type,
        operands: [{ kind: 'bool', type: integerType(1), value: true }, s.inst, s.inst],
        name: 'fuzzuse',
      };
      dest.instructions.splice(at, 0, use);
      return `${where(s)}: its value used at the top of ${dest === s.inst.operands[1] ? 'the normal' : 'the unwind'} destination`;
    },
  },
  {
    name: 'parameter attribute added',
    apply(m, random) {
      const f = pick(m.functions, random);
      if (f === undefined) return undefined;
      const ft = f.functionType;
      const index = Math.floor(random() * (ft.params.length + 1));
      const bits = pick(Object.values(PARAM_ATTRIBUTE_BITS), random)!;
      const list = (ft.paramAttributes ?? []).filter((a) => a.index !== index);
      const old = ft.paramAttributes?.find((a) => a.index === index)?.attributes ?? 0;
      list.push({ index, attributes: old | bits });
      list.sort((a, b) => a.index - b.index);
      // The function type is shared by everything of that type (calls included), as in LLVM.
      (ft as { paramAttributes?: FunctionType['paramAttributes'] }).paramAttributes = list;
      return `@${f.name ?? '?'}: attribute bits ${bits} at index ${index}`;
    },
  },
  {
    name: 'call argument dropped',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => typedCallee(i) && ((i.opcode === 'call' && i.operands.length > 1) || (i.opcode === 'invoke' && i.operands.length > 3))),
        random,
      );
      if (s === undefined) return undefined;
      s.inst.operands.pop();
      return `${where(s)}: last argument dropped`;
    },
  },
  {
    name: 'invoke unwinds to its normal block',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => i.opcode === 'invoke'),
        random,
      );
      if (s === undefined) return undefined;
      s.inst.operands[2] = s.inst.operands[1]!;
      return `${where(s)}: unwind destination = normal destination`;
    },
  },
  {
    name: 'definition linkage',
    apply(m, random) {
      const defs: Array<{ name?: string; linkage: string }> = [...definitions(m), ...m.globals.filter((g) => g.initializer !== undefined)];
      const d = pick(defs, random);
      const linkage = pick(['dllimport', 'appending', 'extern_weak', 'internal'] as const, random);
      if (d === undefined || linkage === undefined || d.linkage === linkage) return undefined;
      (d as { linkage: string }).linkage = linkage;
      return `definition @${d.name ?? '?'} becomes ${linkage}`;
    },
  },
  {
    name: 'called function renamed as an intrinsic',
    apply(m, random) {
      const f = pick(
        m.functions.filter((x) => x.isDeclaration),
        random,
      );
      if (f === undefined) return undefined;
      const name = pick(['llvm.nosuch', 'llvm.memcpy.i16', 'llvm.bswap.i8', 'llvm.ctpop.i32', 'llvm.sqrt.f32', 'llvm.stacksave'], random)!;
      if (m.functions.some((x) => x.name === name)) return undefined;
      const was = f.name;
      f.name = name;
      return `declaration @${was ?? '?'} renamed @${name}`;
    },
  },
  {
    name: 'varargs with fastcc',
    apply(m, random) {
      const f = pick(
        m.functions.filter((x) => x.functionType.isVarArg),
        random,
      );
      if (f === undefined) return undefined;
      f.callingConv = pick([8, 9, 65, 64], random)!;
      return `@${f.name ?? '?'} gets calling convention ${f.callingConv}`;
    },
  },
  {
    name: 'name on a void instruction',
    apply(m, random) {
      const s = pick(
        sites(m, (i) => i.opcode === 'store' || i.opcode === 'br'),
        random,
      );
      if (s === undefined) return undefined;
      s.inst.name = 'fuzzname';
      return `${where(s)}: named %fuzzname`;
    },
  },
];

/**
 * Whether a call's text names its callee's type: the printer's short form (`call void asm …(…)`,
 * `invoke void null()`) lets r36867's parser take the type from the arguments for inline asm and
 * constants, so a change of an argument there is not in the text.
 */
function typedCallee(i: Instruction): boolean {
  const k = i.operands[0]?.kind;
  return k === 'function' || k === 'instruction' || k === 'argument' || k === 'expr';
}

/** The instructions some operand of the module names. */
function usedValues(m: Module): Set<Value> {
  const used = new Set<Value>();
  for (const f of definitions(m)) for (const b of f.blocks) for (const i of b.instructions) for (const op of i.operands) used.add(op);
  return used;
}
