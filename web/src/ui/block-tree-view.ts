import type { BlockNode } from '../worker/protocol.js';
import { formatBytes, hex } from './dom.js';

interface Item {
  node: BlockNode;
  parent: Item | null;
  li: HTMLLIElement;
  row: HTMLDivElement;
  group: HTMLUListElement | null;
  children: Item[];
}

/**
 * The block tree (WAI-ARIA tree pattern): one tab stop, arrows to move, Right/Left to open and
 * close, Home/End. Selection follows focus and is reported through `onSelect`.
 */
export class BlockTreeView {
  private items: Item[] = [];
  private roots: Item[] = [];
  private selected: Item | null = null;

  constructor(
    private readonly root: HTMLUListElement,
    private readonly onSelect: (node: BlockNode, path: BlockNode[]) => void,
  ) {
    root.setAttribute('role', 'tree');
    root.addEventListener('keydown', (e) => this.key(e));
    root.addEventListener('click', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('.tree-row');
      const item = this.items.find((i) => i.row === row);
      if (!item) return;
      if ((e.target as HTMLElement).classList.contains('twisty')) this.toggle(item);
      this.select(item, true);
    });
  }

  show(tree: BlockNode[]): void {
    this.items = [];
    this.selected = null;
    this.roots = tree.map((n) => this.build(n, null, 1));
    this.root.replaceChildren(...this.roots.map((i) => i.li));
    const first = this.roots[0];
    if (first) first.li.tabIndex = 0;
  }

  private build(node: BlockNode, parent: Item | null, level: number): Item {
    const li = document.createElement('li');
    li.setAttribute('role', 'treeitem');
    li.setAttribute('aria-level', String(level));
    li.setAttribute('aria-selected', 'false');
    // The tree item itself takes focus (as the ARIA tree pattern expects); its row shows it.
    li.tabIndex = -1;
    const row = document.createElement('div');
    row.className = 'tree-row';
    const twisty = document.createElement('span');
    twisty.className = 'twisty';
    twisty.setAttribute('aria-hidden', 'true');
    const name = document.createElement('span');
    name.className = 'tree-name';
    name.textContent = node.detail ? `${node.name} ${node.detail}` : node.name;
    const where = document.createElement('span');
    where.className = 'tree-where';
    where.textContent = `0x${hex(node.offset, 6)} · ${formatBytes(node.size)}`;
    row.append(twisty, name, ' ', where);
    li.append(row);
    const item: Item = { node, parent, li, row, group: null, children: [] };
    this.items.push(item);
    if (node.children.length) {
      const group = document.createElement('ul');
      group.setAttribute('role', 'group');
      item.group = group;
      item.children = node.children.map((c) => this.build(c, item, level + 1));
      group.append(...item.children.map((c) => c.li));
      li.append(group);
      // Open the first two levels: the module and its direct blocks.
      this.setExpanded(item, level < 2);
    }
    // The accessible name is the row's text; the tree item itself holds the group.
    li.setAttribute('aria-label', `${row.textContent ?? ''}`.replace(/\s+/g, ' '));
    return item;
  }

  private setExpanded(item: Item, open: boolean): void {
    if (!item.group) return;
    item.li.setAttribute('aria-expanded', String(open));
    item.group.hidden = !open;
  }

  private toggle(item: Item): void {
    this.setExpanded(item, item.li.getAttribute('aria-expanded') !== 'true');
  }

  private visible(): Item[] {
    const out: Item[] = [];
    const walk = (items: Item[]): void => {
      for (const i of items) {
        out.push(i);
        if (i.group && !i.group.hidden) walk(i.children);
      }
    };
    walk(this.roots);
    return out;
  }

  private select(item: Item, focus: boolean): void {
    if (this.selected) {
      this.selected.li.setAttribute('aria-selected', 'false');
      this.selected.li.tabIndex = -1;
    }
    this.selected = item;
    item.li.setAttribute('aria-selected', 'true');
    item.li.tabIndex = 0;
    for (let p = item.parent; p; p = p.parent) this.setExpanded(p, true);
    if (focus) item.li.focus();
    else item.row.scrollIntoView({ block: 'nearest' });
    const path: BlockNode[] = [];
    for (let p: Item | null = item; p; p = p.parent) path.unshift(p.node);
    this.onSelect(item.node, path);
  }

  /** Selects the innermost block holding `offset` (without taking focus); returns its path. */
  selectOffset(offset: number): BlockNode[] {
    let best: Item | null = null;
    let level = this.roots;
    for (;;) {
      const hit = level.find((i) => offset >= i.node.offset && offset < i.node.offset + i.node.size);
      if (!hit) break;
      best = hit;
      level = hit.children;
    }
    if (!best) return [];
    this.select(best, false);
    const path: BlockNode[] = [];
    for (let p: Item | null = best; p; p = p.parent) path.unshift(p.node);
    return path;
  }

  private key(e: KeyboardEvent): void {
    const current = this.selected ?? this.roots[0];
    if (!current) return;
    const vis = this.visible();
    const at = vis.indexOf(current);
    let next: Item | undefined;
    switch (e.key) {
      case 'ArrowDown':
        next = vis[at + 1];
        break;
      case 'ArrowUp':
        next = vis[at - 1];
        break;
      case 'Home':
        next = vis[0];
        break;
      case 'End':
        next = vis[vis.length - 1];
        break;
      case 'ArrowRight':
        if (current.group && current.group.hidden) this.setExpanded(current, true);
        else next = current.children[0];
        break;
      case 'ArrowLeft':
        if (current.group && !current.group.hidden) this.setExpanded(current, false);
        else next = current.parent ?? undefined;
        break;
      case 'Enter':
      case ' ':
        next = current;
        break;
      default:
        return;
    }
    e.preventDefault();
    if (next) this.select(next, true);
  }
}
