/**
 * The one TIFF encoder of the project (written from the TIFF 6.0 specification): a classic
 * little-endian file with every image directory first, chained in order, then every image's blocks
 * (strips or tiles), as a Cloud-Optimized GeoTIFF lays them out. The local statewide COGs and the
 * test files (hostile rasters included) are written with it; the reader under test is another code.
 */
export const TIFF_TYPE = { ASCII: 2, SHORT: 3, LONG: 4, DOUBLE: 12 } as const;
export type TiffEntry = [tag: number, type: number, values: number[] | string];

/** One image: its tags (block offsets and byte counts are added here) and its blocks, already compressed. */
export interface TiffImage { entries: TiffEntry[]; blocks: Uint8Array[]; layout: 'strips' | 'tiles' }

const BLOCK_TAGS = { strips: [273, 279], tiles: [324, 325] } as const;
const sizeOf = (type: number) => (type === TIFF_TYPE.DOUBLE ? 8 : type === TIFF_TYPE.LONG ? 4 : type === TIFF_TYPE.SHORT ? 2 : 1);
const lengthOf = ([, type, values]: TiffEntry) => values.length * sizeOf(type);
const paddedOutOfLine = (entry: TiffEntry) => (lengthOf(entry) > 4 ? lengthOf(entry) + (lengthOf(entry) % 2) : 0);

/** The image's tags with its block offsets and byte counts, in ascending tag order as TIFF requires. */
function entriesOf(image: TiffImage, offsets: number[]): TiffEntry[] {
  const [offsetTag, countTag] = BLOCK_TAGS[image.layout];
  const entries: TiffEntry[] = [...image.entries, [offsetTag, TIFF_TYPE.LONG, offsets], [countTag, TIFF_TYPE.LONG, image.blocks.map((b) => b.byteLength)]];
  return entries.sort((a, b) => a[0] - b[0]);
}

export function encodeTiff(images: readonly TiffImage[]): Uint8Array {
  // Directory sizes depend on the number of offsets, not their values.
  const directorySizes = images.map((image) => {
    const entries = entriesOf(image, image.blocks.map(() => 0));
    return 2 + entries.length * 12 + 4 + entries.reduce((sum, e) => sum + paddedOutOfLine(e), 0);
  });
  let dataAt = 8 + directorySizes.reduce((a, b) => a + b, 0);
  const offsets = images.map((image) => image.blocks.map((block) => { const at = dataAt; dataAt += block.byteLength; return at; }));
  const bytes = new Uint8Array(dataAt);
  const view = new DataView(bytes.buffer);
  bytes.set([0x49, 0x49, 42, 0, 8, 0, 0, 0]);
  let at = 8;
  images.forEach((image, i) => {
    const entries = entriesOf(image, offsets[i]!);
    const start = at;
    let extra = start + 2 + entries.length * 12 + 4;
    view.setUint16(at, entries.length, true);
    at += 2;
    for (const entry of entries) {
      const [tag, type, values] = entry;
      view.setUint16(at, tag, true);
      view.setUint16(at + 2, type, true);
      view.setUint32(at + 4, values.length, true);
      const inline = lengthOf(entry) <= 4;
      let target = inline ? at + 8 : extra;
      if (!inline) view.setUint32(at + 8, extra, true);
      for (let k = 0; k < values.length; k++) {
        const v = typeof values === 'string' ? values.charCodeAt(k) : values[k]!;
        if (type === TIFF_TYPE.DOUBLE) view.setFloat64(target, v, true);
        else if (type === TIFF_TYPE.LONG) view.setUint32(target, v, true);
        else if (type === TIFF_TYPE.SHORT) view.setUint16(target, v, true);
        else view.setUint8(target, v);
        target += sizeOf(type);
      }
      extra += paddedOutOfLine(entry);
      at += 12;
    }
    view.setUint32(at, i + 1 < images.length ? start + directorySizes[i]! : 0, true);
    at = start + directorySizes[i]!;
    image.blocks.forEach((block, k) => bytes.set(block, offsets[i]![k]!));
  });
  return bytes;
}
