import proj4 from 'proj4';
import { child, find, parseWkt, type WktNode } from './wkt';

/**
 * The coordinate systems the API understands, with proj4 definitions written from their published
 * parameters. Florida GDL Albers (EPSG:3086 NAD83, 3087 NAD83(HARN), 6439 NAD83(2011)): Albers Equal
 * Area, standard parallels 24° and 31.5°, origin 24°N 84°W, false easting 400,000 m, GRS80. The NAD83
 * realisations are taken as coincident with WGS84 (differences of about a metre: screening level).
 */
export interface KnownCrs {
  epsg: number;
  name: string;
  projected: boolean;
  proj4: string;
  /** DEP's statewide layers use Florida GDL Albers (DOMAIN §6). */
  depAccepted: boolean;
}

const GDL_ALBERS = '+proj=aea +lat_0=24 +lon_0=-84 +lat_1=24 +lat_2=31.5 +x_0=400000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';
const NAD83_GEOGRAPHIC = '+proj=longlat +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +no_defs';

export const KNOWN_CRS: readonly KnownCrs[] = [
  { epsg: 3087, name: 'NAD83(HARN) / Florida GDL Albers', projected: true, proj4: GDL_ALBERS, depAccepted: true },
  { epsg: 6439, name: 'NAD83(2011) / Florida GDL Albers', projected: true, proj4: GDL_ALBERS, depAccepted: true },
  { epsg: 3086, name: 'NAD83 / Florida GDL Albers', projected: true, proj4: GDL_ALBERS, depAccepted: true },
  { epsg: 4326, name: 'WGS 84', projected: false, proj4: '+proj=longlat +datum=WGS84 +no_defs', depAccepted: false },
  { epsg: 4269, name: 'NAD83', projected: false, proj4: NAD83_GEOGRAPHIC, depAccepted: false },
  { epsg: 4152, name: 'NAD83(HARN)', projected: false, proj4: NAD83_GEOGRAPHIC, depAccepted: false },
  { epsg: 6318, name: 'NAD83(2011)', projected: false, proj4: NAD83_GEOGRAPHIC, depAccepted: false },
];

const byEpsg = new Map(KNOWN_CRS.map((crs) => [crs.epsg, crs]));
export const DEP_ACCEPTED_EPSG = KNOWN_CRS.filter((c) => c.depAccepted).map((c) => c.epsg);

export function knownCrs(epsg: number): KnownCrs | undefined {
  return byEpsg.get(epsg);
}

export interface DetectedCrs {
  /** null when the system is not one the API knows. */
  epsg: number | null;
  name: string;
  projected: boolean;
}

/** "EPSG:3087", "3087", "urn:ogc:def:crs:EPSG::3087", "http://www.opengis.net/def/crs/EPSG/0/3087"; CRS84 is 4326. */
export function parseCrsReference(text: string): number | undefined {
  const value = text.trim();
  if (/^(urn:ogc:def:crs:OGC:(1\.3)?:CRS84|OGC:CRS84|CRS84)$/i.test(value)) return 4326;
  const match = /^(?:EPSG:{1,2}|urn:ogc:def:crs:EPSG:[\d.]*:|https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/\d+\/)?(\d{4,6})$/i.exec(value);
  return match ? Number(match[1]) : undefined;
}

const squash = (value: unknown) => String(value ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '');

function datumEpsg(datumName: string): number | undefined {
  const d = squash(datumName);
  if (d.includes('wgs84') || d.includes('wgs1984')) return 4326;
  if (!(d.includes('1983') || d.includes('nad83'))) return undefined;
  if (d.includes('2011')) return 6318;
  if (d.includes('harn') || d.includes('hpgn')) return 4152;
  if (d.includes('csrs') || d.includes('ma11') || d.includes('pa11') || d.includes('nsrs2007') || d.includes('cors96')) return undefined;
  return 4269;
}

function authorityCode(node: WktNode): number | undefined {
  const authority = child(node, 'AUTHORITY', 'ID');
  if (authority && squash(authority.values[0]) === 'epsg') {
    const code = Number(authority.values[1]);
    return Number.isInteger(code) ? code : undefined;
  }
  return undefined;
}

