import { detectCrsFromWkt, toWgs84, wktToWgs84 } from '../../shared/domain/assets/crs';

/**
 * Coordinate systems detected from `.prj` text as GIS software writes it: ESRI WKT1 (no EPSG code,
 * abbreviated datum names), OGC WKT1 and WKT2 (EPSG's full datum names), with and without
 * authority codes. Florida GDL Albers is recognised by its published parameters (standard
 * parallels 24° and 31.5°, origin 24° N 84° W, false easting 400,000 m) and its datum.
 */
const SPHEROID = 'SPHEROID["GRS_1980",6378137.0,298.257222101]';
const esriGeographic = (name: string, datum: string) => `GEOGCS["${name}",DATUM["${datum}",${SPHEROID}],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]`;

interface AlbersParams { fe: number; fn: number; cm: number; sp1: number; sp2: number; lat0: number }
const GDL: AlbersParams = { fe: 400000, fn: 0, cm: -84, sp1: 24, sp2: 31.5, lat0: 24 };
function esriAlbers(datum: string, params: Partial<AlbersParams> = {}, unit = 'UNIT["Meter",1.0]'): string {
  const p = { ...GDL, ...params };
  return `PROJCS["Albers",${esriGeographic('GCS', datum)},PROJECTION["Albers"],PARAMETER["False_Easting",${p.fe}],PARAMETER["False_Northing",${p.fn}],`
    + `PARAMETER["Central_Meridian",${p.cm}],PARAMETER["Standard_Parallel_1",${p.sp1}],PARAMETER["Standard_Parallel_2",${p.sp2}],PARAMETER["Latitude_Of_Origin",${p.lat0}]${unit ? `,${unit}` : ''}]`;
}

/** EPSG:3087 as WKT2, as PROJ and QGIS write it; `id` appends its authority code. */
const wkt2Albers = (datum: string, id = '') => `PROJCRS["NAD83(HARN) / Florida GDL Albers",BASEGEOGCRS["NAD83(HARN)",DATUM["${datum}",ELLIPSOID["GRS 1980",6378137,298.257222101,LENGTHUNIT["metre",1]]],PRIMEM["Greenwich",0,ANGLEUNIT["degree",0.0174532925199433]]],`
  + 'CONVERSION["Florida GDL Albers (meters)",METHOD["Albers Equal Area",ID["EPSG",9822]],PARAMETER["Latitude of false origin",24,ANGLEUNIT["degree",0.0174532925199433]],'
  + 'PARAMETER["Longitude of false origin",-84,ANGLEUNIT["degree",0.0174532925199433]],PARAMETER["Latitude of 1st standard parallel",24,ANGLEUNIT["degree",0.0174532925199433]],'
  + 'PARAMETER["Latitude of 2nd standard parallel",31.5,ANGLEUNIT["degree",0.0174532925199433]],PARAMETER["Easting at false origin",400000,LENGTHUNIT["metre",1]],'
  + 'PARAMETER["Northing at false origin",0,LENGTHUNIT["metre",1]]],CS[Cartesian,2],AXIS["easting (X)",east,ORDER[1],LENGTHUNIT["metre",1]],'
  + `AXIS["northing (Y)",north,ORDER[2],LENGTHUNIT["metre",1]]${id}]`;

