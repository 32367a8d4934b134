import { VirtualList } from './virtual-list.js';
import { highlightHtml } from './highlight.js';

/** The disassembly: a virtualised, highlighted, line-numbered view of one text. */
export class DisasmView {
  private text = '';
  private starts: Uint32Array = new Uint32Array(0);
  private readonly list: VirtualList;
  /** Lower-cased copy of the text for case-insensitive search, made on the first search. */
  private folded: string | null = null;
  private marked: { line: number; start: number; end: number } | null = null;

  constructor(
    private readonly scroller: HTMLElement,
    rowHeight: number,
  ) {
    this.list = new VirtualList(scroller, rowHeight, (i) => this.row(i));
  }

  show(text: string, lineStarts: Uint32Array): void {
    this.text = text;
    this.starts = lineStarts;
    this.folded = null;
    this.marked = null;
    // The gutter fits the largest line number.
    this.scroller.style.setProperty('--ln-width', `${Math.max(4, String(lineStarts.length).length) + 1}ch`);
    // Wide enough for the longest line (tabs counted as one column: a little slack covers them).
    let longest = 0;
    for (let i = 0; i < lineStarts.length; i++) {
      const end = i + 1 < lineStarts.length ? lineStarts[i + 1]! : text.length;
      longest = Math.max(longest, end - lineStarts[i]!);
    }
    // (Capped: a megabyte-long initializer line must not ask for a box wider than browsers allow.)
    this.list.setMinWidth(`calc(var(--ln-width, 6ch) + ${Math.min(longest + 24, 50_000)}ch)`);
    this.list.setCount(lineStarts.length);
  }

  clear(): void {
    this.show('', new Uint32Array(0));
  }

  get lineCount(): number {
    return this.starts.length;
  }

  line(i: number): string {
    const start = this.starts[i] ?? 0;
    const next = i + 1 < this.starts.length ? this.starts[i + 1]! - 1 : this.text.length;
    // A final newline belongs to no line.
    const end = i + 1 >= this.starts.length && this.text.endsWith('\n') ? next - 1 : next;
    return this.text.slice(start, Math.max(start, end));
  }

  /** The line holding character `index` (binary search over the line starts). */
  lineOf(index: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Finds `query` (ignoring case) after the current match, or before it when `backwards`,
   * wrapping around; marks and scrolls to it. Returns the 0-based line, or -1 when absent.
   * (The browser's own find cannot see lines that are not rendered, hence this.)
   */
  find(query: string, backwards: boolean): number {
    if (!query) return -1;
    this.folded ??= this.text.toLowerCase();
    const q = query.toLowerCase();
    const here = this.marked ? this.starts[this.marked.line]! + this.marked.start : -1;
    let at = backwards ? this.folded.lastIndexOf(q, here < 0 ? this.folded.length : here - 1) : this.folded.indexOf(q, here + 1);
    if (at < 0) at = backwards ? this.folded.lastIndexOf(q) : this.folded.indexOf(q);
    if (at < 0) return -1;
    const line = this.lineOf(at);
    const start = at - this.starts[line]!;
    this.marked = { line, start, end: start + q.length };
    this.list.refresh();
    this.list.scrollToRow(line);
    return line;
  }

  /**
   * Marks and scrolls to the definition of the function spelled `spelled` (e.g. `%main`): the
   * first unindented line that names it before `(` and opens a body. Returns the line or -1.
   */
  showDefinition(spelled: string): number {
    const needle = `${spelled}(`;
    for (let at = this.text.indexOf(needle); at >= 0; at = this.text.indexOf(needle, at + 1)) {
      const line = this.lineOf(at);
      const text = this.line(line);
      if (/^\s/.test(text) || text.startsWith('declare') || !text.trimEnd().endsWith('{')) continue;
      const start = at - this.starts[line]!;
      this.marked = { line, start, end: start + needle.length - 1 };
      this.list.refresh();
      this.list.scrollToRow(line, true);
      return line;
    }
    return -1;
  }

  private row(i: number): HTMLElement {
    const div = document.createElement('div');
    div.className = this.marked?.line === i ? 'code-line found' : 'code-line';
    div.innerHTML = `<span class="ln" aria-hidden="true">${i + 1}</span><span class="code">${highlightHtml(this.line(i))}</span>`;
    return div;
  }
}
