import { describe, expect, it } from 'vitest';
import { writeStream } from '../../src/encode/module-block.js';
import { EncodeError } from '../../src/encode/encode-error.js';
import { emptyModule, global, hex, int, P, func, fnType, block, inst } from './helpers.js';

describe('writeStream (hand-built modules, bytes checked against LLVM 1.9 files)', () => {
  it('writes one unnamed global with an int initializer as LLVM 1.9 did (Assembler__2003-05-21-ConstantShiftExpr)', () => {
    const m = emptyModule();
    m.globals.push(global(P.int, int(P.int, 3670016)));
    expect(hex(writeStream(m, 6))).toBe(
      '6c6c766d' + '0100000020000000' + '6c' + '66000000011007' + '25010000a20301000000000000' + 'e3000000010700808080c003'.replace('808080', '8080'),
    );
  });

  it('moves strings into the strings plane and names the global (Assembler__2003-01-30-UnsignedString)', () => {
    const m = emptyModule();
    const arr = { kind: 'array' as const, element: P.ubyte, length: 4 };
    const init = { kind: 'array' as const, type: arr, elements: [255, 0, 247, 0].map((v) => int(P.ubyte, v)) };
    const g = global(arr, init, 'spell_order');
    m.globals.push(g);
    const file =
      '6c6c7663300100000037000000' +
      '6c' +
      'c600000002100e0f0204' +
      '25010000a20301000000000000' +
      'e300000001000eff00f700' +
      '0402000000010d010b7370656c6c5f6f72646572';
    expect(hex(writeStream(m, 6))).toBe('6c6c766d' + file.slice(10));
  });

  it('refuses dllimport linkage in version 5 (LLVM 1.8 had no such linkage)', () => {
    const m = emptyModule();
    const f = func(fnType(P.void, []), 'f');
    f.linkage = 'dllimport';
    m.functions.push(f);
    expect(() => writeStream(m, 5)).toThrow(EncodeError);
    expect(() => writeStream(m, 5)).toThrow(/dllimport linkage cannot be written in bytecode version 5/);
  });

  it('refuses unreachable-free versions it does not support with a named error', () => {
    const m = emptyModule();
    const f = func(fnType(P.void, []), 'f', [block([inst('unreachable', P.void, [])])]);
    m.functions.push(f);
    expect(() => writeStream(m, 4)).toThrow(/bytecode version 4/);
  });
});

describe('writeStream refuses graphs no LLVM writer could have produced', () => {
  it('two globals of one type with the same name', () => {
    const m = emptyModule();
    const a = global(P.int, int(P.int, 1), 'x');
    const b = global(P.int, int(P.int, 2), 'x');
    b.type = a.type; // the same pointer type, so the same symbol-table plane
    m.globals.push(a, b);
    expect(() => writeStream(m, 6)).toThrow(/two values named "x" of one type/);
  });
});

describe('writeTypeId (LLVM output_typeid)', () => {
  async function typeIds(version: number, ids: number[]): Promise<string> {
    const { BinaryWriter } = await import('../../src/binary/writer.js');
    const { writeTypeId } = await import('../../src/encode/context.js');
    const { formatFor } = await import('../../src/format/format-table.js');
    const out = new BinaryWriter();
    const ctx = { out, row: formatFor(version)! } as unknown as Parameters<typeof writeTypeId>[0];
    for (const id of ids) writeTypeId(ctx, id);
    return hex(out.finish());
  }

  it('escapes type ids of 2^24 - 1 and above behind 0xFFFFFF (version 3 on)', async () => {
    expect(await typeIds(6, [13, 0x1000000])).toBe('0d' + 'ffffff07' + '80808008');
  });

  it('writes every type id as a plain vbr in versions 0–2 (32-bit type slots)', async () => {
    expect(await typeIds(1, [13, 0x1000000])).toBe('0d' + '80808008');
  });
});

describe('instruction opcodes follow the target version', () => {
  function divModule(opcode: 'sdiv' | 'udiv') {
    const m = emptyModule();
    const t = opcode === 'sdiv' ? P.int : P.uint;
    const f = func(fnType(t, [t, t]), 'f', []);
    const d = inst(opcode, t, [f.args[0]!, f.args[1]!]);
    f.blocks.push(block([d, inst('ret', P.void, [d])]));
    f.isDeclaration = false;
    m.functions.push(f);
    return m;
  }
  /** The opcode field of the first instruction word of the module's only function. */
  function firstOpcode(bytes: Uint8Array): number {
    // The instruction-list block (id 7) holds two one-word instructions: size 8.
    for (let i = 0; i + 8 <= bytes.length; i++) {
      const w = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
      if ((w & 31) === 7 && w >>> 5 === 8 && i + 12 <= bytes.length) return (bytes[i + 4]! >> 2) & 63;
    }
    throw new Error('no instruction list');
  }
  it('writes sdiv and udiv as their own opcodes in version 6 and as the signless div in version 5', () => {
    expect(firstOpcode(writeStream(divModule('udiv'), 6))).toBe(10);
    expect(firstOpcode(writeStream(divModule('sdiv'), 6))).toBe(11);
    expect(firstOpcode(writeStream(divModule('udiv'), 5))).toBe(10);
    expect(firstOpcode(writeStream(divModule('sdiv'), 5))).toBe(10);
    expect(firstOpcode(writeStream(divModule('sdiv'), 3))).toBe(9);
  });
});
