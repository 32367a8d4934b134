/**
 * The verifier checks a body still in compact form where it lies (value codes, no objects) and
 * falls back to its check over objects only when something is wrong there. Property: on bodies
 * damaged at random (operand codes, opcodes, result types, block ends, a global they name
 * removed), that verdict and every
 * message are exactly those of the check over the same body materialized; a compact check that
 * passed what the full check refuses would show as a difference here, and most damaged bodies
 * (every one missing a global it names) must be refused, so that two checks passing everything
 * cannot agree their way through.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { verifyModule } from '../../src/verify/verify.js';
import { compactBodyOf, OPCODES } from '../../src/graph/compact-body.js';
import type { Module } from '../../src/graph/module.js';

const TEXT = `%struct.S = type { int, float* }
%G = global int 5
%arr = global [4 x int] [ int 1, int 2, int 3, int 4 ]

implementation

declare int %ext(int, ...)

int %f(int %n, %struct.S* %s) {
entry:
	%p = getelementptr %struct.S* %s, int 0, uint 0
	%v = load int* %p
	%c = setlt int %v, %n
	br bool %c, label %loop, label %exit
loop:
	%i = phi int [ 0, %entry ], [ %next, %loop ]
	%next = add int %i, 1
	%g = load int* %G
	%e = getelementptr [4 x int]* %arr, int 0, int %i
	%x = call int (int, ...)* %ext( int %next, int %g )
	%done = setge int %next, %n
	br bool %done, label %exit, label %loop
exit:
	%r = phi int [ %v, %entry ], [ %x, %loop ]
	switch int %r, label %d [
		 int 1, label %one
		 int 2, label %d
	]
one:
	%m = malloc int, uint 4
	free int* %m
	ret int 1
d:
	%sel = select bool %c, int %r, int 0
	%sh = shl int %sel, ubyte 2
	%cst = cast int %sh to uint
	ret int %sh
}

void %g(int %a) {
	%slot = alloca float
	store float 1.0, float* %slot
	%q = add int %a, 7
	ret void
}
`;

/** One change to a body's numbers (which function, which part, where, and the new number's parts), or to the module around it. */
interface Damage {
  fn: number;
  part: 'operand' | 'opcode' | 'type' | 'blockEnd' | 'removeGlobal';
  at: number;
  tag: number;
  index: number;
}

const damageArb: fc.Arbitrary<Damage> = fc.record({
  fn: fc.nat(1),
  part: fc.constantFrom('operand', 'operand', 'operand', 'opcode', 'type', 'blockEnd', 'removeGlobal'),
  at: fc.nat(200),
  tag: fc.integer({ min: -1, max: 3 }),
  index: fc.nat(40),
});

/** Applies `damage` to the compact body of the `fn`-th function with a body in `m`. */
function damage(m: Module, d: Damage): void {
  const bodies = m.functions.map(compactBodyOf).filter((b) => b !== undefined);
  const body = bodies[d.fn % bodies.length]!;
  const n = body.instructionCount;
  const data = body.data as Int32Array;
  const operands = data.length - (2 * n + body.blockCount);
  switch (d.part) {
    case 'removeGlobal': {
      // A global or the declared function the bodies name, no longer in the module.
      const named = [...m.globals, ...m.functions.filter((f) => f.isDeclaration)];
      const gone = named[d.index % named.length]!;
      m.globals = m.globals.filter((g) => g !== gone);
      m.functions = m.functions.filter((f) => f !== gone);
      return;
    }
    case 'operand':
      if (operands > 0) data[2 * n + body.blockCount + (d.at % operands)] = d.tag < 0 ? -1 : d.index * 4 + d.tag;
      return;
    case 'opcode': {
      const i = d.at % n;
      data[i] = (data[i]! & ~63) | (d.index % OPCODES.length);
      return;
    }
    case 'type': {
      const i = d.at % n;
      data[i] = (data[i]! & 63) | ((d.index % body.types.length) << 6);
      return;
    }
    case 'blockEnd':
      data[2 * n + (d.at % body.blockCount)] = d.index % (n + 2);
  }
}

/** What `verifyModule` says: its problems, or the error it threw. */
function verdict(m: Module): string[] {
  try {
    return verifyModule(m);
  } catch (e) {
    return [`threw ${(e as Error).name}`];
  }
}

describe('the verifier on compact bodies', () => {
  it('passes the undamaged module in compact form and as objects', () => {
    const m = parseAssembly(TEXT, { verify: false });
    expect(m.functions.every((f) => f.isDeclaration || compactBodyOf(f) !== undefined)).toBe(true);
    expect(verifyModule(m)).toEqual([]);
  });

  it('says what the check over objects says about a damaged body, word for word', () => {
    let refused = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.array(damageArb, { minLength: 1, maxLength: 3 }), (damages) => {
        const compact = parseAssembly(TEXT, { verify: false });
        const objects = parseAssembly(TEXT, { verify: false });
        for (const d of damages) {
          damage(compact, d);
          damage(objects, d);
        }
        for (const f of objects.functions) void f.blocks; // materializes every body
        expect(objects.functions.some((f) => compactBodyOf(f) !== undefined)).toBe(false);
        const said = verdict(compact);
        expect(said).toEqual(verdict(objects));
        // Both paths passing everything would agree too: a global the body names, gone from the
        // module, is a problem whatever else was damaged.
        if (damages.some((d) => d.part === 'removeGlobal')) expect(said).not.toEqual([]);
        runs++;
        if (said.length !== 0) refused++;
      }),
      { numRuns: 2000 },
    );
    // Most damage breaks the body (some leaves it valid: a block end moved within a block's phis,
    // an operand swapped for another of its type); both paths refusing nothing is no agreement.
    console.log(`verify-compact: ${refused} of ${runs} damaged modules refused`);
    expect(refused).toBeGreaterThan(runs * 0.8);
  });
});
