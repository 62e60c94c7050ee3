import { demCrs } from '../../domain/elevation-models/crs';
import { buildPyramid, type BuiltPyramid } from '../../domain/elevation-models/pyramid';
import { RasterError, reprojectToLattice, type SourceRaster } from '../../domain/elevation-models/reproject';
import { verticalConversion, type VerticalReference } from '../../domain/elevation-models/vertical';

/** Rasters larger than this are refused rather than read whole into memory. */
const MAX_CELLS = 64_000_000;
/** GeoKey value of a user-defined (non-EPSG) CRS. */
const USER_DEFINED = 32767;
const PIXEL_IS_POINT = 2;

/** Reads a single-band GeoTIFF DEM: its samples, geotransform, no-data value and EPSG CRS. */
export async function readGeoTiffDem(bytes: Uint8Array): Promise<SourceRaster> {
  // Loaded with the first raster read, as exceljs is with the first workbook: most requests read none.
  const { fromArrayBuffer } = await import('geotiff');
  let image;
  try {
    const tiff = await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    image = await tiff.getImage();
  } catch (error) {
    throw new RasterError(`The file is not a readable GeoTIFF (${(error as Error).message}).`);
  }
  const keys = (image.getGeoKeys() ?? {}) as Record<string, number | undefined>;
  const epsg = keys.ProjectedCSTypeGeoKey ?? keys.GeographicTypeGeoKey;
  if (epsg === undefined || epsg === USER_DEFINED) throw new RasterError('The GeoTIFF names no EPSG coordinate system (ProjectedCSTypeGeoKey or GeographicTypeGeoKey).');
  const crs = demCrs(epsg);
  if (!crs) throw new RasterError(`EPSG:${epsg} is not a coordinate system this service reprojects (Florida State Plane, UTM 16N/17N, Florida GDL Albers, NAD83/WGS84/NAD27 geographic).`);
  if (image.getSamplesPerPixel() !== 1) throw new RasterError(`The GeoTIFF has ${image.getSamplesPerPixel()} bands; an elevation model has one.`);
  const width = image.getWidth(), height = image.getHeight();
  if (width * height > MAX_CELLS) throw new RasterError(`The raster has ${width * height} cells; the limit is ${MAX_CELLS} (split it into tiles).`);
  let origin: number[], resolution: number[];
  try {
    origin = image.getOrigin();
    resolution = image.getResolution();
  } catch {
    throw new RasterError('The GeoTIFF has no tie point and pixel scale (or uses a rotated transformation).');
  }
  const [dx, dy] = resolution as [number, number];
  // PixelIsArea tie points are cell corners; PixelIsPoint ones are posts (the USGS DEMs).
  const half = keys.GTRasterTypeGeoKey === PIXEL_IS_POINT ? 0 : 0.5;
  const [band] = await image.readRasters({ interleave: false }) as unknown as [SourceRaster['values']];
  const nodata = image.getGDALNoData();
  return {
    values: band, width, height,
    x0: origin[0]! + half * dx, y0: origin[1]! + half * dy, dx, dy,
    ...(nodata === null ? {} : { nodata }),
    crs,
  };
}

export interface ProcessOptions extends VerticalReference {
  /** Raw value the source uses for open water (the USGS quads set sea and estuaries to 0). */
  water_raw_value?: number;
}

export interface ProcessedDem extends BuiltPyramid {
  crs: { epsg: number; name: string };
  vertical_conversion: string;
}

/** GeoTIFF bytes → reprojected, datum-converted tile pyramid (the one processing used by the worker and the CLI). */
export async function processDem(bytes: Uint8Array, options: ProcessOptions): Promise<ProcessedDem> {
  const conversion = verticalConversion(options);
  const raster = await readGeoTiffDem(bytes);
  const lattice = reprojectToLattice(raster, conversion, options.water_raw_value);
  const pyramid = buildPyramid(lattice, conversion.stored_datum);
  return { ...pyramid, crs: { epsg: raster.crs.epsg, name: raster.crs.name }, vertical_conversion: conversion.description };
}
