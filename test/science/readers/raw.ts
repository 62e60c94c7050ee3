import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import * as hdf5 from 'jsfive';

/** The raw files the science tests read: byte-for-byte copies of the public sources (test/fixtures/raw/SOURCES in shared/data/SOURCES.md). */
export const RAW = path.join(__dirname, '../../fixtures/raw');

export const csv = (file: string) => parse(readFileSync(path.join(RAW, file)), { columns: true, skip_empty_lines: true }) as Record<string, string>[];

/** F.A.C. 62S-7.012(1)(b)'s gauges with NOAA ids, transcribed here from the rule independently of the product's data. */
export const RULE_GAUGE_IDS = [
  '8720030', '8720218', '8721604', '8722670', '8723214', '8723970', '8724580', '8725110', '8725520', '8726384',
  '8726520', '8726724', '8727520', '8728690', '8729108', '8729210', '8729840', '8735180', '8670870',
];

export const NC_SCENARIOS = { low: 'Low', intermediate_low: 'IntLow', intermediate: 'Int', intermediate_high: 'IntHigh', high: 'High' } as const;

export interface NcGauge {
  id: string;
  name: string;
  lat: number;
  lon: number;
  qc: number;
  geq30: number;
  /** mm relative to 2000: [scenario][percentile index][year] */
  total: (scenario: keyof typeof NC_SCENARIOS, percentileIndex: number, year: number) => number;
  trajectory: (percentileIndex: number, year: number) => number;
}

let cached: NcGauge[] | undefined;

/** Every rule gauge present in TR_local_projections.nc, read with a generic HDF5 reader (netCDF4 is HDF5). */
export function ncGauges(): NcGauge[] {
  if (cached) return cached;
  const bytes = readFileSync(path.join(RAW, 'TR_local_projections.nc'));
  const file = new hdf5.File(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), 'nc');
  const v = (name: string) => file.get(name).value as ArrayLike<number>;
  const names = file.get('tg').value as string[];
  const years = Array.from(v('years'), Number);
  const ng = names.length;
  const ny = years.length;
  const stations = JSON.parse(readFileSync(path.join(RAW, 'stations.json'), 'utf8')) as Record<string, { id: string; scn_name: string; lat: number; lon: number }>;
  const variables = Object.fromEntries(Object.values(NC_SCENARIOS).map((s) => [s, v(`rsl_total_${s}`)]));
  const trajectory = v('rsl_trajectory');
  const qc = v('QC_flag');
  const geq30 = v('number_of_observation_years_for_trajectory_estimation_geq_30');
  cached = RULE_GAUGE_IDS.flatMap((id) => {
    const station = stations[id];
    const g = station ? names.indexOf(station.scn_name) : -1;
    if (g < 0) return [];
    return [{
      id, name: station!.scn_name, lat: station!.lat, lon: station!.lon, qc: Number(qc[g]), geq30: Number(geq30[g]),
      total: (scenario, p, year) => variables[NC_SCENARIOS[scenario]]![(p * ny + years.indexOf(year)) * ng + g]!,
      trajectory: (p, year) => trajectory[(p * ny + years.indexOf(year)) * ng + g]!,
    }];
  });
  return cached;
}

/** NOAA datums straight from @neaps/tide-database (ESM-only, so read in a child Node process). */
export function packageDatums(ids: string[]): Record<string, Record<string, number>> {
  const script = `import { stationsById } from '@neaps/tide-database';
const ids = ${JSON.stringify(ids)};
process.stdout.write(JSON.stringify(Object.fromEntries(ids.map((id) => [id, stationsById.get('noaa/' + id).datums]))));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: path.join(__dirname, '../../..') }).toString('utf8'));
}

/** Every NOAA station of @neaps/tide-database in and around Florida with MHHW and NAVD88 datums: its type (reference or subordinate), position and MHHW − NAVD88 (m). */
export function packageFloridaStations(): { id: string; name: string; type: string; lat: number; lon: number; mhhwNavd88: number }[] {
  const script = `import { stations } from '@neaps/tide-database';
process.stdout.write(JSON.stringify(stations
  .filter((s) => s.id.startsWith('noaa/') && s.latitude >= 24 && s.latitude <= 31.5 && s.longitude >= -88 && s.longitude <= -79.5 && s.datums && s.datums.MHHW !== undefined && s.datums.NAVD88 !== undefined)
  .map((s) => ({ id: s.id.slice(5), name: s.name, type: s.type, lat: s.latitude, lon: s.longitude, mhhwNavd88: s.datums.MHHW - s.datums.NAVD88 }))));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: path.join(__dirname, '../../..'), maxBuffer: 64 << 20 }).toString('utf8'));
}

/** Great-circle distance (km), written here again so the gauge weights are recomputed independently. */
export function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

