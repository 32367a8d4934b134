/**
 * The analyzer on version-7 files, as r36867's `llvm-bcanalyzer` (the last revision with bytecode,
 * LLVM_BYTECODE_R36867, else `../shared/llvm-2.0-dev/bin`) analyzed them: its own summary layout, its own counting, and the
 * "File Size" of a compressed file being the compressed size. The whole v7 corpus is scored in
 * corpus.test.ts; here each rule is shown on a file that exhibits it. Corpus and oracle parts skip,
 * saying so, when absent.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBytes, dumpAnalysis, formatAnalysis } from '../../src/analyze/index.js';
import { loadBzip2, unwrapContainer } from '../../src/container/index.js';
import { CORPUS_PRESENT, CORPUS_SKIP_REASON, NEEDS_CORPUS, corpusFiles, readCorpusFile, readCorpusText } from '../support/corpus.js';
import { needs, R36867 } from '../support/tools.js';

const TOOLS = R36867.dir;

function analyzeCorpus(name: string): { ours: string; theirs: string | undefined; analysis: ReturnType<typeof analyzeBytes> } {
  const analysis = analyzeBytes(readCorpusFile('v7', name), { moduleId: name });
  return { ours: formatAnalysis(analysis), theirs: readCorpusText('v7', name, '.bca.txt'), analysis };
}

describe.skipIf(!CORPUS_PRESENT)('version 7 as r36867 llvm-bcanalyzer printed it (corpus)', NEEDS_CORPUS, () => {
  if (!CORPUS_PRESENT) console.warn(CORPUS_SKIP_REASON);

  it('prints r36867 layout: value and type symbol-table bytes apart, no VBR or compaction lines, empty function types', () => {
    const { ours, theirs, analysis } = analyzeCorpus('Analysis__Andersens__arg-must-alias.bc');
    expect(ours).toBe(theirs);
    expect(analysis.reference).toBe('r36867');
    expect(analysis.version).toBe(7);
    expect(ours).toContain('      Value Symbol Table Bytes:');
    expect(ours).toContain('       Type Symbol Table Bytes:');
    expect(ours).not.toMatch(/VBR|Compaction/);
    expect(ours).toMatch(/^ {25}Type:: \n/m);
  });

  it('counts type symbol tables in their own bytes but not as symbol tables (the reader told the handler of value tables only)', () => {
    const named = corpusFiles('v7').find((n) => analyzeBytes(readCorpusFile('v7', n)).bytes.typeSymbolTable > 0);
    expect(named).toBeDefined();
    const { ours, theirs, analysis } = analyzeCorpus(named!);
    expect(ours).toBe(theirs);
    const typeTables = analysis.blocks[0]!.children.filter((b) => b.id === 9).length;
    const valueTables = analysis.blocks[0]!.children.filter((b) => b.id === 4).length;
    expect(typeTables).toBeGreaterThan(0);
    // Function-level value tables count too; module-level type tables never do.
    expect(analysis.counts.symbolTables).toBeGreaterThanOrEqual(valueTables);
    expect(analysis.counts.symbolTables).toBe(
      analysis.blocks[0]!.children.reduce((n, b) => n + (b.id === 4 ? 1 : 0) + b.children.filter((c) => c.id === 4).length, 0),
    );
  });

  it("counts a call's operands as the reader left them: calling-convention word and a vararg callee removed", () => {
    // Every v7 file's operand total agrees with LLVM's; find one with a vararg call to show it.
    const name = corpusFiles('v7').find(
      (n) => /\.\.\.\)\*? @/.test(readCorpusText('v7', n, '.dis.ll') ?? '') && /call .*\.\.\./.test(readCorpusText('v7', n, '.dis.ll') ?? ''),
    );
    expect(name).toBeDefined();
    const { ours, theirs } = analyzeCorpus(name!);
    const operands = (t: string): string | undefined => /Number Of Operands:\s+(\d+)/.exec(t)?.[1];
    expect(operands(ours)).toBe(operands(theirs!));
  });

  it('lists function bodies by declaration order where the heap does not reorder them', () => {
    const { ours, theirs, analysis } = analyzeCorpus('Analysis__Andersens__arg-must-alias.bc');
    expect(ours).toBe(theirs);
    expect(analysis.functions.map((f) => f.name).filter(Boolean).length).toBe(analysis.functions.length);
  });

  it('every truncation of a version-7 file stops with a typed error, never an internal one', () => {
    const bytes = readCorpusFile('v7', 'Analysis__Andersens__basictest.bc');
    for (let n = 0; n < bytes.length; n++) {
      const a = analyzeBytes(bytes.subarray(0, n));
      expect(a.error, `cut at ${n}`).not.toBeNull();
      expect(a.error!.reason, `cut at ${n}`).not.toMatch(/^internal error/);
    }
  });

  it('--dump lists the version-7 blocks and records and ends complete', () => {
    const dump = dumpAnalysis(readCorpusFile('v7', 'Analysis__Andersens__basictest.bc'), { moduleId: 'basictest.bc' });
    expect(dump).toContain('BLOCK GlobalTypePlane (id 6)');
    expect(dump).toContain('BLOCK ValueSymbolTable (id 4)');
    expect(dump).toMatch(/Type slot \d+: i32\*/);
    expect(dump).toMatch(/INST ptrtoint type=i32\*/);
    expect(dump).toContain('end of stream: complete');
  });
});

