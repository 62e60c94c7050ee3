import type { GeoTIFFImage } from 'geotiff';
import { checkDeclaredRaster, checkElevationSamples, type DeclaredRaster } from '../../domain/elevation-models/budget';
import { demCrs } from '../../domain/elevation-models/crs';
import { buildPyramid, type BuiltPyramid } from '../../domain/elevation-models/pyramid';
import { RasterError } from '../../domain/elevation-models/raster-error';
import { latticeFrame, reprojectToLattice, type SourceRaster } from '../../domain/elevation-models/reproject';
import { verticalConversion, type VerticalReference } from '../../domain/elevation-models/vertical';

/** GeoKey value of a user-defined (non-EPSG) CRS. */
const USER_DEFINED = 32767;
const PIXEL_IS_POINT = 2;

/** Runs a read of the file's structure or samples; whatever the decoder throws is a corrupt file. */
async function reading<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof RasterError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new RasterError(`The GeoTIFF's ${what} cannot be read (${reason}): the file is truncated or corrupt.`, 'unreadable_raster');
  }
}

/** What the header declares about the decoding: sizes and the compressed byte counts, no sample read. */
async function declaredRaster(image: GeoTIFFImage, fileBytes: number): Promise<DeclaredRaster> {
  return reading('strip or tile table', async () => {
    const directory = image.fileDirectory;
    const counts = await directory.loadValue(image.isTiled ? 'TileByteCounts' : 'StripByteCounts');
    const offsets = await directory.loadValue(image.isTiled ? 'TileOffsets' : 'StripOffsets');
    return {
      width: image.getWidth(),
      height: image.getHeight(),
      bytesPerSample: image.getBytesPerPixel(),
      blockCells: image.getTileWidth() * image.getTileHeight(),
      blockByteCounts: (counts ?? []) as ArrayLike<number>,
      blockOffsets: (offsets ?? []) as ArrayLike<number>,
      compression: Number(directory.getValue('Compression') ?? 1),
      fileBytes,
    };
  });
}

/** The band decoded one row of strips or tiles at a time into one array (never one whole-image read). */
async function decodeByBlocks(image: GeoTIFFImage): Promise<SourceRaster['values']> {
  const width = image.getWidth(), height = image.getHeight(), rows = image.getTileHeight();
  let values: SourceRaster['values'] | undefined;
  for (let top = 0; top < height; top += rows) {
    const bottom = Math.min(height, top + rows);
    const [band] = await reading('samples', () => image.readRasters({ window: [0, top, width, bottom], samples: [0], interleave: false })) as unknown as [SourceRaster['values']];
    values ??= new (band.constructor as new (length: number) => SourceRaster['values'])(width * height);
    values.set(band, top * width);
  }
  return values!;
}

/**
 * Reads a single-band GeoTIFF DEM: its samples, geotransform, no-data value and EPSG CRS. What the
 * decoding and the resampled lattice would cost is checked from the header first (see budget.ts);
 * only then are the strips or tiles decoded, a row of them at a time.
 */
export async function readGeoTiffDem(bytes: Uint8Array): Promise<SourceRaster> {
  // Loaded with the first raster read, as exceljs is with the first workbook: most requests read none.
  const { fromArrayBuffer } = await import('geotiff');
  let image: GeoTIFFImage;
  try {
    const tiff = await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    image = await tiff.getImage();
  } catch (error) {
    throw new RasterError(`The file is not a readable GeoTIFF (${(error as Error).message}).`, 'not_a_geotiff');
  }
  const keys = (await reading('GeoKeys', async () => image.getGeoKeys() ?? {})) as Record<string, number | undefined>;
  const epsg = keys.ProjectedCSTypeGeoKey ?? keys.GeographicTypeGeoKey;
  if (epsg === undefined || epsg === USER_DEFINED) throw new RasterError('The GeoTIFF names no EPSG coordinate system (ProjectedCSTypeGeoKey or GeographicTypeGeoKey).', 'unsupported_crs');
  const crs = demCrs(epsg);
  if (!crs) throw new RasterError(`EPSG:${epsg} is not a coordinate system this service reprojects (Florida State Plane, UTM 16N/17N, Florida GDL Albers, NAD83/WGS84/NAD27 geographic).`, 'unsupported_crs');
  if (image.getSamplesPerPixel() !== 1) throw new RasterError(`The GeoTIFF has ${image.getSamplesPerPixel()} bands; an elevation model has one.`);
  checkDeclaredRaster(await declaredRaster(image, bytes.byteLength));
  const width = image.getWidth(), height = image.getHeight();
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
  const frame = { width, height, x0: origin[0]! + half * dx, y0: origin[1]! + half * dy, dx, dy, crs };
  // The lattice the samples will be resampled to is priced before they are decoded.
  latticeFrame(frame);
  const values = await decodeByBlocks(image);
  const nodata = image.getGDALNoData();
  return { values, ...frame, ...(nodata === null ? {} : { nodata }) };
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
  checkElevationSamples(raster.values, raster.nodata, conversion);
  const lattice = reprojectToLattice(raster, conversion, options.water_raw_value);
  const pyramid = buildPyramid(lattice, conversion.stored_datum);
  return { ...pyramid, crs: { epsg: raster.crs.epsg, name: raster.crs.name }, vertical_conversion: conversion.description };
}
