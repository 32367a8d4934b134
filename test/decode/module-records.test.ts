/**
 * The readers of the module's own records, shared by every walk (decode/type-records.ts,
 * decode/global-info-records.ts, decode/module-blocks.ts): driven by the format row, they read the
 * fields as stored and hand each to the consumer as soon as it is read, so that the consumer
 * checks it where its reader did.
 */
import { describe, expect, it } from 'vitest';
import { formatFor } from '../../src/format/format-table.js';
import { readGlobalInfoRecords, type GlobalInfoReading } from '../../src/decode/global-info-records.js';
import { readModuleBlocks } from '../../src/decode/module-blocks.js';
import { BytecodeReader } from '../../src/decode/reader.js';
import { readTypeDefinition, readTypeId, TYPE_TYPE, type TypeDefinitionReading } from '../../src/decode/type-records.js';

const reader = (...bytes: number[]): BytecodeReader => new BytecodeReader(Uint8Array.from(bytes), 0, bytes.length);
const row = (v: number) => formatFor(v)!;

/** Keeps member ids as read, logging each hook call with the reader's position. */
function logging(log: string[], r: BytecodeReader): TypeDefinitionReading<number> {
  return {
    code: (code, at) => void log.push(`code ${code} at ${at}`),
    member: (id, role, index) => {
      log.push(`${role}${index} ${id} pos ${r.pos}`);
      return id;
    },
    paramCount: (n) => {
      log.push(`params ${n} pos ${r.pos}`);
      return n;
    },
    attributeCount: (n) => n,
    integerWidth: (bits) => void log.push(`bits ${bits}`),
    unknown: (code, at) => r.fail(`no type ${code}`, at),
  };
}

describe('type ids', () => {
  it('escapes at 2^24 - 1 in versions 3-6 only: versions 0-2 have 32-bit ids, and version 7 read a plain vbr', () => {
    const escaped = [0xff, 0xff, 0xff, 0x07, 0x2a];
    for (const v of [3, 5, 6]) expect(readTypeId(reader(...escaped), row(v))).toBe(42);
    for (const v of [2, 7]) expect(readTypeId(reader(...escaped), row(v))).toBe(0xffffff);
  });

  it('numbers v0-v1 ids past the type-type plane (12) one lower, and reports the plane itself', () => {
    expect(readTypeId(reader(14), row(1))).toBe(13);
    expect(readTypeId(reader(12), row(0))).toBe(TYPE_TYPE);
    expect(readTypeId(reader(12), row(6))).toBe(12);
  });
});

describe('type definitions', () => {
  it('reads a 1.x function type: return type, count, parameters, each member handed over as soon as it is read', () => {
    // function (13): returns int (7), 2 parameters: sbyte (3), void (0, the varargs mark)
    const r = reader(13, 7, 2, 3, 0);
    const log: string[] = [];
    const def = readTypeDefinition(r, row(6), logging(log, r));
    expect(def).toEqual({ kind: 'function', returnType: 7, params: [3, 0], attributes: undefined });
    expect(log).toEqual(['code 13 at 0', 'return0 7 pos 2', 'params 2 pos 3', 'param0 3 pos 4', 'param1 0 pos 5']);
  });

  it('reads the codes of each row: v0-v1 shifted, version 7 its own (vector, packed struct, integer with a width)', () => {
    // v0: a struct (stored 15, 14 after the shift) of one field (stored 16, 15 after it), then 0
    const r0 = reader(15, 16, 0);
    expect(readTypeDefinition(r0, row(0), logging([], r0))).toEqual({ kind: 'struct', fields: [16 - 1], packed: false });
    const v7 = row(7);
    expect(readTypeDefinition(reader(4, 33), v7, logging([], reader()))).toEqual({ kind: 'integer', bits: 33 });
    expect(readTypeDefinition(reader(11, 1, 4), v7, logging([], reader()))).toEqual({ kind: 'packed', element: 1, length: 4 });
    expect(readTypeDefinition(reader(7, 5, 6, 0), v7, logging([], reader()))).toEqual({ kind: 'struct', fields: [5, 6], packed: true });
    expect(readTypeDefinition(reader(2), v7, logging([], reader()))).toEqual({ kind: 'primitive', code: 2 });
  });

  it("reads version 7's parameter attributes after the parameters, as 16-bit index and attribute pairs", () => {
    // function (5): returns void (0), 1 parameter i32 (7); 1 attribute pair: index 1, attributes 0x10002
    const r = reader(5, 0, 1, 7, 1, 1, 0x82, 0x80, 0x04);
    expect(readTypeDefinition(r, row(7), logging([], r))).toEqual({ kind: 'function', returnType: 0, params: [7], attributes: [{ index: 1, attributes: 2 }] });
    expect(r.atEnd()).toBe(true);
  });

  it('leaves an unknown code, and every count, to the consumer', () => {
    const r = reader(30);
    expect(() => readTypeDefinition(r, row(6), logging([], r))).toThrow(/no type 30/);
    const big = reader(13, 7, 0x80, 0x80, 0x04);
    expect(() =>
      readTypeDefinition(big, row(6), {
        ...logging([], big),
        paramCount: (n, at) => big.fail(`${n} parameters`, at),
      }),
    ).toThrow(/65536 parameters/);
  });
});

