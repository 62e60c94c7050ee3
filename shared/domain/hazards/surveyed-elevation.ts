import { normalizeHeader } from '../assets/columns';

const METRES_PER_US_FOOT = 1200 / 3937;

/**
 * Asset columns holding a surveyed elevation (NAVD88), best first: the ground at the asset, then
 * its first floor. Feet are read as US survey feet, as Florida's State Plane surveys state them
 * (the difference from international feet is 2 ppm, 0.02 mm at 10 ft).
 */
const SURVEYED_COLUMNS: readonly { column: string; kind: 'ground' | 'first_floor'; toMetres: number }[] = [
  { column: 'ground_elevation_ft_navd88', kind: 'ground', toMetres: METRES_PER_US_FOOT },
  { column: 'ground_elevation_m_navd88', kind: 'ground', toMetres: 1 },
  { column: 'first_floor_elevation_ft_navd88', kind: 'first_floor', toMetres: METRES_PER_US_FOOT },
  { column: 'first_floor_elevation_m_navd88', kind: 'first_floor', toMetres: 1 },
];

export interface SurveyedElevation {
  navd88_m: number;
  kind: 'ground' | 'first_floor';
  /** The asset file's column it was read from. */
  column: string;
}

/** Florida's land lies between about −3 m (mine pits) and 105 m (Britton Hill): outside that a value is not an elevation in these units. */
const PLAUSIBLE_M: readonly [number, number] = [-10, 120];

/** The asset's surveyed elevation from its kept columns (matched after header normalisation), if one holds a number. */
export function surveyedElevation(attributes: Readonly<Record<string, string | number | boolean>> | undefined): SurveyedElevation | undefined {
  if (!attributes) return undefined;
  const byName = new Map(Object.keys(attributes).map((key) => [normalizeHeader(key), key]));
  for (const { column, kind, toMetres } of SURVEYED_COLUMNS) {
    const key = byName.get(column);
    if (key === undefined) continue;
    const raw = attributes[key];
    const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
    const metres = value * toMetres;
    if (Number.isFinite(metres) && metres >= PLAUSIBLE_M[0] && metres <= PLAUSIBLE_M[1]) return { navd88_m: metres, kind, column: key };
  }
  return undefined;
}

