/**
 * `ModuleBuilder`: builds a `Module` graph in code. It hands out the module's types
 * (`module.types`, interned so equal types are one object), constants (`module.constants`),
 * globals, functions and their blocks, and `IRBuilder`s that append instructions. `build()`
 * checks the result with `verifyModule` and returns the plain `Module` that `writeModule`,
 * `printModule` and `verifyModule` take.
 *
 * The builder keeps its bookkeeping (which function owns which value, names in use) outside the
 * graph, so the module holds nothing but plain objects.
 */
import { describeType } from '../graph/describe.js';
import type { Module } from '../graph/module.js';
import { sameType, type FunctionType, type StructType, type Type } from '../graph/type.js';
import type { BasicBlock, Constant, Function, GlobalValue, GlobalVariable, Linkage } from '../graph/value.js';
import { verifyModule } from '../verify/verify.js';
import { BuildContext } from './context.js';
import type { ConstantBuilder } from './constants.js';
import { BuildError } from './error.js';
import { callingConvNumber, IRBuilder, type CallingConv } from './ir-builder.js';
import type { TypeBuilder } from './types.js';

/** @category Build */
export interface ModuleOptions {
  /** `target triple = "…"` (default none). */
  targetTriple?: string;
  /** `target endian = little|big` (default: left open). */
  endianness?: Module['endianness'];
  /** `target pointersize = 32|64` (default: left open). */
  pointerSize?: Module['pointerSize'];
  /** `deplibs = [ … ]`. */
  dependentLibraries?: readonly string[];
  /** Module-level inline assembly (lines joined by `\n`). */
  inlineAsm?: string;
}

/** @category Build */
export interface GlobalOptions {
  /** Absent: an external declaration. */
  initializer?: Constant;
  /** `constant` instead of `global`. */
  constant?: boolean;
  /** Default `external`. */
  linkage?: Linkage;
  /** Alignment in bytes, a power of two (default unspecified). */
  alignment?: number;
  section?: string;
}

/** @category Build */
export interface FunctionOptions {
  /** Default `external`. */
  linkage?: Linkage;
  /** Default C (`ccc`, 0). */
  callingConv?: CallingConv;
  /** Names of the arguments (missing or empty ones stay unnamed). */
  argNames?: readonly (string | undefined)[];
  /** Alignment in bytes, a power of two (default unspecified). */
  alignment?: number;
  section?: string;
}

/** @category Build */
export interface BuildOptions {
  /** Run `verifyModule` and throw a `BuildError` listing its findings (default true). */
  verify?: boolean;
}

const LINKAGES = new Set<Linkage>(['external', 'linkonce', 'weak', 'appending', 'internal', 'dllimport', 'dllexport', 'extern_weak']);

/**
 * Builds an LLVM 1.x module in code: types (`types`), constants (`constants`), globals,
 * functions and their blocks; `builder(block)` gives an {@link IRBuilder} for instructions, and
 * `build()` returns the plain `Module` that `writeModule` and `printModule` take (docs/build.md).
 *
 * @category Build
 */
export class ModuleBuilder {
  private readonly ctx = new BuildContext();
  /** The module's types: `types.int`, `types.pointer(t)`, `types.struct([...])`, … */
  readonly types: TypeBuilder = this.ctx.types;
  /** The module's constants: `constants.int(t, 5)`, `constants.string("hi")`, … */
  readonly constants: ConstantBuilder = this.ctx.constants;

  constructor(options: ModuleOptions = {}) {
    const m = this.ctx.module;
    if (options.targetTriple !== undefined) m.targetTriple = options.targetTriple;
    if (options.endianness !== undefined) m.endianness = options.endianness;
    if (options.pointerSize !== undefined) m.pointerSize = options.pointerSize;
    if (options.dependentLibraries !== undefined) m.dependentLibraries = [...options.dependentLibraries];
    if (options.inlineAsm !== undefined) m.inlineAsm = options.inlineAsm;
    if (!['little', 'big', 'any'].includes(m.endianness)) throw new BuildError('module', `endianness must be little, big or any, not ${String(m.endianness)}`);
    if (![32, 64, 'any'].includes(m.pointerSize)) throw new BuildError('module', `pointer size must be 32, 64 or any, not ${String(m.pointerSize)}`);
  }

