import { describe, expect, test } from 'vitest';
import { escapeHtml, highlightHtml, tokenize } from '../../web/src/ui/highlight.js';

describe('web page highlighting', () => {
  test('tokens cover the line exactly', () => {
    const line = '\t%tmp.1 = getelementptr [4 x sbyte]* %str, long 0, long -3\t\t; <sbyte*> [#uses=1]';
    expect(
      tokenize(line)
        .map(([, t]) => t)
        .join(''),
    ).toBe(line);
  });

  test('classes: comments, names, labels, numbers, types, keywords, strings', () => {
    const kinds = (line: string): string[] =>
      tokenize(line)
        .filter(([c]) => c !== 'pl')
        .map(([c, t]) => `${c}:${t}`);
    expect(kinds('entry:\t\t; preds = %bb')).toEqual(['lb:entry:', 'cm:; preds = %bb']);
    expect(kinds('%x = add int %y, 42')).toEqual(['id:%x', 'kw:add', 'ty:int', 'id:%y', 'nu:42']);
    expect(kinds('%.str = internal constant [3 x sbyte] c"hi\\00"')).toEqual([
      'id:%.str',
      'kw:internal',
      'kw:constant',
      'nu:3',
      'kw:x',
      'ty:sbyte',
      'st:c"hi\\00"',
    ]);
    expect(kinds('%"quoted name" = external global int')).toEqual(['id:%"quoted name"', 'kw:external', 'kw:global', 'ty:int']);
  });

  test('markup escapes everything that came from the file', () => {
    expect(escapeHtml('<a & b>')).toBe('&lt;a &amp; b&gt;');
    const html = highlightHtml('%"<img src=x onerror=alert(1)>" = global int 0 ; <script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;img');
  });
});
