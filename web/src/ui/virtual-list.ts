/**
 * A virtualised list of fixed-height rows: only the rows in view (plus a margin) exist in the DOM,
 * so a 100,000-line disassembly scrolls as smoothly as a short one.
 *
 * Browsers cap an element's height (Chrome near 33 million px, Firefox near 17 million), so past
 * `MAX_HEIGHT` the scroll range is compressed: the scrollbar position maps proportionally to a
 * row, and the rendered window is pinned to the viewport instead of sliding with it.
 */
const MAX_HEIGHT = 8_000_000;
const OVERSCAN = 8;

export class VirtualList {
  private readonly spacer: HTMLDivElement;
  private readonly window: HTMLDivElement;
  private count = 0;
  private frame = 0;
  private first = -1;
  private last = -1;

  constructor(
    readonly scroller: HTMLElement,
    readonly rowHeight: number,
    private readonly renderRow: (index: number) => HTMLElement,
  ) {
    scroller.classList.add('vlist');
    this.spacer = document.createElement('div');
    this.spacer.className = 'vlist-spacer';
    this.window = document.createElement('div');
    this.window.className = 'vlist-window';
    this.spacer.append(this.window);
    scroller.append(this.spacer);
    scroller.addEventListener('scroll', () => this.schedule(), { passive: true });
    new ResizeObserver(() => this.schedule()).observe(scroller);
  }

  get length(): number {
    return this.count;
  }

  private get totalHeight(): number {
    return this.count * this.rowHeight;
  }

  private get virtualHeight(): number {
    return Math.min(this.totalHeight, MAX_HEIGHT);
  }

  private get scaled(): boolean {
    return this.totalHeight > MAX_HEIGHT;
  }

  private get visibleRows(): number {
    return Math.ceil(this.scroller.clientHeight / this.rowHeight) + 1;
  }

  /** A minimum width for the content, so horizontal scrolling does not jump as rows change. */
  setMinWidth(css: string): void {
    this.spacer.style.minWidth = css;
  }

  setCount(count: number): void {
    this.count = count;
    this.spacer.style.height = `${this.virtualHeight}px`;
    this.scroller.scrollTop = 0;
    this.refresh();
  }

  /** Re-renders the rows in view (after their content or highlighting changed). */
  refresh(): void {
    this.first = this.last = -1;
    this.render();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** The first row at the top of the view. */
  topRow(): number {
    const top = this.scroller.scrollTop;
    if (!this.scaled) return Math.floor(top / this.rowHeight);
    const range = Math.max(1, this.virtualHeight - this.scroller.clientHeight);
    return Math.round((top / range) * Math.max(0, this.count - this.visibleRows + 1));
  }

  /** Scrolls so that row `index` is in view (about a third of the way down, unless already visible). */
  scrollToRow(index: number, force = false): void {
    const top = this.topRow();
    if (!force && index >= top && index < top + this.visibleRows - 1) return;
    const target = Math.max(0, index - Math.floor(this.visibleRows / 3));
    if (!this.scaled) {
      this.scroller.scrollTop = target * this.rowHeight;
    } else {
      const range = Math.max(1, this.virtualHeight - this.scroller.clientHeight);
      this.scroller.scrollTop = (target / Math.max(1, this.count - this.visibleRows + 1)) * range;
    }
    this.render();
  }

  private render(): void {
    const visible = this.visibleRows;
    const top = this.topRow();
    const first = Math.max(0, top - (this.scaled ? 0 : OVERSCAN));
    const last = Math.min(this.count, top + visible + (this.scaled ? 0 : OVERSCAN));
    const windowTop = this.scaled ? this.scroller.scrollTop : first * this.rowHeight;
    this.window.style.transform = `translateY(${windowTop}px)`;
    if (first === this.first && last === this.last) return;
    this.first = first;
    this.last = last;
    const started = performance.now();
    const rows: HTMLElement[] = [];
    for (let i = first; i < last; i++) rows.push(this.renderRow(i));
    this.window.replaceChildren(...rows);
    // Visible in the browser's performance tools (and read by the browser test).
    performance.measure(`render ${this.scroller.id || 'list'}`, { start: started });
  }
}
