import gauges from '../../shared/data/hazards/gauges.json';
import { connectionSeaSurface } from '../../shared/domain/elevation-models/connection';
import { selectGauges } from '../../shared/domain/hazards/gauges';
import type { BBox } from '../../shared/domain/hazards/geo';
import { weightedMslNavd88 } from '../../shared/domain/hazards/tidal';
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
