import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { gaugeById, GAUGES } from '../../shared/domain/hazards/gauges';
import { htfThresholdsNavd88, mhhwAboveNavd88 } from '../../shared/domain/hazards/tidal';
import { dailyHighestTides, expectedFloodDays, minorThresholdNavd88 } from '../../shared/domain/hazards/tide-flood-days';
import { mslAboveNavd88 } from '../../shared/domain/hazards/tidal';
import { harmonicTides, timelineStepSeconds } from '../../shared/adapters/hazard-tide-predictor';

/** Station datums read from @neaps/tide-database itself (ESM-only, so in a child Node process). */
function packageDatums(ids: string[]): Record<string, Record<string, number>> {
  const script = `import { stationsById } from '@neaps/tide-database';
const ids = ${JSON.stringify(ids)};
process.stdout.write(JSON.stringify(Object.fromEntries(ids.map((id) => [id, stationsById.get('noaa/' + id).datums]))));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: path.join(__dirname, '../..') }).toString('utf8'));
}

describe('tidal datums', () => {
  const datums = packageDatums(GAUGES.map((g) => g.noaa_id));

  it('MHHW above NAVD88 is MHHW − NAVD88 of the NOAA station datums (Key West +0.013 m, Pensacola +0.285 m)', () => {
    expect(mhhwAboveNavd88(gaugeById('8724580')!)).toBeCloseTo(0.013, 3);
    expect(mhhwAboveNavd88(gaugeById('8729840')!)).toBeCloseTo(0.285, 3);
    for (const gauge of GAUGES) {
      const d = datums[gauge.noaa_id]!;
      expect(mhhwAboveNavd88(gauge)).toBeCloseTo(d.MHHW! - d.NAVD88!, 3);
    }
  });

  // The published TR 086 minor thresholds are rounded to the centimetre; the product computes them from GT.
  it('NOAA high tide flood thresholds sit the fl_gauges.csv heights above MHHW (to the centimetre)', () => {
    const rows = parse(readFileSync(path.join(__dirname, '../../shared/data/hazards/source/fl_gauges.csv')), { columns: true }) as Record<string, string>[];
    for (const row of rows) {
      const gauge = gaugeById(row.noaa_id!)!;
      const d = datums[row.noaa_id!]!;
      const t = htfThresholdsNavd88(gauge);
      expect(Math.abs(t.minor - (d.MHHW! - d.NAVD88! + Number(row.tr086_derived_minor_m_above_mhhw)))).toBeLessThanOrEqual(0.0051);
      expect(Math.abs(t.major - (d.MHHW! - d.NAVD88! + Number(row.formula_major_m_above_mhhw)))).toBeLessThanOrEqual(0.0061);
    }
  });
});

describe('tidal flood days from harmonic predictions', () => {
  it('Key West October 2026 highest predicted tide is 2.158 m above station datum', async () => {
    const gauge = gaugeById('8724580')!;
    const peaks = await harmonicTides.highWaters(gauge, new Date('2026-10-01T00:00:00Z'), new Date('2026-11-01T00:00:00Z'));
    expect(Math.max(...peaks.map((p) => p.level)) + gauge.datums.MSL).toBeCloseTo(2.158, 3);
  });

  it('never decrease as sea level rises, and reach every day once the rise passes the threshold', async () => {
    const gauge = gaugeById('8726520')!;
    const maxima = await dailyHighestTides(harmonicTides, gauge, 2070);
    expect(maxima).toHaveLength(365);
    expect(Math.min(...maxima)).toBeGreaterThan(-2);
    const threshold = minorThresholdNavd88(gauge);
    const aboveMsl = threshold - mslAboveNavd88(gauge);
    const counts = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.5, 2].map((rise) => expectedFloodDays(maxima, rise, aboveMsl, 0.1));
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1]!);
    expect(counts[0]).toBeLessThan(1);
    expect(counts[counts.length - 1]).toBeCloseTo(365, 0);
  });
});

describe('tide levels at many instants', () => {
  it('evenly spaced instants on the step grid are one timeline, equal to a prediction per instant', async () => {
    const { createTidePredictor } = await import('@neaps/tide-predictor');
    const gauge = gaugeById('8729840')!;
    const start = Date.UTC(2050, 0, 1);
    const days = Array.from({ length: 366 }, (_, i) => new Date(start + i * 86_400_000));
    expect(timelineStepSeconds(days)).toBe(86_400);
    const levels = await harmonicTides.levelsAt(gauge, days);
    const predictor = createTidePredictor(gauge.constituents);
    expect(levels).toHaveLength(days.length);
    // The timeline refreshes node corrections daily; one prediction per instant computes them at the instant.
    days.forEach((time, i) => expect(Math.abs(levels[i]! - predictor.getWaterLevelAtTime({ time }).level)).toBeLessThan(1e-4));
  });

  it('uneven or off-grid instants are predicted one by one', async () => {
    const gauge = gaugeById('8724580')!;
    const times = [new Date('2030-03-01T00:00:00Z'), new Date('2030-03-01T06:00:00Z'), new Date('2030-03-01T07:30:00Z')];
    expect(timelineStepSeconds(times)).toBeUndefined();
    expect(timelineStepSeconds([new Date('2030-03-01T00:00:07Z'), new Date('2030-03-02T00:00:07Z')])).toBeUndefined();
    expect(timelineStepSeconds([new Date('2030-03-01T00:00:00Z')])).toBeUndefined();
    const { createTidePredictor } = await import('@neaps/tide-predictor');
    const predictor = createTidePredictor(gauge.constituents);
    const levels = await harmonicTides.levelsAt(gauge, times);
    times.forEach((time, i) => expect(levels[i]).toBeCloseTo(predictor.getWaterLevelAtTime({ time }).level, 9));
  });
});
