import proj4 from 'proj4';
import type { CrsStatement, FeatureFile, RawFeature } from '../../shared/domain/assets/formats/features';
import { MAX_KINK_CHECK_VERTICES } from '../../shared/domain/assets/geometry';
import { validateGisDeliverable } from '../../shared/domain/assets/gis-validation';
import { GDL_ALBERS_PROJ4 } from '../fixtures/assets/shapefile-writer';

/**
 * The GIS deliverable check rule by rule, on feature files built here (no file parsing): which
 * field each coordinate-system finding names, the extent, position counts, the attribute and
 * metadata findings, and the 200-issue lists with complete counts.
 */
const WGS84: CrsStatement = { source: 'rfc7946_default', detected: { epsg: 4326, name: 'WGS 84 (RFC 7946)', projected: false } };
const ALL_ATTRIBUTES = ['NAME', 'ASSET_TYPE', 'ASSET_ID', 'OWNER', 'ADDRESS'];
/** A small FGDC record with every required element, so metadata adds no error. */
const FGDC = `<metadata><idinfo><citation><citeinfo><origin>County</origin><pubdate>2026</pubdate><title>Assets</title></citeinfo></citation>
<descript><abstract>a</abstract><purpose>p</purpose></descript><timeperd><timeinfo><sngdate><caldate>2026</caldate></sngdate></timeinfo><current>c</current></timeperd>
<status><progress>Complete</progress><update>Annually</update></status><spdom><bounding><westbc>-82</westbc><eastbc>-80</eastbc><northbc>26</northbc><southbc>24</southbc></bounding></spdom>
<keywords><theme><themekt>None</themekt><themekey>assets</themekey></theme></keywords><accconst>None</accconst><useconst>None</useconst>
<ptcontac><cntinfo><cntorgp><cntorg>County</cntorg></cntorgp></cntinfo></ptcontac></idinfo>
<dataqual><lineage><procstep><procdesc>Compiled</procdesc></procstep></lineage><posacc><horizpa><horizpar>GPS</horizpar></horizpa></posacc></dataqual>
<spref><horizsys><planar><mapproj><mapprojn>Albers</mapprojn></mapproj></planar></horizsys></spref><eainfo><overview><eaover>NAME</eaover></overview></eainfo>
<distinfo><distrib><cntinfo><cntorgp><cntorg>County</cntorg></cntorgp></cntinfo></distrib></distinfo>
<metainfo><metd>2026</metd><metc><cntinfo><cntorgp><cntorg>County</cntorg></cntorgp></cntinfo></metc><metstdn>FGDC CSDGM</metstdn><metstdv>FGDC-STD-001-1998</metstdv></metainfo></metadata>`;

const point = (lon: number, lat: number) => ({ type: 'Point', coordinates: [lon, lat] });
const named = (index: number, geometry: unknown, name: unknown = `Asset ${index}`): RawFeature => ({
  index, geometry, properties: { NAME: name, ASSET_TYPE: 'Lift Station', ASSET_ID: `A${index}`, OWNER: 'County', ADDRESS: '1 Main St' },
});

function file(features: RawFeature[], options: Partial<FeatureFile> = {}): FeatureFile {
  return { format: 'geojson', crs: WGS84, headers: ALL_ATTRIBUTES, features, ...options };
}

/** Declared EPSG:4326 with complete FGDC metadata unless the options say otherwise (metadata: undefined sends none). */
const validate = (f: FeatureFile, options: { coordinateSystem?: string; metadata?: string } = {}) =>
  validateGisDeliverable(f, { coordinateSystem: options.coordinateSystem ?? 'EPSG:4326', metadata: 'metadata' in options ? options.metadata : FGDC });
/** Findings other than the WGS84 file's own crs_not_accepted. */
const besidesCrs = <T extends { code: string }>(issues: T[]) => issues.filter((i) => i.code !== 'crs_not_accepted');
const codes = (issues: { code: string }[]) => issues.map((i) => i.code);

