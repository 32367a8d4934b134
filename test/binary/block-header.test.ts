import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS_PRESENT, CORPUS_ROOT, NEEDS_CORPUS } from '../support/corpus.js';
import {
  BLOCK_NAMES,
  MAX_SHORT_BLOCK_SIZE,
  NEW_BLOCK_IDS,
  OLD_BLOCK_IDS,
  OLD_DEPENDENT_LIBS_BLOCK_ID,
  blockKindOfNewId,
  blockKindOfOldId,
  oldBlockIdToNew,
  packShortBlockHeader,
  readBlockHeader,
  readList,
  readZList,
  writeBlockHeader,
  writeList,
} from '../../src/binary/block-header.js';
import { BinaryReader } from '../../src/binary/reader.js';
import { BinaryWriter } from '../../src/binary/writer.js';
import { WriteRangeError } from '../../src/errors/write-range-error.js';
import { unwrapContainer } from '../../src/container/index.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';

const CORPUS = CORPUS_ROOT + '/';
const haveCorpus = CORPUS_PRESENT;

describe('block ids', () => {
  it('old (long-header, v0–v2) ids are those of LLVM 1.0–1.2', () => {
    expect(OLD_BLOCK_IDS).toMatchObject({
      module: 0x01,
      function: 0x11,
      constantPool: 0x12,
      symbolTable: 0x13,
      moduleGlobalInfo: 0x14,
      globalTypePlane: 0x15,
      basicBlock: 0x31,
      instructionList: 0x32,
      compactionTable: 0x33,
    });
    expect(OLD_DEPENDENT_LIBS_BLOCK_ID).toBe(0x16);
  });

  it('new (v3+) ids are 1–8 and fit the 5-bit field', () => {
    expect(NEW_BLOCK_IDS).toMatchObject({
      module: 1,
      function: 2,
      constantPool: 3,
      symbolTable: 4,
      moduleGlobalInfo: 5,
      globalTypePlane: 6,
      instructionList: 7,
      compactionTable: 8,
    });
    expect(NEW_BLOCK_IDS.basicBlock).toBeNull();
  });

  it('old ids map to the new ids of the same block, as LLVM 1.9 read them; BasicBlock has none', () => {
    expect(oldBlockIdToNew(0x01)).toBe(1);
    expect(oldBlockIdToNew(0x11)).toBe(2);
    expect(oldBlockIdToNew(0x15)).toBe(6);
    expect(oldBlockIdToNew(0x32)).toBe(7);
    expect(oldBlockIdToNew(0x33)).toBe(8);
    expect(oldBlockIdToNew(0x31)).toBeUndefined();
    expect(oldBlockIdToNew(0x16)).toBeUndefined();
    expect(oldBlockIdToNew(0x02)).toBeUndefined();
    expect(blockKindOfOldId(0x31)).toBe('basicBlock');
    expect(blockKindOfNewId(7)).toBe('instructionList');
    expect(blockKindOfNewId(9)).toBeUndefined();
    for (const kind of Object.keys(OLD_BLOCK_IDS)) expect(BLOCK_NAMES.has(kind as never)).toBe(true);
  });
});

describe('readBlockHeader / writeBlockHeader', () => {
  it('round-trip in both forms, reporting where the header and body start', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 31 }), fc.integer({ min: 0, max: MAX_SHORT_BLOCK_SIZE }), fc.boolean(), fc.nat(7), (id, size, long, pad) => {
        const w = new BinaryWriter();
        for (let i = 0; i < pad; i++) w.uint8(0);
        writeBlockHeader(w, id, size, long);
        const r = new BinaryReader(w.finish(), pad);
        expect(readBlockHeader(r, long)).toEqual({ id, size, headerOffset: pad, bodyOffset: pad + (long ? 8 : 4) });
      }),
    );
  });

  it('the short form packs size << 5 | id and refuses what does not fit', () => {
    expect(packShortBlockHeader(6, 13)).toBe(0x1a6);
    expect(packShortBlockHeader(31, MAX_SHORT_BLOCK_SIZE)).toBe(0xffffffff);
    expect(() => packShortBlockHeader(32, 0)).toThrow(WriteRangeError);
    expect(() => packShortBlockHeader(1, MAX_SHORT_BLOCK_SIZE + 1)).toThrow(WriteRangeError);
  });

  it('a header cut short is a BytecodeError at the header', () => {
    const r = new BinaryReader(Uint8Array.of(1, 0, 0, 0, 5, 0));
    expect(() => readBlockHeader(r, true)).toThrow(BytecodeError);
  });

  it('reads the real header of LLVM 1.3 (Feature__basictest, v3): long module block, then short blocks', NEEDS_CORPUS, (ctx) => {
    if (!haveCorpus) ctx.skip();
    const { stream } = unwrapContainer(new Uint8Array(readFileSync(CORPUS + 'v3/Feature__basictest.bc')));
    const r = new BinaryReader(stream, 4);
    const module = readBlockHeader(r, true);
    expect(module).toEqual({ id: 1, size: stream.length - 12, headerOffset: 4, bodyOffset: 12 });
    r.enterBlock('Module', module.size, module.headerOffset);
    r.vbr32(); // version word
    r.align32();
    const types = readBlockHeader(r, false);
    expect(blockKindOfNewId(types.id)).toBe('globalTypePlane');
    expect(types.size).toBe(13);
  });
});

