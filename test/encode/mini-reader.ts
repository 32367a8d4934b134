/**
 * A minimal, trusting reader of version 5/6 files, for testing the writer before (and
 * independently of) the project's real decoder. It builds exactly the graph facts the writer
 * needs and validates nothing: corpus files only.
 */
import { createRequire } from 'node:module';
import { decodeOpcode, formatFor, resolveSignless, type OpcodeName } from '../../src/format/format-table.js';
import type { Module } from '../../src/graph/module.js';
import { isSigned, primitiveTypes as P, primitiveTypesById, type FunctionType, type PointerType, type Type } from '../../src/graph/type.js';
import type { BasicBlock, Constant, Function, GlobalVariable, Instruction, Linkage, Opcode, SymbolTableLayout, Value } from '../../src/graph/value.js';

const require = createRequire(import.meta.url);
const Bunzip = require('seek-bzip') as { decode(input: Buffer): Buffer };

const LINKAGES: Linkage[] = ['external', 'weak', 'appending', 'internal', 'linkonce', 'dllimport', 'dllexport', 'extern_weak'];
const latin1 = new TextDecoder('latin1');

class R {
  pos = 0;
  constructor(readonly b: Uint8Array) {}
  u32(): number {
    const b = this.b;
    const p = this.pos;
    this.pos += 4;
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
  }
  vbr(): number {
    let v = 0;
    let mul = 1;
    for (;;) {
      const c = this.b[this.pos++]!;
      v += (c & 0x7f) * mul;
      if (c < 0x80) return v;
      mul *= 128;
    }
  }
  vbr64(): bigint {
    let v = 0n;
    let sh = 0n;
    for (;;) {
      const c = this.b[this.pos++]!;
      v |= BigInt(c & 0x7f) << sh;
      if (c < 0x80) return v;
      sh += 7n;
    }
  }
  typeid(): number {
    const v = this.vbr();
    return v === 0xffffff ? this.vbr() : v;
  }
  str(): string {
    const n = this.vbr();
    const s = latin1.decode(this.b.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }
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
const hasNull = (t: Type): boolean => t.kind !== 'void' && t.kind !== 'label' && t.kind !== 'opaque';
const isTerminator = (o: string): boolean => ['ret', 'br', 'switch', 'invoke', 'unwind', 'unreachable'].includes(o);

/** The module block of a file: after `llvm` or `llvc0`, or bzip2-decompressed after `llvc2`. */
export function moduleBytes(file: Uint8Array): Uint8Array {
  const sig = latin1.decode(file.subarray(0, 5));
  if (sig === 'llvc0') return file.subarray(5);
  if (sig === 'llvc2') return new Uint8Array(Bunzip.decode(Buffer.from(file.subarray(5))));
  return file.subarray(4);
}

export function miniRead(file: Uint8Array): Module {
  const body = moduleBytes(file);
  const r = new R(body);
  r.u32();
  const modEnd = r.pos + 4 + r.u32();
  const vw = r.vbr();
  const version = vw >> 4;
  const row = formatFor(version)!;
  const align = (): void => {
    if (row.alignmentFill !== null) r.pos = (r.pos + 3) & ~3;
  };
  align();
  const m: Module = {
    kind: 'module',
    endianness: vw & 4 ? 'any' : vw & 1 ? 'big' : 'little',
    pointerSize: vw & 8 ? 'any' : vw & 2 ? 64 : 32,
    targetTriple: '',
    inlineAsm: '',
    dependentLibraries: [],
    types: [],
    typeNames: new Map(),
    globals: [],
    functions: [],
  };
  const types: Type[] = [...primitiveTypesById];
  const typeSlot = new Map<Type, number>(types.map((t, i) => [t, i]));
  const planes: Value[][] = [];
  const plane = (ps: Value[][], slot: number, t: Type): Value[] => {
    let p = ps[slot];
    if (!p) {
      p = ps[slot] = [];
      if (hasNull(t)) p.push(nullOf(t));
    }
    return p;
  };
  const gplane = (slot: number): Value[] => plane(planes, slot, types[slot]!);
  const pointerTo = (t: Type): PointerType => {
    for (const x of types) if (x.kind === 'pointer' && x.element === t) return x;
    throw new Error('no pointer type');
  };
  const opName = (raw: number, expression: boolean, operandType: Type): Opcode | 'pseudo' => {
    const d = decodeOpcode(row, raw, expression);
    if (d.kind !== 'instruction') return 'pseudo';
    let n: OpcodeName = d.name;
    if (n === 'div' || n === 'rem') {
      const el = operandType.kind === 'packed' ? operandType.element : operandType;
      n = resolveSignless(n, el.kind === 'float' || el.kind === 'double' ? 'float' : isSigned(el) ? 'signed' : 'unsigned');
    }
    if (n === 'va_arg') return 'vaarg';
    return n as Opcode;
  };
  const sections: (string | undefined)[] = [];
  const sectionUsers: [GlobalVariable | Function, number][] = [];
  const inits: [GlobalVariable, number][] = [];
  const pending: (() => void)[] = [];

  const readConstant = (t: Type, tslot: number): Value => {
    const flag = r.vbr();
    if (flag === 0xffffffff) {
      const asm = r.str();
      const constraints = r.str();
      return { kind: 'inlineasm', type: t as PointerType, asm, constraints, hasSideEffects: r.vbr() !== 0 };
    }
    if (flag === 1 && row.constantExprCountPlusOne) return { kind: 'undef', type: t };
    if (flag > 0) {
      const opc = r.vbr();
      const refs: [number, number][] = [];
      for (let i = 0; i < flag - (row.constantExprCountPlusOne ? 1 : 0); i++) {
        const s = r.vbr();
        refs.push([r.typeid(), s]);
      }
      const c: Constant = { kind: 'expr', type: t, opcode: 'add', operands: [] };
      pending.push(() => {
        c.operands = refs.map(([ts, s]) => gplane(ts)[s] as Constant);
        c.opcode = opName(opc, true, c.operands[0]!.type) as Opcode;
      });
      return c;
    }
    switch (t.kind) {
      case 'bool':
        return { kind: 'bool', type: t, value: r.vbr() !== 0 };
      case 'ubyte':
      case 'ushort':
      case 'uint':
      case 'ulong':
        return { kind: 'int', type: t, value: r.vbr64() };
      case 'sbyte':
      case 'short':
      case 'int':
      case 'long': {
        const v = r.vbr64();
        // LLVM reads "-0" as the most negative long (its writer wraps that value to 1).
        return { kind: 'int', type: t, value: v === 1n ? -(1n << 63n) : v & 1n ? -(v >> 1n) : v >> 1n };
      }
      case 'float': {
        const bits = r.u32();
        return { kind: 'fp', type: t, value: new Float32Array(new Uint32Array([bits]).buffer)[0]!, bits: BigInt(bits) };
      }
      case 'double': {
        const lo = r.u32();
        const hi = r.u32();
        const bits = (BigInt(hi) << 32n) | BigInt(lo);
        return { kind: 'fp', type: t, value: new Float64Array(new BigUint64Array([bits]).buffer)[0]!, bits };
      }
      case 'array':
      case 'packed':
      case 'struct': {
        const elTypes = t.kind === 'struct' ? t.elements : Array.from({ length: t.length }, () => t.element);
        const slots = elTypes.map(() => r.vbr());
        const c: Constant = { kind: t.kind, type: t, elements: [] };
        pending.push(() => {
          c.elements = slots.map((s, i) => gplane(typeSlot.get(elTypes[i]!)!)[s] as Constant);
        });
        return c;
      }
      default:
        throw new Error(`constant of type ${t.kind} (plane ${tslot})`);
    }
  };

  const readSymtab = (end: number, lookup: (t: number, s: number) => Value, typeOf: (t: number) => Type): SymbolTableLayout => {
    const layout: SymbolTableLayout = { valuePlanes: [] };
    const nt = r.vbr();
    for (let i = 0; i < nt; i++) {
      const t = types[r.typeid()]!;
      m.typeNames.set(r.str(), t);
    }
    while (r.pos < end) {
      const n = r.vbr();
      const t = r.typeid();
      const values: Value[] = [];
      for (let i = 0; i < n; i++) {
        const v = lookup(t, r.vbr());
        (v as { name?: string }).name = r.str();
        values.push(v);
      }
      layout.valuePlanes.push({ type: typeOf(t), values });
    }
    return layout;
  };

  const bodies: Function[] = [];
  let nextBody = 0;
  while (r.pos < modEnd) {
    const h = r.u32();
    const id = h & 31;
    const end = r.pos + (h >>> 5);
    if (id === 6) {
      const n = r.vbr();
      const recs: number[][] = [];
      for (let i = 0; i < n; i++) {
        const k = r.vbr();
        const rec = [k];
        if (k === 13) {
          rec.push(r.typeid());
          const np = r.vbr();
          for (let j = 0; j < np; j++) rec.push(r.typeid());
        } else if (k === 14) {
          for (let x = r.typeid(); x !== 0; x = r.typeid()) rec.push(x);
        } else if (k === 15 || k === 18) rec.push(r.typeid(), r.vbr());
        else if (k === 16) rec.push(r.typeid());
        recs.push(rec);
        const shell: Type =
          k === 13 ? { kind: 'function', returnType: P.void, params: [], isVarArg: false }
          : k === 14 ? { kind: 'struct', elements: [] }
          : k === 15 ? { kind: 'array', element: P.void, length: 0 }
          : k === 18 ? { kind: 'packed', element: P.void, length: 0 }
          : k === 16 ? { kind: 'pointer', element: P.void }
          : { kind: 'opaque' };
        typeSlot.set(shell, types.length);
        types.push(shell);
      }
      recs.forEach((rec, i) => {
        const t = types[13 + i] as { kind: string } & Record<string, unknown>;
        if (t.kind === 'function') {
          const ids = rec.slice(2);
          const va = ids.length > 0 && ids[ids.length - 1] === 0;
          Object.assign(t, { returnType: types[rec[1]!], params: (va ? ids.slice(0, -1) : ids).map((x) => types[x]!), isVarArg: va });
        } else if (t.kind === 'struct') Object.assign(t, { elements: rec.slice(1).map((x) => types[x]!) });
        else if (t.kind === 'array' || t.kind === 'packed') Object.assign(t, { element: types[rec[1]!], length: rec[2] });
        else if (t.kind === 'pointer') Object.assign(t, { element: types[rec[1]!] });
      });
      m.types = types.slice(13);
    } else if (id === 5) {
      for (let w = r.vbr(); w !== 0; w = r.vbr()) {
        const slot = Math.floor(w / 32);
        const t = types[slot] as PointerType;
        let linkage = (w >> 2) & 7;
        let hasInit = (w & 2) !== 0;
        let alignment = 0;
        let sec = 0;
        if (linkage === 3 && !hasInit) {
          const e = r.vbr();
          hasInit = (e & 1) !== 0;
          linkage = (e >> 1) & 7;
          const a = (e >> 4) & 31;
          alignment = a ? 2 ** (a - 1) : 0;
          if (e & 512) sec = r.vbr();
        }
        const g: GlobalVariable = { kind: 'global', type: t, valueType: t.element, linkage: LINKAGES[linkage]!, isConstant: (w & 1) !== 0, alignment };
        if (hasInit) inits.push([g, r.vbr()]);
        if (sec) sectionUsers.push([g, sec]);
        m.globals.push(g);
        gplane(slot).push(g);
      }
      for (let w = r.vbr(); w !== 0; w = r.vbr()) {
        if (row.noFlagsForFunctions) w = w * 32 + 1; // a bare type slot: C calling convention
        const slot = Math.floor(w / 32) & 0x3ffffff;
        const t = types[slot] as PointerType;
        const ft = t.element as FunctionType;
        let cc = w & 15;
        let alignment = 0;
        let sec = 0;
        let linkage: Linkage = 'external';
        if (w >= 2 ** 31) {
          const e = r.vbr();
          const a = e & 31;
          alignment = a ? 2 ** (a - 1) : 0;
          cc |= ((e >> 5) & 31) << 4;
          if (e & 1024) sec = r.vbr();
          const ext = (e >> 11) & 3;
          if (ext === 1) linkage = 'dllimport';
          if (ext === 2) linkage = 'extern_weak';
        }
        const f: Function = {
          kind: 'function', type: t, functionType: ft, linkage, callingConv: cc - 1, alignment,
          isDeclaration: (w & 16) !== 0, args: ft.params.map((type, index) => ({ kind: 'argument', type, index })), blocks: [],
        };
        if (sec) sectionUsers.push([f, sec]);
        m.functions.push(f);
        if (!f.isDeclaration || row.declarationsHaveFunctionBlocks) bodies.push(f);
        gplane(slot).push(f);
      }
      const nl = r.vbr();
      for (let i = 0; i < nl; i++) m.dependentLibraries.push(r.str());
      m.targetTriple = r.str();
      if (row.hasSectionNames && r.pos < end) {
        const ns = r.vbr();
        for (let i = 0; i < ns; i++) sections.push(r.str());
        m.inlineAsm = r.str();
      }
      for (const [v, s] of sectionUsers) v.section = sections[s - 1];
    } else if (id === 3) {
      while (r.pos < end) {
        const nc = r.vbr();
        const ts = r.typeid();
        if (ts === 0) {
          for (let i = 0; i < nc; i++) {
            const as = r.typeid();
            const at = types[as] as { kind: 'array'; element: Type; length: number };
            const elements: Constant[] = [];
            for (let j = 0; j < at.length; j++) {
              const b = body[r.pos++]!;
              elements.push({ kind: 'int', type: at.element, value: BigInt(at.element.kind === 'sbyte' ? (b << 24) >> 24 : b) });
            }
            gplane(as).push({ kind: 'array', type: at as Type, elements });
          }
        } else {
          const t = types[ts]!;
          for (let i = 0; i < nc; i++) gplane(ts).push(readConstant(t, ts));
        }
      }
      for (const p of pending) p();
      pending.length = 0;
    } else if (id === 2) {
      readFunction(bodies[nextBody++]!, end);
    } else if (id === 4) {
      m.layout = readSymtab(end, (t, s) => gplane(t)[s]!, (t) => types[t]!);
    }
    r.pos = end;
    align();
  }
  for (const [g, s] of inits) g.initializer = gplane(typeSlot.get(g.valueType)!)[s] as Constant;
  return m;

  function readFunction(f: Function, fend: number): void {
    f.linkage = LINKAGES[r.vbr()]!;
    if (row.declarationsHaveFunctionBlocks) f.isDeclaration = r.pos >= fend;
    let ctypes: Type[] | null = null;
    const cplanes: Value[][] = [];
    const local: Value[][] = [];
    const ltype = (i: number): Type => (ctypes ? ctypes[i]! : types[i]!);
    const ctypeIndex = new Map<Type, number>();
    const lslot = (t: Type): number => (ctypes ? ctypeIndex.get(t)! : typeSlot.get(t)!);
    const lplane = (i: number): Value[] => {
      let p = local[i];
      if (!p) {
        const cp = cplanes[i];
        if (cp) p = cp.slice();
        else {
          const t = ltype(i);
          p = gplane(typeSlot.get(t)!).slice();
        }
        local[i] = p;
      }
      return p;
    };
    const bbs: BasicBlock[] = [];
    const fixups: (() => void)[] = [];
    let argsPlaced = false;
    const placeArgs = (): void => {
      if (argsPlaced) return;
      argsPlaced = true;
      for (const a of f.args) lplane(lslot(a.type)).push(a);
    };
    while (r.pos < fend) {
      const h = r.u32();
      const id = h & 31;
      const end = r.pos + (h >>> 5);
      if (id === 8) {
        const nt = r.vbr();
        if (nt) {
          ctypes = [...primitiveTypesById];
          for (let i = 0; i < nt; i++) ctypes.push(types[r.typeid()]!);
          ctypes.forEach((t, i) => ctypeIndex.set(t, i));
        }
        while (r.pos < end) {
          const w = r.vbr();
          let cnt = w & 3;
          let pl = w >>> 2;
          if (cnt === 3) {
            cnt = pl;
            pl = r.typeid();
          }
          const t = ltype(pl);
          const gp = gplane(typeSlot.get(t)!);
          const p: Value[] = hasNull(t) ? [nullOf(t)] : [];
          for (let i = 0; i < cnt; i++) p.push(gp[r.vbr()]!);
          cplanes[pl] = p;
        }
      } else if (id === 7) {
        placeArgs();
        let bb: BasicBlock = { kind: 'block', type: P.label, instructions: [] };
        while (r.pos < end) {
          const inst = readInstruction();
          bb.instructions.push(inst);
          if (isTerminator(inst.opcode)) {
            bbs.push(bb);
            bb = { kind: 'block', type: P.label, instructions: [] };
          }
        }
        f.blocks = bbs;
      } else if (id === 4) {
        for (const fx of fixups) fx();
        fixups.length = 0;
        f.layout = readSymtab(end, (t, s) => (ltype(t).kind === 'label' ? bbs[s]! : lplane(t)[s]!), ltype);
      }
      r.pos = end;
      align();
    }
    for (const fx of fixups) fx();

    function readInstruction(): Instruction {
      const w = r.u32();
      let opc: number;
      let ty: number;
      let raw: number[];
      switch (w & 3) {
        case 0: {
          r.pos -= 4;
          opc = r.vbr() >>> 2;
          ty = r.typeid();
          const n = r.vbr();
          raw = [];
          for (let i = 0; i < n; i++) raw.push(r.vbr());
          if (row.longInstructionsPadded) align();
          break;
        }
        case 1:
          opc = (w >>> 2) & 63;
          ty = (w >>> 8) & 4095;
          raw = (w >>> 20) === 4095 ? [] : [w >>> 20];
          break;
        case 2:
          opc = (w >>> 2) & 63;
          ty = (w >>> 8) & 255;
          raw = [(w >>> 16) & 255, w >>> 24];
          break;
        default:
          opc = (w >>> 2) & 63;
          ty = (w >>> 8) & 63;
          raw = [(w >>> 14) & 63, (w >>> 20) & 63, w >>> 26];
      }
      const T = ltype(ty);
      const inst: Instruction = { kind: 'instruction', opcode: 'ret', type: P.void, operands: [] };
      const refs: (() => Value)[] = [];
      const val = (t: Type, s: number): void => {
        const ts = lslot(t);
        refs.push(() => lplane(ts)[s]!);
      };
      const lab = (s: number): void => {
        refs.push(() => bbs[s]!);
      };
      const d = decodeOpcode(row, opc, false);
      let name: string;
      let cc = 0;
      let tail = false;
      if (d.kind === 'pseudo') {
        switch (d.pseudo) {
          case 'invokeWithCC': name = 'invoke'; cc = raw.pop()!; break;
          case 'invokeFastCC': name = 'invoke'; cc = 8; break;
          case 'callWithCC': { name = 'call'; const x = raw.pop()!; cc = x >>> 1; tail = (x & 1) !== 0; break; }
          case 'tailCallFastCC': name = 'call'; cc = 8; tail = true; break;
          case 'callFastCC': name = 'call'; cc = 8; break;
          case 'tailCallC': name = 'call'; tail = true; break;
          case 'volatileLoad': name = 'load'; inst.isVolatile = true; break;
          default: name = 'store'; inst.isVolatile = true;
        }
      } else {
        name = opName(opc, false, T);
        // The pre-LLVM-1.6 vaarg (its own opcode) differs in meaning from 1.6+ va_arg.
        if (name === 'vaarg') {
          const d = decodeOpcode(row, opc, false);
          if (d.kind === 'instruction' && d.name === 'vaarg') inst.legacyVarArgs = true;
        }
      }
      inst.opcode = name as Opcode;
      let rt: Type = T;
      switch (name) {
        case 'ret': rt = P.void; if (raw.length) val(T, raw[0]!); break;
        case 'br': rt = P.void; if (raw.length === 1) lab(raw[0]!); else { val(P.bool, raw[2]!); lab(raw[0]!); lab(raw[1]!); } break;
        case 'switch': rt = P.void; val(T, raw[0]!); lab(raw[1]!); for (let i = 2; i < raw.length; i += 2) { val(T, raw[i]!); lab(raw[i + 1]!); } break;
        case 'unwind': case 'unreachable': rt = P.void; break;
        case 'invoke': case 'call': {
          const ft = (T as PointerType).element as FunctionType;
          rt = ft.returnType;
          inst.callingConv = cc;
          if (name === 'call') inst.isTailCall = tail;
          val(T, raw[0]!);
          let i = 1;
          if (name === 'invoke') { lab(raw[1]!); lab(raw[2]!); i = 3; }
          for (const p of ft.params) val(p, raw[i++]!);
          if (ft.isVarArg) for (; i < raw.length; i += 2) val(ltype(raw[i]!), raw[i + 1]!);
          break;
        }
        case 'seteq': case 'setne': case 'setle': case 'setge': case 'setlt': case 'setgt':
          rt = P.bool; val(T, raw[0]!); val(T, raw[1]!); break;
        case 'malloc': case 'alloca':
          inst.allocatedType = (T as PointerType).element; val(P.uint, raw[0]!);
          inst.alignment = raw.length > 1 ? 2 ** (raw[1]! - 1) : 0; break;
        case 'free': rt = P.void; val(T, raw[0]!); break;
        case 'load': rt = (T as PointerType).element; val(T, raw[0]!); break;
        case 'store': rt = P.void; val((T as PointerType).element, raw[0]!); val(T, raw[1]!); break;
        case 'getelementptr': {
          val(T, raw[0]!);
          let cur: Type = T;
          for (let i = 1; i < raw.length; i++) {
            if (cur.kind === 'pointer' || cur.kind === 'array' || cur.kind === 'packed') {
              val([P.uint, P.int, P.ulong, P.long][raw[i]! & 3]!, raw[i]! >>> 2);
              cur = cur.element;
            } else if (cur.kind === 'struct') {
              const c = lplane(lslot(P.uint))[raw[i]!]!;
              val(P.uint, raw[i]!);
              cur = cur.elements[c.kind === 'int' ? Number(c.value) : 0]!;
            }
          }
          rt = raw.length === 1 ? T : pointerTo(cur);
          break;
        }
        case 'phi': for (let i = 0; i < raw.length; i += 2) { val(T, raw[i]!); lab(raw[i + 1]!); } break;
        case 'cast': case 'vaarg': val(T, raw[0]!); rt = ltype(raw[1]!); break;
        case 'vanext': val(T, raw[0]!); inst.argType = ltype(raw[1]!); break;
        case 'shl': case 'shr': val(T, raw[0]!); val(P.ubyte, raw[1]!); break;
        case 'select': val(P.bool, raw[0]!); val(T, raw[1]!); val(T, raw[2]!); break;
        case 'extractelement': rt = (T as { element: Type }).element; val(T, raw[0]!); val(P.uint, raw[1]!); break;
        case 'insertelement': val(T, raw[0]!); val((T as { element: Type }).element, raw[1]!); val(P.uint, raw[2]!); break;
        case 'shufflevector': {
          val(T, raw[0]!); val(T, raw[1]!);
          const len = (T as { length: number }).length;
          const mt = types.find((x) => x.kind === 'packed' && x.element === P.uint && x.length === len)!;
          val(mt, raw[2]!);
          break;
        }
        default: val(T, raw[0]!); val(T, raw[1]!);
      }
      inst.type = rt;
      fixups.push(() => {
        inst.operands = refs.map((g) => g());
      });
      if (rt.kind !== 'void') lplane(lslot(rt)).push(inst);
      return inst;
    }
  }
}
