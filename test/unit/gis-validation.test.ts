import { Readable } from 'node:stream';
import proj4 from 'proj4';
import { detectCrsFromWkt, parseCrsReference, toWgs84 } from '../../shared/domain/assets/crs';
import { readFeatureFile } from '../../shared/domain/assets/formats';
import { validateGisDeliverable } from '../../shared/domain/assets/gis-validation';
import { checkMetadata } from '../../shared/domain/assets/metadata';
import { GDL_ALBERS_PROJ4, PRJ, zippedShapefile, type DbfField, type ShapeRecord } from '../fixtures/assets/shapefile-writer';

/** A minimal but complete FGDC CSDGM record (FGDC-STD-001-1998 element names). */
const FGDC_COMPLETE = `<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <idinfo>
    <citation><citeinfo><origin>Monroe County GIS</origin><pubdate>20260115</pubdate><title>Critical assets</title></citeinfo></citation>
    <descript><abstract>Critical assets of Monroe County.</abstract><purpose>Vulnerability assessment under s. 380.093.</purpose></descript>
    <timeperd><timeinfo><sngdate><caldate>20260101</caldate></sngdate></timeinfo><current>publication date</current></timeperd>
    <status><progress>Complete</progress><update>Annually</update></status>
    <spdom><bounding><westbc>-82.0</westbc><eastbc>-80.2</eastbc><northbc>25.9</northbc><southbc>24.4</southbc></bounding></spdom>
    <keywords><theme><themekt>None</themekt><themekey>critical assets</themekey></theme></keywords>
    <accconst>None</accconst><useconst>None</useconst>
    <ptcontac><cntinfo><cntorgp><cntorg>Monroe County</cntorg></cntorgp></cntinfo></ptcontac>
  </idinfo>
  <dataqual><lineage><procstep><procdesc>Compiled</procdesc></procstep></lineage><posacc><horizpa><horizpar>GPS</horizpar></horizpa></posacc></dataqual>
  <spref><horizsys><planar><mapproj><mapprojn>Albers Conical Equal Area</mapprojn></mapproj></planar></horizsys></spref>
  <eainfo><overview><eaover>NAME, ASSET_TYPE</eaover></overview></eainfo>
  <distinfo><distrib><cntinfo><cntorgp><cntorg>Monroe County</cntorg></cntorgp></cntinfo></distrib></distinfo>
  <metainfo><metd>20260115</metd><metc><cntinfo><cntorgp><cntorg>Monroe County</cntorg></cntorgp></cntinfo></metc><metstdn>FGDC Content Standard for Digital Geospatial Metadata</metstdn><metstdv>FGDC-STD-001-1998</metstdv></metainfo>
</metadata>`;

const ISO_PARTIAL = `<gmd:MD_Metadata xmlns:gmd="http://www.isotc211.org/2005/gmd" xmlns:gco="http://www.isotc211.org/2005/gco">
  <gmd:contact><gmd:CI_ResponsibleParty><gmd:organisationName><gco:CharacterString>City</gco:CharacterString></gmd:organisationName></gmd:CI_ResponsibleParty></gmd:contact>
  <gmd:dateStamp><gco:Date>2026-01-15</gco:Date></gmd:dateStamp>
  <gmd:identificationInfo><gmd:MD_DataIdentification>
    <gmd:citation><gmd:CI_Citation><gmd:title><gco:CharacterString>Assets</gco:CharacterString></gmd:title></gmd:CI_Citation></gmd:citation>
    <gmd:abstract><gco:CharacterString></gco:CharacterString></gmd:abstract>
    <gmd:topicCategory><gmd:MD_TopicCategoryCode>structure</gmd:MD_TopicCategoryCode></gmd:topicCategory>
  </gmd:MD_DataIdentification></gmd:identificationInfo>
</gmd:MD_Metadata>`;

const fields: DbfField[] = [
  { name: 'NAME', type: 'C', length: 40 },
  { name: 'ASSET_TYPE', type: 'C', length: 40 },
  { name: 'ASSET_ID', type: 'C', length: 12 },
  { name: 'OWNER', type: 'C', length: 20 },
  { name: 'ADDRESS', type: 'C', length: 40 },
];
const albers = (lon: number, lat: number) => proj4('EPSG:4326', GDL_ALBERS_PROJ4, [lon, lat]) as [number, number];
const attrs = (name: string, id: string) => ({ NAME: name, ASSET_TYPE: 'Lift Station', ASSET_ID: id, OWNER: 'County', ADDRESS: '1 Main St' });
/** A square around a Key West position, clockwise as Shapefile outer rings are. */
const square = (lon: number, lat: number, d = 0.001): [number, number][] =>
  [[lon, lat], [lon, lat + d], [lon + d, lat + d], [lon + d, lat], [lon, lat]].map(([x, y]) => albers(x!, y!));

