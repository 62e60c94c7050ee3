import { bboxContains, joinedExtent, type ElevationGrid, type ElevationSource, type ElevationSourceInfo } from '../../domain/hazards/elevation';
import { bboxesIntersect, type BBox } from '../../domain/hazards/geo';

/** An elevation model read before the fallbacks (tiled, or a COG read by ranges): a source with its extent and name. */
export interface ModelLayer extends ElevationSource {
  readonly bbox: BBox;
  readonly name: string;
}

/**
 * Elevation models first, then the fallbacks in order (the statewide bare-earth source, a surface
 * model such as SRTM): a window is read from the first model that covers its centre (the point
 * asked about), then from the other models it overlaps, then from the fallbacks. `layersFor` names
 * them in that order; the analyses fill what the first leaves uncovered from the next, after each
 * is in NAVD88, and leave out a surface model unless the caller allows it.
 */
export class LayeredElevationSource implements ElevationSource {
  private readonly fallbacks: readonly ElevationSource[];

  constructor(private readonly models: readonly ModelLayer[], ...fallbacks: ElevationSource[]) {
    this.fallbacks = fallbacks;
  }

  private pick(box: BBox): ModelLayer | undefined {
    const lon = (box[0] + box[2]) / 2, lat = (box[1] + box[3]) / 2;
    return this.models.find((m) => bboxContains(m.bbox, lon, lat));
  }

  /**
   * Without a box the first fallback's description leads (its first word names the DEM family that
   * evidence checks match), followed by the models that take precedence where they cover a point.
   */
  info(): ElevationSourceInfo {
    const lead = this.fallbacks[0]?.info();
    const names = this.models.map((m) => m.name).join('; ');
    if (!lead) return { name: names ? `Elevation models: ${names}` : 'No elevation model', vertical_datum: 'NAVD88', native_resolution: 'per model' };
    if (this.models.length === 0) return lead;
    return { ...lead, name: `${lead.name}, except where a bare-earth model covers the point: ${names}` };
  }

  /** The source that answers for `box`, named with its own datum and resolution. */
  infoFor(box: BBox): ElevationSourceInfo {
    return this.layersFor(box)[0]!.info();
  }

  async grid(box: BBox, maxCells: number): Promise<ElevationGrid | undefined> {
    for (const layer of this.layersFor(box)) {
      const grid = await layer.grid(box, maxCells);
      if (grid) return grid;
    }
    return undefined;
  }

  /** The model covering the centre of `box`, the other models it overlaps, then the fallbacks. */
  layersFor(box: BBox): ElevationSource[] {
    const picked = this.pick(box);
    const overlapping = this.models.filter((m) => m !== picked && bboxesIntersect(m.bbox, box));
    return [...(picked ? [picked] : []), ...overlapping, ...this.fallbacks];
  }

  /**
   * The model covering the point joined with every model it touches, directly or through others
   * (adjoining quads form one extent); where no model covers it, the first fallback's extent there.
   */
  extentAt(lon: number, lat: number): BBox | undefined {
    const models = joinedExtent(this.models.map((m) => m.bbox), lon, lat);
    if (models) return models;
    for (const fallback of this.fallbacks) {
      const extent = fallback.extentAt?.(lon, lat);
      if (extent) return extent;
    }
    return undefined;
  }
}
