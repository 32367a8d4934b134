/**
 * Module-level upgrade: header, identified types, globals, functions, and the declarations the
 * upgrade itself needs (`malloc`, `free`, `abort`, modern intrinsics), printed last.
 */
import type { Module } from '../graph/module.js';
import { isDeclaration } from '../graph/declaration.js';
import type { Constant, Function, GlobalAlias, GlobalValue, GlobalVariable, Linkage } from '../graph/value.js';
import { ConstPrinter } from './constants.js';
import type { ExceptionModel } from './exceptions.js';
import { printFunctionBody } from './function.js';
import { planIntrinsic, type IntrinsicPlan } from './intrinsics.js';
import { escapeString, formatName, NameScope } from './names.js';
import { UpgradeError } from './ops.js';
import { DEFAULT_TRIPLE, type TripleChoice } from './triple.js';
import { UnfoldableConstantError } from './upgrade-error.js';
import { DEFAULT_LLVM, LAST_TYPED_POINTERS, NEWEST_LLVM, type LlvmVersion } from './llvm-versions.js';
import { TextLines } from './text.js';
import { TypePrinter } from './types.js';
import type { DirectBodyReader } from './bitcode/direct-body.js';
import { lowerDirectly } from './direct-lowering.js';
import { sretAttribute } from './sret.js';
import { functionAttributes, valueAttributes, visibilityPrefix } from './v7.js';

/**
 * C library functions the upgrade calls, with the declarations it adds when the module has none:
 * return type, parameter types and what follows the parameters, `ptr` standing for `i8*` in
 * typed-pointer output (LLVM 13 and 14).
 */
const HELPERS: Readonly<Record<string, readonly [ret: string, params: readonly string[], suffix: string]>> = {
  malloc: ['ptr', ['i64'], ''],
  free: ['void', ['ptr'], ''],
  abort: ['void', [], ' noreturn'],
  setjmp: ['i32', ['ptr'], ' returns_twice'],
  longjmp: ['void', ['ptr', 'i32'], ' noreturn'],
  // Exceptions, native model (docs/upgrade.md, "Exceptions"): the Itanium ABI's unwinder
  // (libgcc_s / libunwind) and the C++ runtime's personality (libstdc++ / libc++abi).
  _Unwind_RaiseException: ['i32', ['ptr'], ''],
  _Unwind_DeleteException: ['void', ['ptr'], ''],
  __gxx_personality_v0: ['i32', ['...'], ''],
};

/**
 * The exception class of the exceptions `unwind` raises: "LLVM1.x" and a NUL, as the Itanium
 * ABI's vendor + language bytes read big-endian (C++'s is "GNUCC++" and a NUL).
 */
export const UNWIND_EXCEPTION_CLASS = 0x4c4c564d312e7800n;

export type Helper = keyof typeof HELPERS;

/** Calling conventions: 1.x numbers → modern keywords. */
export function callingConvention(cc: number, isVarArg: boolean): string {
  switch (cc) {
    case 0:
    case 1: // csretcc: C, with the hidden struct-return pointer marked `sret` on the first parameter
      return '';
    case 8:
    case 9:
      // Modern LLVM rejects fastcc/coldcc on variadic functions; C is what they meant there.
      return isVarArg ? '' : cc === 8 ? 'fastcc ' : 'coldcc ';
    case 64:
      return 'x86_stdcallcc ';
    case 65:
      return 'x86_fastcallcc ';
    default:
      // LLVM 16 keeps a convention in 10 bits: a larger number (a damaged file's 4294967295, see
      // decode/global-info.ts) would be accepted by llvm-as and silently become another.
      if (cc > MAX_MODERN_CALLING_CONVENTION)
        throw new UpgradeError(`calling convention ${cc} has no LLVM 16 form (LLVM 16 numbers them 0 to ${MAX_MODERN_CALLING_CONVENTION})`);
      return `cc ${cc} `;
  }
}

/** The largest calling convention number LLVM 16 holds (`CallingConv::MaxID`). */
const MAX_MODERN_CALLING_CONVENTION = 1023;

export type { TripleChoice } from './triple.js';

/** Prints what a global holds; a constant the chosen LLVM cannot take there is refused naming the global. */
function naming(global: string, print: () => string): string {
  try {
    return print();
  } catch (e) {
    if (e instanceof UnfoldableConstantError) throw e.in(global);
    throw e;
  }
}

