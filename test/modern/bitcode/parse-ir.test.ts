/**
 * The reader of the printer's text (parse-ir.ts) as the bitcode writer sees its result: every
 * instruction's details where ir.ts puts them (and nothing where it puts nothing), a repeated
 * constant or local as one object, types as one object per distinct type, and refusals with the
 * line and column of the token at fault.
 */
import { describe, expect, it } from 'vitest';
import { IrSyntaxError, parseModernIr } from '../../../src/modern/bitcode/index.js';
import type { IrInstruction, IrModule } from '../../../src/modern/bitcode/ir.js';

const BODY = `%pair = type { i32, ptr }

@g = global i32 0
@p = constant ptr @g

declare i32 @printf(ptr, ...)
declare i32 @__gxx_personality_v0(...)

define fastcc i32 @f(i32 %a, ptr %q) personality ptr @__gxx_personality_v0 {
entry:
  %x = load volatile i32, ptr %q, align 4
  store i32 %x, ptr @g, align 8
  %s = add nsw i32 %x, 0
  %t = add i32 %s, 0
  %c = icmp slt i32 %s, %t
  %m = alloca i32, align 16
  %e = extractvalue %pair zeroinitializer, 1
  %r = tail call i32 (ptr, ...) @printf(ptr noundef @g, i32 %a) nounwind
  switch i32 %a, label %done [
    i32 1, label %two
  ]
two:
  %v = invoke i32 @printf(ptr @g) to label %done unwind label %lp
lp:
  %l = landingpad { ptr, i32 } cleanup catch ptr null
  br label %done
done:
  %z = phi i32 [ 0, %entry ], [ %v, %two ], [ 0, %lp ]
  ret i32 %z
}
`;

function instructions(m: IrModule): Map<string, IrInstruction> {
  const out = new Map<string, IrInstruction>();
  for (const f of m.functions) for (const b of f.blocks ?? []) for (const i of b.instructions) out.set(i.result ?? i.opcode, i);
  return out;
}

describe('instructions', () => {
  const m = parseModernIr(BODY);
  const at = instructions(m);
  const get = (k: string): IrInstruction => at.get(k)!;

  it('gives each its details: loads and stores their alignment and volatility, the loaded type', () => {
    expect(get('n:x')).toMatchObject({ opcode: 'load', align: 4, volatile: true, auxType: { kind: 'int', bits: 32 } });
    expect(get('store')).toMatchObject({ opcode: 'store', align: 8, volatile: false, auxType: undefined });
    expect(get('n:m')).toMatchObject({ opcode: 'alloca', align: 16, auxType: { kind: 'int', bits: 32 } });
  });

  it('binary operators their flags, comparisons their predicate, extractvalue its indices', () => {
    expect(get('n:s')).toMatchObject({ flags: 2, predicate: undefined });
    expect(get('n:t').flags).toBe(0);
    expect(get('n:c')).toMatchObject({ predicate: 'slt', flags: undefined, type: { kind: 'int', bits: 1 } });
    expect(get('n:e')).toMatchObject({ indices: [1], type: { kind: 'ptr' } });
  });

  it('calls their function type, calling convention, tail flag and attributes; invoke its labels', () => {
    const r = get('n:r');
    expect(r).toMatchObject({ opcode: 'call', tail: true, callingConv: 0, labels: [] });
    expect(r.auxType).toMatchObject({ kind: 'function', varArg: true });
    expect(r.attributes).toMatchObject({ fn: [{ kind: 'enum', name: 'nounwind' }], ret: [], params: [[{ name: 'noundef' }], []] });
    expect(get('n:v')).toMatchObject({ opcode: 'invoke', tail: false, labels: ['n:done', 'n:lp'] });
  });

  it('switch its cases, phi its incoming values, landingpad its clauses; nothing where an instruction has none', () => {
    expect(get('switch')).toMatchObject({ labels: ['n:done'], cases: [{ block: 'n:two' }], incoming: undefined });
    expect(get('n:z').incoming!.map((i) => i.block)).toEqual(['n:entry', 'n:two', 'n:lp']);
    expect(get('n:l')).toMatchObject({ cleanup: true, clauses: [{ kind: 0 }] });
    const ret = get('ret');
    for (const field of [
      'predicate',
      'flags',
      'auxType',
      'inbounds',
      'volatile',
      'align',
      'indices',
      'tail',
      'callingConv',
      'attributes',
      'cleanup',
      'clauses',
      'incoming',
      'cases',
    ] as const)
      expect(ret[field]).toBeUndefined();
  });

  it('reads the function: its calling convention, parameters and personality', () => {
    const f = m.functions.find((x) => x.name === 'n:f')!;
    expect(f).toMatchObject({ callingConv: 8, params: ['n:a', 'n:q'], personality: { kind: 'global', name: 'n:__gxx_personality_v0' } });
  });
});