/** A reading that logs each record, with no checks. */
function globalLog(log: string[]): GlobalInfoReading<number> {
  return {
    globalWord: (g) => void log.push(`global word slot ${g.slot}`),
    alignment: (log2) => void log.push(`alignment ${log2}`),
    global: (g) => {
      log.push(`global linkage ${g.linkage} init ${g.hasInitializer} section ${g.section} visibility ${g.visibility} tls ${g.isThreadLocal}`);
      return g.slot;
    },
    globalDone: (slot, init) => void log.push(`global ${slot} done, initializer ${init}`),
    functionWord: (f) => void log.push(`function slot ${f.slot} flags ${f.flags} extension ${f.hasExtension}`),
    function: (f) => void log.push(`function cc-high ${f.callingConvHigh} section ${f.section} declaration linkage ${f.declarationLinkage}`),
    libraryCount: (n) => n,
    sectionCount: (n) => n,
    string: (r) => r.string(),
    library: (s) => void log.push(`library ${s}`),
    triple: (s) => void log.push(`triple ${s}`),
    dataLayout: (s) => void log.push(`layout ${s}`),
    section: (s) => void log.push(`section ${s}`),
    inlineAsm: (s) => void log.push(`asm ${s}`),
    alias: (a) => void log.push(`alias slot ${a.slot} linkage ${a.linkage} aliasee ${a.aliasee}`),
  };
}

const str = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

describe('global info records', () => {
  it('reads a version 6 block: a global with its extension word, a function, libraries, triple, sections', () => {
    // global: slot 14, internal (3) without initializer → extension: linkage 0, init, align log 3, section
    const globalWord = (14 << 5) | (3 << 2);
    const ext = 1 | (0 << 1) | (3 << 4) | (1 << 9);
    const vbr = (n: number): number[] => (n < 128 ? [n] : [(n & 127) | 128, n >>> 7]);
    const bytes = [...vbr(globalWord), ...vbr(ext), 1, 9, 0, ...vbr((15 << 5) | 1), ...vbr(0), 1, ...str('m'), ...str('x86'), 1, ...str('.s'), ...str('nop')];
    const log: string[] = [];
    expect(readGlobalInfoRecords(reader(...bytes), row(6), globalLog(log))).toBe('asm');
    expect(log).toEqual([
      'global word slot 14',
      'alignment 3',
      'global linkage 0 init true section 1 visibility 0 tls false',
      'global 14 done, initializer 9',
      'function slot 15 flags 1 extension false',
      'function cc-high 0 section 0 declaration linkage 0',
      'library m',
      'triple x86',
      'section .s',
      'asm nop',
    ]);
  });

  it('widens a version 0-4 function word (a bare type slot) to a C function with a body, and ends where the version ends', () => {
    const log: string[] = [];
    expect(readGlobalInfoRecords(reader(0, 17, 0), row(1), globalLog(log))).toBe('functions');
    expect(log).toEqual(['function slot 17 flags 1 extension false', 'function cc-high 0 section 0 declaration linkage 0']);
  });

  it("reads version 7's thread-local bit, visibility, data layout and aliases", () => {
    // global: slot 9, thread-local, external with initializer 1
    const globalWord = (9 << 6) | (1 << 5) | 2;
    const bytes = [(globalWord & 127) | 128, globalWord >>> 7, 1, 0, 0, 0, ...str(''), ...str('e-p:32'), 0, ...str(''), (9 << 3) | 2, 1, 0];
    const log: string[] = [];
    expect(readGlobalInfoRecords(reader(...bytes), row(7), globalLog(log))).toBe('asm');
    expect(log).toEqual([
      'global word slot 9',
      'global linkage 0 init true section 0 visibility 0 tls true',
      'global 9 done, initializer 1',
      'triple ',
      'layout e-p:32',
      'asm ',
      'alias slot 9 linkage 2 aliasee 1',
    ]);
  });
});

describe('the module block loop', () => {
  it("hands each block to the consumer's handler for the kind the row's id names, and leaves it", () => {
    // version 6 short headers: id in the low 5 bits, size above. Types (6), global info (5), unknown (31).
    const header = (id: number, size: number): number[] => {
      const w = (size << 5) | id;
      return [w & 255, (w >>> 8) & 255, (w >>> 16) & 255, w >>> 24];
    };
    const r = reader(...header(6, 1), 0, ...header(5, 2), 0, 0, ...header(31, 0));
    const seen: string[] = [];
    const handler = (name: string) => () => {
      seen.push(name);
      r.pos = r.end;
    };
    readModuleBlocks(r, row(6), {
      enter: (frame) => {
        r.enterBlock(String(frame.id), frame.size, frame.headerOffset);
        return frame.kind;
      },
      globalTypePlane: handler('types'),
      moduleGlobalInfo: handler('globals'),
      constantPool: handler('constants'),
      function: handler('function'),
      symbolTable: handler('symbols'),
      other: (frame) => seen.push(`other ${frame.id}`),
      leave: () => r.leaveBlock(),
    });
    expect(seen).toEqual(['types', 'globals', 'other 31']);
    expect(r.atEnd()).toBe(true);
  });
});
