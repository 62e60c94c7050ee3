import type { GisLayer } from '../../shared/domain/deliverables/gis-layers';
import { projectFeature, shapefileLayer } from '../../shared/domain/deliverables/gis-package';
import { assetListRow, assetListSheet } from '../../shared/domain/deliverables/asset-list';
import { reportDocument, type ReportInput } from '../../shared/domain/deliverables/report-document';
import { ShpWriteShapefileWriter } from '../../shared/adapters/renderers/shapefile-zip';
import { ExcelJsWorkbookWriter } from '../../shared/adapters/renderers/xlsx-workbook';
import { PdfKitReportRenderer } from '../../shared/adapters/renderers/pdf-report';

/** The package's writers fed a whole layer or report, as the package feeds them row by row. */

export function shapefileZip(layer: GisLayer, metadataXml: string): Buffer {
  const builder = new ShpWriteShapefileWriter().open(shapefileLayer(layer, metadataXml));
  for (const feature of layer.collection.features) {
    const { geometry, properties } = projectFeature(feature, true);
    builder.add({ geometry, properties: properties ?? {} });
  }
  return builder.finish();
}

export async function assetListXlsx(layer: GisLayer, title: string): Promise<Buffer> {
  const builder = await new ExcelJsWorkbookWriter().open(assetListSheet(layer, title));
  for (const feature of layer.collection.features) {
    const [lon, lat] = (feature.geometry as { coordinates: number[] }).coordinates as [number, number];
    builder.addRow(assetListRow(feature.properties ?? {}, lon, lat));
  }
  return builder.finish();
}

export const reportPdf = (input: ReportInput): Promise<Buffer> =>
  new PdfKitReportRenderer().render(reportDocument(input));
