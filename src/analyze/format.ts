/**
 * Prints an `Analysis` in the layout of LLVM 1.9's `llvm-bcanalyzer` summary, so the two can be
 * compared line by line. Numbers follow C++ iostream rules: doubles in `%g` style with 6
 * significant digits (4 for percentages), `-nan` for 0/0 and `inf` for x/0, as glibc printed them.
 */
import type { Analysis, DumpRecord, FunctionAnalysis } from './analysis.js';

/** C++ `ostream << double` with `setprecision(p)` in the default (general) float format. */
export function formatDouble(x: number, p = 6): string {
  if (Number.isNaN(x)) return '-nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  x = roundHalfEven(x, p);
  const exp = Number(x.toExponential(p - 1).split('e')[1]);
  if (exp < -4 || exp >= p) {
    const [m, e] = x.toExponential(p - 1).split('e') as [string, string];
    const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
    const en = Number(e);
    return `${mant}e${en < 0 ? '-' : '+'}${String(Math.abs(en)).padStart(2, '0')}`;
  }
  const s = x.toFixed(Math.max(0, p - 1 - exp));
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/**
 * glibc rounds an exact decimal tie to even (7.8125 → "7.812" at 4 digits); JavaScript's
 * `toPrecision` rounds it up. When `x`'s exact expansion is a tie at `p` digits and the kept last
 * digit is even, returns `x` truncated to `p` digits; otherwise `x` unchanged.
 */
function roundHalfEven(x: number, p: number): number {
  // A tie's digit after the p kept ones is an exact 5 with nothing after it, so rounding to p + 1
  // digits leaves it 5: any other digit there rules a tie out without the 100-digit expansion
  // (which cost a tenth of the analyzer's time over the conformance corpus).
  const near = x.toExponential(p);
  if (near.charCodeAt(near.indexOf('e') - 1) !== 0x35 /* 5 */) return x;
  const [m, e] = x.toExponential(99).split('e') as [string, string];
  const digits = m.replace('-', '').replace('.', '');
  if (digits[p] !== '5' || !/^0*$/.test(digits.slice(p + 1))) return x;
  if (Number(digits[p - 1]) % 2 !== 0) return x;
  const kept = `${x < 0 ? '-' : ''}${digits[0]}.${digits.slice(1, p)}e${e}`;
  return Number(kept);
}

const title = (t: string): string => t.padStart(30) + ': ';
const uint = (t: string, v: number): string => `${title(t)}${String(v).padStart(9)}\n`;
const dbl = (t: string, v: number): string => `${title(t)}${formatDouble(v).padStart(9)}\n`;
const pct = (t: string, top: number, bot: number): string => `${title(t)}${formatDouble(top).padStart(9)} (${formatDouble((top / bot) * 100, 4)}%)\n`;

/**
 * What the two references printed differently (LLVM 1.9's `llvm-bcanalyzer` for versions 0–6,
 * r36867's for version 7): its reader no longer counted VBRs and had no compaction tables, so
 * those lines are gone; symbol-table bytes are split into value and type tables; a function's type
 * was no longer printed (the call was commented out), leaving `Type:: ` with nothing after it.
 */
interface Layout {
  symbolTableBytes(a: Analysis): string;
  compactionTables: boolean;
  vbrs: boolean;
  functionType(f: FunctionAnalysis): string;
}

const LLVM_19: Layout = {
  symbolTableBytes: (a) => pct('Symbol Table Bytes', a.bytes.symbolTable, a.fileSize),
  compactionTables: true,
  vbrs: true,
  functionType: (f) => ` ${f.type}`,
};

const R36867: Layout = {
  symbolTableBytes: (a) =>
    pct('Value Symbol Table Bytes', a.bytes.symbolTable, a.fileSize) + pct('Type Symbol Table Bytes', a.bytes.typeSymbolTable, a.fileSize),
  compactionTables: false,
  vbrs: false,
  functionType: () => '',
};

/**
 * The summary text, as `llvm-bcanalyzer FILE` printed it (without `-dump`).
 *
 * @category Analyze
 */
export function formatAnalysis(a: Analysis, options: { details?: boolean } = {}): string {
  const layout = a.reference === 'r36867' ? R36867 : LLVM_19;
  const c = a.counts;
  const b = a.bytes;
  const d = a.density ?? { bytesPerValue: 0, bytesPerGlobal: 0, bytesPerFunction: 0 };
  const o: string[] = [
    `\nSummary Analysis Of ${a.moduleId}: \n\n`,
    `${title('Bytecode Analysis Of Module')}${a.moduleId}\n`,
    uint('Bytecode Version Number', a.version ?? 0),
    uint('File Size', a.fileSize),
    pct('Module Bytes', b.module, a.fileSize),
    pct('Function Bytes', b.function, a.fileSize),
    pct('Global Types Bytes', b.globalTypes, a.fileSize),
    pct('Constant Pool Bytes', b.constantPool, a.fileSize),
    pct('Module Globals Bytes', b.moduleGlobals, a.fileSize),
    pct('Instruction List Bytes', b.instructionList, a.fileSize),
  ];
  if (layout.compactionTables) o.push(pct('Compaction Table Bytes', b.compactionTable, a.fileSize));
  o.push(
    layout.symbolTableBytes(a),
    pct('Alignment Bytes', a.alignmentBytes, a.fileSize),
    pct('Block Header Bytes', a.blockHeaderBytes, a.fileSize),
    pct('Dependent Libraries Bytes', a.dependentLibrariesBytes, a.fileSize),
    uint('Number Of Bytecode Blocks', c.blocks),
    uint('Number Of Functions', c.functions),
    uint('Number Of Types', c.types),
    uint('Number Of Constants', c.constants),
    uint('Number Of Global Variables', c.globalVariables),
    uint('Number Of Values', c.values),
    uint('Number Of Basic Blocks', c.basicBlocks),
    uint('Number Of Instructions', c.instructions),
    uint('Number Of Long Instructions', c.longInstructions),
    uint('Number Of Operands', c.operands),
  );
  if (layout.compactionTables) o.push(uint('Number Of Compaction Tables', c.compactionTables));
  o.push(
    uint('Number Of Symbol Tables', c.symbolTables),
    uint('Number Of Dependent Libs', c.dependentLibs),
    uint('Total Instruction Size', a.instructionSize),
    dbl('Average Instruction Size', a.instructionSize / c.instructions),
    uint('Maximum Type Slot Number', a.maxTypeSlot),
    uint('Maximum Value Slot Number', a.maxValueSlot),
    dbl('Bytes Per Value ', d.bytesPerValue),
    dbl('Bytes Per Global', d.bytesPerGlobal),
    dbl('Bytes Per Function', d.bytesPerFunction),
  );
  if (layout.vbrs) {
    o.push(
      uint('# of VBR 32-bit Integers', a.vbr.count32),
      uint('# of VBR 64-bit Integers', a.vbr.count64),
      uint('# of VBR Compressed Bytes', a.vbr.compressedBytes),
      uint('# of VBR Expanded Bytes', a.vbr.expandedBytes),
      pct('Bytes Saved With VBR', a.vbr.expandedBytes - a.vbr.compressedBytes, a.vbr.expandedBytes),
    );
  }
  if (options.details !== false) {
    o.push(`\nDetailed Analysis Of ${a.moduleId} Functions:\n`);
    for (const f of a.functions) {
      o.push(`\n${f.basicBlocks === 0 ? 'External ' : ''}Function: ${f.name}\n`, `${title('Type:')}${layout.functionType(f)}\n`, uint('Byte Size', f.byteSize));
      if (!f.basicBlocks) continue;
      o.push(
        uint('Basic Blocks', f.basicBlocks),
        uint('Instructions', f.instructions),
        uint('Long Instructions', f.longInstructions),
        // Neither analyzer ever incremented its per-function operand counter: both printed 0.
        uint('Operands', 0),
        uint('Instruction Size', f.instructionSize),
        dbl('Average Instruction Size', f.instructionSize / f.instructions),
        dbl('Bytes Per Instruction', f.byteSize / f.instructions),
      );
      if (layout.vbrs) {
        o.push(
          uint('# of VBR 32-bit Integers', f.vbrCount32),
          uint('# of VBR 64-bit Integers', f.vbrCount64),
          uint('# of VBR Compressed Bytes', f.vbrCompressedBytes),
          uint('# of VBR Expanded Bytes', f.vbrExpandedBytes),
          dbl('Bytes Saved With VBR', f.vbrExpandedBytes - f.vbrCompressedBytes),
        );
      }
    }
  }
  return o.join('');
}

/** The `--dump` listing: every block and record at its offset, then where and why the walk stopped. */
export function formatDump(a: Analysis, records: readonly DumpRecord[]): string {
  const lines = records.map((r) => `${String(r.offset).padStart(8)}  ${'  '.repeat(r.depth)}${r.text}`);
  if (a.error) {
    const where = a.error.blockPath.length ? ` in ${a.error.blockPath.join('/')}` : '';
    lines.push(`stopped at offset ${a.error.offset}${where}: ${a.error.reason}`);
  } else {
    lines.push('end of stream: complete');
  }
  return lines.join('\n') + '\n';
}
