/** A tiny element builder: text always goes in as text (names from files are never parsed as HTML). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') el.className = v;
    else el.setAttribute(k, v);
  }
  for (const c of children) el.append(c);
  return el;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page element #${id} is missing`);
  return el as T;
}

export function hex(n: number, width = 8): string {
  return n.toString(16).padStart(width, '0');
}

export function formatBytes(n: number): string {
  return `${n.toLocaleString('en-US')} bytes`;
}

/** Offers `data` as a file download (no network: a blob URL, revoked once the click is handled). */
export function download(data: BlobPart, fileName: string, type = 'application/octet-stream'): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = h('a', { href: url, download: fileName });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The disassembly as bytes. LLVM 1.x names are bytes, which the library reads as Latin-1, so the
 * text is written back as Latin-1: the download is byte for byte what `llvm-dis` printed. (Only
 * text with characters beyond U+00FF, which LLVM 1.x cannot have produced, goes out as UTF-8.)
 */
export function latin1Bytes(text: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) return new TextEncoder().encode(text);
    out[i] = c;
  }
  return out;
}
