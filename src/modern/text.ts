/**
 * The upgrade's output, collected line by line in flat chunks.
 *
 * A big module's text is some hundred thousand lines, each built from several pieces (V8 keeps a
 * string built by `+` as a tree of its pieces until someone reads it). Kept in one array of lines
 * to the end, every line and every piece of it lives until the final join: V8's young-generation
 * collector copies each of them once or twice on the way to the old generation, and that copying
 * was a third of the upgrade's time. Joined into one flat string every `CHUNK_LINES` lines, the
 * pieces die young, where collecting them costs nothing, and what survives is one string per
 * chunk.
 */

/** Lines per chunk: small enough that the pending lines are a small part of a young generation. */
const CHUNK_LINES = 256;

export class TextLines {
  private readonly chunks: string[] = [];
  private pending: string[] = [];

  /** Adds one line (without its newline). */
  push(line: string): void {
    const pending = this.pending;
    pending.push(line);
    if (pending.length >= CHUNK_LINES) this.flush();
  }

  /** Adds each of `lines`. */
  pushAll(lines: readonly string[]): void {
    for (let i = 0; i < lines.length; i++) this.push(lines[i]!);
  }

  /** Adds the lines of `other` (which is left as it was). */
  append(other: TextLines): void {
    this.flush();
    other.flush();
    for (let i = 0; i < other.chunks.length; i++) this.chunks.push(other.chunks[i]!);
  }

  /** The lines, each ended by a newline. */
  text(): string {
    this.push('');
    this.flush();
    return this.chunks.join('\n');
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.chunks.push(this.pending.join('\n'));
    this.pending = [];
  }
}