describe('geographic systems', () => {
  it.each([
    ['GCS_WGS_1984', 'D_WGS_1984', 4326],
    ['GCS_North_American_1983', 'D_North_American_1983', 4269],
    ['GCS_North_American_1983_HARN', 'D_North_American_1983_HARN', 4152],
    ['GCS_North_American_1983_HPGN', 'D_North_American_1983_HPGN', 4152],
    ['GCS_NAD_1983_2011', 'D_NAD_1983_2011', 6318],
    ['NAD83(HARN)', 'NAD83_High_Accuracy_Reference_Network', 4152],
    ['NAD83(HARN)', 'NAD83 (High Accuracy Reference Network)', 4152],
    ['NAD83(2011)', 'NAD83 (National Spatial Reference System 2011)', 6318],
    ['NAD83', 'North_American_Datum_1983', 4269],
  ])('%s, datum %s, is EPSG:%d', (name, datum, epsg) => {
    expect(detectCrsFromWkt(esriGeographic(name, datum))).toEqual({ epsg, name, projected: false });
  });

  it.each([
    'D_North_American_1983_CSRS', 'NAD83 Canadian Spatial Reference System', 'D_NAD_1983_MA11', 'D_NAD_1983_PA11',
    'D_NAD_1983_NSRS2007', 'NAD83 (National Spatial Reference System 2007)', 'D_NAD_1983_CORS96', 'NAD83 (Continuously Operating Reference Station 1996)',
    'D_European_1950', 'D_North_American_1927',
  ])('datum %s is not one this API converts', (datum) => {
    expect(detectCrsFromWkt(esriGeographic('GCS', datum)).epsg).toBeNull();
  });

  it('an EPSG authority code of a known system decides; an unknown code or another authority falls back to the datum', () => {
    expect(detectCrsFromWkt(`GEOGCS["x",DATUM["D_Unknown",${SPHEROID}],AUTHORITY["EPSG","4269"]]`).epsg).toBe(4269);
    expect(detectCrsFromWkt(`GEOGCS["x",DATUM["D_North_American_1983",${SPHEROID}],AUTHORITY["EPSG","4230"]]`).epsg).toBe(4269);
    expect(detectCrsFromWkt(`GEOGCS["x",DATUM["D_North_American_1983",${SPHEROID}],AUTHORITY["ESRI","4326"]]`).epsg).toBe(4269);
    expect(detectCrsFromWkt(`GEOGCS["x",DATUM["D_North_American_1983",${SPHEROID}],AUTHORITY["EPSG","43.26"]]`).epsg).toBe(4269);
    expect(detectCrsFromWkt('GEOGCRS["WGS 84",DATUM["World Geodetic System 1984",ELLIPSOID["WGS 84",6378137,298.257223563]],ID["EPSG",4326]]').epsg).toBe(4326);
  });

  it('without a datum node, the name decides', () => {
    expect(detectCrsFromWkt('GEOGCS["NAD83",PRIMEM["Greenwich",0]]')).toEqual({ epsg: 4269, name: 'NAD83', projected: false });
  });
});

describe('projected systems', () => {
  it.each([
    ['D_North_American_1983_HARN', 3087],
    ['D_North_American_1983', 3086],
    ['D_NAD_1983_2011', 6439],
    ['NAD83 (High Accuracy Reference Network)', 3087],
  ])('Florida GDL Albers on %s is EPSG:%d', (datum, epsg) => {
    expect(detectCrsFromWkt(esriAlbers(datum))).toEqual({ epsg, name: 'Albers', projected: true });
  });

  it('GDL Albers on a datum other than NAD83, HARN or 2011 is not a known system', () => {
    expect(detectCrsFromWkt(esriAlbers('D_WGS_1984'))).toEqual({ epsg: null, name: 'Albers', projected: true });
    expect(detectCrsFromWkt(esriAlbers('D_North_American_1983_CSRS')).epsg).toBeNull();
  });

  it.each([
    ['fe', 400000.00001],
    ['fn', 0.00001],
    ['cm', -84.00001],
    ['sp1', 24.00001],
    ['sp2', 31.49999],
    ['lat0', 23.99999],
  ] as const)('%s off by 1e-5 is another projection', (param, value) => {
    expect(detectCrsFromWkt(esriAlbers('D_North_American_1983_HARN', { [param]: value })).epsg).toBeNull();
  });

  it.each([
    ['fe', 400000.0000005],
    ['sp2', 31.5000005],
  ] as const)('%s within 1e-6 is still GDL Albers', (param, value) => {
    expect(detectCrsFromWkt(esriAlbers('D_North_American_1983_HARN', { [param]: value })).epsg).toBe(3087);
  });

  it('the unit must be metres, or unstated', () => {
    expect(detectCrsFromWkt(esriAlbers('D_North_American_1983_HARN', {}, 'UNIT["Foot_US",0.3048006096012192]')).epsg).toBeNull();
    expect(detectCrsFromWkt(esriAlbers('D_North_American_1983_HARN', {}, 'UNIT["Metre",1]')).epsg).toBe(3087);
    expect(detectCrsFromWkt(esriAlbers('D_North_American_1983_HARN', {}, '')).epsg).toBe(3087);
  });

  it('another projection with the same parameters is not GDL Albers', () => {
    expect(detectCrsFromWkt(esriAlbers('D_North_American_1983_HARN').replace('PROJECTION["Albers"]', 'PROJECTION["Lambert_Conformal_Conic"]')).epsg).toBeNull();
  });

  it('reads OGC WKT1 parameter names', () => {
    const ogc = `PROJCS["NAD83(HARN) / Florida GDL Albers",GEOGCS["NAD83(HARN)",DATUM["NAD83_High_Accuracy_Reference_Network",${SPHEROID}]],PROJECTION["Albers_Conic_Equal_Area"],`
      + 'PARAMETER["standard_parallel_1",24],PARAMETER["standard_parallel_2",31.5],PARAMETER["latitude_of_center",24],PARAMETER["longitude_of_center",-84],'
      + 'PARAMETER["false_easting",400000],PARAMETER["false_northing",0],UNIT["metre",1]]';
    expect(detectCrsFromWkt(ogc).epsg).toBe(3087);
  });

  it('reads WKT2, its parameters inside CONVERSION and its unit as LENGTHUNIT, with or without an ID', () => {
    expect(detectCrsFromWkt(wkt2Albers('NAD83 (High Accuracy Reference Network)'))).toEqual({ epsg: 3087, name: 'NAD83(HARN) / Florida GDL Albers', projected: true });
    expect(detectCrsFromWkt(wkt2Albers('NAD83 (National Spatial Reference System 2011)')).epsg).toBe(6439);
    expect(detectCrsFromWkt(wkt2Albers('North American Datum 1983')).epsg).toBe(3086);
    expect(detectCrsFromWkt(wkt2Albers('North American Datum 1983', ',ID["EPSG",3087]')).epsg).toBe(3087);
  });

  it('a State Plane .prj with its EPSG code is that system; without one it is unknown', () => {
    const tm = 'PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",656166.6666666665],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",-82.0],PARAMETER["Scale_Factor",0.9999411764705882],PARAMETER["Latitude_Of_Origin",24.33333333333333],UNIT["Foot_US",0.3048006096012192]';
    const stateplane = `PROJCS["NAD_1983_StatePlane_Florida_West_FIPS_0902_Feet",${esriGeographic('GCS_North_American_1983', 'D_North_American_1983')},${tm}`;
    expect(detectCrsFromWkt(`${stateplane},AUTHORITY["EPSG","2237"]]`)).toEqual({ epsg: 2237, name: 'NAD_1983_StatePlane_Florida_West_FIPS_0902_Feet', projected: true });
    expect(detectCrsFromWkt(`${stateplane}]`).epsg).toBeNull();
  });

  it('refuses text that is WKT but not a coordinate system', () => {
    expect(() => detectCrsFromWkt('VERTCS["NAVD88",VDATUM["North_American_Vertical_Datum_1988"]]')).toThrow('Not a coordinate system definition: VERTCS');
  });
});

