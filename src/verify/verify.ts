/**
 * The module verifier: says what is wrong with a module graph (most usefully one built in code)
 * before the writer turns it into bytes no LLVM reader would accept.
 *
 * Whose rules is a row of the version table (rules.ts): LLVM 1.x's for versions 0–6, r36867's
 * (LLVM 2.0's development trunk) for version 7. The checks are shared; what differs is a field
 * of the row. Beside this file: the casts (casts.ts), the intrinsics (intrinsics.ts) and the
 * module-level rules (module-rules.ts) of r36867; the verdicts kept on compact bodies
 * (verdicts.ts); what the two paths over a body share (compact.ts). docs/verifier.md lists every
 * rule with the release that checked it.
 *
 * It checks what LLVM 1.x's own verifier and bytecode reader relied on: operand counts and types
 * of every instruction and constant, that every block ends in exactly one terminator with phis
 * first, that every value used is defined in the module (globals, constants) or in the function
 * using it, and that every use of an instruction is dominated by its definition (phi uses at the
 * end of the incoming block). Each problem is one sentence naming the place (`@f, block %bb (#2),
 * instruction #5 (add)`) and what is wrong.
 *
 * Cost: linear in the module's size, plus the dominator computation (Cooper–Harvey–Kennedy over
 * reverse postorder: a few linear passes in practice) and O(1) dominance queries (pre/post order
 * numbers of the dominator tree). Types are compared by identity first and structurally only
 * when identity fails.
 *
 * A body read from a file and never touched since is still in compact form (`compactBodyOf`),
 * which cannot change: any access to `fn.blocks` or `fn.layout` turns it into objects and drops
 * it. Such a body is checked once, where it lies (`compactBodyValid`: value codes instead of a map
 * from objects to numbers, nothing built per instruction); only a body that fails there is checked
 * again over objects built for the check and dropped after it, for the messages. A clean verdict
 * is kept with the body (`VERDICTS`) together with what the check relied on outside
 * it: the function's type, its arguments, and the type (and for an integer its value) of every
 * value the body names that is not one of its own. Later checks of that body (the next write of
 * the same module) compare those facts, and check the constants it names and that the globals
 * and functions it names are still in the module: linear in the number of distinct values, not
 * in the body's size. Anything that differs, or a body that had problems, is checked again in
 * full. (Types are taken as immutable, as everywhere in the graph.)
 */
import { InvalidModuleError } from './invalid-module-error.js';
import { castProblem } from './casts.js';
import { constantExpressionProblem, indexedType } from './constant-expressions.js';
import { intrinsicCallProblem, isIntrinsicName } from './intrinsics.js';
import { aliasProblems, globalValueProblems, moduleFunctionTypes, paramAttributeProblems, signatureProblems } from './module-rules.js';
import { rulesForModule, rulesForVersion, type VerifierRules } from './rules.js';

export { InvalidModuleError };
import { describeType } from '../graph/describe.js';
import { ControlFlow, Dominators } from '../graph/dominators.js';
import { isTerminatorOpcode } from '../graph/opcodes.js';
import type { Module } from '../graph/module.js';
import { integerRange, integerType, isFloatingPoint, primitiveTypes, sameType, type FunctionType, type Type } from '../graph/type.js';
import { FLOAT_PREDICATES, INT_PREDICATES, isCastOpcode, type BasicBlock, type Constant, type Function, type Instruction, type Value } from '../graph/value.js';
import { compactBodyOf, OPCODE_NUMBER, OPCODES, TAG_BLOCK, TAG_INSTRUCTION, TAG_VALUE, type CompactBody } from '../graph/compact-body.js';
import { sameConstant } from '../graph/same-constant.js';
import {
  addCompactSuccessors,
  addSuccessors,
  ARG,
  blockCode,
  blockOfCode,
  COMPACT_BLOCK,
  compactShapeValid,
  isBlockCode,
  isTerminatorNumber,
  operandArray,
} from './compact.js';
import { namesOthers, transientFunction, VERDICTS, verdictFor } from './verdicts.js';

/** @category Read, write, convert */
export interface VerifyOptions {
  /** Stop after this many problems (default 100). */
  maxProblems?: number;
  /**
   * Whose rules: a bytecode version (0–6: LLVM 1.x's; 7: r36867's, LLVM 2.0's development
   * trunk; see rules.ts). Default: 7 for a module that is a version-7 one (read from such a file,
   * with a data layout or aliases, or version-7 types in its signatures), else 6.
   */
  bytecodeVersion?: number;
}

/**
 * Every problem found in `module` (empty when it is valid).
 *
 * @category Read, write, convert
 */
export function verifyModule(module: Module, options: VerifyOptions = {}): string[] {
  const rules = options.bytecodeVersion !== undefined ? rulesForVersion(options.bytecodeVersion) : rulesForModule(module);
  const v = new Verifier(module, options.maxProblems ?? 100, rules);
  try {
    v.run();
  } catch (e) {
    if (e !== STOP) throw e;
  }
  return v.problems;
}

/** Throws `InvalidModuleError` when `verifyModule` finds anything (under the rules of `bytecodeVersion`, when given). */
export function assertValidModule(module: Module, bytecodeVersion?: number): void {
  const problems = verifyModule(module, bytecodeVersion !== undefined ? { bytecodeVersion } : {});
  if (problems.length !== 0) throw new InvalidModuleError(problems);
}

const STOP = Symbol('enough problems');

/** The opcodes that end a block (graph/opcodes.ts). */
const isTerminator = isTerminatorOpcode;

/** The value range of each integer type, computed once (`integerRange` builds bigints per call). */
const INT_RANGES = new Map<string, readonly [bigint, bigint]>(
  (['ubyte', 'sbyte', 'ushort', 'short', 'uint', 'int', 'ulong', 'long'] as const).map((k) => [k, integerRange(primitiveTypes[k])]),
);

class Verifier {
  readonly problems: string[] = [];
  private readonly moduleValues = new Set<Value>();
  private readonly checkedConstants = new Set<Value>();
  // The place being checked (messages are built only when something is wrong).
  private fn!: Function;
  private bb!: BasicBlock;
  private bi = 0;
  private ii = 0;
  private inst!: Instruction;
  private locals!: Map<Value, number>;
  private instBlock!: Int32Array;
  /** The current function's control flow (built when dominators or a phi need it). */
  private cfg: ControlFlow | undefined;
  /** Scratch counts for comparing a phi's incoming blocks with its block's predecessors (all 0 between uses). */
  private phiBalance: Int32Array | undefined;
  /** The current function's number of blocks. */
  private blockCount = 0;
  /**
   * While a compact body is checked in place (`compactBodyValid`): the body, and where the current
   * instruction's operand codes start in its `data`.
   */
  private compact: CompactBody | undefined;
  private opBase = 0;

  private blockHere(): string {
    const bb = this.bb;
    return `function @${this.fn.name ?? '(unnamed)'}, block ${bb.name ? `%${bb.name}` : '(unnamed)'} (#${this.bi})`;
  }

  private here(): string {
    const inst = this.inst;
    return `${this.blockHere()}, instruction #${this.ii} (${inst.opcode}${inst.name ? ` %${inst.name}` : ''})`;
  }