describe('version 7 without the corpus', () => {
  it('refuses an early-stage version-7 word (flagged, before 2007-01-26) naming the stage, not damage', () => {
    // llvm, module block (id 1, size 4), version word 0x70 (7 << 4), nothing else.
    const bytes = new Uint8Array([0x6c, 0x6c, 0x76, 0x6d, 1, 0, 0, 0, 4, 0, 0, 0, 0x70, 0, 0, 0]);
    const a = analyzeBytes(bytes);
    expect(a.reference).toBe('r36867');
    expect(a.error?.reason).toMatch(/version 7 with a flagged version word.*2007-01-25/);
    expect(a.error?.offset).toBe(12);
  });

  it('reads a minimal version-7 module: an empty type table and module info', () => {
    // Module body: bare version 7, a GlobalTypePlane block (id 6) holding count 0, and a
    // ModuleGlobalInfo block (id 5): no globals, no functions, no libraries, empty triple and layout.
    const body = [7, 6 | (1 << 5), 0, 0, 0, 0, 5 | (5 << 5), 0, 0, 0, 0, 0, 0, 0, 0];
    const bytes = new Uint8Array([0x6c, 0x6c, 0x76, 0x6d, 1, 0, 0, 0, body.length, 0, 0, 0, ...body]);
    const a = analyzeBytes(bytes, { moduleId: 'tiny.bc' });
    expect(a.error).toBeNull();
    expect(a.counts.blocks).toBe(2);
    expect(a.bytes.moduleGlobals).toBe(5);
    expect(a.maxTypeSlot).toBe(0xffffffff); // an empty type list, as LLVM's unsigned `0 - 1`
    expect(formatAnalysis(a)).toContain('Maximum Type Slot Number: 4294967295');
  });
});

describe('compressed version 7 against r36867 llvm-bcanalyzer (oracle)', needs(R36867), () => {
  let dir = '';
  beforeAll(async () => {
    await loadBzip2();
    dir = mkdtempSync(join(tmpdir(), 'v7-analyze-'));
    // Above 64 KiB of bytecode r36867's llvm-as compresses with bzip2 (llvc2) when asked to.
    let text = '';
    for (let i = 0; i < 4000; i++) text += `define i32 @f${i}(i32 %x) {\n\t%y = add i32 %x, ${i}\n\tret i32 %y\n}\n\n`;
    writeFileSync(join(dir, 'big.ll'), text);
    const r = spawnSync(join(TOOLS, 'llvm-as'), ['-disable-compression=false', '-f', '-o', 'big.bc', 'big.ll'], { cwd: dir });
    expect(r.status, r.stderr?.toString()).toBe(0);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reports the compressed size as "File Size" and percentages of it (above 100 %), as LLVM did', () => {
    const bytes = new Uint8Array(readFileSync(join(dir, 'big.bc')));
    expect(String.fromCharCode(...bytes.subarray(0, 5))).toBe('llvc2');
    const ref = spawnSync(join(TOOLS, 'llvm-bcanalyzer'), ['-nodetails', 'big.bc'], { cwd: dir, maxBuffer: 1 << 26 }).stdout.toString('latin1');
    const a = analyzeBytes(bytes, { moduleId: 'big.bc' });
    expect(formatAnalysis(a, { details: false })).toBe(ref);
    expect(a.fileSize).toBe(bytes.length);
    expect(a.streamSize).toBe(unwrapContainer(bytes).stream.length);
    expect(a.bytes.function).toBeGreaterThan(a.fileSize);
  });
});
