/**
 * Version 7's printer: a module in LLVM 2.0's syntax exactly as r36867's `llvm-dis` printed it
 * (`lib/VMCore/AsmWriter.cpp` at that revision, the last with bytecode). For version-7 modules it
 * is both the default and the native syntax: LLVM 1.9 could not read them.
 *
 * What LLVM 2.0's writer does differently from 1.9's (which `printer.ts` reproduces):
 * - globals are `@name`, locals `%name`, labels bare; a name that needs quotes is `@"…"` for a
 *   global and `"…"` (no sigil) for a local;
 * - unnamed values are numbered by one counter per scope (`@0`, `%0`, …), not per type plane;
 *   unnamed arguments print no name at all;
 * - `define`/`declare`, visibility, `thread_local`, aliases, parameter attributes (each followed
 *   by a space, as `getParamAttrsText` built them), `icmp`/`fcmp` predicates, the twelve casts;
 * - the type symbol table is printed with a leading tab, and integer types as `iN` always, even
 *   when the table names them; functions carry no `[#uses]` comment.
 *
 * Why its own: LLVM 2.0's dialect really differs (below); the opcode classes it needs are the
 * shared table's (`graph/opcodes.ts`).
 */
import { sortedTypeNames } from '../type-names.js';
import { escapeString, formatFloat } from '../text.js';
import { canonicalConstant } from '../../held/constants.js';
import { PrintError } from '../print-error.js';
import type { Module } from '../../graph/module.js';
import { isAnyCastOpcode, isTerminatorOpcode } from '../../graph/opcodes.js';
import { PARAM_ATTRIBUTE_BITS, type FunctionType, type Type } from '../../graph/type.js';
import type { BasicBlock, Constant, Function, GlobalAlias, GlobalVariable, Instruction, Value } from '../../graph/value.js';

/** Calling-convention numbers LLVM 2.0 named (`CallingConv::ID`). */
const CC_FAST = 8;
const CC_COLD = 9;
const CC_X86_STDCALL = 64;
const CC_X86_FASTCALL = 65;

/** `ParamAttrsList::getParamAttrsText`: each attribute followed by a space, in this order. */
const ATTRIBUTE_TEXT: readonly [number, string][] = [
  [PARAM_ATTRIBUTE_BITS.zext, 'zext '],
  [PARAM_ATTRIBUTE_BITS.sext, 'sext '],
  [PARAM_ATTRIBUTE_BITS.noreturn, 'noreturn '],
  [PARAM_ATTRIBUTE_BITS.nounwind, 'nounwind '],
  [PARAM_ATTRIBUTE_BITS.inreg, 'inreg '],
  [PARAM_ATTRIBUTE_BITS.sret, 'sret '],
];

export function paramAttributesText(bits: number): string {
  let s = '';
  for (const [bit, text] of ATTRIBUTE_TEXT) if (bits & bit) s += text;
  return s;
}

/** The attributes of parameter `index` (0 = the return value) of a function type, 0 if none. */
function attributesAt(ft: FunctionType | undefined, index: number): number {
  const list = ft?.paramAttributes;
  if (!list) return 0;
  for (const a of list) if (a.index === index) return a.attributes;
  return 0;
}

/** `NameNeedsQuotes`: a leading digit, or any character outside letters, digits, `-`, `.`, `_`. */
function needsQuotes(name: string): boolean {
  const c = name.charCodeAt(0);
  if (c >= 0x30 && c <= 0x39) return true;
  return !/^[A-Za-z0-9\-._]*$/.test(name);
}

/** `getLLVMName` with the global prefix `@`. */
export function globalName(name: string): string {
  return needsQuotes(name) ? '@"' + name + '"' : '@' + name;
}

/** `getLLVMName` with the local prefix `%` (quoted names carry no sigil). */
export function localName(name: string): string {
  return needsQuotes(name) ? '"' + name + '"' : '%' + name;
}

/** `getLLVMName` for a label (no sigil). */
function labelName(name: string): string {
  return needsQuotes(name) ? '"' + name + '"' : name;
}

type GlobalLike = GlobalVariable | Function | GlobalAlias;

function isGlobalLike(v: Value): v is GlobalLike {
  return v.kind === 'global' || v.kind === 'function' || v.kind === 'alias';
}

