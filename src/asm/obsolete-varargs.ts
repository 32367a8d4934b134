/**
 * Pre-1.6 variable arguments in 1.6+ text, rewritten as LLVM 1.6–1.9's `llvm-as` rewrote them.
 *
 * Until LLVM 1.5 a `va_list` was a value: `%ap = call sbyte* %llvm.va_start()`, `vaarg %ap, T`,
 * `vanext %ap, T`, `%aq = call sbyte* %llvm.va_copy(sbyte* %ap)`, `call void %llvm.va_end(sbyte* %ap)`.
 * LLVM 1.6 made it memory (`va_start(sbyte**)`, `va_arg sbyte** %p, T`), and its parser kept
 * taking the old text, in two steps:
 *
 * 1. While parsing (the builder, `FunctionBodyBuilder.expandObsoleteVarArg`): `vaarg %ap, T`
 *    became an alloca `vaarg.fix`, a call of the old one-argument `llvm.va_copy` (made if
 *    missing), a store and a `va_arg`; `vanext` the same with a load of the copy after the
 *    `va_arg` (`vanext.fix`).
 * 2. After parsing (`rewriteObsoleteVarArgs`, here): every call of the old `llvm.va_start`,
 *    `llvm.va_end` and `llvm.va_copy` became allocas, stores, loads and a call of the new
 *    intrinsic (names `vastart.fix.1`, `vaend.fix.1`, `vacopy.fix.1` …), and the old declarations
 *    were deleted; the new ones come last in the module.
 *
 * Bytes depend on the details, so they are LLVM's: the names a function's symbol table made
 * unique by appending its own running counter (`vaend.fix.11`, `vacopy.fix.26`), and the order
 * in which an old function's calls were rewritten — LLVM took the last of its use list first, and
 * the calls written in the text (whose callee the parser resolved only at the end, through a
 * placeholder) came after the calls the parser made itself. So: text calls from last to first,
 * then the parser's own from last to first. A use that is not a call's callee made LLVM's
 * parser crash; it is refused here. Checked against LLVM 1.9's `llvm-as` (test/asm).
 */
import type { FunctionType, PointerType, Type } from '../graph/type.js';
import { primitiveTypes } from '../graph/type.js';
import type { Module } from '../graph/module.js';
import type { BasicBlock, Function, Instruction, Value } from '../graph/value.js';
import type { PlaneNames } from '../graph/symbol-names.js';
import { BlockEdits } from './block-edits.js';
import type { FunctionSymbolTables } from './function-symbols.js';

/** What the passes LLVM ran after parsing (this one, intrinsic-upgrade.ts) need from the module builder. */
export interface AfterParsingHost {
  readonly module: Module;
  pointerTo(t: Type): PointerType;
  functionType(returnType: Type, params: readonly Type[], isVarArg: boolean): FunctionType;
  /** LLVM's `StructType::get`. */
  structType(elements: readonly Type[]): Type;
  /** LLVM's `Module::getOrInsertFunction`: that name in that type's plane, or a new declaration at the end. */
  getOrInsertFunction(name: string, type: FunctionType): Function;
  /** Deletes a function (its declaration) from the module and its symbol table. */
  eraseFunction(fn: Function): void;
  /** Throws the assembler's error for the whole text (the rewrite has no one place in it). */
  fail(message: string): never;
}

/** What parsing recorded for the rewrite. */
export interface VarArgsState {
  /** A `vaarg`/`vanext` instruction of the old kind was parsed (LLVM's `ObsoleteVarArgs`). */
  sawObsolete: boolean;
  /** A `va_arg` instruction was parsed (LLVM's `NewVarArgs`). */
  sawNew: boolean;
  /** The calls of `llvm.va_copy` the parser made itself, in the order it made them. */
  readonly parserCalls: Instruction[];
  /** Each function's symbol-table counter after parsing (LLVM's `SymbolTable::LastUnique`). */
  readonly lastUnique: Map<Function, number>;
}

export function newVarArgsState(): VarArgsState {
  return { sawObsolete: false, sawNew: false, parserCalls: [], lastUnique: new Map() };
}

/** LLVM's `Module::getNamedFunction`: the first defined function of that name, else the last declared one. */
function namedFunction(module: Module, name: string): Function | undefined {
  let found: Function | undefined;
  for (const fn of module.functions) {
    if (fn.name !== name) continue;
    if (!fn.isDeclaration) return fn;
    found = fn;
  }
  return found;
}

