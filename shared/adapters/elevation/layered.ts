import type { ElevationGrid, ElevationSource, ElevationSourceInfo } from '../../domain/hazards/elevation';
import type { BBox } from '../../domain/hazards/geo';
import type { TiledModelSource } from './tiled-model';

function contains([w, s, e, n]: BBox, lon: number, lat: number): boolean {
  return lon >= w && lon <= e && lat >= s && lat <= n;
}

/**
 * Elevation models first, a fallback elsewhere: a window is read from the first model that covers
 * its centre (the point asked about), else from the fallback (SRTM, a surface model). Where the
 * model leaves part of the window uncovered, `layersFor` names the fallback that fills it (the
 * analyses fill it after both are in NAVD88 and say which share came from which).
 */
export class LayeredElevationSource implements ElevationSource {
  constructor(private readonly models: readonly TiledModelSource[], private readonly fallback: ElevationSource) {}

  private pick(box: BBox): ElevationSource {
    const lon = (box[0] + box[2]) / 2, lat = (box[1] + box[3]) / 2;
    return this.models.find((m) => contains(m.record.bbox, lon, lat)) ?? this.fallback;
  }

  /**
   * Without a box the fallback's description leads (its first word names the DEM family that
   * evidence checks match), followed by the models that take precedence where they cover a point.
   */
  info(): ElevationSourceInfo {
    const fallback = this.fallback.info();
    if (this.models.length === 0) return fallback;
    return { ...fallback, name: `${fallback.name}, except where a bare-earth model covers the point: ${this.models.map((m) => m.record.name).join('; ')}` };
  }

  /** The source that answers for `box`, named with its own datum and resolution. */
  infoFor(box: BBox): ElevationSourceInfo {
    return this.pick(box).info();
  }

  grid(box: BBox, maxCells: number): Promise<ElevationGrid | undefined> {
    return this.pick(box).grid(box, maxCells);
  }

  /** The model that answers for `box`, then the fallback for what it leaves uncovered. */
  layersFor(box: BBox): ElevationSource[] {
    const picked = this.pick(box);
    return picked === this.fallback ? [picked] : [picked, this.fallback];
  }
}