  // ---- module options ------------------------------------------------------------------------

  set targetTriple(triple: string) {
    this.ctx.module.targetTriple = triple;
  }
  get targetTriple(): string {
    return this.ctx.module.targetTriple;
  }

  /** Adds a library to the module's `deplibs` list (not expressible in bytecode versions 0 and 1). */
  addDependentLibrary(name: string): void {
    this.ctx.module.dependentLibraries.push(name);
  }

  // ---- types ---------------------------------------------------------------------------------

  /** `%name = type T`. A name names one type; a type may have several names. */
  nameType<T extends Type>(name: string, type: T): T {
    const names = this.ctx.module.typeNames;
    if (name === '') throw new BuildError('nameType', 'the name is empty');
    if (!this.types.owns(type)) throw new BuildError('nameType', `the type ${describeType(type)} was not made by this module's type builder`);
    if (names.has(name) && names.get(name) !== type) throw new BuildError('nameType', `the name %${name} already names ${describeType(names.get(name)!)}`);
    names.set(name, type);
    return type;
  }

  /**
   * A named struct whose body may refer to itself: `namedStruct('list')` then
   * `setBody(list, [int, pointer(list)])`, or in one step when `body` is a function of the struct.
   */
  namedStruct(name: string, body?: (self: StructType) => readonly Type[]): StructType {
    const shell = this.nameType(name, this.types.structShell());
    if (body !== undefined) this.types.setBody(shell, body(shell));
    return shell;
  }

  /** Gives a struct from `namedStruct` (or `types.structShell`) its fields. */
  setBody(struct: StructType, elements: readonly Type[]): StructType {
    return this.types.setBody(struct, elements);
  }

  // ---- globals -------------------------------------------------------------------------------

  /** A global variable of `valueType` (its own type is `valueType*`). */
  addGlobal(name: string | undefined, valueType: Type, options: GlobalOptions = {}): GlobalVariable {
    const op = 'addGlobal';
    this.checkName(op, name);
    const k = valueType.kind;
    if (k === 'void' || k === 'label' || k === 'function')
      throw new BuildError(op, `a global cannot hold ${describeType(valueType)}${k === 'function' ? ' (use addFunction)' : ''}`);
    const linkage = this.checkLinkage(op, options.linkage ?? 'external');
    const g: GlobalVariable = {
      kind: 'global',
      type: this.types.pointer(valueType),
      valueType,
      linkage,
      isConstant: options.constant ?? false,
      alignment: this.checkAlignment(op, options.alignment),
    };
    if (name !== undefined && name !== '') g.name = name;
    if (options.section !== undefined) g.section = options.section;
    this.ctx.module.globals.push(g);
    this.ctx.moduleValues.add(g);
    if (options.initializer !== undefined) this.setInitializer(g, options.initializer);
    return g;
  }

  /** Sets (or replaces) a global's initializer, e.g. one that refers to the global itself. */
  setInitializer(g: GlobalVariable, init: Constant): void {
    if (!this.ctx.moduleValues.has(g)) throw new BuildError('setInitializer', 'the global is not in this module');
    if (!sameType(init.type, g.valueType)) {
      throw new BuildError(
        'setInitializer',
        `the initializer of @${g.name ?? '(unnamed)'} has type ${describeType(init.type)}, expected ${describeType(g.valueType)}`,
      );
    }
    g.initializer = init;
  }

