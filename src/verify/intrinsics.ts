/**
 * The target-independent intrinsics r36867 knew (include/llvm/Intrinsics.td) and the prototype
 * check its Verifier made of a called one (`VerifyIntrinsicPrototype`): the return and parameter
 * types by type kind, an integer's width where the definition fixes it, and for an overloaded
 * intrinsic (`llvm.bswap.i16`, `llvm.ctpop.i8`, …) a name whose suffix names its integer widths.
 * Its `llvm-as` refused a call to an `llvm.` function it did not know ("Call to invalid LLVM
 * intrinsic function"). The x86 and PowerPC intrinsics (IntrinsicsX86.td, IntrinsicsPowerPC.td)
 * are taken as known and their prototypes are not checked here.
 */
import type { FunctionType, Type } from '../graph/type.js';

/**
 * One slot of a prototype: `ptr` any pointer (the check compared type ids only), `iN` an integer
 * of N bits, `int` an integer of any width (overloaded: its width joins the name's suffix).
 */
type Slot = 'void' | 'ptr' | 'float' | 'double' | 'i8' | 'i32' | 'i64' | 'int' | '...';

/** Return type first, then the parameters (Intrinsics.td's `Types` lists). */
const PROTOTYPES: ReadonlyMap<string, readonly Slot[]> = new Map<string, readonly Slot[]>([
  ['llvm.va_start', ['void', 'ptr']],
  ['llvm.va_copy', ['void', 'ptr', 'ptr']],
  ['llvm.va_end', ['void', 'ptr']],
  ['llvm.gcroot', ['void', 'ptr', 'ptr']],
  ['llvm.gcread', ['ptr', 'ptr', 'ptr']],
  ['llvm.gcwrite', ['void', 'ptr', 'ptr', 'ptr']],
  ['llvm.returnaddress', ['ptr', 'i32']],
  ['llvm.frameaddress', ['ptr', 'i32']],
  ['llvm.stacksave', ['ptr']],
  ['llvm.stackrestore', ['void', 'ptr']],
  ['llvm.prefetch', ['void', 'ptr', 'i32', 'i32']],
  ['llvm.pcmarker', ['void', 'i32']],
  ['llvm.readcyclecounter', ['i64']],
  ['llvm.memcpy.i32', ['void', 'ptr', 'ptr', 'i32', 'i32']],
  ['llvm.memcpy.i64', ['void', 'ptr', 'ptr', 'i64', 'i32']],
  ['llvm.memmove.i32', ['void', 'ptr', 'ptr', 'i32', 'i32']],
  ['llvm.memmove.i64', ['void', 'ptr', 'ptr', 'i64', 'i32']],
  ['llvm.memset.i32', ['void', 'ptr', 'i8', 'i32', 'i32']],
  ['llvm.memset.i64', ['void', 'ptr', 'i8', 'i64', 'i32']],
  ['llvm.sqrt.f32', ['float', 'float']],
  ['llvm.sqrt.f64', ['double', 'double']],
  ['llvm.powi.f32', ['float', 'float', 'i32']],
  ['llvm.powi.f64', ['double', 'double', 'i32']],
  ['llvm.setjmp', ['i32', 'ptr']],
  ['llvm.longjmp', ['void', 'ptr', 'i32']],
  ['llvm.sigsetjmp', ['i32', 'ptr', 'i32']],
  ['llvm.siglongjmp', ['void', 'ptr', 'i32']],
  ['llvm.bswap', ['int', 'int']],
  ['llvm.ctpop', ['i32', 'int']],
  ['llvm.ctlz', ['i32', 'int']],
  ['llvm.cttz', ['i32', 'int']],
  ['llvm.part.select', ['int', 'int', 'i32', 'i32']],
  ['llvm.part.set', ['int', 'int', 'int', 'i32', 'i32']],
  ['llvm.dbg.stoppoint', ['void', 'i32', 'i32', 'ptr']],
  ['llvm.dbg.region.start', ['void', 'ptr']],
  ['llvm.dbg.region.end', ['void', 'ptr']],
  ['llvm.dbg.func.start', ['void', 'ptr']],
  ['llvm.dbg.declare', ['void', 'ptr', 'ptr']],
  ['llvm.eh.exception', ['ptr']],
  ['llvm.eh.selector', ['i32', 'ptr', 'ptr', '...']],
  ['llvm.eh.filter', ['i32', 'ptr', 'ptr', '...']],
  ['llvm.eh.typeid.for', ['i32', 'ptr']],
]);