describe.skipIf(!haveCorpus)('module block headers across the corpus', NEEDS_CORPUS, () => {
  it('every file of every version has a long module header (id 1) whose size is the rest of the stream', () => {
    let checked = 0;
    for (const dir of ['v0', 'v1', 'v3', 'v5', 'v6']) {
      for (const name of readdirSync(CORPUS + dir)) {
        if (!name.endsWith('.bc')) continue;
        const { stream } = unwrapContainer(new Uint8Array(readFileSync(`${CORPUS}${dir}/${name}`)));
        const header = readBlockHeader(new BinaryReader(stream, 4), true);
        expect(header.id, `${dir}/${name}`).toBe(1);
        expect(header.size, `${dir}/${name}`).toBe(stream.length - 12);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(4000);
  });
});

describe('lists', () => {
  it('an llist round-trips through writeList/readList', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 50 }), (items) => {
        const w = new BinaryWriter();
        writeList(w, items, (wr, v) => wr.vbr32(v));
        const r = new BinaryReader(w.finish());
        expect(readList(r, (rd) => rd.vbr32(), 1000, 'items')).toEqual(items);
        expect(r.atEnd()).toBe(true);
      }),
    );
  });

  it('an llist count above the limit, or too large for the bytes left, fails before allocating', () => {
    const huge = new BinaryWriter().vbr32(0xffffffff).finish();
    const e = (() => {
      try {
        readList(new BinaryReader(huge), (rd) => rd.uint8(), 2 ** 32, 'constants');
      } catch (err) {
        return err as BytecodeError;
      }
      throw new Error('no error');
    })();
    expect(e).toBeInstanceOf(BytecodeError);
    expect(e.reason).toMatch(/constants: count 4294967295 cannot fit/);
    expect(e.offset).toBe(0);
    const small = new BinaryWriter().vbr32(3).uint8(1).uint8(2).uint8(3).finish();
    expect(() => readList(new BinaryReader(small), (rd) => rd.uint8(), 2, 'types')).toThrow(/exceeds the limit of 2/);
  });

  it('a zlist round-trips, whatever its items and their payloads; cut anywhere, it is a BytecodeError; past its limit, one naming it', () => {
    // An item: a non-zero first word (any vbr32 length) and a payload of words the reader takes.
    const itemArb = fc.tuple(fc.oneof(fc.integer({ min: 1, max: 127 }), fc.integer({ min: 128, max: 0xffffffff })), fc.array(fc.nat(), { maxLength: 3 }));
    fc.assert(
      fc.property(fc.array(itemArb, { maxLength: 40 }), fc.nat(), (items, cutAt) => {
        const w = new BinaryWriter();
        for (const [first, payload] of items) {
          w.vbr32(first).vbr32(payload.length);
          for (const p of payload) w.vbr32(p);
        }
        const bytes = w.vbr32(0).finish();
        const readItem = (first: number, rd: BinaryReader): [number, number[]] => [first, Array.from({ length: rd.vbr32() }, () => rd.vbr32())];
        const r = new BinaryReader(bytes);
        expect(readZList(r, readItem, 1000, 'items')).toEqual(items);
        expect(r.atEnd()).toBe(true);
        // Every proper prefix lacks the terminator (or more): an error at or before the cut.
        const cut = cutAt % bytes.length;
        let error: unknown;
        try {
          readZList(new BinaryReader(bytes.subarray(0, cut)), readItem, 1000, 'items');
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(BytecodeError);
        expect((error as BytecodeError).offset).toBeLessThanOrEqual(cut);
        if (items.length > 0)
          expect(() => readZList(new BinaryReader(bytes), readItem, items.length - 1, 'items')).toThrow(
            `items: more than the limit of ${items.length - 1} entries`,
          );
      }),
    );
  });

  it('a zlist reads items until a zero, and needs its terminator', () => {
    const bytes = new BinaryWriter().vbr32(5).vbr32(300).vbr32(1).vbr32(0).finish();
    expect(readZList(new BinaryReader(bytes), (first) => first, 10, 'globals')).toEqual([5, 300, 1]);
    expect(() => readZList(new BinaryReader(bytes.subarray(0, 4)), (first) => first, 10, 'globals')).toThrow(BytecodeError);
    expect(() => readZList(new BinaryReader(bytes), (first) => first, 2, 'globals')).toThrow(/more than the limit of 2/);
  });
});
