/**
 * Seeded LLVM IR for the stack map ground truth (docs/stackmaps-ground-truth.md): modules of
 * opaque-pointer IR that `llc-16` accepts, calling `llvm.experimental.stackmap`,
 * `llvm.experimental.patchpoint.{void,i64}` (with and without `anyregcc`) and
 * `llvm.experimental.gc.statepoint` (with "deopt" and "gc-live" bundles), with the operands that
 * make every kind of location: registers, spills (Indirect), allocas (Direct), small constants
 * (Constant), constants beyond 32 bits (ConstantIndex), 64-bit ids, dynamic allocas (stack size
 * UINT64_MAX) and vectors of 256 bytes and more (spilled as one Indirect location whose size does
 * not fit the byte of versions 1–2).
 *
 * Platform-neutral and pure: the same seed and target give the same text. What each target's
 * llc-16 takes is in {@link STACKMAP_TARGETS} (found by `npm run stackmap-objects -- --probe`).
 */
import { seededRandom } from './seeded-random.js';

/** The intrinsic calls a module may hold. */
export type CallKind = 'stackmap' | 'patchpoint.void' | 'patchpoint.i64' | 'statepoint';

/** One target of the ground truth: its triple, container, byte order and what llc-16 takes there. */
export interface StackmapTarget {
  /** Short name, used for folders and the scoreboard: `x86-64-elf`. */
  readonly name: string;
  readonly triple: string;
  readonly format: 'elf' | 'macho' | 'coff';
  readonly endian: 'little' | 'big';
  /** 32- or 64-bit pointers. */
  readonly bits: 32 | 64;
  /** The intrinsics llc-16 compiles for it (the others crash it or are refused). */
  readonly calls: readonly CallKind[];
  /** Whether `anyregcc` patchpoints compile. */
  readonly anyreg: boolean;
  /** Whether vectors of 256 bytes and more in a statepoint's "deopt" bundle compile. */
  readonly bigVectors: boolean;
  /** The section as `llvm-objcopy --dump-section` names it. */
  readonly sectionName: string;
  /** Bytes a patchpoint with a call target needs at least (its call sequence). */
  readonly callBytes: number;
}

const ELF_COFF_SECTION = '.llvm_stackmaps';
const MACHO_SECTION = '__LLVM_STACKMAPS,__llvm_stackmaps';
const ALL: readonly CallKind[] = ['stackmap', 'patchpoint.void', 'patchpoint.i64', 'statepoint'];
const NO_STATEPOINT: readonly CallKind[] = ['stackmap', 'patchpoint.void', 'patchpoint.i64'];

/**
 * The targets Debian's llc-16 writes stack maps for, with what each takes (verified with
 * `--probe`; docs/stackmaps-ground-truth.md has the table and the crashes).
 */
