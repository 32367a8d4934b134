/**
 * The assembly writer: a module view in, the text `llvm-dis` printed out. It follows the order
 * and spacing of LLVM 1.x's AsmWriter exactly (tabs, the `; <type> [#uses=N]` comments, the
 * "preds" lines); what differs between releases comes from the dialect row.
 */
import { primitiveTypes, type Type } from '../graph/type.js';
import type { BasicBlock, Constant, Function, GlobalVariable, Instruction, Linkage, Value } from '../graph/value.js';
import { canonicalConstant } from './constants.js';
import type { Dialect } from './dialect.js';
import { renameLocals, renameState, type RenameState } from './locals.js';
import { FunctionSlots, ModuleSlots } from './slots.js';
import { escapeString, formatFloat, llvmName } from './text.js';
import { sortedTypeNames, TypeNamer } from './type-names.js';
import { predecessors, UseCounts } from './uses.js';
import { instructionsIn, nameIn, type ModuleView } from './view.js';

const CC_FUNCTION: Record<number, string> = { 0: '', 1: 'csretcc ', 8: 'fastcc ', 9: 'coldcc ' };
const CC_CALL: Record<number, string> = { 0: '', 1: ' csretcc', 8: ' fastcc', 9: ' coldcc' };
/** LLVM 1.9 named the x86 conventions; in calls it wrote them without the leading space. */
const CC_X86_FUNCTION: Record<number, string> = { 64: 'x86_stdcallcc ', 65: 'x86_fastcallcc ' };
const CC_X86_CALL: Record<number, string> = { 64: 'x86_stdcallcc ', 65: 'x86_fastcallcc ' };

/** Linkage keywords of a definition (external prints nothing). */
const DEFINITION_LINKAGE: Record<Linkage, string> = {
  external: '',
  internal: 'internal ',
  linkonce: 'linkonce ',
  weak: 'weak ',
  appending: 'appending ',
  dllimport: 'dllimport ',
  dllexport: 'dllexport ',
  extern_weak: 'extern_weak ',
};

/**
 * Collects the text. Appending to one string lets V8 build a rope, which is much cheaper than
 * joining millions of small array pieces at the end.
 */
class TextSink {
  text = '';
  push(...parts: string[]): void {
    for (let i = 0; i < parts.length; i++) this.text += parts[i]!;
  }
}

export class AsmPrinter {
  private readonly out = new TextSink();
  private readonly types: TypeNamer;
  private readonly uses: UseCounts;
  private readonly moduleSlots: ModuleSlots;
  private slots: FunctionSlots | undefined;
  /** Names of the current function's locals after LLVM's renaming of clashes with globals. */
  private localNames = new Map<Value, string>();
  /** Indentation of multi-line struct constants (LLVM kept it in a static string). */
  private indent = '\n';
  private readonly renames: RenameState;

  constructor(
    private readonly view: ModuleView,
    private readonly dialect: Dialect,
  ) {
    this.types = new TypeNamer(view.module);
    this.uses = new UseCounts(view, dialect.foldsCastToFirstElement);
    this.moduleSlots = new ModuleSlots([...view.globals, ...view.functions].filter((g) => nameIn(view, g) === undefined));
    this.renames = renameState(view);
  }

  print(): string {
    const m = this.view.module;
    const out = this.out;
    const d = this.dialect;
    if (d.moduleIdLine !== null) out.push(d.moduleIdLine, '\n');
    if (d.printsDataLayout) {
      const parts: string[] = [];
      if (m.endianness !== 'any') parts.push(m.endianness === 'little' ? 'e' : 'E');
      if (m.pointerSize !== 'any') parts.push(`p:${m.pointerSize}:${m.pointerSize}`);
      if (parts.length > 0) out.push('target datalayout = "', parts.join('-'), '"\n');
    }
    if (m.endianness !== 'any') out.push('target endian = ', m.endianness, '\n');
    if (m.pointerSize !== 'any') out.push('target pointersize = ', String(m.pointerSize), '\n');
    if (m.targetTriple !== '') out.push('target triple = "', m.targetTriple, '"\n');
    if (m.inlineAsm !== '') for (const line of m.inlineAsm.split('\n')) out.push('module asm "', escapeString(line), '"\n');
    if (m.dependentLibraries.length > 0) out.push('deplibs = [ ', m.dependentLibraries.map((l) => '"' + l + '"').join(', '), ' ]\n');
    for (const [name, t] of sortedTypeNames(m)) out.push('\t', llvmName(name), ' = type ', this.types.body(t), '\n');
    for (const g of this.view.globals) this.printGlobal(g);
    out.push('\nimplementation   ; Functions:\n');
    for (const f of this.view.functions) this.printFunction(f);
    return out.text;
  }

  // ---- module level ------------------------------------------------------------------------

