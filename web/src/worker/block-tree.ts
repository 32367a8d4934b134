import { BLOCK_NAMES } from '../../../src/binary/block-header.js';
import type { Analysis, DumpRecord } from './library.js';
import type { BlockNode, RecordInfo } from './protocol.js';

/**
 * The analyzer's block tree in the page's shape: names, function names where known, and the
 * `--dump` records (when the analyzer offers them) filed under the innermost block holding them.
 */
export function toBlockTree(analysis: Analysis, dump: DumpRecord[]): BlockNode[] {
  let functionIndex = 0;
  const convert = (b: Analysis['blocks'][number]): BlockNode => {
    // LLVM's names for the block kinds, as in error block paths and llvm-bcanalyzer.
    const name = (b.kind === 'unknown' ? undefined : BLOCK_NAMES.get(b.kind)) ?? `Unknown block (id ${b.id})`;
    let detail = '';
    let functionName = '';
    if (b.kind === 'function') {
      functionName = analysis.functions[functionIndex]?.name ?? '';
      detail = `#${functionIndex}${functionName ? ` ${functionName}` : ''}`;
      functionIndex++;
    }
    return {
      name,
      detail,
      functionName,
      offset: b.offset,
      size: b.headerSize + b.bodySize,
      children: b.children.map(convert),
      records: [],
    };
  };
  const roots = analysis.blocks.map(convert);
  fileRecords(roots, dump);
  return roots;
}

function innermost(nodes: BlockNode[], offset: number): BlockNode | null {
  for (const n of nodes) {
    if (offset >= n.offset && offset < n.offset + n.size) return innermost(n.children, offset) ?? n;
  }
  return null;
}

function fileRecords(roots: BlockNode[], dump: DumpRecord[]): void {
  const sorted = [...dump].sort((a, b) => a.offset - b.offset);
  for (let i = 0; i < sorted.length; i++) {
    const line = sorted[i]!;
    const block = innermost(roots, line.offset);
    if (!block) continue;
    const next = sorted[i + 1]?.offset ?? block.offset + block.size;
    const end = Math.min(block.offset + block.size, Math.max(next, line.offset + 1));
    const record: RecordInfo = { offset: line.offset, size: end - line.offset, label: line.text.trim() };
    block.records.push(record);
  }
}