async function validateZip(zip: Buffer, coordinateSystem = 'EPSG:3087', metadata?: string) {
  const file = await readFeatureFile('shapefile', () => Readable.from([zip]));
  return validateGisDeliverable(file, { coordinateSystem, metadata });
}

async function validateGeoJson(document: unknown, coordinateSystem = 'EPSG:3087', metadata: string | undefined = FGDC_COMPLETE) {
  const file = await readFeatureFile('geojson', () => Readable.from([Buffer.from(JSON.stringify(document))]));
  return validateGisDeliverable(file, { coordinateSystem, metadata });
}

describe('coordinate systems', () => {
  it.each([
    [PRJ.harnGdlAlbers, 3087],
    [PRJ.nad83_2011GdlAlbers, 6439],
    [PRJ.nad83GdlAlbers, 3086],
    [PRJ.wgs84, 4326],
    ['GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]', 4269],
    ['PROJCS["NAD83(HARN) / Florida GDL Albers",GEOGCS["NAD83(HARN)",DATUM["NAD83_High_Accuracy_Reference_Network",SPHEROID["GRS 1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Albers_Conic_Equal_Area"],PARAMETER["latitude_of_center",24],PARAMETER["longitude_of_center",-84],PARAMETER["standard_parallel_1",24],PARAMETER["standard_parallel_2",31.5],PARAMETER["false_easting",400000],PARAMETER["false_northing",0],UNIT["metre",1],AUTHORITY["EPSG","3087"]]', 3087],
  ])('detects EPSG from .prj WKT (%#)', (wkt, epsg) => {
    expect(detectCrsFromWkt(wkt).epsg).toBe(epsg);
  });

  it('reports an unknown projection by name, and refuses text that is not WKT', () => {
    expect(detectCrsFromWkt(PRJ.stateplaneFloridaEastFeet)).toEqual({ epsg: null, name: 'NAD_1983_StatePlane_Florida_East_FIPS_0901_Feet', projected: true });
    expect(() => detectCrsFromWkt('EPSG:3087')).toThrow();
    expect(() => detectCrsFromWkt('PROJCS["x",')).toThrow();
  });

  it('parses declared references', () => {
    expect(['EPSG:3087', '3087', 'urn:ogc:def:crs:EPSG::3087', 'http://www.opengis.net/def/crs/EPSG/0/3087'].map(parseCrsReference)).toEqual([3087, 3087, 3087, 3087]);
    expect(parseCrsReference('urn:ogc:def:crs:OGC:1.3:CRS84')).toBe(4326);
    expect(parseCrsReference('Florida Albers')).toBeUndefined();
  });

  it('reprojects Florida GDL Albers per its published parameters: the false origin is 84°W 24°N', () => {
    const [lon, lat] = toWgs84(3087)(400000, 0);
    expect(lon).toBeCloseTo(-84, 9);
    expect(lat).toBeCloseTo(24, 9);
    // On the central meridian x stays 400,000 m, and one degree of latitude is ~110.8 km of northing.
    const [lon2, lat2] = toWgs84(6439)(400000, 110_800);
    expect(lon2).toBeCloseTo(-84, 9);
    expect(lat2).toBeGreaterThan(24.99);
    expect(lat2).toBeLessThan(25.01);
  });
});

describe('metadata completeness', () => {
  it('finds every FGDC CSDGM core element in a complete record', () => {
    expect(checkMetadata(FGDC_COMPLETE)).toMatchObject({ standard: 'fgdc_csdgm', missing_required: [], missing_recommended: [] });
  });

  it('lists missing ISO 19115 elements; an empty element counts as missing', () => {
    const check = checkMetadata(ISO_PARTIAL);
    expect(check.standard).toBe('iso_19115');
    expect(check.present).toEqual(expect.arrayContaining(['identificationInfo/citation/title', 'identificationInfo/topicCategory', 'contact', 'dateStamp']));
    expect(check.missing_required).toEqual(expect.arrayContaining(['identificationInfo/abstract', 'extent/EX_GeographicBoundingBox', 'referenceSystemInfo', 'identificationInfo/language']));
  });

  it('recognises neither text nor ArcGIS item metadata as a standard', () => {
    expect(checkMetadata('just words').problem).toBe('not_xml');
    expect(checkMetadata('<metadata><dataIdInfo><idCitation><resTitle>x</resTitle></idCitation></dataIdInfo></metadata>').problem).toBe('unknown_standard');
  });
});

