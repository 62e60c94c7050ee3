import type { ElevationGrid } from './elevation';

export interface DatumCorrection {
  from: 'NAVD88' | 'EGM96';
  applied_offset_m: number;
  method: string;
  uncertainty: string;
}

/**
 * SRTM heights are on the EGM96 geoid with the sea surface set to 0 m, i.e. heights above the local
 * mean sea surface of 2000. No geoid-difference grid ships with the product, so they are converted
 * to NAVD88 through the tide gauges instead: NAVD88 height = SRTM height + (MSL − NAVD88) from the
 * NOAA station datums of the selected gauges (Key West: −0.266 m). NAVD88 DEMs pass through.
 */
export function toNavd88(grid: ElevationGrid, mslAboveNavd88: number): { grid: ElevationGrid; correction: DatumCorrection } {
  if (grid.verticalDatum === 'NAVD88') {
    return { grid, correction: { from: 'NAVD88', applied_offset_m: 0, method: 'The DEM is already referenced to NAVD88.', uncertainty: 'That of the DEM.' } };
  }
  const values = new Float32Array(grid.values.length);
  for (let i = 0; i < values.length; i++) values[i] = grid.values[i]! + mslAboveNavd88;
  return {
    grid: { ...grid, values, verticalDatum: 'NAVD88' },
    correction: {
      from: 'EGM96',
      applied_offset_m: Math.round(mslAboveNavd88 * 1000) / 1000,
      method: 'SRTM heights (EGM96, sea surface = 0 m) taken as heights above local mean sea level and shifted by MSL − NAVD88 from the NOAA tidal datums (1983–2001 epoch) of the selected gauges.',
      uncertainty: 'The EGM96 geoid departs from local mean sea level by up to a few decimetres and sea level rose by a few centimetres between the datum epoch (centre 1992) and the SRTM flight (2000); both are small against the SRTM vertical error of several metres over built-up and vegetated ground. Screening level only.',
    },
  };
}
