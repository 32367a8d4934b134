/**
 * The one opcode table (src/graph/opcodes.ts): every opcode any release's files hold has a class
 * and an operand shape there, and the numberings elsewhere agree with it (the compact bodies'
 * terminators are their first numbers; version 7's cast numbers are the table's casts).
 */
import { describe, expect, it } from 'vitest';
import {
  LAST_TERMINATOR_NUMBER,
  OPCODE_FACTS,
  isAnyCastOpcode,
  isDivisionOpcode,
  isSetccOpcode,
  isTerminatorOpcode,
  opcodeClass,
} from '../../src/graph/opcodes.js';
import { OPCODES } from '../../src/graph/compact-body.js';
import { CAST_OPCODES } from '../../src/graph/value.js';
import { FORMAT_TABLE, PSEUDO_OPCODE_BASE } from '../../src/format/format-table.js';
import { OPCODES_V7_R36867 } from '../../src/format/version7.js';
import { isCastOpcodeNumber } from '../../src/decode/v7/rules.js';

describe('the opcode table', () => {
  it('knows every opcode of the graph and every name a format row numbers', () => {
    for (const op of OPCODES) expect(opcodeClass(op), op).toBeDefined();
    for (const row of FORMAT_TABLE) for (const name of row.opcodes) if (name !== undefined) expect(opcodeClass(name), `v${row.version} ${name}`).toBeDefined();
    for (const name of OPCODES_V7_R36867) if (name !== undefined) expect(opcodeClass(name), name).toBeDefined();
    for (const base of Object.values(PSEUDO_OPCODE_BASE)) expect(opcodeClass(base)).toBeDefined();
  });

  it('answers undefined, not a crash, for a name no release used (Object.prototype included)', () => {
    for (const name of ['', 'fadd', 'constructor', 'toString', '__proto__']) {
      expect(opcodeClass(name)).toBeUndefined();
      expect(isTerminatorOpcode(name)).toBe(false);
      expect(isDivisionOpcode(name)).toBe(false);
    }
  });

  it('numbers the compact bodies so that the terminators come first', () => {
    OPCODES.forEach((op, n) => expect(isTerminatorOpcode(op), op).toBe(n <= LAST_TERMINATOR_NUMBER));
  });

  it('classes version 7’s twelve casts, and r36867’s cast numbers, as casts', () => {
    for (const op of CAST_OPCODES) expect(isAnyCastOpcode(op)).toBe(true);
    expect(isAnyCastOpcode('cast')).toBe(true);
    OPCODES_V7_R36867.forEach((name, n) => expect(isCastOpcodeNumber(n), `${n} ${name}`).toBe(n >= 28 && n <= 39));
  });

  it('gives shapes that hold the operand orders of graph/value.ts', () => {
    expect(OPCODE_FACTS.ret).toMatchObject({ minOperands: 0, maxOperands: 1 });
    expect(OPCODE_FACTS.br).toMatchObject({ minOperands: 1, maxOperands: 3 });
    expect(OPCODE_FACTS.store).toMatchObject({ minOperands: 2, maxOperands: 2 });
    expect(OPCODE_FACTS.call.maxOperands).toBe(Infinity);
    expect(isSetccOpcode('setle')).toBe(true);
    expect(isSetccOpcode('icmp')).toBe(false);
    for (const op of ['div', 'rem', 'udiv', 'sdiv', 'fdiv', 'urem', 'srem', 'frem']) expect(isDivisionOpcode(op), op).toBe(true);
    expect(isDivisionOpcode('mul')).toBe(false);
  });

  it('says which opcodes a constant expression may have: LLVM 1.x’s ConstantExpr set and version 7’s additions', () => {
    const expressions = Object.entries(OPCODE_FACTS)
      .filter(([, facts]) => facts.constantExpression)
      .map(([op]) => op)
      .sort();
    const oneX = ['add', 'sub', 'mul', 'div', 'rem', 'udiv', 'sdiv', 'fdiv', 'urem', 'srem', 'frem', 'and', 'or', 'xor'];
    const setcc = ['seteq', 'setne', 'setle', 'setge', 'setlt', 'setgt'];
    const others = ['shl', 'shr', 'getelementptr', 'cast', 'select', 'extractelement', 'insertelement', 'shufflevector'];
    const version7 = ['icmp', 'fcmp', 'lshr', 'ashr', ...CAST_OPCODES];
    expect(expressions).toEqual([...oneX, ...setcc, ...others, ...version7].sort());
    for (const op of ['ret', 'invoke', 'malloc', 'load', 'store', 'alloca', 'phi', 'call', 'vaarg', 'vanext'])
      expect(OPCODE_FACTS[op as 'ret'].constantExpression, op).toBe(false);
  });
});
