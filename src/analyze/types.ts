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
 * to the printed name by identity: a module's type table held each (uniqued) type once.
 */
export function describeType(t: TypeNode, names: ReadonlyMap<TypeNode, string>): string {
  const stack: TypeNode[] = [];
  // Unnamed types form a DAG whose unfolding can be exponential in a damaged file: cap the work.
  let budget = 512;
  const go = (x0: TypeNode): string => {
    if (--budget < 0) return '...';
    const x = deref(x0);
    if (x.kind === 'prim') return PRIM_NAMES[x.id] ?? `prim${x.id}`;
    if (names.size) {
      const n = names.get(x);
      if (n !== undefined) return n;
    }
    if (x.kind === 'opaque') return 'opaque';
    const at = stack.indexOf(x);
    if (at >= 0) return `\\${stack.length - at}`;
    stack.push(x);
    let s: string;
    switch (x.kind) {
      case 'function': {
        const ps = x.params.map((p) => go(p));
        if (x.vararg) ps.push('...');
        s = `${go(x.ret)} (${ps.join(', ')})`;
        break;
      }
      case 'struct':
        s = x.elems.length ? `{ ${x.elems.map((e) => go(e)).join(', ')} }` : '{  }';
        break;
      case 'pointer':
        s = `${go(x.elem)}*`;
        break;
      case 'array':
        s = `[${x.n} x ${go(x.elem)}]`;
        break;
      case 'packed':
        s = `<${x.n} x ${go(x.elem)}>`;
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
