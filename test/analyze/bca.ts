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
export function compareFigures(ours0: Figures, theirs0: Figures): string[] {
  const bad = new Set<string>();
  const ours = byName(ours0);
  const theirs = byName(theirs0);
  if (ours.order !== theirs.order) bad.add('function order');
  for (const [k, v] of theirs.figs) {
    if (ours.figs.get(k) !== v) bad.add(k.replace(/^function\[[^\]]*\]/, 'function'));
  }
  for (const k of ours.figs.keys()) if (!theirs.figs.has(k)) bad.add(k.replace(/^function\[[^\]]*\]/, 'function'));
  return [...bad];
}

/**
 * Re-keys function figures by function name (and occurrence), because LLVM listed functions in
 * the order of their heap addresses, which the file does not determine (docs/analyze.md).
 */
function byName(figs: Figures): { figs: Figures; order: string } {
  const out: Figures = new Map();
  const names = new Map<number, string>();
  const seen = new Map<string, number>();
  const order: string[] = [];
  for (const [k, v] of figs) {
    const m = /^function\[(\d+)\]\.name$/.exec(k);
    if (!m) continue;
    const n = seen.get(v) ?? 0;
    seen.set(v, n + 1);
    names.set(Number(m[1]), `${v}#${n}`);
    order.push(v);
  }
  for (const [k, v] of figs) {
    const m = /^function\[(\d+)\]\.(.*)$/.exec(k);
    if (!m) out.set(k, v);
    else if (m[2] !== 'name') out.set(`function[${names.get(Number(m[1]))}].${m[2]}`, v);
    else out.set(`function[${names.get(Number(m[1]))}].name`, v);
  }
  return { figs: out, order: order.join('\n') };
}
