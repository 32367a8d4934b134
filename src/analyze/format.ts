/**
 * Prints an `Analysis` in the layout of LLVM 1.9's `llvm-bcanalyzer` summary, so the two can be
 * compared line by line. Numbers follow C++ iostream rules: doubles in `%g` style with 6
 * significant digits (4 for percentages), `-nan` for 0/0 and `inf` for x/0, as glibc printed them.
 */
import type { Analysis, DumpRecord } from './analysis.js';

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
const pct = (t: string, top: number, bot: number): string =>
  `${title(t)}${formatDouble(top).padStart(9)} (${formatDouble((top / bot) * 100, 4)}%)\n`;

/** The summary text, as `llvm-bcanalyzer FILE` printed it (without `-dump`). */
export function formatAnalysis(a: Analysis, options: { details?: boolean } = {}): string {
  if (a.reference === 'r36867') return formatAnalysisR36867(a, options);
  const c = a.counts;
  const b = a.bytes;
  const d = a.density ?? { bytesPerValue: 0, bytesPerGlobal: 0, bytesPerFunction: 0 };
  let o = `\nSummary Analysis Of ${a.moduleId}: \n\n`;
  o += `${title('Bytecode Analysis Of Module')}${a.moduleId}\n`;
  o += uint('Bytecode Version Number', a.version ?? 0);
  o += uint('File Size', a.fileSize);
  o += pct('Module Bytes', b.module, a.fileSize);
  o += pct('Function Bytes', b.function, a.fileSize);
  o += pct('Global Types Bytes', b.globalTypes, a.fileSize);
  o += pct('Constant Pool Bytes', b.constantPool, a.fileSize);
  o += pct('Module Globals Bytes', b.moduleGlobals, a.fileSize);
  o += pct('Instruction List Bytes', b.instructionList, a.fileSize);
  o += pct('Compaction Table Bytes', b.compactionTable, a.fileSize);
  o += pct('Symbol Table Bytes', b.symbolTable, a.fileSize);
  o += pct('Alignment Bytes', a.alignmentBytes, a.fileSize);
  o += pct('Block Header Bytes', a.blockHeaderBytes, a.fileSize);
  o += pct('Dependent Libraries Bytes', a.dependentLibrariesBytes, a.fileSize);
  o += uint('Number Of Bytecode Blocks', c.blocks);
  o += uint('Number Of Functions', c.functions);
  o += uint('Number Of Types', c.types);
  o += uint('Number Of Constants', c.constants);
  o += uint('Number Of Global Variables', c.globalVariables);
  o += uint('Number Of Values', c.values);
  o += uint('Number Of Basic Blocks', c.basicBlocks);
  o += uint('Number Of Instructions', c.instructions);
  o += uint('Number Of Long Instructions', c.longInstructions);
  o += uint('Number Of Operands', c.operands);
  o += uint('Number Of Compaction Tables', c.compactionTables);
  o += uint('Number Of Symbol Tables', c.symbolTables);
  o += uint('Number Of Dependent Libs', c.dependentLibs);
  o += uint('Total Instruction Size', a.instructionSize);
  o += dbl('Average Instruction Size', a.instructionSize / c.instructions);
  o += uint('Maximum Type Slot Number', a.maxTypeSlot);
  o += uint('Maximum Value Slot Number', a.maxValueSlot);
  o += dbl('Bytes Per Value ', d.bytesPerValue);
  o += dbl('Bytes Per Global', d.bytesPerGlobal);
  o += dbl('Bytes Per Function', d.bytesPerFunction);
  o += uint('# of VBR 32-bit Integers', a.vbr.count32);
  o += uint('# of VBR 64-bit Integers', a.vbr.count64);
  o += uint('# of VBR Compressed Bytes', a.vbr.compressedBytes);
  o += uint('# of VBR Expanded Bytes', a.vbr.expandedBytes);
  o += pct('Bytes Saved With VBR', a.vbr.expandedBytes - a.vbr.compressedBytes, a.vbr.expandedBytes);
  if (options.details !== false) {
    o += `\nDetailed Analysis Of ${a.moduleId} Functions:\n`;
    for (const f of a.functions) {
      o += `\n${f.basicBlocks === 0 ? 'External ' : ''}Function: ${f.name}\n`;
      o += `${title('Type:')} ${f.type}\n`;
      o += uint('Byte Size', f.byteSize);
      if (f.basicBlocks) {
        o += uint('Basic Blocks', f.basicBlocks);
        o += uint('Instructions', f.instructions);
        o += uint('Long Instructions', f.longInstructions);
        // LLVM 1.9 never incremented its per-function operand counter: it always printed 0.
        o += uint('Operands', 0);
        o += uint('Instruction Size', f.instructionSize);
        o += dbl('Average Instruction Size', f.instructionSize / f.instructions);
        o += dbl('Bytes Per Instruction', f.byteSize / f.instructions);
        o += uint('# of VBR 32-bit Integers', f.vbrCount32);
        o += uint('# of VBR 64-bit Integers', f.vbrCount64);
        o += uint('# of VBR Compressed Bytes', f.vbrCompressedBytes);
        o += uint('# of VBR Expanded Bytes', f.vbrExpandedBytes);
        o += dbl('Bytes Saved With VBR', f.vbrExpandedBytes - f.vbrCompressedBytes);
      }
    }
  }
  return o;
}