  constructor(
    private readonly m: Module,
    private readonly max: number,
    private readonly rules: VerifierRules,
  ) {}

  private report(message: string): void {
    if (this.quiet !== undefined) {
      this.quiet.failed = true;
      return;
    }
    this.problems.push(message);
    if (this.problems.length >= this.max) throw STOP;
  }

  run(): void {
    const m = this.m;
    for (const g of m.globals) this.moduleValues.add(g);
    for (const f of m.functions) this.moduleValues.add(f);
    for (const a of m.aliases ?? []) this.moduleValues.add(a);
    if (this.rules.signatureRules) this.checkModuleRules();

    for (const g of m.globals) {
      const where = `global ${g.name ? `@${g.name}` : '(unnamed)'}`;
      if (g.type.kind !== 'pointer' || !sameType(g.type.element, g.valueType)) {
        this.report(`${where}: its type ${describeType(g.type)} is not a pointer to its value type ${describeType(g.valueType)}`);
      }
      if (g.initializer !== undefined) {
        if (!sameType(g.initializer.type, g.valueType)) {
          this.report(`${where}: initializer of type ${describeType(g.initializer.type)}, expected ${describeType(g.valueType)}`);
        }
        this.checkConstant(g.initializer, where);
      } else if (g.linkage !== 'external' && g.linkage !== 'dllimport' && g.linkage !== 'extern_weak') {
        this.report(`${where}: a declaration (no initializer) must have external, dllimport or extern_weak linkage, not ${g.linkage}`);
      }
    }
    for (const f of m.functions) {
      const body = compactBodyOf(f);
      if (body === undefined) {
        this.checkFunction(f);
        continue;
      }
      if (this.verdictHolds(f, body)) continue;
      if (this.compactBodyValid(f, body)) {
        VERDICTS.set(body, verdictFor(f, body, this.rules));
        continue;
      }
      const before = this.problems.length;
      this.checkFunction(transientFunction(f, body));
      if (this.problems.length === before) VERDICTS.set(body, verdictFor(f, body, this.rules));
    }
  }

  /** r36867's rules on global values, aliases and signatures (module-rules.ts). */
  private checkModuleRules(): void {
    const m = this.m;
    const name = (v: { name?: string }): string => (v.name ? `@${v.name}` : '(unnamed)');
    for (const g of m.globals) for (const p of globalValueProblems(g)) this.report(`global ${name(g)}: ${p}`);
    for (const f of m.functions) {
      for (const p of globalValueProblems(f)) this.report(`function ${name(f)}: ${p}`);
      for (const p of signatureProblems(f)) this.report(`function ${name(f)}: ${p}`);
    }
    for (const ft of moduleFunctionTypes(m)) for (const p of paramAttributeProblems(ft)) this.report(`function type ${describeType(ft)}: ${p}`);
    for (const a of m.aliases ?? []) {
      const where = `alias ${name(a)}`;
      for (const p of aliasProblems(a, (v) => this.moduleValues.has(v))) this.report(`${where}: ${p}`);
      this.checkConstant(a.aliasee, where);
    }
  }

  // ---- bodies checked before -------------------------------------------------------------------

  /** While set, `report` only notes that something is wrong (see `verdictHolds`). */
  private quiet: { failed: boolean; checked: Value[] } | undefined;

  /**
   * Whether a clean verdict on `body` still holds for `f`: the facts it relied on are the same, the
   * globals and functions it names are in the module, and the constants it names are valid. Checks
   * quietly: when anything is wrong, the caller checks the body in full, which says what.
   */
  private verdictHolds(f: Function, body: CompactBody): boolean {
    const v = VERDICTS.get(body);
    if (v === undefined || v.rules !== this.rules || f.type !== v.type || f.functionType !== v.functionType || f.isDeclaration || body.blockCount === 0)
      return false;
    const args = f.args;
    if (args.length !== v.args.length) return false;
    for (let i = 0; i < args.length; i++) if (args[i] !== v.args[i] || args[i]!.type !== v.argTypes[i]) return false;
    const values = body.values;
    let named = 0;
    for (let i = 0; i < values.length; i++) {
      const x = values[i]!;
      if (x.type !== v.valueTypes[i] || x.kind !== v.valueKinds[i]) return false;
      if (x.kind === 'int' && x.value !== v.intValues[i]) return false;
      if (namesOthers(x)) named++;
    }
    if (named === 0) return true;
    // The constants (and the globals and functions) the body names, as `checkConstant` sees them.
    // A simple constant (an integer, a float, null, …) of the same kind, type (and integer value)
    // as when the verdict was given is valid as it was then: only globals and functions (still in
    // the module?) and aggregates and expressions (whose operands may have changed) are checked.
    const quiet = { failed: false, checked: [] as Value[] };
    this.quiet = quiet;
    try {
      for (let i = 0; i < values.length && !quiet.failed; i++) {
        const x = values[i]!;
        if (namesOthers(x)) this.checkConstant(x, '');
      }
    } finally {
      this.quiet = undefined;
    }
    // Constants marked as checked in vain are checked again, loudly, by the full check.
    if (quiet.failed) for (const c of quiet.checked) this.checkedConstants.delete(c);
    return !quiet.failed;
  }

  // ---- bodies checked in compact form --------------------------------------------------------

  /**
   * Whether `body` passes every check `checkFunction` makes, checked where it lies: value codes
   * stand for the function's own values (no map from objects to numbers), and the instruction
   * checks see one reused instruction whose operands are the body's values, one stand-in per
   * result type for its instructions and one for its blocks (those checks read only an
   * operand's kind and type, and a block's identity through `localBlock`). Nothing is built per
   * instruction, where materializing the body (one object and one operand array per
   * instruction, then a map entry for each) was most of a check's time and of its garbage.
   * Quiet, as `verdictHolds`: the verdict only. When anything is wrong, or the body is not
   * shaped as the compact form promises, the caller checks it in full over objects, which says
   * what, so this check needs only to be at least as strict as that one.
   */
  private compactBodyValid(f: Function, body: CompactBody): boolean {
    const quiet = { failed: false, checked: [] as Value[] };
    this.quiet = quiet;
    try {
      if (!compactShapeValid(body)) return false;
      this.checkCompactBody(f, body, quiet);
    } finally {
      this.quiet = undefined;
      this.compact = undefined;
      this.cfg = undefined;
    }
    if (quiet.failed) for (const c of quiet.checked) this.checkedConstants.delete(c);
    return !quiet.failed;
  }