describe('GIS deliverable validation', () => {
  const goodRecords: ShapeRecord[] = [
    { geometry: { type: 'Polygon', coordinates: [square(-81.80, 24.55)] }, attributes: attrs('Lift Station 1', 'LS1') },
    { geometry: { type: 'Polygon', coordinates: [square(-81.78, 24.56)] }, attributes: attrs('Lift Station 2', 'LS2') },
  ];

  it('passes a clean EPSG:3087 Shapefile with its FGDC metadata inside the zip', async () => {
    const zip = zippedShapefile({ kind: 'Polygon', fields, records: goodRecords, prj: PRJ.harnGdlAlbers, extra: { 'assets.shp.xml': FGDC_COMPLETE } });
    const report = await validateZip(zip);
    expect(report.errors).toEqual([]);
    expect(report).toMatchObject({ valid: true, format: 'shapefile', feature_count: 2, geometry_types: { Polygon: 2 }, crs: { declared_epsg: 3087, detected_epsg: 3087, dep_accepted: true, detected_from: 'prj' }, metadata: { standard: 'fgdc_csdgm', source: 'archive' } });
    expect(report.extent_wgs84!.west).toBeCloseTo(-81.80, 6);
    expect(report.extent_wgs84!.north).toBeCloseTo(24.561, 6);
  });

  it('reports a bow-tie polygon, an empty shape and an out-of-Florida feature by feature number', async () => {
    const bowTie = [[-81.80, 24.55], [-81.79, 24.56], [-81.79, 24.55], [-81.80, 24.56], [-81.80, 24.55]].map(([x, y]) => albers(x!, y!));
    const records: ShapeRecord[] = [
      goodRecords[0]!,
      { geometry: { type: 'Polygon', coordinates: [bowTie] }, attributes: attrs('Bow tie', 'B1') },
      { geometry: null, attributes: attrs('Nothing', 'N1') },
      { geometry: { type: 'Polygon', coordinates: [square(-90.07, 29.95)] }, attributes: attrs('New Orleans', 'NO1') },
    ];
    const report = await validateZip(zippedShapefile({ kind: 'Polygon', fields, records, prj: PRJ.harnGdlAlbers }), 'EPSG:3087', FGDC_COMPLETE);
    expect(report.valid).toBe(false);
    expect(report.errors.map((e) => [e.code, e.feature])).toEqual([['self_intersection', 2], ['empty_geometry', 3], ['outside_florida', 4]]);
    for (const error of report.errors) expect(error.hint.length).toBeGreaterThan(10);
  });

  it('reports a declared system that differs from the .prj, and a .prj outside DEP\'s Albers', async () => {
    const mismatch = await validateZip(zippedShapefile({ kind: 'Polygon', fields, records: goodRecords, prj: PRJ.harnGdlAlbers }), 'EPSG:6439', FGDC_COMPLETE);
    expect(mismatch.errors.map((e) => e.code)).toEqual(['crs_mismatch']);
    const statePlane = await validateZip(zippedShapefile({ kind: 'Polygon', fields, records: goodRecords, prj: PRJ.stateplaneFloridaEastFeet }), 'EPSG:2236', FGDC_COMPLETE);
    expect(statePlane.errors.map((e) => e.code)).toEqual(['crs_unsupported']);
    expect(statePlane.warnings.map((w) => w.code)).toContain('extent_not_checked');
    const noPrj = await validateZip(zippedShapefile({ kind: 'Polygon', fields, records: goodRecords }), 'EPSG:3087', FGDC_COMPLETE);
    expect(noPrj.errors.map((e) => e.code)).toEqual(['crs_missing']);
  });

  it('reports a WGS84 GeoJSON as not in DEP\'s system, and swapped positions', async () => {
    const report = await validateGeoJson({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { name: 'A', asset_type: 'Fire Station' }, geometry: { type: 'Point', coordinates: [-81.8, 24.55] } },
        { type: 'Feature', properties: { name: 'B', asset_type: 'Fire Station' }, geometry: { type: 'Point', coordinates: [24.55, -81.8] } },
      ],
    }, 'EPSG:4326');
    expect(report.errors.map((e) => [e.code, e.feature])).toEqual([['crs_not_accepted', null], ['coordinate_order', 2]]);
    expect(report.crs).toMatchObject({ detected_epsg: 4326, detected_from: 'rfc7946_default', dep_accepted: false });
  });

  it('reports missing attributes and incomplete metadata', async () => {
    const report = await validateGeoJson({
      type: 'FeatureCollection',
      crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::3087' } },
      features: [{ type: 'Feature', properties: { remark: 'x' }, geometry: { type: 'Point', coordinates: albers(-81.8, 24.55) } }],
    }, 'EPSG:3087', ISO_PARTIAL);
    const codes = report.errors.map((e) => `${e.code}:${e.field}`);
    expect(codes).toEqual(expect.arrayContaining(['missing_attribute:name', 'missing_attribute:asset_type', 'metadata_incomplete:identificationInfo/abstract']));
    expect(report.warnings.map((w) => `${w.code}:${w.field}`)).toEqual(expect.arrayContaining(['missing_recommended_attribute:source_id', 'missing_recommended_attribute:owner']));
    expect(report.attributes.missing_required).toEqual(['name', 'asset_type']);
  });

  it('reports missing metadata', async () => {
    const report = await validateZip(zippedShapefile({ kind: 'Polygon', fields, records: goodRecords, prj: PRJ.harnGdlAlbers }));
    expect(report.errors.map((e) => e.code)).toEqual(['metadata_missing']);
  });
});
