/**
 * A module of bytecode versions 0–6 (LLVM 1.x) as version 7 (LLVM 2.0 development) holds it,
 * the way `llvm-dis-1.9 | llvm-upgrade | llvm-as` (r36867) turned it: a graph → graph transform,
 * leaving the input untouched.
 *
 * What llvm-upgrade did, and so do we:
 * - types lose their sign (`int`/`uint` → `i32`, `bool` → `i1`, …) and are uniqued again;
 * - the sign moves into the operations: `setcc` → `icmp` (signed or unsigned predicates by the
 *   operand type) or `fcmp` (ordered, `setne` → `une`); `shr` → `ashr`/`lshr`; `cast` → one of
 *   the twelve casts (`CastInst::getCastOpcode` with the source's sign), a cast to `bool` →
 *   `icmp ne`/`fcmp one` against zero; a shift amount (`ubyte`) is zero-extended to the shifted
 *   type (an instruction named `shift.upgrd.N` when it is not a constant);
 * - getelementptr indices: `ubyte` constants become `i32`, unsigned sequential indices narrower
 *   than 64 bits are zero-extended to `i64` (an instruction `gep.upgrd.N` when not constant);
 * - `csretcc` becomes the C convention with `sret` on the first parameter;
 * - names that collide once the type planes are gone get `.upgrd.N` (one counter for the whole
 *   module, in the order llvm-upgrade met them in llvm-dis-1.9's text);
 * - `target endian`/`pointersize` become the data layout (`e-p:32:32`, …).
 *
 * What llvm-upgrade did that this transform does not (yet) reproduce is refused with a
 * `ConversionError` naming the construct (see `docs/version7-conversion.md`).
 */
import { LlvmBytecodeError } from '../errors/library-error.js';
import { functionDeclaration } from '../graph/declaration.js';
import { integerType, primitiveTypes, type FunctionType, type PointerType, type Type } from '../graph/type.js';
import type { Module } from '../graph/module.js';
import type {
  Argument,
  BasicBlock,
  Constant,
  ConstantExpr,
  FloatPredicate,
  Function,
  GlobalAlias,
  GlobalVariable,
  Instruction,
  IntPredicate,
  Opcode,
  Value,
} from '../graph/value.js';
import { isSignedV6, isUnsignedV6, TypeMapper } from './types.js';
import { verifiesInLlvm20 } from './inline-asm-2.0.js';
// What llvm-dis-1.9 printed is llvm-upgrade's input: its renaming of locals that shadow globals.
import { renameLocalValues, renameState } from '../held/locals.js';
import { instructionsIn, nameIn, plainView, type ModuleView } from '../held/view.js';
import { upgradeView19 } from '../held/upgrade19.js';
import { upgradedIntrinsic } from '../graph/intrinsic-upgrade.js';

/**
 * The module holds something the conversion to version 7 does not reproduce (or llvm-upgrade refused).
 *
 * @category Errors
 */
export class ConversionError extends LlvmBytecodeError {
  override readonly name = 'ConversionError';
  constructor(
    readonly construct: string,
    detail?: string,
  ) {
    super(`${construct} cannot be converted to bytecode version 7${detail ? `: ${detail}` : ''}`);
  }
}

const CSRET_CC = 1;
const SETCC: Readonly<Record<string, [IntPredicate, IntPredicate, FloatPredicate]>> = {
  seteq: ['eq', 'eq', 'oeq'],
  setne: ['ne', 'ne', 'une'],
  setlt: ['slt', 'ult', 'olt'],
  setgt: ['sgt', 'ugt', 'ogt'],
  setle: ['sle', 'ule', 'ole'],
  setge: ['sge', 'uge', 'oge'],
};

function isFloatType(t: Type): boolean {
  return t.kind === 'float' || t.kind === 'double';
}

function isIntegerV6(t: Type): boolean {
  return isSignedV6(t) || isUnsignedV6(t) || t.kind === 'bool';
}

function bitsOf(t: Type): number {
  switch (t.kind) {
    case 'bool':
      return 1;
    case 'sbyte':
    case 'ubyte':
      return 8;
    case 'short':
    case 'ushort':
      return 16;
    case 'int':
    case 'uint':
    case 'float':
      return 32;
    case 'long':
    case 'ulong':
    case 'double':
      return 64;
    case 'integer':
      return t.bits;
    default:
      return 0;
  }
}

/** `CastInst::getCastOpcode` on 1.x types (the source's sign decides extensions and int → fp). */
function castOpcode(src: Type, dst: Type): Opcode {
  const sb = bitsOf(src);
  const db = bitsOf(dst);
  if (isIntegerV6(dst)) {
    if (isIntegerV6(src)) return db < sb ? 'trunc' : db > sb ? (isSignedV6(src) ? 'sext' : 'zext') : 'bitcast';
    if (isFloatType(src)) return isSignedV6(dst) ? 'fptosi' : 'fptoui';
    if (src.kind === 'packed') return 'bitcast';
    return 'ptrtoint';
  }
  if (isFloatType(dst)) {
    if (isIntegerV6(src)) return isSignedV6(src) ? 'sitofp' : 'uitofp';
    if (isFloatType(src)) return db < sb ? 'fptrunc' : db > sb ? 'fpext' : 'bitcast';
    return 'bitcast';
  }
  if (dst.kind === 'pointer') return isIntegerV6(src) ? 'inttoptr' : 'bitcast';
  return 'bitcast';
}

interface Scope {
  /** The function's symbol table: name → new value. */
  names: Map<string, Value>;
}

