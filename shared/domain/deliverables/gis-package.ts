import type { Feature, Geometry, MultiPolygon, Position } from 'geojson';
import { onFirstUse } from '../../on-first-use';
import { proj4 } from '../../proj4';
import albers3087 from 'epsg-index/s/3087.json';
import { knownCrs } from '../assets/crs';
import type { StoredAsset } from '../assets/ports';
import { assetFootprint, footprintLayer, type AssetLayerName, type GisLayer, type GisLayerHead } from './gis-layers';
import type { GeoPackageContent, GeoPackageTableHead, ShapefileLayerHead } from './ports';

/**
 * The GIS deliverable in DEP's coordinate system, NAD83(HARN) / Florida GDL Albers (EPSG:3087):
 * one GeoPackage holding every layer (with its FGDC CSDGM record in the metadata extension) and
 * one zipped Shapefile per layer (.shp .shx .dbf .prj .cpg and the FGDC record as .shp.xml).
 */
export const DELIVERABLE_EPSG = 3087;
const CRS = knownCrs(DELIVERABLE_EPSG)!;
const WKT = albers3087.wkt;
const toAlbers = onFirstUse(() => proj4()('EPSG:4326', CRS.proj4));

/** The extent a layer without features states: Florida's. */
const FLORIDA: Bounds = { west: -87.7, south: 24.4, east: -79.9, north: 31.1 };

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

export interface Bounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** A layer as its metadata and README describe it: its head, how many features it has and their extent (WGS 84). */
export type LayerOutline = GisLayerHead & { features: number; bounds: Bounds | undefined };

/** The box widened to hold the geometry's positions. */
export function extendBounds(box: Bounds | undefined, geometry: Geometry | null): Bounds | undefined {
  let widened = box;
  forEachPosition(geometry, (p) => {
    widened = widened
      ? { west: Math.min(widened.west, p[0]!), south: Math.min(widened.south, p[1]!), east: Math.max(widened.east, p[0]!), north: Math.max(widened.north, p[1]!) }
      : { west: p[0]!, south: p[1]!, east: p[0]!, north: p[1]! };
  });
  return widened;
}

/**
 * The asset layers' outlines, gathered one asset at a time: the points layer always, the line and
 * area layers when some asset has such a footprint; and whether any asset has per-component depths.
 */
export class AssetLayerOutlines {
  private readonly counts: Record<AssetLayerName, number> = { assets: 0, asset_lines: 0, asset_areas: 0 };
  private readonly bounds: Record<AssetLayerName, Bounds | undefined> = { assets: undefined, asset_lines: undefined, asset_areas: undefined };
  withComponents = false;

  add(asset: StoredAsset): void {
    this.counts.assets++;
    this.bounds.assets = extendBounds(this.bounds.assets, { type: 'Point', coordinates: [asset.lon, asset.lat] });
    const footprint = assetFootprint(asset);
    if (footprint) {
      const layer = footprintLayer(footprint);
      this.counts[layer]++;
      this.bounds[layer] = extendBounds(this.bounds[layer], footprint);
    }
    if (asset.exposure?.by_component) this.withComponents = true;
  }

  outlines(heads: Record<AssetLayerName, GisLayerHead>): LayerOutline[] {
    return (Object.keys(this.counts) as (AssetLayerName)[])
      .filter((name) => name === 'assets' || this.counts[name] > 0)
      .map((name) => ({ ...heads[name], features: this.counts[name], bounds: this.bounds[name] }));
  }
}

export function outlineOf(layer: GisLayer | LayerOutline): LayerOutline {
  if (!('collection' in layer)) return layer;
  const { collection, ...head } = layer;
  return { ...head, features: collection.features.length, bounds: collection.features.reduce<Bounds | undefined>((box, f) => extendBounds(box, f.geometry), undefined) };
}

function forEachPosition(geometry: Geometry | null, visit: (p: Position) => void): void {
  if (!geometry) return;
  switch (geometry.type) {
    case 'Point': visit(geometry.coordinates); break;
    case 'MultiPoint': case 'LineString': geometry.coordinates.forEach(visit); break;
    case 'MultiLineString': case 'Polygon': geometry.coordinates.forEach((r) => r.forEach(visit)); break;
    case 'MultiPolygon': geometry.coordinates.forEach((p) => p.forEach((r) => r.forEach(visit))); break;
    case 'GeometryCollection': geometry.geometries.forEach((g) => forEachPosition(g, visit)); break;
  }
}

export interface MetadataContext {
  jurisdiction: string;
  publisher: string;
  generatedAt: string;
  sources: string[];
}

