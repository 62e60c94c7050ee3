import proj4 from 'proj4';
import { RasterError, reprojectToLattice, type SourceRaster } from '../../shared/domain/elevation-models/reproject';
import { demCrs } from '../../shared/domain/elevation-models/crs';
import { verticalConversion } from '../../shared/domain/elevation-models/vertical';
import { modelResolutionText } from '../../shared/domain/elevation-models/model';

/**
 * Reprojection on small rasters whose every post is known: a longitude/latitude raster (the
 * lattice's own frame, so every lattice cell centre is a post) and a UTM one (positions checked
 * with proj4 here); no-data, water and the refusals, each with its reason.
 */

const NAVD88_M = verticalConversion({ vertical_datum: 'NAVD88', units: 'm' });
const STEP = 0.001;

/** 4 × 3 posts around Key West, value = 10 × row + column + 0.5. */
function geographic(overrides: Partial<SourceRaster> = {}): SourceRaster {
  const values = new Float32Array(12);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 4; c++) values[r * 4 + c] = 10 * r + c + 0.5;
  return { values, width: 4, height: 3, x0: -81.8, y0: 24.56, dx: STEP, dy: -STEP, crs: demCrs(4326)!, ...overrides };
}

const post = (lattice: ReturnType<typeof reprojectToLattice>, lon: number, lat: number) =>
  lattice.values[Math.round((lattice.north - lat) / lattice.cellLat) * lattice.width + Math.round((lon - lattice.west) / lattice.cellLon)];

describe('a longitude/latitude raster', () => {
  it('keeps its posts, box and resolution (0.001° of longitude at 24.56° N is about 101 m)', () => {
    const lattice = reprojectToLattice(geographic(), NAVD88_M);
    expect(lattice.west).toBeCloseTo(-81.8, 9);
    expect(lattice.north).toBeCloseTo(24.56, 9);
    // The resolution is the ground distance between the two central posts along x: 0.001° of longitude at their latitude.
    const lat = 24.56 - STEP;
    expect(lattice.resolution_m).toBeCloseTo(STEP * 111_320 * Math.cos((lat * Math.PI) / 180), 3);
    expect(lattice.cellLat).toBeCloseTo(lattice.resolution_m / 111_320, 12);
    expect(lattice.cellLon).toBeCloseTo(STEP, 9);
    expect(post(lattice, -81.8, 24.56)).toBeCloseTo(0.5, 5);
    expect(post(lattice, -81.8 + 3 * STEP, 24.56)).toBeCloseTo(3.5, 5);
    expect(lattice).not.toHaveProperty('water');
  });

  it('converts to stored metres with the vertical conversion (feet, with a datum shift)', () => {
    const feet = verticalConversion({ vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: -0.25 });
    const lattice = reprojectToLattice(geographic(), feet);
    expect(post(lattice, -81.8 + STEP, 24.56)).toBeCloseTo(1.5 * feet.scale_to_m - 0.25, 5);
  });

  it('uses the nearest post where a neighbour has no data, and leaves no data where the nearest has none', () => {
    const raster = geographic({ nodata: -9999 });
    (raster.values as Float32Array)[1] = -9999;
    (raster.values as Float32Array)[6] = Number.NaN;
    const lattice = reprojectToLattice(raster, NAVD88_M);
    // Posts whose own value is missing: no data.
    expect(Number.isNaN(post(lattice, -81.8 + STEP, 24.56)!)).toBe(true);
    // Its neighbours keep their own values (the nearest post), not a blend with -9999.
    expect(post(lattice, -81.8, 24.56)).toBeCloseTo(0.5, 5);
    expect(post(lattice, -81.8 + 2 * STEP, 24.56)).toBeCloseTo(2.5, 5);
    const values = [...lattice.values].filter((v) => !Number.isNaN(v));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0.5);
  });

  it('flags water where the nearest post holds the named raw value, and only when a value is named', () => {
    const raster = geographic();
    (raster.values as Float32Array)[0] = 0;
    const lattice = reprojectToLattice(raster, NAVD88_M, 0);
    expect(lattice.water![0]).toBe(1);
    expect(lattice.water!.reduce((a, b) => a + b, 0)).toBe(1);
  });
});