export class Version7Converter {
  private readonly types = new TypeMapper();
  private readonly values = new Map<Value, Value>();
  private uniqueCounter = 1;
  private readonly out: Module;
  /** The module symbol table as llvm-upgrade had it at each point of its reading: name → value. */
  private readonly moduleNames = new Map<string, GlobalVariable | Function>();
  /** LLVM's symbol-table suffix counter (`str1`, `str2`, … when a name is taken: `setName`). */
  private lastUnique = 0;
  /** Declarations llvm-upgrade added while reading the current body (getOrInsertFunction). */
  private addedDeclarations: Function[] = [];
  private readonly added = new Set<Function>();

  constructor(private readonly src: Module) {
    this.view = plainView(src);
    this.out = {
      kind: 'module',
      endianness: 'any',
      pointerSize: 'any',
      targetTriple: src.targetTriple,
      inlineAsm: src.inlineAsm,
      dependentLibraries: [...src.dependentLibraries],
      types: [],
      typeNames: new Map(),
      globals: [],
      functions: [],
      dataLayout: dataLayoutOf(src),
    };
  }

  /** The module as llvm-dis-1.9 printed it: LLVM 1.9's reader had renamed old intrinsics. */
  private view: ModuleView;

  /** The names llvm-dis-1.9 printed for a function's locals where they differ from the graph's. */
  private printedNames: (f: Function) => Map<Value, string> = () => new Map();

  /** `llvm-upgrade`'s makeNameUnique. */
  private makeNameUnique(name: string): string {
    return `${name}.upgrd.${this.uniqueCounter++}`;
  }

  type(t: Type): Type {
    return this.types.map(t);
  }

  convert(): Module {
    const src = this.src;
    if (src.aliases !== undefined && src.aliases.length !== 0) throw new ConversionError('a module of version 7 (it has aliases)');
    for (const [name, t] of src.typeNames) this.out.typeNames.set(name, this.type(t));
    const seenTypes = new Set<Type>();
    for (const t of src.types) {
      const m = this.type(t);
      if (!seenTypes.has(m)) {
        seenTypes.add(m);
        this.out.types.push(m);
      }
    }
    const moduleNames = this.moduleNames;
    // Globals and functions are created first (initializers and bodies may refer to any); names
    // are given in llvm-upgrade's reading order below.
    for (const g of src.globals) {
      const vt = this.type(g.valueType);
      const ng: GlobalVariable = {
        kind: 'global',
        type: this.type(g.type) as PointerType,
        valueType: vt,
        linkage: g.linkage,
        isConstant: g.isConstant,
        alignment: g.alignment,
      };
      if (g.section !== undefined) ng.section = g.section;
      this.values.set(g, ng);
      this.out.globals.push(ng);
    }
    const view = readView19(src);
    this.view = view;
    const printed = renameState(view);
    this.printedNames = (f: Function): Map<Value, string> => renameLocalValues(view, f, printed);
    // Every function exists before any body is converted (a body may call a later function).
    const shells = view.functions.map((f) => {
      const nf = this.functionShell(f);
      this.values.set(f, nf);
      return nf;
    });
    // A global initializer naming a global value not defined yet made llvm-upgrade create it
    // there, with its name: it holds the name before anything defined later.
    const claimed = new Set<Value>();
    // A placeholder whose name was taken got LLVM's symbol-table suffix (`str1`, `str2`, …).
    const claim = (old: GlobalVariable | Function): void => {
      const oldName = nameIn(view, old);
      if (claimed.has(old) || oldName === undefined) return;
      this.renameGlobal(this.values.get(old) as GlobalVariable | Function, oldName);
      claimed.add(old);
    };
    src.globals.forEach((g, i) => {
      if (g.initializer !== undefined) for (const r of globalsIn(g.initializer)) if (!claimed.has(r)) claim(r);
      const ng = this.out.globals[i]!;
      if (claimed.has(g) || g.name === undefined || g.name === '') {
        claimed.add(g);
        return;
      }
      claimed.add(g);
      ng.name = moduleNames.has(g.name) ? this.makeNameUnique(g.name) : g.name;
      moduleNames.set(ng.name, ng);
    });
    view.functions.forEach((f, i) => {
      const nf = shells[i]!;
      const fName = nameIn(view, f);
      if (fName !== undefined && !claimed.has(f)) {
        const conflict = moduleNames.get(fName);
        if (conflict !== undefined && conflict.kind === 'function' && this.added.has(conflict) && conflict.type === nf.type && f.isDeclaration) {
          // The declaration of an intrinsic llvm-upgrade had already declared anew (a call before
          // the declaration in the text): the header found that function and kept it.
          this.values.set(f, conflict);
          return;
        }
        if (conflict !== undefined) {
          // Two definitions of one name and type (planes that collapsed) are renamed as two of
          // different types are; a declaration meeting its own type was merged with the other,
          // which is not reproduced.
          const bothDefined = !f.isDeclaration && conflict.kind === 'function' && !conflict.isDeclaration;
          if (conflict.type === nf.type && !bothDefined) throw new ConversionError(`two functions named "${fName}" whose types become one`);
          if (conflict.linkage === 'internal') {
            moduleNames.delete(fName);
            conflict.name = this.makeNameUnique(fName);
            moduleNames.set(conflict.name, conflict);
            nf.name = fName;
          } else {
            nf.name = this.makeNameUnique(fName);
          }
        } else {
          nf.name = fName;
        }
        moduleNames.set(nf.name, nf);
      }
      this.out.functions.push(nf);
      // llvm-upgrade parses each body right after its header: its renames interleave, and the
      // declarations it adds for upgraded intrinsic calls follow the function.
      if (!f.isDeclaration) this.convertBody(f, nf);
      this.out.functions.push(...this.addedDeclarations);
      this.addedDeclarations = [];
    });
    src.globals.forEach((g, i) => {
      if (g.initializer !== undefined) this.out.globals[i]!.initializer = this.constant(g.initializer);
    });
    return this.out;
  }

