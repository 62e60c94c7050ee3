/**
 * Daily-maximum peaks over the 99th percentile at the Florida tide gauges, for the flood-day
 * projections (Sweet et al.: the observed distribution of daily highest water levels shifted by the
 * rise), from the peaks-over-threshold files of the reference data collection:
 *   npx tsx scripts/derive-htf-daily-max-peaks.ts <reference-data-folder>
 * Reads `raw/surge_comparison/gpd/<Site>_pot.csv` (year, declustered exceedances that year, days of
 * data that year, then each exceedance's level in mm above that year's mean sea level) and
 * `thresholds_declustering.csv` (the 99th-percentile threshold of the daily maxima, mm, and the
 * 3-day declustering); the site → NOAA id match is the one of `fl_tide_gauge_gev_return_levels_wong.csv`.
 * Writes `shared/data/hazards/htf-daily-max-peaks.json` (mm → m, full precision) and copies the raw
 * files to `test/fixtures/raw/surge_comparison_gpd/` for the science tests.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

type Row = Record<string, string>;

function main(): void {
  const source = process.argv[2];
  if (!source) throw new Error('Usage: derive-htf-daily-max-peaks.ts <reference-data-folder>');
  const gpd = path.join(source, 'raw', 'surge_comparison', 'gpd');
  const fixtures = path.join(__dirname, '..', 'test', 'fixtures', 'raw', 'surge_comparison_gpd');
  mkdirSync(fixtures, { recursive: true });
  const sites = (parse(readFileSync(path.join(source, 'derived', 'fl_tide_gauge_gev_return_levels_wong.csv')), { columns: true }) as Row[])
    .map((r) => ({ site: r.site!, formal: r.site_formal!, noaa_id: r.noaa_id! }));
  const thresholds = new Map((parse(readFileSync(path.join(gpd, 'thresholds_declustering.csv')), { columns: true }) as Row[])
    .map((r) => [r['']!, { percentile: Number(r['p.threshold']), threshold_mm: Number(r.threshold), decluster_days: Number(r['dt.decluster']) }]));
  // Byte-for-byte, without the source's read-only mode.
  const copy = (file: string) => writeFileSync(path.join(fixtures, file), readFileSync(path.join(gpd, file)));
  copy('thresholds_declustering.csv');

  const gauges = sites.map(({ site, formal, noaa_id }) => {
    const file = `${site}_pot.csv`;
    copy(file);
    // Rows have as many level columns as that year's exceedances; a year without any holds "NA".
    const rows = (parse(readFileSync(path.join(gpd, file)), { relax_column_count: true, from_line: 2 }) as string[][]).map((cells) => ({
      year: Number(cells[0]),
      count: Number(cells[1]),
      days: Number(cells[2]),
      levels: cells.slice(3).filter((c) => c !== 'NA').map(Number),
    }));
    for (const row of rows) {
      if (row.levels.length !== row.count || row.levels.some((l) => !Number.isFinite(l))) throw new Error(`${file} ${row.year}: ${row.count} exceedances announced, ${row.levels.length} levels read`);
    }
    const threshold = thresholds.get(site);
    if (!threshold) throw new Error(`${site}: no threshold in thresholds_declustering.csv`);
    const withData = rows.filter((r) => r.days > 0);
    return {
      noaa_id,
      site: formal,
      threshold_percentile: threshold.percentile,
      threshold_m_above_annual_msl: threshold.threshold_mm / 1000,
      decluster_days: threshold.decluster_days,
      first_year: withData[0]!.year,
      last_year: withData[withData.length - 1]!.year,
      days_of_data: rows.reduce((s, r) => s + r.days, 0),
      peaks_m_above_annual_msl: rows.flatMap((r) => r.levels.map((l) => l / 1000)).sort((a, b) => b - a),
    };
  });
  writeFileSync(path.join(__dirname, '..', 'shared', 'data', 'hazards', 'htf-daily-max-peaks.json'), `${JSON.stringify(gauges)}\n`);
}

main();
