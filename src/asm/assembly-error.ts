import { LlvmBytecodeError, type ErrorPosition } from '../errors/library-error.js';
/**
 * The one error type for anything wrong with assembly text: where (line and column, both from 1)
 * and what, with the source line and a caret so a reader sees the place without opening the file.
 *
 * @category Errors
 */
export class AssemblyError extends LlvmBytecodeError {
  override readonly name = 'AssemblyError';
  /** The bare message, without the location and the source excerpt. */
  readonly reason: string;
  readonly line: number;
  readonly column: number;
  /** The text of the offending line (without its line break). */
  readonly sourceLine: string;

  constructor(reason: string, line: number, column: number, sourceLine: string, fileName = '<input>') {
    const caret = ' '.repeat(Math.max(0, column - 1)) + '^';
    super(`${fileName}:${line}:${column}: error: ${reason}\n${sourceLine}\n${caret}`);
    this.reason = reason;
    this.line = line;
    this.column = column;
    this.sourceLine = sourceLine;
  }

  override get position(): ErrorPosition {
    return { kind: 'text', line: this.line, column: this.column };
  }
}

/** Where a token or construct starts in the text: an offset, turned into line/column on demand. */
export class SourceText {
  private lineStarts: number[] | undefined;

  constructor(
    readonly text: string,
    readonly fileName = '<input>',
  ) {}

  /** Line and column (from 1) of a character offset. */
  position(offset: number): { line: number; column: number } {
    const starts = this.starts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  }

  error(reason: string, offset: number): AssemblyError {
    const { line, column } = this.position(offset);
    const start = this.starts()[line - 1]!;
    let end = this.text.indexOf('\n', start);
    if (end < 0) end = this.text.length;
    let sourceLine = this.text.slice(start, end);
    if (sourceLine.endsWith('\r')) sourceLine = sourceLine.slice(0, -1);
    // A minified or hostile line could be megabytes long: show a window around the column.
    if (sourceLine.length > 200) {
      const from = Math.max(0, column - 100);
      return new AssemblyError(reason, line, column, sourceLine.slice(from, from + 200), this.fileName);
    }
    return new AssemblyError(reason, line, column, sourceLine, this.fileName);
  }

  private starts(): number[] {
    if (this.lineStarts === undefined) {
      const starts = [0];
      const t = this.text;
      for (let i = t.indexOf('\n'); i >= 0; i = t.indexOf('\n', i + 1)) starts.push(i + 1);
      this.lineStarts = starts;
    }
    return this.lineStarts;
  }
}