  private checkCompactBody(f: Function, body: CompactBody, quiet: { failed: boolean }): void {
    const n = body.instructionCount;
    const nb = body.blockCount;
    if (!this.checkSignature(f, nb) || quiet.failed) return;
    const data = body.data;
    const types = body.types;
    const operandBase = 2 * n + nb;
    // One instruction for all, with the only extra fields the checks read always present: one
    // shape for the checks to see.
    const scratch: Instruction = { kind: 'instruction', opcode: 'ret', type: VOID, operands: [], allocatedType: undefined, argType: undefined };
    // (The place, for the messages the checks build on the way to a failure nobody reads.)
    this.fn = f;
    this.bb = COMPACT_BLOCK;
    this.bi = 0;
    this.inst = scratch;
    this.ii = 0;
    // The values the body names that are not its own, checked once each rather than at each use
    // (stricter than the full check only for a value no operand names, which costs a full check).
    const values = body.values;
    for (let k = 0; k < values.length; k++) {
      const x = values[k]!;
      if (x.kind === 'instruction' || x.kind === 'block' || (x.kind === 'argument' && !f.args.includes(x))) return this.report('');
      if (x.kind !== 'argument') this.checkConstant(x);
      if (quiet.failed) return;
    }
    const instBlock = new Int32Array(n);
    for (let b = 0, i = 0; b < nb; b++) for (const end = data[2 * n + b]!; i < end; i++) instBlock[i] = b;
    // The function's instructions as operands: one stand-in per result type.
    const standIns: Instruction[] = new Array<Instruction>(types.length);
    for (let k = 0; k < types.length; k++) standIns[k] = { kind: 'instruction', opcode: 'add', type: types[k]!, operands: [] };
    this.compact = body;
    this.instBlock = instBlock;
    this.blockCount = nb;
    this.cfg = nb > 1 ? this.controlFlow() : undefined;
    if (this.rules.signatureRules) this.checkEntryBlock();
    const dom = this.cfg !== undefined ? new Dominators(this.cfg, nb) : undefined;
    const ft = f.functionType;
    const extraAt = body.extraAt;
    let extra = 0;
    let nextExtra = extraAt.length > 0 ? extraAt[0]! : -1;
    let opStart = 0;
    for (let b = 0, first = 0; b < nb; b++) {
      this.bi = b;
      const end = data[2 * n + b]!;
      if (end === first) return this.report('');
      let seenNonPhi = false;
      for (let i = first; i < end; i++) {
        const word = data[i]!;
        const number = word & 63;
        if (isTerminatorNumber(number) !== (i === end - 1)) return this.report('');
        if (number === PHI) {
          if (seenNonPhi) return this.report('');
        } else seenNonPhi = true;
        const opEnd = data[n + i]!;
        const ops = operandArray(opEnd - opStart);
        for (let k = opStart; k < opEnd; k++) {
          const code = data[operandBase + k]!;
          const tag = code & 3;
          ops[k - opStart] = tag === TAG_VALUE ? body.values[code >>> 2]! : tag === TAG_INSTRUCTION ? standIns[data[code >>> 2]! >>> 6]! : COMPACT_BLOCK;
        }
        scratch.opcode = OPCODES[number]!;
        scratch.type = types[word >>> 6]!;
        scratch.operands = ops;
        if (i === nextExtra) {
          const extras = body.extras[extra++]!;
          scratch.allocatedType = extras.allocatedType;
          scratch.argType = extras.argType;
          nextExtra = extra < extraAt.length ? extraAt[extra]! : -1;
        } else if (scratch.allocatedType !== undefined || scratch.argType !== undefined) {
          scratch.allocatedType = undefined;
          scratch.argType = undefined;
        }
        this.ii = i - first;
        this.opBase = operandBase + opStart;
        this.checkCompactOperands(body, dom, b, i);
        if (quiet.failed) return;
        this.checkInstruction(ft, scratch);
        if (quiet.failed) return;
        opStart = opEnd;
      }
      first = end;
    }
  }

  /** `checkOperands` over the current instruction's value codes (see `compactBodyValid`). */
  private checkCompactOperands(body: CompactBody, dom: Dominators | undefined, bi: number, usePos: number): void {
    const data = body.data;
    const base = this.opBase;
    const count = this.inst.operands.length;
    const isPhi = this.inst.opcode === 'phi';
    for (let k = 0; k < count; k++) {
      const code = data[base + k]!;
      if (code < 0) return this.report('');
      const index = code >>> 2;
      switch (code & 3) {
        case TAG_VALUE:
          // (Each of `values` was checked before the instructions.)
          if (index >= body.values.length) return this.report('');
          continue;
        case TAG_INSTRUCTION: {
          if (index >= body.instructionCount || body.types[data[index]! >>> 6]!.kind === 'void') return this.report('');
          const defBlock = this.instBlock[index]!;
          // (An invoke's value: the full check over objects decides, see checkInvokeUse.)
          if (!isPhi && this.rules.invokeResults && (data[index]! & 63) === INVOKE) return this.report('');
          if (isPhi) {
            // A phi's use happens at the end of its incoming block.
            const inBlock = k + 1 < count ? this.localBlock(k + 1) : -1;
            if (inBlock >= 0 && defBlock !== inBlock && (dom === undefined || !dom.dominates(defBlock, inBlock))) return this.report('');
          } else if (defBlock === bi ? index >= usePos && (dom === undefined || dom.reachable(bi)) : dom === undefined || !dom.dominates(defBlock, bi)) {
            return this.report('');
          }
          continue;
        }
        case TAG_BLOCK:
          if (index >= body.blockCount) return this.report('');
          continue;
        default:
          return this.report('');
      }
    }
  }

  // ---- constants -------------------------------------------------------------------------------

  /** Checks a constant operand (and, once each, the constants inside it). */
  private checkConstant(c: Value, where?: string): void {
    switch (c.kind) {
      case 'global':
      case 'function':
        if (!this.moduleValues.has(c))
          this.report(`${where ?? this.here()}: uses ${c.kind} ${c.name ? `@${c.name}` : '(unnamed)'}, which is not in the module`);
        return;
      case 'instruction':
      case 'argument':
      case 'block':
        this.report(
          `${where ?? this.here()}: a constant refers to ${c.kind === 'instruction' ? 'an instruction' : `a ${c.kind === 'argument' ? 'function argument' : 'basic block'}`}`,
        );
        return;
      case 'alias':
        if (!this.moduleValues.has(c)) this.report(`${where ?? this.here()}: uses alias ${c.name ? `@${c.name}` : '(unnamed)'}, which is not in the module`);
        return;
      case 'bool':
        if (!sameType(c.type, this.rules.bool)) this.report(`${where ?? this.here()}: a bool constant of type ${describeType(c.type)}`);
        return;
      case 'int':
        this.checkInt(c.type, c.value, where);
        return;
      case 'fp':
        if (!isFloatingPoint(c.type)) this.report(`${where ?? this.here()}: a floating-point constant of type ${describeType(c.type)}`);
        return;
      case 'null':
        if (c.type.kind !== 'pointer') this.report(`${where ?? this.here()}: null of non-pointer type ${describeType(c.type)}`);
        return;
      case 'zeroinitializer':
        if (c.type.kind !== 'struct' && c.type.kind !== 'array' && c.type.kind !== 'packed') {
          this.report(`${where ?? this.here()}: zeroinitializer of non-aggregate type ${describeType(c.type)}`);
        }
        return;
      case 'undef':
        if (c.type.kind === 'void' || c.type.kind === 'label') this.report(`${where ?? this.here()}: undef of type ${c.type.kind}`);
        return;
      case 'inlineasm':
        if (c.type.kind !== 'pointer' || c.type.element.kind !== 'function') {
          this.report(`${where ?? this.here()}: inline asm of type ${describeType(c.type)}, expected a pointer to a function type`);
        }
        return;
    }
    // Aggregates and expressions: once each (they may be shared and deep).
    if (this.checkedConstants.has(c)) return;
    this.checkedConstants.add(c);
    this.quiet?.checked.push(c);
    if (c.kind === 'expr') {
      for (const op of c.operands) this.checkConstant(op, where);
      const typing = constantExpressionProblem(c, this.rules);
      if (typing !== undefined) this.report(`${where ?? this.here()}: constant ${c.opcode}: ${typing}`);
      // r36867's parser: castIsValid of a constant cast too.
      const from = c.operands[0];
      if (this.rules.release === 'r36867' && isCastOpcode(c.opcode) && from !== undefined) {
        const problem = castProblem(c.opcode, from.type, c.type);
        if (problem !== undefined)
          this.report(`${where ?? this.here()}: constant ${c.opcode}: ${problem} (${describeType(from.type)} to ${describeType(c.type)})`);
      }
      return;
    }
    const t = c.type;
    let expected: (i: number) => Type | undefined;
    let count: number;
    if (c.kind === 'struct' && t.kind === 'struct') {
      count = t.elements.length;
      expected = (i) => t.elements[i];
    } else if ((c.kind === 'array' && t.kind === 'array') || (c.kind === 'packed' && t.kind === 'packed')) {
      count = t.length;
      expected = () => t.element;
    } else {
      this.report(`${where ?? this.here()}: ${c.kind} constant of type ${describeType(t)}`);
      return;
    }
    if (c.elements.length !== count) {
      this.report(`${where ?? this.here()}: ${c.kind} constant of type ${describeType(t)} has ${c.elements.length} elements, expected ${count}`);
      return;
    }
    for (let i = 0; i < count; i++) {
      const e = c.elements[i]!;
      const want = expected(i)!;
      if (!sameType(e.type, want)) {
        this.report(`${where ?? this.here()}: element ${i} of a ${c.kind} constant has type ${describeType(e.type)}, expected ${describeType(want)}`);
      }
      this.checkConstant(e, where);
    }
  }