/**
 * The summary as r36867's `llvm-bcanalyzer` printed it (version 7): its reader no longer counted
 * VBRs and had no compaction tables, so those lines are gone; symbol-table bytes are split into
 * value and type tables; a function's type was no longer printed (the call was commented out),
 * leaving `Type:: ` with nothing after it.
 */
function formatAnalysisR36867(a: Analysis, options: { details?: boolean }): string {
  const c = a.counts;
  const b = a.bytes;
  const d = a.density ?? { bytesPerValue: 0, bytesPerGlobal: 0, bytesPerFunction: 0 };
  let o = `\nSummary Analysis Of ${a.moduleId}: \n\n`;
  o += `${title('Bytecode Analysis Of Module')}${a.moduleId}\n`;
  o += uint('Bytecode Version Number', a.version ?? 0);
  o += uint('File Size', a.fileSize);
  o += pct('Module Bytes', b.module, a.fileSize);
  o += pct('Function Bytes', b.function, a.fileSize);
  o += pct('Global Types Bytes', b.globalTypes, a.fileSize);
  o += pct('Constant Pool Bytes', b.constantPool, a.fileSize);
  o += pct('Module Globals Bytes', b.moduleGlobals, a.fileSize);
  o += pct('Instruction List Bytes', b.instructionList, a.fileSize);
  o += pct('Value Symbol Table Bytes', b.symbolTable, a.fileSize);
  o += pct('Type Symbol Table Bytes', b.typeSymbolTable, a.fileSize);
  o += pct('Alignment Bytes', a.alignmentBytes, a.fileSize);
  o += pct('Block Header Bytes', a.blockHeaderBytes, a.fileSize);
  o += pct('Dependent Libraries Bytes', a.dependentLibrariesBytes, a.fileSize);
  o += uint('Number Of Bytecode Blocks', c.blocks);
  o += uint('Number Of Functions', c.functions);
  o += uint('Number Of Types', c.types);
  o += uint('Number Of Constants', c.constants);
  o += uint('Number Of Global Variables', c.globalVariables);
  o += uint('Number Of Values', c.values);
  o += uint('Number Of Basic Blocks', c.basicBlocks);
  o += uint('Number Of Instructions', c.instructions);
  o += uint('Number Of Long Instructions', c.longInstructions);
  o += uint('Number Of Operands', c.operands);
  o += uint('Number Of Symbol Tables', c.symbolTables);
  o += uint('Number Of Dependent Libs', c.dependentLibs);
  o += uint('Total Instruction Size', a.instructionSize);
  o += dbl('Average Instruction Size', a.instructionSize / c.instructions);
  o += uint('Maximum Type Slot Number', a.maxTypeSlot);
  o += uint('Maximum Value Slot Number', a.maxValueSlot);
  o += dbl('Bytes Per Value ', d.bytesPerValue);
  o += dbl('Bytes Per Global', d.bytesPerGlobal);
  o += dbl('Bytes Per Function', d.bytesPerFunction);
  if (options.details !== false) {
    o += `\nDetailed Analysis Of ${a.moduleId} Functions:\n`;
    for (const f of a.functions) {
      o += `\n${f.basicBlocks === 0 ? 'External ' : ''}Function: ${f.name}\n`;
      o += `${title('Type:')}\n`;
      o += uint('Byte Size', f.byteSize);
      if (f.basicBlocks) {
        o += uint('Basic Blocks', f.basicBlocks);
        o += uint('Instructions', f.instructions);
        o += uint('Long Instructions', f.longInstructions);
        // The per-function operand counter was never incremented here either.
        o += uint('Operands', 0);
        o += uint('Instruction Size', f.instructionSize);
        o += dbl('Average Instruction Size', f.instructionSize / f.instructions);
        o += dbl('Bytes Per Instruction', f.byteSize / f.instructions);
      }
    }
  }
  return o;
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
