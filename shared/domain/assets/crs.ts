import type { ProjectionDefinition } from 'proj4';
import { proj4 } from '../../proj4';
import { child, find, parseWkt, type WktNode } from './wkt';
export { parseCrsReference } from './crs-reference';

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
  // Florida State Plane (East, West, North; US feet and metres; NAD83, HARN, 2011) and UTM 16N/17N,
  // in which county CAD and GIS exports arrive; proj4 definitions as published in epsg-index.
  { epsg: 2236, name: "NAD83 / Florida East (ftUS)", projected: true, proj4: "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-81 +k=0.999941177 +x_0=200000.0001016 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=us-ft +no_defs", depAccepted: false },
  { epsg: 2237, name: "NAD83 / Florida West (ftUS)", projected: true, proj4: "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-82 +k=0.999941177 +x_0=200000.0001016 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=us-ft +no_defs", depAccepted: false },
  { epsg: 2238, name: "NAD83 / Florida North (ftUS)", projected: true, proj4: "+proj=lcc +lat_0=29 +lon_0=-84.5 +lat_1=30.75 +lat_2=29.5833333333333 +x_0=600000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=us-ft +no_defs", depAccepted: false },
  { epsg: 2881, name: "NAD83(HARN) / Florida East (ftUS)", projected: true, proj4: "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-81 +k=0.999941177 +x_0=200000.0001016 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=us-ft +no_defs", depAccepted: false },
  { epsg: 2882, name: "NAD83(HARN) / Florida West (ftUS)", projected: true, proj4: "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-82 +k=0.999941177 +x_0=200000.0001016 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=us-ft +no_defs", depAccepted: false },
  { epsg: 2883, name: "NAD83(HARN) / Florida North (ftUS)", projected: true, proj4: "+proj=lcc +lat_0=29 +lon_0=-84.5 +lat_1=30.75 +lat_2=29.5833333333333 +x_0=600000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=us-ft +no_defs", depAccepted: false },
  { epsg: 6437, name: "NAD83(2011) / Florida East", projected: true, proj4: "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-81 +k=0.999941177 +x_0=200000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs", depAccepted: false },
  { epsg: 6438, name: "NAD83(2011) / Florida East (ftUS)", projected: true, proj4: "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-81 +k=0.999941177 +x_0=200000.0001016 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=us-ft +no_defs", depAccepted: false },
  { epsg: 6440, name: "NAD83(2011) / Florida North", projected: true, proj4: "+proj=lcc +lat_0=29 +lon_0=-84.5 +lat_1=30.75 +lat_2=29.5833333333333 +x_0=600000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs", depAccepted: false },
  { epsg: 6441, name: "NAD83(2011) / Florida North (ftUS)", projected: true, proj4: "+proj=lcc +lat_0=29 +lon_0=-84.5 +lat_1=30.75 +lat_2=29.5833333333333 +x_0=600000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=us-ft +no_defs", depAccepted: false },
  { epsg: 6442, name: "NAD83(2011) / Florida West", projected: true, proj4: "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-82 +k=0.999941177 +x_0=200000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs", depAccepted: false },
  { epsg: 6443, name: "NAD83(2011) / Florida West (ftUS)", projected: true, proj4: "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-82 +k=0.999941177 +x_0=200000.0001016 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=us-ft +no_defs", depAccepted: false },
  { epsg: 26958, name: "NAD83 / Florida East", projected: true, proj4: "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-81 +k=0.999941177 +x_0=200000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs", depAccepted: false },
  { epsg: 26959, name: "NAD83 / Florida West", projected: true, proj4: "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-82 +k=0.999941177 +x_0=200000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs", depAccepted: false },
  { epsg: 26960, name: "NAD83 / Florida North", projected: true, proj4: "+proj=lcc +lat_0=29 +lon_0=-84.5 +lat_1=30.75 +lat_2=29.5833333333333 +x_0=600000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs", depAccepted: false },
  { epsg: 2777, name: "NAD83(HARN) / Florida East", projected: true, proj4: "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-81 +k=0.999941177 +x_0=200000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs", depAccepted: false },
  { epsg: 2778, name: "NAD83(HARN) / Florida West", projected: true, proj4: "+proj=tmerc +lat_0=24.3333333333333 +lon_0=-82 +k=0.999941177 +x_0=200000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs", depAccepted: false },
  { epsg: 2779, name: "NAD83(HARN) / Florida North", projected: true, proj4: "+proj=lcc +lat_0=29 +lon_0=-84.5 +lat_1=30.75 +lat_2=29.5833333333333 +x_0=600000 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs", depAccepted: false },
  { epsg: 26916, name: "NAD83 / UTM zone 16N", projected: true, proj4: "+proj=utm +zone=16 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs", depAccepted: false },
  { epsg: 26917, name: "NAD83 / UTM zone 17N", projected: true, proj4: "+proj=utm +zone=17 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs", depAccepted: false },
  { epsg: 32616, name: "WGS 84 / UTM zone 16N", projected: true, proj4: "+proj=utm +zone=16 +datum=WGS84 +units=m +no_defs", depAccepted: false },
  { epsg: 32617, name: "WGS 84 / UTM zone 17N", projected: true, proj4: "+proj=utm +zone=17 +datum=WGS84 +units=m +no_defs", depAccepted: false },
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

