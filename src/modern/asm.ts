/**
 * Inline-asm constraints: LLVM 1.x wrote an indirect (memory) output as `==m`; modern syntax is
 * `=*m`, and the pointer operand it consumes must carry `elementtype(T)`. Returns the rewritten
 * string and which call operands are such pointers, and how many operands and direct outputs
 * the constraints name (what LLVM's `InlineAsm::verify` holds against the call's type).
 */
export function upgradeConstraints(constraints: string): { constraints: string; indirectArgs: Set<number>; operands: number; outputs: number } {
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
  return { constraints: parts.join(','), indirectArgs, operands: arg, outputs };
}
