import type { GisLayer } from './gis-layers';

/**
 * The statute's prioritized list of impacted critical assets as a workbook: one row per asset in
 * priority order, the same attributes as the GIS asset layer.
 */
export async function assetListXlsx(layer: GisLayer, title: string): Promise<Buffer> {
  // Loaded on first use, not with the function: it costs more to load than the rest of it.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Vulnerability Assessment Compliance API';
  const sheet = workbook.addWorksheet('Prioritized assets', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    ...layer.attributes.map((a) => ({ header: a.name, key: a.name, width: a.type === 'TEXT' ? 28 : 12 })),
    { header: 'LAT', key: 'LAT', width: 12 },
    { header: 'LON', key: 'LON', width: 12 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const feature of layer.collection.features) {
    const [lon, lat] = (feature.geometry as { coordinates: number[] }).coordinates;
    sheet.addRow({ ...feature.properties, LAT: lat, LON: lon });
  }
  const about = workbook.addWorksheet('About');
  about.addRows([[title], ...layer.attributes.map((a) => [a.name, a.definition])]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
