import { JobFailureError } from '../job-failure';

/** Vertical datums and units a DEM's owner may state for its values. */
export const DEM_VERTICAL_DATUMS = ['NAVD88', 'EGM96', 'NGVD29'] as const;
export const DEM_UNITS = ['m', 'ft'] as const;

/** Vertical reference and units of an uploaded DEM, as its owner states them. */
export type DemVerticalDatum = typeof DEM_VERTICAL_DATUMS[number];
export type DemUnits = typeof DEM_UNITS[number];

export interface VerticalReference {
  vertical_datum: DemVerticalDatum;
  units: DemUnits;
  /** NGVD29 → NAVD88 shift to add, in metres (from the DEM's metadata or its owner); required for NGVD29. */
  ngvd29_to_navd88_m?: number;
}

/** The conversion applied to every sample, named in the model record and in answers. */
export interface VerticalConversion {
  /** Datum of the stored values: NGVD29 is converted to NAVD88, EGM96 stays EGM96 (shifted later at the gauges). */
  stored_datum: 'NAVD88' | 'EGM96';
  scale_to_m: number;
  offset_m: number;
  description: string;
}

/** US survey foot (the unit of Florida State Plane and of the USGS quads in feet). */
export const US_SURVEY_FOOT_M = 1200 / 3937;

/** The stated vertical reference cannot be applied: the model ends `failed` with this code. */
export class VerticalReferenceError extends JobFailureError {
  readonly code = 'invalid_vertical_reference';
}

export function verticalConversion(ref: VerticalReference): VerticalConversion {
  const scale = ref.units === 'ft' ? US_SURVEY_FOOT_M : 1;
  const unitText = ref.units === 'ft' ? 'US survey feet × 0.3048006' : 'metres';
  if (ref.vertical_datum === 'NGVD29') {
    const shift = ref.ngvd29_to_navd88_m;
    if (shift === undefined || !Number.isFinite(shift)) {
      throw new VerticalReferenceError('An NGVD29 model needs ngvd29_to_navd88_m (the NGVD29 → NAVD88 shift stated in its metadata); no VERTCON grid is applied.');
    }
    // Florida shifts are between about −0.1 and −0.5 m; anything far outside is a unit or sign mistake.
    if (Math.abs(shift) > 2) throw new VerticalReferenceError(`ngvd29_to_navd88_m = ${shift} m is not a plausible NGVD29 → NAVD88 shift (|shift| ≤ 2 m).`);
    return {
      stored_datum: 'NAVD88', scale_to_m: scale, offset_m: shift,
      description: `NGVD29 ${unitText}, converted to NAVD88 metres by adding the stated shift of ${shift} m.`,
    };
  }
  return {
    stored_datum: ref.vertical_datum, scale_to_m: scale, offset_m: 0,
    description: `${ref.vertical_datum} ${unitText}, stored in metres without datum shift.`,
  };
}

export function toStoredMetres(value: number, conversion: VerticalConversion): number {
  return value * conversion.scale_to_m + conversion.offset_m;
}