export const STACKMAP_TARGETS: readonly StackmapTarget[] = [
  {
    name: 'x86-64-elf',
    triple: 'x86_64-unknown-linux-gnu',
    format: 'elf',
    endian: 'little',
    bits: 64,
    calls: ALL,
    anyreg: true,
    bigVectors: true,
    sectionName: ELF_COFF_SECTION,
    callBytes: 16,
  },
  {
    name: 'x86-64-macho',
    triple: 'x86_64-apple-macosx',
    format: 'macho',
    endian: 'little',
    bits: 64,
    calls: ALL,
    anyreg: true,
    bigVectors: true,
    sectionName: MACHO_SECTION,
    callBytes: 16,
  },
  {
    name: 'x86-64-coff',
    triple: 'x86_64-pc-windows-msvc',
    format: 'coff',
    endian: 'little',
    bits: 64,
    calls: ALL,
    anyreg: true,
    bigVectors: true,
    sectionName: ELF_COFF_SECTION,
    callBytes: 16,
  },
  {
    name: 'aarch64-elf',
    triple: 'aarch64-unknown-linux-gnu',
    format: 'elf',
    endian: 'little',
    bits: 64,
    calls: ALL,
    anyreg: true,
    bigVectors: true,
    sectionName: ELF_COFF_SECTION,
    callBytes: 20,
  },
  {
    name: 'aarch64-be-elf',
    triple: 'aarch64_be-unknown-linux-gnu',
    format: 'elf',
    endian: 'big',
    bits: 64,
    calls: ALL,
    anyreg: true,
    bigVectors: false,
    sectionName: ELF_COFF_SECTION,
    callBytes: 20,
  },
  {
    name: 'arm64-macho',
    triple: 'arm64-apple-macosx',
    format: 'macho',
    endian: 'little',
    bits: 64,
    calls: ALL,
    anyreg: true,
    bigVectors: true,
    sectionName: MACHO_SECTION,
    callBytes: 20,
  },
  {
    name: 'arm64-coff',
    triple: 'aarch64-pc-windows-msvc',
    format: 'coff',
    endian: 'little',
    bits: 64,
    calls: ALL,
    anyreg: true,
    bigVectors: true,
    sectionName: ELF_COFF_SECTION,
    callBytes: 20,
  },
  {
    name: 'ppc64le-elf',
    triple: 'powerpc64le-unknown-linux-gnu',
    format: 'elf',
    endian: 'little',
    bits: 64,
    calls: NO_STATEPOINT,
    anyreg: true,
    bigVectors: false,
    sectionName: ELF_COFF_SECTION,
    callBytes: 40,
  },
  {
    name: 'ppc64-elf',
    triple: 'powerpc64-unknown-linux-gnu',
    format: 'elf',
    endian: 'big',
    bits: 64,
    calls: NO_STATEPOINT,
    anyreg: true,
    bigVectors: false,
    sectionName: ELF_COFF_SECTION,
    callBytes: 40,
  },
  {
    name: 'systemz-elf',
    triple: 's390x-unknown-linux-gnu',
    format: 'elf',
    endian: 'big',
    bits: 64,
    calls: NO_STATEPOINT,
    anyreg: true,
    bigVectors: false,
    sectionName: ELF_COFF_SECTION,
    callBytes: 16,
  },
  {
    name: 'i686-elf',
    triple: 'i686-unknown-linux-gnu',
    format: 'elf',
    endian: 'little',
    bits: 32,
    calls: ['stackmap'],
    anyreg: false,
    bigVectors: false,
    sectionName: ELF_COFF_SECTION,
    callBytes: 16,
  },
  // Beyond the list, for the 32-bit containers: ELF32 big-endian and 32-bit Mach-O.
  {
    name: 'ppc32-elf',
    triple: 'powerpc-unknown-linux-gnu',
    format: 'elf',
    endian: 'big',
    bits: 32,
    calls: ['stackmap'],
    anyreg: false,
    bigVectors: false,
    sectionName: ELF_COFF_SECTION,
    callBytes: 40,
  },
  {
    name: 'i386-macho',
    triple: 'i386-apple-macosx',
    format: 'macho',
    endian: 'little',
    bits: 32,
    calls: ['stackmap'],
    anyreg: false,
    bigVectors: false,
    sectionName: MACHO_SECTION,
    callBytes: 16,
  },
];

/** A target by its short name; throws naming the known ones. */
export function stackmapTarget(name: string): StackmapTarget {
  const t = STACKMAP_TARGETS.find((x) => x.name === name || x.triple === name);
  if (t === undefined) throw new Error(`unknown target ${name} (known: ${STACKMAP_TARGETS.map((x) => x.name).join(', ')})`);
  return t;
}

/** What a generated module holds, for the manifest and the scoreboard. */
export interface ModuleFeatures {
  functions: number;
  calls: Record<CallKind, number>;
  anyreg: number;
  largeConstants: number;
  dynamicAlloca: boolean;
  bigVectors: number;
  /** Ids above 2^32 − 1 (statepoint ids are cut to 32 bits by LLVM 16: a known bug). */
  wideIds: number;
}

export interface GeneratedModule {
  ir: string;
  /** The llc optimisation level to compile it at (0–3). */
  optLevel: number;
  features: ModuleFeatures;
}

/** Ids that probe every width of the id field (UINT64_MAX is LLVM's invalid-record id, kept as a plain id here). */
const INTERESTING_IDS = [0n, 1n, 0x7fffffffn, 0xffffffffn, 0x100000000n, 0x7fffffffffffffffn, 0xfffffffffffffffen, 0xffffffffffffffffn];
/** Constants at the edges of the 32-bit Constant location and beyond it (ConstantIndex). */
const EDGE_CONSTANTS = [
  0n,
  1n,
  -1n,
  33n,
  2147483647n,
  -2147483648n,
  2147483648n,
  4294967295n,
  4294967296n,
  -4294967297n,
  9223372036854775807n,
  -9223372036854775808n,
];

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  /** A 64-bit value spread over every magnitude. */
  bigint64(): bigint {
    const bits = BigInt(this.int(33, 63));
    const hi = BigInt(this.int(0, 0x7fffffff));
    const lo = BigInt(this.int(0, 0x7fffffff)) * 4n + BigInt(this.int(0, 3));
    return (((hi << 33n) | lo) & ((1n << bits) - 1n)) | (1n << (bits - 1n));
  }
}

/** A value of the function that can be handed to an intrinsic as a live value. */
interface Operand {
  type: string;
  text: string;
}