/** Constants that are not globals: printed by value, never counted as users. */
function isPlainConstant(v: Value): v is Exclude<Constant, GlobalVariable | Function> {
  switch (v.kind) {
    case 'bool':
    case 'int':
    case 'fp':
    case 'null':
    case 'zeroinitializer':
    case 'undef':
    case 'array':
    case 'struct':
    case 'packed':
    case 'expr':
    case 'inlineasm':
      return true;
    default:
      return false;
  }
}

function isTerminator(i: Instruction): boolean {
  return isTerminatorOpcode(i.opcode);
}

/** The function type a callee of type `t` calls (`t` a pointer to a function). */
function calleeType(t: Type): FunctionType | undefined {
  return t.kind === 'pointer' && t.element.kind === 'function' ? t.element : undefined;
}

/** Per-function numbering and predecessor lists, as the SlotMachine and `pred_begin` gave them. */
interface FunctionState {
  readonly fn: Function;
  readonly slots: Map<Value, number>;
  readonly preds: Map<BasicBlock, BasicBlock[]>;
}

export class V7Printer {
  private readonly typeNames = new Map<Type, string>();
  private readonly typeCache = new Map<Type, string>();
  private readonly uses = new Map<Value, number>();
  private readonly moduleSlots = new Map<Value, number>();
  private readonly typeIds = new Map<Type, number>();
  private readonly globalIds = new Map<Value, number>();
  private readonly constantKeys = new WeakMap<object, string>();
  private current: FunctionState | undefined;

  constructor(private readonly module: Module) {
    // fillTypeNameTable: the type symbol table in name order, the first name of a type wins.
    for (const [name, t] of sortedTypeNames(module)) if (!this.typeNames.has(t)) this.typeNames.set(t, localName(name));
    // SlotMachine::processModule: unnamed globals, then unnamed functions (aliases get none).
    let next = 0;
    for (const g of module.globals) if (!g.name) this.moduleSlots.set(g, next++);
    for (const f of module.functions) if (!f.name) this.moduleSlots.set(f, next++);
    this.countUses();
  }

  // ---- use counts -------------------------------------------------------------------------------

