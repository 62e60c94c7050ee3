import type { GisLayerHead } from './gis-layers';
import { PUBLISHER } from './report-document';

/**
 * The statute's prioritized list of impacted critical assets as a workbook: one row per asset in
 * priority order, the same attributes as the GIS asset layer plus its point's LAT and LON, and an
 * About sheet defining each column.
 */
export interface WorkbookSheet {
  creator: string;
  name: string;
  /** Header row, bold and frozen. */
  columns: readonly { key: string; header: string; width: number }[];
  /** The second sheet, `About`: the title, then each column with its definition. */
  about: readonly (readonly string[])[];
}

export function assetListSheet(layer: GisLayerHead, title: string): WorkbookSheet {
  return {
    creator: PUBLISHER,
    name: 'Prioritized assets',
    columns: [
      ...layer.attributes.map((a) => ({ header: a.name, key: a.name, width: a.type === 'TEXT' ? 28 : 12 })),
      { header: 'LAT', key: 'LAT', width: 12 },
      { header: 'LON', key: 'LON', width: 12 },
    ],
    about: [[title], ...layer.attributes.map((a) => [a.name, a.definition])],
  };
}

/** An asset's row: its layer attributes and its point. */
export const assetListRow = (properties: Readonly<Record<string, unknown>>, lon: number, lat: number) => ({
  ...properties,
  LAT: lat,
  LON: lon,
});