/** An FGDC CSDGM (FGDC-STD-001-1998) record of one layer, with its core elements filled. */
export function fgdcMetadata(layer: GisLayer | LayerOutline, context: MetadataContext): string {
  const box = outlineOf(layer).bounds ?? FLORIDA;
  const day = context.generatedAt.slice(0, 10).replace(/-/g, '');
  const attributes = layer.attributes.map((a) => `<attr><attrlabl>${escapeXml(a.name)}</attrlabl><attrdef>${escapeXml(a.definition)}</attrdef><attrdefs>Vulnerability Assessment Compliance API</attrdefs></attr>`).join('');
  const steps = context.sources.map((s) => `<srcinfo><srccite><citeinfo><title>${escapeXml(s)}</title></citeinfo></srccite></srcinfo>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<metadata>
<idinfo>
<citation><citeinfo><origin>${escapeXml(context.publisher)}</origin><pubdate>${day}</pubdate><title>${escapeXml(`${context.jurisdiction} vulnerability assessment: ${layer.title}`)}</title><geoform>vector digital data</geoform></citeinfo></citation>
<descript><abstract>${escapeXml(layer.abstract)}</abstract><purpose>Vulnerability assessment deliverable under s. 380.093(3), F.S. (Resilient Florida), for DEP's mapping of critical assets and flood exposure.</purpose></descript>
<timeperd><timeinfo><sngdate><caldate>${day}</caldate></sngdate></timeinfo><current>publication date</current></timeperd>
<status><progress>Complete</progress><update>As needed</update></status>
<spdom><bounding><westbc>${box.west.toFixed(6)}</westbc><eastbc>${box.east.toFixed(6)}</eastbc><northbc>${box.north.toFixed(6)}</northbc><southbc>${box.south.toFixed(6)}</southbc></bounding></spdom>
<keywords><theme><themekt>None</themekt><themekey>flooding</themekey><themekey>sea level rise</themekey><themekey>critical assets</themekey><themekey>vulnerability assessment</themekey></theme><place><placekt>None</placekt><placekey>${escapeXml(context.jurisdiction)}</placekey><placekey>Florida</placekey></place></keywords>
<accconst>None.</accconst>
<useconst>Screening-level analysis from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination.</useconst>
</idinfo>
<dataqual><lineage>${steps}<procstep><procdesc>Generated by the Vulnerability Assessment Compliance API from the assessment's inventory and linked flood analyses; projected from WGS 84 to ${escapeXml(CRS.name)} (EPSG:${DELIVERABLE_EPSG}).</procdesc><procdate>${day}</procdate></procstep></lineage></dataqual>
<spref><horizsys><planar><mapproj><mapprojn>Albers Conical Equal Area</mapprojn><albers><stdparll>24.0</stdparll><stdparll>31.5</stdparll><longcm>-84.0</longcm><latprjo>24.0</latprjo><feast>400000.0</feast><fnorth>0.0</fnorth></albers></mapproj><planci><plance>coordinate pair</plance><plandu>meters</plandu></planci></planar><geodetic><horizdn>D_North_American_1983_HARN</horizdn><ellips>GRS 1980</ellips><semiaxis>6378137.0</semiaxis><denflat>298.257222101</denflat></geodetic></horizsys></spref>
<eainfo><detailed><enttyp><enttypl>${layer.name}</enttypl><enttypd>${escapeXml(layer.title)}</enttypd><enttypds>Vulnerability Assessment Compliance API</enttypds></enttyp>${attributes}</detailed></eainfo>
<distinfo><distrib><cntinfo><cntorgp><cntorg>${escapeXml(context.publisher)}</cntorg></cntorgp></cntinfo></distrib></distinfo>
<metainfo><metd>${day}</metd><metc><cntinfo><cntorgp><cntorg>${escapeXml(context.publisher)}</cntorg></cntorgp></cntinfo></metc><metstdn>FGDC Content Standard for Digital Geospatial Metadata</metstdn><metstdv>FGDC-STD-001-1998</metstdv></metainfo>
</metadata>
`;
}

function projectPosition(p: Position): Position {
  const [x, y] = toAlbers().forward([p[0]!, p[1]!]);
  return [Math.round(x! * 100) / 100, Math.round(y! * 100) / 100];
}

/** Twice the ring's signed area (shoelace): negative when it turns clockwise. */
function shoelace(ring: Position[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length - 1; i++) sum += ring[i]![0]! * ring[i + 1]![1]! - ring[i + 1]![0]! * ring[i]![1]!;
  return sum;
}
/** Shapefile polygons want clockwise outer rings and counter-clockwise holes (ESRI's convention). */
const oriented = (ring: Position[], clockwise: boolean) => ((shoelace(ring) < 0) === clockwise ? ring : [...ring].reverse());

/** Projected to EPSG:3087; `esriRings` turns polygon rings to the Shapefile convention, else they keep their turn. */
export function projectFeature(feature: Feature, esriRings: boolean): Feature {
  const geometry = feature.geometry;
  if (geometry.type === 'Point') return { ...feature, geometry: { type: 'Point', coordinates: projectPosition(geometry.coordinates) } };
  if (geometry.type === 'MultiLineString') return { ...feature, geometry: { type: 'MultiLineString', coordinates: geometry.coordinates.map((line) => line.map(projectPosition)) } };
  if (geometry.type === 'MultiPolygon') {
    return { ...feature, geometry: { type: 'MultiPolygon', coordinates: geometry.coordinates.map((polygon) => polygon.map((ring, i) => (esriRings ? oriented(ring.map(projectPosition), i === 0) : ring.map(projectPosition)))) } };
  }
  throw new Error(`Unsupported geometry ${geometry.type}`);
}

/**
 * A polygon's area in EPSG:3087 square metres, as a GIS measures the delivered layer: its vertices
 * projected as the writers project them, outer rings less holes (either winding). Florida GDL
 * Albers is equal-area, so this is the land's area on the GRS80 ellipsoid.
 */
export function albersAreaM2(geometry: MultiPolygon): number {
  return geometry.coordinates.reduce((total, polygon) => total + polygon.reduce((sum, ring, i) => {
    const area = Math.abs(shoelace(ring.map(projectPosition))) / 2;
    return i === 0 ? sum + area : sum - area;
  }, 0), 0);
}

const SHAPE_TYPES = { POINT: 'POINT', MULTILINESTRING: 'POLYLINE', MULTIPOLYGON: 'POLYGON' } as const;

/** One layer's Shapefile in EPSG:3087: its shape type, dBASE fields, projection and metadata (features go in through `projectFeature(f, true)`). */
export function shapefileLayer(layer: GisLayerHead, metadataXml: string): ShapefileLayerHead {
  return { name: layer.name, shapeType: SHAPE_TYPES[layer.geometryType], fields: layer.attributes.map((a) => a.name), prj: WKT, metadataXml };
}

export const GEOPACKAGE_SRS = {
  id: DELIVERABLE_EPSG, name: CRS.name, organization: 'EPSG', organizationId: DELIVERABLE_EPSG, definition: WKT,
  description: 'Florida GDL Albers, the coordinate system of DEP\'s statewide critical-asset layers',
};

/** One layer's GeoPackage table, with its FGDC record (for `gpkg_metadata`, referenced from `gpkg_metadata_reference`); features go in through `projectFeature(f, false)`. */
export function geoPackageTable(layer: GisLayerHead, metadataXml: string): GeoPackageTableHead {
  return {
    name: layer.name,
    title: layer.title,
    description: layer.abstract,
    geometryType: layer.geometryType,
    columns: layer.attributes.map(({ name, type }) => ({ name, type })),
    metadata: { standardUri: 'http://www.fgdc.gov/metadata/csdgm', mimeType: 'text/xml', document: metadataXml },
  };
}

/** Every layer as one GeoPackage's content, projected to EPSG:3087 as the Shapefiles are. */
export function geoPackageContent(layers: readonly GisLayer[], metadata: ReadonlyMap<string, string>): GeoPackageContent {
  return {
    srs: GEOPACKAGE_SRS,
    tables: layers.map((layer) => ({
      ...geoPackageTable(layer, metadata.get(layer.name)!),
      features: layer.collection.features.map((f) => projectFeature(f, false)).map((f) => ({ geometry: f.geometry, properties: f.properties ?? {} })),
    })),
  };
}

/**
 * The package's README: what each layer is and where it is (its GeoPackage table, its Shapefile, or
 * none for a layer without features), with its attributes, so the package reads without the report.
 */
export function packageReadme(layers: readonly (GisLayer | LayerOutline)[], files: { geoPackage: string; shapefile: (layer: GisLayerHead) => string }, context: MetadataContext): string {
  const sections = layers.map((layer) => {
    const count = outlineOf(layer).features;
    return [
      `${layer.name}: ${layer.title}`,
      `  GeoPackage table: ${layer.name} (${layer.geometryType}, ${count} feature${count === 1 ? '' : 's'}); Shapefile: ${count > 0 ? files.shapefile(layer) : 'none (no features)'}`,
      `  ${layer.abstract}`,
      ...layer.attributes.map((a) => `    ${a.name} (${a.type}): ${a.definition}`),
    ].join('\n');
  });
  return [
    `${context.jurisdiction} vulnerability assessment: GIS package`,
    `Generated ${context.generatedAt} by ${context.publisher}.`,
    `Coordinate system: ${CRS.name} (EPSG:${DELIVERABLE_EPSG}); areas are measured in it (equal-area). Each layer has its FGDC CSDGM record: in the GeoPackage's gpkg_metadata, and as <layer>.shp.xml in its Shapefile.`,
    `GeoPackage: ${files.geoPackage}`,
    '',
    'Layers',
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}