const squash = (value: unknown) => String(value ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '');

/** NAD83 realizations by the abbreviations ESRI names use and the full names of OGC WKT and WKT2 (EPSG's datum names). */
const HARN = ['harn', 'hpgn', 'highaccuracyreferencenetwork', 'highprecisiongpsnetwork'];
const OTHER_NAD83 = ['csrs', 'canadianspatialreferencesystem', 'ma11', 'pa11', 'nsrs2007', 'nationalspatialreferencesystem2007', 'cors96', 'continuouslyoperatingreferencestation1996'];

function datumEpsg(datumName: string): number | undefined {
  const d = squash(datumName);
  if (d.includes('wgs84') || d.includes('wgs1984')) return 4326;
  if (!(d.includes('1983') || d.includes('nad83'))) return undefined;
  if (d.includes('2011')) return 6318;
  if (HARN.some((name) => d.includes(name))) return 4152;
  if (OTHER_NAD83.some((name) => d.includes(name))) return undefined;
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

/** The PARAMETER children of a WKT1 PROJCS or a WKT2 CONVERSION, by squashed name. */
function parameters(node: WktNode): Map<string, number> {
  const params = new Map<string, number>();
  for (const c of node.children) if (c.keyword === 'PARAMETER') params.set(squash(c.values[0]), Number(c.values[1]));
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

/**
 * From any WKT that proj4 can read (a `.prj` of a system outside the list above); undefined if it
 * cannot, or if the system's own false origin has no place on Earth (parameters missing or
 * contradictory). The origin is the probe because (0, 0) may lie outside a valid system's domain.
 */
export function wktToWgs84(wkt: string): Reprojector | undefined {
  try {
    // The WKT parsed once: the projection both converts and gives its false origin.
    const projection = proj4().Proj(wkt);
    const converter = proj4()(projection, 'EPSG:4326');
    // A projection carries its definition's fields (false easting and northing in metres), which its type leaves out.
    const { x0 = 0, y0 = 0, to_meter: toMetre = 1 } = projection as unknown as ProjectionDefinition;
    const probe = converter.forward([x0 / toMetre, y0 / toMetre]) as number[];
    if (!probe.every(Number.isFinite)) return undefined;
    return (x, y) => converter.forward([x, y]) as [number, number];
  } catch {
    return undefined;
  }
}

/** A function from the known system's coordinates to WGS84 longitude/latitude. */
export function toWgs84(epsg: number): Reprojector {
  const crs = byEpsg.get(epsg);
  if (!crs) throw new Error(`Unknown EPSG:${epsg}`);
  if (!crs.projected) return identity;
  const converter = proj4()(crs.proj4, 'EPSG:4326');
  return (x, y) => converter.forward([x, y]) as [number, number];
}