/** A seed for one (run seed, object index, target) triple, so targets don't share streams. */
export function objectSeed(seed: number, index: number, target: StackmapTarget): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const c of `${index}/${target.name}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/**
 * One module for `target` from `seed`: 1–4 functions, each with static allocas, sometimes a
 * dynamic alloca, and 1–5 intrinsic calls of the kinds the target takes.
 */
export function generateStackmapModule(seed: number, target: StackmapTarget): GeneratedModule {
  const rng = new Rng(seed);
  const features: ModuleFeatures = {
    functions: 0,
    calls: { stackmap: 0, 'patchpoint.void': 0, 'patchpoint.i64': 0, statepoint: 0 },
    anyreg: 0,
    largeConstants: 0,
    dynamicAlloca: false,
    bigVectors: 0,
    wideIds: 0,
  };
  const is64 = target.bits === 64;
  const lines: string[] = [
    `; generated by llvm-bytecode's stackmap-objects, seed ${seed}, target ${target.name}`,
    `target triple = "${target.triple}"`,
    '',
    'declare void @llvm.experimental.stackmap(i64, i32, ...)',
    'declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)',
    'declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)',
    'declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)',
    'declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)',
    'declare i64 @llvm.experimental.gc.result.i64(token)',
    'declare void @callee_void()',
    'declare i64 @callee_i64(i64, i64)',
    'declare void @use(ptr)',
    'declare void @use_gc(ptr addrspace(1))',
    '',
  ];
  const functionCount = rng.int(1, 4);
  for (let f = 0; f < functionCount; f++) {
    features.functions++;
    // Statepoints need a gc strategy on their function; the kinds of this function's calls decide it.
    const kinds: CallKind[] = [];
    const callCount = rng.int(1, 5);
    for (let c = 0; c < callCount; c++) kinds.push(rng.pick(target.calls));
    const hasStatepoint = kinds.includes('statepoint');
    const body: string[] = [];
    let tmp = 0;
    const fresh = (): string => `%t${tmp++}`;

    const params: Operand[] = [];
    const paramCount = rng.int(1, 6);
    for (let p = 0; p < paramCount; p++) {
      // No i64 values on i686: llc-16 cannot select a stack map operand that needs two registers (build_pair).
      const type = rng.pick(is64 ? ['i64', 'i64', 'i32', 'double', 'ptr', 'i8'] : ['i32', 'i32', 'double', 'ptr']);
      params.push({ type, text: `%p${p}` });
    }
    const gcPointers: Operand[] = [];
    if (hasStatepoint) {
      for (let g = rng.int(1, 3); g > 0; g--) gcPointers.push({ type: 'ptr addrspace(1)', text: `%gc${gcPointers.length}` });
    }
    const vectors: Operand[] = [];
    if (hasStatepoint && target.bigVectors && rng.chance(0.35)) {
      // 32 × i64 = 256 bytes (one past a u8 size), 64 × i64 = 512 bytes.
      vectors.push({ type: rng.pick(['<32 x i64>', '<64 x i64>', '<48 x i64>']), text: '%vec' });
      features.bigVectors++;
    }
    const sizeParam = rng.chance(0.25) ? { type: is64 ? 'i64' : 'i32', text: '%n' } : undefined;
    const signature = [...params, ...gcPointers, ...vectors, ...(sizeParam ? [sizeParam] : [])].map((o) => `${o.type} ${o.text}`).join(', ');

    const live: Operand[] = [...params];
    // Static allocas: Direct locations (frame register + offset) when passed as live values.
    const allocaCount = rng.int(0, 3);
    for (let a = 0; a < allocaCount; a++) {
      const name = `%a${a}`;
      const elem = rng.pick(['i64', 'i32', '[4 x i64]', '[3 x i8]']);
      body.push(`  ${name} = alloca ${elem}, align ${elem === '[3 x i8]' ? 1 : 8}`);
      body.push(`  call void @use(ptr ${name})`);
      live.push({ type: 'ptr', text: name });
    }
    if (sizeParam !== undefined) {
      body.push(`  %dyn = alloca i8, ${sizeParam.type} ${sizeParam.text}, align 16`);
      body.push('  call void @use(ptr %dyn)');
      live.push({ type: 'ptr', text: '%dyn' });
      features.dynamicAlloca = true;
    }
    // Some arithmetic so that values are live across calls and the register allocator spills.
    const ints = params.filter((o) => o.type === 'i64' || o.type === 'i32');
    for (let k = rng.int(0, 6); k > 0 && ints.length > 0; k--) {
      const x = rng.pick(ints);
      const y = rng.pick(ints.filter((o) => o.type === x.type));
      const name = fresh();
      body.push(`  ${name} = ${rng.pick(['add', 'mul', 'xor', 'sub'])} ${x.type} ${x.text}, ${y.text}`);
      live.push({ type: x.type, text: name });
      ints.push({ type: x.type, text: name });
    }

    const constant = (): Operand => {
      const r = rng.int(0, 9);
      if (r < 4) return { type: rng.pick(['i64', 'i32']), text: String(rng.int(-100, 100)) };
      if (r < 7) {
        const v = rng.pick(EDGE_CONSTANTS);
        const fits32 = v >= -2147483648n && v <= 2147483647n;
        if (!fits32) features.largeConstants++;
        return { type: fits32 && rng.chance(0.5) ? 'i32' : 'i64', text: String(v) };
      }
      features.largeConstants++;
      const v = rng.bigint64();
      return { type: 'i64', text: String(rng.chance(0.5) ? -v : v) };
    };
    const liveValues = (max: number): Operand[] => {
      const out: Operand[] = [];
      for (let k = rng.int(0, max); k > 0; k--) out.push(rng.chance(0.3) ? constant() : rng.pick(live));
      return out;
    };
    const id = (): bigint => {
      const v = rng.chance(0.5) ? BigInt(rng.int(0, 1000)) : rng.chance(0.5) ? rng.pick(INTERESTING_IDS) : rng.bigint64();
      if (v > 0xffffffffn) features.wideIds++;
      return v;
    };
    const args = (ops: readonly Operand[]): string => ops.map((o) => `, ${o.type} ${o.text}`).join('');

    let result: string | undefined;
    for (const kind of kinds) {
      features.calls[kind]++;
      if (kind === 'stackmap') {
        // Shadow bytes: a multiple of 4 (AArch64, PowerPC and SystemZ need whole instructions).
        body.push(`  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 ${id()}, i32 ${4 * rng.int(0, 4)}${args(liveValues(14))})`);
      } else if (kind === 'patchpoint.void' || kind === 'patchpoint.i64') {
        const anyreg = target.anyreg && rng.chance(0.4);
        if (anyreg) features.anyreg++;
        const withTarget = rng.chance(0.5);
        const bytes = withTarget ? target.callBytes + 4 * rng.int(0, 2) : 4 * rng.int(0, 4);
        const callee = withTarget ? `ptr inttoptr (i64 ${is64 ? -559038737 : 0x1234} to ptr)` : 'ptr null';
        // Call arguments: with anyregcc any register takes them; otherwise the C convention.
        const argCount = rng.int(0, anyreg ? 4 : 2);
        const callArgs: Operand[] = [];
        const intLive = live.filter((o) => o.type === 'i64' || o.type === 'ptr' || o.type === 'i32');
        for (let k = 0; k < argCount && intLive.length > 0; k++) callArgs.push(rng.pick(intLive));
        const cc = anyreg ? 'anyregcc ' : '';
        const rest = `(i64 ${id()}, i32 ${bytes}, ${callee}, i32 ${callArgs.length}${args(callArgs)}${args(liveValues(8))})`;
        if (kind === 'patchpoint.void') {
          body.push(`  call ${cc}void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void${rest}`);
        } else {
          const name = fresh();
          body.push(`  ${name} = call ${cc}i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64${rest}`);
          live.push({ type: 'i64', text: name });
          result = name;
        }
      } else {
        const tok = fresh();
        const callsI64 = rng.chance(0.4);
        const i64s = live.filter((o) => o.type === 'i64');
        const callArgs = callsI64 ? [i64s.length > 0 ? rng.pick(i64s) : { type: 'i64', text: '7' }, { type: 'i64', text: String(rng.int(0, 9)) }] : [];
        const callee = callsI64 ? 'ptr elementtype(i64 (i64, i64)) @callee_i64' : 'ptr elementtype(void ()) @callee_void';
        const deopt = [...liveValues(6), ...(vectors.length > 0 && rng.chance(0.8) ? vectors : [])].map((o) => `${o.type} ${o.text}`);
        const gcLive = gcPointers.filter(() => rng.chance(0.7)).map((o) => `${o.type} ${o.text}`);
        const bundles: string[] = [];
        if (deopt.length > 0 || rng.chance(0.5)) bundles.push(`"deopt"(${deopt.join(', ')})`);
        if (gcLive.length > 0) bundles.push(`"gc-live"(${gcLive.join(', ')})`);
        const bundleText = bundles.length > 0 ? ` [ ${bundles.join(', ')} ]` : '';
        body.push(
          `  ${tok} = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 ${id()}, i32 ${rng.chance(0.2) ? 8 : 0}, ${callee}, i32 ${callArgs.length}, i32 0${args(callArgs)}, i32 0, i32 0)${bundleText}`,
        );
        if (callsI64) {
          const r = fresh();
          body.push(`  ${r} = call i64 @llvm.experimental.gc.result.i64(token ${tok})`);
          live.push({ type: 'i64', text: r });
          result = r;
        }
        // Relocate the live pointers and use them, so that later statepoints see the new values.
        gcLive.forEach((_, k) => {
          const r = fresh();
          body.push(`  ${r} = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token ${tok}, i32 ${k}, i32 ${k})`);
          body.push(`  call void @use_gc(ptr addrspace(1) ${r})`);
        });
      }
    }
    const gcAttr = hasStatepoint ? ' gc "statepoint-example"' : '';
    const ret = result !== undefined ? `  ret i64 ${result}` : '  ret i64 0';
    lines.push(`define i64 @f${f}(${signature})${gcAttr} {`, 'entry:', ...body, ret, '}', '');
  }
  return { ir: lines.join('\n'), optLevel: rng.int(0, 3), features };
}