  /**
   * `Value::getNumUses` for every non-constant: one per operand of an instruction, initializer,
   * aliasee, and per operand of each *distinct* constant (LLVM uniqued constants, so a constant
   * expression shared by many instructions uses its global once).
   */
  private countUses(): void {
    const seen = new Set<string>();
    const use = (v: Value): void => {
      if (isPlainConstant(v)) {
        const c = canonicalConstant(v, false);
        const key = this.keyOf(c);
        if (seen.has(key)) return;
        seen.add(key);
        if (c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed') for (const e of c.elements) use(e);
        else if (c.kind === 'expr') for (const o of c.operands) use(o);
        return;
      }
      this.uses.set(v, (this.uses.get(v) ?? 0) + 1);
    };
    for (const g of this.module.globals) if (g.initializer) use(g.initializer);
    for (const a of this.module.aliases ?? []) use(a.aliasee);
    for (const f of this.module.functions) for (const b of f.blocks) for (const i of b.instructions) for (const o of i.operands) use(o);
  }

  /** A structural key of a constant: uniqued constants have equal keys. */
  private keyOf(v: Value): string {
    if (!isPlainConstant(v)) {
      let id = this.globalIds.get(v);
      if (id === undefined) this.globalIds.set(v, (id = this.globalIds.size));
      return `g${id}`;
    }
    const cached = this.constantKeys.get(v);
    if (cached !== undefined) return cached;
    const c = canonicalConstant(v, false);
    const t = this.typeId(c.type);
    let key: string;
    switch (c.kind) {
      case 'bool':
        key = `b${t}:${c.value ? 1 : 0}`;
        break;
      case 'int':
        key = `i${t}:${c.value}`;
        break;
      case 'fp':
        key = `f${t}:${c.bits}`;
        break;
      case 'null':
      case 'zeroinitializer':
      case 'undef':
        key = `${c.kind}${t}`;
        break;
      case 'array':
      case 'struct':
      case 'packed':
        key = `${c.kind}${t}(${c.elements.map((e) => this.keyOf(e)).join(',')})`;
        break;
      case 'expr':
        key = `e${t}:${c.opcode}:${c.predicate ?? ''}(${c.operands.map((o) => this.keyOf(o)).join(',')})`;
        break;
      case 'inlineasm':
        key = `asm${t}:${c.hasSideEffects ? 1 : 0}:${c.asm.length}:${c.asm}:${c.constraints}`;
        break;
      default:
        key = 'x';
    }
    this.constantKeys.set(v, key);
    return key;
  }

  private typeId(t: Type): number {
    let id = this.typeIds.get(t);
    if (id === undefined) this.typeIds.set(t, (id = this.typeIds.size));
    return id;
  }

  // ---- types ------------------------------------------------------------------------------------

  /** `printTypeInt`: integers and primitives by description, named types by name, others spelled out. */
  typeName(t: Type): string {
    const simple = simpleTypeName(t);
    if (simple !== undefined) return simple;
    const cached = this.typeCache.get(t) ?? this.typeNames.get(t);
    if (cached !== undefined) return cached;
    const s = this.calcTypeName(t, []);
    this.typeCache.set(t, s);
    return s;
  }

  private calcTypeName(t: Type, stack: Type[]): string {
    const simple = simpleTypeName(t);
    if (simple !== undefined) return simple;
    // LLVM's TypeNames map held the symbol table's names and every type printed so far.
    const known = this.typeCache.get(t) ?? this.typeNames.get(t);
    if (known !== undefined) return known;
    if (t.kind === 'opaque') return 'opaque';
    const at = stack.indexOf(t);
    if (at >= 0) return '\\' + (stack.length - at);
    stack.push(t);
    let s: string;
    switch (t.kind) {
      case 'function':
        s = this.functionTypeText(t, (x) => this.calcTypeName(x, stack));
        break;
      case 'struct': {
        const body = '{ ' + t.elements.map((e) => this.calcTypeName(e, stack)).join(', ') + ' }';
        s = t.isPacked ? '<' + body + '>' : body;
        break;
      }
      case 'pointer':
        s = this.calcTypeName(t.element, stack) + '*';
        break;
      case 'array':
        s = '[' + t.length + ' x ' + this.calcTypeName(t.element, stack) + ']';
        break;
      case 'packed':
        s = '<' + t.length + ' x ' + this.calcTypeName(t.element, stack) + '>';
        break;
      default:
        // A version 0–6 primitive cannot occur in a version-7 module.
        s = t.kind;
    }
    stack.pop();
    return s;
  }

  /** `ret (p1 attrs, p2, ...) retattrs`, as both `calcTypeName` and `printTypeAtLeastOneLevel` wrote it. */
  private functionTypeText(t: FunctionType, name: (x: Type) => string): string {
    let s = name(t.returnType) + ' (';
    t.params.forEach((p, k) => {
      if (k) s += ', ';
      s += name(p);
      const a = attributesAt(t, k + 1);
      if (a) s += ' ' + paramAttributesText(a);
    });
    if (t.isVarArg) s += t.params.length ? ', ...' : '...';
    s += ')';
    const r = attributesAt(t, 0);
    if (r) s += ' ' + paramAttributesText(r);
    return s;
  }

  /** `printTypeAtLeastOneLevel`: a named type's own structure, for its `= type` line. */
  private typeAtLeastOneLevel(t: Type): string {
    switch (t.kind) {
      case 'integer':
        return 'i' + t.bits;
      case 'function':
        return this.functionTypeText(t, (x) => this.typeName(x));
      case 'struct': {
        const body = '{ ' + t.elements.map((e) => this.typeName(e)).join(', ') + ' }';
        return t.isPacked ? '<' + body + '>' : body;
      }
      case 'pointer':
        return this.typeName(t.element) + '*';
      case 'array':
        return '[' + t.length + ' x ' + this.typeName(t.element) + ']';
      case 'packed':
        return '<' + t.length + ' x ' + this.typeName(t.element) + '>';
      case 'opaque':
        return 'opaque';
      default:
        return this.typeName(t);
    }
  }

  // ---- operands ---------------------------------------------------------------------------------

  /** `WriteAsOperandInternal`: a space, then the value's name, number or constant text. */
  private operand(v: Value): string {
    if (v.kind !== 'instruction' && v.kind !== 'block' && v.kind !== 'argument' && isPlainConstant(v)) return ' ' + this.constantText(v);
    const name = v.name;
    if (name) return ' ' + (isGlobalLike(v) ? globalName(name) : localName(name));
    if (isGlobalLike(v)) {
      const slot = this.moduleSlots.get(v);
      return slot === undefined ? ' <badref>' : ' @' + slot;
    }
    const slot = this.current?.slots.get(v);
    return slot === undefined ? ' <badref>' : ' %' + slot;
  }

  /** `writeOperand(v, true)`: ` <type> <operand>`. */
  private typed(v: Value): string {
    return ' ' + this.typeName(v.type) + this.operand(v);
  }

  /** `WriteConstantInt`: a constant that is not a global, by value. */
  private constantText(v0: Constant, indent = '\n'): string {
    const c = canonicalConstant(v0, false);
    switch (c.kind) {
      case 'bool':
        return c.value ? 'true' : 'false';
      case 'int':
        return c.type.kind === 'integer' && c.type.bits === 1 ? (c.value === 0n ? 'false' : 'true') : c.value.toString();
      case 'fp':
        return formatFloat(c.value, c.bits, c.type.kind === 'float');
      case 'zeroinitializer':
        return 'zeroinitializer';
      case 'null':
        return 'null';
      case 'undef':
        return 'undef';
      case 'array': {
        const et = c.type.kind === 'array' ? c.type.element : c.type;
        if (et.kind === 'integer' && et.bits === 8 && c.elements.every((e) => e.kind === 'int')) {
          let s = '';
          for (const e of c.elements) s += String.fromCharCode(Number(BigInt.asUintN(8, (e as { value: bigint }).value)));
          return 'c"' + escapeString(s) + '"';
        }
        if (c.elements.length === 0) return '[ ]';
        const t = this.typeName(et);
        return '[ ' + c.elements.map((e) => t + this.operandIn(e, indent)).join(', ') + ' ]';
      }
      case 'struct': {
        const packed = c.type.kind === 'struct' && c.type.isPacked === true;
        const n = c.elements.length;
        let s = packed ? '<{' : '{';
        if (n) {
          const inner = n > 2 ? indent + '    ' : indent;
          s += n > 2 ? inner : ' ';
          s += c.elements.map((e) => this.typeName(e.type) + this.operandIn(e, inner)).join(n > 2 ? ', ' + inner : ', ');
        }
        return s + ' }' + (packed ? '>' : '');
      }
      case 'packed': {
        const et = c.type.kind === 'packed' ? c.type.element : c.type;
        const t = this.typeName(et);
        return '< ' + c.elements.map((e) => t + this.operandIn(e, indent)).join(', ') + ' >';
      }
      case 'expr': {
        let s = c.opcode === 'vaarg' ? 'va_arg' : c.opcode;
        if (c.predicate !== undefined) s += ' ' + c.predicate;
        s += ' (';
        s += c.operands.map((o) => this.typeName(o.type) + this.operandIn(o, indent)).join(', ');
        if (isCast(c.opcode)) s += ' to ' + this.typeName(c.type);
        return s + ')';
      }
      case 'inlineasm':
        return 'asm ' + (c.hasSideEffects ? 'sideeffect ' : '') + '"' + escapeString(c.asm) + '", "' + escapeString(c.constraints) + '"';
      default:
        return '<placeholder or erroneous Constant>';
    }
  }

  /** An operand inside a constant, which carries the indentation of multi-line structs along. */
  private operandIn(v: Value, indent: string): string {
    if (v.kind !== 'instruction' && v.kind !== 'block' && v.kind !== 'argument' && isPlainConstant(v)) return ' ' + this.constantText(v, indent);
    return this.operand(v);
  }

  // ---- the module -------------------------------------------------------------------------------

  print(): string {
    const m = this.module;
    let o = "; ModuleID = '<stdin>'\n";
    if (m.dataLayout) o += 'target datalayout = "' + m.dataLayout + '"\n';
    if (m.targetTriple) o += 'target triple = "' + m.targetTriple + '"\n';
    if (m.inlineAsm) {
      for (const line of m.inlineAsm.split('\n')) o += 'module asm "' + escapeString(line) + '"\n';
    }
    if (m.dependentLibraries.length) o += 'deplibs = [ ' + m.dependentLibraries.map((l) => '"' + l + '"').join(', ') + ' ]\n';
    for (const [name, t] of sortedTypeNames(m)) o += '\t' + localName(name) + ' = type ' + this.typeAtLeastOneLevel(t) + '\n';
    for (const g of m.globals) o += this.globalText(g);
    const aliases = m.aliases ?? [];
    if (aliases.length) o += '\n';
    for (const a of aliases) o += this.aliasText(a);
    for (const f of m.functions) o += this.functionText(f);
    return o;
  }

  private visibilityText(v: GlobalLike): string {
    return v.visibility === 'hidden' ? 'hidden ' : v.visibility === 'protected' ? 'protected ' : '';
  }

  private infoComment(v: GlobalLike | Instruction): string {
    if (v.type.kind === 'void') return '';
    let s = '\t\t; <' + this.typeName(v.type) + '>';
    if (!v.name) {
      const slot = isGlobalLike(v) ? this.moduleSlots.get(v) : this.current?.slots.get(v);
      s += slot === undefined ? ':<badref>' : ':' + slot;
    }
    return s + ' [#uses=' + (this.uses.get(v) ?? 0) + ']';
  }

  private globalText(g: GlobalVariable): string {
    let o = g.name ? globalName(g.name) + ' = ' : '';
    if (!g.initializer) {
      o += g.linkage === 'dllimport' ? 'dllimport ' : g.linkage === 'extern_weak' ? 'extern_weak ' : 'external ';
    } else {
      o += g.linkage === 'external' ? '' : g.linkage + ' ';
      o += this.visibilityText(g);
    }
    if (g.isThreadLocal) o += 'thread_local ';
    o += g.isConstant ? 'constant ' : 'global ';
    o += this.typeName(g.valueType);
    if (g.initializer) o += this.operand(g.initializer);
    if (g.section !== undefined && g.section !== '') o += ', section "' + g.section + '"';
    if (g.alignment) o += ', align ' + g.alignment;
    return o + this.infoComment(g) + '\n';
  }

  private aliasText(a: GlobalAlias): string {
    let o = globalName(a.name ?? '') + ' = ' + this.visibilityText(a) + 'alias ';
    if (a.linkage !== 'external') o += a.linkage + ' ';
    const target = a.aliasee;
    if (target.kind === 'global') o += this.typeName(target.type) + ' ' + globalName(target.name ?? '');
    else if (target.kind === 'function') o += this.typeName(target.functionType) + '* ' + (target.name ? globalName(target.name) : '@""');
    else o += this.operand(target);
    return o + this.infoComment(a) + '\n';
  }

  private callingConvText(cc: number): string {
    switch (cc) {
      case 0:
        return '';
      case CC_FAST:
        return 'fastcc ';
      case CC_COLD:
        return 'coldcc ';
      case CC_X86_STDCALL:
        return 'x86_stdcallcc ';
      case CC_X86_FASTCALL:
        return 'x86_fastcallcc ';
      default:
        return 'cc' + cc + ' ';
    }
  }

  /** One function as `printFunction` wrote it, from the blank line before it to its `}`. */
  functionText(f: Function): string {
    let o = '\n';
    if (f.isDeclaration) {
      o += f.linkage === 'dllimport' ? 'declare dllimport ' : f.linkage === 'extern_weak' ? 'declare extern_weak ' : 'declare ';
    } else {
      o += 'define ' + (f.linkage === 'external' ? '' : f.linkage + ' ') + this.visibilityText(f);
    }
    o += this.callingConvText(f.callingConv);
    const ft = f.functionType;
    o += this.typeName(ft.returnType) + ' ' + (f.name ? globalName(f.name) : '@""') + '(';
    const state = this.enter(f);
    try {
      if (!f.isDeclaration) {
        o += f.args
          .map((a, k) => {
            let s = this.typeName(a.type);
            const attrs = attributesAt(ft, k + 1);
            if (attrs) s += ' ' + paramAttributesText(attrs);
            if (a.name) s += ' ' + localName(a.name);
            return s;
          })
          .join(', ');
      } else {
        o += ft.params
          .map((p, k) => {
            const attrs = attributesAt(ft, k + 1);
            return this.typeName(p) + (attrs ? ' ' + paramAttributesText(attrs) : '');
          })
          .join(', ');
      }
      if (ft.isVarArg) o += ft.params.length ? ', ...' : '...';
      o += ')';
      const r = attributesAt(ft, 0);
      if (r) o += ' ' + paramAttributesText(r);
      if (f.section !== undefined && f.section !== '') o += ' section "' + f.section + '"';
      if (f.alignment) o += ' align ' + f.alignment;
      if (f.isDeclaration) return o + '\n';
      o += ' {';
      f.blocks.forEach((b, k) => (o += this.blockText(b, k === 0, state)));
      return o + '}\n';
    } finally {
      this.current = undefined;
    }
  }

  /** SlotMachine::processFunction and the blocks' predecessor lists (newest use first). */
  private enter(f: Function): FunctionState {
    const slots = new Map<Value, number>();
    let next = 0;
    for (const a of f.args) if (!a.name) slots.set(a, next++);
    for (const b of f.blocks) {
      if (!b.name) slots.set(b, next++);
      for (const i of b.instructions) if (i.type.kind !== 'void' && !i.name) slots.set(i, next++);
    }
    const preds = new Map<BasicBlock, BasicBlock[]>();
    for (const b of f.blocks) {
      const t = b.instructions[b.instructions.length - 1];
      if (!t || !isTerminator(t)) continue;
      for (const o of t.operands) {
        if (o.kind !== 'block') continue;
        let list = preds.get(o);
        if (!list) preds.set(o, (list = []));
        list.unshift(b);
      }
    }
    const state: FunctionState = { fn: f, slots, preds };
    this.current = state;
    return state;
  }

  private blockText(b: BasicBlock, isEntry: boolean, state: FunctionState): string {
    let o = '';
    if (b.name) o += '\n' + labelName(b.name) + ':';
    else if ((this.uses.get(b) ?? 0) > 0) {
      const slot = state.slots.get(b);
      o += '\n; <label>:' + (slot === undefined ? '<badref>' : slot);
    }
    if (!isEntry) {
      const preds = state.preds.get(b);
      if (!preds || preds.length === 0) o += '\t\t; No predecessors!';
      else o += '\t\t; preds =' + preds.map((p) => this.operand(p)).join(',');
    }
    o += '\n';
    for (const i of b.instructions) o += this.instructionLine(i);
    return o;
  }

  /** The instruction without its tab and comment: `%x = add i32 %a, 1`. */
  instructionBody(i: Instruction): string {
    let o = i.name ? localName(i.name) + ' = ' : '';
    if ((i.opcode === 'load' || i.opcode === 'store') && i.isVolatile) o += 'volatile ';
    else if (i.opcode === 'call' && i.isTailCall) o += 'tail ';
    o += i.opcode === 'vaarg' ? 'va_arg' : i.opcode;
    if ((i.opcode === 'icmp' || i.opcode === 'fcmp') && i.predicate !== undefined) o += ' ' + i.predicate;
    const ops = i.operands;
    const op0 = ops[0];
    switch (i.opcode) {
      case 'br':
        if (ops.length > 1) o += this.typed(ops[0]!) + ',' + this.typed(ops[1]!) + ',' + this.typed(ops[2]!);
        else o += this.generic(i);
        break;
      case 'switch':
        o += this.typed(ops[0]!) + ',' + this.typed(ops[1]!) + ' [';
        for (let k = 2; k + 1 < ops.length; k += 2) o += '\n\t\t' + this.typed(ops[k]!) + ',' + this.typed(ops[k + 1]!);
        o += '\n\t]';
        break;
      case 'phi':
        o += ' ' + this.typeName(i.type) + ' ';
        for (let k = 0; k + 1 < ops.length; k += 2) o += (k ? ', ' : '') + '[' + this.operand(ops[k]!) + ',' + this.operand(ops[k + 1]!) + ' ]';
        break;
      case 'ret':
        o += op0 ? this.generic(i) : ' void';
        break;
      case 'call':
      case 'invoke': {
        const isInvoke = i.opcode === 'invoke';
        const cc = i.callingConv ?? 0;
        // LLVM 2.0 wrote the x86 conventions of a call without the leading space, and with a trailing one.
        o +=
          cc === 0
            ? ''
            : cc === CC_FAST
              ? ' fastcc'
              : cc === CC_COLD
                ? ' coldcc'
                : cc === CC_X86_STDCALL
                  ? 'x86_stdcallcc '
                  : cc === CC_X86_FASTCALL
                    ? 'x86_fastcallcc '
                    : ' cc' + cc;
        const ft = op0 ? calleeType(op0.type) : undefined;
        const ret = ft?.returnType;
        if (op0 && ft && ret && !ft.isVarArg && !(ret.kind === 'pointer' && ret.element.kind === 'function')) o += ' ' + this.typeName(ret) + this.operand(op0);
        else if (op0) o += this.typed(op0);
        o += '(';
        const first = isInvoke ? 3 : 1;
        for (let k = first; k < ops.length; k++) {
          if (k > first) o += ',';
          o += this.typed(ops[k]!);
          const a = attributesAt(ft, isInvoke ? k - 2 : k);
          if (a) o += ' ' + paramAttributesText(a);
        }
        o += ' )';
        const r = attributesAt(ft, 0);
        if (r) o += ' ' + paramAttributesText(r);
        if (isInvoke) o += '\n\t\t\tto' + this.typed(ops[1]!) + ' unwind' + this.typed(ops[2]!);
        break;
      }
      case 'malloc':
      case 'alloca': {
        const elem = i.allocatedType ?? (i.type.kind === 'pointer' ? i.type.element : i.type);
        o += ' ' + this.typeName(elem);
        if (op0 && !(op0.kind === 'int' && op0.value === 1n)) o += ',' + this.typed(op0);
        if (i.alignment) o += ', align ' + i.alignment;
        break;
      }
      case 'vaarg':
        if (op0) o += this.typed(op0);
        o += ', ' + this.typeName(i.type);
        break;
      default:
        if (isCast(i.opcode)) {
          if (op0) o += this.typed(op0);
          o += ' to ' + this.typeName(i.type);
        } else {
          o += this.generic(i);
        }
    }
    if ((i.opcode === 'load' || i.opcode === 'store') && i.alignment) o += ', align ' + i.alignment;
    return o;
  }

  private instructionLine(i: Instruction): string {
    return '\t' + this.instructionBody(i) + this.infoComment(i) + '\n';
  }

  /** Operands sharing one type print it once; select, store, shufflevector and mixed types print every type. */
  private generic(i: Instruction): string {
    const ops = i.operands;
    if (ops.length === 0) return '';
    const first = ops[0]!.type;
    let all = i.opcode === 'select' || i.opcode === 'store' || i.opcode === 'shufflevector';
    if (!all) for (let k = 1; k < ops.length; k++) if (ops[k]!.type !== first) all = true;
    let o = all ? '' : ' ' + this.typeName(first);
    ops.forEach((v, k) => {
      if (k) o += ',';
      o += all ? this.typed(v) : this.operand(v);
    });
    return o;
  }

  // ---- parts ------------------------------------------------------------------------------------

  /** One instruction of `fn` as its line says it, without tab and comment. */
  instructionText(fn: Function, i: Instruction): string | undefined {
    if (!fn.blocks.some((b) => b.instructions.includes(i))) return undefined;
    this.enter(fn);
    try {
      return this.instructionBody(i);
    } finally {
      this.current = undefined;
    }
  }

  /** The number an unnamed global, function, argument, block or instruction prints as. */
  slotNumber(v: Value, fn?: Function): number | undefined {
    if (!fn) return this.moduleSlots.get(v);
    const state = this.enter(fn);
    this.current = undefined;
    return state.slots.get(v);
  }
}

/** Integer and primitive types print by their description, even when the type table names them. */
function simpleTypeName(t: Type): string | undefined {
  switch (t.kind) {
    case 'integer':
      return 'i' + t.bits;
    case 'void':
    case 'float':
    case 'double':
    case 'label':
      return t.kind;
    default:
      return undefined;
  }
}

/** Version 7 has no `cast`: every cast of its graph is one of the twelve. */
function isCast(op: string): boolean {
  return isAnyCastOpcode(op);
}

/** Whether `module` is a version-7 module, printed only in LLVM 2.0's syntax. */
export function isVersion7Module(module: Module): boolean {
  return module.source?.bytecodeVersion === 7 || module.dataLayout !== undefined || module.aliases !== undefined;
}

/** Prints a version-7 module; a graph no file could describe gives a PrintError. */
export function printModuleV7(module: Module): string {
  try {
    return new V7Printer(module).print();
  } catch (e) {
    if (e instanceof RangeError) throw new PrintError(`the module cannot be printed: ${e.message}`);
    throw e;
  }
}
