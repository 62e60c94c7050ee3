import { marshall } from '@aws-sdk/util-dynamodb';
import { storableUserKeys } from '../../shared/adapters/user-keyed-map';

describe('storableUserKeys', () => {
  it('turns every plain object holding a constructor key into a Map, at any depth, and leaves the rest', () => {
    const when = new Date('2026-11-28T00:00:00Z');
    const bytes = new Uint8Array([1, 2]);
    const record = {
      methodology: { critical_assets: { categories: { constructor: 3, transportation: 12 } } },
      history: [{ categories: { constructor: 1 } as Record<string, number> }, { categories: { prototype: 2 } as Record<string, number> }],
      plain: { a: 1 },
      when,
      bytes,
    };
    const stored = storableUserKeys(record);
    expect(stored.methodology.critical_assets.categories).toEqual(new Map([['constructor', 3], ['transportation', 12]]));
    expect(stored.history[0]!.categories).toBeInstanceOf(Map);
    expect(stored.history[1]!.categories).toEqual({ prototype: 2 });
    expect(stored.plain).toEqual({ a: 1 });
    expect(stored.when).toBe(when);
    expect(stored.bytes).toBe(bytes);
    // The original is not changed.
    expect(record.methodology.critical_assets.categories).toEqual({ constructor: 3, transportation: 12 });
  });

  it('gives what the document client marshals where the plain object fails', () => {
    const item = { categories: { constructor: 3 } };
    expect(() => marshall(item)).toThrow();
    expect(marshall(storableUserKeys(item))).toEqual({ categories: { M: { constructor: { N: '3' } } } });
  });
});