  private checkInt(t: Type, value: bigint, where?: string): void {
    if (!this.rules.isInteger(t)) {
      this.report(`${where ?? this.here()}: an integer constant of type ${describeType(t)}`);
      return;
    }
    const [lo, hi] = t.kind === 'integer' ? signlessRange(t.bits) : INT_RANGES.get(t.kind)!;
    if (value < lo || value > hi) this.report(`${where ?? this.here()}: the constant ${value} does not fit type ${t.kind}`);
  }

  // ---- functions -------------------------------------------------------------------------------

  /**
   * The checks of a function as a whole (its type, its arguments, declaration or definition);
   * false when there is no body to check.
   */
  private checkSignature(f: Function, blockCount: number): boolean {
    const fname = `@${f.name ?? '(unnamed)'}`;
    const ft = f.functionType;
    if (f.type.kind !== 'pointer' || !sameType(f.type.element, ft)) {
      this.report(`function ${fname}: its type ${describeType(f.type)} is not a pointer to its function type`);
    }
    if (f.args.length !== ft.params.length) {
      this.report(`function ${fname}: ${f.args.length} arguments for ${ft.params.length} parameters`);
    }
    for (let i = 0; i < f.args.length && i < ft.params.length; i++) {
      if (!sameType(f.args[i]!.type, ft.params[i]!)) {
        this.report(`function ${fname}: argument ${i} has type ${describeType(f.args[i]!.type)}, the parameter ${describeType(ft.params[i]!)}`);
      }
    }
    if (f.isDeclaration !== (blockCount === 0)) {
      this.report(`function ${fname}: ${f.isDeclaration ? 'a declaration with a body' : 'a definition without blocks (set isDeclaration)'}`);
    }
    if (blockCount === 0) {
      if (f.linkage !== 'external' && f.linkage !== 'dllimport' && f.linkage !== 'extern_weak') {
        this.report(`function ${fname}: a declaration must have external, dllimport or extern_weak linkage, not ${f.linkage}`);
      }
      return false;
    }
    return true;
  }

  private checkFunction(f: Function): void {
    if (!this.checkSignature(f, f.blocks.length)) return;
    const fname = `@${f.name ?? '(unnamed)'}`;
    const ft = f.functionType;

    // Number the function's own values.
    const locals = new Map<Value, number>();
    for (const a of f.args) locals.set(a, ARG);
    let numInsts = 0;
    for (const bb of f.blocks) numInsts += bb.instructions.length;
    const instBlock = new Int32Array(numInsts);
    let pos = 0;
    const blocks = f.blocks;
    for (let bi = 0; bi < blocks.length; bi++) {
      const bb = blocks[bi]!;
      // (A value listed twice leaves the map's size unchanged: no separate lookup needed.)
      let size = locals.size;
      locals.set(bb, blockCode(bi));
      if (locals.size === size) this.report(`function ${fname}: block #${bi} appears twice`);
      for (const inst of bb.instructions) {
        instBlock[pos] = bi;
        // Instructions without a value are never operands: leaving them out saves a third of
        // the map's work (a use of one is reported as such below).
        if (inst.type.kind === 'void') {
          pos++;
          continue;
        }
        size = locals.size;
        locals.set(inst, pos++);
        if (locals.size === size) this.report(`function ${fname}: an instruction appears twice (block #${bi})`);
      }
    }
    this.fn = f;
    this.locals = locals;
    this.instBlock = instBlock;
    this.blockCount = blocks.length;

    // A single block needs no dominator tree: order within it is all there is.
    this.cfg = blocks.length > 1 ? this.controlFlow() : undefined;
    if (this.rules.signatureRules) this.checkEntryBlock();
    const dom = this.cfg !== undefined ? new Dominators(this.cfg, blocks.length) : undefined;
    pos = 0;
    for (let bi = 0; bi < blocks.length; bi++) {
      const bb = blocks[bi]!;
      this.bb = bb;
      this.bi = bi;
      if (bb.type.kind !== 'label') this.report(`${this.blockHere()}: a block's type must be label, not ${describeType(bb.type)}`);
      const insts = bb.instructions;
      if (insts.length === 0) {
        this.report(`${this.blockHere()}: the block is empty (it needs a terminator)`);
        continue;
      }
      let seenNonPhi = false;
      const last = insts.length - 1;
      for (let ii = 0; ii <= last; ii++) {
        const inst = insts[ii]!;
        this.ii = ii;
        this.inst = inst;
        const isTerm = isTerminator(inst.opcode);
        if (ii === last && !isTerm) this.report(`${this.blockHere()}: missing terminator (the last instruction is ${inst.opcode})`);
        if (ii !== last && isTerm) this.report(`${this.here()}: a terminator in the middle of the block`);
        if (inst.opcode === 'phi') {
          if (seenNonPhi) this.report(`${this.here()}: phi nodes must come first in their block`);
        } else seenNonPhi = true;
        this.checkOperands(inst, dom, bi, pos++);
        this.checkInstruction(ft, inst);
      }
    }
  }

