/**
 * What LLVM 1.9's reader did to old files on purpose, as a print-time view (the graph stays as the
 * file has it, for the writer). Three rewrites, in LLVM's order:
 *
 * 1. Intrinsic renaming (AutoUpgrade): `llvm.isunordered` → `.f32`/`.f64`, `llvm.memcpy` /
 *    `memmove` / `memset` → `.i32`/`.i64`, `llvm.bswap`/`ctpop`/`ctlz`/`cttz`/`sqrt` → by type.
 *    The new declaration is appended to the module, the old one stays behind unnamed (printed
 *    `declare bool ""(double, double)`), and each call is rebuilt with casts where types differ.
 * 2. Pre-1.6 `vaarg`/`vanext` instructions, rewritten while reading into alloca / `llvm.va_copy`
 *    / store / `va_arg` (/ load) sequences.
 * 3. Old-style varargs intrinsics (`sbyte* %llvm.va_start()` …), rewritten after reading to the
 *    pointer-taking forms (ReaderWrappers' CheckVarargs), visiting calls newest first.
 *
 * New instructions get names through a model of LLVM's per-function symbol table: a name already
 * taken in the same type plane gets the table's running counter appended (`A` → `A1`).
 */
import type { Module } from '../graph/module.js';
import { isPrimitive, primitiveTypes as P, typesEqual, type FunctionType, type PointerType, type Type } from '../graph/type.js';
import type { BasicBlock, Constant, Function, Instruction, Value } from '../graph/value.js';
import { plainView, type ModuleView } from './view.js';
import { PlaneNames } from '../graph/symbol-names.js';
import { upgradedIntrinsic } from '../graph/intrinsic-upgrade.js';
import { functionDeclaration } from '../graph/declaration.js';
import { compactBodyOf, OPCODE_NUMBER, type CompactBody } from '../graph/compact-body.js';

/** Cheap test: does anything in the module need the upgrade? */
function needsUpgrade(module: Module): boolean {
  for (const f of module.functions) {
    const n = f.name;
    if (n !== undefined && n.startsWith('llvm.')) return true;
  }
  // Pre-1.6 varargs instructions exist only in files older than version 6.
  const version = module.source?.bytecodeVersion;
  if (version !== undefined && version >= 6) return false;
  for (const f of module.functions) {
    // A body still held compactly is searched as it is: building its objects only to look (as
    // `f.blocks` would) cost a batch of old files a good part of its time, and the printer then
    // walked the objects instead of the faster compact form.
    const compact = compactBodyOf(f);
    if (compact !== undefined) {
      if (hasOldVarArgs(compact)) return true;
      continue;
    }
    for (const b of f.blocks) {
      for (const i of b.instructions) if (i.opcode === 'vanext' || (i.opcode === 'vaarg' && i.legacyVarArgs)) return true;
    }
  }
  return false;
}

/** Whether a compact body holds a `vanext` or a pre-1.6 `vaarg` (see graph/compact-body.ts). */
function hasOldVarArgs(c: CompactBody): boolean {
  const data = c.data;
  for (let i = 0; i < c.instructionCount; i++) {
    const opcode = data[i]! & 63;
    if (opcode === OPCODE_NUMBER.vanext) return true;
    if (opcode === OPCODE_NUMBER.vaarg) {
      const at = c.extraAt.indexOf(i);
      if (at >= 0 && c.extras[at]!.legacyVarArgs) return true;
    }
  }
  return false;
}

export function upgradeView19(module: Module): ModuleView {
  if (!needsUpgrade(module)) return plainView(module);
  return new Upgrader(module).run();
}

class Upgrader {
  private readonly view: ModuleView;
  private readonly functions: Function[];
  private readonly names: Map<Value, string>;
  private readonly bodies: Map<BasicBlock, Instruction[]>;
  private readonly tables = new Map<Function, PlaneNames>();
  /** Which block each (view) instruction is in. */
  private readonly blockOf = new Map<Instruction, BasicBlock>();
  private readonly functionOf = new Map<BasicBlock, Function>();
  /** Values replaced (RAUW), applied to every operand at the end. */
  private readonly replaced = new Map<Value, Value>();
  /** Types made here, uniqued like LLVM's. */
  private readonly madeTypes: Type[] = [];

  constructor(private readonly module: Module) {
    this.view = plainView(module);
    this.functions = [...module.functions];
    this.names = this.view.names;
    this.bodies = this.view.bodies;
  }

