/**
 * The instructions the reader makes (parse-ir.ts): objects of one class, so of one shape, as
 * small as the model allows. A large module holds some 80,000 of them while it is read and
 * written, and the garbage collector copies each it keeps: nine fields, not the fourteen optional
 * ones ir.ts names, which are getters here over the three that hold what the instruction's kind
 * has (at most one number, one flag and one list or string each).
 */
import type { IrAttributeSet, IrConstant, IrInstruction, IrOperand, IrType, IrValue } from './ir.js';

/** What an instruction's `n`, flag and `x` hold. */
const enum Detail {
  None,
  /** n: the flags (nuw/nsw/exact). */
  Binary,
  /** x: the predicate. */
  Compare,
  /** load, store: n the alignment, the flag `volatile`. */
  Memory,
  /** n: the alignment. */
  Alloca,
  /** the flag: `inbounds`. */
  GetElementPtr,
  /** call, invoke: n the calling convention, the flag `tail`, x the attributes. */
  Call,
  /** x: the incoming values. */
  Phi,
  /** x: the cases. */
  Switch,
  /** extractvalue, insertvalue: x the indices. */
  Aggregate,
  /** the flag `cleanup`, x the clauses. */
  LandingPad,
}

export type Incoming = { readonly value: IrValue; readonly block: string };
export type Case = { readonly value: IrConstant; readonly block: string };
export type Clause = { readonly kind: 0 | 1; readonly value: IrOperand };

/** The labels of an instruction that has none. */
export const NO_LABELS: readonly string[] = [];

class Instruction implements IrInstruction {
  constructor(
    readonly result: string | undefined,
    readonly type: IrType,
    readonly opcode: string,
    readonly operands: readonly IrOperand[],
    readonly labels: readonly string[],
    readonly auxType: IrType | undefined,
    /** The Detail, times two, plus one when the flag is set. */
    private readonly d: number,
    private readonly n: number,
    private readonly x: unknown,
  ) {}

  private is(detail: Detail): boolean {
    return this.d >> 1 === detail;
  }
  private get flag(): boolean {
    return (this.d & 1) === 1;
  }

  get predicate(): string | undefined {
    return this.is(Detail.Compare) ? (this.x as string) : undefined;
  }
  get flags(): number | undefined {
    return this.is(Detail.Binary) ? this.n : undefined;
  }
  get inbounds(): boolean | undefined {
    return this.is(Detail.GetElementPtr) ? this.flag : undefined;
  }
  get volatile(): boolean | undefined {
    return this.is(Detail.Memory) ? this.flag : undefined;
  }
  get align(): number | undefined {
    return this.is(Detail.Memory) || this.is(Detail.Alloca) ? this.n : undefined;
  }
  get indices(): readonly number[] | undefined {
    return this.is(Detail.Aggregate) ? (this.x as readonly number[]) : undefined;
  }
  get tail(): boolean | undefined {
    return this.is(Detail.Call) ? this.flag : undefined;
  }
  get callingConv(): number | undefined {
    return this.is(Detail.Call) ? this.n : undefined;
  }
  get attributes(): IrAttributeSet | undefined {
    return this.is(Detail.Call) ? (this.x as IrAttributeSet) : undefined;
  }
  get cleanup(): boolean | undefined {
    return this.is(Detail.LandingPad) ? this.flag : undefined;
  }
  get clauses(): readonly Clause[] | undefined {
    return this.is(Detail.LandingPad) ? (this.x as readonly Clause[]) : undefined;
  }
  get incoming(): readonly Incoming[] | undefined {
    return this.is(Detail.Phi) ? (this.x as readonly Incoming[]) : undefined;
  }
  get cases(): readonly Case[] | undefined {
    return this.is(Detail.Switch) ? (this.x as readonly Case[]) : undefined;
  }
}

const detail = (d: Detail, flag: boolean): number => d * 2 + (flag ? 1 : 0);

/** An instruction with nothing more than its operands and labels (ret, br, casts, select, …), or a va_arg's type. */
export function plainInstruction(
  result: string | undefined,
  type: IrType,
  opcode: string,
  operands: readonly IrOperand[],
  labels: readonly string[] = NO_LABELS,
  auxType?: IrType,
): IrInstruction {
  return new Instruction(result, type, opcode, operands, labels, auxType, Detail.None, 0, undefined);
}

export function binaryInstruction(result: string | undefined, type: IrType, opcode: string, operands: readonly IrOperand[], flags: number): IrInstruction {
  return new Instruction(result, type, opcode, operands, NO_LABELS, undefined, detail(Detail.Binary, false), flags, undefined);
}

export function compareInstruction(result: string | undefined, type: IrType, opcode: string, operands: readonly IrOperand[], predicate: string): IrInstruction {
  return new Instruction(result, type, opcode, operands, NO_LABELS, undefined, detail(Detail.Compare, false), 0, predicate);
}

/** load (with the loaded type) and store. */
export function memoryInstruction(
  result: string | undefined,
  type: IrType,
  opcode: string,
  operands: readonly IrOperand[],
  auxType: IrType | undefined,
  isVolatile: boolean,
  align: number,
): IrInstruction {
  return new Instruction(result, type, opcode, operands, NO_LABELS, auxType, detail(Detail.Memory, isVolatile), align, undefined);
}

export function allocaInstruction(result: string | undefined, type: IrType, operands: readonly IrOperand[], allocated: IrType, align: number): IrInstruction {
  return new Instruction(result, type, 'alloca', operands, NO_LABELS, allocated, detail(Detail.Alloca, false), align, undefined);
}

export function gepInstruction(result: string | undefined, type: IrType, operands: readonly IrOperand[], source: IrType, inbounds: boolean): IrInstruction {
  return new Instruction(result, type, 'getelementptr', operands, NO_LABELS, source, detail(Detail.GetElementPtr, inbounds), 0, undefined);
}

/** call and invoke (whose labels are its normal and unwind blocks). */
export function callInstruction(
  result: string | undefined,
  opcode: 'call' | 'invoke',
  operands: readonly IrOperand[],
  labels: readonly string[],
  fnType: IrType & { kind: 'function' },
  tail: boolean,
  callingConv: number,
  attributes: IrAttributeSet,
): IrInstruction {
  return new Instruction(result, fnType.ret, opcode, operands, labels, fnType, detail(Detail.Call, tail), callingConv, attributes);
}

export function phiInstruction(result: string | undefined, type: IrType, operands: readonly IrOperand[], incoming: readonly Incoming[]): IrInstruction {
  return new Instruction(result, type, 'phi', operands, NO_LABELS, undefined, detail(Detail.Phi, false), 0, incoming);
}

export function switchInstruction(
  result: string | undefined,
  type: IrType,
  operands: readonly IrOperand[],
  labels: readonly string[],
  cases: readonly Case[],
): IrInstruction {
  return new Instruction(result, type, 'switch', operands, labels, undefined, detail(Detail.Switch, false), 0, cases);
}

/** extractvalue and insertvalue. */
export function aggregateInstruction(
  result: string | undefined,
  type: IrType,
  opcode: string,
  operands: readonly IrOperand[],
  indices: readonly number[],
): IrInstruction {
  return new Instruction(result, type, opcode, operands, NO_LABELS, undefined, detail(Detail.Aggregate, false), 0, indices);
}

export function landingPadInstruction(
  result: string | undefined,
  type: IrType,
  operands: readonly IrOperand[],
  cleanup: boolean,
  clauses: readonly Clause[],
): IrInstruction {
  return new Instruction(result, type, 'landingpad', operands, NO_LABELS, undefined, detail(Detail.LandingPad, cleanup), 0, clauses);
}
