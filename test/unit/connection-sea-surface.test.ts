import gauges from '../../shared/data/hazards/gauges.json';
import { selectGauges } from '../../shared/domain/hazards/gauges';
import type { BBox } from '../../shared/domain/hazards/geo';
import { lowestMslNavd88Within as connectionSeaSurface, weightedMslNavd88 } from '../../shared/domain/hazards/tidal';
import { millimetreBelow, stationMslNavd88, tampaBaySeaSurface } from '../helpers/tide-datums';

describe('the sea surface a model\'s connection is traced for', () => {
  it('is the gauge\'s own mean sea level, to the millimetre, for a model at a gauge', () => {
    // Pensacola (8729840), +0.090 m: at the gauge (where the gauge list places it) the selection is the gauge alone.
    const at = gauges.find((gauge) => gauge.noaa_id === '8729840')!;
    expect(connectionSeaSurface([at.lon, at.lat, at.lon, at.lat])).toBe(millimetreBelow(stationMslNavd88('8729840')));
    expect(connectionSeaSurface([at.lon, at.lat, at.lon, at.lat])).toBe(0.09);
  });

  it('takes the lower of two gauges a Tampa Bay model is given, never their weighted mean', () => {
    const box: BBox = [-82.7, 27.7, -82.5, 27.9];
    expect(connectionSeaSurface(box)).toBe(tampaBaySeaSurface());
    expect(connectionSeaSurface(box)).toBe(-0.096);
  });

  it('is the lowest mean sea level of the gauges selected on a 9 × 9 lattice over the box, corners included', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const boxes: BBox[] = Array.from({ length: 60 }, () => {
      const size = 0.1 + random() * 2;
      const west = -87.5 + random() * 7, south = 24.5 + random() * 6;
      return [west, south, west + size, south + size * random()];
    });
    // Boxes whose gauges change just past their east or north edge (the Big Bend, the Gulf off Tampa Bay).
    boxes.push([-84.75, 30.5, -83.75, 31.5], [-87, 27.75, -86, 28.25]);
    for (const box of boxes) {
      let lowest = Infinity;
      for (let i = 0; i <= 8; i++) {
        for (let j = 0; j <= 8; j++) {
          const point = { lon: box[0] + ((box[2] - box[0]) * i) / 8, lat: box[1] + ((box[3] - box[1]) * j) / 8 };
          for (const { gauge } of selectGauges(point).gauges) lowest = Math.min(lowest, stationMslNavd88(gauge.noaa_id));
        }
      }
      expect(connectionSeaSurface(box)).toBe(millimetreBelow(lowest));
    }
  });

  it('lies at or below the mean sea level of every location inside the box, and a gauge\'s level is one of them', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const gaugeLevels = new Set(gauges.map((gauge) => millimetreBelow(stationMslNavd88(gauge.noaa_id))));
    for (const box of [[-82.9, 26.0, -81.6, 28.2], [-81.9, 24.5, -80.1, 25.9], [-87.6, 30.2, -84.8, 30.9]] as BBox[]) {
      const surface = connectionSeaSurface(box);
      expect(gaugeLevels.has(surface)).toBe(true);
      let highest = -Infinity;
      for (let i = 0; i < 400; i++) {
        const point = { lon: box[0] + random() * (box[2] - box[0]), lat: box[1] + random() * (box[3] - box[1]) };
        const level = weightedMslNavd88(selectGauges(point));
        expect(level).toBeGreaterThanOrEqual(surface);
        highest = Math.max(highest, level);
      }
      // A box across several gauges: the surface is the lowest, well under what most of it stands on.
      expect(highest).toBeGreaterThan(surface);
    }
  });
});