  run(): ModuleView {
    const m = this.module;
    // 1. Intrinsic renaming, before any body is read.
    const upgraded = new Map<Function, Function>();
    for (const f of [...this.functions]) {
      const nf = this.upgradedIntrinsic(f);
      if (nf !== undefined) {
        upgraded.set(f, nf);
        this.names.set(f, '');
      }
    }
    // 2. Bodies as read: names, old varargs instructions, then calls to renamed intrinsics.
    for (const f of m.functions) {
      if (f.blocks.length === 0) continue;
      const table = new PlaneNames();
      this.tables.set(f, table);
      for (const b of f.blocks) {
        this.functionOf.set(b, f);
        const list: Instruction[] = [];
        for (const i of b.instructions) {
          if (i.opcode === 'vanext' || (i.opcode === 'vaarg' && i.legacyVarArgs)) this.oldVarArg(i, list, table);
          else list.push(i);
        }
        this.bodies.set(b, list);
        for (const i of list) this.blockOf.set(i, b);
      }
      for (const a of f.args) if (a.name) table.insert(a.type, a.name);
      for (const b of f.blocks) {
        if (b.name) table.insert(b.type, b.name);
        for (const i of b.instructions) {
          if (!i.name) continue;
          // A rewritten varargs instruction's name goes to the instruction that replaced it.
          const target = this.names.get(i) === '' ? this.replaced.get(i) : i;
          const given = table.insert(i.type, i.name);
          if (target !== undefined && target !== i && target.kind === 'instruction') target.name = given;
        }
      }
      if (upgraded.size > 0) {
        for (const b of f.blocks) {
          for (const i of [...this.bodies.get(b)!]) {
            const callee = i.opcode === 'call' ? i.operands[0] : undefined;
            const nf = callee !== undefined && callee.kind === 'function' ? upgraded.get(callee) : undefined;
            if (nf !== undefined) this.upgradeCall(i, callee as Function, nf);
          }
        }
      }
    }
    // 3. Old-style varargs intrinsics.
    this.checkVarargs();
    // Most modules that merely use current intrinsics need nothing: print them as they are.
    if (this.replaced.size === 0 && this.names.size === 0 && this.functions.length === m.functions.length) return plainView(m);
    this.applyReplacements();
    return { module: m, globals: m.globals, functions: this.functions, names: this.names, bodies: this.bodies };
  }

  // ---- names and types ---------------------------------------------------------------------

  private nameOf(v: Value): string | undefined {
    const o = this.names.get(v);
    const n = o !== undefined ? o : 'name' in v ? v.name : undefined;
    return n === '' ? undefined : n;
  }

  /** The module's own type equal to `t`, so that identity (slot planes) matches LLVM's uniquing. */
  private intern<T extends Type>(t: T): T {
    if (isPrimitive(t)) return t;
    for (const u of this.module.types) if (typesEqual(u, t)) return u as T;
    for (const u of this.madeTypes) if (typesEqual(u, t)) return u as T;
    this.madeTypes.push(t);
    return t;
  }

  private pointerTo(t: Type): PointerType {
    return this.intern({ kind: 'pointer', element: t });
  }

  private functionType(ret: Type, params: Type[]): FunctionType {
    return this.intern({ kind: 'function', returnType: ret, params, isVarArg: false });
  }

  /** Module::getOrInsertFunction: same name and type, or a new declaration appended. */
  private getOrInsertFunction(name: string, ft: FunctionType): Function {
    const ptr = this.pointerTo(ft);
    for (const f of this.functions) if (f.type === ptr && this.nameOf(f) === name) return f;
    const nf = functionDeclaration(ft, ptr, name);
    this.functions.push(nf);
    return nf;
  }

  /** Module::getNamedFunction: a definition of that name, else the last declaration. */
  private getNamedFunction(name: string): Function | undefined {
    let found: Function | undefined;
    for (const f of this.functions) {
      if (this.nameOf(f) !== name) continue;
      if (f.blocks.length > 0) return f;
      found = f;
    }
    return found;
  }

  // ---- 1. AutoUpgrade ----------------------------------------------------------------------

  private upgradedIntrinsic(f: Function): Function | undefined {
    const name = this.nameOf(f);
    const upgrade =
      name === undefined
        ? undefined
        : upgradedIntrinsic(name, f.functionType, { pointerTo: (t) => this.pointerTo(t), functionType: (r, p) => this.functionType(r, p) });
    return upgrade === undefined ? undefined : this.getOrInsertFunction(upgrade.name, upgrade.type);
  }