describe('one object for what repeats', () => {
  const m = parseModernIr(BODY);
  const at = instructions(m);

  it('a constant used twice is one constant and one operand (the writer numbers it once)', () => {
    const [, zeroInS] = at.get('n:s')!.operands;
    const [, zeroInT] = at.get('n:t')!.operands;
    expect(zeroInS).toBe(zeroInT);
    expect(m.globals[0]!.initializer).toBe(zeroInS!.value.kind === 'const' ? zeroInS!.value.constant : undefined);
  });

  it('a local used twice with its type is one operand, one value', () => {
    const [xInStore] = at.get('store')!.operands.slice(1);
    const [xInAdd] = at.get('n:s')!.operands;
    expect(xInStore).toBe(xInAdd);
  });

  it('a number names another value in each function: its operands keep each one its own type', () => {
    const two = parseModernIr('define i8 @a(i8 %0) {\n  ret i8 %0\n}\ndefine i32 @b(i32 %0) {\n  ret i32 %0\n}\n');
    const [a, b] = two.functions.map((f) => f.blocks![0]!.instructions[0]!.operands[0]!);
    expect(a!.type).toMatchObject({ bits: 8 });
    expect(b!.type).toMatchObject({ bits: 32 });
    expect(a!.value).toEqual(b!.value);
  });

  it('types: one object per distinct type, however it is spelled in the text', () => {
    const t = parseModernIr('@a = external global [2 x { i32, ptr }]\n@b = external global [2 x { i32, ptr }]\n@c = external global { i32, ptr }\n');
    expect(t.globals[0]!.valueType).toBe(t.globals[1]!.valueType);
    expect(t.globals[0]!.valueType).toMatchObject({ element: t.globals[2]!.valueType });
  });
});

describe('refusals', () => {
  const refusal = (text: string): IrSyntaxError => {
    try {
      parseModernIr(text);
    } catch (e) {
      expect(e).toBeInstanceOf(IrSyntaxError);
      return e as IrSyntaxError;
    }
    throw new Error('accepted');
  };

  it('names the line and column of the token at fault', () => {
    expect(refusal('define void @f() {\nentry:\n  %x = frob i32 1\n}\n')).toMatchObject({
      line: 3,
      column: 8,
      message: expect.stringMatching(/unknown instruction 'frob'/),
    });
    expect(refusal('@g = global i32 1.5\n')).toMatchObject({ line: 1, column: 17, message: expect.stringMatching(/an integer expected/) });
    expect(refusal('@g = global i0 0\n')).toMatchObject({ column: 13, message: expect.stringMatching(/no integer type of 0 bits/) });
    expect(refusal('@g = global [4294967296 x i8] zeroinitializer\n')).toMatchObject({ message: expect.stringMatching(/below 2\^32/) });
  });

  it('says where the text ends too soon', () => {
    expect(refusal('define void @f() {\nentry:\n  ret')).toMatchObject({ line: 3, column: 6, message: expect.stringMatching(/end of text/) });
  });

  it('bounds the nesting of constants as of types', () => {
    expect(() => parseModernIr(`@g = global i8 ${'add (i8 '.repeat(600)}`)).toThrow(/nested deeper than 512/);
  });
});
