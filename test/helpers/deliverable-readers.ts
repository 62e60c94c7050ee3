import { unzipSync, strFromU8 } from 'fflate';

/**
 * Small readers of the delivered files, written from the formats' specifications and sharing no
 * code with the writers: Florida GDL Albers (EPSG:3087) forward on GRS80 (Snyder, Map Projections,
 * USGS PP 1395, eqs. 14-3 to 14-12), GeoPackage geometry blobs (OGC 12-128r18 §2.1.3, WKB
 * MultiPolygon) and an XLSX worksheet's cells (ECMA-376 SpreadsheetML).
 */

const A = 6378137;
const F = 1 / 298.257222101;
const E2 = 2 * F - F * F;
const E = Math.sqrt(E2);
const RAD = Math.PI / 180;

const q = (phi: number) => {
  const s = Math.sin(phi);
  return (1 - E2) * (s / (1 - E2 * s * s) - (1 / (2 * E)) * Math.log((1 - E * s) / (1 + E * s)));
};
const m = (phi: number) => Math.cos(phi) / Math.sqrt(1 - E2 * Math.sin(phi) ** 2);

const [PHI1, PHI2, PHI0, LAMBDA0, X0] = [24 * RAD, 31.5 * RAD, 24 * RAD, -84 * RAD, 400000];
const N = (m(PHI1) ** 2 - m(PHI2) ** 2) / (q(PHI2) - q(PHI1));
const C = m(PHI1) ** 2 + N * q(PHI1);
const rho = (phi: number) => (A * Math.sqrt(C - N * q(phi))) / N;
const RHO0 = rho(PHI0);

/** lon/lat (degrees) → EPSG:3087 metres. */
export function albers3087(lon: number, lat: number): [number, number] {
  const r = rho(lat * RAD);
  const theta = N * (lon * RAD - LAMBDA0);
  return [X0 + r * Math.sin(theta), RHO0 - r * Math.cos(theta)];
}

/** Area of planar rings: each polygon's first ring less its others, whatever their winding. */
export function planarArea(polygons: number[][][][]): number {
  const ringArea = (ring: number[][]) => Math.abs(ring.reduce((sum, p, i) => (i === 0 ? 0 : sum + ring[i - 1]![0]! * p[1]! - p[0]! * ring[i - 1]![1]!), 0)) / 2;
  return polygons.reduce((total, rings) => total + rings.reduce((sum, ring, i) => sum + (i === 0 ? 1 : -1) * ringArea(ring), 0), 0);
}

/** The MultiPolygon (or Polygon) rings of a GeoPackage geometry blob. */
export function gpkgPolygons(blob: Uint8Array): number[][][][] {
  const bytes = Buffer.from(blob);
  if (bytes.toString('latin1', 0, 2) !== 'GP') throw new Error('not a GeoPackage geometry');
  const flags = bytes[3]!;
  const envelopeDoubles = [0, 4, 6, 6, 8][(flags >> 1) & 0x07]!;
  let at = 8 + envelopeDoubles * 8;
  const read = (little: boolean) => ({
    u32: () => { const v = little ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at); at += 4; return v; },
    f64: () => { const v = little ? bytes.readDoubleLE(at) : bytes.readDoubleBE(at); at += 8; return v; },
  });
  const polygon = (): number[][][] => {
    const r = read(bytes[at++] === 1);
    if (r.u32() !== 3) throw new Error('not a polygon');
    return Array.from({ length: r.u32() }, () => Array.from({ length: r.u32() }, () => [r.f64(), r.f64()]));
  };
  const little = bytes[at] === 1;
  const type = little ? bytes.readUInt32LE(at + 1) : bytes.readUInt32BE(at + 1);
  if (type === 3) return [polygon()];
  if (type !== 6) throw new Error(`geometry type ${type}`);
  at += 5;
  return Array.from({ length: read(little).u32() }, polygon);
}

/** The cells of a workbook's sheet by its name, rows of values (numbers as numbers, empty cells undefined). */
export function xlsxSheet(xlsx: Uint8Array, name: string): (string | number | undefined)[][] {
  const files = unzipSync(xlsx);
  const text = (path: string) => strFromU8(files[path]!);
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  const shared = files['xl/sharedStrings.xml'] ? [...text('xl/sharedStrings.xml').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((si) => [...si[1]!.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => unescape(t[1]!)).join('')) : [];
  const sheets = [...text('xl/workbook.xml').matchAll(/<sheet [^>]*name="([^"]+)"[^>]*r:id="([^"]+)"/g)];
  const rid = sheets.find((s) => unescape(s[1]!) === name)![2]!;
  const target = new RegExp(`Id="${rid}"[^>]*Target="([^"]+)"|Target="([^"]+)"[^>]*Id="${rid}"`).exec(text('xl/_rels/workbook.xml.rels'))!;
  const path = `xl/${(target[1] ?? target[2]!).replace(/^\/?xl\//, '')}`;
  const column = (ref: string) => [...ref.replace(/\d+$/, '')].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
  return [...text(path).matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)].map((row) => {
    const cells: (string | number | undefined)[] = [];
    for (const cell of row[1]!.matchAll(/<c r="([A-Z]+\d+)"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const type = /t="(\w+)"/.exec(cell[2]!)?.[1];
      const value = /<v>([\s\S]*?)<\/v>/.exec(cell[3] ?? '')?.[1];
      const inline = /<t[^>]*>([\s\S]*?)<\/t>/.exec(cell[3] ?? '')?.[1];
      cells[column(cell[1]!)] = type === 's' ? shared[Number(value)] : type === 'inlineStr' ? unescape(inline ?? '') : type === 'str' ? unescape(value ?? '') : value === undefined ? undefined : Number(value);
    }
    return cells;
  });
}