describe('a projected raster (UTM zone 17N)', () => {
  // 80 × 80 posts of 10 m three degrees either side of the zone's central meridian: the grid turns
  // about 1.4° from north (one way west of it, the other way east), so each side of the raster
  // leaves a sliver of its lon/lat box more than half a post outside it.
  const width = 80, height = 80, y0 = 2_716_000;
  const toUtm = (utm: NonNullable<ReturnType<typeof demCrs>>) => proj4('+proj=longlat +datum=WGS84 +no_defs', utm.proj4);

  it.each([200_000, 700_000])('samples each lattice cell at its position projected into the raster, bilinearly (x0 %i)', (x0) => {
    const utm = demCrs(26917)!;
    // Value 10 per post east and 3 per post south: bilinear sampling reproduces this plane exactly.
    const values = new Float32Array(width * height);
    for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) values[r * width + c] = 10 * c + 3 * r;
    const lattice = reprojectToLattice({ values, width, height, x0, y0, dx: 10, dy: -10, crs: utm }, NAVD88_M);
    expect(lattice.resolution_m).toBeGreaterThan(9.9);
    expect(lattice.resolution_m).toBeLessThan(10.1);
    const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v));
    const outside = { west: 0, east: 0, north: 0, south: 0 };
    let checked = 0;
    for (let i = 0; i < lattice.values.length; i++) {
      const v = lattice.values[i]!;
      const [x, y] = toUtm(utm).forward([lattice.west + (i % lattice.width) * lattice.cellLon, lattice.north - Math.floor(i / lattice.width) * lattice.cellLat]);
      const fc = (x! - x0) / 10;
      const fr = (y0 - y!) / 10;
      // More than half a post outside the raster: no data; inside: the plane, held at the edge posts.
      if (fc < -0.5 || fr < -0.5 || fc > width - 0.5 || fr > height - 0.5) {
        expect(v).toBeNaN();
        if (fc < -0.5) outside.west++;
        if (fc > width - 0.5) outside.east++;
        if (fr < -0.5) outside.north++;
        if (fr > height - 0.5) outside.south++;
        continue;
      }
      expect(v).toBeCloseTo(10 * clamp(fc, width - 1) + 3 * clamp(fr, height - 1), 1);
      checked++;
    }
    expect(checked).toBeGreaterThan(5000);
    for (const side of Object.values(outside)) expect(side).toBeGreaterThan(3);
  });

  it.each([200_000, 700_000])('spans the raster\'s corners in longitude and latitude exactly (x0 %i: UTM edges are not parallels and meridians)', (x0) => {
    const utm = demCrs(26917)!;
    const lattice = reprojectToLattice({ values: new Float32Array(width * height).fill(1), width, height, x0, y0, dx: 10, dy: -10, crs: utm }, NAVD88_M);
    const toGeo = proj4(utm.proj4, '+proj=longlat +datum=WGS84 +no_defs');
    const corners = [[0, 0], [width - 1, 0], [0, height - 1], [width - 1, height - 1]].map(([c, r]) => toGeo.forward([x0 + c! * 10, y0 - r! * 10]));
    const west = Math.min(...corners.map((p) => p[0]!));
    const east = Math.max(...corners.map((p) => p[0]!));
    const north = Math.max(...corners.map((p) => p[1]!));
    const south = Math.min(...corners.map((p) => p[1]!));
    expect(lattice.west).toBeCloseTo(west, 10);
    expect(lattice.north).toBeCloseTo(north, 10);
    expect(lattice.width).toBe(Math.floor((east - west) / lattice.cellLon) + 1);
    expect(lattice.height).toBe(Math.floor((north - south) / lattice.cellLat) + 1);
  });
});

