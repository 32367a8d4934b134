/**
 * Calls of LLVM 1.x intrinsics whose plan is `lower` (src/modern/intrinsics.ts), rewritten into
 * modern intrinsics, C library calls or plain instructions. Each returns false when the call's
 * shape is not the expected one; the caller then emits an ordinary call of the plain
 * `@llvm1.*` declaration instead. docs/upgrade.md, "Intrinsics" and "Variable arguments".
 */
import type { Instruction, Value } from '../graph/value.js';
import type { Type } from '../graph/type.js';
import type { LowerKind } from './intrinsics.js';
import type { ModuleContext } from './module.js';
import { intBits } from './types.js';

/** A va_list object big enough for every target LLVM 16 supports (x86-64: 24 bytes, AArch64: 32). */
export const VA_LIST = '[32 x i8], align 16';

/** The same object for typed pointers: `i8*` to its bytes, what LLVM 13's va intrinsics take. */
export const TYPED_VA_LIST = 'i8, i32 32, align 16';

/** What a lowering needs from the function-body printer. */
export interface BodyApi {
  readonly ctx: ModuleContext;
  emit(line: string): void;
  temp(base?: string): string;
  local(v: Value): string;
  val(v: Value): string;
  ty(t: Type): string;
  typed(v: Value): string;
  vaIntrinsic(which: 'start' | 'end' | 'copy'): string;
  /** What a va_list object is allocated as (`alloca` operand). */
  vaList(): string;
  /** A typed operand as `i8*` (typed pointers; a bitcast before the call when needed). */
  asBytePtr(operand: string): string;
  /** A typed operand as pointer type `want` (typed pointers; a bitcast when needed). */
  asPointer(operand: string, want: string): string;
  /** The intrinsic function a call's callee operand denotes. */
  calleeName(inst: Instruction): string;
}