/** The overloaded intrinsics (an `int` slot), whose names carry a suffix. */
const OVERLOADED = [...PROTOTYPES].filter(([, slots]) => slots.includes('int')).map(([name]) => name);

/** Target-specific intrinsic prefixes r36867 had tables for (taken as known, not checked). */
const TARGET_PREFIXES = ['llvm.x86.', 'llvm.ppc.'];

/** Whether `name` names an intrinsic (`Function::isIntrinsic`'s prefix). */
export function isIntrinsicName(name: string | undefined): boolean {
  return name !== undefined && name.startsWith('llvm.');
}

/** The intrinsic a function name stands for (`getIntrinsicID`): its table name, or undefined when r36867 knew none. */
function intrinsicOf(name: string): string | undefined {
  if (PROTOTYPES.has(name)) return name;
  // An overloaded intrinsic is matched by its prefix (`llvm.bswap.` …), as the generated matcher did.
  for (const base of OVERLOADED) if (name.startsWith(base + '.')) return base;
  return undefined;
}

function slotMatches(slot: Slot, t: Type): boolean {
  switch (slot) {
    case 'void':
    case 'float':
    case 'double':
      return t.kind === slot;
    case 'ptr':
      return t.kind === 'pointer';
    case 'int':
      return t.kind === 'integer';
    case 'i8':
    case 'i32':
    case 'i64':
      return t.kind === 'integer';
    case '...':
      return true;
  }
}

/**
 * What r36867 said of a call to the function `name` of type `ft`, or undefined when it took it:
 * an unknown `llvm.` name, or a prototype the definition does not allow.
 */
export function intrinsicCallProblem(name: string, ft: FunctionType): string | undefined {
  const base = intrinsicOf(name);
  if (base === undefined) {
    if (TARGET_PREFIXES.some((p) => name.startsWith(p))) return undefined;
    return `Call to invalid LLVM intrinsic function '${name}'`;
  }
  const slots = PROTOTYPES.get(base)!;
  const varargs = slots[slots.length - 1] === '...';
  const fixed = varargs ? slots.length - 2 : slots.length - 1;
  let suffix = '';
  for (let i = 0; i <= fixed; i++) {
    if (i === ft.params.length + 1) return 'Intrinsic prototype has too few arguments!';
    const slot = slots[i]!;
    const t = i === 0 ? ft.returnType : ft.params[i - 1]!;
    if (!slotMatches(slot, t)) return i === 0 ? 'Intrinsic prototype has incorrect result type!' : `Intrinsic parameter #${i - 1} is wrong!`;
    if (t.kind !== 'integer') continue;
    if (slot === 'int') {
      suffix += `.i${t.bits}`;
      if (base === 'llvm.bswap' && (t.bits < 16 || t.bits % 16 !== 0)) return 'Intrinsic requires even byte width argument';
      if (
        (base === 'llvm.bswap' || base === 'llvm.part.select' || base === 'llvm.part.set') &&
        i === 1 &&
        ft.returnType.kind === 'integer' &&
        ft.returnType.bits !== t.bits
      ) {
        return 'Intrinsic requires the bit widths of the first parameter and the result to match';
      }
      continue;
    }
    const want = Number(slot.slice(1));
    if (t.bits !== want) {
      const bits = ` Expected ${want} but got ${t.bits} bits.`;
      return i === 0 ? `Intrinsic prototype has incorrect integer result width!${bits}` : `Intrinsic parameter #${i - 1} has incorrect integer width!${bits}`;
    }
  }
  if (!varargs && ft.params.length !== fixed) return 'Intrinsic prototype has too many arguments!';
  if (suffix !== '' && base + suffix !== name) return `Overloaded intrinsic has incorrect suffix: '${name.slice(base.length)}'. It should be '${suffix}'`;
  return undefined;
}
