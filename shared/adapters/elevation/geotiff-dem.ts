import type { GeoTIFFImage } from 'geotiff';
import { checkDeclaredRaster, checkElevationRange, checkElevationStats, checkWindowSource, mergeStats, NO_SAMPLES, sampleStats, type DeclaredRaster } from '../../domain/elevation-models/budget';
import { demCrs } from '../../domain/elevation-models/crs';
import type { BuiltPyramid } from '../../domain/elevation-models/pyramid';
import { RasterError, UploadReadError } from '../../domain/elevation-models/raster-error';
import { mosaicOf, partWindow, pasteBlock } from '../../domain/elevation-models/mosaic';
import { latticeFrame, resampleWindow, sourceWindow, type CellWindow, type RasterFrame, type SourceBlock, type SourceRaster } from '../../domain/elevation-models/reproject';
import { verticalConversion, type VerticalConversion, type VerticalReference } from '../../domain/elevation-models/vertical';
import { planWindows, tileWindow, WindowedPyramid, type LatticeSize, type WindowPlan, type WindowTiles } from '../../domain/elevation-models/windows';
import { openRangedTiff, storedFile, type RangedFile, type StoredUpload } from './ranged-tiff';
import type { RangedBlobStore } from '../../ports';

/** A GeoTIFF in memory, or read by ranges where it is stored (an upload is never read whole). */
export type DemFile = Uint8Array | RangedFile;

/** GeoKey value of a user-defined (non-EPSG) CRS. */
const USER_DEFINED = 32767;
const PIXEL_IS_POINT = 2;

/** A read of a stored file that failed where it is stored, as the error that says so (not a verdict on the file). */
function storageFailure(file: DemFile): UploadReadError | undefined {
  const failure = file instanceof Uint8Array ? undefined : file.readFailure?.();
  return failure && new UploadReadError(`Reading the stored upload failed: ${failure.message}`);
}

/**
 * Runs a read of the file's structure or samples; whatever the decoder throws is a corrupt file,
 * unless a read of the stored file itself failed.
 */
async function reading<T>(file: DemFile, what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof RasterError) throw error;
    throw storageFailure(file) ?? new RasterError(`The GeoTIFF's ${what} cannot be read (${error instanceof Error ? error.message : String(error)}): the file is truncated or corrupt.`, 'unreadable_raster');
  }
}