describe('rasters it refuses', () => {
  it.each([
    ['fewer than 2 × 2 posts', { width: 1, values: new Float32Array(3) }, 'The raster has fewer than 2×2 cells.'],
    ['one row', { height: 1, values: new Float32Array(4) }, 'The raster has fewer than 2×2 cells.'],
    ['no cell width', { dx: 0 }, 'The raster has no usable cell size (its geotransform is missing or rotated).'],
    ['a negative cell width', { dx: -STEP }, 'The raster has no usable cell size (its geotransform is missing or rotated).'],
    ['no cell height', { dy: 0 }, 'The raster has no usable cell size (its geotransform is missing or rotated).'],
    ['an infinite cell height', { dy: Number.POSITIVE_INFINITY }, 'The raster has no usable cell size (its geotransform is missing or rotated).'],
    ['coordinates past the poles', { y0: 91 }, 'The raster lies outside longitude/latitude bounds: is its CRS right?'],
    ['coordinates past the antimeridian', { x0: 180.5 }, 'The raster lies outside longitude/latitude bounds: is its CRS right?'],
    ['coordinates past the antimeridian, west', { x0: -180.5 }, 'The raster lies outside longitude/latitude bounds: is its CRS right?'],
    ['coordinates past the south pole', { y0: -90.5, dy: -STEP }, 'The raster lies outside longitude/latitude bounds: is its CRS right?'],
  ] as const)('%s', (_name, overrides, message) => {
    expect(() => reprojectToLattice(geographic(overrides as Partial<SourceRaster>), NAVD88_M)).toThrow(new RasterError(message));
  });

  it('accepts 2 × 2 posts, and coordinates exactly at ±180° and ±90°', () => {
    expect(reprojectToLattice(geographic({ width: 2, height: 2, values: Float32Array.of(1, 2, 3, 4) }), NAVD88_M).values.some((v) => v === 1)).toBe(true);
    const edge = (x0: number, y0: number) => reprojectToLattice({ values: Float32Array.of(1, 2, 3, 4), width: 2, height: 2, x0, y0, dx: 0.5, dy: -0.5, crs: demCrs(4326)! }, NAVD88_M);
    expect(edge(179.5, 10).west).toBe(179.5);
    expect(edge(-180, 10).west).toBe(-180);
    expect(edge(10, -89.5).north).toBe(-89.5);
    // At the pole itself its posts fall on one point: refused with the reason, not an endless lattice.
    expect(() => edge(10, 90)).toThrow(new RasterError('The raster\'s central posts fall on one point in longitude/latitude (a pole?), so its resolution cannot be measured: is its CRS right?'));
  });

  it('a raster whose coordinates do not transform', () => {
    const utm = demCrs(26917)!;
    expect(() => reprojectToLattice(geographic({ crs: utm, x0: 1e12, y0: 1e12, dx: 10, dy: -10 }), NAVD88_M))
      .toThrow(new RasterError(`The raster's coordinates do not transform from ${utm.name} to longitude/latitude.`));
  });
});

describe('vertical references, CRSs and the resolution text', () => {
  it('converts US survey feet (1200/3937 m) and metres, shifting NGVD29 by the stated amount up to 2 m', () => {
    const feet = verticalConversion({ vertical_datum: 'NAVD88', units: 'ft' });
    expect(feet).toEqual({ stored_datum: 'NAVD88', scale_to_m: 1200 / 3937, offset_m: 0, description: 'NAVD88 US survey feet × 0.3048006, stored in metres without datum shift.' });
    expect(verticalConversion({ vertical_datum: 'EGM96', units: 'm' }).description).toBe('EGM96 metres, stored in metres without datum shift.');
    const ngvd = verticalConversion({ vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: -0.3 });
    expect(ngvd).toMatchObject({ stored_datum: 'NAVD88', scale_to_m: 1200 / 3937, offset_m: -0.3 });
    expect(reprojectToLattice(geographic(), ngvd).values[0]).toBeCloseTo(0.5 * (1200 / 3937) - 0.3, 5);
    expect(verticalConversion({ vertical_datum: 'NGVD29', units: 'm', ngvd29_to_navd88_m: -2 }).offset_m).toBe(-2);
    expect(verticalConversion({ vertical_datum: 'NGVD29', units: 'm', ngvd29_to_navd88_m: 2 }).offset_m).toBe(2);
    expect(() => verticalConversion({ vertical_datum: 'NGVD29', units: 'm', ngvd29_to_navd88_m: 2.001 })).toThrow('ngvd29_to_navd88_m = 2.001 m is not a plausible NGVD29 → NAVD88 shift (|shift| ≤ 2 m).');
    expect(() => verticalConversion({ vertical_datum: 'NGVD29', units: 'm', ngvd29_to_navd88_m: Number.NaN })).toThrow(/needs ngvd29_to_navd88_m/);
  });

  it('knows geographic and projected CRSs, NAD27 with its published shift', () => {
    expect(demCrs(4267)).toMatchObject({ epsg: 4267, name: 'NAD27', geographic: true, proj4: expect.stringContaining('+towgs84=-8,160,176') });
    expect(demCrs(26717)).toMatchObject({ name: 'NAD27 / UTM zone 17N', geographic: false });
    expect(demCrs(4326)).toMatchObject({ geographic: true });
    expect(demCrs(26917)).toMatchObject({ name: 'NAD83 / UTM zone 17N', geographic: false });
    expect(demCrs(2237)).toMatchObject({ geographic: false });
  });

  it('states a model\'s resolution to a tenth of a metre', () => {
    expect(modelResolutionText({ resolution_m: 30.4801 } as never)).toBe('30.5 m');
    expect(modelResolutionText({ resolution_m: 0.94 } as never)).toBe('0.9 m');
  });
});