  private functionShell(f: Function): Function {
    let ft = this.type(f.functionType) as FunctionType;
    const name = nameIn(this.view, f);
    const varArgsParams = name === undefined ? undefined : VARARGS_INTRINSIC_PARAMS.get(name);
    if (varArgsParams !== undefined) {
      // LLVM 2.0's va_start/va_end/va_copy take i8*: llvm-upgrade's function header rule gave them
      // that signature whatever the text said (the calls are rewritten to match).
      if (f.functionType.params.length !== varArgsParams || f.functionType.returnType.kind !== 'void')
        throw new ConversionError(`a ${name} of the obsolete (pre-1.5) signature`);
      ft = this.types.adopt({
        kind: 'function',
        returnType: primitiveTypes.void,
        params: Array<Type>(varArgsParams).fill(this.bytePointer()),
        isVarArg: false,
      }) as FunctionType;
    }
    let cc = f.callingConv;
    if (cc === CSRET_CC) {
      ft = this.types.withSret(ft) as FunctionType;
      cc = 0;
    }
    const nf: Function = {
      kind: 'function',
      type: this.pointerTo(ft),
      functionType: ft,
      linkage: f.linkage,
      callingConv: cc,
      alignment: f.alignment,
      isDeclaration: f.isDeclaration,
      args: [],
      blocks: [],
    };
    if (f.section !== undefined) nf.section = f.section;
    nf.args = f.args.map((a) => {
      const na: Argument = { kind: 'argument', type: varArgsParams === undefined ? this.type(a.type) : this.bytePointer(), index: a.index };
      if (a.name !== undefined && a.name !== '' && !f.isDeclaration) na.name = a.name;
      this.values.set(a, na);
      return na;
    });
    return nf;
  }

  private bytePointer(): PointerType {
    return this.pointerTo(integerType(8));
  }

  /** `Module::getOrInsertFunction` of a declaration: appended after the function being read. */
  private getOrInsertFunction(name: string, returnType: Type, params: Type[]): Function {
    const ft = this.types.adopt({ kind: 'function', returnType, params, isVarArg: false }) as FunctionType;
    const existing = this.moduleNames.get(name);
    if (existing !== undefined) {
      // Another type made LLVM hand back a cast of the function, which llvm-upgrade then took for
      // a function and crashed on.
      if (existing.kind !== 'function' || existing.functionType !== ft)
        throw new ConversionError(`a call llvm-upgrade rewrote to ${name}, a name already taken by another type`);
      return existing;
    }
    const fn = functionDeclaration(ft, this.pointerTo(ft), name);
    this.moduleNames.set(name, fn);
    this.added.add(fn);
    this.addedDeclarations.push(fn);
    return fn;
  }

  /** `Value::setName` of a global (or the first naming of one): LLVM's symbol-table suffix where the name is taken. */
  private renameGlobal(v: GlobalVariable | Function, base: string): void {
    if (v.name !== undefined && this.moduleNames.get(v.name) === v) this.moduleNames.delete(v.name);
    let name = base;
    while (this.moduleNames.has(name)) name = `${base}${++this.lastUnique}`;
    v.name = name;
    this.moduleNames.set(name, v);
  }

  /**
   * llvm-upgrade's `upgradeIntrinsicCall`: a direct call of an intrinsic whose signature LLVM 2.0
   * changed becomes what LLVM 2.0 wanted (appending `ni` and any instruction it needs to `bb`).
   * The rewritten call loses `tail` and its calling convention, as there.
   */
  private upgradeIntrinsicCall(inst: Instruction, ni: Instruction, bb: BasicBlock, callee: Function, name: string): void {
    const args = inst.operands.slice(1).map((o) => this.operand(o));
    const prototype = (n: number): void => {
      if (args.length !== n) throw new ConversionError(`a call to ${name} with ${args.length} arguments`, 'llvm-upgrade refused it: "Invalid prototype"');
    };
    const intBits = (t: Type): number => (t.kind === 'integer' ? t.bits : 0);
    if (name === 'llvm.isunordered.f32' || name === 'llvm.isunordered.f64') {
      prototype(2);
      ni.opcode = 'fcmp';
      ni.predicate = 'uno';
      ni.type = integerType(1);
      ni.operands = args;
    } else if (name.startsWith('llvm.bswap.i')) {
      prototype(1);
      const argType = args[0]!.type;
      if (intBits(argType) === 0) throw new ConversionError(`a call to ${name} of a non-integer`);
      ni.operands = [this.getOrInsertFunction(`${name}.i${intBits(argType)}`, ni.type, [argType]), args[0]!];
    } else if (name.startsWith('llvm.ctpop.') || name.startsWith('llvm.ctlz.') || name.startsWith('llvm.cttz.')) {
      // These came to return i32: the old function is renamed out of the way, the call goes to a
      // new declaration, and its result is cast back to the type the text expected.
      prototype(1);
      const argType = args[0]!.type;
      const resultBits = intBits(ni.type);
      if (intBits(argType) === 0 || resultBits === 0) throw new ConversionError(`a call to ${name} of a non-integer`);
      const old = this.moduleNames.get(name);
      if (old !== undefined) this.renameGlobal(old, `upgrd.rm.${name}`);
      const i32 = integerType(32);
      const call: Instruction = {
        kind: 'instruction',
        opcode: 'call',
        type: i32,
        operands: [this.getOrInsertFunction(name, i32, [argType]), args[0]!],
        callingConv: 0,
      };
      bb.instructions.push(call);
      ni.opcode = resultBits === 32 ? 'bitcast' : resultBits < 32 ? 'trunc' : 'zext';
      ni.operands = [call];
    } else {
      // llvm.va_start / va_end (one va_list pointer) and va_copy (two): the arguments are cast to
      // i8*, each cast named by makeNameUnique (`va`, or `va0` and `va1`).
      const isCopy = name === 'llvm.va_copy';
      prototype(isCopy ? 2 : 1);
      const fn = this.operand(callee);
      const bases = isCopy ? ['va0', 'va1'] : ['va'];
      const names = bases.map((b) => this.makeNameUnique(b));
      const casts = args.map((a, i): Instruction => ({ kind: 'instruction', opcode: 'bitcast', type: this.bytePointer(), operands: [a], name: names[i]! }));
      bb.instructions.push(...casts);
      ni.operands = [fn, ...casts];
    }
    ni.callingConv = 0;
    bb.instructions.push(ni);
  }

