/**
 * Rebuilds the gauge data of `shared/data/hazards/` from the raw NOAA 2022 projections
 * (`TR_local_projections.nc`, netCDF4), the gauge id table (`stations.json`) and the NOAA datums
 * of `@neaps/tide-database`:
 *   npx tsx scripts/derive-hazard-gauges.ts <reference-data-folder>
 * Writes `gauges.json` (the gauges of F.A.C. 62S-7.012(1)(b) that the file holds, with the file's
 * quality fields and the 1992→2000 rise of the trajectory), `slr-scenarios-tr2022.json` (decadal
 * values, metres relative to 2000), `tide-stations.json` (datums and constituents) and
 * `datum-stations.json` (MHHW and NAVD88 of every NOAA reference station in and around Florida
 * with its own harmonic constants and a NAVD88 tie: what the local datum check compares with), and
 * from `TR_regional_projections.nc` `slr-regional-trajectory-tr2022.json` (the 1992→2000 rise of the
 * regional trajectories of the two Florida regions, which stands in for a warned gauge's own). No
 * value is changed beyond mm → m; the raw files themselves are copied to `test/fixtures/raw/` for the
 * science tests.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as hdf5 from 'jsfive';
import rule from '../shared/data/hazards/fac-62s-7-gauges.json';

const OUT = path.join(__dirname, '../shared/data/hazards');
const SCENARIOS: Record<string, string> = { Low: 'low', IntLow: 'intermediate_low', Int: 'intermediate', IntHigh: 'intermediate_high', High: 'high' };
const PERCENTILES = ['17', '50', '83'];
const DECADES = Array.from({ length: 14 }, (_, i) => 2020 + i * 10);

function write(name: string, value: unknown): void {
  writeFileSync(path.join(OUT, name), `${JSON.stringify(value)}\n`);
}

/** Millimetres (float32 in the file) → metres, to 0.01 mm. */
const metres = (mm: number) => Math.round(mm * 100) / 100000;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
/** Florida and the shore just beyond its borders (west, south, east, north). */
const DATUM_STATION_BBOX = [-87.7, 24.3, -79.9, 31.1] as const;

