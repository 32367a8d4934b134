/**
 * What becomes of each LLVM 1.x intrinsic (a function named `llvm.*`). Modern LLVM checks every
 * `llvm.*` function it knows against its current signature and refuses to define any, so each
 * one gets a plan:
 *
 * - `keep`: the same name and, in modern types, the same signature (`llvm.ctpop.i32`, …);
 * - `lower`: calls are rewritten (new name and arguments, or an instruction: see `function.ts`);
 * - `plain`: no modern counterpart (debugger stop points, removed target intrinsics, …) or a
 *   signature that does not match: declared as an ordinary function named `llvm1.<rest>`, so
 *   the module stays valid and the call stays visible (calling it at run time needs a definition).
 *
 * docs/upgrade.md lists every intrinsic of the 1.x releases and its plan.
 */
import type { Function } from '../graph/value.js';
import type { TypePrinter } from './types.js';

export type LowerKind =
  | 'memcpy'
  | 'memmove'
  | 'memset'
  | 'ctlz'
  | 'cttz'
  | 'prefetch'
  | 'isunordered'
  | 'va_start_old'
  | 'va_copy_old'
  | 'va_copy'
  | 'va_typed'
  | 'setjmp'
  | 'longjmp'
  | 'x86_loadu'
  | 'x86_pcmpgt'
  | 'x86_pcmpeq'
  | 'x86_scalar'
  | 'x86_packssdw';

export type IntrinsicPlan = { kind: 'keep' } | { kind: 'plain' } | { kind: 'lower'; how: LowerKind };

/** Intrinsics whose modern name and signature are those of 1.x once types are spelled anew. */
const SAME_SIGNATURE: ReadonlyMap<string, string> = new Map([
  ['llvm.va_start', 'void (ptr)'],
  ['llvm.va_end', 'void (ptr)'],
  ['llvm.stacksave', 'ptr ()'],
  ['llvm.stackrestore', 'void (ptr)'],
  ['llvm.readcyclecounter', 'i64 ()'],
  ['llvm.returnaddress', 'ptr (i32)'],
  ['llvm.pcmarker', 'void (i32)'],
  ['llvm.gcroot', 'void (ptr, ptr)'],
  ['llvm.gcread', 'ptr (ptr, ptr)'],
  ['llvm.gcwrite', 'void (ptr, ptr, ptr)'],
  ['llvm.sqrt.f32', 'float (float)'],
  ['llvm.sqrt.f64', 'double (double)'],
  ['llvm.x86.sse2.pmovmskb.128', 'i32 (<16 x i8>)'],
  ['llvm.x86.sse2.packssdw.128', '<8 x i16> (<4 x i32>, <4 x i32>)'],
  ['llvm.x86.sse2.packsswb.128', '<16 x i8> (<8 x i16>, <8 x i16>)'],
  ['llvm.x86.sse2.packuswb.128', '<16 x i8> (<8 x i16>, <8 x i16>)'],
  ['llvm.x86.sse.cmp.ps', '<4 x float> (<4 x float>, <4 x float>, i8)'],
  ['llvm.x86.sse.cmp.ss', '<4 x float> (<4 x float>, <4 x float>, i8)'],
  ['llvm.x86.sse.cvttss2si', 'i32 (<4 x float>)'],
  ['llvm.x86.sse.cvtss2si', 'i32 (<4 x float>)'],
  ['llvm.x86.sse.max.ss', '<4 x float> (<4 x float>, <4 x float>)'],
  ['llvm.x86.sse.min.ss', '<4 x float> (<4 x float>, <4 x float>)'],
  ['llvm.x86.sse.max.ps', '<4 x float> (<4 x float>, <4 x float>)'],
  ['llvm.x86.sse.min.ps', '<4 x float> (<4 x float>, <4 x float>)'],
  ['llvm.x86.sse.movmsk.ps', 'i32 (<4 x float>)'],
  ['llvm.ppc.altivec.vperm', '<4 x i32> (<4 x i32>, <4 x i32>, <16 x i8>)'],
  ['llvm.ppc.altivec.vmaddfp', '<4 x float> (<4 x float>, <4 x float>, <4 x float>)'],
  ['llvm.ppc.altivec.vcmpbfp', '<4 x i32> (<4 x float>, <4 x float>)'],
  ['llvm.ppc.altivec.vcmpbfp.p', 'i32 (i32, <4 x float>, <4 x float>)'],
  ['llvm.ppc.altivec.vcmpeqfp', '<4 x i32> (<4 x float>, <4 x float>)'],
  ['llvm.ppc.altivec.vcmpeqfp.p', 'i32 (i32, <4 x float>, <4 x float>)'],
  ['llvm.ppc.altivec.vcmpgtfp.p', 'i32 (i32, <4 x float>, <4 x float>)'],
]);

