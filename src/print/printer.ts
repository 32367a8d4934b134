/**
 * The assembly writer: a module view in, the text `llvm-dis` printed out. It follows the order
 * and spacing of LLVM 1.x's AsmWriter exactly (tabs, the `; <type> [#uses=N]` comments, the
 * "preds" lines); what differs between releases comes from the dialect row.
 */
import { primitiveTypes, type Type } from '../graph/type.js';
import type { BasicBlock, Constant, Function, GlobalVariable, Instruction, Linkage, Value } from '../graph/value.js';
import { canonicalConstant, isNullConstant } from './constants.js';
import { BytecodeError } from '../errors/bytecode-error.js';
import type { Dialect } from './dialect.js';
import { renameLocals, renameState, type RenameState } from './locals.js';
import { numberFunction, numberModule } from './slots.js';
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
 * Collects the text. Small appends build a V8 rope; every 32 KiB the rope is flattened and set
 * aside, so its many small nodes die young (cheap to collect) instead of living as long as a rope
 * the size of the whole output; the chunks are joined once at the end.
 */
class TextSink {
  private current = '';
  private readonly chunks: string[] = [];

  push(...parts: string[]): void {
    let s = this.current;
    for (let i = 0; i < parts.length; i++) s += parts[i]!;
    this.current = s;
    if (s.length > 32768) this.flush();
  }

  private flush(): void {
    // Reading a character makes V8 flatten the rope into one sequential string.
    this.current.charCodeAt(0);
    this.chunks.push(this.current);
    this.current = '';
  }

  text(): string {
    this.flush();
    return this.chunks.join('');
  }
}

export class AsmPrinter {
  private readonly out = new TextSink();
  private readonly types: TypeNamer;
  private readonly uses: UseCounts;
  /** Next slot number of each type after the module's unnamed globals and functions. */
  private readonly moduleNext: Map<Type, number>;
  /** Names of the current function's locals after LLVM's renaming of clashes with globals. */
  private localNames = new Map<Value, string>();
  /** Indentation of multi-line struct constants (LLVM kept it in a static string). */
  private indent = '\n';
  private readonly renames: RenameState;
  /** Compound constants being printed (a cycle can only come from bad input). */
  private readonly activeConstants = new Set<Constant>();

  constructor(
    private readonly view: ModuleView,
    private readonly dialect: Dialect,
  ) {
    this.types = new TypeNamer(view.module);
    this.uses = new UseCounts(view, dialect.foldsCastToFirstElement, dialect.constantPointerRefs);
    const infoFor = (v: Value) => this.uses.infoFor(v);
    this.moduleNext = numberModule(
      [...view.globals, ...view.functions].filter((g) => nameIn(view, g) === undefined),
      infoFor,
    );
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
    if (m.dependentLibraries.length > 0) {
      const libs = m.dependentLibraries.map((l) => '"' + l + '"');
      if (d.deplibsOnOneLine) out.push('deplibs = [ ', libs.join(', '), ' ]\n');
      else out.push('deplibs = [\n', libs.join(',\n'), ' ]\n');
    }
    for (const [name, t] of sortedTypeNames(m)) out.push('\t', llvmName(name), ' = type ', this.types.body(t), '\n');
    for (const g of this.view.globals) this.printGlobal(g);
    out.push('\nimplementation   ; Functions:\n');
    for (const f of this.view.functions) this.printFunction(f);
    return out.text();
  }

  // ---- module level ------------------------------------------------------------------------

  private printGlobal(g: GlobalVariable): void {
    const out = this.out;
    const name = nameIn(this.view, g);
    if (name !== undefined) out.push(llvmName(name), ' = ');
    if (g.initializer === undefined) out.push(this.declarationLinkage(g.linkage, 'external'));
    else out.push(this.definitionLinkage(g.linkage));
    out.push(g.isConstant ? 'constant ' : 'global ', this.types.name(g.valueType));
    if (g.initializer !== undefined) out.push(' ', this.constOperand(g.initializer));
    if (g.section !== undefined && g.section !== '') out.push(', section "', g.section, '"');
    if (g.alignment) out.push(', align ', String(g.alignment));
    out.push(this.infoComment(g), '\n');
  }