function parameters(node: WktNode): Map<string, number> {
  const params = new Map<string, number>();
  for (const c of node.children) {
    if (c.keyword === 'PARAMETER' || c.keyword === 'PARAMETERS') params.set(squash(c.values[0]), Number(c.values[1]));
    else if (c.keyword === 'CONVERSION') for (const [k, v] of parameters(c)) params.set(k, v);
  }
  return params;
}

function isGdlAlbers(projection: string, params: Map<string, number>, unit: string): boolean {
  if (!projection.includes('albers')) return false;
  const get = (...names: string[]) => names.map((n) => params.get(n)).find((v) => v !== undefined);
  const near = (a: number | undefined, b: number) => a !== undefined && Math.abs(a - b) < 1e-6;
  return near(get('standardparallel1', 'latitudeof1ststandardparallel'), 24)
    && near(get('standardparallel2', 'latitudeof2ndstandardparallel'), 31.5)
    && near(get('latitudeoforigin', 'latitudeoffalseorigin', 'latitudeofcenter'), 24)
    && near(get('centralmeridian', 'longitudeoffalseorigin', 'longitudeofcenter'), -84)
    && near(get('falseeasting', 'eastingatfalseorigin'), 400000)
    && near(get('falsenorthing', 'northingatfalseorigin'), 0)
    && (unit === '' || unit.startsWith('met'));
}

/**
 * Detects the coordinate system of a `.prj` (ESRI WKT1, OGC WKT1 or WKT2). ESRI `.prj` files carry
 * no EPSG code, so Florida GDL Albers is recognised by its parameters and the datum decides among
 * 3086 / 3087 / 6439. Throws when the text is not WKT.
 */
export function detectCrsFromWkt(text: string): DetectedCrs {
  const root = parseWkt(text);
  const name = String(root.values[0] ?? '');
  if (['GEOGCS', 'GEOGCRS', 'GEODCRS', 'GEOGRAPHICCRS'].includes(root.keyword)) {
    const code = authorityCode(root);
    const datum = find(root, 'DATUM', 'TRF', 'GEODETICDATUM');
    const epsg = code && byEpsg.has(code) ? code : datumEpsg(String(datum?.values[0] ?? name));
    return { epsg: epsg ?? null, name, projected: false };
  }
  if (['PROJCS', 'PROJCRS', 'PROJECTEDCRS'].includes(root.keyword)) {
    const code = authorityCode(root);
    if (code && byEpsg.has(code)) return { epsg: code, name, projected: true };
    const projection = squash(find(root, 'PROJECTION', 'METHOD')?.values[0]);
    const unitNode = child(root, 'UNIT', 'LENGTHUNIT') ?? find(root, 'LENGTHUNIT');
    const unit = squash(unitNode?.values[0]);
    const conversion = child(root, 'CONVERSION');
    const params = parameters(conversion ?? root);
    if (isGdlAlbers(projection, params, unit)) {
      const datum = datumEpsg(String(find(root, 'DATUM', 'GEODETICDATUM')?.values[0] ?? name));
      const epsg = datum === 6318 ? 6439 : datum === 4152 ? 3087 : datum === 4269 ? 3086 : undefined;
      return { epsg: epsg ?? null, name, projected: true };
    }
    return { epsg: null, name, projected: true };
  }
  throw new Error(`Not a coordinate system definition: ${root.keyword}`);
}

export type Reprojector = (x: number, y: number) => [number, number];

const identity: Reprojector = (x, y) => [x, y];

/** A function from the known system's coordinates to WGS84 longitude/latitude. */
export function toWgs84(epsg: number): Reprojector {
  const crs = byEpsg.get(epsg);
  if (!crs) throw new Error(`Unknown EPSG:${epsg}`);
  if (!crs.projected) return identity;
  const converter = proj4(crs.proj4, 'EPSG:4326');
  return (x, y) => converter.forward([x, y]) as [number, number];
}