describe('coordinate system findings', () => {
  it.each([
    ['prj', '.prj'],
    ['geojson_crs', 'crs'],
  ] as const)('an unreadable statement from %s names the field %s', async (source, field) => {
    const report = await validate(file([named(1, point(-81.8, 24.55))], { crs: { source, unreadable: 'broken' } }));
    expect(report.errors.find((e) => e.code === 'crs_unreadable')).toMatchObject({ field, message: 'The coordinate system in the file cannot be read: broken' });
    expect(report.crs).toEqual({ declared: 'EPSG:4326', declared_epsg: 4326, detected_epsg: null, detected_name: null, detected_from: source, dep_accepted: false });
    expect(report.extent_wgs84).toBeNull();
    expect(codes(report.warnings)).toContain('extent_not_checked');
  });

  it.each([
    ['prj', '.prj'],
    ['geojson_crs', 'crs'],
  ] as const)('a system this check does not know, stated in %s, names the field %s', async (source, field) => {
    const report = await validate(file([named(1, point(-81.8, 24.55))], { crs: { source, detected: { epsg: null, name: 'Local Grid', projected: true } } }));
    expect(report.errors.find((e) => e.code === 'crs_unsupported')).toMatchObject({ field, message: 'The file is in "Local Grid", a coordinate system this check does not know.' });
  });

  it('a Shapefile without .prj: crs_missing, and nothing else about the system', async () => {
    const report = await validate(file([named(1, point(-81.8, 24.55))], { format: 'shapefile', crs: { source: 'none' } }));
    expect(codes(report.errors)).toEqual(['crs_missing']);
    expect(report.errors[0]).toMatchObject({ field: '.prj' });
  });

  it.each([
    ['prj', '.prj'],
    ['geojson_crs', 'crs'],
  ] as const)('a known system outside DEP\'s Albers, from %s, names the field %s', async (source, field) => {
    const report = await validate(file([named(1, point(-81.8, 24.55))], { crs: { source, detected: { epsg: 4326, name: 'WGS 84', projected: false } } }));
    expect(report.errors.find((e) => e.code === 'crs_not_accepted')).toMatchObject({ field, message: 'EPSG:4326 (WGS 84) is not Florida GDL Albers (EPSG:3087, 6439, 3086).' });
  });

  it.each([3087, 6439, 3086])('EPSG:%d is accepted by DEP', async (epsg) => {
    const report = await validate(file([], { crs: { source: 'prj', detected: { epsg, name: 'Albers', projected: true } } }), { coordinateSystem: `EPSG:${epsg}` });
    expect(report.crs.dep_accepted).toBe(true);
    expect(codes(report.errors)).toEqual([]);
  });

  it('a declared system differs from the file\'s only when it is a valid reference', async () => {
    const mismatch = await validate(file([]), { coordinateSystem: 'EPSG:3087' });
    expect(mismatch.errors.find((e) => e.code === 'crs_mismatch')).toMatchObject({ field: 'coordinate_system', message: 'Declared EPSG:3087 but the file is in EPSG:4326 (WGS 84 (RFC 7946)).' });
    const invalid = await validate(file([]), { coordinateSystem: 'Albers please' });
    expect(codes(invalid.errors)).toEqual(['crs_declared_invalid', 'crs_not_accepted']);
    expect(invalid.errors[0]).toMatchObject({ field: 'coordinate_system', message: '"Albers please" is not an EPSG reference.' });
    expect(invalid.crs.declared_epsg).toBeNull();
  });
});