/** Runs LLVM's after-parse step (file comment, step 2) on a module built from 1.6+ text. */
export function rewriteObsoleteVarArgs(host: AfterParsingHost, state: VarArgsState, tables: FunctionSymbolTables): void {
  const m = host.module;
  let obsolete = state.sawObsolete;
  const start = namedFunction(m, 'llvm.va_start');
  if (start !== undefined && start.functionType.params.length === 0) obsolete = true;
  const copy = namedFunction(m, 'llvm.va_copy');
  if (copy !== undefined && copy.functionType.params.length === 1) obsolete = true;
  if (!obsolete) return;
  if (state.sawNew)
    host.fail(
      'this text uses both the old (before LLVM 1.6) and the new variable-argument instructions (vaarg/vanext and va_arg), which LLVM refused as corrupt',
    );

  const rewriter = new Rewriter(host, state, tables);
  const oldStart = namedFunction(m, 'llvm.va_start');
  if (oldStart !== undefined) {
    if (oldStart.functionType.params.length !== 0) host.fail(`the old llvm.va_start takes no argument, but this one is ${describeParams(oldStart)}`);
    const argType = oldStart.functionType.returnType;
    const newStart = host.getOrInsertFunction('llvm.va_start', host.functionType(primitiveTypes.void, [vaListPointer(host, oldStart, argType)], false));
    rewriter.eachCall(oldStart, (call, at) => {
      // %x = va_start() → bar = alloca T; va_start(bar); %x = load bar
      const bar = at.insert(rewriter.alloca(argType, 'vastart.fix.1', at.fn));
      at.insert(rewriter.call(newStart, [bar]));
      const loaded = at.insert(rewriter.load(bar, 'vastart.fix.2', at.fn));
      rewriter.replaceAllUses(call, loaded);
    });
    host.eraseFunction(oldStart);
  }
  const oldEnd = namedFunction(m, 'llvm.va_end');
  if (oldEnd !== undefined) {
    if (oldEnd.functionType.params.length !== 1) host.fail(`the old llvm.va_end takes one argument, but this one is ${describeParams(oldEnd)}`);
    const argType = oldEnd.functionType.params[0]!;
    const newEnd = host.getOrInsertFunction('llvm.va_end', host.functionType(primitiveTypes.void, [vaListPointer(host, oldEnd, argType)], false));
    rewriter.eachCall(oldEnd, (call, at) => {
      // va_end(%x) → bar = alloca T; store %x, bar; va_end(bar)
      const bar = at.insert(rewriter.alloca(argType, 'vaend.fix.1', at.fn));
      at.insert(rewriter.store(rewriter.current(call.operands[1]!), bar));
      at.insert(rewriter.call(newEnd, [bar]));
    });
    host.eraseFunction(oldEnd);
  }
  const oldCopy = namedFunction(m, 'llvm.va_copy');
  if (oldCopy !== undefined) {
    if (oldCopy.functionType.params.length !== 1) host.fail(`the old llvm.va_copy takes one argument, but this one is ${describeParams(oldCopy)}`);
    const argType = oldCopy.functionType.returnType;
    const pointer = vaListPointer(host, oldCopy, argType);
    const newCopy = host.getOrInsertFunction('llvm.va_copy', host.functionType(primitiveTypes.void, [pointer, pointer], false));
    rewriter.eachCall(oldCopy, (call, at) => {
      // %y = va_copy(%x) → a = alloca T; b = alloca T; store %x, b; va_copy(a, b); %y = load a
      const a = at.insert(rewriter.alloca(argType, 'vacopy.fix.1', at.fn));
      const b = at.insert(rewriter.alloca(argType, 'vacopy.fix.2', at.fn));
      at.insert(rewriter.store(rewriter.current(call.operands[1]!), b));
      at.insert(rewriter.call(newCopy, [a, b]));
      const loaded = at.insert(rewriter.load(a, 'vacopy.fix.3', at.fn));
      rewriter.replaceAllUses(call, loaded);
    });
    host.eraseFunction(oldCopy);
  }
}

/**
 * The pointer to an old intrinsic's `va_list` type that its new form takes. LLVM made it before
 * looking at any call, and `PointerType::get` asserted on `void` and `label` (a crash, even with
 * no call at all), so such a list type is refused.
 */
function vaListPointer(host: AfterParsingHost, old: Function, listType: Type): PointerType {
  if (listType.kind === 'void' || listType.kind === 'label') {
    host.fail(
      `the old ${old.name ?? 'intrinsic'} has a va_list of type ${listType.kind}, which nothing can point to (LLVM's rewrite of pre-1.6 variable arguments crashed on it)`,
    );
  }
  return host.pointerTo(listType);
}

function describeParams(fn: Function): string {
  const n = fn.functionType.params.length;
  return `declared with ${n} argument${n === 1 ? '' : 's'}`;
}

