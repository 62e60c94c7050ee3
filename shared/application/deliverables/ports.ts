import type {
  GeoPackageContent,
  GeoPackageSrs,
  GeoPackageTableHead,
  ProjectedFeature,
  ShapefileLayerHead,
} from '../../domain/deliverables/ports';
import type { ReportDocument } from '../../domain/deliverables/report-document';
import type { WorkbookSheet } from '../../domain/deliverables/asset-list';

/**
 * What builds the package's files, which only the deliverables worker loads (the API function never
 * does). Every writer takes its rows one at a time, so the package is built from the inventory's
 * pages without holding the inventory.
 */

export interface FeatureSink {
  add(feature: ProjectedFeature): void;
}

/** A GeoPackage being written: its tables, in the order they are added, then the file. */
export interface GeoPackageBuilder {
  table(head: GeoPackageTableHead): FeatureSink;
  finish(): Promise<Buffer>;
}

/** Writes a GeoPackage (OGC 12-128r18) file. */
export interface GeoPackageWriter {
  open(srs: GeoPackageSrs): Promise<GeoPackageBuilder>;
  /** Content held whole, written at once. */
  write(content: GeoPackageContent): Promise<Buffer>;
}

export interface ShapefileBuilder extends FeatureSink {
  /** The zipped layer (.shp .shx .dbf .prj .cpg and its metadata as .shp.xml). */
  finish(): Buffer;
}

export interface ShapefileWriter {
  open(layer: ShapefileLayerHead): ShapefileBuilder;
}

export interface WorkbookBuilder {
  /** One row, by column key. */
  addRow(values: Readonly<Record<string, unknown>>): void;
  finish(): Promise<Buffer>;
}

/** Writes an XLSX workbook. */
export interface WorkbookWriter {
  open(sheet: WorkbookSheet): Promise<WorkbookBuilder>;
}

export interface ReportRenderer {
  /** The report as a PDF. */
  render(document: ReportDocument): Promise<Buffer>;
}

/** Rasterises an SVG at its own size to a PNG. */
export interface PngRenderer {
  render(svg: string): Promise<Buffer>;
}

/** Items sorted beyond what memory holds: taken in runs, given back in order, then dropped. */
export interface SortedSpill<T> {
  add(items: readonly T[]): Promise<void>;
  sorted(): AsyncIterable<T>;
  dispose(): Promise<void>;
}

export interface SpillSorter {
  open<T>(compare: (a: T, b: T) => number): Promise<SortedSpill<T>>;
}

export interface PackageRenderers {
  report: ReportRenderer;
  png: PngRenderer;
  geoPackage: GeoPackageWriter;
  shapefile: ShapefileWriter;
  workbook: WorkbookWriter;
  sorter: SpillSorter;
}