describe('positions', () => {
  it('the extent is the bounds of every position in Florida, each side from a different feature', async () => {
    const report = await validate(file([
      named(1, point(-81.8, 24.55)),
      named(2, { type: 'LineString', coordinates: [[-82.1, 26.6], [-81.9, 26.7]] }),
      named(3, point(-80.1, 25.9)),
      named(4, point(-84.3, 30.44)),
      named(5, point(-81.0, 51.5)),
    ]));
    expect(report.extent_wgs84).toEqual({ west: -84.3, south: 24.55, east: -80.1, north: 30.44 });
  });

  it('counts a feature\'s positions outside Florida, swapped ones included; all swapped is an axis-order error', async () => {
    const report = await validate(file([
      named(1, { type: 'MultiPoint', coordinates: [[-81.8, 24.55], [24.55, -81.8], [-20, 40]] }),
      named(2, { type: 'MultiPoint', coordinates: [[24.55, -81.8], [26.1, -80.1]] }),
      named(3, point(-81.8, 24.55)),
    ]));
    expect(besidesCrs(report.errors).map((e) => [e.code, e.feature, e.message])).toEqual([
      ['outside_florida', 1, '2 of 3 positions are outside Florida (lon -87.7…-79.8, lat 24.3…31.1).'],
      ['coordinate_order', 2, 'The positions are in Florida only with latitude and longitude exchanged.'],
    ]);
  });

  it('no extent when no position is in Florida', async () => {
    expect((await validate(file([named(1, point(-0.1, 51.5))]))).extent_wgs84).toBeNull();
  });

  it('a self-crossing polygon is an error, a self-crossing line a warning', async () => {
    const bowTie = { type: 'Polygon', coordinates: [[[-81.8, 24.55], [-81.7, 24.65], [-81.7, 24.55], [-81.8, 24.65], [-81.8, 24.55]]] };
    const zigzag = { type: 'LineString', coordinates: [[-81.8, 24.55], [-81.7, 24.65], [-81.7, 24.55], [-81.8, 24.65]] };
    const report = await validate(file([named(1, bowTie), named(2, zigzag)]));
    expect(report.errors.filter((e) => e.code === 'self_intersection').map((e) => e.feature)).toEqual([1]);
    expect(report.warnings.filter((w) => w.code === 'self_intersection').map((w) => w.feature)).toEqual([2]);
    expect(besidesCrs(report.errors)[0]!.message).toBe('The Polygon crosses itself near (-81.75, 24.6) in the file\'s coordinates.');
  });

  it('a self-crossing multipolygon is an error too', async () => {
    const bowTie = [[[-81.8, 24.55], [-81.7, 24.65], [-81.7, 24.55], [-81.8, 24.65], [-81.8, 24.55]]];
    const square = [[[-81.5, 24.55], [-81.4, 24.55], [-81.4, 24.65], [-81.5, 24.65], [-81.5, 24.55]]];
    const report = await validate(file([named(1, { type: 'MultiPolygon', coordinates: [square, bowTie] })]));
    expect(report.errors.filter((e) => e.code === 'self_intersection').map((e) => e.feature)).toEqual([1]);
    expect(report.warnings.filter((w) => w.code === 'self_intersection')).toEqual([]);
  });

  it(`a geometry of more than ${MAX_KINK_CHECK_VERTICES} vertices is not tested for self-crossing, with a warning saying so`, async () => {
    const circle = Array.from({ length: MAX_KINK_CHECK_VERTICES + 1 }, (_, i) => [-81.7 + 0.01 * Math.cos((2 * Math.PI * i) / (MAX_KINK_CHECK_VERTICES + 1)), 24.6 + 0.01 * Math.sin((2 * Math.PI * i) / (MAX_KINK_CHECK_VERTICES + 1))]);
    const report = await validate(file([named(1, { type: 'Polygon', coordinates: [[...circle, circle[0]!]] })]));
    expect(report.warnings.filter((w) => w.code === 'geometry_check_skipped')).toEqual([
      expect.objectContaining({ feature: 1, field: 'geometry', message: 'Too many vertices to test for self-intersection here.', hint: 'Run "Check Geometry" in your GIS on this feature.' }),
    ]);
    expect(besidesCrs(report.errors)).toEqual([]);
  });

  it('a feature that is not a Feature is reported and counted, its geometry not checked', async () => {
    const report = await validate(file([{ index: 1, properties: {}, geometry: null, malformed: 'features[0] is not a Feature.' }, named(2, point(-81.8, 24.55))]));
    expect(report.feature_count).toBe(2);
    expect(besidesCrs(report.errors).map((e) => [e.code, e.feature, e.message])).toEqual([['invalid_feature', 1, 'features[0] is not a Feature.']]);
    expect(report.geometry_types).toEqual({ Point: 1 });
  });

  it('one geometry type per layer; two are a warning naming both', async () => {
    const one = await validate(file([named(1, point(-81.8, 24.55)), named(2, point(-81.7, 24.56))]));
    expect(codes(one.warnings)).not.toContain('mixed_geometry_types');
    const two = await validate(file([named(1, point(-81.8, 24.55)), named(2, { type: 'LineString', coordinates: [[-81.8, 24.55], [-81.7, 24.56]] })]));
    expect(two.warnings.find((w) => w.code === 'mixed_geometry_types')?.message).toBe('The layer mixes Point, LineString.');
    expect(two.geometry_types).toEqual({ Point: 1, LineString: 1 });
  });
});