export class ModuleContext {
  readonly types: TypePrinter;
  readonly consts: ConstPrinter;
  readonly plans = new Map<Function, IntrinsicPlan>();
  private readonly globalNames = new Map<GlobalValue | GlobalAlias, string>();
  private readonly byName = new Map<string, GlobalValue | GlobalAlias>();
  /** Declarations to add at the end, by name (so each is added once). */
  private readonly extraDecls = new Map<string, string>();
  /** Definitions the upgrade adds (the `unwind` helper), printed after the module's functions. */
  private readonly extraDefs: string[] = [];
  private readonly globalScope = new NameScope();
  private unwindFn: string | undefined;
  /**
   * Aliases whose target is a declaration. LLVM 2.0 allowed them; LLVM 16 requires an alias to
   * name a definition. Such an alias becomes a declaration of its name (uses keep naming it), and
   * module-level assembly defines the symbol as the target (`.set`, made global or weak as the
   * alias was): what the alias meant in the object file.
   */
  private readonly aliasesOfDeclarations = new Set<GlobalAlias>();

  /** LLVM 13 and 14: typed pointers (`i8*`), with the bitcasts between pointer types they need. */
  readonly typed: boolean;
  /** The release whose constant expressions the output keeps to: the newest for typed pointers. */
  readonly constantRules: LlvmVersion;

  constructor(
    readonly module: Module,
    readonly exceptions: ExceptionModel = 'native',
    private readonly triple: TripleChoice = DEFAULT_TRIPLE,
    /** The LLVM release written for (llvm-versions.ts). */
    readonly llvm: LlvmVersion = DEFAULT_LLVM,
    /**
     * For `writeModern`: the reader of the text, to which the bodies the direct lowering takes are
     * handed as records instead of being printed (direct-lowering.ts).
     */
    private readonly direct?: DirectBodyReader,
  ) {
    this.typed = llvm <= LAST_TYPED_POINTERS;
    // Typed-pointer output is the bitcode every release from 13 to 22 reads: it keeps to what the
    // newest reads too, the sized types of LLVM 20 on and the constant expressions LLVM 22 still
    // has (LLVM 19 on refuse to read a removed one in a global's initializer).
    this.constantRules = this.typed ? NEWEST_LLVM : llvm;
    this.types = new TypePrinter(module, llvm >= 20 || this.typed, this.typed);
    this.consts = new ConstPrinter(this.types, (g) => this.globalRef(g), this.constantRules);
    this.assignGlobalNames();
    for (const a of module.aliases ?? []) {
      const target = addressedSymbol(a.aliasee, 'through offsets');
      if (target !== undefined && isDeclaration(target)) this.aliasesOfDeclarations.add(a);
    }
  }

  private assignGlobalNames(): void {
    const scope = this.globalScope;
    const all: (GlobalValue | GlobalAlias)[] = [...this.module.globals, ...this.module.functions, ...(this.module.aliases ?? [])];
    for (const g of all) if (g.name) scope.reserve(g.name);
    let unnamed = 0;
    for (const g of all) {
      if (!g.name) {
        this.globalNames.set(g, `@${unnamed++}`);
        continue;
      }
      let name = g.name;
      if (g.kind === 'function' && name.startsWith('llvm.')) {
        let plan = planIntrinsic(g, this.types);
        if (plan.kind === 'keep' && this.byName.has(name)) plan = { kind: 'plain' };
        this.plans.set(g, plan);
        // Value references to a lowered or plain intrinsic go to an ordinary function.
        if (plan.kind !== 'keep') name = 'llvm1' + name.slice(4);
      }
      const claimed = scope.claim(name);
      if (!this.byName.has(claimed)) this.byName.set(claimed, g);
      this.globalNames.set(g, formatName('@', claimed));
    }
  }

  /** `@name` of a global value; a lowered intrinsic referenced as a value gets a plain declaration. */
  globalRef(g: GlobalValue | GlobalAlias): string {
    const name = this.globalNames.get(g);
    if (name === undefined) throw new UpgradeError(`reference to a global value outside the module: ${g.name ?? '(unnamed)'}`);
    if (g.kind === 'function' && this.plans.get(g)?.kind === 'lower') {
      this.extraDecls.set(name, `declare ${this.signature(g, name)}`);
    }
    return name;
  }

  /** A pointer to `pointee` (a spelled type): `ptr`, or with typed pointers `pointee*`. */
  ptr(pointee: string): string {
    return this.typed ? `${pointee}*` : 'ptr';
  }

