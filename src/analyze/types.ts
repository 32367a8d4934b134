/**
 * The analyzer's own light model of types: just enough of LLVM 1.9's type table to answer the
 * questions its reader asked while counting (is this a pointer to a function? what plane does an
 * argument go in?) and to print a function's type the way the analyzer printed it.
 *
 * Primitive types are nodes 0–12 (LLVM 1.9 numbering). A type-table entry starts as a forward
 * placeholder (LLVM filled the table with opaque types first, then refined each one) and is
 * resolved once its definition has been read.
 */

export type TypeNode =
  | { kind: 'prim'; id: number }
  | { kind: 'function'; ret: TypeNode; params: TypeNode[]; vararg: boolean }
  | { kind: 'pointer'; elem: TypeNode }
  | { kind: 'array'; elem: TypeNode; n: number }
  | { kind: 'packed'; elem: TypeNode; n: number }
  | { kind: 'struct'; elems: TypeNode[] }
  | { kind: 'opaque'; serial: number; resolved?: TypeNode };

const PRIM_NAMES = [
  'void', 'bool', 'ubyte', 'sbyte', 'ushort', 'short', 'uint', 'int', 'ulong', 'long', 'float', 'double', 'label',
] as const;

export const PRIMITIVES: readonly TypeNode[] = PRIM_NAMES.map((_, id) => ({ kind: 'prim', id }) as const);

/** Follows placeholder resolutions to the type a table entry finally became. */
export function deref(t: TypeNode): TypeNode {
  let cur = t;
  while (cur.kind === 'opaque' && cur.resolved !== undefined) cur = cur.resolved;
  return cur;
}

let opaqueSerial = 0;
export function newOpaque(): TypeNode {
  return { kind: 'opaque', serial: opaqueSerial++ };
}

/**
 * Prints `t` as LLVM 1.9's `WriteTypeSymbolic` did: primitives by name, types named in the module
 * symbol table by `%name`, recursion as `\N` up-references. `names` maps a structural key
 * (`typeKey`) to the printed name, because LLVM's types were uniqued, so a name applied to every
 * structurally equal type.
 */
export function describeType(t: TypeNode, names: ReadonlyMap<string, string>): string {
  const stack: TypeNode[] = [];
  const go = (x0: TypeNode, top: boolean): string => {
    const x = deref(x0);
    if (x.kind === 'prim') return PRIM_NAMES[x.id] ?? `prim${x.id}`;
    if (names.size) {
      const n = names.get(typeKey(x));
      if (n !== undefined) return n;
    }
    if (x.kind === 'opaque') return 'opaque';
    const at = stack.indexOf(x);
    if (at >= 0) return `\\${stack.length - at}`;
    stack.push(x);
    let s: string;
    switch (x.kind) {
      case 'function': {
        const ps = x.params.map((p) => go(p, false));
        if (x.vararg) ps.push('...');
        s = `${go(x.ret, false)} (${ps.join(', ')})`;
        break;
      }
      case 'struct':
        s = x.elems.length ? `{ ${x.elems.map((e) => go(e, false)).join(', ')} }` : '{  }';
        break;
      case 'pointer':
        s = `${go(x.elem, false)}*`;
        break;
      case 'array':
        s = `[${x.n} x ${go(x.elem, false)}]`;
        break;
      case 'packed':
        s = `<${x.n} x ${go(x.elem, false)}>`;
        break;
    }
    stack.pop();
    void top;
    return s;
  };
  return go(t, true);
}

/** A structural key: equal for types LLVM would have uniqued to one object (opaques are distinct). */
export function typeKey(t0: TypeNode): string {
  const t = deref(t0);
  const stack: TypeNode[] = [];
  const go = (x0: TypeNode): string => {
    const x = deref(x0);
    if (x.kind === 'prim') return `p${x.id}`;
    if (x.kind === 'opaque') return `o${x.serial}`;
    const at = stack.indexOf(x);
    if (at >= 0) return `^${stack.length - at}`;
    stack.push(x);
    let s: string;
    switch (x.kind) {
      case 'function':
        s = `f(${go(x.ret)};${x.params.map(go).join(',')}${x.vararg ? ',...' : ''})`;
        break;
      case 'struct':
        s = `s{${x.elems.map(go).join(',')}}`;
        break;
      case 'pointer':
        s = `${go(x.elem)}*`;
        break;
      case 'array':
        s = `[${x.n}x${go(x.elem)}]`;
        break;
      case 'packed':
        s = `<${x.n}x${go(x.elem)}>`;
        break;
    }
    stack.pop();
    return s;
  };
  return go(t);
}

/** LLVM 1.9's `getLLVMName` for a type name: `%name`, quoted when it has unusual characters. */
export function llvmTypeName(name: string): string {
  if (/^[0-9]/.test(name)) return `"${name}"`;
  if (/[^a-zA-Z0-9._-]/.test(name)) return `"${name}"`;
  return `%${name}`;
}
