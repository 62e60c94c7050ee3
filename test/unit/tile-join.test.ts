import { joinTiles, traceTile, type TileTrace } from '../../shared/domain/hazards/tiled-connection';
import { cutIntoTiles, tiledSpill } from '../helpers/tile-cuts';

/**
 * The join of a model's tiles on grids small enough to know every answer: the reference is
 * written here from the definition of a spill level, and the grids are cut every way, the tiles
 * handed over in any order (tiled-connection.test.ts does the same on a large synthetic coast).
 */
/**
 * Every cell's spill level by relaxation until nothing changes, from the definition: water cells
 * at their own ground, any other cell at the lowest over its 8 neighbours of the higher of theirs
 * and its ground; no-data cells never flood. Slow, and exact on small grids.
 */
function relaxedSpill(values: Float32Array, water: Uint8Array, width: number, height: number): Float32Array {
  const spill = Float32Array.from(values, (v, i) => (water[i] === 1 && !Number.isNaN(v) ? v : Infinity));
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 0; i < spill.length; i++) {
      if (Number.isNaN(values[i]!)) continue;
      const row = Math.floor(i / width), col = i % width;
      for (let r = Math.max(0, row - 1); r <= Math.min(height - 1, row + 1); r++) {
        for (let c = Math.max(0, col - 1); c <= Math.min(width - 1, col + 1); c++) {
          const through = Math.max(spill[r * width + c]!, values[i]!);
          if (through < spill[i]!) { spill[i] = through; changed = true; }
        }
      }
    }
  }
  return spill;
}

describe('tidal connection across tiles, on small grids cut every way', () => {
  let seed = 12_345;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const cuts = (size: number) => {
    const inner = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => 1 + Math.floor(random() * (size - 1))))].sort((a, b) => a - b);
    return [0, ...inner, size];
  };

  it.each(Array.from({ length: 60 }, (_, k) => k))('grid %i: the tiles in any order give every cell its single-grid spill level', () => {
    const width = 3 + Math.floor(random() * 10), height = 3 + Math.floor(random() * 10);
    // Ground from −1 to 3 m in steps of 0.25 m (ties between cells), some no-data, sea along an edge or two and in a pond.
    const values = Float32Array.from({ length: width * height }, () => (random() < 0.08 ? NaN : Math.floor(random() * 17) / 4 - 1));
    const water = Uint8Array.from(values, (v, i) => (((i < width && random() < 0.7) || (i % width === 0 && random() < 0.3) || random() < 0.03) && !Number.isNaN(v) ? 1 : 0));
    const expected = relaxedSpill(values, water, width, height);
    const tiles = cutIntoTiles(values, water, width, cuts(height), cuts(width));
    for (let i = tiles.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [tiles[i], tiles[j]] = [tiles[j]!, tiles[i]!];
    }
    const spill = tiledSpill(tiles, width, height);
    const differing = [...spill.keys()].filter((i) => !Object.is(spill[i], expected[i]));
    expect({ tiles: tiles.length, differing }).toEqual({ tiles: tiles.length, differing: [] });
  });

  it('gives each tile\'s rim its levels in rim order, Infinity where no water reaches', () => {
    // Two 3 × 3 tiles side by side: sea in the left tile's corner, no-data down the right tile's middle column.
    const width = 6, height = 3;
    const values = Float32Array.from([
      0, 1, 2, 1, NaN, 0,
      1, 1, 2, 1, NaN, 0,
      1, 1, 1, 2, NaN, 0,
    ]);
    const water = new Uint8Array(width * height);
    water[0] = 1;
    const [left, right] = cutIntoTiles(values, water, width, [0, 3], [0, 3, 6]);
    // The traces in either order, each rim's levels in its trace's place. rimCells(3, 3): 0, 1, 2, 5, 8, 7, 6, 3.
    const [rightRim, leftRim] = joinTiles([traceTile(right!), traceTile(left!)]);
    expect([...leftRim!]).toEqual([0, 1, 2, 2, 1, 1, 1, 1]);
    // (1, 3) reaches the sea over (2, 2) at 1 m, diagonally; (2, 3) is 2 m; past the no-data nothing is reached.
    expect([...rightRim!]).toEqual([1, Infinity, Infinity, Infinity, Infinity, Infinity, 2, 1]);
  });

  it('floods from water inside any tile, off its rim, whatever the tile\'s place in the list', () => {
    // Three 5 × 5 tiles in a row at 1 m; the one water cell is the middle of the third.
    const width = 15, height = 5;
    const values = new Float32Array(width * height).fill(1);
    const water = new Uint8Array(width * height);
    values[2 * width + 12] = 0;
    water[2 * width + 12] = 1;
    const tiles = cutIntoTiles(values, water, width, [0, 5], [0, 5, 10, 15]);
    for (const order of [[0, 1, 2], [2, 1, 0], [1, 2, 0]]) {
      const rims = joinTiles(order.map((t) => traceTile(tiles[t]!)));
      for (const rim of rims) expect([...new Set(rim)]).toEqual([1]);
    }
  });

  it('refuses a model too wide for its rims to be numbered exactly', () => {
    const trace: TileTrace = {
      row: 0, col: 2 ** 52, width: 1, height: 1, rimGround: Float32Array.of(1), rimWater: Uint8Array.of(1),
      edgeFrom: new Int32Array(0), edgeTo: new Int32Array(0), edgeLevel: new Float32Array(0),
    };
    expect(() => joinTiles([trace])).toThrow(`A model of ${2 ** 52 + 1} columns and 2 rim nodes is too large to join.`);
  });
});
