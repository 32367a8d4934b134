/**
 * The last step of a link: every type the linked module mentions becomes its canonical object
 * (type-resolver.ts), so that types LLVM held as one object are one object here too, with every
 * refined opaque type replaced by what it became. Only the linked module's own objects change.
 */
import { PRIMITIVE_DECLARATION_ORDER } from '../held/primitive-order.js';
import type { Module } from '../graph/module.js';
import type { Type } from '../graph/type.js';
import type { Constant, Function, FunctionType, PointerType, SymbolTableLayout } from '../graph/index.js';
import { isConstant } from './clone.js';
import type { TypeResolver } from './type-resolver.js';

export function finishTypes(module: Module, types: TypeResolver): void {
  types.canonicalize(typesMentioned(module));
  const seen = new Set<Constant>();
  const order: Type[] = [];
  const known = new Set<Type>();
  const canon = <T extends Type>(t: T): T => {
    const c = types.canonical(t) as T;
    if (!known.has(c)) {
      known.add(c);
      order.push(c);
    }
    return c;
  };
  const constant = (c: Constant): void => {
    if (seen.has(c)) return;
    seen.add(c);
    if (c.kind === 'global' || c.kind === 'function') return; // typed with the globals below
    (c as { type: Type }).type = canon(c.type);
    if (c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed') for (const e of c.elements) constant(e);
    else if (c.kind === 'expr') for (const o of c.operands) constant(o);
  };
  for (const g of module.globals) {
    g.type = canon(g.type);
    g.valueType = canon(g.valueType);
  }
  for (const f of module.functions) {
    f.type = canon(f.type) as PointerType;
    f.functionType = canon(f.functionType) as FunctionType;
    for (const a of f.args) a.type = canon(a.type);
  }
  for (const g of module.globals) if (g.initializer !== undefined) constant(g.initializer);
  for (const f of module.functions) {
    for (const b of f.blocks) {
      for (const i of b.instructions) {
        i.type = canon(i.type);
        if (i.allocatedType !== undefined) i.allocatedType = canon(i.allocatedType);
        if (i.argType !== undefined) i.argType = canon(i.argType);
        for (const o of i.operands) if (isConstant(o)) constant(o);
      }
    }
  }
  for (const [name, t] of module.typeNames) module.typeNames.set(name, canon(t));
  for (const f of module.functions) {
    const layout = primitivePlanesFirst(f);
    if (layout !== undefined) f.layout = layout;
  }
  module.types = order.filter((t) => t.kind !== 'void' && !isPrimitiveKind(t));
}

/** Every type the module mentions (the parts of each are found by `canonicalize`). */
function typesMentioned(module: Module): Type[] {
  const out: Type[] = [];
  const seen = new Set<Constant>();
  const constant = (c: Constant): void => {
    if (seen.has(c)) return;
    seen.add(c);
    out.push(c.type);
    if (c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed') for (const e of c.elements) constant(e);
    else if (c.kind === 'expr') for (const o of c.operands) constant(o);
  };
  for (const g of module.globals) {
    out.push(g.type, g.valueType);
    if (g.initializer !== undefined) constant(g.initializer);
  }
  for (const f of module.functions) {
    out.push(f.type, f.functionType);
    for (const a of f.args) out.push(a.type);
    for (const b of f.blocks) {
      for (const i of b.instructions) {
        out.push(i.type);
        if (i.allocatedType !== undefined) out.push(i.allocatedType);
        if (i.argType !== undefined) out.push(i.argType);
        for (const o of i.operands) if (isConstant(o)) constant(o);
      }
    }
  }
  for (const t of module.typeNames.values()) out.push(t);
  return out;
}

/**
 * LLVM 1.x ordered a symbol table's planes by the address of their type object. The linked module
 * has no file order to keep, so the writer orders planes by type number (encode/symbol-order.ts),
 * which for derived types is the usual heap order of llvm-link's reading. Primitive types were
 * `ManagedStatic`s allocated at start-up in Type.cpp's declaration order (sbyte before ubyte, int
 * before uint: not their type ids' order) and before the types a file makes: a layout listing
 * only a function's primitive planes, in that order, puts them first so.
 */
const PRIMITIVE_ALLOCATION_ORDER = PRIMITIVE_DECLARATION_ORDER;

function primitivePlanesFirst(f: Function): SymbolTableLayout | undefined {
  if (f.blocks.length === 0) return undefined;
  const present = new Map<string, Type>();
  const note = (v: { type: Type; name?: string }): void => {
    if (v.name && isPrimitiveKind(v.type) === true) present.set(v.type.kind, v.type);
  };
  for (const a of f.args) note(a);
  for (const b of f.blocks) {
    note(b);
    for (const i of b.instructions) note(i);
  }
  if (present.size === 0) return undefined;
  const valuePlanes = PRIMITIVE_ALLOCATION_ORDER.filter((k) => present.has(k)).map((k) => ({ type: present.get(k)!, values: [] }));
  return { valuePlanes };
}

function isPrimitiveKind(t: Type): boolean {
  return t.kind !== 'function' && t.kind !== 'struct' && t.kind !== 'array' && t.kind !== 'packed' && t.kind !== 'pointer' && t.kind !== 'opaque';
}
