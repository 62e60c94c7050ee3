import { knownCrs } from '../assets/crs';

/**
 * NAD27 grids (the USGS 7.5-minute quads): proj4 has no NADCON grid offline, so the NAD27 → WGS84
 * shift is the published three-parameter CONUS mean (EPSG:1173, dX −8, dY 160, dZ 176 m, stated
 * accuracy ±10 m per axis) — a third of a 30 m cell, where ignoring the datum would be off by ~230 m.
 */
const NAD27_TOWGS84 = '+ellps=clrk66 +towgs84=-8,160,176,0,0,0,0';
const NAD27: Record<number, { name: string; proj4: string }> = {
  4267: { name: 'NAD27', proj4: `+proj=longlat ${NAD27_TOWGS84} +no_defs` },
  26716: { name: 'NAD27 / UTM zone 16N', proj4: `+proj=utm +zone=16 ${NAD27_TOWGS84} +units=m +no_defs` },
  26717: { name: 'NAD27 / UTM zone 17N', proj4: `+proj=utm +zone=17 ${NAD27_TOWGS84} +units=m +no_defs` },
};

export interface DemCrs { epsg: number; name: string; proj4: string; geographic: boolean }

/** The CRS of a DEM by EPSG code, or undefined when the service does not know it. */
export function demCrs(epsg: number): DemCrs | undefined {
  const nad27 = NAD27[epsg];
  if (nad27) return { epsg, ...nad27, geographic: epsg === 4267 };
  const known = knownCrs(epsg);
  return known && { epsg, name: known.name, proj4: known.proj4, geographic: !known.projected };
}
