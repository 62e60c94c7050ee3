import { tileBBox, tileName } from '../../shared/adapters/elevation/cog-http';
import { appConfig, resetConfigForTests } from '../../shared/config';

describe('1° tile names (USGS 3DEP: the tile\'s north-west corner)', () => {
  it('names the tile holding a point by its north-west corner', () => {
    // Downtown Tampa lies in 27–28°N, 82–83°W: corner 28°N 83°W.
    expect(tileName(-82.44, 27.93)).toBe('n28w083');
    expect(tileBBox(-82.44, 27.93)).toEqual([-83, 27, -82, 28]);
    // A point on a whole degree belongs to the tile to its north and east.
    expect(tileName(-81, 28)).toBe('n29w081');
    expect(tileName(-80.6, 24.6)).toBe('n25w081');
  });
});

describe('statewide settings', () => {
  afterEach(() => {
    delete process.env.STATEWIDE_DEM_URL_TEMPLATE;
    delete process.env.STATEWIDE_DEM_TILES;
    resetConfigForTests();
  });

  it('accepts an http(s) template with {tile} and a list of tile names', () => {
    process.env.STATEWIDE_DEM_URL_TEMPLATE = 'https://example.org/13/{tile}/USGS_13_{tile}.tif';
    process.env.STATEWIDE_DEM_TILES = 'n25w081, n28w083';
    resetConfigForTests();
    expect(appConfig().STATEWIDE_DEM_TILES).toBe('n25w081, n28w083');
  });

  it.each([
    ['STATEWIDE_DEM_URL_TEMPLATE', 'https://example.org/13/USGS_13.tif'],
    ['STATEWIDE_DEM_URL_TEMPLATE', 'file:///tiles/{tile}.tif'],
    ['STATEWIDE_DEM_TILES', 'n28w083,tampa'],
  ])('refuses %s=%s', (name, value) => {
    process.env[name] = value;
    resetConfigForTests();
    expect(() => appConfig()).toThrow(new RegExp(name));
  });
});
