import type { PackageRenderers } from '../../application/deliverables/ports';
import { FileSpillSorter } from '../file-spill-sorter';
import { SqlJsGeoPackageWriter } from '../geopackage-writer';
import { ResvgPngRenderer } from '../png-renderer';
import { PdfKitReportRenderer } from './pdf-report';
import { ShpWriteShapefileWriter } from './shapefile-zip';
import { ExcelJsWorkbookWriter } from './xlsx-workbook';

/** The package's writers as the deliverables worker runs them (and the tests and benchmark build packages). */
export const packageRenderers = (): PackageRenderers => ({
  report: new PdfKitReportRenderer(),
  png: new ResvgPngRenderer(),
  geoPackage: new SqlJsGeoPackageWriter(),
  shapefile: new ShpWriteShapefileWriter(),
  workbook: new ExcelJsWorkbookWriter(),
  sorter: new FileSpillSorter(),
});