  private printGlobal(g: GlobalVariable): void {
    const out = this.out;
    const name = nameIn(this.view, g);
    if (name !== undefined) out.push(llvmName(name), ' = ');
    if (g.initializer === undefined) out.push(this.declarationLinkage(g.linkage, 'external '));
    else out.push(this.definitionLinkage(g.linkage));
    out.push(g.isConstant ? 'constant ' : 'global ', this.types.name(g.valueType));
    if (g.initializer !== undefined) out.push(' ', this.operand(g.initializer));
    if (g.section !== undefined && g.section !== '') out.push(', section "', g.section, '"');
    if (g.alignment) out.push(', align ', String(g.alignment));
    this.infoComment(g);
    out.push('\n');
  }

  private declarationLinkage(linkage: Linkage, fallback: string): string {
    if (this.dialect.dllLinkages && (linkage === 'dllimport' || linkage === 'extern_weak')) return fallback.replace('external ', '') + linkage + ' ';
    return fallback;
  }

  private definitionLinkage(linkage: Linkage): string {
    return DEFINITION_LINKAGE[linkage];
  }

  private callingConv(cc: number, table: Record<number, string>, x86: Record<number, string>, prefix: string, suffix: string): string {
    const known = table[cc];
    if (known !== undefined) return known;
    if (this.dialect.x86CallingConvNames) {
      const name = x86[cc];
      if (name !== undefined) return name;
    }
    return prefix + 'cc' + cc + suffix;
  }

  // ---- functions ---------------------------------------------------------------------------

  private printFunction(f: Function): void {
    const out = this.out;
    const view = this.view;
    out.push('\n');
    this.localNames = renameLocals(view, f, this.renames);
    const isDeclaration = f.isDeclaration || f.blocks.length === 0;
    if (isDeclaration) out.push(this.declarationLinkage(f.linkage, 'declare '));
    else out.push(this.definitionLinkage(f.linkage));
    out.push(this.callingConv(f.callingConv, CC_FUNCTION, CC_X86_FUNCTION, '', ' '));
    const ft = f.functionType;
    out.push(this.types.name(ft.returnType), ' ');
    const name = nameIn(view, f);
    out.push(name !== undefined ? llvmName(name) : '""', '(');
    this.slots = new FunctionSlots(this.moduleSlots, view, f, (v) => this.localName(v) !== undefined);
    const args: string[] = [];
    if (f.args.length === ft.params.length) {
      for (const a of f.args) {
        const an = this.localName(a);
        args.push(an !== undefined ? this.types.name(a.type) + ' ' + llvmName(an) : this.types.name(a.type));
      }
    } else {
      for (const p of ft.params) args.push(this.types.name(p));
    }
    if (ft.isVarArg) args.push('...');
    out.push(args.join(', '), ')');
    if (f.section !== undefined && f.section !== '') out.push(' section "', f.section, '"');
    if (f.alignment) out.push(' align ', String(f.alignment));
    if (isDeclaration) {
      out.push('\n');
    } else {
      out.push(' {');
      const preds = predecessors(view, f);
      f.blocks.forEach((b, i) => this.printBlock(b, i === 0, preds.get(b) ?? []));
      out.push('}\n');
    }
    this.slots = undefined;
    this.localNames = new Map();
  }

  private printBlock(b: BasicBlock, isEntry: boolean, preds: readonly BasicBlock[]): void {
    const out = this.out;
    const name = this.localName(b);
    if (name !== undefined) out.push('\n', llvmName(name, false), ':');
    else if (this.uses.of(b) > 0) out.push('\n; <label>:', this.slotText(b));
    if (!isEntry) {
      if (preds.length === 0) out.push('\t\t; No predecessors!');
      else out.push('\t\t; preds =', preds.map((p) => ' ' + this.operand(p)).join(','));
    }
    out.push('\n');
    for (const i of instructionsIn(this.view, b)) this.printInstruction(i);
  }

  private opcodeName(op: Instruction['opcode']): string {
    switch (op) {
      case 'udiv':
      case 'sdiv':
      case 'fdiv':
        return this.dialect.signlessDivRem ? 'div' : op;
      case 'urem':
      case 'srem':
      case 'frem':
        return this.dialect.signlessDivRem ? 'rem' : op;
      case 'vaarg':
        return this.dialect.vaArgName;
      default:
        return op;
    }
  }

