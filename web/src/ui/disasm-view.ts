import { VirtualList } from './virtual-list.js';
import { highlightInto } from './highlight.js';

/** The disassembly: a virtualised, highlighted, line-numbered view of one text. */
export class DisasmView {
  private text = '';
  private starts: Uint32Array = new Uint32Array(0);
  private readonly list: VirtualList;

  constructor(scroller: HTMLElement, rowHeight: number) {
    this.list = new VirtualList(scroller, rowHeight, (i) => this.row(i));
  }

  show(text: string, lineStarts: Uint32Array): void {
    this.text = text;
    this.starts = lineStarts;
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

  private row(i: number): HTMLElement {
    const div = document.createElement('div');
    div.className = 'code-line';
    const num = document.createElement('span');
    num.className = 'ln';
    num.textContent = String(i + 1);
    num.setAttribute('aria-hidden', 'true');
    const code = document.createElement('span');
    code.className = 'code';
    highlightInto(code, this.line(i));
    div.append(num, code);
    return div;
  }
}