  /** UpgradeIntrinsicCall: a new call before the old one (casts where types differ), old erased. */
  private upgradeCall(ci: Instruction, f: Function, nf: Function): void {
    const fn = this.functionOf.get(this.blockOf.get(ci)!)!;
    const table = this.tables.get(fn)!;
    const nft = nf.functionType;
    const args: Value[] = [];
    for (let k = 0; k < nft.params.length; k++) {
      let v = ci.operands[k + 1]!;
      const t = nft.params[k]!;
      if (v.type !== t) {
        if (isConstant(v)) v = { kind: 'expr', opcode: 'cast', type: t, operands: [v] };
        else v = this.insertBefore(ci, { kind: 'instruction', opcode: 'cast', type: t, operands: [v] }, 'autoupgrade_cast');
      }
      args.push(v);
    }
    const newIsVoid = nft.returnType.kind === 'void';
    const call: Instruction = { kind: 'instruction', opcode: 'call', type: nft.returnType, operands: [nf, ...args] };
    if (ci.callingConv !== undefined) call.callingConv = ci.callingConv;
    if (ci.isTailCall) call.isTailCall = true;
    const ciName = this.nameOf(ci);
    this.insertBefore(ci, call, newIsVoid ? undefined : ciName);
    if (!newIsVoid) {
      let result: Value = call;
      if (f.functionType.returnType !== nft.returnType) {
        result = this.insertBefore(ci, { kind: 'instruction', opcode: 'cast', type: f.functionType.returnType, operands: [call] }, this.nameOf(call));
      }
      this.replaced.set(ci, result);
    } else {
      this.replaced.set(ci, { kind: 'undef', type: ci.type });
    }
    this.erase(ci, table);
  }

  // ---- 2. pre-1.6 vaarg / vanext -----------------------------------------------------------

  private oldVarArg(i: Instruction, list: Instruction[], table: PlaneNames): void {
    const valist = i.operands[0]!;
    const argTy = valist.type;
    const nf = this.getOrInsertFunction('llvm.va_copy', this.functionType(argTy, [argTy]));
    const ptr = this.pointerTo(argTy);
    const isNext = i.opcode === 'vanext';
    const foo: Instruction = { kind: 'instruction', opcode: 'alloca', type: ptr, operands: [uintOne()], allocatedType: argTy };
    this.nameNew(foo, isNext ? 'vanext.fix' : 'vaarg.fix', table);
    const bar: Instruction = { kind: 'instruction', opcode: 'call', type: argTy, operands: [nf, valist], callingConv: 0 };
    const store: Instruction = { kind: 'instruction', opcode: 'store', type: P.void, operands: [bar, foo] };
    list.push(foo, bar, store);
    let result: Instruction;
    if (isNext) {
      list.push({ kind: 'instruction', opcode: 'vaarg', type: i.argType ?? argTy, operands: [foo] });
      result = { kind: 'instruction', opcode: 'load', type: argTy, operands: [foo] };
    } else {
      result = { kind: 'instruction', opcode: 'vaarg', type: i.type, operands: [foo] };
    }
    list.push(result);
    // The file's name goes to `result` when names are given out (the symbol table comes after
    // the instructions in the file); `i` itself is gone.
    this.names.set(i, '');
    this.replaced.set(i, result);
  }

  // ---- 3. CheckVarargs ---------------------------------------------------------------------

  private checkVarargs(): void {
    const vaStart = this.getNamedFunction('llvm.va_start');
    if (vaStart === undefined || vaStart.functionType.params.length === 1) return;
    if (vaStart.functionType.params.length === 0) {
      const argTy = vaStart.functionType.returnType;
      const nf = this.getOrInsertFunction('llvm.va_start', this.functionType(P.void, [this.pointerTo(argTy)]));
      for (const ci of this.callsTo(vaStart)) {
        const bar = this.insertBefore(ci, this.alloca(argTy), 'vastart.fix.1');
        this.insertBefore(ci, { kind: 'instruction', opcode: 'call', type: P.void, operands: [nf, bar], callingConv: 0 }, undefined);
        const foo = this.insertBefore(ci, { kind: 'instruction', opcode: 'load', type: argTy, operands: [bar] }, 'vastart.fix.2');
        this.replaced.set(ci, foo);
        this.erase(ci);
      }
      this.names.set(vaStart, '');
    }
    const vaEnd = this.getNamedFunction('llvm.va_end');
    if (vaEnd !== undefined && vaEnd.functionType.params.length === 1) {
      const argTy = vaEnd.functionType.params[0]!;
      const nf = this.getOrInsertFunction('llvm.va_end', this.functionType(P.void, [this.pointerTo(argTy)]));
      for (const ci of this.callsTo(vaEnd)) {
        const bar = this.insertBefore(ci, this.alloca(argTy), 'vaend.fix.1');
        this.insertBefore(ci, { kind: 'instruction', opcode: 'store', type: P.void, operands: [ci.operands[1]!, bar] }, undefined);
        this.insertBefore(ci, { kind: 'instruction', opcode: 'call', type: P.void, operands: [nf, bar], callingConv: 0 }, undefined);
        this.erase(ci);
      }
      this.names.set(vaEnd, '');
    }
    const vaCopy = this.getNamedFunction('llvm.va_copy');
    if (vaCopy !== undefined && vaCopy.functionType.params.length === 1) {
      const argTy = vaCopy.functionType.returnType;
      const ptr = this.pointerTo(argTy);
      const nf = this.getOrInsertFunction('llvm.va_copy', this.functionType(P.void, [ptr, ptr]));
      for (const ci of this.callsTo(vaCopy)) {
        const a = this.insertBefore(ci, this.alloca(argTy), 'vacopy.fix.1');
        const b = this.insertBefore(ci, this.alloca(argTy), 'vacopy.fix.2');
        this.insertBefore(ci, { kind: 'instruction', opcode: 'store', type: P.void, operands: [ci.operands[1]!, b] }, undefined);
        this.insertBefore(ci, { kind: 'instruction', opcode: 'call', type: P.void, operands: [nf, a, b], callingConv: 0 }, undefined);
        const foo = this.insertBefore(ci, { kind: 'instruction', opcode: 'load', type: argTy, operands: [a] }, 'vacopy.fix.3');
        this.replaced.set(ci, foo);
        this.erase(ci);
      }
      this.names.set(vaCopy, '');
    }
  }