async function main(): Promise<void> {
  const source = process.argv[2];
  if (!source) throw new Error('Usage: derive-hazard-gauges.ts <reference-data-folder>');
  const ncPath = path.join(source, 'raw', 'TR_local_projections.nc');
  const bytes = readFileSync(ncPath);
  const file = new hdf5.File(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), 'TR_local_projections.nc');
  const values = (name: string) => file.get(name).value as ArrayLike<number>;
  const names = file.get('tg').value as string[];
  const years = Array.from(values('years'), Number);
  const nGauges = names.length;
  const nYears = years.length;
  // Variables are [percentile][year][gauge].
  const at = (data: ArrayLike<number>, p: number, yearIndex: number, g: number) => data[(p * nYears + yearIndex) * nGauges + g]!;
  const stations = JSON.parse(readFileSync(path.join(source, 'raw', 'stations.json'), 'utf8')) as Record<string, { id: string; scn_name: string; lat: number; lon: number }>;
  const qc = values('QC_flag');
  const obsYears = values('number_of_observation_years_for_trajectory_estimation');
  const geq30 = values('number_of_observation_years_for_trajectory_estimation_geq_30');
  const trajectory = values('rsl_trajectory');
  const i1992 = years.indexOf(1992);
  const i2000 = years.indexOf(2000);

  const inFile = rule.gauges.filter((g) => g.noaa_id !== null && Object.values(stations).some((s) => s.id === g.noaa_id && names.includes(s.scn_name)));
  const { stationsById } = await import('@neaps/tide-database');
  const gauges = inFile.map((g) => {
    const station = Object.values(stations).find((s) => s.id === g.noaa_id)!;
    const index = names.indexOf(station.scn_name);
    const warnings: string[] = [];
    if (qc[index] === 1) warnings.push('NOAA 2022 quality-control flag set (possible issue).');
    if (geq30[index] !== 1) warnings.push(`NOAA 2022 trajectory estimated from ${obsYears[index]} observation-years, fewer than 30.`);
    return {
      noaa_id: g.noaa_id!, name: station.scn_name, lat: station.lat, lon: station.lon,
      tr2022: {
        qc_flag: Number(qc[index]), obs_years_for_trajectory: Number(obsYears[index]), trajectory_geq_30_years: geq30[index] === 1,
        // The trajectory is relative to 2000, so the 1992→2000 rise is its 2000 value minus its 1992 value.
        rise_1992_to_2000_m: Object.fromEntries(PERCENTILES.map((p, pi) => [p, metres(at(trajectory, pi, i2000, index) - at(trajectory, pi, i1992, index))])),
      },
      data_warnings: warnings,
    };
  });
  write('gauges.json', gauges);

  write('slr-scenarios-tr2022.json', {
    units: 'm', baseline_year: 2000, years: DECADES,
    gauges: gauges.map((g) => {
      const index = names.indexOf(g.name);
      return {
        noaa_id: g.noaa_id, name: g.name,
        series: Object.fromEntries(Object.entries(SCENARIOS).map(([ncName, key]) => {
          const data = values(`rsl_total_${ncName}`);
          return [key, Object.fromEntries(PERCENTILES.map((p, pi) => [p, DECADES.map((y) => metres(at(data, pi, years.indexOf(y), index)))]))];
        })),
      };
    }),
  });

  write('tide-stations.json', gauges.map(({ noaa_id: id }) => {
    const station = stationsById.get(`noaa/${id}`);
    if (!station) throw new Error(`No tide station noaa/${id}`);
    const d = station.datums as Record<string, number>;
    return {
      noaa_id: id, name: station.name, lat: station.latitude, lon: station.longitude,
      epoch: station.epoch, datums_m_above_station_datum: {
        MHHW: round3(d.MHHW!), MHW: round3(d.MHW!), MSL: round3(d.MSL!), MLW: round3(d.MLW!), MLLW: round3(d.MLLW!), NAVD88: round3(d.NAVD88!), GT: round3(d.GT!),
      },
      constituents: (station.harmonic_constituents as { name: string; amplitude: number; phase: number }[])
        .map((c) => ({ name: c.name, amplitude: c.amplitude, phase: c.phase })),
    };
  }));

  // Subordinate stations are left out: their datums are often their reference station's, copied.
  const { stations: allStations } = await import('@neaps/tide-database');
  const [west, south, east, north] = DATUM_STATION_BBOX;
  const reference = allStations.filter((s) => s.type === 'reference' && s.id.startsWith('noaa/') && s.datums?.MHHW !== undefined && s.datums.NAVD88 !== undefined
    && s.longitude >= west && s.longitude <= east && s.latitude >= south && s.latitude <= north);
  const datumStations = reference
    .map((s) => ({
      noaa_id: s.id.slice('noaa/'.length), name: s.name, lat: round6(s.latitude), lon: round6(s.longitude),
      datums_m_above_station_datum: { MHHW: round3(s.datums.MHHW!), NAVD88: round3(s.datums.NAVD88!) },
    }))
    .sort((a, b) => a.noaa_id.localeCompare(b.noaa_id));
  const epochs = new Set(reference.map((s) => JSON.stringify(s.epoch)));
  if (epochs.size !== 1) throw new Error(`Datum stations on ${epochs.size} tidal epochs`);
  write('datum-stations.json', { epoch: JSON.parse([...epochs][0]!), bbox: DATUM_STATION_BBOX, stations: datumStations });

  const regionalPath = path.join(source, 'raw', 'TR_regional_projections.nc');
  write('slr-regional-trajectory-tr2022.json', regionalEpochRise(readFileSync(regionalPath)));

  const fixtures = path.join(__dirname, '../test/fixtures/raw');
  mkdirSync(fixtures, { recursive: true });
  copyFileSync(ncPath, path.join(fixtures, 'TR_local_projections.nc'));
  copyFileSync(regionalPath, path.join(fixtures, 'TR_regional_projections.nc'));
  copyFileSync(path.join(source, 'raw', 'stations.json'), path.join(fixtures, 'stations.json'));
}

/** The 1992→2000 rise of the regional trajectories (variables [percentile][year][region]) of Florida's two regions. */
function regionalEpochRise(bytes: Buffer) {
  const file = new hdf5.File(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), 'TR_regional_projections.nc');
  const regions = file.get('region').value as string[];
  const years = Array.from(file.get('years').value as ArrayLike<number>, Number);
  const trajectory = file.get('rsl_trajectory').value as ArrayLike<number>;
  const at = (p: number, year: number, r: number) => trajectory[(p * years.length + years.indexOf(year)) * regions.length + r]!;
  return {
    units: 'm',
    source: 'NOAA 2022 (Sweet et al., TR NOS 01) TR_regional_projections.nc, rsl_trajectory (relative to 2000): its 2000 value minus its 1992 value',
    regions: ['SE', 'EGOM'].map((region) => {
      const r = regions.indexOf(region);
      return { region, rise_1992_to_2000_m: Object.fromEntries(PERCENTILES.map((p, pi) => [p, metres(at(pi, 2000, r) - at(pi, 1992, r))])) };
    }),
  };
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