  private printInstruction(i: Instruction): void {
    const out = this.out;
    out.push('\t');
    const name = this.localName(i);
    if (name !== undefined) out.push(llvmName(name), ' = ');
    if ((i.opcode === 'load' || i.opcode === 'store') && i.isVolatile) out.push('volatile ');
    else if (i.opcode === 'call' && i.isTailCall) out.push('tail ');
    out.push(this.opcodeName(i.opcode));
    const ops = i.operands;
    switch (i.opcode) {
      case 'br':
        if (ops.length > 1) {
          out.push(this.typed(ops[0]!), ',', this.typed(ops[1]!), ',', this.typed(ops[2]!));
        } else {
          this.printGeneric(i);
        }
        break;
      case 'switch': {
        out.push(this.typed(ops[0]!), ',', this.typed(ops[1]!), ' [');
        for (let k = 2; k + 1 < ops.length; k += 2) out.push('\n\t\t', this.typed(ops[k]!), ',', this.typed(ops[k + 1]!));
        out.push('\n\t]');
        break;
      }
      case 'phi': {
        out.push(' ', this.types.name(i.type), ' ');
        for (let k = 0; k + 1 < ops.length; k += 2) {
          if (k > 0) out.push(', ');
          out.push('[ ', this.operand(ops[k]!), ', ', this.operand(ops[k + 1]!), ' ]');
        }
        break;
      }
      case 'ret':
        if (ops.length === 0) out.push(' void');
        else this.printGeneric(i);
        break;
      case 'call':
      case 'invoke': {
        const isInvoke = i.opcode === 'invoke';
        out.push(this.callingConv(i.callingConv ?? 0, CC_CALL, CC_X86_CALL, ' ', ''));
        const callee = ops[0]!;
        const ft = calleeType(callee.type);
        const ret = ft?.returnType;
        if (ft !== undefined && ret !== undefined && !ft.isVarArg && !(ret.kind === 'pointer' && ret.element.kind === 'function')) {
          out.push(' ', this.types.name(ret), ' ', this.operand(callee));
        } else {
          out.push(this.typed(callee));
        }
        const first = isInvoke ? 3 : 1;
        out.push('(');
        const args: string[] = [];
        for (let k = first; k < ops.length; k++) args.push(this.typed(ops[k]!));
        out.push(args.join(','), ' )');
        if (isInvoke) out.push('\n\t\t\tto', this.typed(ops[1]!), ' unwind', this.typed(ops[2]!));
        break;
      }
      case 'malloc':
      case 'alloca': {
        out.push(' ', this.types.name(i.allocatedType ?? elementOf(i.type)));
        const size = ops[0];
        if (size !== undefined && !(size.kind === 'int' && BigInt.asUintN(64, size.value) === 1n)) out.push(',', this.typed(size));
        if (i.alignment) out.push(', align ', String(i.alignment));
        break;
      }
      case 'cast':
        if (ops[0] !== undefined) out.push(this.typed(ops[0]));
        out.push(' to ', this.types.name(i.type));
        break;
      case 'vaarg':
        if (ops[0] !== undefined) out.push(this.typed(ops[0]));
        out.push(', ', this.types.name(i.type));
        break;
      case 'vanext':
        if (ops[0] !== undefined) out.push(this.typed(ops[0]));
        out.push(', ', this.types.name(i.argType ?? i.type));
        break;
      default:
        this.printGeneric(i);
    }
    this.infoComment(i);
    out.push('\n');
  }

  /** Operands with one shared type printed once, or every type when they differ. */
  private printGeneric(i: Instruction): void {
    const ops = i.opcode === 'getelementptr' ? this.gepOperands(i.operands) : i.operands;
    if (ops.length === 0) return;
    const out = this.out;
    const first = ops[0]!.type;
    let all = i.opcode === 'shl' || i.opcode === 'shr' || i.opcode === 'select' || i.opcode === 'store' || i.opcode === 'shufflevector';
    if (!all) for (let k = 1; k < ops.length; k++) if (ops[k]!.type !== first) all = true;
    if (!all) out.push(' ', this.types.name(first));
    for (let k = 0; k < ops.length; k++) {
      if (k > 0) out.push(',');
      out.push(all ? this.typed(ops[k]!) : ' ' + this.operand(ops[k]!));
    }
  }

  /** getelementptr operands, with `ubyte` struct indices widened when the dialect's reader did. */
  private gepOperands<T extends Value>(ops: readonly T[]): readonly (T | Value)[] {
    if (!this.dialect.widensStructIndices || ops.length < 3) return ops;
    const base = ops[0]!.type;
    if (base.kind !== 'pointer') return ops;
    let t: Type = base.element;
    let out: (T | Value)[] | undefined;
    for (let k = 2; k < ops.length; k++) {
      if (t.kind === 'struct') {
        const w = widenIndex(ops[k]!);
        if (w !== ops[k]) (out ??= [...ops])[k] = w;
        const idx = ops[k]!;
        const n = idx.kind === 'int' ? Number(idx.value) : -1;
        if (n < 0 || n >= t.elements.length) break;
        t = t.elements[n]!;
      } else if (t.kind === 'array' || t.kind === 'packed' || t.kind === 'pointer') {
        t = t.element;
      } else {
        break;
      }
    }
    return out ?? ops;
  }

