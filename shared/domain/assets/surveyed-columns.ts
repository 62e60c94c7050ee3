import { decimalFromText } from '../decimal-text';

const METRES_PER_US_FOOT = 1200 / 3937;

/**
 * Asset columns holding a surveyed elevation (NAVD88), best first: the ground at the asset, then
 * its first floor. A file column of one of these names is read as such; `column_map` can give any
 * other column one of these names. Feet are read as US survey feet, as Florida's State Plane
 * surveys state them (the difference from international feet is 2 ppm, 0.02 mm at 10 ft).
 */
export const SURVEYED_ELEVATION_COLUMNS = [
  { column: 'ground_elevation_ft_navd88', kind: 'ground', toMetres: METRES_PER_US_FOOT },
  { column: 'ground_elevation_m_navd88', kind: 'ground', toMetres: 1 },
  { column: 'first_floor_elevation_ft_navd88', kind: 'first_floor', toMetres: METRES_PER_US_FOOT },
  { column: 'first_floor_elevation_m_navd88', kind: 'first_floor', toMetres: 1 },
] as const;

export type SurveyedElevationField = (typeof SURVEYED_ELEVATION_COLUMNS)[number]['column'];
export const SURVEYED_ELEVATION_FIELDS = SURVEYED_ELEVATION_COLUMNS.map(({ column }) => column) as [SurveyedElevationField, ...SurveyedElevationField[]];

/** Florida's land lies between about −3 m (mine pits) and 105 m (Britton Hill): outside that a value is not an elevation in these units. */
export const PLAUSIBLE_ELEVATION_M: readonly [number, number] = [-10, 120];

export type SurveyedReading = { metres: number } | { problem: 'invalid_number' | 'out_of_range'; message: string } | undefined;

/** A surveyed column's cell read as metres NAVD88; undefined when the cell is blank. */
export function readSurveyed(field: SurveyedElevationField, raw: unknown): SurveyedReading {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return undefined;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' ? decimalFromText(raw.trim()) : Number.NaN;
  const unit = field.includes('_ft_') ? 'US survey feet' : 'metres';
  if (!Number.isFinite(value)) return { problem: 'invalid_number', message: `Not a number: ${field} is an elevation in ${unit}, NAVD88.` };
  const { toMetres } = SURVEYED_ELEVATION_COLUMNS.find((c) => c.column === field)!;
  const metres = value * toMetres;
  if (metres < PLAUSIBLE_ELEVATION_M[0] || metres > PLAUSIBLE_ELEVATION_M[1]) {
    return { problem: 'out_of_range', message: `${value} is not a Florida elevation in ${unit} (NAVD88 ${PLAUSIBLE_ELEVATION_M[0]} to ${PLAUSIBLE_ELEVATION_M[1]} m); check the unit the column_map names.` };
  }
  return { metres };
}