  /** Every operand is defined here (or is a constant/global of the module) and dominates the use. */
  private checkOperands(inst: Instruction, dom: Dominators | undefined, bi: number, usePos: number): void {
    const ops = inst.operands;
    const locals = this.locals;
    const f = this.fn;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i] as Value | undefined;
      if (op === undefined || op === null) {
        this.report(`${this.here()}: operand ${i} is missing`);
        continue;
      }
      switch (op.kind) {
        case 'instruction':
        case 'argument':
        case 'block': {
          const code = locals.get(op);
          if (code === undefined && op.kind === 'instruction' && op.type.kind === 'void') {
            this.report(`${this.here()}: operand ${i} is a ${op.opcode} instruction, which produces no value`);
            continue;
          }
          if (code === undefined) {
            const what = op.kind === 'block' ? 'a block' : op.kind === 'argument' ? 'an argument' : 'an instruction';
            const nm = op.name ? ` %${op.name}` : '';
            this.report(`${this.here()}: operand ${i} is ${what}${nm} not defined in function @${f.name ?? '(unnamed)'}`);
            continue;
          }
          if (op.kind === 'instruction') {
            const defBlock = this.instBlock[code]!;
            // A phi's use happens at the end of its incoming block.
            if (inst.opcode === 'phi') {
              const incoming = ops[i + 1];
              const inCode = incoming !== undefined ? locals.get(incoming) : undefined;
              if (inCode !== undefined && isBlockCode(inCode)) {
                const inBlock = blockOfCode(inCode);
                if (defBlock !== inBlock && (dom === undefined || !dom.dominates(defBlock, inBlock))) {
                  this.report(`${this.here()}: operand ${i} (${describeUse(op)}) does not dominate the end of incoming block #${inBlock}`);
                }
              }
            } else if (op.opcode === 'invoke' && this.rules.invokeResults) {
              this.checkInvokeUse(op, i, bi, dom);
            } else if (defBlock === bi ? code >= usePos && (dom === undefined || dom.reachable(bi)) : dom === undefined || !dom.dominates(defBlock, bi)) {
              this.report(`${this.here()}: operand ${i} (${describeUse(op)}) is used before it is defined (its definition does not dominate this use)`);
            }
          }
          continue;
        }
        default:
          this.checkConstant(op);
      }
    }
  }

  private checkInstruction(ft: FunctionType, inst: Instruction): void {
    const ops = inst.operands;
    const n = ops.length;
    const t = inst.type;
    const R = this.rules;
    if (!R.opcodes.has(inst.opcode)) {
      this.bad(`${inst.opcode} is not an instruction of ${R.release}`);
      return;
    }
    if (R.signatureRules) this.checkInstructionValues(inst);
    switch (inst.opcode) {
      case 'ret':
        if (ft.returnType.kind === 'void') {
          if (n !== 0) this.bad(`returns a value from a function returning void`);
        } else if (this.count(1)) this.want(0, ft.returnType, 'the returned value');
        this.result(VOID);
        return;
      case 'br':
        if (n === 1) this.isBlock(0);
        else if (n === 3) {
          this.want(0, R.bool, 'the condition');
          this.isBlock(1);
          this.isBlock(2);
        } else this.bad(`${n} operands, expected 1 or 3`);
        this.result(VOID);
        return;
      case 'switch':
        if (n < 2 || n % 2 !== 0) {
          this.bad(`${n} operands, expected the condition, the default block and value/block pairs`);
          return;
        }
        if (!this.integerOrLogical(ops[0]!.type)) this.bad(`the condition has type ${describeType(ops[0]!.type)}, expected an integer type`);
        this.isBlock(1);
        for (let i = 2; i < n; i += 2) {
          if (ops[i]!.kind !== 'int' && ops[i]!.kind !== 'bool') this.bad(`case value ${i / 2} must be an integer constant`);
          if (!this.fits(i, ops[0]!.type)) this.want(i, ops[0]!.type, `case value ${i / 2}`);
          this.isBlock(i + 1);
        }
        this.result(VOID);
        return;
      case 'unwind':
      case 'unreachable':
        this.count(0);
        this.result(VOID);
        return;
      case 'invoke':
      case 'call':
        this.checkCall(inst);
        return;
      case 'add':
      case 'sub':
      case 'mul':
      case 'udiv':
      case 'sdiv':
      case 'fdiv':
      case 'urem':
      case 'srem':
      case 'frem':
      case 'and':
      case 'or':
      case 'xor': {
        if (!this.count(2)) return;
        this.want(0, t, 'the left operand');
        this.want(1, t, 'the right operand');
        const el = elementOf(t);
        const op = inst.opcode;
        const fpOp = op === 'fdiv' || op === 'frem';
        const intOp = op === 'udiv' || op === 'sdiv' || op === 'urem' || op === 'srem';
        const bitOp = op === 'and' || op === 'or' || op === 'xor';
        if (fpOp) {
          if (!isFloatingPoint(el)) this.bad(`${op} needs floating-point operands, not ${describeType(t)}`);
        } else if (intOp) {
          if (!R.isInteger(el)) this.bad(`${op} needs integer operands, not ${describeType(t)}`);
        } else if (bitOp) {
          if (!this.integerOrLogical(el)) this.bad(`${op} needs integer${R.logicalAlso !== undefined ? ' or bool' : ''} operands, not ${describeType(t)}`);
        } else if (!R.isInteger(el) && !isFloatingPoint(el)) this.bad(`${op} needs numeric operands, not ${describeType(t)}`);
        // r36867's parser: "Remainder not supported on vector types".
        if (R.vectorRemainderRefused && t.kind === 'packed' && (op === 'urem' || op === 'srem' || op === 'frem'))
          this.bad(`${op} of a vector: remainder not supported on vector types`);
        return;
      }
      case 'seteq':
      case 'setne':
      case 'setle':
      case 'setge':
      case 'setlt':
      case 'setgt':
        if (!this.count(2)) return;
        this.want(1, ops[0]!.type, 'the right operand');
        if (ops[0]!.type.kind === 'packed') this.result({ kind: 'packed', element: BOOL, length: ops[0]!.type.length });
        else this.result(BOOL);
        this.notLabel();
        return;
      case 'icmp':
      case 'fcmp':
        this.checkComparison(inst);
        return;
      case 'shl':
      case 'shr':
      case 'lshr':
      case 'ashr':
        if (!this.count(2)) return;
        this.want(0, t, 'the shifted value');
        // (r36867's parser: "Logical operator requires integral operands", vectors included.)
        if (!R.isInteger(t)) this.bad(`${inst.opcode} of non-integer type ${describeType(t)}`);
        this.want(1, R.shiftAmount === 'ubyte' ? UBYTE : t, 'the shift amount');
        return;
      case 'malloc':
      case 'alloca':
        if (!this.count(1)) return;
        this.want(0, R.count, 'the element count');
        if (t.kind !== 'pointer') this.bad(`result type ${describeType(t)}, expected a pointer`);
        else if (inst.allocatedType !== undefined && !sameType(t.element, inst.allocatedType)) {
          this.bad(`result type ${describeType(t)} does not point to the allocated type ${describeType(inst.allocatedType)}`);
        }
        return;
      case 'free':
        if (!this.count(1)) return;
        if (ops[0]!.type.kind !== 'pointer') this.bad(`frees a ${describeType(ops[0]!.type)}, not a pointer`);
        this.result(VOID);
        return;
      case 'load':
        if (!this.count(1)) return;
        if (ops[0]!.type.kind !== 'pointer') this.bad(`loads from a ${describeType(ops[0]!.type)}, not a pointer`);
        else this.result(ops[0]!.type.element);
        return;
      case 'store':
        if (!this.count(2)) return;
        if (ops[1]!.type.kind !== 'pointer') this.bad(`stores to a ${describeType(ops[1]!.type)}, not a pointer`);
        else this.want(0, ops[1]!.type.element, 'the stored value');
        this.result(VOID);
        return;
      case 'getelementptr':
        this.checkGetElementPtr(inst);
        return;
      case 'phi':
        this.checkPhi(inst);
        return;
      case 'cast':
        if (!this.count(1)) return;
        this.notLabel();
        if (!firstClass(t) || !firstClass(ops[0]!.type)) this.bad(`casts ${describeType(ops[0]!.type)} to ${describeType(t)}; both must be first-class types`);
        return;
      case 'trunc':
      case 'zext':
      case 'sext':
      case 'fptoui':
      case 'fptosi':
      case 'uitofp':
      case 'sitofp':
      case 'fptrunc':
      case 'fpext':
      case 'ptrtoint':
      case 'inttoptr':
      case 'bitcast': {
        // r36867 visitTruncInst … visitBitCastInst, and castIsValid in its parser.
        if (!this.count(1)) return;
        const problem = castProblem(inst.opcode, ops[0]!.type, t);
        if (problem !== undefined) this.bad(`${problem} (${describeType(ops[0]!.type)} to ${describeType(t)})`);
        return;
      }
      case 'select':
        if (!this.count(3)) return;
        this.want(0, R.bool, 'the condition');
        this.want(1, t, 'the true value');
        this.want(2, t, 'the false value');
        return;
      case 'vaarg':
      case 'vanext':
        if (!this.count(1)) return;
        this.notLabel();
        if (inst.opcode === 'vanext' && inst.argType === undefined) this.bad('vanext needs its argType');
        return;
      case 'extractelement':
        if (!this.count(2)) return;
        if (ops[0]!.type.kind !== 'packed') this.bad(`extracts from a ${describeType(ops[0]!.type)}, not a packed type`);
        else this.result(ops[0]!.type.element);
        this.want(1, R.vectorIndex, 'the index');
        return;
      case 'insertelement':
        if (!this.count(3)) return;
        if (ops[0]!.type.kind !== 'packed') this.bad(`inserts into a ${describeType(ops[0]!.type)}, not a packed type`);
        else {
          this.want(1, ops[0]!.type.element, 'the inserted element');
          this.result(ops[0]!.type);
        }
        this.want(2, R.vectorIndex, 'the index');
        return;
      case 'shufflevector': {
        if (!this.count(3)) return;
        this.want(1, ops[0]!.type, 'the second vector');
        const mask = ops[2]!.type;
        if (mask.kind !== 'packed' || !sameType(mask.element, R.maskElement))
          this.bad(`the mask has type ${describeType(mask)}, expected a vector of ${describeType(R.maskElement)}`);
        this.result(ops[0]!.type);
        if (R.signatureRules) this.checkShuffleMask(inst);
        return;
      }
      case 'userop1':
      case 'userop2':
        this.bad(`${inst.opcode} is internal to LLVM and never written`);
        return;
      default:
        this.bad(`unknown opcode ${String((inst as { opcode: unknown }).opcode)}`);
    }
  }
  /** A call or an invoke: the callee's type, the arguments against its parameters, the result. */
  private checkCall(inst: Instruction): void {
    const ops = inst.operands;
    const n = ops.length;
    const R = this.rules;
    const fixed = inst.opcode === 'invoke' ? 3 : 1;
    if (n < fixed) {
      this.bad(`${n} operands, expected at least ${fixed}`);
      return;
    }
    const callee = ops[0]!;
    const cft = callee.type.kind === 'pointer' && callee.type.element.kind === 'function' ? callee.type.element : undefined;
    if (cft === undefined) {
      this.bad(`the callee has type ${describeType(callee.type)}, expected a pointer to a function type`);
      return;
    }
    if (inst.opcode === 'invoke') {
      this.isBlock(1);
      this.isBlock(2);
    }
    const args = n - fixed;
    if (args < cft.params.length || (!cft.isVarArg && args !== cft.params.length)) {
      this.bad(`${args} arguments for a callee taking ${cft.params.length}${cft.isVarArg ? ' or more' : ''}`);
    }
    for (let i = 0; i < cft.params.length && fixed + i < n; i++)
      if (!this.fits(fixed + i, cft.params[i]!)) this.want(fixed + i, cft.params[i]!, `argument ${i}`);
    for (let i = fixed; i < n; i++) if (ops[i]!.kind === 'block') this.bad(`argument ${i - fixed} is a basic block`);
    this.result(cft.returnType);
    // r36867 visitCallInst → visitIntrinsicFunctionCall (and its parser's check of the name).
    if (R.intrinsics && inst.opcode === 'call' && callee.kind === 'function' && isIntrinsicName(callee.name)) {
      const problem = intrinsicCallProblem(callee.name!, callee.functionType);
      if (problem !== undefined) this.bad(`calls @${callee.name}: ${problem}`);
    }
  }

  /** A getelementptr: each index against the type it steps into, and the result's type. */
  private checkGetElementPtr(inst: Instruction): void {
    const ops = inst.operands;
    const t = inst.type;
    if (ops.length < 1) {
      this.bad('no pointer operand');
      return;
    }
    const cur = indexedType(ops, this.rules, (problem) => this.bad(problem));
    if (cur === undefined) return;
    if (ops.length === 1)
      this.result(cur); // no indices: the pointer itself
    else if (t.kind !== 'pointer' || !sameType(t.element, cur)) this.bad(`result type ${describeType(t)}, expected ${describeType(cur)}*`);
  }

  /** A phi: value/block pairs of its type, one per predecessor. */
  private checkPhi(inst: Instruction): void {
    const n = inst.operands.length;
    const t = inst.type;
    const R = this.rules;
    if (n === 0 || n % 2 !== 0) {
      this.bad(`${n} operands, expected value/block pairs`);
      return;
    }
    for (let i = 0; i < n; i += 2) {
      if (!this.fits(i, t)) this.want(i, t, `incoming value ${i / 2}`);
      this.isBlock(i + 1);
    }
    this.checkPhiPredecessors(inst);
    if (R.signatureRules) this.checkPhiRepeats(n);
  }

  // ---- rules of r36867 (rules.ts: the rows that enable them) ----------------------------------

  /** An integer, or 1.x's `bool` where a logical operator or a switch takes it. */
  private integerOrLogical(t: Type): boolean {
    const also = this.rules.logicalAlso;
    return this.rules.isInteger(t) || (also !== undefined && sameType(t, also));
  }

  /** r36867 visitICmpInst/visitFCmpInst, and its parser's refusal of vector comparisons. */
  private checkComparison(inst: Instruction): void {
    if (!this.count(2)) return;
    const a = inst.operands[0]!.type;
    this.want(1, a, 'the right operand');
    this.result(this.rules.bool);
    this.notLabel();
    if (inst.opcode === 'icmp') {
      if (!this.rules.isInteger(a) && a.kind !== 'pointer')
        this.bad(`Invalid operand types for ICmp instruction: ${describeType(a)} (an integer or a pointer)`);
      if (inst.predicate === undefined || !Object.hasOwn(INT_PREDICATES, inst.predicate))
        this.bad(`icmp needs an integer predicate (eq, ne, ugt, …), not ${String(inst.predicate)}`);
    } else {
      if (!isFloatingPoint(a)) this.bad(`Invalid operand types for FCmp instruction: ${describeType(a)} (float or double)`);
      if (inst.predicate === undefined || !Object.hasOwn(FLOAT_PREDICATES, inst.predicate))
        this.bad(`fcmp needs a floating-point predicate (oeq, ult, …), not ${String(inst.predicate)}`);
    }
  }

  /**
   * r36867 visitInstruction's rules on every instruction's values: a void one has no name, a
   * result is first-class, operands are first-class values, an intrinsic or inline asm only as a
   * call's callee. (LLVM 1.9's Verifier had these too.)
   */
  private checkInstructionValues(inst: Instruction): void {
    const t = inst.type;
    if (t.kind === 'void') {
      if (inst.name !== undefined && inst.name !== '') this.bad('Instruction has a name, but provides a void value!');
    } else if (!firstClass(t)) this.bad(`Instruction returns a non-scalar type! (${describeType(t)})`);
    const ops = inst.operands;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      if (op === undefined || op === null) continue;
      if (op.kind !== 'block' && !firstClass(op.type)) this.bad(`Instruction operands must be first-class values! (operand ${i}: ${describeType(op.type)})`);
      else if (op.kind === 'function' && isIntrinsicName(op.name) && !(i === 0 && inst.opcode === 'call'))
        this.bad(`Cannot take the address of an intrinsic! (@${op.name})`);
      else if (op.kind === 'inlineasm' && !(i === 0 && inst.opcode === 'call')) this.bad('Cannot take the address of an inline asm!');
    }
  }

  /** r36867 visitShuffleVectorInst: the mask as long as the vectors, of constant integers or undef (or undef, or zeroinitializer). */
  private checkShuffleMask(inst: Instruction): void {
    const [v1, , mask] = inst.operands;
    if (v1 === undefined || mask === undefined) return;
    if (v1.type.kind === 'packed' && mask.type.kind === 'packed' && v1.type.length !== mask.type.length) {
      this.bad(`Invalid shufflevector operands! (a mask of ${mask.type.length} elements for vectors of ${v1.type.length})`);
    }
    const ok =
      mask.kind === 'packed' ? mask.elements.every((e) => e.kind === 'int' || e.kind === 'undef') : mask.kind === 'undef' || mask.kind === 'zeroinitializer';
    if (!ok) this.bad('Invalid shufflevector shuffle mask!');
  }

  /**
   * r36867 visitBasicBlock: entries of one phi for the same block carry the same value (LLVM
   * 1.9's Verifier too). `identity(i)` is what operand `i` is (a value, or a compact code).
   */
  private checkPhiRepeats(count: number): void {
    if (count <= 4) {
      if (count === 4 && this.localBlock(1) === this.localBlock(3) && differentValues(this.operandIdentity(0), this.operandIdentity(2)))
        this.phiRepeatBad(this.localBlock(1));
      return;
    }
    const seen = new Map<number, unknown>();
    for (let i = 0; i + 1 < count; i += 2) {
      const b = this.localBlock(i + 1);
      const v = this.operandIdentity(i);
      const before = seen.get(b);
      if (before !== undefined && differentValues(before, v)) return this.phiRepeatBad(b);
      seen.set(b, v);
    }
  }

  private phiRepeatBad(block: number): void {
    this.bad(`PHI node has multiple entries for the same basic block with different incoming values! (block #${block})`);
  }

  /**
   * What operand `i` of the current instruction is, as LLVM compared values: an instruction,
   * argument or global by identity (in a compact body, its code), a simple constant by type and
   * value (LLVM's constants were unique; the graph may hold two objects for one `i32 1`).
   */
  private operandIdentity(i: number): unknown {
    const body = this.compact;
    if (body !== undefined) {
      const code = body.data[this.opBase + i]!;
      return (code & 3) === TAG_VALUE ? constantIdentity(body.values[code >>> 2]!) : code;
    }
    const op = this.inst.operands[i];
    return op === undefined ? undefined : constantIdentity(op);
  }

  /** r36867 visitFunction: "Entry block to function must not have predecessors!" (LLVM 1.9 too). */
  private checkEntryBlock(): void {
    let preds: number;
    if (this.cfg !== undefined) preds = this.cfg.predStart[1]! - this.cfg.predStart[0]!;
    else {
      const out: number[] = [];
      const body = this.compact;
      if (body !== undefined) addCompactSuccessors(body, 0, out);
      else addSuccessors(this.fn.blocks[0]!, this.locals, out);
      preds = out.filter((b) => b === 0).length;
    }
    if (preds !== 0)
      this.report(
        `function @${this.fn.name ?? '(unnamed)'}: Entry block to function must not have predecessors! (${preds} branch${preds > 1 ? 'es' : ''} to it)`,
      );
  }

  /**
   * r36867 visitInstruction: a non-phi use of an invoke's value. Its definition takes effect on
   * the normal edge, so the normal destination (not the invoke's block) must dominate the use;
   * it cannot be the unwind destination too, and when other edges also enter it, it must
   * dominate those (LLVM 1.9 checked only the invoke's own block).
   */
  private checkInvokeUse(op: Instruction, i: number, useBlock: number, dom: Dominators | undefined): void {
    const normal = this.blockIndexOf(op.operands[1]);
    const unwind = this.blockIndexOf(op.operands[2]);
    if (normal < 0) return; // (the invoke's own check says what is wrong)
    if (normal === unwind) {
      this.bad(`operand ${i} (${describeUse(op)}): No uses of invoke possible due to dominance structure!`);
      return;
    }
    this.cfg ??= this.controlFlow();
    const { predStart, pred } = this.cfg;
    const reachable = dom === undefined || dom.reachable(useBlock);
    if (!reachable) return;
    const invokeBlock = this.definingBlock(op);
    if (predStart[normal + 1]! - predStart[normal]! > 1) {
      for (let e = predStart[normal]!; e < predStart[normal + 1]!; e++) {
        const p = pred[e]!;
        if (p !== invokeBlock && (dom === undefined || !dom.dominates(normal, p))) {
          this.bad(`operand ${i} (${describeUse(op)}): Invoke value defined on critical edge but not dead!`);
          return;
        }
      }
    }
    if (normal !== useBlock && (dom === undefined || !dom.dominates(normal, useBlock))) {
      this.bad(
        `operand ${i} (${describeUse(op)}): Instruction does not dominate all uses! (an invoke's value is defined on its normal edge, to block #${normal})`,
      );
    }
  }

  /** The index of a block of the current function (object form), else -1. */
  private blockIndexOf(v: Value | undefined): number {
    const code = v !== undefined && v !== null ? this.locals.get(v) : undefined;
    return code !== undefined && isBlockCode(code) ? blockOfCode(code) : -1;
  }

  /** The block an instruction of the current function (object form) is in. */
  private definingBlock(inst: Instruction): number {
    const code = this.locals.get(inst);
    return code !== undefined && code >= 0 ? this.instBlock[code]! : -1;
  }

  // ---- checks on the current instruction (`this.inst`) ------------------------------------------

  /**
   * A phi has one entry per predecessor edge of its block (LLVM's rule: as many entries as
   * edges, the same blocks; a block reached twice, e.g. by both arms of a branch, twice).
   */
  private checkPhiPredecessors(phi: Instruction): void {
    const n = this.blockCount;
    this.cfg ??= this.controlFlow();
    const { predStart, pred } = this.cfg;
    if (this.phiBalance === undefined || this.phiBalance.length < n) this.phiBalance = new Int32Array(n);
    const balance = this.phiBalance;
    const ops = phi.operands;
    for (let i = 1; i < ops.length; i += 2) {
      const b = this.localBlock(i);
      if (b < 0) {
        for (let j = 1; j < i; j += 2) balance[this.localBlock(j)] = 0;
        return; // reported by isBlock
      }
      balance[b]!++;
    }
    // The same multiset: every count back at zero (which also resets the scratch array).
    let same = true;
    const from = predStart[this.bi]!;
    const to = predStart[this.bi + 1]!;
    for (let e = from; e < to; e++) balance[pred[e]!]!--;
    for (let e = from; e < to; e++) {
      if (balance[pred[e]!] !== 0) same = false;
      balance[pred[e]!] = 0;
    }
    for (let i = 1; i < ops.length; i += 2) {
      const b = this.localBlock(i);
      if (balance[b] !== 0) same = false;
      balance[b] = 0;
    }
    if (same) return;
    const got: number[] = [];
    for (let i = 1; i < ops.length; i += 2) got.push(this.localBlock(i));
    const want = Array.from(pred.subarray(from, to));
    want.sort((x, y) => x - y);
    got.sort((x, y) => x - y);
    const names = (l: number[]): string => (l.length === 0 ? 'none' : l.map((b) => `#${b}`).join(', '));
    this.bad(`the phi's incoming blocks (${names(got)}) are not its block's predecessors (${names(want)})`);
  }

  private bad(msg: string): void {
    this.report(`${this.here()}: ${msg}`);
  }

  /** The instruction has `want` operands (else says so). */
  private count(want: number): boolean {
    const n = this.inst.operands.length;
    if (n === want) return true;
    this.bad(`${n} operands, expected ${want}`);
    return false;
  }

  /** Whether operand `i` is absent or of type `ty`: `want`'s test, for a caller that builds its description only when it fails. */
  private fits(i: number, ty: Type): boolean {
    const op = this.inst.operands[i];
    return op === undefined || sameType(op.type, ty);
  }

  /** Operand `i` (when present) has type `ty`. */
  private want(i: number, ty: Type, what = `operand ${i}`): void {
    if (!this.fits(i, ty)) this.bad(`${what} has type ${describeType(this.inst.operands[i]!.type)}, expected ${describeType(ty)}`);
  }

  /** Operand `i` is a block of the current function. */
  private isBlock(i: number): void {
    if (this.localBlock(i) < 0) this.bad(`operand ${i} must be a basic block of this function`);
  }

  /** The index of the current function's block that operand `i` of the current instruction is, else -1. */
  private localBlock(i: number): number {
    const body = this.compact;
    if (body !== undefined) {
      if (i >= this.inst.operands.length) return -1;
      const code = body.data[this.opBase + i]!;
      return code >= 0 && (code & 3) === TAG_BLOCK && code >>> 2 < body.blockCount ? code >>> 2 : -1;
    }
    const op = this.inst.operands[i];
    const code = op !== undefined && op !== null ? this.locals.get(op) : undefined;
    return code !== undefined && isBlockCode(code) ? blockOfCode(code) : -1;
  }

  /** The current function's control flow. */
  private controlFlow(): ControlFlow {
    const body = this.compact;
    if (body !== undefined) return new ControlFlow(body.blockCount, (b, out) => addCompactSuccessors(body, b, out));
    const blocks = this.fn.blocks;
    const locals = this.locals;
    return new ControlFlow(blocks.length, (b, out) => addSuccessors(blocks[b]!, locals, out));
  }

  /** The instruction's result type is `ty`. */
  private result(ty: Type): void {
    if (!sameType(this.inst.type, ty)) this.bad(`result type ${describeType(this.inst.type)}, expected ${describeType(ty)}`);
  }

  /** No operand is a block. */
  private notLabel(): void {
    const ops = this.inst.operands;
    for (let i = 0; i < ops.length; i++) if (ops[i]?.kind === 'block') this.bad(`operand ${i} is a basic block, which is not a value here`);
  }
}

