import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DenseIds } from '../../src/graph/dense-ids.js';

describe('DenseIds', () => {
  it('numbers objects 0, 1, 2, … in order of first request, and stably', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(20), { maxLength: 60 }), (picks) => {
        const objects = Array.from({ length: 21 }, (_, i) => ({ i }));
        const ids = new DenseIds<object>();
        const firstSeen: number[] = [];
        for (const p of picks) {
          const id = ids.of(objects[p]!);
          if (!firstSeen.includes(p)) firstSeen.push(p);
          expect(id).toBe(firstSeen.indexOf(p));
        }
      }),
    );
  });
});
