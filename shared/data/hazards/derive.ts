/**
 * Rebuilds the regional series, GEV fits, flood-day counts, storm events, FEMA declarations and
 * SRTM tiles of this folder from the reference data collection (its `raw/` and `derived/`
 * folders). Run once when the sources change, after `scripts/derive-hazard-gauges.ts` (gauges,
 * scenarios, datums) and with `scripts/derive-hurdat2-landfalls.ts` (landfalls):
 *   npx tsx shared/data/hazards/derive.ts <reference-data-folder>
 * Conversions only (CSV → JSON, column selection, joins); every value keeps its source precision.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { tableOf } from '../record-table';

type Row = Record<string, string>;

const SCENARIO_KEYS: Record<string, string> = {
  Low: 'low', 'Intermediate-Low': 'intermediate_low', Intermediate: 'intermediate', 'Intermediate-High': 'intermediate_high', High: 'high',
};

function readCsv(file: string): Row[] {
  return parse(readFileSync(file), { columns: true, skip_empty_lines: true }) as Row[];
}

function write(name: string, value: unknown): void {
  writeFileSync(path.join(__dirname, name), `${JSON.stringify(value)}\n`);
}

function scenarioSeries(rows: Row[], years: number[]) {
  const series: Record<string, Record<string, number[]>> = {};
  for (const row of rows) {
    const key = SCENARIO_KEYS[row.scenario!]!;
    (series[key] ??= {})[row.percentile!] = years.map((y) => Number(row[String(y)]));
  }
  return series;
}

async function main(): Promise<void> {
  const source = process.argv[2];
  if (!source) throw new Error('Usage: derive.ts <reference-data-folder>');
  const raw = (f: string) => path.join(source, 'raw', f);
  const derived = (f: string) => path.join(source, 'derived', f);

  const years = Array.from({ length: 14 }, (_, i) => 2020 + i * 10);
  const gaugeIds = (JSON.parse(readFileSync(path.join(__dirname, 'gauges.json'), 'utf8')) as { noaa_id: string }[]).map((g) => g.noaa_id);
  const regionalRows = readCsv(derived('regional_tr2022_scenarios_SE_EGOM.csv'));
  write('slr-regional-tr2022.json', {
    units: 'm', baseline_year: 2000, years,
    regions: ['SE', 'EGOM'].map((region) => ({ region, series: scenarioSeries(regionalRows.filter((r) => r.region === region), years) })),
  });

  write('gev-return-levels.json', readCsv(derived('fl_tide_gauge_gev_return_levels_wong.csv')).map((r) => ({
    noaa_id: r.noaa_id, site: r.site_formal, first_year: Number(r.first_year), last_year: Number(r.last_year),
    n_annual_maxima: Number(r.n_annual_maxima), record_max_m: Number(r.record_max_m), record_max_year: Number(r.record_max_year),
    return_levels_m_above_annual_msl: {
      '2': Number(r.rl_aep50pct_m), '10': Number(r.rl_aep10pct_m), '50': Number(r.rl_aep2pct_m), '100': Number(r.rl_aep1pct_m), '500': Number(r.rl_aep0p2pct_m),
    },
    reliable: r.reliability === 'ok', reliability: r.reliability,
  })));

  // Annual maxima for the project's own GEV fits (shared/domain/hazards/gev-fit.ts).
  const maxima = readCsv(derived('fl_tide_gauge_annual_maxima_wong.csv'));
  write('tide-gauge-annual-maxima.json', [...new Set(maxima.map((r) => r.noaa_id!))].map((id) => ({
    noaa_id: id,
    years: maxima.filter((r) => r.noaa_id === id).map((r) => [Number(r.year), Number(r.annual_max_above_annual_mean_sl_m)]),
  })));

  const htf = readCsv(derived('fl_htf_days_tr086.csv')).filter((r) => r.series === 'floods_historical');
  // TR 086 covers the Florida gauges only; gauges without counts get no record (not zeros).
  write('htf-days-historical.json', gaugeIds.filter((id) => htf.some((r) => r.noaa_id === id)).map((id) => ({
    noaa_id: id,
    years: htf.filter((r) => r.noaa_id === id).map((r) => [Number(r.year), Number(r.flood_days)]),
  })));

  const STORM_EVENT_COLUMNS = ['EVENT_ID', 'EPISODE_ID', 'EVENT_TYPE', 'BEGIN_YEARMONTH', 'BEGIN_DAY', 'END_YEARMONTH', 'END_DAY', 'CZ_TYPE', 'CZ_FIPS', 'CZ_NAME',
    'STATE', 'DAMAGE_PROPERTY', 'DAMAGE_CROPS', 'FLOOD_CAUSE', 'BEGIN_LAT', 'BEGIN_LON', 'BEGIN_LOCATION', 'DEATHS_DIRECT', 'INJURIES_DIRECT'];
  write('ncei-storm-events-2019q1.json', tableOf(readCsv(derived('fl_storm_events_2019q1.csv'))
    .map((r) => Object.fromEntries(STORM_EVENT_COLUMNS.map((c) => [c, r[c] ?? ''])))));

  write('fema-declarations.json', tableOf(readCsv(derived('fl_fema_web_disaster_declarations.csv')).map((r) => ({
    disaster_number: r.disasterNumber, declaration_date: r.declarationDate!.slice(0, 10), name: r.disasterName,
    incident_type: r.incidentType, declaration_type: r.declarationType,
    incident_begin: r.incidentBeginDate!.slice(0, 10), incident_end: r.incidentEndDate ? r.incidentEndDate.slice(0, 10) : null,
  }))));

  mkdirSync(path.join(__dirname, 'srtm1'), { recursive: true });
  for (const tile of readdirSync(raw('srtm1')).filter((f) => f.endsWith('.hgt.zip'))) {
    copyFileSync(path.join(raw('srtm1'), tile), path.join(__dirname, 'srtm1', tile));
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
