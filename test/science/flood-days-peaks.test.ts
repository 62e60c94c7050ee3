import { harmonicTides } from '../../shared/adapters/hazard-tide-predictor';
import { gaugeById } from '../../shared/domain/hazards/gauges';
import { dailyHighestTides, dailyMaxPeaks, daysFromPeaks, projectFloodDays, type DailyMaxPeaks } from '../../shared/domain/hazards/tide-flood-days';
import type { ScenarioId } from '../../shared/domain/hazards/scenarios';
import { ncGauges, observedMean2007to2016, packageDatums, potRecord, tr086Series } from './readers/raw';

/** The UHSLC sites of the peak files and their NOAA gauges (UHSLC / NOAA station lists). */
const SITES: Record<string, string> = {
  '8720030': 'FernandinaBeach', '8720218': 'MayportFL', '8721604': 'PortCanaveralFL', '8723214': 'VirginiaKeyFL', '8724580': 'KeyWestFL',
  '8725110': 'NaplesFL', '8726520': 'StPetersburgFL', '8726724': 'ClearwaterBchFL', '8728690': 'ApalachicolaFL', '8729210': 'PanamaCityBeach', '8729840': 'PensacolaFL',
};
const FLORIDA_GAUGES = ['8720030', '8720218', '8721604', '8723214', '8723970', '8724580', '8725110', '8725520', '8726520', '8726724', '8727520', '8728690', '8729108', '8729210', '8729840'];
const SCENARIOS: ScenarioId[] = ['low', 'intermediate_low', 'intermediate', 'intermediate_high', 'high'];
const DECADES = [2020, 2030, 2040, 2050, 2060, 2070, 2080, 2090, 2100];

const nc = ncGauges();
const datums = packageDatums(Object.keys(SITES));

/** Minor threshold above the epoch MSL from the NOAA datums: (MHHW − MSL) + 0.04·GT + 0.50 m. */
const thresholdAboveMsl = (id: string) => datums[id]!.MHHW! - datums[id]!.MSL! + 0.04 * datums[id]!.GT! + 0.5;
/** Observed rise from the datum epoch centre (1992) to a year, median trajectory of the NOAA file (m). */
const observedRise = (id: string, year: number) => {
  const g = nc.find((x) => x.id === id)!;
  return (g.trajectory(1, year) - g.trajectory(1, 1992)) / 1000;
};
/** Epoch rise 1992→2000 plus the projected median rise since 2000 (m). */
const projectedRise = (id: string, scenario: ScenarioId, year: number) => observedRise(id, 2000) + nc.find((x) => x.id === id)!.total(scenario, 1, year) / 1000;
const shareAtOrAbove = (peaks: number[], level: number) => peaks.filter((p) => p >= level).length / peaks.length;

