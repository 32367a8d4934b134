/**
 * Reading `*.bca.txt` (LLVM 1.9 `llvm-bcanalyzer` summaries) into figures, and comparing them with
 * ours figure by figure. Each summary line is one figure (its text after the colon, trimmed, so
 * number formatting is compared too); the function details are compared as figures named
 * `function.<title>` per function, in order.
 */
export type Figures = Map<string, string>;

export function parseBca(text: string): Figures {
  const figs: Figures = new Map();
  let section = 'summary';
  let fn = -1;
  for (const line of text.split('\n')) {
    if (line.startsWith('Detailed Analysis Of ')) {
      section = 'details';
      continue;
    }
    const head = /^(External )?Function: (.*)$/.exec(line);
    if (section === 'details' && head) {
      fn++;
      figs.set(`function[${fn}].name`, `${head[1] ?? ''}${head[2]}`);
      continue;
    }
    const m = /^\s*(.+?): (.*)$/.exec(line);
    if (!m) continue;
    const title = m[1]!.trim();
    const value = m[2]!.trim();
    if (section === 'summary') {
      if (title.startsWith('Summary Analysis Of')) continue;
      figs.set(title, value);
    } else {
      figs.set(`function[${fn}].${title}`, value);
    }
  }
  if (fn >= 0 || section === 'details') figs.set('function count', String(fn + 1));
  return figs;
}

/** Figure names (function figures reduced to `function.<title>`) whose values differ. */
export function compareFigures(ours: Figures, theirs: Figures): string[] {
  const bad = new Set<string>();
  for (const [k, v] of theirs) {
    if (ours.get(k) !== v) bad.add(k.replace(/^function\[\d+\]/, 'function'));
  }
  for (const k of ours.keys()) if (!theirs.has(k)) bad.add(k.replace(/^function\[\d+\]/, 'function'));
  return [...bad];
}