/**
 * LLVM 13 and 14's typed signatures of the same intrinsics where they are not the opaque one with
 * `i8*` for each `ptr` (the gc intrinsics take the root's slot as `i8**`).
 */
const TYPED_SIGNATURE: ReadonlyMap<string, string> = new Map([
  ['llvm.gcroot', 'void (i8**, i8*)'],
  ['llvm.gcread', 'i8* (i8*, i8**)'],
  ['llvm.gcwrite', 'void (i8*, i8*, i8**)'],
]);

/** The signature `name` has in the LLVM written for, when it is one of SAME_SIGNATURE. */
function modernSignature(name: string, typed: boolean): string | undefined {
  const opaque = SAME_SIGNATURE.get(name);
  if (opaque === undefined || !typed) return opaque;
  return TYPED_SIGNATURE.get(name) ?? opaque.replace(/\bptr\b/g, 'i8*');
}

/** `llvm.NAME.iN` intrinsics that kept their one-operand `iN (iN)` form. */
const SAME_UNARY_INT = /^llvm\.(ctpop|bswap)\.i(8|16|32|64)$/;

export function planIntrinsic(fn: Function, types: TypePrinter): IntrinsicPlan {
  const name = fn.name ?? '';
  const ft = fn.functionType;
  const sig = types.functionStr(ft);
  if (!fn.isDeclaration) return { kind: 'plain' }; // modern LLVM refuses to define an intrinsic
  if (name === 'llvm.va_start' && ft.params.length === 0) return { kind: 'lower', how: 'va_start_old' };
  if (name === 'llvm.va_copy') return { kind: 'lower', how: ft.returnType.kind === 'void' ? 'va_copy' : 'va_copy_old' };
  if (/^llvm\.(memcpy|memmove|memset)(\.i32|\.i64)?$/.test(name) && ft.params.length >= 3) {
    return { kind: 'lower', how: name.slice(5).split('.')[0] as 'memcpy' | 'memmove' | 'memset' };
  }
  const bitcount = /^llvm\.(ctlz|cttz)\.i(8|16|32|64)$/.exec(name);
  if (bitcount && ft.params.length === 1) return { kind: 'lower', how: bitcount[1] as 'ctlz' | 'cttz' };
  if (/^llvm\.isunordered(\.f32|\.f64)?$/.test(name) && ft.params.length === 2) return { kind: 'lower', how: 'isunordered' };
  if (name === 'llvm.prefetch' && ft.params.length === 3) return { kind: 'lower', how: 'prefetch' };
  if (name === 'llvm.setjmp' || name === 'llvm.sigsetjmp') return { kind: 'lower', how: 'setjmp' };
  if (name === 'llvm.longjmp' || name === 'llvm.siglongjmp') return { kind: 'lower', how: 'longjmp' };
  // x86 intrinsics LLVM has since replaced by plain IR, and one whose result type changed.
  if (name === 'llvm.x86.sse2.loadu.dq' && sig === (types.typed ? '<16 x i8> (i8*)' : '<16 x i8> (ptr)')) return { kind: 'lower', how: 'x86_loadu' };
  // 1.6–1.9 declared va_start/va_end on the va_list's slot (`sbyte**`); typed LLVM 13 takes `i8*`.
  if (types.typed && (name === 'llvm.va_start' || name === 'llvm.va_end') && sig === 'void (i8**)') return { kind: 'lower', how: 'va_typed' };
  const vec2 = /^(<\d+ x i\d+>) \(\1, \1\)$/.exec(sig);
  if (/^llvm\.x86\.sse2\.pcmpgt\.[bwd]$/.test(name) && vec2) return { kind: 'lower', how: 'x86_pcmpgt' };
  if (/^llvm\.x86\.sse2\.pcmpeq\.[bwd]$/.test(name) && vec2) return { kind: 'lower', how: 'x86_pcmpeq' };
  if (/^llvm\.x86\.sse\.(add|sub|mul|div)\.ss$/.test(name) && sig === '<4 x float> (<4 x float>, <4 x float>)') return { kind: 'lower', how: 'x86_scalar' };
  if (/^llvm\.x86\.sse2\.(add|sub|mul|div)\.sd$/.test(name) && sig === '<2 x double> (<2 x double>, <2 x double>)') return { kind: 'lower', how: 'x86_scalar' };
  if (name === 'llvm.x86.sse2.packssdw.128' && sig === '<4 x i32> (<4 x i32>, <4 x i32>)') return { kind: 'lower', how: 'x86_packssdw' };
  const unary = SAME_UNARY_INT.exec(name);
  if (unary && sig === `i${unary[2]} (i${unary[2]})`) return { kind: 'keep' };
  if (modernSignature(name, types.typed) === sig) return { kind: 'keep' };
  return { kind: 'plain' };
}

/** The intrinsics that need the calling function to name a garbage-collection strategy. */
export const GC_INTRINSICS = new Set(['llvm.gcroot', 'llvm.gcread', 'llvm.gcwrite']);