describe('attributes', () => {
  it('no name or type column: an error each; no id, owner or address: a warning each', async () => {
    const report = await validate(file([{ index: 1, geometry: point(-81.8, 24.55), properties: { NOTES: 'x' } }], { headers: ['NOTES'] }));
    expect(report.attributes).toEqual({ mapped: { name: null, asset_type: null, source_id: null, owner: null, address: null }, missing_required: ['name', 'asset_type'], missing_recommended: ['source_id', 'owner', 'address'] });
    expect(report.errors.filter((e) => e.code === 'missing_attribute').map((e) => [e.field, e.message, e.hint])).toEqual([
      ['name', 'No asset name attribute.', 'Add a "NAME" field to the attribute table (s. 380.093(2)(a) asset type, or the category).'],
      ['asset_type', 'No asset type attribute.', 'Add a "ASSET_TYPE" field to the attribute table (s. 380.093(2)(a) asset type, or the category).'],
    ]);
    expect(report.warnings.filter((w) => w.code === 'missing_recommended_attribute').map((w) => [w.field, w.message, w.hint])).toEqual([
      ['source_id', 'No source_id attribute.', 'Add a "SOURCE_ID" field: DEP\'s asset lists identify assets by id, owner and location.'],
      ['owner', 'No owner attribute.', 'Add a "OWNER" field: DEP\'s asset lists identify assets by id, owner and location.'],
      ['address', 'No address attribute.', 'Add a "ADDRESS" field: DEP\'s asset lists identify assets by id, owner and location.'],
    ]);
  });

  it('maps the columns it found', async () => {
    const report = await validate(file([]));
    expect(report.attributes).toEqual({ mapped: { name: 'NAME', asset_type: ['ASSET_TYPE'], source_id: 'ASSET_ID', owner: 'OWNER', address: 'ADDRESS' }, missing_required: [], missing_recommended: [] });
  });

  it.each([[null], [undefined], [''], ['   ']])('a name of %j is an empty-name warning on that feature', async (name) => {
    const second = named(2, point(-81.7, 24.55));
    second.properties.NAME = name;
    const report = await validate(file([named(1, point(-81.8, 24.55)), second]));
    expect(report.warnings.filter((w) => w.code === 'empty_attribute').map((w) => [w.feature, w.field])).toEqual([[2, 'NAME']]);
  });

  it('a name of 0 is a name', async () => {
    const report = await validate(file([named(1, point(-81.8, 24.55), 0)]));
    expect(codes(report.warnings)).not.toContain('empty_attribute');
  });
});