describe('flood days from the observed daily-maximum peaks (Sweet et al.), recomputed from the raw peak files', () => {
  it.each(Object.entries(SITES))('gauge %s (%s): the peaks decide the count above the 99th percentile, for every scenario and decade', async (id, site) => {
    const raw = potRecord(site);
    const gauge = gaugeById(id)!;
    const calibrationTides = await dailyHighestTides(harmonicTides, gauge, 2012);
    // A record is used unless the predicted tides alone pass its percentile on more than 1 % of days.
    const tideOnlyDays = calibrationTides.filter((level) => level >= raw.threshold).length;
    const first = await projectFloodDays(harmonicTides, gauge, 'intermediate', '50', 2050);
    if (tideOnlyDays >= (1 - raw.percentile) * calibrationTides.length) {
      expect(first.basis).toBe('calibrated_on_observed_days');
      return;
    }
    expect(first.basis).toBe('observed_daily_max_peaks');
    // The shipped record is the raw file's peaks, in metres.
    const sortedRaw = [...raw.peaks].sort((a, b) => b - a);
    const shipped = dailyMaxPeaks(gauge)!.peaks_m_above_annual_msl;
    expect(shipped).toHaveLength(sortedRaw.length);
    expect(sortedRaw.every((x, i) => Math.abs(x - shipped[i]!) < 1e-12)).toBe(true);
    for (const scenario of SCENARIOS) {
      for (const year of DECADES) {
        const p = await projectFloodDays(harmonicTides, gauge, scenario, '50', year);
        const level = thresholdAboveMsl(id) - projectedRise(id, scenario, year);
        expect(p.peaks!.threshold_m_above_annual_msl).toBeCloseTo(raw.threshold, 9);
        // Datums rounded to the millimetre in the product, float32 in the package.
        expect(Math.abs(p.peaks!.flood_level_m_above_annual_msl - level)).toBeLessThan(0.002);
        if (level >= raw.threshold + 0.002) {
          // Peaks within 2 mm of the level may fall either side of it.
          const near = raw.peaks.filter((x) => Math.abs(x - level) <= 0.002).length / raw.peaks.length;
          expect(Math.abs(p.expected_days - p.peaks!.days_at_threshold * shareAtOrAbove(raw.peaks, level))).toBeLessThanOrEqual(p.peaks!.days_at_threshold * near + 1e-9);
        } else if (level < raw.threshold - 0.002) {
          expect(p.expected_days).toBeGreaterThanOrEqual(p.peaks!.days_at_threshold);
        }
      }
    }
  });

  it.each(Object.entries(SITES))('gauge %s (%s): in the 2012 tide year 1 %% of the days reach the 99th percentile', async (id, site) => {
    const raw = potRecord(site);
    const projection = await projectFloodDays(harmonicTides, gaugeById(id)!, 'intermediate', '50', 2030);
    if (projection.basis !== 'observed_daily_max_peaks') return;
    const tides2012 = await dailyHighestTides(harmonicTides, gaugeById(id)!, 2012);
    const record = rawRecord(id, raw);
    expect(daysFromPeaks(tides2012, record, raw.threshold, projection.nontidal_sd_m).atThreshold).toBeCloseTo((1 - raw.percentile) * 366, 2);
  });

  // A check the method was not tuned on: the peaks and the tides hindcast the observed 2007–2016 counts.
  it.each(Object.entries(SITES))('gauge %s (%s): hindcasts the observed 2007–2016 mean of minor flood days within 2 days', async (id, site) => {
    const gauge = gaugeById(id)!;
    const projection = await projectFloodDays(harmonicTides, gauge, 'intermediate', '50', 2030);
    if (projection.basis !== 'observed_daily_max_peaks') return;
    const record = rawRecord(id, potRecord(site));
    let sum = 0;
    for (let year = 2007; year <= 2016; year++) {
      const tides = await dailyHighestTides(harmonicTides, gauge, year);
      sum += daysFromPeaks(tides, record, thresholdAboveMsl(id) - observedRise(id, year), projection.nontidal_sd_m).days;
    }
    expect(Math.abs(sum / 10 - observedMean2007to2016(id))).toBeLessThanOrEqual(2);
  });
});

describe('flood days against NOAA TR 086 (2017 scenarios) and the observed counts', () => {
  it.each(FLORIDA_GAUGES)('gauge %s: monotone in the rise, never below the observed mean, TR 086 within the 2022 envelope', async (id) => {
    const gauge = gaugeById(id)!;
    const floor = observedMean2007to2016(id);
    const days = new Map<string, number>();
    for (const scenario of SCENARIOS) {
      let previous = -1;
      for (const year of [2030, 2050, 2070]) {
        const p = await projectFloodDays(harmonicTides, gauge, scenario, '50', year);
        expect(p.days).toBeGreaterThanOrEqual(floor);
        expect(p.days).toBeGreaterThanOrEqual(previous);
        previous = p.days;
        days.set(`${scenario}|${year}`, p.days);
      }
    }
    for (const year of [2030, 2050, 2070]) {
      for (let i = 1; i < SCENARIOS.length; i++) expect(days.get(`${SCENARIOS[i]}|${year}`)).toBeGreaterThanOrEqual(days.get(`${SCENARIOS[i - 1]}|${year}`)!);
    }
    for (const year of [2050, 2070]) {
      // TR 086's Intermediate (2017: 1.0 m global rise by 2100) lies between the 2022 Low and High.
      const int2017 = tr086Series(id, 'int').get(year)!;
      expect(int2017).toBeGreaterThanOrEqual(days.get(`low|${year}`)!);
      expect(int2017).toBeLessThanOrEqual(days.get(`high|${year}`)!);
      // The 2017 and 2022 Low scenarios (0.3 m by 2100) agree to the order of magnitude (a factor of 5, 2 days' slack).
      const low2017 = tr086Series(id, 'low_scenario').get(year)! + 2;
      const low2022 = days.get(`low|${year}`)! + 2;
      expect(Math.max(low2017 / low2022, low2022 / low2017)).toBeLessThanOrEqual(5);
    }
  });
});

function rawRecord(id: string, raw: ReturnType<typeof potRecord>): DailyMaxPeaks {
  return {
    noaa_id: id, site: SITES[id]!, threshold_percentile: raw.percentile, threshold_m_above_annual_msl: raw.threshold, decluster_days: 3,
    first_year: 0, last_year: 0, days_of_data: 0, peaks_m_above_annual_msl: [...raw.peaks].sort((a, b) => b - a),
  };
}
