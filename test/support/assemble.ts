/**
 * A tiny assembler for hand-made bytecode in tests: bytes are spelled out field by field, so a
 * test states the format independently of the project's own writer and format table.
 */
export type Part = number | Part[] | Block | Pad;

export interface Block {
  readonly block: number;
  readonly long: boolean;
  readonly body: Part[];
  /** Pad the body to 32 bits inside the block (v0 ModuleGlobalInfo, v3 after the triple). */
  readonly padInside?: boolean;
  /** Pad to 32 bits after the block (v0–v3). */
  readonly padAfter?: boolean;
}

export interface Pad {
  readonly pad: true;
}

export const PAD: Pad = { pad: true };

export function vbr(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

/** A signed vbr: magnitude << 1 | sign. */
export function svbr(n: number): number[] {
  return vbr(n < 0 ? -n * 2 + 1 : n * 2);
}

export function str(s: string): number[] {
  return [...vbr(s.length), ...[...s].map((c) => c.charCodeAt(0))];
}

export function u32(n: number): number[] {
  return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];
}

export function block(id: number, long: boolean, body: Part[], options: { padInside?: boolean; padAfter?: boolean } = {}): Block {
  return { block: id, long, body, ...options };
}

/** Assembles a stream: `llvm`, then the parts (normally one module block). */
export function assemble(parts: Part[]): Uint8Array {
  const out: number[] = [0x6c, 0x6c, 0x76, 0x6d];
  emit(parts, out);
  return new Uint8Array(out);
}

function pad(out: number[]): void {
  while (out.length % 4 !== 0) out.push(0xab);
}

function emit(parts: Part[], out: number[]): void {
  for (const p of parts) {
    if (typeof p === 'number') out.push(p);
    else if (Array.isArray(p)) emit(p, out);
    else if ('pad' in p) pad(out);
    else {
      const headerAt = out.length;
      out.push(...(p.long ? [0, 0, 0, 0, 0, 0, 0, 0] : [0, 0, 0, 0]));
      const bodyAt = out.length;
      emit(p.body, out);
      if (p.padInside) pad(out);
      const size = out.length - bodyAt;
      const header = p.long ? [...u32(p.block), ...u32(size)] : u32(((size << 5) | p.block) >>> 0);
      out.splice(headerAt, header.length, ...header);
      if (p.padAfter) pad(out);
    }
  }
}
