import type { Geometry, Position } from 'geojson';

/**
 * Well-known binary (OGC Simple Features / ISO SQL/MM) to GeoJSON geometry, in two dimensions:
 * Z and M values are read past. Handles both byte orders, ISO dimension codes (1001, 2001, 3001)
 * and the EWKB flag bits PostGIS and GDAL write.
 */
export class WkbError extends Error {}

const TYPE_NAMES = ['', 'Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon', 'GeometryCollection'] as const;
/** Nesting deeper than this is no real layer; it guards the recursion. */
const MAX_DEPTH = 32;

class Reader {
  offset = 0;
  constructor(private readonly view: DataView) {}

  need(bytes: number): void {
    if (this.offset + bytes > this.view.byteLength) throw new WkbError(`The geometry ends early (byte ${this.offset} of ${this.view.byteLength}).`);
  }
  uint8(): number {
    this.need(1);
    return this.view.getUint8(this.offset++);
  }
  uint32(little: boolean): number {
    this.need(4);
    const value = this.view.getUint32(this.offset, little);
    this.offset += 4;
    return value;
  }
  float64(little: boolean): number {
    this.need(8);
    const value = this.view.getFloat64(this.offset, little);
    this.offset += 8;
    return value;
  }
  /** A count, refused when the bytes left cannot hold that many items of `minBytes` each. */
  count(little: boolean, minBytes: number): number {
    const n = this.uint32(little);
    if (n * minBytes > this.view.byteLength - this.offset) throw new WkbError(`The geometry declares ${n} parts that its bytes cannot hold.`);
    return n;
  }
}

function readGeometry(reader: Reader, depth: number): Geometry {
  if (depth > MAX_DEPTH) throw new WkbError('The geometry is nested too deeply.');
  const order = reader.uint8();
  if (order > 1) throw new WkbError(`Unknown byte order ${order}.`);
  const little = order === 1;
  const code = reader.uint32(little);
  // EWKB: 0x80000000 Z, 0x40000000 M, 0x20000000 SRID follows.
  let dimensions = 2 + (code & 0x80000000 ? 1 : 0) + (code & 0x40000000 ? 1 : 0);
  if (code & 0x20000000) reader.uint32(little);
  let base = code & 0x0fffffff;
  if (base >= 1000) {
    const iso = Math.floor(base / 1000); // 1 Z, 2 M, 3 ZM
    dimensions = 2 + (iso === 3 ? 2 : 1);
    base %= 1000;
  }
  const type = TYPE_NAMES[base];
  if (!type) throw new WkbError(`Unsupported geometry type code ${code}.`);
  const position = (): Position => {
    const x = reader.float64(little);
    const y = reader.float64(little);
    for (let d = 2; d < dimensions; d++) reader.float64(little);
    return [x, y];
  };
  const positions = () => Array.from({ length: reader.count(little, dimensions * 8) }, position);
  const rings = () => Array.from({ length: reader.count(little, 4) }, positions);
  const members = <T extends Geometry>(expected: string) =>
    Array.from({ length: reader.count(little, 5) }, () => {
      const member = readGeometry(reader, depth + 1);
      if (expected !== 'any' && member.type !== expected) throw new WkbError(`A ${type} holds a ${member.type}.`);
      return member as T;
    });
  switch (type) {
    case 'Point': {
      const [x, y] = position();
      // An empty point is written as NaN coordinates.
      return Number.isNaN(x) && Number.isNaN(y) ? { type: 'Point', coordinates: [] } : { type: 'Point', coordinates: [x!, y!] };
    }
    case 'LineString': return { type: 'LineString', coordinates: positions() };
    case 'Polygon': return { type: 'Polygon', coordinates: rings() };
    case 'MultiPoint': return { type: 'MultiPoint', coordinates: members<{ type: 'Point'; coordinates: Position }>('Point').map((p) => p.coordinates) };
    case 'MultiLineString': return { type: 'MultiLineString', coordinates: members<{ type: 'LineString'; coordinates: Position[] }>('LineString').map((l) => l.coordinates) };
    case 'MultiPolygon': return { type: 'MultiPolygon', coordinates: members<{ type: 'Polygon'; coordinates: Position[][] }>('Polygon').map((p) => p.coordinates) };
    case 'GeometryCollection': return { type: 'GeometryCollection', geometries: members('any') };
  }
}

/** The GeoJSON geometry of WKB bytes; bytes left over after the geometry are an error. */
export function wkbToGeometry(bytes: Uint8Array): Geometry {
  const reader = new Reader(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const geometry = readGeometry(reader, 0);
  if (reader.offset !== bytes.byteLength) throw new WkbError(`${bytes.byteLength - reader.offset} bytes follow the geometry.`);
  return geometry;
}

/**
 * The geometry of a GeoPackage geometry blob (GeoPackage 1.3 §2.1.3): 'GP', version, flags, the
 * srs_id and an optional envelope, then WKB. `null` for a blob flagged empty.
 */
export function gpkgBlobToGeometry(blob: Uint8Array): Geometry | null {
  if (blob.length < 8 || blob[0] !== 0x47 || blob[1] !== 0x50) throw new WkbError('Not a GeoPackage geometry (no "GP" header).');
  const flags = blob[3]!;
  if (flags & 0x20) throw new WkbError('Extended GeoPackage geometry types are not supported.');
  const envelope = (flags >> 1) & 0x07;
  const envelopeBytes = [0, 32, 48, 48, 64][envelope];
  if (envelopeBytes === undefined) throw new WkbError(`Invalid envelope indicator ${envelope}.`);
  if (flags & 0x10) return null;
  return wkbToGeometry(blob.subarray(8 + envelopeBytes));
}