  /**
   * The keyword(s) opening a declaration: `external ` for a global variable, `declare ` for a
   * function; LLVM 1.9 named dllimport and extern_weak there (`dllimport `, `declare dllimport `).
   */
  private declarationLinkage(linkage: Linkage, keyword: 'external' | 'declare'): string {
    const named = this.dialect.dllLinkages && (linkage === 'dllimport' || linkage === 'extern_weak');
    if (keyword === 'external') return named ? linkage + ' ' : 'external ';
    return named ? 'declare ' + linkage + ' ' : 'declare ';
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
    if (this.dialect.renamesLocalClashes) this.localNames = renameLocals(view, f, this.renames);
    const isDeclaration = f.isDeclaration || f.blocks.length === 0;
    if (isDeclaration) out.push(this.declarationLinkage(f.linkage, 'declare'));
    else out.push(this.definitionLinkage(f.linkage));
    out.push(this.callingConv(f.callingConv, CC_FUNCTION, CC_X86_FUNCTION, '', ' '));
    const ft = f.functionType;
    out.push(this.types.name(ft.returnType), ' ');
    const name = nameIn(view, f);
    out.push(name !== undefined ? llvmName(name) : '""', '(');
    numberFunction(this.moduleNext, view, f, (v) => this.localName(v) !== undefined, (v) => this.uses.infoFor(v));
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
      const preds = predecessors(view, f, this.dialect.predecessorOrder === 'newestFirst');
      f.blocks.forEach((b, i) => this.printBlock(b, i === 0, preds.get(b) ?? []));
      out.push('}\n');
    }
    this.localNames = new Map();
  }

  private printBlock(b: BasicBlock, isEntry: boolean, preds: readonly BasicBlock[]): void {
    const out = this.out;
    const name = this.localName(b);
    if (name !== undefined) out.push('\n', this.dialect.quotesLabels ? llvmName(name, false) : name, ':');
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
    // One string per line: far fewer appends to the sink on the hottest path.
    let s = '\t';
    const name = this.localName(i);
    if (name !== undefined) s += llvmName(name) + ' = ';
    if ((i.opcode === 'load' || i.opcode === 'store') && i.isVolatile) s += 'volatile ';
    else if (i.opcode === 'call' && i.isTailCall) s += 'tail ';
    s += this.opcodeName(i.opcode);
    const ops = i.operands;
    switch (i.opcode) {
      case 'br':
        if (ops.length > 1) s += this.typed(ops[0]) + ',' + this.typed(ops[1]) + ',' + this.typed(ops[2]);
        else s += this.generic(i);
        break;
      case 'switch': {
        s += this.typed(ops[0]) + ',' + this.typed(ops[1]) + ' [';
        for (let k = 2; k + 1 < ops.length; k += 2) s += '\n\t\t' + this.typed(ops[k]) + ',' + this.typed(ops[k + 1]);
        s += '\n\t]';
        break;
      }
      case 'phi': {
        s += ' ' + this.types.name(i.type) + ' ';
        for (let k = 0; k + 1 < ops.length; k += 2) {
          if (k > 0) s += ', ';
          s += '[ ' + this.operand(ops[k]!) + ', ' + this.operand(ops[k + 1]!) + ' ]';
        }
        break;
      }
      case 'ret':
        s += ops.length === 0 ? ' void' : this.generic(i);
        break;
      case 'call':
      case 'invoke': {
        const isInvoke = i.opcode === 'invoke';
        s += this.callingConv(i.callingConv ?? 0, CC_CALL, CC_X86_CALL, ' ', '');
        const callee = ops[0];
        const ft = callee === undefined ? undefined : calleeType(callee.type);
        const ret = ft?.returnType;
        if (callee !== undefined && ft !== undefined && ret !== undefined && !ft.isVarArg && !(ret.kind === 'pointer' && ret.element.kind === 'function')) {
          s += ' ' + this.types.name(ret) + ' ' + this.operand(callee);
        } else {
          s += this.typed(callee);
        }
        s += '(';
        for (let k = isInvoke ? 3 : 1, first = k; k < ops.length; k++) s += (k > first ? ',' : '') + this.typed(ops[k]);
        s += ' )';
        if (isInvoke) s += '\n\t\t\tto' + this.typed(ops[1]) + ' ' + this.dialect.invokeUnwindKeyword + this.typed(ops[2]);
        break;
      }
      case 'malloc':
      case 'alloca': {
        s += ' ' + this.types.name(i.allocatedType ?? elementOf(i.type));
        const size = ops[0];
        if (size !== undefined && !(size.kind === 'int' && BigInt.asUintN(64, size.value) === 1n)) s += ',' + this.typed(size);
        if (i.alignment) s += ', align ' + i.alignment;
        break;
      }
      case 'cast':
        if (ops[0] !== undefined) s += this.typed(ops[0]);
        s += ' to ' + this.types.name(i.type);
        break;
      case 'vaarg':
        if (ops[0] !== undefined) s += this.typed(ops[0]);
        s += ', ' + this.types.name(i.type);
        break;
      case 'vanext':
        if (ops[0] !== undefined) s += this.typed(ops[0]);
        s += ', ' + this.types.name(i.argType ?? i.type);
        break;
      default:
        s += this.generic(i);
    }
    this.out.push(s + this.infoComment(i) + '\n');
  }

  /** Operands with one shared type printed once, or every type when they differ. */
  private generic(i: Instruction): string {
    const ops = i.opcode === 'getelementptr' ? this.gepOperands(i.operands) : i.operands;
    if (ops.length === 0) return '';
    const first = ops[0]!.type;
    let all =
      i.opcode === 'shl' || i.opcode === 'shr' || i.opcode === 'select' || i.opcode === 'shufflevector' || (i.opcode === 'store' && this.dialect.storePrintsAllTypes);
    if (!all) for (let k = 1; k < ops.length; k++) if (ops[k]!.type !== first) all = true;
    let s = all ? '' : ' ' + this.types.name(first);
    for (let k = 0; k < ops.length; k++) {
      if (k > 0) s += ',';
      s += all ? this.typed(ops[k]) : ' ' + this.operand(ops[k]!);
    }
    return s;
  }

  /** Whether a byte array prints as `c"..."` in this dialect. */
  private isStringArray(et: Type, elements: readonly Constant[]): boolean {
    if (et.kind !== 'ubyte' && et.kind !== 'sbyte') return false;
    const nonNegative = this.dialect.stringArrays === 'nonNegativeBytes' && et.kind === 'sbyte';
    for (const e of elements) {
      if (e.kind !== 'int') return false;
      if (nonNegative && e.value < 0n) return false;
    }
    return true;
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

  /** `\t\t; <type>:slot [#uses=N]` after a value-producing line (nothing for void). */
  private infoComment(v: Value): string {
    if (v.type.kind === 'void') return '';
    let s = '\t\t; <' + this.types.name(v.type) + '>';
    const info = this.uses.info.get(v);
    if (this.nameOf(v) === undefined) s += ':' + (info !== undefined && info.slot >= 0 ? info.slot : '<badref>');
    return s + ' [#uses=' + (info !== undefined ? info.uses : 0) + ']';
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
    const info = this.uses.info.get(v);
    return info !== undefined && info.slot >= 0 ? String(info.slot) : '<badref>';
  }

  /** ` <type> <operand>` (LLVM's writeOperand with its type; it also survived a missing operand). */
  private typed(v: Value | undefined): string {
    return v === undefined ? '<null operand!>' : ' ' + this.types.name(v.type) + ' ' + this.operand(v);
  }

  /**
   * An operand of a constant (or an initializer). LLVM ≤ 1.2 reached globals there through a
   * ConstantPointerRef, whose printing added a second space.
   */
  private constOperand(v: Value): string {
    const text = this.operand(v);
    return this.dialect.pointerRefExtraSpace && (v.kind === 'global' || v.kind === 'function') ? ' ' + text : text;
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
    const d = this.dialect;
    const c = canonicalConstant(c0, d.foldsCastToFirstElement, d.zeroAggregates === 'canonical');
    if (d.zeroAggregates === 'aboveFive') {
      if ((c.kind === 'array' || c.kind === 'struct') && c.elements.length > 5 && isNullConstant(c)) return 'zeroinitializer';
      if (c.kind === 'zeroinitializer') {
        const expanded = expandedNull(c.type);
        if (expanded !== undefined) return this.constant(expanded);
      }
    }
    if (c.kind === 'expr' || c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed') {
      if (this.activeConstants.has(c)) throw new BytecodeError('a constant contains itself (cyclic constant references)', 0, ['Module']);
      this.activeConstants.add(c);
      try {
        return this.compound(c);
      } finally {
        this.activeConstants.delete(c);
      }
    }
    return this.compound(c);
  }

  /** Whether a byte array prints as `c"..."` in this dialect. */
  private compound(c: Constant): string {
    switch (c.kind) {
      case 'bool':
        return c.value ? 'true' : 'false';
      case 'int':
        return String(c.value);
      case 'fp':
        return formatFloat(c.value, c.bits, c.type.kind === 'float', this.dialect.floatsAlwaysHex);
      case 'zeroinitializer':
        return 'zeroinitializer';
      case 'null':
        return 'null';
      case 'undef':
        return 'undef';
      case 'array': {
        const et = c.type.kind === 'array' ? c.type.element : c.type;
        if (this.isStringArray(et, c.elements)) {
          let s = '';
          for (const e of c.elements) s += String.fromCharCode(Number(BigInt.asUintN(8, (e as { value: bigint }).value)));
          return 'c"' + escapeString(s) + '"';
        }
        if (c.elements.length === 0) return '[ ]';
        const tn = this.types.name(et);
        return '[ ' + c.elements.map((e) => tn + ' ' + this.constOperand(e)).join(', ') + ' ]';
      }
      case 'packed': {
        const et = c.type.kind === 'packed' ? c.type.element : c.type;
        const tn = this.types.name(et);
        return '< ' + c.elements.map((e) => tn + ' ' + this.constOperand(e)).join(', ') + ' >';
      }
      case 'struct': {
        const n = c.elements.length;
        if (n === 0) return '{ }';
        const parts: string[] = ['{'];
        const multiLine = n > 2 && this.dialect.multiLineStructs;
        if (multiLine) {
          this.indent += '    ';
          parts.push(this.indent);
        } else {
          parts.push(' ');
        }
        for (let k = 0; k < n; k++) {
          const e = c.elements[k]!;
          if (k > 0) {
            parts.push(', ');
            if (multiLine) parts.push(this.indent);
          }
          parts.push(this.types.name(e.type), ' ', this.constOperand(e));
        }
        if (multiLine) this.indent = this.indent.slice(0, -4);
        parts.push(' }');
        return parts.join('');
      }
      case 'expr': {
        const operands = c.opcode === 'getelementptr' ? this.gepOperands(c.operands) : c.operands;
        const ops = operands.map((o) => this.types.name(o.type) + ' ' + this.constOperand(o)).join(', ');
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

/**
 * LLVM 1.1 had no zeroinitializer constant: the null value of an aggregate was an aggregate of
 * nulls (printed `zeroinitializer` only above five elements). Returns that aggregate when it has
 * at most five elements, else undefined.
 */
function expandedNull(t: Type): Constant | undefined {
  if (t.kind === 'struct' && t.elements.length <= 5) return { kind: 'struct', type: t, elements: t.elements.map(nullOf) };
  if (t.kind === 'array' && t.length <= 5) return { kind: 'array', type: t, elements: Array.from({ length: t.length }, () => nullOf(t.element)) };
  return undefined;
}

function nullOf(t: Type): Constant {
  switch (t.kind) {
    case 'bool':
      return { kind: 'bool', type: t, value: false };
    case 'float':
    case 'double':
      return { kind: 'fp', type: t, value: 0, bits: 0n };
    case 'pointer':
      return { kind: 'null', type: t };
    case 'struct':
    case 'array':
    case 'packed':
      return { kind: 'zeroinitializer', type: t };
    default:
      return { kind: 'int', type: t, value: 0n };
  }
}

function calleeType(t: Type): import('../graph/type.js').FunctionType | undefined {
  return t.kind === 'pointer' && t.element.kind === 'function' ? t.element : undefined;
}

function elementOf(t: Type): Type {
  return t.kind === 'pointer' ? t.element : t;
}