  /** The generic data pointer: `ptr`, or with typed pointers `i8*`. */
  get bytePtr(): string {
    return this.ptr('i8');
  }

  /** A helper's type as spelled with the chosen pointers (its parameters and return). */
  private helperSignature(name: Helper): { ret: string; params: string; suffix: string } {
    const [ret, params, suffix] = HELPERS[name]!;
    const spell = (t: string): string => (t === 'ptr' ? this.bytePtr : t);
    return { ret: spell(ret), params: params.map(spell).join(', '), suffix };
  }

  /**
   * The callee for a C library helper, declared if the module does not have it already. With
   * typed pointers, a module's own declaration of another type (1.x `sbyte* %malloc(uint)`) is
   * called through a bitcast to the helper's type, as LLVM 13 requires.
   */
  helper(name: Helper): string {
    const sig = this.helperSignature(name);
    const existing = this.byName.get(name);
    if (existing) {
      const own = this.globalNames.get(existing)!;
      if (!this.typed) return own;
      const ownType = this.types.str(existing.type);
      const want = this.helperType(name);
      return ownType === want ? own : `bitcast (${ownType} ${own} to ${want})`;
    }
    this.extraDecls.set('@' + name, `declare ${sig.ret} @${name}(${sig.params})${sig.suffix}`);
    return '@' + name;
  }

  /** The pointer type of a helper as the upgrade calls it (`i8* (i64)*`; `ptr` when opaque). */
  helperType(name: Helper): string {
    const sig = this.helperSignature(name);
    return this.ptr(`${sig.ret} (${sig.params})`);
  }

  /**
   * `@llvm1.unwind`, the helper every 1.x `unwind` calls in the native model, defined once per
   * module: it raises an exception of class UNWIND_EXCEPTION_CLASS with `_Unwind_RaiseException`
   * (phase 1 looks for a handler; phase 2 unwinds to the nearest enclosing invoke's landing pad).
   * The call returns only when no frame catches it: then `abort()`, which is how LLVM 1.x's `lli`
   * ended such a program (its interpreter called abort() once it had popped every frame).
   */
  unwindHelper(): string {
    if (this.unwindFn) return this.unwindFn;
    const fn = formatName('@', this.globalScope.claim('llvm1.unwind'));
    const cleanup = formatName('@', this.globalScope.claim('llvm1.unwind.cleanup'));
    const p = this.bytePtr;
    const ue = `{ i64, ${p}, ${p}, ${p} }`; // struct _Unwind_Exception: class, cleanup, two private words
    const ueP = this.ptr(ue);
    // Typed pointers: the object is reached through a pointer to the struct, the cleanup as i8*.
    const obj = this.typed ? '%ue' : '%exn';
    const cleanupValue = this.typed ? `bitcast (void (i32, i8*)* ${cleanup} to i8*)` : cleanup;
    this.extraDefs.push(
      '',
      '; LLVM 1.x\'s `unwind` (docs/upgrade.md, "Exceptions"): raises an exception through the platform',
      '; unwinder to the nearest enclosing invoke; with none, abort() as LLVM 1.x did.',
      `define internal void ${fn}() noreturn {`,
      `  %exn = call ${p} ${this.helper('malloc')}(i64 ptrtoint (${ueP} getelementptr (${ue}, ${ueP} null, i32 1) to i64))`,
      `  %allocated = icmp ne ${p} %exn, null`,
      '  br i1 %allocated, label %raise, label %uncaught',
      'raise:',
      ...(this.typed ? [`  %ue = bitcast i8* %exn to ${ueP}`, `  %class = getelementptr ${ue}, ${ueP} %ue, i32 0, i32 0`] : []),
      `  store i64 ${BigInt.asIntN(64, UNWIND_EXCEPTION_CLASS)}, ${this.ptr('i64')} ${this.typed ? '%class' : '%exn'} ; exception class "LLVM1.x\\00"`,
      `  %cleanup = getelementptr ${ue}, ${ueP} ${obj}, i32 0, i32 1`,
      `  store ${p} ${cleanupValue}, ${this.ptr(p)} %cleanup`,
      `  %private1 = getelementptr ${ue}, ${ueP} ${obj}, i32 0, i32 2`,
      `  store ${p} null, ${this.ptr(p)} %private1`,
      `  %private2 = getelementptr ${ue}, ${ueP} ${obj}, i32 0, i32 3`,
      `  store ${p} null, ${this.ptr(p)} %private2`,
      `  %reason = call i32 ${this.helper('_Unwind_RaiseException')}(${p} %exn)`,
      '  br label %uncaught',
      'uncaught:',
      `  call void ${this.helper('abort')}()`,
      '  unreachable',
      '}',
      '',
      '; Frees an exception raised by `unwind` once a landing pad has caught it (_Unwind_DeleteException).',
      `define internal void ${cleanup}(i32 %reason, ${p} %exn) {`,
      `  call void ${this.helper('free')}(${p} %exn)`,
      '  ret void',
      '}',
    );
    this.unwindFn = fn;
    return fn;
  }

