import type { FeatureCollection, Geometry } from 'geojson';
import { assetTypeInfo } from './classification';
import { toWkt } from './geometry';
import type { StoredAsset } from './ports';

/**
 * The asset inventory as the public sees it, and as the tables and layers a vulnerability
 * assessment report needs (GeoJSON, CSV, Excel), each with the asset's whole geometry.
 */

/** The asset's geometry as imported: lines and areas are stored whole, points as their lon/lat. */
export function assetGeometry(asset: Pick<StoredAsset, 'lon' | 'lat' | 'geometry'>): Geometry {
  return asset.geometry ?? { type: 'Point', coordinates: [asset.lon, asset.lat] };
}

export function assetView(asset: StoredAsset) {
  const { content_hash: _hash, vulnerability_history: _history, created_by_import: _creator, ...rest } = asset;
  return {
    ...rest,
    geometry: assetGeometry(asset),
    asset_type_label: asset.asset_type ? assetTypeInfo(asset.asset_type)?.label ?? null : null,
  };
}

export function assetWithHistoryView(asset: StoredAsset) {
  return { ...assetView(asset), vulnerability_history: asset.vulnerability_history ?? [] };
}

/** Columns of the CSV and Excel exports, in order. */
const TABLE_COLUMNS: { header: string; value: (a: StoredAsset) => string | number | null; width: number }[] = [
  { header: 'asset_id', value: (a) => a.asset_id, width: 28 },
  { header: 'name', value: (a) => a.name, width: 40 },
  { header: 'category', value: (a) => a.category, width: 26 },
  { header: 'asset_type', value: (a) => a.asset_type, width: 30 },
  { header: 'asset_type_label', value: (a) => (a.asset_type ? assetTypeInfo(a.asset_type)?.label ?? null : null), width: 30 },
  { header: 'source_type', value: (a) => a.source_type, width: 26 },
  { header: 'classification_rule', value: (a) => a.classification.rule, width: 30 },
  { header: 'jurisdiction_id', value: (a) => a.jurisdiction_id, width: 20 },
  { header: 'lat', value: (a) => a.lat, width: 12 },
  { header: 'lon', value: (a) => a.lon, width: 12 },
  { header: 'geometry_type', value: (a) => a.geometry_type, width: 16 },
  // The whole geometry (OGC WKT, WGS84); lat/lon above are its representative point.
  { header: 'wkt', value: (a) => toWkt(assetGeometry(a)), width: 40 },
  { header: 'address', value: (a) => a.address, width: 30 },
  { header: 'city', value: (a) => a.city, width: 18 },
  { header: 'county', value: (a) => a.county, width: 16 },
  { header: 'owner', value: (a) => a.owner, width: 20 },
  { header: 'source_id', value: (a) => a.source_id, width: 18 },
  { header: 'vulnerability_level', value: (a) => a.vulnerability_level, width: 14 },
  { header: 'vulnerability_score', value: (a) => a.vulnerability?.vulnerability_score ?? null, width: 10 },
  { header: 'hazard_type', value: (a) => a.vulnerability?.hazard_type ?? null, width: 18 },
  { header: 'scenario', value: (a) => a.vulnerability?.scenario ?? null, width: 16 },
  { header: 'exposure', value: (a) => a.vulnerability?.exposure ?? null, width: 10 },
  { header: 'sensitivity', value: (a) => a.vulnerability?.sensitivity ?? null, width: 10 },
  { header: 'adaptive_capacity', value: (a) => a.vulnerability?.adaptive_capacity ?? null, width: 10 },
  { header: 'first_exposed_year', value: (a) => a.vulnerability?.first_exposed_year ?? null, width: 10 },
  { header: 'impact_timeline', value: (a) => a.impact_timeline, width: 14 },
  { header: 'flood_depth_ft', value: (a) => a.vulnerability?.flood_depth_ft ?? null, width: 10 },
  { header: 'ground_source', value: (a) => a.exposure?.ground_source ?? null, width: 18 },
  // Why the last analysis gave no depth (not_connected, open_water, no_bare_earth, outside_model, above_water_level).
  { header: 'no_depth_reason', value: (a) => a.exposure?.reason ?? null, width: 18 },
  // The local datum check of the tidal levels at the asset (reported, never applied to the depths).
  { header: 'tidal_datum_check', value: (a) => a.exposure?.tidal_datum_check?.status ?? null, width: 16 },
  { header: 'tidal_datum_difference_m', value: (a) => a.exposure?.tidal_datum_check?.difference_m ?? null, width: 12 },
  { header: 'version', value: (a) => a.version, width: 8 },
  { header: 'updated_at', value: (a) => a.updated_at, width: 24 },
];

/** A text cell a spreadsheet would run as a formula is prefixed with an apostrophe (CSV injection). */
function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function assetsToCsv(assets: StoredAsset[]): string {
  const lines = [TABLE_COLUMNS.map((c) => c.header).join(',')];
  for (const asset of assets) lines.push(TABLE_COLUMNS.map((c) => csvCell(c.value(asset))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export async function assetsToXlsx(assets: StoredAsset[]): Promise<Buffer> {
  // Loaded on first use, not with the function: it costs more to load than the rest of it.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Critical assets');
  sheet.columns = TABLE_COLUMNS.map((c) => ({ header: c.header, key: c.header, width: c.width }));
  for (const asset of assets) sheet.addRow(TABLE_COLUMNS.map((c) => c.value(asset)));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * RFC 7946 FeatureCollection (WGS84) of each asset's whole geometry, its fields as properties
 * (`lon`/`lat` among them: the representative point).
 */
export function assetsToGeoJson(assets: StoredAsset[]): FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: assets.map((asset) => {
      const { geometry, ...properties } = assetView(asset);
      return { type: 'Feature', id: asset.asset_id, geometry, properties };
    }),
  };
}