/**
 * The reference module of a target: fixed IR whose functions the tests know by name (unlike the
 * seeded modules), for known-answer checks against llvm-readobj-16. On the targets that take every
 * intrinsic: `constants` (64-bit ids, constants at and beyond 32 bits, a static alloca, a
 * patchpoint with no call target), `anyreg` (an `anyregcc` patchpoint.i64, itself `anyregcc` on
 * x86-64: llc-16 aborts on an `anyregcc` function elsewhere, "Unsupported calling convention"),
 * `dynamic` (a dynamic alloca: stack size UINT64_MAX, and a record with no locations) and, where
 * statepoints compile, `gc` (a statepoint with id 2^32 + 1, which LLVM 16 cuts to 1, with deopt
 * and gc-live values). On the stackmap-only (32-bit) targets, `f` and `g` with 32-bit values.
 */
export function referenceModule(target: StackmapTarget): { ir: string; functionNames: string[] } {
  const head = `; the reference module of llvm-bytecode's stackmap-objects, target ${target.name}\ntarget triple = "${target.triple}"\n`;
  if (!target.calls.includes('patchpoint.void')) {
    return { ir: head + REFERENCE_32, functionNames: ['f', 'g'] };
  }
  const cc = target.triple.startsWith('x86_64') ? 'anyregcc ' : '';
  const statepoints = target.calls.includes('statepoint');
  return {
    ir: head + REFERENCE_64.replaceAll('CC ', cc) + (statepoints ? REFERENCE_STATEPOINT : ''),
    functionNames: ['constants', 'anyreg', 'dynamic', ...(statepoints ? ['gc'] : [])],
  };
}