  /** Declares a modern intrinsic (`declare void @llvm.memcpy.p0.p0.i32(ptr, ptr, i32, i1)`). */
  intrinsic(name: string, declaration: string): string {
    const existing = this.byName.get(name);
    if (existing) return this.globalNames.get(existing)!;
    this.extraDecls.set('@' + name, declaration);
    return '@' + name;
  }

  private signature(fn: Function, name: string, argNames?: string[]): string {
    const ft = fn.functionType;
    this.types.refuseOddParameters(ft);
    const params = ft.params.map((p, i) => {
      let s = this.types.str(p);
      if (i === 0 && fn.callingConv === 1) s += sretAttribute(this.types, ft, 0, p);
      s += valueAttributes(this.types, ft, i + 1, p); // version 7's parameter attributes
      return argNames ? `${s} ${argNames[i]}` : s;
    });
    if (ft.isVarArg) params.push('...');
    const ret = valueAttributes(this.types, ft, 0, ft.returnType).slice(1);
    return `${callingConvention(fn.callingConv, ft.isVarArg)}${ret ? `${ret} ` : ''}${this.types.str(ft.returnType)} ${name}(${params.join(', ')})${functionAttributes(ft)}`;
  }

  print(): string {
    const m = this.module;
    const head: string[] = [];
    const version = m.source ? ` from bytecode version ${m.source.bytecodeVersion}` : '';
    head.push(`; Upgraded to LLVM ${this.llvm} IR by llvm-bytecode${version} (mapping: docs/upgrade.md)`);
    if (m.endianness !== 'any') head.push(`; LLVM 1.x: target endian = ${m.endianness}`);
    if (m.pointerSize !== 'any') head.push(`; LLVM 1.x: target pointersize = ${m.pointerSize}`);
    head.push(...this.tripleLines());
    if (m.inlineAsm) for (const line of m.inlineAsm.split('\n')) head.push(`module asm "${escapeString(line)}"`);
    for (const a of this.aliasesOfDeclarations) for (const line of aliasSymbolAssembly(a)) head.push(`module asm "${escapeString(line)}"`);

    const body = new TextLines();
    for (const g of m.globals) body.push(this.globalLine(g));
    for (const a of m.aliases ?? []) body.push(this.aliasesOfDeclarations.has(a) ? this.aliasDeclarationLine(a) : this.aliasLine(a));
    for (const fn of m.functions) {
      const plan = this.plans.get(fn);
      if (plan && plan.kind === 'lower') continue; // calls are rewritten; declarations added as needed
      body.push('');
      this.functionLines(fn, body);
    }

    const tail: string[] = [...this.extraDefs];
    if (this.extraDecls.size) {
      tail.push('', '; Declarations added by the upgrade');
      for (const d of this.extraDecls.values()) tail.push(d);
    }
    if (m.dependentLibraries.length) {
      tail.push('', `; LLVM 1.x: deplibs = [ ${m.dependentLibraries.map((l) => `"${escapeString(l)}"`).join(', ')} ]`);
      tail.push(`!llvm.dependent-libraries = !{${m.dependentLibraries.map((_, i) => `!${i}`).join(', ')}}`);
      m.dependentLibraries.forEach((l, i) => tail.push(`!${i} = !{!"${escapeString(l)}"}`));
    }
    const typeDefs = this.types.definitions(); // after the body: printing may name more opaque types
    const out = new TextLines();
    out.pushAll(head);
    if (typeDefs.length) {
      out.push('');
      out.pushAll(typeDefs);
    }
    if (m.globals.length) out.push('');
    out.append(body);
    out.pushAll(tail);
    return out.text();
  }

