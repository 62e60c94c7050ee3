/** The international foot: exactly 0.3048 m. Users work in feet; the science is in metres. */
export const METRES_PER_FOOT = 0.3048;

export interface Length {
  m: number;
  ft: number;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A length in both units, metres to the millimetre (the source precision), feet to 1/1000. */
export function length(metres: number): Length {
  return { m: round(metres, 4), ft: round(metres / METRES_PER_FOOT, 4) };
}

export function roundTo(value: number, digits: number): number {
  return round(value, digits);
}

export const SQ_METRES_PER_ACRE = 4046.8564224;

export function area(squareMetres: number): { acres: number; km2: number } {
  return { acres: round(squareMetres / SQ_METRES_PER_ACRE, 2), km2: round(squareMetres / 1e6, 4) };
}