  private readonly pointers = new Map<Type, PointerType>();
  private pointerTo(t: Type): PointerType {
    // Mapped through the type mapper so that it is the module's one pointer type to `t`.
    let p = this.pointers.get(t);
    if (p === undefined) {
      p = this.types.adopt({ kind: 'pointer', element: t }) as PointerType;
      this.pointers.set(t, p);
    }
    return p;
  }

  // ---- constants ---------------------------------------------------------------------------

  constant(c: Value): Constant {
    const known = this.values.get(c);
    if (known !== undefined) return known as Constant;
    const n = this.buildConstant(c);
    this.values.set(c, n);
    return n;
  }

  private buildConstant(c: Value): Constant {
    switch (c.kind) {
      case 'bool':
        return { kind: 'bool', type: integerType(1), value: c.value };
      case 'int': {
        const bits = bitsOf(c.type);
        return intConstant(bits, c.value);
      }
      case 'fp':
        return { kind: 'fp', type: c.type, value: c.value, bits: c.bits };
      case 'null':
        return { kind: 'null', type: this.type(c.type) };
      case 'zeroinitializer':
        return { kind: 'zeroinitializer', type: this.type(c.type) };
      case 'undef':
        return { kind: 'undef', type: this.type(c.type) };
      case 'array':
      case 'struct':
      case 'packed':
        return { kind: c.kind, type: this.type(c.type), elements: c.elements.map((e) => this.constant(e)) };
      case 'inlineasm':
        return { kind: 'inlineasm', type: this.type(c.type) as PointerType, asm: c.asm, constraints: c.constraints, hasSideEffects: c.hasSideEffects };
      case 'expr':
        return this.constantExpr(c);
      default:
        throw new ConversionError(`a ${c.kind} used as a constant`);
    }
  }

  private constantExpr(c: ConstantExpr): Constant {
    const op = c.opcode;
    if (op === 'cast') return this.castConstant(c.operands[0]!, c.type);
    const setcc = SETCC[op];
    if (setcc !== undefined) {
      const t = c.operands[0]!.type;
      const [l, r] = c.operands.map((o) => this.constant(o)) as [Constant, Constant];
      const isFp = isFloatType(t);
      const predicate = isFp ? setcc[2] : isSignedV6(t) ? setcc[0] : setcc[1];
      return (
        foldCompare(isFp ? 'fcmp' : 'icmp', predicate, l, r) ?? {
          kind: 'expr',
          type: integerType(1),
          opcode: isFp ? 'fcmp' : 'icmp',
          operands: [l, r],
          predicate,
        }
      );
    }
    if (op === 'shl' || op === 'shr') {
      const t = c.operands[0]!.type;
      const value = this.constant(c.operands[0]!);
      const amount = this.zextConstant(this.constant(c.operands[1]!), this.type(t));
      const opcode: Opcode = op === 'shl' ? 'shl' : isSignedV6(t) ? 'ashr' : 'lshr';
      return { kind: 'expr', type: this.type(c.type), opcode, operands: [value, amount] };
    }
    if (op === 'getelementptr') {
      const base = this.constant(c.operands[0]!);
      const indices = this.gepConstantIndices(c.operands[0]!.type, c.operands.slice(1));
      return { kind: 'expr', type: this.type(c.type), opcode: 'getelementptr', operands: [base, ...indices] };
    }
    if (op === 'vaarg' || op === 'vanext' || op === ('setcc' as Opcode)) throw new ConversionError(`a ${op} constant expression`);
    const operands = c.operands.map((o) => this.constant(o));
    if (isPointerArithmetic(op, c))
      throw new ConversionError(`a ${op} constant expression on pointers`, 'llvm-upgrade rewrote it through ptrtoint by the pointer size');
    return { kind: 'expr', type: this.type(c.type), opcode: op, operands };
  }

  /** `getCast` for a constant: folded where LLVM's constant folder folded it. */
  private castConstant(srcValue: Value, dstOld: Type): Constant {
    const srcOld = srcValue.type;
    const src = this.constant(srcValue);
    const dst = this.type(dstOld);
    if (isFloatType(srcOld) && dstOld.kind === 'pointer') {
      const asInt = foldCast('fptoui', src, integerType(64)) ?? ({ kind: 'expr', type: integerType(64), opcode: 'fptoui', operands: [src] } as Constant);
      return foldCast('inttoptr', asInt, dst) ?? { kind: 'expr', type: dst, opcode: 'inttoptr', operands: [asInt] };
    }
    if (dstOld.kind === 'bool') {
      const isFp = isFloatType(srcOld);
      const zero = nullOf(src.type);
      const predicate = isFp ? 'one' : 'ne';
      return (
        foldCompare(isFp ? 'fcmp' : 'icmp', predicate, src, zero) ?? {
          kind: 'expr',
          type: integerType(1),
          opcode: isFp ? 'fcmp' : 'icmp',
          operands: [src, zero],
          predicate,
        }
      );
    }
    const opcode = castOpcode(srcOld, dstOld);
    return foldCast(opcode, src, dst) ?? { kind: 'expr', type: dst, opcode, operands: [src] };
  }

  private zextConstant(c: Constant, to: Type): Constant {
    if (c.type === to) return c;
    return foldCast('zext', c, to) ?? { kind: 'expr', type: to, opcode: 'zext', operands: [c] };
  }