  private alloca(t: Type): Instruction {
    return { kind: 'instruction', opcode: 'alloca', type: this.pointerTo(t), operands: [uintOne()], allocatedType: t };
  }

  /**
   * Calls using `f`, newest use first (LLVM's use-list order): calls were made in reading order,
   * function by function, and the view's own calls after the ones they replaced.
   */
  private callsTo(f: Function): Instruction[] {
    const calls: Instruction[] = [];
    for (const fn of this.functions) {
      for (const b of fn.blocks) {
        for (const i of this.bodies.get(b) ?? b.instructions) {
          if (i.opcode === 'call' && i.operands.some((o) => o === f)) calls.push(i);
        }
      }
    }
    return calls.reverse();
  }

  // ---- instruction lists -------------------------------------------------------------------

  private nameNew(i: Instruction, name: string, table: PlaneNames): void {
    i.name = table.insert(i.type, name);
  }

  /** Inserts `i` before `at` in its block, naming it (uniquely) when `name` is given. */
  private insertBefore(at: Instruction, i: Instruction, name: string | undefined): Instruction {
    const b = this.blockOf.get(at)!;
    const list = this.bodies.get(b)!;
    list.splice(list.indexOf(at), 0, i);
    this.blockOf.set(i, b);
    if (name !== undefined && i.type.kind !== 'void') this.nameNew(i, name, this.tables.get(this.functionOf.get(b)!)!);
    return i;
  }

  private erase(i: Instruction, table?: PlaneNames): void {
    const b = this.blockOf.get(i)!;
    const list = this.bodies.get(b)!;
    list.splice(list.indexOf(i), 1);
    this.blockOf.delete(i);
    const name = this.nameOf(i);
    if (name !== undefined) (table ?? this.tables.get(this.functionOf.get(b)!)!).remove(i.type, name);
  }

  /**
   * Points every operand at the value that replaced it (chains followed). Instructions are
   * copied rather than changed (the graph is shared), so every instruction of the bodies is
   * copied and operands are mapped to the copies, keeping identities consistent.
   */
  private applyReplacements(): void {
    if (this.replaced.size === 0) return;
    const resolve = (v: Value): Value => {
      let r = v;
      for (let n = 0; n < 1000; n++) {
        const next = this.replaced.get(r);
        if (next === undefined) return r;
        r = next;
      }
      return r;
    };
    const copies = new Map<Value, Instruction>();
    for (const list of this.bodies.values()) {
      for (let k = 0; k < list.length; k++) {
        const i = list[k]!;
        const copy: Instruction = { ...i };
        const override = this.names.get(i);
        if (override !== undefined) this.names.set(copy, override);
        copies.set(i, copy);
        list[k] = copy;
      }
    }
    for (const list of this.bodies.values()) {
      for (const copy of list) {
        copy.operands = copy.operands.map((o) => {
          const r = resolve(o);
          return copies.get(r) ?? r;
        });
      }
    }
  }
}

function isConstant(v: Value): v is Constant {
  return v.kind !== 'argument' && v.kind !== 'block' && v.kind !== 'instruction';
}

function uintOne(): Constant {
  return { kind: 'int', type: P.uint, value: 1n };
}
