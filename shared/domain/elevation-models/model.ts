import type { BBox } from '../hazards/geo';
import type { PyramidIndex } from './pyramid';

/** What is known of a processed elevation model, stored beside its tiles as `model.json`. */
export interface ElevationModelRecord {
  elevation_model_id: string;
  name: string;
  crs: { epsg: number; name: string };
  resolution_m: number;
  bbox: BBox;
  /** Datum of the stored values (NGVD29 sources are stored converted to NAVD88). */
  vertical_datum: 'NAVD88' | 'EGM96';
  source_vertical_datum: 'NAVD88' | 'EGM96' | 'NGVD29';
  vertical_conversion: string;
  vertical_accuracy_m: number | null;
  /** false: bare-earth terrain; true: a surface model (buildings and canopy included). */
  surface_model: boolean;
  source?: string;
  pyramid: PyramidIndex;
}

export function modelResolutionText(record: ElevationModelRecord): string {
  return `${Math.round(record.resolution_m * 10) / 10} m`;
}