  private infoComment(v: Value): void {
    if (v.type.kind === 'void') return;
    const out = this.out;
    out.push('\t\t; <', this.types.name(v.type), '>');
    if (this.nameOf(v) === undefined) out.push(':', this.slotText(v));
    out.push(' [#uses=', String(this.uses.of(v)), ']');
  }

  // ---- operands ----------------------------------------------------------------------------

  private localName(v: Value): string | undefined {
    const renamed = this.localNames.size === 0 ? undefined : this.localNames.get(v);
    return renamed !== undefined ? renamed : nameIn(this.view, v);
  }

  private nameOf(v: Value): string | undefined {
    return v.kind === 'global' || v.kind === 'function' ? nameIn(this.view, v) : this.localName(v);
  }

  private slotText(v: Value): string {
    const s = this.slots !== undefined ? this.slots.of(v) : this.moduleSlots.slots.get(v);
    return s === undefined ? '<badref>' : String(s);
  }

  /** ` <type> <operand>` (LLVM's writeOperand with its type). */
  private typed(v: Value): string {
    return ' ' + this.types.name(v.type) + ' ' + this.operand(v);
  }

  /** A value as an operand: its name, its slot, or a constant's text. */
  private operand(v: Value): string {
    switch (v.kind) {
      case 'argument':
      case 'block':
      case 'instruction':
      case 'global':
      case 'function': {
        const name = this.nameOf(v);
        return name !== undefined ? llvmName(name) : '%' + this.slotText(v);
      }
      case 'inlineasm':
        return 'asm ' + (v.hasSideEffects ? 'sideeffect ' : '') + '"' + escapeString(v.asm) + '", "' + escapeString(v.constraints) + '"';
      default:
        return this.constant(v);
    }
  }

  private constant(c0: Constant): string {
    const c = canonicalConstant(c0, this.dialect.foldsCastToFirstElement);
    switch (c.kind) {
      case 'bool':
        return c.value ? 'true' : 'false';
      case 'int':
        return String(c.value);
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
        if ((et.kind === 'ubyte' || et.kind === 'sbyte') && c.elements.every((e) => e.kind === 'int')) {
          let s = '';
          for (const e of c.elements) s += String.fromCharCode(Number(BigInt.asUintN(8, (e as { value: bigint }).value)));
          return 'c"' + escapeString(s) + '"';
        }
        if (c.elements.length === 0) return '[ ]';
        const tn = this.types.name(et);
        return '[ ' + c.elements.map((e) => tn + ' ' + this.operand(e)).join(', ') + ' ]';
      }
      case 'packed': {
        const et = c.type.kind === 'packed' ? c.type.element : c.type;
        const tn = this.types.name(et);
        return '< ' + c.elements.map((e) => tn + ' ' + this.operand(e)).join(', ') + ' >';
      }
      case 'struct': {
        const n = c.elements.length;
        if (n === 0) return '{ }';
        const parts: string[] = ['{'];
        if (n > 2) {
          this.indent += '    ';
          parts.push(this.indent);
        } else {
          parts.push(' ');
        }
        for (let k = 0; k < n; k++) {
          const e = c.elements[k]!;
          if (k > 0) {
            parts.push(', ');
            if (n > 2) parts.push(this.indent);
          }
          parts.push(this.types.name(e.type), ' ', this.operand(e));
        }
        if (n > 2) this.indent = this.indent.slice(0, -4);
        parts.push(' }');
        return parts.join('');
      }
      case 'expr': {
        const operands = c.opcode === 'getelementptr' ? this.gepOperands(c.operands) : c.operands;
        const ops = operands.map((o) => this.types.name(o.type) + ' ' + this.operand(o)).join(', ');
        return this.opcodeName(c.opcode) + ' (' + ops + (c.opcode === 'cast' ? ' to ' + this.types.name(c.type) : '') + ')';
      }
      default:
        return this.operand(c);
    }
  }
}

const widened = new WeakMap<Value, Constant>();

/** A `ubyte` struct index as the `uint` constant LLVM 1.9's reader made of it. */
function widenIndex(v: Value): Value {
  if (v.kind !== 'int' || v.type.kind !== 'ubyte') return v;
  let w = widened.get(v);
  if (w === undefined) {
    w = { kind: 'int', type: primitiveTypes.uint, value: v.value };
    widened.set(v, w);
  }
  return w;
}

function calleeType(t: Type): import('../graph/type.js').FunctionType | undefined {
  return t.kind === 'pointer' && t.element.kind === 'function' ? t.element : undefined;
}

function elementOf(t: Type): Type {
  return t.kind === 'pointer' ? t.element : t;
}
