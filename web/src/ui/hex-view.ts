import { VirtualList } from './virtual-list.js';
import { hex } from './dom.js';
import { escapeHtml } from './highlight.js';

const PER_ROW = 16;

/**
 * The bytes of the stream, 16 to a row, virtualised. Shows the selected block's range, the cursor
 * byte, and (for a damaged file) where the reader stopped and everything after it.
 *
 * Keyboard: arrows move the cursor by a byte or a row, Page Up/Down by a screen, Home/End to the
 * ends of the stream; Enter selects the block holding the cursor.
 */
export class HexView {
  private bytes: Uint8Array = new Uint8Array(0);
  private readonly list: VirtualList;
  private range: [number, number] | null = null;
  private cursor = -1;
  private stopAt: number | null = null;

  constructor(
    private readonly scroller: HTMLElement,
    rowHeight: number,
    private readonly onCursor: (offset: number, commit: boolean) => void,
  ) {
    this.list = new VirtualList(scroller, rowHeight, (i) => this.row(i));
    scroller.addEventListener('click', (e) => {
      const target = (e.target as HTMLElement).closest<HTMLElement>('[data-o]');
      if (!target) return;
      this.moveTo(Number(target.dataset['o']), true);
      scroller.focus();
    });
    scroller.addEventListener('keydown', (e) => this.key(e));
  }

  show(bytes: Uint8Array, stopAt: number | null): void {
    this.bytes = bytes;
    this.range = null;
    this.cursor = -1;
    this.stopAt = stopAt;
    this.list.setCount(Math.ceil(bytes.length / PER_ROW));
  }

  get length(): number {
    return this.bytes.length;
  }

  /** Highlights [start, end) and scrolls its start into view. */
  highlight(start: number, end: number, scroll = true): void {
    this.range = [start, end];
    this.list.refresh();
    if (scroll) this.list.scrollToRow(Math.floor(start / PER_ROW));
  }

  reveal(offset: number): void {
    this.list.scrollToRow(Math.floor(offset / PER_ROW));
  }

  /** Moves the cursor; `commit` = the user chose this byte (select its block). */
  moveTo(offset: number, commit: boolean): void {
    if (this.bytes.length === 0) return;
    this.cursor = Math.max(0, Math.min(this.bytes.length - 1, offset));
    // Report first: the status text it updates may change the view's height, then scroll.
    this.onCursor(this.cursor, commit);
    this.list.refresh();
    this.list.scrollToRow(Math.floor(this.cursor / PER_ROW));
  }

  private key(e: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.scroller.clientHeight / this.list.rowHeight) - 1) * PER_ROW;
    const at = this.cursor < 0 ? 0 : this.cursor;
    const moves: Record<string, number> = {
      ArrowLeft: at - 1,
      ArrowRight: at + 1,
      ArrowUp: at - PER_ROW,
      ArrowDown: at + PER_ROW,
      PageUp: at - page,
      PageDown: at + page,
      Home: 0,
      End: this.bytes.length - 1,
    };
    if (e.key in moves) {
      e.preventDefault();
      this.moveTo(this.cursor < 0 && e.key !== 'End' ? 0 : moves[e.key]!, false);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.moveTo(at, true);
    }
  }

  private row(r: number): HTMLElement {
    // One markup string per row (see highlight.ts on why); the content is hex digits and
    // printable ASCII only, escaped all the same.
    const start = r * PER_ROW;
    const end = Math.min(this.bytes.length, start + PER_ROW);
    let cells = '';
    let ascii = '';
    for (let o = start; o < end; o++) {
      const b = this.bytes[o]!;
      cells += `<span class="${this.classOf(o)}" data-o="${o}">${hex(b, 2)}</span>`;
      ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
    }
    const div = document.createElement('div');
    div.className = 'hex-row';
    div.innerHTML = `<span class="hex-off">${hex(start)}</span><span class="hex-bytes">${cells}</span>` + `<span class="hex-ascii">${escapeHtml(ascii)}</span>`;
    return div;
  }

  private classOf(o: number): string {
    let cls = 'hb';
    if (this.range && o >= this.range[0] && o < this.range[1]) cls += ' sel';
    if (this.stopAt !== null) {
      if (o === this.stopAt) cls += ' stop';
      else if (o > this.stopAt) cls += ' unread';
    }
    if (o === this.cursor) cls += ' cur';
    return cls;
  }
}