  /**
   * The `target triple` line as the triple option asks (docs/upgrade.md, "The target triple"):
   * the module's own (`keep`), none at all (`none`: the tools use the host they run on), or a
   * given one. A triple that is not the module's own leaves the old one as a comment.
   */
  private tripleLines(): string[] {
    const own = this.module.targetTriple;
    const choice = this.triple;
    const old = own ? [`; LLVM 1.x: target triple = "${escapeString(own)}"`] : [];
    if (choice === 'none') return old;
    if (choice !== 'keep') return [...(own === choice ? [] : old), `target triple = "${escapeString(choice)}"`];
    if (!own) return [];
    // Tools refuse a triple whose architecture LLVM 16 does not know (alphaev67, ia64, …): those stay a comment.
    return KNOWN_ARCH.test(own) ? [`target triple = "${escapeString(own)}"`] : old;
  }

  private globalLine(g: GlobalVariable): string {
    const name = this.globalNames.get(g)!;
    const kind = g.isConstant ? 'constant' : 'global';
    const ty = this.types.str(g.valueType);
    let s: string;
    const kind7 = `${visibilityPrefix(g.visibility, g.linkage)}${g.isThreadLocal === true ? 'thread_local ' : ''}${kind}`;
    if (g.initializer === undefined) {
      const link = g.linkage === 'extern_weak' ? 'extern_weak' : g.linkage === 'dllimport' ? 'external dllimport' : 'external';
      s = `${name} = ${link} ${kind7} ${ty}`;
    } else if (isCtorList(g)) {
      s = `${name} = ${definitionLinkage(g.linkage)}${kind} ${naming(name, () => this.ctorList(g))}`;
    } else {
      s = `${name} = ${definitionLinkage(g.linkage)}${kind7} ${ty} ${naming(name, () => this.consts.value(g.initializer!))}`;
    }
    if (g.section !== undefined) s += `, section "${escapeString(g.section)}"`;
    if (g.alignment) s += isPowerOfTwo(g.alignment) ? `, align ${g.alignment}` : ` ; LLVM 1.x: align ${g.alignment}`;
    return s;
  }

  /** An alias of a declaration, declared under its own name (its symbol is set by module asm). */
  private aliasDeclarationLine(a: GlobalAlias): string {
    const t = a.type.element;
    const name = this.globalRef(a);
    if (t.kind !== 'function') return `${name} = external global ${this.types.str(t)}`;
    const params = t.params.map((p) => this.types.str(p));
    if (t.isVarArg) params.push('...');
    return `declare ${this.types.str(t.returnType)} ${name}(${params.join(', ')})`;
  }

  /** Version 7's alias: `@a = [linkage] alias <value type>, ptr <aliasee>`. */
  private aliasLine(a: GlobalAlias): string {
    const link = a.linkage === 'external' ? '' : `${a.linkage} `;
    const aliasee = naming(this.globalRef(a), () => this.consts.typed(a.aliasee));
    return `${this.globalRef(a)} = ${link}${visibilityPrefix(a.visibility, a.linkage)}alias ${this.types.str(a.type.element)}, ${aliasee}`;
  }

  /**
   * `llvm.global_ctors`/`dtors` entries were { priority, function }; LLVM 16 requires a third
   * field (the associated data), `ptr null` when there is none.
   */
  private ctorList(g: GlobalVariable): string {
    const init = g.initializer!;
    const n = g.valueType.kind === 'array' ? g.valueType.length : 0;
    const fnPtr = this.ptr('void ()');
    const entry = `{ i32, ${fnPtr}, ${this.bytePtr} }`;
    const ty = `[${n} x ${entry}]`;
    if (init.kind !== 'array') return `${ty} zeroinitializer`;
    const entries = init.elements.map((e) => {
      if (e.kind !== 'struct') return `${entry} zeroinitializer`;
      let fn = this.consts.typed(e.elements[1]!);
      // Typed pointers: an entry of another function type is cast to `void ()*`, as LLVM 13 asks.
      if (this.typed && !fn.startsWith(`${fnPtr} `)) fn = `${fnPtr} bitcast (${fn} to ${fnPtr})`;
      return `${entry} { ${this.consts.typed(e.elements[0]!)}, ${fn}, ${this.bytePtr} null }`;
    });
    return `${ty} [${entries.join(', ')}]`;
  }