/** Where one call sits: new instructions go before it. */
interface CallSite {
  readonly fn: Function;
  insert<T extends Instruction>(inst: T): T;
}

class Rewriter {
  private readonly parserMade: ReadonlySet<Instruction>;
  /** One callee's rewrite, made at the end of `eachCall` (block-edits.ts says why). */
  private readonly edits = new BlockEdits();

  constructor(
    private readonly host: AfterParsingHost,
    state: VarArgsState,
    private readonly tables: FunctionSymbolTables,
  ) {
    this.parserMade = new Set(state.parserCalls);
  }

  private symbolsOf(fn: Function): PlaneNames {
    return this.tables.of(fn);
  }

  /**
   * Runs `rewrite` for every call of `callee`, in LLVM's order (file comment), then deletes the
   * call. Any other use of `callee` is refused: LLVM's parser crashed on it.
   */
  eachCall(callee: Function, rewrite: (call: Instruction, at: CallSite) => void): void {
    const written: { call: Instruction; fn: Function; block: BasicBlock }[] = [];
    const made: { call: Instruction; fn: Function; block: BasicBlock }[] = [];
    for (const fn of this.host.module.functions) {
      for (const block of fn.blocks) {
        for (const inst of block.instructions) {
          const uses = inst.operands.filter((o) => o === callee).length;
          if (uses === 0) continue;
          if (inst.opcode !== 'call' || inst.operands[0] !== callee || uses !== 1) {
            this.host.fail(
              `the old ${callee.name ?? 'intrinsic'} is used other than as the function a call calls (in %${fn.name ?? ''}), which LLVM's rewrite of pre-1.6 variable arguments could not handle`,
            );
          }
          (this.parserMade.has(inst) ? made : written).push({ call: inst, fn, block });
        }
      }
    }
    this.refuseOtherUses(callee);
    const order = [...written.reverse(), ...made.reverse()];
    for (const { call, fn, block } of order) {
      const symbols = this.symbolsOf(fn);
      const at: CallSite = {
        fn,
        insert: (inst) => {
          this.edits.insertBefore(block, call, inst);
          return inst;
        },
      };
      rewrite(call, at);
      this.edits.remove(block, call);
      if (call.name !== undefined) symbols.remove(call.type, call.name);
    }
    this.edits.apply(this.host.module);
  }

  /** Uses outside function bodies (a global's initializer) crashed LLVM's rewrite too. */
  private refuseOtherUses(callee: Function): void {
    const seen = new Set<unknown>();
    const visit = (v: unknown): boolean => {
      if (v === callee) return true;
      if (typeof v !== 'object' || v === null || seen.has(v)) return false;
      seen.add(v);
      const c = v as { kind?: string; operands?: unknown[]; elements?: unknown[] };
      if (c.kind === 'expr' && c.operands) return c.operands.some(visit);
      if (c.elements) return c.elements.some(visit);
      return false;
    };
    for (const g of this.host.module.globals) {
      if (g.initializer !== undefined && visit(g.initializer))
        this.host.fail(
          `the old ${callee.name ?? 'intrinsic'} is used in the initializer of %${g.name ?? ''}, which LLVM's rewrite of pre-1.6 variable arguments could not handle`,
        );
    }
  }

  alloca(type: Type, name: string, fn: Function): Instruction {
    const inst: Instruction = {
      kind: 'instruction',
      opcode: 'alloca',
      type: this.host.pointerTo(type),
      operands: [{ kind: 'int', type: primitiveTypes.uint, value: 1n }],
      allocatedType: type,
      alignment: 0,
    };
    inst.name = this.symbolsOf(fn).insert(inst.type, name);
    return inst;
  }

  load(pointer: Instruction, name: string, fn: Function): Instruction {
    const inst: Instruction = { kind: 'instruction', opcode: 'load', type: (pointer.type as PointerType).element, operands: [pointer] };
    inst.name = this.symbolsOf(fn).insert(inst.type, name);
    return inst;
  }

  store(value: Value, pointer: Value): Instruction {
    return { kind: 'instruction', opcode: 'store', type: primitiveTypes.void, operands: [value, pointer] };
  }

  call(callee: Function, args: Value[]): Instruction {
    return { kind: 'instruction', opcode: 'call', type: callee.functionType.returnType, operands: [callee, ...args], callingConv: 0, isTailCall: false };
  }

  /** What `v` stands for now (`BlockEdits.current`). */
  current(v: Value): Value {
    return this.edits.current(v);
  }

  /** Every operand that is `from` becomes `to`, in the function bodies of the module (at the end of `eachCall`). */
  replaceAllUses(from: Instruction, to: Value): void {
    this.edits.replaceAllUses(from, to);
  }
}