/** Rewrites a call of a 1.x intrinsic; false when the call's shape is not the expected one. */
export function lowerIntrinsicCall(b: BodyApi, how: LowerKind, inst: Instruction, nm: string, args: Value[]): boolean {
  const a = (i: number): string => b.typed(args[i]!);
  // Lowerings to void calls cannot carry a 1.x result (it would leave a gap in the numbering).
  if (nm && ['memcpy', 'memmove', 'memset', 'prefetch', 'va_copy', 'va_typed', 'longjmp'].includes(how)) return false;
  switch (how) {
    case 'memcpy':
    case 'memmove':
    case 'memset': {
      if (args.length < 3) return false;
      const lenTy = b.ty(args[2]!.type);
      if (lenTy !== 'i32' && lenTy !== 'i64') return false;
      // LLVM 13 and 14 name the pointer overloads by pointee (`p0i8`), later releases `p0`.
      const p0Name = b.ctx.typed ? 'p0i8' : 'p0';
      const p = b.ctx.bytePtr;
      const name = how === 'memset' ? `llvm.memset.${p0Name}.${lenTy}` : `llvm.${how}.${p0Name}.${p0Name}.${lenTy}`;
      const decl = how === 'memset' ? `declare void @${name}(${p}, i8, ${lenTy}, i1)` : `declare void @${name}(${p}, ${p}, ${lenTy}, i1)`;
      const fnName = b.ctx.intrinsic(name, decl);
      // The 1.x alignment operand becomes `align` attributes on the pointers (when a power of two above 1).
      const alignOp = args[3];
      const align = alignOp && alignOp.kind === 'int' && alignOp.value > 1n && (alignOp.value & (alignOp.value - 1n)) === 0n ? ` align ${alignOp.value}` : '';
      const pointer = (v: Value): string => `${p}${align} ${b.ctx.typed ? b.asBytePtr(b.typed(v)).slice(p.length + 1) : b.val(v)}`;
      const p0 = pointer(args[0]!);
      const p1 = how === 'memset' ? b.typed(args[1]!) : pointer(args[1]!);
      b.emit(`call void ${fnName}(${p0}, ${p1}, ${a(2)}, i1 false)`);
      return true;
    }
    case 'ctlz':
    case 'cttz': {
      if (args.length !== 1 || intBits(args[0]!.type) === 0 || intBits(inst.type) !== intBits(args[0]!.type)) return false;
      const t = b.ty(args[0]!.type);
      const fnName = b.ctx.intrinsic(`llvm.${how}.${t}`, `declare ${t} @llvm.${how}.${t}(${t}, i1)`);
      b.emit(`${nm}call ${t} ${fnName}(${a(0)}, i1 false)`);
      return true;
    }
    case 'prefetch': {
      if (args.length !== 3) return false;
      const prefetch = b.ctx.typed ? 'llvm.prefetch.p0i8' : 'llvm.prefetch.p0';
      const fnName = b.ctx.intrinsic(prefetch, `declare void @${prefetch}(${b.ctx.bytePtr}, i32, i32, i32)`);
      b.emit(`call void ${fnName}(${b.asBytePtr(b.typed(args[0]!))}, i32 ${b.val(args[1]!)}, i32 ${b.val(args[2]!)}, i32 1)`);
      return true;
    }
    case 'isunordered':
      if (args.length !== 2) return false;
      b.emit(`${nm}fcmp uno ${a(0)}, ${b.val(args[1]!)}`);
      return true;
    case 'va_start_old':
      // The 1.x va_list was a value; now it is an object the intrinsics update in place.
      if (args.length !== 0 || !nm) return false;
      b.emit(`${nm}alloca ${b.vaList()}`);
      b.emit(`call void ${b.vaIntrinsic('start')}(${b.ctx.bytePtr} ${b.local(inst)})`);
      return true;
    case 'va_copy_old':
      if (args.length !== 1 || !nm) return false;
      b.emit(`${nm}alloca ${b.vaList()}`);
      b.emit(`call void ${b.vaIntrinsic('copy')}(${b.ctx.bytePtr} ${b.local(inst)}, ${b.asBytePtr(a(0))})`);
      return true;
    case 'va_typed':
      // Typed pointers: the slot (`i8**` in 1.x) is handed over as the `i8*` LLVM 13 takes.
      if (args.length !== 1) return false;
      b.emit(`call void ${b.vaIntrinsic(b.calleeName(inst) === 'llvm.va_end' ? 'end' : 'start')}(${b.asBytePtr(a(0))})`);
      return true;
    case 'va_copy': {
      // 1.6–1.9: va_copy(dest va_list*, src va_list value); modern wants the source object.
      if (args.length !== 2) return false;
      const src = args[1]!;
      const srcObject = src.kind === 'instruction' && src.opcode === 'load' ? src.operands[0]! : src;
      const src0 = b.ctx.typed ? b.asBytePtr(b.typed(srcObject)) : `ptr ${b.val(srcObject)}`;
      b.emit(`call void ${b.vaIntrinsic('copy')}(${b.asBytePtr(a(0))}, ${src0})`);
      return true;
    }
    case 'x86_loadu':
      // An unaligned 16-byte load.
      if (args.length !== 1 || !nm) return false;
      b.emit(`${nm}load <16 x i8>, ${b.asPointer(a(0), b.ctx.ptr('<16 x i8>'))}, align 1`);
      return true;
    case 'x86_pcmpgt':
    case 'x86_pcmpeq': {
      // Lane-wise signed compare giving all-ones / all-zeros lanes.
      if (args.length !== 2 || !nm || inst.type.kind !== 'packed') return false;
      const t = b.temp();
      const vt = b.ty(inst.type);
      b.emit(`${t} = icmp ${how === 'x86_pcmpgt' ? 'sgt' : 'eq'} ${a(0)}, ${b.val(args[1]!)}`);
      b.emit(`${nm}sext <${inst.type.length} x i1> ${t} to ${vt}`);
      return true;
    }
    case 'x86_scalar': {
      // Operate on lane 0, keep the other lanes of the first operand.
      if (args.length !== 2 || !nm || inst.type.kind !== 'packed') return false;
      const op = 'f' + (b.calleeName(inst).split('.')[3] ?? 'add');
      const el = b.ty(inst.type.element);
      const [x, y, r] = [b.temp(), b.temp(), b.temp()];
      b.emit(`${x} = extractelement ${a(0)}, i32 0`);
      b.emit(`${y} = extractelement ${a(1)}, i32 0`);
      b.emit(`${r} = ${op} ${el} ${x}, ${y}`);
      b.emit(`${nm}insertelement ${a(0)}, ${el} ${r}, i32 0`);
      return true;
    }
    case 'x86_packssdw': {
      // LLVM 1.x typed the result <4 x int>; the same 128 bits are <8 x i16> today.
      if (args.length !== 2 || !nm) return false;
      const fnName = b.ctx.intrinsic('llvm.x86.sse2.packssdw.128', 'declare <8 x i16> @llvm.x86.sse2.packssdw.128(<4 x i32>, <4 x i32>)');
      const t = b.temp();
      b.emit(`${t} = call <8 x i16> ${fnName}(${a(0)}, ${a(1)})`);
      b.emit(`${nm}bitcast <8 x i16> ${t} to <4 x i32>`);
      return true;
    }
    case 'setjmp':
      if (args.length !== 1) return false;
      b.emit(`${nm}call i32 ${b.ctx.helper('setjmp')}(${b.asBytePtr(a(0))})`);
      return true;
    case 'longjmp':
      if (args.length !== 2) return false;
      b.emit(`call void ${b.ctx.helper('longjmp')}(${b.asBytePtr(a(0))}, ${a(1)})`);
      return true;
  }
  return false;
}