describe('conversions to WGS84', () => {
  it('a geographic system converts as it is', () => {
    expect(toWgs84(4269)(-81.8, 24.55)).toEqual([-81.8, 24.55]);
  });

  it('refuses an unknown code', () => {
    expect(() => toWgs84(9999)).toThrow('Unknown EPSG:9999');
  });

  it('a .prj proj4 reads converts; one it cannot read, or that maps the origin nowhere, gives no converter', () => {
    const convert = wktToWgs84(esriAlbers('D_North_American_1983_HARN'))!;
    const [lon, lat] = convert(400000, 0);
    expect(lon).toBeCloseTo(-84, 6);
    expect(lat).toBeCloseTo(24, 6);
    expect(wktToWgs84('not wkt at all')).toBeUndefined();
  });

  const wgs84 = 'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';
  const projected = (projection: string, parameters: [string, number][], unit = 'UNIT["Foot_US",0.3048006096012192]') =>
    `PROJCS["Test",${wgs84},PROJECTION["${projection}"],${parameters.map(([name, value]) => `PARAMETER["${name}",${value}]`).join(',')},${unit}]`;
  const transverseMercator = (falseEastingFt: number) => projected('Transverse_Mercator',
    [['False_Easting', falseEastingFt], ['False_Northing', 0], ['Central_Meridian', -81], ['Scale_Factor', 0.9996], ['Latitude_Of_Origin', 24]]);

  it('converts a system whose (0, 0) lies outside its domain: a false easting only shifts the coordinates', () => {
    const far = wktToWgs84(transverseMercator(1e8))!;
    const near = wktToWgs84(transverseMercator(0))!;
    const [lon, lat] = far(1e8, 0);
    expect(lon).toBeCloseTo(-81, 9);
    expect(lat).toBeCloseTo(24, 9);
    // 100 km east and 300 km north of the origin, in US survey feet.
    const [x, y] = [100_000 * 3937 / 1200, 300_000 * 3937 / 1200];
    const [farLon, farLat] = far(1e8 + x, y);
    const [nearLon, nearLat] = near(x, y);
    expect(farLon).toBeCloseTo(nearLon, 9);
    expect(farLat).toBeCloseTo(nearLat, 9);
    expect(nearLat).toBeGreaterThan(26.5);
  });

  it('gives no converter for a system whose origin maps nowhere, or only half somewhere', () => {
    // A Lambert conic without its standard parallels: no coordinate has a place.
    expect(wktToWgs84(projected('Lambert_Conformal_Conic', [['False_Easting', 0], ['Central_Meridian', -81]]))).toBeUndefined();
    // An Albers cone whose parallels straddle the equator symmetrically: a finite latitude, no longitude.
    expect(wktToWgs84(projected('Albers', [['Standard_Parallel_1', 30], ['Standard_Parallel_2', -30], ['Central_Meridian', -81]]))).toBeUndefined();
  });
});
