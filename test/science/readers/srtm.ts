import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';

/** The repository's bundled SRTM tiles, read here independently of the product's tile source. */
export const SRTM_DIR = path.join(__dirname, '../../../shared/data/hazards/srtm1');
export const SRTM_SIZE = 3601;

export function bundledTiles(): string[] {
  return readdirSync(SRTM_DIR).filter((f) => f.endsWith('.hgt.zip')).map((f) => f.slice(0, -'.hgt.zip'.length)).sort();
}

/** A tile's raw big-endian int16 samples, row 0 at the north edge (SRTM HGT layout). */
export function readTile(name: string): Int16Array {
  const bytes = Object.values(unzipSync(readFileSync(path.join(SRTM_DIR, `${name}.hgt.zip`))))[0]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const samples = new Int16Array(SRTM_SIZE * SRTM_SIZE);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, false);
  return samples;
}

/** South-west corner of a tile from its name (N24W082 → lat 24, lon −82). */
export function tileOrigin(name: string): { lat: number; lon: number } {
  const m = /^([NS])(\d{2})([EW])(\d{3})$/.exec(name)!;
  return { lat: (m[1] === 'N' ? 1 : -1) * Number(m[2]), lon: (m[3] === 'E' ? 1 : -1) * Number(m[4]) };
}