/**
 * Whether two operand identities name different values. Constants built apart with the same
 * structure are one value to LLVM, which uniqued constants (an assembled text spells a constant
 * expression anew at each use; a read file shares one).
 */
function differentValues(a: unknown, b: unknown): boolean {
  if (a === b) return false;
  return !(isConstantObject(a) && isConstantObject(b) && sameConstant(a, b));
}

const isConstantObject = (v: unknown): v is Constant => typeof v === 'object' && v !== null && CONSTANT_KINDS.has((v as Value).kind);
const CONSTANT_KINDS: ReadonlySet<string> = new Set(['bool', 'int', 'fp', 'null', 'zeroinitializer', 'undef', 'array', 'struct', 'packed', 'expr']);

/** A simple constant's type and value as one key (see `operandIdentity`); any other value itself. */
function constantIdentity(v: Value): unknown {
  switch (v.kind) {
    case 'int':
    case 'bool':
      return `${describeType(v.type)} ${String(v.value)}`;
    case 'fp':
      return `${describeType(v.type)} fp ${v.bits}`;
    case 'null':
    case 'undef':
    case 'zeroinitializer':
      return `${describeType(v.type)} ${v.kind}`;
    default:
      return v;
  }
}

/** The values of a version-7 integer type of `bits` bits (`integerRange`), computed once per width. */
const SIGNLESS_RANGES = new Map<number, readonly [bigint, bigint]>();