describe('metadata', () => {
  it('metadata sent with the request wins over the archive\'s, and says where it came from', async () => {
    const fromRequest = await validate(file([], { metadataXml: 'not xml' }));
    expect(fromRequest.metadata.source).toBe('request');
    expect(codes(fromRequest.errors)).not.toContain('metadata_not_xml');
    const fromArchive = await validate(file([], { metadataXml: FGDC }), { metadata: undefined });
    expect(fromArchive.metadata).toMatchObject({ source: 'archive', standard: 'fgdc_csdgm', missing_required: [] });
  });

  it.each([[undefined], [''], ['  \n ']])('no metadata (%j) is an error, with no source', async (metadata) => {
    const report = await validate(file([]), { metadata });
    expect(report.errors.find((e) => e.code === 'metadata_missing')).toMatchObject({ field: 'metadata', message: 'No metadata was sent and none is inside the archive.' });
    expect(report.metadata).toEqual({ standard: null, present: [], missing_required: [], missing_recommended: [], source: null });
  });

  it('text that is not XML, XML that does not parse, and XML of no known standard', async () => {
    const text = await validate(file([]), { metadata: 'just words' });
    expect(text.errors.find((e) => e.field === 'metadata')).toMatchObject({ code: 'metadata_not_xml', message: 'The metadata is not well-formed XML.' });
    const broken = await validate(file([]), { metadata: '<metadata><idinfo></metadata>' });
    expect(broken.errors.find((e) => e.field === 'metadata')?.message).toMatch(/^The metadata is not well-formed XML \(.+\)\.$/);
    const unknown = await validate(file([]), { metadata: '<catalog><item/></catalog>' });
    expect(unknown.errors.find((e) => e.field === 'metadata')).toMatchObject({ code: 'metadata_standard_unknown', message: 'The metadata is neither FGDC CSDGM nor ISO 19115 XML (ArcGIS item metadata must be exported to one of them).' });
  });

  it('a missing recommended element is a warning naming it, not an error', async () => {
    const report = await validate(file([named(1, point(-81.8, 24.55))]), { metadata: FGDC.replace(/<eainfo>.*<\/eainfo>/s, '') });
    expect(report.metadata.missing_recommended).toEqual(['eainfo']);
    expect(report.warnings.filter((w) => w.field === 'eainfo')).toEqual([
      expect.objectContaining({ code: 'metadata_recommended_missing', message: 'Recommended element eainfo is missing or empty.', hint: 'Fill in eainfo if you can.' }),
    ]);
    expect(besidesCrs(report.errors)).toEqual([]);
  });

  it('names the standard of a missing element', async () => {
    const fgdc = await validate(file([]), { metadata: '<metadata><idinfo/></metadata>' });
    expect(fgdc.errors.find((e) => e.code === 'metadata_incomplete')?.message).toMatch(/^Required FGDC CSDGM element \S+ is missing or empty\.$/);
    const iso = await validate(file([]), { metadata: '<gmd:MD_Metadata xmlns:gmd="http://www.isotc211.org/2005/gmd"></gmd:MD_Metadata>' });
    expect(iso.errors.find((e) => e.code === 'metadata_incomplete')?.message).toMatch(/^Required ISO 19115 element \S+ is missing or empty\.$/);
  });
});

describe('issue lists', () => {
  const emptyNames = (n: number) => Array.from({ length: n }, (_, i) => named(i + 1, point(-81.8 + i * 1e-4, 24.55), ''));
  const emptyGeometries = (n: number) => Array.from({ length: n }, (_, i) => named(i + 1, null));

  it('lists 200 warnings and counts them all', async () => {
    const exact = await validate(file(emptyNames(200)));
    expect([exact.warnings.length, exact.warning_count, exact.issues_truncated]).toEqual([200, 200, false]);
    const over = await validate(file(emptyNames(201)));
    expect([over.warnings.length, over.warning_count, over.issues_truncated]).toEqual([200, 201, true]);
    // Warnings alone leave a layer valid: its one error is the WGS84 system.
    expect(codes(over.errors)).toEqual(['crs_not_accepted']);
  });

  it('lists 200 errors and counts them all; any error makes the file invalid', async () => {
    // The WGS84 system is the first error, then one per empty geometry.
    const exact = await validate(file(emptyGeometries(199)));
    expect([exact.errors.length, exact.error_count, exact.issues_truncated, exact.valid]).toEqual([200, 200, false, false]);
    const over = await validate(file(emptyGeometries(202)));
    expect([over.errors.length, over.error_count, over.issues_truncated]).toEqual([200, 203, true]);
    expect(over.errors[199]!.feature).toBe(199);
  });

  it('a clean layer is valid with empty lists', async () => {
    const [x, y] = proj4('EPSG:4326', GDL_ALBERS_PROJ4, [-81.8, 24.55]) as [number, number];
    const report = await validate(file([named(1, point(x, y))], { crs: { source: 'prj', detected: { epsg: 3087, name: 'NAD83(HARN) / Florida GDL Albers', projected: true } } }), { coordinateSystem: 'EPSG:3087' });
    expect(report.extent_wgs84!.west).toBeCloseTo(-81.8, 6);
    expect([report.valid, report.error_count, report.warning_count, report.issues_truncated]).toEqual([true, 0, 0, false]);
  });
});