  /** Adds the function's lines to `out`: its declaration, or its definition and body. */
  private functionLines(fn: Function, out: TextLines): void {
    const name = this.globalNames.get(fn)!;
    if (fn.isDeclaration) {
      const link = fn.linkage === 'extern_weak' ? 'extern_weak ' : fn.linkage === 'dllimport' ? 'dllimport ' : '';
      let s = `declare ${link}${this.signature(fn, name)}`;
      if (fn.section !== undefined) s += ` section "${escapeString(fn.section)}"`;
      if (fn.alignment && isPowerOfTwo(fn.alignment)) s += ` align ${fn.alignment}`;
      out.push(s);
      return;
    }
    const body = (this.direct && lowerDirectly(this, fn, this.direct)) || printFunctionBody(this, fn);
    let s = `define ${definitionLinkage(fn.linkage)}${visibilityPrefix(fn.visibility, fn.linkage)}${this.signature(fn, name, body.argNames)}`;
    if (fn.section !== undefined) s += ` section "${escapeString(fn.section)}"`;
    if (fn.alignment && isPowerOfTwo(fn.alignment)) s += ` align ${fn.alignment}`;
    if (body.needsGc) s += ' gc "shadow-stack"';
    if (body.hasLandingPads) {
      const personality = this.helper('__gxx_personality_v0');
      // Typed pointers: the personality as clang 13 writes it, cast to i8*.
      s += this.typed ? ` personality i8* bitcast (${this.helperType('__gxx_personality_v0')} ${personality} to i8*)` : ` personality ptr ${personality}`;
    }
    out.push(s + ' {');
    out.append(body.lines);
    out.push('}');
  }
}

const KNOWN_ARCH =
  /^(i[3-6]86|x86_64|amd64|powerpc|powerpc64|powerpc64le|ppc|ppc64|sparc|sparcv9|sparc64|arm|armv\d\w*|thumb|thumbv\d\w*|mips|mipsel|mips64|mips64el|aarch64)-/;

/** Linkage keywords of a definition (1.x `external` is modern's default, written as nothing). */
function definitionLinkage(l: Linkage): string {
  switch (l) {
    case 'external':
    case 'dllimport': // a definition cannot be imported; it is simply external
      return '';
    case 'dllexport':
      return 'dllexport ';
    case 'extern_weak':
      return 'weak ';
    default:
      return `${l} `;
  }
}

/**
 * The assembler lines that define an alias of a declaration as a symbol: `.set ALIAS, TARGET`,
 * made global or weak as its linkage was, with its visibility.
 */
function aliasSymbolAssembly(a: GlobalAlias): string[] {
  const target = addressedSymbol(a.aliasee, 'casts only');
  if (!a.name || target === undefined || !target.name)
    throw new UpgradeError(
      `alias @${a.name ?? ''} names a declaration through ${target === undefined ? 'an offset' : 'an unnamed value'}: LLVM 16 requires an alias to name a definition, and no symbol assignment says the same`,
    );
  const lines: string[] = [];
  const sym = asmSymbol(a.name);
  if (a.linkage === 'weak') lines.push(`.weak ${sym}`);
  else if (a.linkage !== 'internal') lines.push(`.globl ${sym}`);
  if (a.visibility === 'hidden') lines.push(`.hidden ${sym}`);
  else if (a.visibility === 'protected') lines.push(`.protected ${sym}`);
  lines.push(`.set ${sym}, ${asmSymbol(target.name)}`);
  return lines;
}

/** A symbol as GNU `as` takes it: plain where it can be, else quoted. */
function asmSymbol(name: string): string {
  return /^[A-Za-z_.$][A-Za-z0-9_.$]*$/.test(name) ? name : `"${name.replace(/["\\]/g, (c) => '\\' + c)}"`;
}

/**
 * The global variable or function whose address a constant is, through aliases and casts and,
 * `through offsets`, any constant expression's first operand (a getelementptr into it).
 */
function addressedSymbol(c: Constant, through: 'casts only' | 'through offsets'): GlobalValue | undefined {
  let v = c;
  for (let steps = 0; steps < 1000; steps++) {
    if (v.kind === 'global' || v.kind === 'function') return v;
    if (v.kind === 'alias') v = v.aliasee;
    else if (
      v.kind === 'expr' &&
      v.operands.length !== 0 &&
      (through === 'through offsets' || ((v.opcode === 'bitcast' || v.opcode === 'cast') && v.operands.length === 1))
    )
      v = v.operands[0]!;
    else return undefined;
  }
  return undefined;
}

function isCtorList(g: GlobalVariable): boolean {
  if (g.name !== 'llvm.global_ctors' && g.name !== 'llvm.global_dtors') return false;
  const t = g.valueType;
  return t.kind === 'array' && t.element.kind === 'struct' && t.element.elements.length === 2;
}

function isPowerOfTwo(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}