  /** upgradeGEPCEIndices: narrow constant indices become i32; unsigned sequential ones i64. */
  private gepConstantIndices(baseOld: Type, indices: readonly Value[]): Constant[] {
    const out: Constant[] = [];
    let t: Type | undefined = baseOld;
    for (const idxOld of indices) {
      let idx = this.constant(idxOld);
      if ((idx.kind === 'int' || idx.kind === 'bool') && bitsOf(idx.type) < 32) idx = this.zextConstant(idx, integerType(32));
      const sequential = t !== undefined && t.kind !== 'struct';
      if (sequential && idx.type.kind === 'integer' && idx.type.bits < 64 && isUnsignedV6(idxOld.type)) idx = this.zextConstant(idx, integerType(64));
      out.push(idx);
      t = stepInto(t, idxOld);
    }
    return out;
  }

  // ---- function bodies -----------------------------------------------------------------------

  private convertBody(f: Function, nf: Function): void {
    const scope: Scope = { names: new Map() };
    const printed = this.printedNames(f);
    f.args.forEach((a, i) => {
      const p = printed.get(a);
      if (p !== undefined) nf.args[i]!.name = p;
    });
    // Arguments are named at the header, in order: one whose name an earlier one of another
    // 1.x type already holds gets `.upgrd.N` (`int %B, bool %B` → `%B`, `%B.upgrd.1`).
    for (const a of nf.args) {
      if (a.name === undefined) continue;
      if (scope.names.has(a.name)) a.name = this.makeNameUnique(a.name);
      scope.names.set(a.name, a);
    }
    this.checkUnnamedPlanes(f);
    // Every block and instruction gets its object first, so forward references resolve at once;
    // names are given in text order below, as llvm-upgrade met them.
    const shells = new Map<Instruction, Instruction>();
    const named = new Set<BasicBlock>();
    for (const bb of f.blocks) {
      this.values.set(bb, { kind: 'block', type: primitiveTypes.label, instructions: [] });
      for (const inst of instructionsIn(this.view, bb)) {
        const ni: Instruction = { kind: 'instruction', opcode: inst.opcode, type: this.type(inst.type), operands: [] };
        shells.set(inst, ni);
        this.values.set(inst, ni);
      }
    }
    const nameBlock = (bb: BasicBlock): void => {
      if (named.has(bb)) return;
      named.add(bb);
      const nb = this.values.get(bb) as BasicBlock;
      if (bb.name === undefined || bb.name === '') return;
      // getBBVal: a register holding the label's name is renamed; the block keeps the name.
      const existing = scope.names.get(bb.name);
      if (existing !== undefined) {
        const renamed = this.makeNameUnique(bb.name);
        (existing as { name?: string }).name = renamed;
        scope.names.set(renamed, existing);
      }
      nb.name = bb.name;
      scope.names.set(bb.name, nb);
    };
    const omitted = new Map<Value, Value>();
    for (const bb of f.blocks) {
      nameBlock(bb);
      const nb = this.values.get(bb) as BasicBlock;
      nf.blocks.push(nb);
      for (const inst of instructionsIn(this.view, bb)) {
        for (const o of inst.operands) if (o.kind === 'block') nameBlock(o);
        const ni = shells.get(inst)!;
        this.instruction(inst, ni, nb);
        const text = inst.name ? (printed.get(inst) ?? inst.name) : undefined;
        const src = ni.operands[0] as { name?: string; type: Type } | undefined;
        if (ni.opcode === 'bitcast' && text !== undefined && src !== undefined && src.type === ni.type && src.name === text) {
          // llvm-upgrade omitted a bit cast to the same type named as its operand (planes that
          // collapsed: `%x = cast uint %x to int`); uses of it name the operand.
          nb.instructions.pop();
          omitted.set(ni, ni.operands[0]!);
          this.values.set(inst, ni.operands[0]!);
          continue;
        }
        if (inst.name !== undefined && inst.name !== '') {
          let name = text!;
          if (scope.names.has(name)) name = this.makeNameUnique(name);
          ni.name = name;
          scope.names.set(name, ni);
        }
      }
    }
    if (omitted.size !== 0) {
      const resolve = (v: Value): Value => {
        let r = v;
        for (let n = 0; omitted.has(r) && n < omitted.size + 1; n++) r = omitted.get(r)!;
        return r;
      };
      for (const nb of nf.blocks) for (const i of nb.instructions) i.operands = i.operands.map(resolve);
    }
  }

  /**
   * llvm-upgrade numbered unnamed values per LLVM 2.0 type: unnamed values of `int` and `uint`
   * (say) in one function share one numbering there, and a use of `%0` of one meant the other's.
   * A function that uses such a value is refused; where none is used (an unused `cast` of each
   * sign, say), the numbering changes nothing.
   */
  private checkUnnamedPlanes(f: Function): void {
    const byNewType = new Map<Type, Type>();
    const colliding = new Set<Type>();
    const unnamedLocal = (v: Value): boolean => (v.kind === 'argument' || v.kind === 'instruction') && !v.name && v.type.kind !== 'void';
    const note = (v: Value): void => {
      if (!unnamedLocal(v)) return;
      const nt = this.type(v.type);
      const prior = byNewType.get(nt);
      if (prior === undefined) byNewType.set(nt, v.type);
      else if (prior !== v.type) colliding.add(nt);
    };
    for (const a of f.args) note(a);
    for (const bb of f.blocks) for (const i of instructionsIn(this.view, bb)) note(i);
    if (colliding.size === 0) return;
    for (const bb of f.blocks) {
      for (const i of instructionsIn(this.view, bb)) {
        for (const o of i.operands) {
          if (!unnamedLocal(o)) continue;
          const nt = this.type(o.type);
          if (colliding.has(nt))
            throw new ConversionError(
              `unnamed values of types that both become ${describeNew(nt)} in function "${f.name ?? ''}"`,
              'llvm-upgrade numbered them together and confused them',
            );
        }
      }
    }
  }

