/**
 * One hand-made minimal file per row of the format table: the same tiny module
 *
 *     %g = global int 5
 *     int %f() { ret int 5 }
 *
 * spelled out byte by byte in the layout of each bytecode version 0–6, and what the reader must
 * make of it. Each file exercises the row's differences: block headers and ids, the type-type
 * shift, explicit zeros, padding, the function list's form, the module trailer.
 */
import { describe, expect, it } from 'vitest';
import { readModule } from '../../src/read.js';
import { assemble, block, PAD, str, svbr, u32, vbr, type Part } from '../support/assemble.js';

const INT = 7;
const RET_INT_FORMAT1 = (slot: number): number[] => u32(0x01 | (1 << 2) | (INT << 8) | (slot << 20));

interface Spec {
  long: boolean;
  /** Block ids: types, globals, constants, function, instructions, symbols. */
  ids: [number, number, number, number, number, number];
  /** Type kinds as written (function, pointer) and the first derived type id. */
  functionKind: number;
  pointerKind: number;
  firstDerived: number;
  typePlaneInTypeBlock: boolean;
  aligned: boolean;
  mgiPadInside: boolean;
  /** Slot of `int 5` in the int plane: 0 in v0 (explicit zeros, no implicit null), else 1. */
  intSlot: number;
  functionWords: 'bare' | 'flags';
  trailer: 'none' | 'libs+triple' | 'libs+triple+sections';
}

const LONG_IDS: Spec['ids'] = [0x15, 0x14, 0x12, 0x11, 0x32, 0x13];
const SHORT_IDS: Spec['ids'] = [0x06, 0x05, 0x03, 0x02, 0x07, 0x04];

const SPECS: Record<number, Spec> = {
  0: {
    long: true,
    ids: LONG_IDS,
    functionKind: 14,
    pointerKind: 17,
    firstDerived: 14,
    typePlaneInTypeBlock: true,
    aligned: true,
    mgiPadInside: true,
    intSlot: 0,
    functionWords: 'bare',
    trailer: 'none',
  },
  1: {
    long: true,
    ids: LONG_IDS,
    functionKind: 14,
    pointerKind: 17,
    firstDerived: 14,
    typePlaneInTypeBlock: true,
    aligned: true,
    mgiPadInside: false,
    intSlot: 1,
    functionWords: 'bare',
    trailer: 'none',
  },
  2: {
    long: true,
    ids: LONG_IDS,
    functionKind: 13,
    pointerKind: 16,
    firstDerived: 13,
    typePlaneInTypeBlock: false,
    aligned: true,
    mgiPadInside: false,
    intSlot: 1,
    functionWords: 'bare',
    trailer: 'none',
  },
  3: {
    long: false,
    ids: SHORT_IDS,
    functionKind: 13,
    pointerKind: 16,
    firstDerived: 13,
    typePlaneInTypeBlock: false,
    aligned: true,
    mgiPadInside: true,
    intSlot: 1,
    functionWords: 'bare',
    trailer: 'libs+triple',
  },
  4: {
    long: false,
    ids: SHORT_IDS,
    functionKind: 13,
    pointerKind: 16,
    firstDerived: 13,
    typePlaneInTypeBlock: false,
    aligned: false,
    mgiPadInside: false,
    intSlot: 1,
    functionWords: 'bare',
    trailer: 'libs+triple+sections',
  },
  5: {
    long: false,
    ids: SHORT_IDS,
    functionKind: 13,
    pointerKind: 16,
    firstDerived: 13,
    typePlaneInTypeBlock: false,
    aligned: false,
    mgiPadInside: false,
    intSlot: 1,
    functionWords: 'flags',
    trailer: 'libs+triple+sections',
  },
  6: {
    long: false,
    ids: SHORT_IDS,
    functionKind: 13,
    pointerKind: 16,
    firstDerived: 13,
    typePlaneInTypeBlock: false,
    aligned: false,
    mgiPadInside: false,
    intSlot: 1,
    functionWords: 'flags',
    trailer: 'libs+triple+sections',
  },
};

function minimalFile(version: number): Uint8Array {
  const s = SPECS[version]!;
  const [typesId, globalsId, constantsId, functionId, instructionsId, symbolsId] = s.ids;
  const fnType = s.firstDerived; // int ()
  const fnPtr = s.firstDerived + 1; // int ()*
  const intPtr = s.firstDerived + 2; // int*
  const b = (id: number, body: Part[], padInside = false): Part => block(id, s.long, body, { padAfter: s.aligned, padInside });
  const types = b(typesId, [
    vbr(3),
    s.typePlaneInTypeBlock ? vbr(12) : [],
    [vbr(s.functionKind), vbr(INT), vbr(0)],
    [vbr(s.pointerKind), vbr(fnType)],
    [vbr(s.pointerKind), vbr(INT)],
  ]);
  const trailer: Part[] = s.trailer === 'none' ? [] : s.trailer === 'libs+triple' ? [vbr(0), str('')] : [vbr(0), str('i686-pc-linux-gnu'), vbr(0), str('')];
  const globals = b(
    globalsId,
    [
      vbr(intPtr * 32 + 2), // type slot, has initializer, external, not constant
      vbr(s.intSlot),
      vbr(0),
      s.functionWords === 'bare' ? vbr(fnPtr) : vbr(fnPtr * 32 + 1), // v5+: calling convention C + 1
      vbr(0),
      trailer,
    ],
    s.mgiPadInside,
  );
  const constants = b(constantsId, [vbr(1), vbr(INT), vbr(0), svbr(5)]);
  const fn = b(functionId, [vbr(0), b(instructionsId, [RET_INT_FORMAT1(s.intSlot)])]);
  const symbols = b(symbolsId, [
    version >= 2 ? vbr(0) : [], // v2+: named types first (v0–v1 name them in the type-type plane)
    [vbr(1), vbr(intPtr), vbr(1), str('g')],
    [vbr(1), vbr(fnPtr), vbr(1), str('f')],
  ]);
  return assemble([block(1, true, [vbr(version << 4), s.aligned ? PAD : [], types, globals, constants, fn, symbols])]);
}

describe('a minimal hand-made file of every format-table row reads the same', () => {
  for (const version of [0, 1, 2, 3, 4, 5, 6]) {
    it(`version ${version}`, () => {
      const m = readModule(minimalFile(version));
      expect(m.source?.bytecodeVersion).toBe(version);
      expect(m.endianness).toBe('little');
      expect(m.pointerSize).toBe(32);
      expect(m.types.map((t) => t.kind)).toEqual(['function', 'pointer', 'pointer']);
      expect(m.globals).toHaveLength(1);
      const g = m.globals[0]!;
      expect(g.name).toBe('g');
      expect(g.valueType.kind).toBe('int');
      expect(g.initializer).toMatchObject({ kind: 'int', value: 5n });
      expect(m.functions).toHaveLength(1);
      const f = m.functions[0]!;
      expect(f).toMatchObject({ name: 'f', isDeclaration: false, callingConv: 0, linkage: 'external' });
      expect(f.blocks).toHaveLength(1);
      const ret = f.blocks[0]!.instructions[0]!;
      expect(ret.opcode).toBe('ret');
      // The returned value is the module's `int 5`, the same object as the initializer.
      expect(ret.operands[0]).toBe(g.initializer);
      expect(m.targetTriple).toBe(version >= 4 ? 'i686-pc-linux-gnu' : '');
    });
  }
});
