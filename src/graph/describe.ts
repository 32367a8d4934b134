/**
 * Small graph helpers that several layers need: a readable type name for error messages, the
 * null value of a type, and an empty module. Kept here so the decoder, the writer, the verifier
 * and the printer agree on them.
 */
import type { Module } from './module.js';
import type { Type } from './type.js';
import type { Constant } from './value.js';

/**
 * A short rendering of a type for messages (not any dialect's syntax): nesting beyond a few levels
 * is abbreviated, so a type that contains itself cannot make a message endless.
 *
 * @category Graph
 */
export function describeType(t: Type, depth = 0): string {
  if (depth > 4) return '…';
  switch (t.kind) {
    case 'pointer':
      return `${describeType(t.element, depth + 1)}*`;
    case 'array':
      return `[${t.length} x ${describeType(t.element, depth + 1)}]`;
    case 'packed':
      return `<${t.length} x ${describeType(t.element, depth + 1)}>`;
    case 'struct': {
      const body = `{ ${t.elements.map((e) => describeType(e, depth + 1)).join(', ')} }`;
      return t.isPacked ? `<${body}>` : body;
    }
    case 'integer':
      return `i${t.bits}`;
    case 'function':
      return `${describeType(t.returnType, depth + 1)} (${[...t.params.map((p) => describeType(p, depth + 1)), ...(t.isVarArg ? ['...'] : [])].join(', ')})`;
    default:
      return t.kind;
  }
}

/**
 * A type as a message should name it: `%name` when the module names it (the name LLVM printed),
 * else its short rendering (`describeType`).
 */
export function typeLabel(module: Module, t: Type): string {
  for (const [name, named] of module.typeNames) if (named === t) return '%' + name;
  return describeType(t);
}

/**
 * The null value of `t`: false, 0, 0.0, null or zeroinitializer. It is what slot 0 of a value
 * plane holds where the format gives planes an implicit null (docs/format.md §7).
 */
export function nullValue(t: Type): Constant {
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

/**
 * A module with nothing in it, for building modules in code.
 *
 * @category Graph
 */
export function emptyModule(): Module {
  return {
    kind: 'module',
    endianness: 'any',
    pointerSize: 'any',
    targetTriple: '',
    inlineAsm: '',
    dependentLibraries: [],
    types: [],
    typeNames: new Map(),
    globals: [],
    functions: [],
  };
}

/**
 * The first construct of `module` that only version 7 (LLVM 2.0 development) has, described for a
 * message (`integer type i32`, `a data layout`, `alias @a`), or undefined for a version 0–6 module.
 * It looks at the module's parts and types, not into function bodies: a module whose signatures
 * and types are all LLVM 1.x ones cannot hold a version-7 instruction the graph would accept.
 */
export function version7Feature(module: Module): string | undefined {
  if (module.dataLayout !== undefined) return 'a data layout';
  const alias = module.aliases?.[0];
  if (alias !== undefined) return `alias ${alias.name !== undefined ? '@' + alias.name : '(unnamed)'}`;
  const integer = (t: Type): string | undefined => (t.kind === 'integer' ? `integer type i${t.bits}` : undefined);
  for (const t of module.types) {
    const found =
      integer(t) ??
      (t.kind === 'struct' && t.isPacked ? 'a packed struct type' : t.kind === 'function' && t.paramAttributes ? 'parameter attributes' : undefined);
    if (found !== undefined) return found;
  }
  for (const g of module.globals) {
    const found = integer(g.valueType) ?? (g.visibility !== undefined ? `${g.visibility} visibility` : g.isThreadLocal ? 'thread_local' : undefined);
    if (found !== undefined) return found;
  }
  // (Loops, not `params.map(…)`: the writer asks this of every module, thousands of functions.)
  for (const f of module.functions) {
    let found = integer(f.functionType.returnType);
    const params = f.functionType.params;
    for (let i = 0; i < params.length && found === undefined; i++) found = integer(params[i]!);
    if (found === undefined && f.visibility !== undefined) found = `${f.visibility} visibility`;
    if (found !== undefined) return found;
  }
  return undefined;
}
