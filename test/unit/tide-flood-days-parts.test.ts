import { gaugeById, type Gauge } from '../../shared/domain/hazards/gauges';
import { localSeaLevelRise } from '../../shared/domain/hazards/local-slr';
import { mslAboveNavd88 } from '../../shared/domain/hazards/tidal';
import {
  calibrateNontidalSpread, dailyHighestTides, expectedFloodDays, minorThresholdNavd88, peakShareAtOrAbove, projectFloodDays, type DailyMaxPeaks, type TidePredictor,
} from '../../shared/domain/hazards/tide-flood-days';

/**
 * The parts of the flood-day count around the harmonic predictor, against a predictor written
 * here: a day's highest water is one of its high waters or the level at one of its ends.
 */
const DAY = 86_400_000;

/**
 * Levels that rise through each day of the year by the day's number (mm), high waters where asked.
 * It also answers a high water an hour before the window, as a predictor padding its search may:
 * the count must not take it for the year's first day.
 */
function predictor(peaks: { time: Date; level: number }[]): TidePredictor {
  return {
    highWaters: async (_gauge, start, end) => peaks.filter((p) => (p.time >= start && p.time <= end) || p.time.getTime() === start.getTime() - 3_600_000),
    levelsAt: async (_gauge, times) => times.map((t) => (t.getTime() - Date.UTC(t.getUTCFullYear(), 0, 1)) / DAY / 1000),
  };
}

describe('the highest tide of each day', () => {
  it('is the higher of the day\'s two ends unless a high water of that day passes them', async () => {
    const start = Date.UTC(2031, 0, 1);
    const peaks = [
      { time: new Date(start - 3_600_000), level: 9 }, // the last hour of the year before: not this year's
      { time: new Date(start + 6 * 3_600_000), level: 0.5 }, // day 0, above its ends (0 and 0.001)
      { time: new Date(start + 40 * DAY + 3_600_000), level: 0.01 }, // day 40, below its ends: changes nothing
      { time: new Date(start + 364 * DAY + 23 * 3_600_000), level: 2 }, // the year's last day
      { time: new Date(start + 365 * DAY), level: 7 }, // midnight ending the year: the next year's first instant
    ];
    const maxima = await dailyHighestTides(predictor(peaks), {} as Gauge, 2031);
    const expected = Array.from({ length: 365 }, (_, day) => (day + 1) / 1000);
    expected[0] = 0.5;
    expected[364] = 2;
    expect(maxima).toEqual(expected);
    // Nothing is set outside the year's days.
    expect(Object.keys(maxima)).toHaveLength(365);
  });

  it('counts 366 days in a leap year', async () => {
    expect(await dailyHighestTides(predictor([]), {} as Gauge, 2032)).toHaveLength(366);
  });
});

describe('the share of a record\'s peaks at or above a level', () => {
  const record = { peaks_m_above_annual_msl: [0.9, 0.8, 0.8, 0.7, 0.6] } as DailyMaxPeaks;
  it.each([[1, 0], [0.9, 1 / 5], [0.85, 1 / 5], [0.8, 3 / 5], [0.7, 4 / 5], [0.6, 1], [0.1, 1]])('at %f m is %f', (level, share) => {
    expect(peakShareAtOrAbove(record, level)).toBe(share);
  });
});

describe('the nontidal spread calibrated on observed flood days', () => {
  it('is undefined when nothing was observed to calibrate on', () => {
    const maxima = Array.from({ length: 365 }, () => 0.3);
    expect(calibrateNontidalSpread(maxima, 0, 0.5, 0)).toBeUndefined();
    expect(calibrateNontidalSpread(maxima, 0, 0.5, Number.NaN)).toBeUndefined();
    expect(calibrateNontidalSpread(maxima, 0, 0.5, 3)).toBeGreaterThan(0);
  });
});

describe('projected flood days', () => {
  const peaklessGauge = gaugeById('8727520')!; // Cedar Key: observed flood days, no peak record
  const unobservedGauge = gaugeById('8670870')!; // Fort Pulaski: neither

  it('does not keep a year whose prediction failed: the next request predicts it again', async () => {
    let failures = 1;
    const good = predictor([]);
    const flaky: TidePredictor = {
      highWaters: good.highWaters,
      levelsAt: async (gauge, times) => {
        if (failures-- > 0) throw new Error('predictor unavailable');
        return good.levelsAt(gauge, times);
      },
    };
    await expect(projectFloodDays(flaky, unobservedGauge, 'intermediate', '50', 2041)).rejects.toThrow('predictor unavailable');
    await expect(projectFloodDays(flaky, unobservedGauge, 'intermediate', '50', 2041)).resolves.toMatchObject({ basis: 'default_nontidal_spread' });
  });

  it('calibrates the spread at the sea level of 2012: the rise since the epoch to 2000, and 0.6 of the intermediate median rise 2000–2020', async () => {
    const projection = await projectFloodDays(predictor([]), peaklessGauge, 'low', '50', 2050);
    const atGauge = { method: 'single_gauge' as const, gauges: [{ gauge: peaklessGauge, distance_km: 0, weight: 1 }], reason: '' };
    const level2012 = peaklessGauge.rise_1992_to_2000_m['50'] + (12 / 20) * localSeaLevelRise(atGauge, 'intermediate', '50', 2020);
    const threshold = minorThresholdNavd88(peaklessGauge) - mslAboveNavd88(peaklessGauge);
    const maxima2012 = await dailyHighestTides(predictor([]), peaklessGauge, 2012);
    // At that level, 2012's tides with the spread give the observed 2007–2016 mean.
    expect(expectedFloodDays(maxima2012, level2012, threshold, projection.nontidal_sd_m)).toBeCloseTo(projection.observed_mean_2007_2016!, 2);
  });

  it('says whether the count was floored at the observed mean, and how its spread was found', async () => {
    // The spread is calibrated on 2012's tides; other years' tides stand a metre lower here, far
    // below the flood level: in 2030 the projection rests on the 2007–2016 mean.
    const base = predictor([]);
    const lowerAfter2012: TidePredictor = {
      highWaters: base.highWaters,
      levelsAt: async (gauge, times) => (await base.levelsAt(gauge, times)).map((level, i) => (times[i]!.getUTCFullYear() === 2012 ? level : level - 1)),
    };
    const low = await projectFloodDays(lowerAfter2012, peaklessGauge, 'low', '50', 2030);
    expect(low.basis).toBe('calibrated_on_observed_days');
    expect(low.calibrated).toBe(true);
    expect(low.observed_mean_2007_2016).toBeGreaterThan(0);
    expect(low.expected_days).toBeLessThan(low.observed_mean_2007_2016!);
    expect(low.floored_at_observed_mean).toBe(true);
    expect(low.days).toBe(low.observed_mean_2007_2016);
    // A high rise by 2100 puts every day above the flood level: nothing to floor.
    const high = await projectFloodDays(base, peaklessGauge, 'high', '50', 2100);
    expect(high.expected_days).toBeGreaterThan(high.observed_mean_2007_2016!);
    expect(high.floored_at_observed_mean).toBe(false);
    expect(high.days).toBe(high.expected_days);
    // Without observed days or peaks: the default spread, not calibrated, never floored.
    const unobserved = await projectFloodDays(predictor([]), unobservedGauge, 'intermediate', '50', 2050);
    expect(unobserved).toMatchObject({ basis: 'default_nontidal_spread', calibrated: false, nontidal_sd_m: 0.1, observed_mean_2007_2016: null, floored_at_observed_mean: false });
  });
});