const REFERENCE_64 = `
declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
define i64 @constants(i64 %a, i32 %b, ptr %p) {
entry:
  %x = alloca [4 x i64]
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 12345678901234, i32 0, i64 %a, i32 %b, i64 -1, i64 4294967296, i32 -7, i64 9223372036854775807, ptr %x)
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 -1, i32 20, ptr null, i32 0, i64 %a, ptr %p)
  ret i64 %a
}
define CC i64 @anyreg(i64 %a, i64 %b) {
  %r = call CC i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 5, i32 20, ptr null, i32 2, i64 %a, i64 %b)
  ret i64 %r
}
define void @dynamic(i64 %n) {
  %v = alloca i8, i64 %n
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 6, i32 0, ptr %v, i64 %n)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 7, i32 4)
  ret void
}
`;

const REFERENCE_STATEPOINT = `
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare void @callee()
define ptr addrspace(1) @gc(ptr addrspace(1) %obj, ptr addrspace(1) %obj2, i64 %d) gc "statepoint-example" {
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 4294967297, i32 0, ptr elementtype(void ()) @callee, i32 0, i32 0, i32 0, i32 0) ["deopt"(i64 %d, i32 3, i64 -5), "gc-live"(ptr addrspace(1) %obj, ptr addrspace(1) %obj2)]
  %r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 1)
  ret ptr addrspace(1) %r
}
`;

/** 32-bit values only: what llc-16 takes on i686 and 32-bit PowerPC (a non-constant i64 operand needs two registers). */
const REFERENCE_32 = `
declare void @llvm.experimental.stackmap(i64, i32, ...)
define i32 @f(i32 %a, i32 %b) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i32 %a, i32 %b, i32 -1, i64 4294967296)
  ret i32 %a
}
define void @g(i32 %a) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 4, i32 %a)
  ret void
}
`;
