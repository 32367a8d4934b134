/**
 * How both analyzers printed a type (LLVM's `WriteTypeSymbolic`): leaves (primitives, names,
 * opaque) as the version spells them, derived types by the same rules in every version, and
 * recursion as `\N` up-references. The work is capped: a damaged file's unnamed types can form a
 * DAG whose unfolding is exponential.
 */

/** The derived shapes both type models share (`packed` is version 7's packed struct). */
export type DerivedType<T> =
  | { kind: 'function'; ret: T; params: T[]; vararg: boolean }
  | { kind: 'struct'; elems: T[]; packed?: boolean }
  | { kind: 'pointer'; elem: T }
  | { kind: 'array' | 'packed' | 'vector'; elem: T; n: number };

export interface TypeTextRules<T> {
  deref(t: T): T;
  /** The text of a type printed without looking inside it, or `undefined` for a derived type. */
  leaf(t: T): string | undefined;
}

const BUDGET = 512;

export function typeText<T>(t: T, rules: TypeTextRules<T>): string {
  const stack: T[] = [];
  let budget = BUDGET;
  const go = (x0: T): string => {
    if (--budget < 0) return '...';
    const x = rules.deref(x0);
    const leaf = rules.leaf(x);
    if (leaf !== undefined) return leaf;
    const at = stack.indexOf(x);
    if (at >= 0) return `\\${stack.length - at}`;
    stack.push(x);
    const d = x as unknown as DerivedType<T>;
    let s: string;
    switch (d.kind) {
      case 'function': {
        const ps = d.params.map((p) => go(p));
        if (d.vararg) ps.push('...');
        s = `${go(d.ret)} (${ps.join(', ')})`;
        break;
      }
      case 'struct': {
        const body = d.elems.length ? `{ ${d.elems.map((e) => go(e)).join(', ')} }` : '{  }';
        s = d.packed ? `<${body}>` : body;
        break;
      }
      case 'pointer':
        s = `${go(d.elem)}*`;
        break;
      case 'array':
        s = `[${d.n} x ${go(d.elem)}]`;
        break;
      default:
        s = `<${d.n} x ${go(d.elem)}>`;
        break;
    }
    stack.pop();
    return s;
  };
  return go(t);
}
