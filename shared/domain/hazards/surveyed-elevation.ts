import { normalizeHeader } from '../assets/columns';
import { readSurveyed, SURVEYED_ELEVATION_COLUMNS } from '../assets/surveyed-columns';

export interface SurveyedElevation {
  navd88_m: number;
  kind: 'ground' | 'first_floor';
  /** The asset file's column it was read from. */
  column: string;
}

/** The asset's surveyed elevation from its kept columns (matched after header normalisation), if one holds a plausible number. */
export function surveyedElevation(attributes: Readonly<Record<string, string | number | boolean>> | undefined): SurveyedElevation | undefined {
  if (!attributes) return undefined;
  const byName = new Map(Object.keys(attributes).map((key) => [normalizeHeader(key), key]));
  for (const { column, kind } of SURVEYED_ELEVATION_COLUMNS) {
    const key = byName.get(column);
    if (key === undefined) continue;
    const reading = readSurveyed(column, attributes[key]);
    if (reading && 'metres' in reading) return { navd88_m: reading.metres, kind, column: key };
  }
  return undefined;
}
