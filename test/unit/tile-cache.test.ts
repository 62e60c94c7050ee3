import { cachedLoader } from '../../shared/adapters/elevation/tiled-model';

describe('the tile cache in front of a model\'s tile loader', () => {
  const counting = () => {
    const loads: string[] = [];
    const load = async (key: string) => {
      loads.push(key);
      if (key === 'missing') throw new Error('no such tile');
      return new Uint8Array([key.length]);
    };
    return { loads, load };
  };

  it('loads each tile once while it stays, handing out the same bytes, and drops the least recently used', async () => {
    const { loads, load } = counting();
    const cached = cachedLoader(load, 2);
    const first = await cached('a');
    await cached('b');
    expect(await cached('a')).toBe(first);
    await cached('c'); // over capacity: b, the least recently used, goes
    await cached('a');
    await cached('b');
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('keeps no failed load, so the next read tries again', async () => {
    const { loads, load } = counting();
    const cached = cachedLoader(load, 4);
    await expect(cached('missing')).rejects.toThrow('no such tile');
    await new Promise((resolve) => setImmediate(resolve));
    await expect(cached('missing')).rejects.toThrow('no such tile');
    expect(loads).toEqual(['missing', 'missing']);
  });
});
