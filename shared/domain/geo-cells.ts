import type { LatLon } from './hazards/geo';

/**
 * Geohash cells (base-32 names of interleaved longitude and latitude bits, longitude first).
 * Five characters hold 13 longitude and 12 latitude bits: cells 360/2¹³ by 180/2¹², 0.0439°
 * square (4.9 km north–south, 4.3 km east–west in Florida), so a point analysis's radius of at
 * most 5 km is covered by a handful of them, whatever the inventory holds.
 */
export const GEO_CELL_LENGTH = 5;

const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';
const BITS = GEO_CELL_LENGTH * 5;
const LON_BITS = Math.ceil(BITS / 2);
const LAT_BITS = BITS - LON_BITS;
const LON_CELLS = 2 ** LON_BITS;
const LAT_CELLS = 2 ** LAT_BITS;
const CELL_LON_DEG = 360 / LON_CELLS;
const CELL_LAT_DEG = 180 / LAT_CELLS;
/** The sphere `haversineKm` measures on (IUGG mean radius). */
const EARTH_RADIUS_KM = 6371.0088;
const DEG = 180 / Math.PI;

const lonIndex = (lon: number) => Math.min(LON_CELLS - 1, Math.max(0, Math.floor((lon + 180) / CELL_LON_DEG)));
const latIndex = (lat: number) => Math.min(LAT_CELLS - 1, Math.max(0, Math.floor((lat + 90) / CELL_LAT_DEG)));

function cellName(lonCell: number, latCell: number): string {
  let name = '';
  let value = 0;
  for (let bit = 0; bit < BITS; bit++) {
    const fromLon = bit % 2 === 0;
    const position = fromLon ? LON_BITS - 1 - bit / 2 : LAT_BITS - 1 - (bit - 1) / 2;
    value = value * 2 + (((fromLon ? lonCell : latCell) >> position) & 1);
    if (bit % 5 === 4) {
      name += BASE32[value];
      value = 0;
    }
  }
  return name;
}

/** The cell a point lies in. */
export function geoCell(point: LatLon): string {
  return cellName(lonIndex(point.lon), latIndex(point.lat));
}

/**
 * Every cell that holds a point within `radiusKm` (great-circle) of `point`: the cells of the
 * smallest lon/lat box around that circle (its longitude half-width asin(sin(r/R)/cos φ) is
 * exact on the sphere), so no point within the radius is missed.
 */
export function geoCellsCovering(point: LatLon, radiusKm: number): string[] {
  const angle = radiusKm / EARTH_RADIUS_KM;
  const south = point.lat - angle * DEG;
  const north = point.lat + angle * DEG;
  const widest = Math.cos(Math.min(Math.PI / 2, Math.max(Math.abs(south), Math.abs(north)) / DEG));
  const halfWidth = widest <= Math.sin(angle) ? 180 : Math.asin(Math.sin(angle) / widest) * DEG;
  const cells: string[] = [];
  const [west, east] = halfWidth >= 180 ? [0, LON_CELLS - 1] : [lonIndex(point.lon - halfWidth), lonIndex(point.lon + halfWidth)];
  for (let lat = latIndex(south); lat <= latIndex(north); lat++) {
    for (let lon = west; lon <= east; lon++) cells.push(cellName(lon, lat));
  }
  return cells;
}