  /** An operand: constants and globals converted; local values by their new objects. */
  private operand(v: Value): Value {
    switch (v.kind) {
      case 'argument':
      case 'block':
      case 'instruction':
      case 'global':
      case 'function': {
        const known = this.values.get(v);
        if (known === undefined) throw new ConversionError(`a ${v.kind} from elsewhere used as an operand`);
        return known;
      }
      case 'inlineasm': {
        // llvm-upgrade made a new InlineAsm for every use (LLVM did not unique them then).
        const type = this.type(v.type) as PointerType;
        if (type.element.kind !== 'function' || !verifiesInLlvm20(type.element, v.constraints)) {
          throw new ConversionError(
            `inline asm with the constraints "${v.constraints}"`,
            'LLVM 2.0 rejected them for its type (a 1.x indirect output `==m` reads as a second output there); llvm-upgrade failed',
          );
        }
        return { kind: 'inlineasm', type, asm: v.asm, constraints: v.constraints, hasSideEffects: v.hasSideEffects };
      }
      default:
        return this.constant(v);
    }
  }

  /** Fills `ni` (the new object of `inst`), appending it and any instruction it needs to `bb`. */
  private instruction(inst: Instruction, ni: Instruction, bb: BasicBlock): void {
    const op = inst.opcode;
    const ops = inst.operands;
    if (op === 'vaarg' && inst.legacyVarArgs === true)
      throw new ConversionError('the pre-LLVM-1.6 vaarg instruction', 'llvm-upgrade rewrote it through llvm.va_copy');
    if (op === 'vanext') throw new ConversionError('the vanext instruction', 'llvm-upgrade rewrote it through llvm.va_copy');
    const setcc = SETCC[op];
    if (setcc !== undefined) {
      const t = ops[0]!.type;
      const isFp = isFloatType(t);
      if (t.kind === 'packed')
        throw new ConversionError(`a ${op} of vectors`, 'llvm-upgrade refused it: "VectorTypes currently not supported in setcc instructions"');
      ni.opcode = isFp ? 'fcmp' : 'icmp';
      ni.predicate = isFp ? setcc[2] : isSignedV6(t) ? setcc[0] : setcc[1];
      ni.operands = ops.map((o) => this.operand(o));
    } else if (op === 'shl' || op === 'shr') {
      const t = ops[0]!.type;
      if (op === 'shr') ni.opcode = isSignedV6(t) ? 'ashr' : 'lshr';
      const value = this.operand(ops[0]!);
      let amount = this.operand(ops[1]!);
      const vt = this.type(t);
      if (bitsOf(t) > 8) {
        if (isConstantValue(amount)) amount = this.zextConstant(amount as Constant, vt);
        else {
          const z: Instruction = { kind: 'instruction', opcode: 'zext', type: vt, operands: [amount], name: this.makeNameUnique('shift') };
          bb.instructions.push(z);
          amount = z;
        }
      }
      ni.operands = [value, amount];
    } else if (op === 'cast') {
      const srcOld = ops[0]!;
      const dstOld = inst.type;
      const src = this.operand(srcOld);
      if (isFloatType(srcOld.type) && dstOld.kind === 'pointer') {
        throw new ConversionError('a cast from floating point to a pointer', 'llvm-upgrade split it in two instructions');
      }
      if (dstOld.kind === 'bool') {
        const isFp = isFloatType(srcOld.type);
        if (!isFp && !isIntegerV6(srcOld.type) && srcOld.type.kind !== 'pointer')
          throw new ConversionError('a cast to bool of a non-scalar', 'llvm-upgrade refused it: "Invalid cast to bool"');
        ni.opcode = isFp ? 'fcmp' : 'icmp';
        ni.predicate = isFp ? 'one' : 'ne';
        ni.operands = [src, nullOf(this.type(srcOld.type))];
      } else {
        ni.opcode = castOpcode(srcOld.type, dstOld);
        ni.operands = [src];
      }
    } else if (op === 'getelementptr') {
      ni.operands = [this.operand(ops[0]!)];
      let t: Type | undefined = ops[0]!.type;
      for (const idxOld of ops.slice(1)) {
        let idx = this.operand(idxOld);
        if ((idx.kind === 'int' || idx.kind === 'bool') && bitsOf(idx.type) < 32) idx = this.zextConstant(idx as Constant, integerType(32));
        const sequential = t !== undefined && t.kind !== 'struct';
        if (sequential && isUnsignedV6(idxOld.type) && bitsOf(idxOld.type) < 64) {
          if (isConstantValue(idx)) idx = this.zextConstant(idx as Constant, integerType(64));
          else {
            const z: Instruction = { kind: 'instruction', opcode: 'zext', type: integerType(64), operands: [idx], name: this.makeNameUnique('gep') };
            bb.instructions.push(z);
            idx = z;
          }
        }
        ni.operands.push(idx);
        t = stepInto(t, idxOld);
      }
    } else if (op === 'call' || op === 'invoke') {
      const callee = ops[0]!;
      const calleeName = callee.kind === 'function' ? nameIn(this.view, callee) : undefined;
      if (callee.kind === 'function' && calleeName !== undefined && isUpgradedIntrinsic(calleeName)) {
        if (op === 'invoke')
          throw new ConversionError(`an invoke of ${calleeName}`, 'llvm-upgrade rewrote calls of it, and what it made of an invoke is not reproduced');
        this.upgradeIntrinsicCall(inst, ni, bb, callee, calleeName);
        return;
      }
      ni.operands = ops.map((o) => this.operand(o));
      ni.callingConv = inst.callingConv === CSRET_CC ? 0 : (inst.callingConv ?? 0);
      if (inst.isTailCall) ni.isTailCall = true;
    } else {
      ni.operands = ops.map((o) => this.operand(o));
      if (op === 'malloc' || op === 'alloca') {
        if (inst.allocatedType !== undefined) ni.allocatedType = this.type(inst.allocatedType);
        if (inst.alignment) ni.alignment = inst.alignment;
      }
      if ((op === 'load' || op === 'store') && inst.isVolatile) ni.isVolatile = true;
    }
    bb.instructions.push(ni);
  }
}

