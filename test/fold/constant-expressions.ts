/**
 * Random constant expressions in LLVM 1.9 text, for checking the folder against LLVM's own: every
 * scalar type, casts between them (pointers included), arithmetic, shifts, comparisons (of
 * globals and getelementptrs too), select and vector element operations, nested a few deep.
 */
import { seededRandom } from '../../tools/seeded-random.js';

const INTS = ['sbyte', 'ubyte', 'short', 'ushort', 'int', 'uint', 'long', 'ulong'] as const;
const BITS: Record<string, number> = { sbyte: 8, ubyte: 8, short: 16, ushort: 16, int: 32, uint: 32, long: 64, ulong: 64 };
const SIGNED = new Set(['sbyte', 'short', 'int', 'long']);
const FLOATS = ['0.0', '1.0', '-2.5', '3.0', '-0.0', '1.0e+10', '0.5'];

export const GLOBALS = `%st = global { int, [2 x sbyte] } { int 1, [2 x sbyte] c"ab" }
%g1 = global int 1
%g2 = global int 2
%arr = global [4 x int] [ int 1, int 2, int 3, int 4 ]
`;

/** A module of `count` globals initialized with random constant expressions. */
export function randomConstantModule(seed: number, count: number, depth = 4): string {
  const random = seededRandom(seed);
  const rnd = (n: number): number => Math.floor(random() * n);
  const pick = <T>(a: readonly T[]): T => a[rnd(a.length)]!;
  const literal = (t: string): string => {
    if (t === 'bool') return pick(['true', 'false']);
    if (t === 'float' || t === 'double') return pick(FLOATS);
    const b = BigInt(BITS[t]!);
    const values = SIGNED.has(t) ? [0n, 1n, -1n, 7n, -(1n << (b - 1n)), (1n << (b - 1n)) - 1n, 3n] : [0n, 1n, 7n, (1n << b) - 1n, 1n << (b - 1n), 3n];
    return String(pick(values));
  };
  const pointer = (): string =>
    pick([
      'int* %g1',
      'int* %g2',
      'int* null',
      `int* getelementptr ([4 x int]* %arr, long 0, long ${rnd(4)})`,
      `int* getelementptr (int* getelementptr ([4 x int]* %arr, long 0, long ${rnd(4)}), long ${rnd(3)})`,
      `int* getelementptr ([4 x int]* cast (int* %g2 to [4 x int]*), long 0, ${pick(['long', 'int', 'uint'])} ${rnd(4)})`,
      'int* cast ({ int, [2 x sbyte] }* %st to int*)',
      `int* cast (sbyte* getelementptr ({ int, [2 x sbyte] }* %st, long 0, uint 1, long ${rnd(2)}) to int*)`,
      `int* getelementptr (int* null, long ${rnd(3)})`,
      'int* cast ([4 x int]* %arr to int*)',
      `int* cast (long ${literal('long')} to int*)`,
    ]);
  const operand = (t: string, d: number): string =>
    t === 'int*' ? pointer() : t === '[4 x int]*' ? pick(['[4 x int]* %arr', '[4 x int]* null']) : expression(t, d - 1);
  const expression = (t: string, d: number): string => {
    const r = rnd(10);
    if (d <= 0 || r < 2) return `${t} ${literal(t)}`;
    if (t === 'bool' && r < 5) {
      const u = pick([...INTS, 'bool', 'float', 'double', 'int*']);
      return `bool ${pick(['seteq', 'setne', 'setlt', 'setgt', 'setle', 'setge'])} (${operand(u, d)}, ${operand(u, d)})`;
    }
    if (r < 5) {
      const from = pick([...INTS, 'bool', 'float', 'double', 'int*', '[4 x int]*']);
      if (from.endsWith('*') && (t === 'float' || t === 'double')) return `${t} ${literal(t)}`;
      return `${t} cast (${operand(from, d)} to ${t})`;
    }
    if (r < 6 && t !== 'bool') return `${t} select (${operand('bool', d)}, ${operand(t, d)}, ${operand(t, d)})`;
    if (t === 'int' && r < 7) {
      const v = `<2 x int> < ${operand('int', d)}, ${operand('int', d)} >`;
      return pick([
        `int extractelement (${v}, uint ${rnd(2)})`,
        `int extractelement (<2 x int> insertelement (${v}, ${operand('int', d)}, uint ${rnd(2)}), uint ${rnd(2)})`,
        `int extractelement (<2 x int> ${pick(['add', 'mul', 'sub', 'xor'])} (${v}, <2 x int> < int 1, int 2 >), uint ${rnd(2)})`,
      ]);
    }
    if ((INTS as readonly string[]).includes(t) && r < 8) {
      const op = pick(['add', 'sub', 'mul', 'div', 'rem', 'and', 'or', 'xor', 'shl', 'shr']);
      return op === 'shl' || op === 'shr' ? `${t} ${op} (${operand(t, d)}, ${operand('ubyte', d)})` : `${t} ${op} (${operand(t, d)}, ${operand(t, d)})`;
    }
    if ((t === 'float' || t === 'double') && r < 8) return `${t} ${pick(['add', 'sub', 'mul', 'div', 'rem'])} (${operand(t, d)}, ${operand(t, d)})`;
    return `${t} ${literal(t)}`;
  };
  let text = GLOBALS;
  for (let i = 0; i < count; i++) text += `%c${i} = global ${expression(pick([...INTS, 'bool', 'float', 'double']), depth)}\n`;
  return text;
}