function signlessRange(bits: number): readonly [bigint, bigint] {
  let r = SIGNLESS_RANGES.get(bits);
  if (r === undefined) {
    r = integerRange(integerType(bits));
    if (SIGNLESS_RANGES.size < 4096) SIGNLESS_RANGES.set(bits, r);
  }
  return r;
}

/** The element type of a packed type, else the type itself. */
function elementOf(ty: Type): Type {
  return ty.kind === 'packed' ? ty.element : ty;
}

function describeUse(v: Instruction): string {
  return v.name ? `%${v.name}` : `an unnamed ${v.opcode}`;
}

function firstClass(t: Type): boolean {
  return t.kind !== 'void' && t.kind !== 'function' && t.kind !== 'struct' && t.kind !== 'array' && t.kind !== 'opaque' && t.kind !== 'label';
}

const { void: VOID, bool: BOOL, ubyte: UBYTE } = primitiveTypes;

/** The opcode number of `phi` (compact bodies hold numbers). */
const PHI = OPCODE_NUMBER.phi;
const INVOKE = OPCODE_NUMBER.invoke;

/** Keeps the verifier's hidden class (and the code compiled for it) alive between writes: see `KEPT_SHAPES` in module-block.ts. */
export const KEPT_VERIFIER: object = new Verifier(
  {
    kind: 'module',
    endianness: 'little',
    pointerSize: 32,
    targetTriple: '',
    inlineAsm: '',
    dependentLibraries: [],
    types: [],
    typeNames: new Map(),
    globals: [],
    functions: [],
  },
  1,
  rulesForVersion(6),
);