/** What the header declares about the decoding: sizes and the compressed byte counts, no sample read. */
async function declaredRaster(file: DemFile, image: GeoTIFFImage, fileBytes: number): Promise<DeclaredRaster> {
  return reading(file, 'strip or tile table', async () => {
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

/** The source cells of one window, decoding only the strips or tiles it intersects. */
async function decodeWindow({ file, image }: Pick<OpenedDem, 'file' | 'image'>, window: CellWindow): Promise<SourceBlock> {
  const { row0, col0, width, height } = window;
  const [band] = await reading(file, 'samples', () => image.readRasters({ window: [col0, row0, col0 + width, row0 + height], samples: [0], interleave: false })) as unknown as [SourceRaster['values']];
  return { ...window, values: band };
}

/** An opened GeoTIFF DEM, priced from its header: where it lies, its no-data value, nothing decoded. */
export interface OpenedDem {
  file: DemFile;
  image: GeoTIFFImage;
  frame: RasterFrame;
  nodata?: number;
}

/** The file's GeoTIFF structure (geotiff is loaded with the first raster read: most requests read none). */
async function openTiff(file: DemFile) {
  if (!(file instanceof Uint8Array)) return openRangedTiff(file);
  const { fromArrayBuffer } = await import('geotiff');
  const whole = file.byteOffset === 0 && file.byteLength === file.buffer.byteLength;
  return fromArrayBuffer((whole ? file.buffer : file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength)) as ArrayBuffer);
}

/**
 * Opens a single-band GeoTIFF DEM: its geotransform, no-data value and EPSG CRS. What the decoding
 * and the resampled lattice would cost is checked from the header first (see budget.ts); samples
 * are decoded only later, one window at a time.
 */
export async function openGeoTiffDem(file: DemFile): Promise<OpenedDem> {
  let image: GeoTIFFImage;
  try {
    image = await (await openTiff(file)).getImage();
  } catch (error) {
    throw storageFailure(file) ?? new RasterError(`The file is not a readable GeoTIFF (${(error as Error).message}).`, 'not_a_geotiff');
  }
  const keys = (await reading(file, 'GeoKeys', async () => image.getGeoKeys() ?? {})) as Record<string, number | undefined>;
  const epsg = keys.ProjectedCSTypeGeoKey ?? keys.GeographicTypeGeoKey;
  if (epsg === undefined || epsg === USER_DEFINED) throw new RasterError('The GeoTIFF names no EPSG coordinate system (ProjectedCSTypeGeoKey or GeographicTypeGeoKey).', 'unsupported_crs');
  const crs = demCrs(epsg);
  if (!crs) throw new RasterError(`EPSG:${epsg} is not a coordinate system this service reprojects (Florida State Plane, UTM 16N/17N, Florida GDL Albers, NAD83/WGS84/NAD27 geographic).`, 'unsupported_crs');
  if (image.getSamplesPerPixel() !== 1) throw new RasterError(`The GeoTIFF has ${image.getSamplesPerPixel()} bands; an elevation model has one.`);
  checkDeclaredRaster(await declaredRaster(file, image, file instanceof Uint8Array ? file.byteLength : file.size));
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
  const nodata = image.getGDALNoData();
  return { file, image, frame, ...(nodata === null ? {} : { nodata }) };
}

/** Reads a GeoTIFF DEM whole: its samples with its frame (for small rasters; models are processed by windows). */
export async function readGeoTiffDem(bytes: Uint8Array): Promise<SourceRaster> {
  const opened = await openGeoTiffDem(bytes);
  const { frame, nodata } = opened;
  const { values } = await decodeWindow(opened, { row0: 0, col0: 0, width: frame.width, height: frame.height });
  return { values, ...frame, ...(nodata === undefined ? {} : { nodata }) };
}

export interface ProcessOptions extends VerticalReference {
  /** Raw value the source uses for open water (the USGS quads set sea and estuaries to 0). */
  water_raw_value?: number;
}

export interface ProcessedDem extends BuiltPyramid {
  crs: { epsg: number; name: string };
  vertical_conversion: string;
}

export interface WindowedProcessing {
  /** Side of a window in level-0 tiles (a power of two; windows.ts). */
  windowTiles?: number;
  /** Most windows processed in this run: a DEM of more is not processed but answered with its window count (to fan out). */
  windowLimit?: number;
  /**
   * Takes each window's tiles as they are made (writing them out), so they are not kept: the
   * result then holds no tiles. Without it, the tiles are gathered in the result.
   */
  writeTiles?: (tiles: Map<string, Uint8Array>) => Promise<void>;
}

/** What a model is processed from: one GeoTIFF, or the mosaic of the parts it was uploaded in. */
export interface DemSource {
  frame: RasterFrame;
  nodata?: number;
  /** Bytes a decoded sample takes (priced before decoding). */
  bytesPerSample: number;
  /** The samples of a window of the source's cells, decoding only the strips or tiles it needs. */
  decode(window: CellWindow): Promise<SourceBlock>;
}

/** A DEM and the window plan of its lattice: all a window needs to be processed, wherever it runs. */
export interface WindowedDem {
  source: DemSource;
  plan: WindowPlan;
  /** The source cells each window of the plan reads (undefined: the window lies outside the raster). */
  sourceWindows: Array<CellWindow | undefined>;
  conversion: VerticalConversion;
  waterRawValue?: number;
}

/** One opened GeoTIFF as a source. */
function singleSource(opened: OpenedDem): DemSource {
  const { image, frame, nodata } = opened;
  return { frame, ...(nodata === undefined ? {} : { nodata }), bytesPerSample: image.getBytesPerPixel(), decode: (window) => decodeWindow(opened, window) };
}

/**
 * The parts of a model as one raster on their shared grid (mosaic.ts): a window's samples are
 * assembled as Float32 (no-data as NaN) from the parts it covers, each decoding only its own
 * strips or tiles within the window.
 */
function mosaicSource(parts: readonly OpenedDem[]): DemSource {
  const { frame, placements } = mosaicOf(parts.map((part) => part.frame));
  return {
    frame,
    // The window assembled (4 bytes a cell) and one part's share of it decoded, at most as wide.
    bytesPerSample: Math.max(4, ...parts.map((part) => part.image.getBytesPerPixel())),
    async decode(window) {
      const values = new Float32Array(window.width * window.height).fill(Number.NaN);
      for (const [i, part] of parts.entries()) {
        const own = partWindow(placements[i]!, window);
        if (own) pasteBlock(values, window, placements[i]!, await decodeWindow(part, own), part.nodata);
      }
      return { ...window, values };
    },
  };
}

/** Opens part `k` of `n`; a refusal names the part. */
async function openPart(file: DemFile, k: number, n: number): Promise<OpenedDem> {
  try {
    return await openGeoTiffDem(file);
  } catch (error) {
    if (error instanceof RasterError) throw new RasterError(`Part ${k} of ${n}: ${error.message}`, error.code);
    throw error;
  }
}

/** A model's source: its one GeoTIFF, or its parts opened in order and laid on their shared grid. */
async function openSource(files: DemFile | readonly DemFile[]): Promise<DemSource> {
  const list: readonly DemFile[] = Array.isArray(files) ? files : [files as DemFile];
  if (list.length === 1) return singleSource(await openGeoTiffDem(list[0]!));
  const parts: OpenedDem[] = [];
  for (const [i, file] of list.entries()) parts.push(await openPart(file, i + 1, list.length));
  return mosaicSource(parts);
}

/** Opens a DEM (one GeoTIFF, or a model's parts) and plans its windows, every window's decoding priced before any is decoded. */
export async function planGeoTiffDem(files: DemFile | readonly DemFile[], options: ProcessOptions, windowTiles?: number): Promise<WindowedDem> {
  const conversion = verticalConversion(options);
  const source = await openSource(files);
  const plan = planWindows(latticeFrame(source.frame), windowTiles);
  const sourceWindows = plan.windows.map((window) => sourceWindow(source.frame, plan.lattice, window));
  for (const window of sourceWindows) if (window) checkWindowSource(window.width, window.height, source.bytesPerSample);
  return { source, plan, sourceWindows, conversion, ...(options.water_raw_value === undefined ? {} : { waterRawValue: options.water_raw_value }) };
}

/**
 * Window `i` of a planned DEM: its source cells decoded (only the strips or tiles it intersects),
 * their heights checked, resampled and tiled. The unit a fan-out distributes.
 */
export async function processWindow(dem: WindowedDem, i: number): Promise<WindowTiles & { samples: ReturnType<typeof sampleStats> }> {
  const { source } = dem;
  const window = dem.sourceWindows[i];
  const block = window && await source.decode(window);
  const samples = block ? sampleStats(block.values, source.nodata) : NO_SAMPLES;
  checkElevationRange(samples, dem.conversion);
  const resampled = resampleWindow({ ...source.frame, ...(source.nodata === undefined ? {} : { nodata: source.nodata }) }, block, dem.plan.lattice, dem.plan.windows[i]!, dem.conversion, dem.waterRawValue);
  return { ...tileWindow(dem.plan, resampled), samples };
}

/**
 * A model's GeoTIFF (or its parts) → one reprojected, datum-converted tile pyramid (the one
 * processing used by the worker and the CLI), one window after another: memory holds one window,
 * whatever the model's size (and, for a file read by ranges, only the bytes of that window's strips
 * or tiles).
 */
export function processDem(files: DemFile | readonly DemFile[], options: ProcessOptions, processing?: Omit<WindowedProcessing, 'windowLimit'>): Promise<ProcessedDem>;
export function processDem(files: DemFile | readonly DemFile[], options: ProcessOptions, processing: WindowedProcessing): Promise<ProcessedDem | BeyondOneRun>;
export async function processDem(files: DemFile | readonly DemFile[], options: ProcessOptions, processing: WindowedProcessing = {}): Promise<ProcessedDem | BeyondOneRun> {
  const dem = await planGeoTiffDem(files, options, processing.windowTiles);
  if (processing.windowLimit !== undefined && dem.plan.windows.length > processing.windowLimit) return { beyond_one_run: { windows: dem.plan.windows.length, lattice: { width: dem.plan.lattice.width, height: dem.plan.lattice.height } } };
  const kept = new Map<string, Uint8Array>();
  const take = processing.writeTiles ?? (async (tiles: Map<string, Uint8Array>) => { for (const [key, tile] of tiles) kept.set(key, tile); });
  const pyramid = new WindowedPyramid(dem.plan, dem.conversion.stored_datum, dem.waterRawValue !== undefined);
  let samples = NO_SAMPLES;
  for (let i = 0; i < dem.plan.windows.length; i++) {
    const window = await processWindow(dem, i);
    samples = mergeStats(samples, window.samples);
    pyramid.add(window);
    await take(window.tiles);
  }
  // Decoded windows overlap by a few cells at their edges: the share of valid cells is the source's within that.
  checkElevationStats(samples, dem.conversion);
  const built = pyramid.finish();
  await take(built.tiles);
  return processedDemOf(dem, { index: built.index, tiles: kept });
}

/** A DEM too large for one run: its windows are processed by a fan-out (processing-fan-out.ts). */
export interface BeyondOneRun { beyond_one_run: { windows: number; lattice: LatticeSize } }

/** The processed model of a planned DEM from its pyramid. */
export function processedDemOf(dem: WindowedDem, pyramid: BuiltPyramid): ProcessedDem {
  const { crs } = dem.source.frame;
  return { ...pyramid, crs: { epsg: crs.epsg, name: crs.name }, vertical_conversion: dem.conversion.description };
}

/** `processDem` over a model's uploads in `blobs` (its parts, in order), each read by ranges where it is (the worker Lambda's processing). */
export function processStoredDem(blobs: Pick<RangedBlobStore, 'readRange'>) {
  return (uploads: readonly StoredUpload[], options: ProcessOptions, processing: WindowedProcessing = {}) => processDem(uploads.map((upload) => storedFile(blobs, upload.key, upload.size)), options, processing);
}
