/**
 * Inline-asm constraints: LLVM 1.x wrote an indirect (memory) output as `==m`; modern syntax is
 * `=*m`, and the pointer operand it consumes must carry `elementtype(T)`. Returns the rewritten
 * string and which call operands are such pointers, and how many operands and direct outputs
 * the constraints name (what LLVM's `InlineAsm::verify` holds against the call's type).
 */
export function upgradeConstraints(constraints: string): {
  constraints: string;
  indirectArgs: Set<number>;
  operands: number;
  outputs: number;
  /** Why LLVM's constraint parser refuses the rewritten string, or undefined (`constraintProblem`). */
  problem: string | undefined;
} {
  const indirectArgs = new Set<number>();
  let arg = 0;
  let outputs = 0;
  // An empty string names no constraint at all (an asm with no operands and no result).
  const parts = (constraints === '' ? [] : constraints.split(',')).map((c) => {
    if (c.startsWith('~')) return c;
    if (c.startsWith('==')) c = '=*' + c.slice(2);
    if (c.startsWith('=*')) {
      indirectArgs.add(arg++);
      return c;
    }
    if (c.startsWith('=')) {
      outputs++;
      return c; // a direct output is the call's result, not an operand
    }
    if (c.startsWith('*')) indirectArgs.add(arg);
    arg++;
    return c;
  });
  const upgraded = parts.join(',');
  return { constraints: upgraded, indirectArgs, operands: arg, outputs, problem: constraintProblem(upgraded) };
}

type ConstraintKind = 'input' | 'output' | 'clobber';

/**
 * What LLVM's constraint parser (`InlineAsm::ParseConstraints`, and `InlineAsm::verify`'s order)
 * refuses in a modern constraint string, or undefined: a constraint that is only a prefix (`=`,
 * `~`, an empty one between commas or after the last), a clobber not spelled `~{…}`, a `{` without
 * its `}`, the modifiers `#` and `*` (register hints LLVM does not support), `&` other than once on
 * an output, `%` on a clobber or twice, a matching digit that names no earlier output (or one
 * another input already matches), and outputs after inputs or inputs after clobbers. LLVM 1.x
 * parsed with the same rules, so only a damaged file holds such a string; no LLVM reads IR with it.
 */
export function constraintProblem(constraints: string): string | undefined {
  if (constraints === '') return undefined;
  const kinds: ConstraintKind[] = [];
  const matched = new Set<number>();
  let inputs = 0;
  let clobbers = 0;
  for (const c of constraints.split(',')) {
    const bad = (why: string): string => `constraint "${c}" ${why}`;
    let i = 0;
    let kind: ConstraintKind = 'input';
    if (c[i] === '~') {
      kind = 'clobber';
      i++;
      if (i < c.length && c[i] !== '{') return bad('is a clobber not written ~{…}');
    } else if (c[i] === '=') {
      kind = 'output';
      i++;
    }
    if (c[i] === '*') i++; // indirect
    if (i >= c.length) return bad('is only a prefix');
    let earlyClobber = false;
    let commutative = false;
    for (;;) {
      const m = c[i];
      if (m === '&') {
        if (kind !== 'output' || earlyClobber) return bad('has & other than once on an output');
        earlyClobber = true;
      } else if (m === '%') {
        if (kind === 'clobber' || commutative) return bad('has % on a clobber or twice');
        commutative = true;
      } else if (m === '#' || m === '*') return bad(`has the modifier ${m}, which LLVM does not support`);
      else break;
      if (++i >= c.length) return bad('ends in a modifier');
    }
    while (i < c.length) {
      const ch = c[i]!;
      if (ch === '{') {
        const end = c.indexOf('}', i + 1);
        if (end < 0) return bad('opens { without its }');
        i = end + 1;
      } else if (ch >= '0' && ch <= '9') {
        let j = i;
        while (j < c.length && c[j]! >= '0' && c[j]! <= '9') j++;
        const n = Number(c.slice(i, j));
        if (kind !== 'input' || n >= kinds.length || kinds[n] !== 'output' || matched.has(n))
          return bad(`matches operand ${n}, which is not an earlier output free to match`);
        matched.add(n);
        i = j;
      } else if (ch === '^') i += 3;
      else if (ch === '@') {
        const n = Number(c[i + 1]);
        if (!(n > 0)) return bad('has @ without a letter count');
        i += 2 + n;
      } else i++;
    }
    if (kind === 'output' && (inputs > 0 || clobbers > 0)) return bad('is an output after an input or a clobber');
    if (kind === 'input') {
      if (clobbers > 0) return bad('is an input after a clobber');
      inputs++;
    }
    if (kind === 'clobber') clobbers++;
    kinds.push(kind);
  }
  return undefined;
}