/** The global variables and functions a constant names, in the order the text names them. */
function globalsIn(c: Value): (GlobalVariable | Function)[] {
  const out: (GlobalVariable | Function)[] = [];
  const seen = new Set<Value>();
  const stack: Value[] = [c];
  while (stack.length !== 0) {
    const v = stack.pop()!;
    if (seen.has(v)) continue;
    seen.add(v);
    if (v.kind === 'global' || v.kind === 'function') out.push(v);
    else if (v.kind === 'array' || v.kind === 'struct' || v.kind === 'packed') for (let i = v.elements.length - 1; i >= 0; i--) stack.push(v.elements[i]!);
    else if (v.kind === 'expr') for (let i = v.operands.length - 1; i >= 0; i--) stack.push(v.operands[i]!);
  }
  return out;
}

/** What the shared cast folder can fold of the constants the conversion meets. */
function foldCast(opcode: Opcode, c: Constant, to: Type): Constant | undefined {
  if (c.type === to && opcode === 'bitcast') return c;
  if (c.kind === 'undef') return { kind: 'undef', type: to };
  if (to.kind === 'integer' && (c.kind === 'int' || c.kind === 'bool')) {
    const fromBits = c.type.kind === 'integer' ? c.type.bits : 1;
    const raw = c.kind === 'bool' ? (c.value ? 1n : 0n) : BigInt.asUintN(fromBits, c.value);
    switch (opcode) {
      case 'trunc':
      case 'zext':
      case 'bitcast':
        return intConstant(to.bits, raw);
      case 'sext':
        return intConstant(to.bits, BigInt.asIntN(fromBits, raw));
    }
    return undefined;
  }
  if ((to.kind === 'float' || to.kind === 'double') && (c.kind === 'int' || c.kind === 'bool')) {
    const fromBits = c.type.kind === 'integer' ? c.type.bits : 1;
    const raw = c.kind === 'bool' ? (c.value ? 1n : 0n) : BigInt.asUintN(fromBits, c.value);
    if (opcode !== 'sitofp' && opcode !== 'uitofp') return undefined;
    const n = Number(opcode === 'sitofp' ? BigInt.asIntN(fromBits, raw) : raw);
    return fpConstant(to, n);
  }
  if ((to.kind === 'float' || to.kind === 'double') && c.kind === 'fp' && (opcode === 'fpext' || opcode === 'fptrunc')) {
    return fpConstant(to, c.value);
  }
  if (to.kind === 'integer' && c.kind === 'fp' && (opcode === 'fptosi' || opcode === 'fptoui')) {
    if (!Number.isFinite(c.value)) return undefined;
    return intConstant(to.bits, BigInt(Math.trunc(c.value)));
  }
  if (opcode === 'ptrtoint' && c.kind === 'null' && to.kind === 'integer') return intConstant(to.bits, 0n);
  if (opcode === 'inttoptr' && c.kind === 'int' && c.value === 0n) return { kind: 'null', type: to };
  if (opcode === 'bitcast' && c.kind === 'null' && to.kind === 'pointer') return { kind: 'null', type: to };
  return undefined;
}

function fpConstant(t: Type, n: number): Constant {
  const dv = new DataView(new ArrayBuffer(8));
  if (t.kind === 'float') {
    dv.setFloat32(0, n, true);
    return { kind: 'fp', type: t, value: dv.getFloat32(0, true), bits: BigInt(dv.getUint32(0, true)) };
  }
  dv.setFloat64(0, n, true);
  return { kind: 'fp', type: t, value: n, bits: dv.getBigUint64(0, true) };
}

/** An integer constant of `bits` bits from any bigint (kept as the signed reading of its bits). */
function intConstant(bits: number, value: bigint): Constant {
  if (bits === 1) return { kind: 'bool', type: integerType(1), value: (value & 1n) === 1n };
  return { kind: 'int', type: integerType(bits), value: BigInt.asIntN(bits, value) };
}

/** Compares two simple constants as LLVM's folder did, or undefined. */
function foldCompare(kind: 'icmp' | 'fcmp', p: IntPredicate | FloatPredicate, l: Constant, r: Constant): Constant | undefined {
  if (kind === 'icmp') {
    const bits = l.type.kind === 'integer' ? l.type.bits : 0;
    const num = (c: Constant): bigint | undefined => (c.kind === 'int' ? c.value : c.kind === 'bool' ? (c.value ? 1n : 0n) : undefined);
    const a = num(l);
    const b = num(r);
    if (a === undefined || b === undefined || bits === 0) return undefined;
    const ua = BigInt.asUintN(bits, a);
    const ub = BigInt.asUintN(bits, b);
    const sa = BigInt.asIntN(bits, a);
    const sb = BigInt.asIntN(bits, b);
    const results: Record<string, boolean> = {
      eq: ua === ub,
      ne: ua !== ub,
      ugt: ua > ub,
      uge: ua >= ub,
      ult: ua < ub,
      ule: ua <= ub,
      sgt: sa > sb,
      sge: sa >= sb,
      slt: sa < sb,
      sle: sa <= sb,
    };
    return { kind: 'bool', type: integerType(1), value: results[p]! };
  }
  if (l.kind !== 'fp' || r.kind !== 'fp') return undefined;
  const a = l.value;
  const b = r.value;
  const uno = Number.isNaN(a) || Number.isNaN(b);
  const results: Record<string, boolean> = {
    false: false,
    true: true,
    ord: !uno,
    uno,
    oeq: !uno && a === b,
    one: !uno && a !== b,
    olt: !uno && a < b,
    ogt: !uno && a > b,
    ole: !uno && a <= b,
    oge: !uno && a >= b,
    ueq: uno || a === b,
    une: uno || a !== b,
    ult: uno || a < b,
    ugt: uno || a > b,
    ule: uno || a <= b,
    uge: uno || a >= b,
  };
  return { kind: 'bool', type: integerType(1), value: results[p]! };
}