  /** A function of type `fnType`; a declaration until `addBlock` gives it a body. */
  addFunction(name: string | undefined, fnType: FunctionType, options: FunctionOptions = {}): Function {
    const op = 'addFunction';
    this.checkName(op, name);
    if (fnType.kind !== 'function') throw new BuildError(op, `the type must be a function type made with types.function(...), not ${describeType(fnType)}`);
    if (!this.types.owns(fnType)) {
      throw new BuildError(op, `the function type ${describeType(fnType)} belongs to another ModuleBuilder: make it with this builder's types.function(...)`);
    }
    const f: Function = {
      kind: 'function',
      type: this.types.pointer(fnType),
      functionType: fnType,
      linkage: this.checkLinkage(op, options.linkage ?? 'external'),
      callingConv: callingConvNumber(options.callingConv ?? 0, op),
      alignment: this.checkAlignment(op, options.alignment),
      isDeclaration: true,
      args: [],
      blocks: [],
    };
    if (name !== undefined && name !== '') f.name = name;
    if (options.section !== undefined) f.section = options.section;
    const names = options.argNames ?? [];
    if (names.length > fnType.params.length) throw new BuildError(op, `${names.length} argument names for ${fnType.params.length} parameters`);
    f.args = fnType.params.map((type, index) => {
      const a: Function['args'][number] = { kind: 'argument', type, index };
      const n = this.ctx.localName(f, names[index]);
      if (n !== undefined) a.name = n;
      this.ctx.owner.set(a, f);
      return a;
    });
    this.ctx.module.functions.push(f);
    this.ctx.moduleValues.add(f);
    return f;
  }

  /** The global variable or function named `name`, if any. */
  getGlobal(name: string): GlobalValue | undefined {
    const m = this.ctx.module;
    return m.globals.find((g) => g.name === name) ?? m.functions.find((f) => f.name === name);
  }

  /** Appends a basic block to `fn` (which then is a definition, no longer a declaration). */
  addBlock(fn: Function, name?: string): BasicBlock {
    if (!this.ctx.moduleValues.has(fn) || fn.kind !== 'function') throw new BuildError('addBlock', 'the function is not in this module');
    const bb: BasicBlock = { kind: 'block', type: this.types.label, instructions: [] };
    const n = this.ctx.localName(fn, name);
    if (n !== undefined) bb.name = n;
    fn.blocks.push(bb);
    fn.isDeclaration = false;
    this.ctx.owner.set(bb, fn);
    return bb;
  }

  /** An instruction builder, positioned at the end of `block` when given. */
  builder(block?: BasicBlock): IRBuilder {
    return new IRBuilder(this.ctx, block);
  }

  /**
   * The module. Refuses a struct shell without a body, and (unless `verify: false`) anything
   * `verifyModule` finds (an unterminated block, a use not dominated by its definition, a phi
   * missing a predecessor …), listing the verifier's messages. The builder may go on adding to
   * the same module afterwards.
   */
  build(options: BuildOptions = {}): Module {
    const m = this.ctx.module;
    const typeName = new Map<Type, string>();
    for (const [n, t] of m.typeNames) if (!typeName.has(t)) typeName.set(t, n);
    this.types.checkComplete((t) => typeName.get(t));
    m.types = [...this.types.created];
    if (options.verify !== false) {
      const problems = verifyModule(m);
      if (problems.length !== 0) throw new BuildError('build', `the module is not valid:\n  ${problems.join('\n  ')}`);
    }
    return m;
  }

  // ---- checks --------------------------------------------------------------------------------

  private checkName(op: string, name: string | undefined): void {
    if (name === undefined || name === '') return;
    if (this.getGlobal(name) !== undefined) throw new BuildError(op, `the module already has a global or function named @${name}`);
  }

  private checkLinkage(op: string, linkage: Linkage): Linkage {
    if (!LINKAGES.has(linkage)) throw new BuildError(op, `unknown linkage ${String(linkage)}`);
    return linkage;
  }

  private checkAlignment(op: string, alignment: number | undefined): number {
    const a = alignment ?? 0;
    if (!Number.isInteger(a) || a < 0 || (a & (a - 1)) !== 0 || a > 0x40000000) throw new BuildError(op, `alignment ${a} is not a power of two`);
    return a;
  }
}
