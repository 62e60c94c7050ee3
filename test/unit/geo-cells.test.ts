import { geoCell, geoCellsCovering, GEO_CELL_LENGTH } from '../../shared/domain/geo-cells';

/** A point `km` from `from` on `bearingDeg` (the sphere's direct problem, written out here). */
function destination(from: { lat: number; lon: number }, km: number, bearingDeg: number) {
  const R = 6371.0088;
  const rad = Math.PI / 180;
  const d = km / R;
  const lat1 = from.lat * rad;
  const b = bearingDeg * rad;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lon2 = from.lon * rad + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { lat: lat2 / rad, lon: lon2 / rad };
}

describe('geohash cells', () => {
  it('names cells as geohash does', () => {
    // Published geohashes: u4pruydqqvj (57.64911, 10.40744), ezs42 (42.6, -5.6).
    expect(geoCell({ lat: 57.64911, lon: 10.40744 })).toBe('u4pru');
    expect(geoCell({ lat: 42.6, lon: -5.6 })).toBe('ezs42');
    expect(geoCell({ lat: 25.7617, lon: -80.1918 })).toHaveLength(GEO_CELL_LENGTH);
  });

  it('covers every point within the radius with a handful of cells', () => {
    for (const centre of [{ lat: 24.5551, lon: -81.78 }, { lat: 30.3322, lon: -81.6557 }, { lat: 27.95, lon: -82.4572 }]) {
      for (const radiusKm of [0.1, 2, 5]) {
        const cells = geoCellsCovering(centre, radiusKm);
        expect(cells.length).toBeLessThanOrEqual(16);
        expect(new Set(cells).size).toBe(cells.length);
        for (let bearing = 0; bearing < 360; bearing += 7.5) {
          for (const fraction of [0.5, 0.999]) expect(cells).toContain(geoCell(destination(centre, radiusKm * fraction, bearing)));
        }
      }
    }
  });

  it('leaves out cells wholly beyond the radius', () => {
    const centre = { lat: 27.95, lon: -82.4572 };
    const cells = geoCellsCovering(centre, 2);
    // 0.0439° cells: 10 km away is at least two cells beyond a 2 km circle's box.
    for (let bearing = 0; bearing < 360; bearing += 45) expect(cells).not.toContain(geoCell(destination(centre, 10, bearing)));
  });
});
