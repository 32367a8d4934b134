import { describe, expect, it } from 'vitest';
import { writeStream } from '../../src/encode/module-block.js';
import { EncodeError } from '../../src/encode/encode-error.js';
import type { Module } from '../../src/graph/module.js';
import type { BasicBlock, Function } from '../../src/graph/value.js';
import { block, emptyModule, fnType, func, global, hex, inst, int, P } from './helpers.js';

/** Feature__cfgstructures as a graph: three functions of named blocks and branches. */
function cfgStructures(): Module {
  const m = emptyModule();
  const fnTypes = new Map<number, ReturnType<typeof fnType>>();
  const define = (name: string, argNames: string[], body: (f: Function, bbs: Map<string, BasicBlock>) => BasicBlock[]): void => {
    let ft = fnTypes.get(argNames.length);
    if (!ft)
      fnTypes.set(
        argNames.length,
        (ft = fnType(
          P.void,
          argNames.map(() => P.bool),
        )),
      );
    const f = func(ft, name);
    f.args.forEach((a, i) => (a.name = argNames[i]));
    f.isDeclaration = false;
    const bbs = new Map<string, BasicBlock>();
    f.blocks = body(f, bbs);
    m.functions.push(f);
  };
  const named = (bbs: Map<string, BasicBlock>, name: string): BasicBlock => {
    let b = bbs.get(name);
    if (!b) bbs.set(name, (b = block([], name)));
    return b;
  };
  const br = (...ops: Parameters<typeof inst>[2]) => inst('br', P.void, ops);
  define('irreducible', ['cond'], (f, b) => {
    const [x, y] = [named(b, 'X'), named(b, 'Y')];
    x.instructions.push(br(y));
    y.instructions.push(br(x));
    return [block([br(f.args[0]!, x, y)]), x, y];
  });
  define('sharedheader', ['cond'], (f, b) => {
    const [a, x, y] = [named(b, 'A'), named(b, 'X'), named(b, 'Y')];
    a.instructions.push(br(f.args[0]!, x, y));
    x.instructions.push(br(a));
    y.instructions.push(br(a));
    return [block([br(a)]), a, x, y];
  });
  define('nested', ['cond1', 'cond2', 'cond3'], (f, b) => {
    const [l1, l2, l3, e3, e2, e1] = ['Loop1', 'Loop2', 'Loop3', 'L3Exit', 'L2Exit', 'L1Exit'].map((n) => named(b, n));
    l1!.instructions.push(br(l2!));
    l2!.instructions.push(br(l3!));
    l3!.instructions.push(br(f.args[2]!, l3!, e3!));
    e3!.instructions.push(br(f.args[1]!, l2!, e2!));
    e2!.instructions.push(br(f.args[0]!, l1!, e1!));
    e1!.instructions.push(inst('ret', P.void, []));
    return [block([br(l1!)]), l1!, l2!, l3!, e3!, e2!, e1!];
  });
  return m;
}

describe('writeStream at version 3 (LLVM 1.3), checked against LLVM 1.3 files', () => {
  it('pads with 0xAB after the version word, after blocks, and inside the global info block (Assembler__2003-05-21-ConstantShiftExpr)', () => {
    const m = emptyModule();
    m.globals.push(global(P.int, int(P.int, 3670016)));
    expect(hex(writeStream(m, 3))).toBe('6c6c766d01000000240000003cababab66000000011007ab05010000a2030100000000abe30000000107008080c003ab');
  });

  it('writes a compaction table block for every function body, sorted symbol tables and branches (Feature__cfgstructures)', () => {
    const m = cfgStructures();
    // The module symbol table's single plane (the function type pointer) needs no layout.
    expect(hex(writeStream(m, 3))).toBe(
      '6c6c766d01000000340100003cabababe601000004100e0d00010110100d0003010101ab05010000000d0d0f000000ab02060000002800000000abab870100000b4c2004090c2000090c1000240200000001010104636f6e64020c010158020159ababab82060000002800000000abab07020000090c10000b8c3004090c1000090c1000840200000001010104636f6e64030c010141020158030159820e0000002800000000abab87030000090c1000090c2000090c30000bcc400c0b8c50080b4c60040500f0ffe40800000003010105636f6e64310205636f6e64320305636f6e6433060c06064c314578697405064c324578697404064c334578697401054c6f6f703102054c6f6f703203054c6f6f7033ab0405000000020d010b6972726564756369626c65020c736861726564686561646572010f01066e6573746564',
    );
  });

  it('writes the same module as LLVM 1.9 and LLVM 1.8 did (versions 6 and 5, no padding, no empty compaction tables)', () => {
    expect(hex(writeStream(cfgStructures(), 6))).toBe(
      '6c6c766d010000001b0100006ce601000004100e0d00010110100d00030101018501000000a103a103e1030000000000c204000000870100000b4c2004090c2000090c1000240200000001010104636f6e64020c010158020159a20500000007020000090c10000b8c3004090c1000090c1000840200000001010104636f6e64030c010141020158030159820d00000087030000090c1000090c2000090c30000bcc400c0b8c50080b4c60040500f0ffe40800000003010105636f6e64310205636f6e64320305636f6e6433060c06064c314578697405064c324578697404064c334578697401054c6f6f703102054c6f6f703203054c6f6f70330405000000020d010b6972726564756369626c65020c736861726564686561646572010f01066e6573746564',
    );
    expect(hex(writeStream(cfgStructures(), 5))).toBe(
      '6c6c766d010000001b0100005ce601000004100e0d00010110100d00030101018501000000a103a103e1030000000000c204000000870100000b4c2004090c2000090c1000240200000001010104636f6e64020c010158020159a20500000007020000090c10000b8c3004090c1000090c1000840200000001010104636f6e64030c010141020158030159820d00000087030000090c1000090c2000090c30000bcc400c0b8c50080b4c60040500f0ffe40800000003010105636f6e64310205636f6e64320305636f6e6433060c06064c314578697405064c324578697404064c334578697401054c6f6f703102054c6f6f703203054c6f6f70330405000000020d010b6972726564756369626c65020c736861726564686561646572010f01066e6573746564',
    );
  });

  it('refuses what LLVM 1.3 could not express, naming it', () => {
    const m = emptyModule();
    m.globals.push(global(P.int, { kind: 'undef', type: P.int }));
    expect(() => writeStream(m, 3)).toThrow(new EncodeError('undef', 3));
    const m2 = emptyModule();
    const f = func(fnType(P.void, []), 'f', [block([inst('unreachable', P.void, [])])]);
    m2.functions.push(f);
    expect(() => writeStream(m2, 3)).toThrow(/the unreachable instruction cannot be written in bytecode version 3/);
    const m3 = emptyModule();
    const g = func(fnType(P.void, []), 'g');
    g.callingConv = 8;
    m3.functions.push(g);
    expect(() => writeStream(m3, 3)).toThrow(/calling convention 8 on a function cannot be written in bytecode version 3/);
  });
});
