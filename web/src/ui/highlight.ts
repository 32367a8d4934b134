/**
 * Syntax highlighting for LLVM assembly (1.x and modern), one line at a time: only lines in view
 * are ever tokenised. Tokens become spans whose class names the colour (see styles.css).
 */

const TYPES = new Set([
  'void',
  'bool',
  'sbyte',
  'ubyte',
  'short',
  'ushort',
  'int',
  'uint',
  'long',
  'ulong',
  'float',
  'double',
  'label',
  'opaque',
  'type',
  'ptr',
  'i1',
  'i8',
  'i16',
  'i32',
  'i64',
  'i128',
  'half',
  'x86_fp80',
  'fp128',
]);

export type TokenClass = 'cm' | 'st' | 'id' | 'lb' | 'nu' | 'ty' | 'kw' | 'pl';

// One alternation, tried at each position: comment, string, %/@ name, label definition, number, word.
const TOKEN =
  /(;.*)|(c?"(?:[^"\\]|\\.)*"?)|([%@](?:[-a-zA-Z$._0-9]+|"(?:[^"\\]|\\.)*"?))|(^\s*[-a-zA-Z$._0-9]+:)|(-?(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?))|([a-zA-Z_][a-zA-Z0-9_.]*)/gy;

/** Splits `line` into [class, text] pieces covering it exactly. */
export function tokenize(line: string): [TokenClass, string][] {
  const out: [TokenClass, string][] = [];
  let plain = '';
  let i = 0;
  while (i < line.length) {
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(line);
    if (!m || m[0].length === 0) {
      plain += line[i];
      i++;
      continue;
    }
    if (plain) {
      out.push(['pl', plain]);
      plain = '';
    }
    const cls: TokenClass = m[1] ? 'cm' : m[2] ? 'st' : m[3] ? 'id' : m[4] ? 'lb' : m[5] ? 'nu' : TYPES.has(m[0]) ? 'ty' : 'kw';
    out.push([cls, m[0]]);
    i += m[0].length;
  }
  if (plain) out.push(['pl', plain]);
  return out;
}

const ESCAPES = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
]);

/** Text made safe for element content (names come from files: never let them be markup). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (c) => ESCAPES.get(c) ?? c);
}

/**
 * The line as highlighted markup. Building one string per row and setting it with `innerHTML` is
 * several times faster than creating a node per token, which matters when a fast scroll replaces
 * every visible row in every frame. Every piece of text goes through `escapeHtml`.
 */
export function highlightHtml(line: string): string {
  let html = '';
  for (const [cls, text] of tokenize(line)) {
    html += cls === 'pl' ? escapeHtml(text) : `<span class="t-${cls}">${escapeHtml(text)}</span>`;
  }
  return html;
}