function nullOf(t: Type): Constant {
  switch (t.kind) {
    case 'integer':
      return intConstant(t.bits, 0n);
    case 'float':
    case 'double':
      return { kind: 'fp', type: t, value: 0, bits: 0n };
    case 'pointer':
      return { kind: 'null', type: t };
    default:
      return { kind: 'zeroinitializer', type: t };
  }
}

function isConstantValue(v: Value): boolean {
  return v.kind !== 'argument' && v.kind !== 'block' && v.kind !== 'instruction';
}

function isPointerArithmetic(op: Opcode, c: ConstantExpr): boolean {
  const arith = op === 'add' || op === 'sub' || op === 'mul' || op === 'udiv' || op === 'sdiv' || op === 'urem' || op === 'srem';
  return arith && c.operands[0]!.type.kind === 'pointer';
}

/** The type a getelementptr steps into with one index (undefined past a scalar). */
function stepInto(t: Type | undefined, idx: Value): Type | undefined {
  if (t === undefined) return undefined;
  if (t.kind === 'struct') return idx.kind === 'int' ? t.elements[Number(idx.value)] : undefined;
  if (t.kind === 'pointer' || t.kind === 'array' || t.kind === 'packed') return t.element;
  return undefined;
}

/**
 * The module as llvm-dis-1.9 printed it, which is what llvm-upgrade read. LLVM 1.9's reader
 * renamed the unsuffixed 1.x intrinsics (`llvm.memcpy` → `.i32`, `llvm.isunordered` → `.f64`, …:
 * held/upgrade19.ts) with new declarations appended and the old ones left unnamed; this
 * conversion then continues from those names as llvm-upgrade did. Modules without such intrinsics
 * (or with pre-1.6 varargs instructions, refused below) are taken as they are.
 */
function readView19(m: Module): ModuleView {
  const plain = plainView(m);
  let old = false;
  for (const f of m.functions) {
    const name = f.name;
    if (name === undefined || !name.startsWith('llvm.')) continue;
    // LLVM 1.9's reader failed on the old debugger intrinsics that returned a chain (`{ }*`).
    if (name.startsWith('llvm.dbg.') && f.functionType.returnType.kind !== 'void')
      throw new ConversionError(`a ${name} of the old signature that returns a value`, "LLVM 1.9's reader failed on it");
    if (
      upgradedIntrinsic(name, f.functionType, {
        pointerTo: (t) => ({ kind: 'pointer', element: t }),
        functionType: (r, p) => ({ kind: 'function', returnType: r, params: p, isVarArg: false }),
      }) !== undefined
    )
      old = true;
  }
  if (!old || hasOldVarArgs(m)) return plain;
  return upgradeView19(m);
}

/** Whether a module older than version 6 holds a `vanext` or a pre-1.6 `vaarg` (refused later). */
function hasOldVarArgs(m: Module): boolean {
  const version = m.source?.bytecodeVersion;
  if (version !== undefined && version >= 6) return false;
  for (const f of m.functions)
    for (const b of f.blocks) for (const i of b.instructions) if (i.opcode === 'vanext' || (i.opcode === 'vaarg' && i.legacyVarArgs)) return true;
  return false;
}

/** How many i8* parameters LLVM 2.0's varargs intrinsics take (llvm-upgrade's header rule). */
const VARARGS_INTRINSIC_PARAMS: ReadonlyMap<string, number> = new Map([
  ['llvm.va_start', 1],
  ['llvm.va_end', 1],
  ['llvm.va_copy', 2],
]);

/** Intrinsics whose calls llvm-upgrade rewrote (upgradeIntrinsicCall). */
function isUpgradedIntrinsic(name: string): boolean {
  if (name === 'llvm.isunordered.f32' || name === 'llvm.isunordered.f64') return true;
  if (name.length === 14 && name.startsWith('llvm.bswap.i')) return true;
  if ((name.length <= 14 && name.startsWith('llvm.ctpop.i')) || (name.length <= 13 && (name.startsWith('llvm.ctlz.i') || name.startsWith('llvm.cttz.i'))))
    return true;
  return name === 'llvm.va_start' || name === 'llvm.va_end' || name === 'llvm.va_copy';
}

function describeNew(t: Type): string {
  return t.kind === 'integer' ? `i${t.bits}` : t.kind;
}

/** The data layout llvm-upgrade derived from `target endian`/`pointersize`. */
function dataLayoutOf(m: Module): string {
  const parts: string[] = [];
  if (m.endianness !== 'any') parts.push(m.endianness === 'big' ? 'E' : 'e');
  if (m.pointerSize !== 'any') parts.push(m.pointerSize === 64 ? 'p:64:64' : 'p:32:32');
  return parts.join('-');
}

/**
 * `llvm-dis-1.9 | llvm-upgrade | llvm-as` (r36867) as a graph transform: see the file comment.
 *
 * @category Read, write, convert
 */
export function convertToVersion7(m: Module): Module {
  if (m.source?.bytecodeVersion === 7 || m.dataLayout !== undefined) return m;
  return new Version7Converter(m).convert();
}

export type { GlobalAlias };