/** 1992→2000 rise (m) of a NOAA 2022 region's observed trajectory (`rsl_trajectory` of TR_regional_projections.nc, [percentile][year][region], mm). */
export function regionalTrajectoryRise(region: 'SE' | 'EGOM', percentileIndex = 1): number {
  const bytes = readFileSync(path.join(RAW, 'TR_regional_projections.nc'));
  const file = new hdf5.File(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), 'nc');
  const regions = file.get('region').value as string[];
  const years = Array.from(file.get('years').value as ArrayLike<number>, Number);
  const values = file.get('rsl_trajectory').value as ArrayLike<number>;
  const at = (year: number) => values[(percentileIndex * years.length + years.indexOf(year)) * regions.length + regions.indexOf(region)]!;
  return (at(2000) - at(1992)) / 1000;
}

type RawStation = { id: string; name: string; lat: number; lon: number; mhhwNavd88: number };

/**
 * The NOAA station whose MHHW stands for a point, by the documented same-water rule written here
 * again: the nearest reference station within 10 km, unless a station within twice its distance
 * (and 10 km) differs from it by more than 0.1 m.
 */
export function sameWaterStation<S extends RawStation>(point: { lat: number; lon: number }, reference: readonly S[]): { s: S; d: number } | undefined {
  const near = reference.map((s) => ({ s, d: distanceKm(point, s) })).filter((x) => x.d <= 10).sort((a, b) => a.d - b.d);
  const first = near[0];
  if (!first) return undefined;
  return near.slice(1).some((x) => x.d <= 2 * first.d && Math.abs(x.s.mhhwNavd88 - first.s.mhhwNavd88) > 0.1) ? undefined : first;
}

/** The gauges of the file that F.A.C. 62S-7.012(1)(b) lets interpolation use: no QC flag, a trajectory from 30 years or more. */
export function usableGauges(): NcGauge[] {
  return ncGauges().filter((g) => g.qc === 0 && g.geq30 === 1);
}

/** The rule's interpolation, recomputed: the two usable gauges closest to `point`, with their distances (km) and inverse-distance weights. */
export function twoClosestUsable(point: { lat: number; lon: number }): [{ g: NcGauge; d: number; w: number }, { g: NcGauge; d: number; w: number }] {
  const [a, b] = usableGauges().map((g) => ({ g, d: distanceKm(point, g) })).sort((x, y) => x.d - y.d);
  const wa = (1 / a!.d) / (1 / a!.d + 1 / b!.d);
  return [{ ...a!, w: wa }, { ...b!, w: 1 - wa }];
}

/**
 * A peaks-over-threshold file of `tonyewong/surge_comparison` (`gpd/<Site>_pot.csv`): per year the
 * declustered exceedances, the days of data, then each exceedance in mm above that year's mean sea
 * level ("NA" when none); the 99th-percentile threshold from `thresholds_declustering.csv`. Metres.
 */
export function potRecord(site: string): { threshold: number; percentile: number; peaks: number[] } {
  const dir = path.join(RAW, 'surge_comparison_gpd');
  const lines = readFileSync(path.join(dir, `${site}_pot.csv`), 'utf8').trim().split('\n').slice(1);
  const peaks = lines.flatMap((line) => line.split(',').slice(3)).filter((cell) => cell !== 'NA').map((cell) => Number(cell) / 1000);
  const row = readFileSync(path.join(dir, 'thresholds_declustering.csv'), 'utf8').split('\n').find((line) => line.startsWith(`"${site}",`))!.split(',');
  return { threshold: Number(row[2]) / 1000, percentile: Number(row[1]), peaks };
}

/** NOAA TR 086 flood days per year at a gauge, for one series (`floods_historical`, `int`, `low_scenario`, …). */
let tr086Rows: Record<string, string>[] | undefined;
export function tr086Series(id: string, name: string): Map<number, number> {
  tr086Rows ??= csv('fl_htf_days_tr086.csv');
  return new Map(tr086Rows.filter((r) => r.noaa_id === id && r.series === name).map((r) => [Number(r.year), Number(r.flood_days)]));
}

/** The mean observed minor flood days of 2007–2016 at a gauge (TR 086's historical series). */
export function observedMean2007to2016(id: string): number {
  const observed = tr086Series(id, 'floods_historical');
  let sum = 0;
  for (let year = 2007; year <= 2016; year++) sum += observed.get(year) ?? 0;
  return sum / 10;
}

/** HURDAT2 track rows (`dfp.csv`): the landfall records (identifier `L`), read with a plain line split. */
export function hurdatLandfalls() {
  const lines = readFileSync(path.join(RAW, 'dfp.csv'), 'utf8').trim().split('\n');
  const header = lines[0]!.split(',');
  const col = (name: string) => header.indexOf(name);
  return lines.slice(1).map((line) => line.split(',')).filter((f) => f[col('landfall_marker')] === 'L').map((f) => {
    const [lon, lat] = /POINT \(([^ ]+) ([^)]+)\)/.exec(f.slice(col('geometry')).join(','))!.slice(1).map(Number);
    return { storm: f[col('storm_id')]!, time: f[col('datetime')]!, wind: Number(f[col('wind_speed')]), lat: lat!, lon: lon! };
  });
}
