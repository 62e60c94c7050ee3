import { readFileSync } from 'node:fs';
import path from 'node:path';
import proj4 from 'proj4';
import { fromArrayBuffer } from 'geotiff';
import fl2237 from 'epsg-index/s/2237.json';
import { BUNDLED_MODELS_DIR } from '../../shared/adapters/elevation';
import { LayeredElevationSource } from '../../shared/adapters/elevation/layered';
import { SrtmTileSource } from '../../shared/adapters/elevation/srtm-tiles';
import { modelsIn } from '../../shared/adapters/elevation/tiled-model';
import { sampleBilinear } from '../../shared/domain/elevation-models/pyramid';

const US_FT = 1200 / 3937;
const models = modelsIn(BUNDLED_MODELS_DIR);
const tampa = models.find((m) => m.record.elevation_model_id === 'usgs-24k-tampa')!;

describe('bundled bare-earth models (USGS 7.5-minute quads)', () => {
  it('lists the five quads as bare-earth NAVD88 models at about 30 m, each naming its datum conversion', () => {
    expect(models.map((m) => m.record.elevation_model_id).sort()).toEqual(
      ['usgs-24k-cape-canaveral', 'usgs-24k-cedar-key', 'usgs-24k-courtenay', 'usgs-24k-tampa', 'usgs-24k-titusville']);
    for (const { record } of models) {
      expect(record).toMatchObject({ vertical_datum: 'NAVD88', source_vertical_datum: 'NGVD29', surface_model: false, crs: { epsg: 26717 } });
      expect(record.resolution_m).toBeGreaterThan(29.5);
      expect(record.resolution_m).toBeLessThan(30.5);
      expect(record.vertical_conversion).toMatch(/NGVD29 .* NAVD88 .* shift of -0\.\d+ m/);
    }
  });

  it('gives Tampa ground on flat ground equal to the quad value (State Plane clip read independently) shifted by the stated −0.87 ft', async () => {
    const bytes = readFileSync(path.join(__dirname, '../fixtures/dem/tampa_clip_fl_west_ftus_ngvd29.tif'));
    const image = await (await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))).getImage();
    const [band] = await image.readRasters({ interleave: false }) as unknown as [Float32Array];
    const [ox, oy] = image.getOrigin() as [number, number];
    const [sx, sy] = image.getResolution() as [number, number];
    const width = image.getWidth(), height = image.getHeight();
    const grid = (await tampa.grid([-82.47, 27.92, -82.43, 27.95], 1e7))!;
    expect(grid.verticalDatum).toBe('NAVD88');
    const toLonLat = proj4(fl2237.proj4);
    let checked = 0;
    // Cells whose 7×7 neighbourhood (±300 ft, ten USGS posts across) holds one value lie on flat ground,
    // where the quad's posts all agree and interpolation cannot move the value.
    for (let r = 3; r < height - 3; r += 2) {
      for (let c = 3; c < width - 3; c += 2) {
        const v = band[r * width + c]!;
        if (v === 0) continue;
        let flat = true;
        for (let dr = -3; dr <= 3 && flat; dr++) for (let dc = -3; dc <= 3 && flat; dc++) flat = band[(r + dr) * width + c + dc] === v;
        if (!flat) continue;
        const [lon, lat] = toLonLat.inverse([ox + (c + 0.5) * sx, oy + (r + 0.5) * sy]) as [number, number];
        expect(sampleBilinear(grid, lat, lon)).toBeCloseTo((v - 0.87) * US_FT, 2);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('has no whole-unit steps: the land at or below a level grows with every 0.35 m (more than the 1 ft source step) from 0.5 to 3 m', async () => {
    const grid = (await tampa.grid(tampa.record.bbox, 1e7))!;
    const landBelow = (level: number) => {
      let n = 0;
      for (let i = 0; i < grid.values.length; i++) if (grid.water![i] === 0 && grid.values[i]! <= level) n++;
      return n;
    };
    const counts = [0.5, 0.85, 1.2, 1.55, 1.9, 2.25, 2.6, 2.95].map(landBelow);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThan(counts[i - 1]!);
  });

  it('answers from the bare-earth model where it covers the point, from SRTM (a surface model) elsewhere', async () => {
    const layered = new LayeredElevationSource(models, new SrtmTileSource());
    const inTampa = [-82.46, 27.94, -82.45, 27.95] as const;
    const keyWest = [-81.81, 24.55, -81.79, 24.57] as const;
    expect(layered.infoFor([...inTampa])).toMatchObject({ name: tampa.record.name, vertical_datum: 'NAVD88' });
    expect((await layered.grid([...inTampa], 10_000))!.verticalDatum).toBe('NAVD88');
    expect(layered.infoFor([...keyWest]).name).toMatch(/surface model/);
    expect((await layered.grid([...keyWest], 10_000))!.verticalDatum).toBe('EGM96');
    expect(layered.info().name).toMatch(/^SRTM .*, except where a bare-earth model covers the point: .*USGS 7\.5-minute DEM TAMPA/);
    expect(new LayeredElevationSource([], new SrtmTileSource()).info()).toEqual(new SrtmTileSource().info());
  });
});
