import tideStations from '../../shared/data/hazards/tide-stations.json';

/** A NOAA station's mean sea level above NAVD88 (m), from its datums as NOAA publishes them. */
export function stationMslNavd88(noaaId: string): number {
  const station = tideStations.find((candidate) => candidate.noaa_id === noaaId);
  if (!station) throw new Error(`No tide station ${noaaId} in the datums file.`);
  const datums = station.datums_m_above_station_datum;
  return datums.MSL - datums.NAVD88;
}

/** A level to the millimetre below (a connection's sea surface is stated so). */
export const millimetreBelow = (level: number) => Math.floor(level * 1000 + 1e-6) / 1000;

/** The sea surface a Tampa Bay model is traced at: the lower of St. Petersburg's and Clearwater Beach's mean sea levels. */
export const tampaBaySeaSurface = () => millimetreBelow(Math.min(stationMslNavd88('8726520'), stationMslNavd88('8726724')));
