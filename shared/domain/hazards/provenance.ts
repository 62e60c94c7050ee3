import { gaugeRuleProvenance } from './gauges';
import { length } from './units';

/** Where each number comes from; every hazard answer lists the sources it used. */
export const SOURCES = {
  noaa_tr2022: {
    id: 'noaa_tr2022',
    version: 'TR_local_projections.nc of the report\'s code and data (thomasfrederikse/2021_NOAA_TR @ 955c7e7f), NOAA Technical Report NOS 01, February 2022',
    name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
    url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
    note: 'Decadal values 2020–2150, metres of relative sea level change since 2000; percentiles 17/50/83.',
  },
  noaa_tr2022_regional: {
    id: 'noaa_tr2022_regional',
    version: 'TR_regional_projections.nc, same release',
    name: 'NOAA 2022 Sea Level Rise Technical Report, regional projections (Southeast, Eastern Gulf of Mexico)',
    url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
    note: 'Used only where no Florida gauge lies within 100 miles.',
  },
  noaa_datums: {
    id: 'noaa_datums',
    version: '@neaps/tide-database 0.10.20260924; National Tidal Datum Epoch 1983–2001',
    name: 'NOAA CO-OPS tidal datums and harmonic constituents (National Tidal Datum Epoch 1983–2001), via @neaps/tide-database',
    url: 'https://tidesandcurrents.noaa.gov/datums.html',
    note: 'MHHW, MSL and NAVD88 relative to each station datum.',
  },
  noaa_htf: {
    id: 'noaa_htf',
    version: 'NOAA TR NOS CO-OPS 086 (February 2018)',
    name: 'NOAA high tide flooding thresholds and historical flood days (Sweet et al. 2018, NOAA Technical Report NOS CO-OPS 086)',
    url: 'https://tidesandcurrents.noaa.gov/publications/techrpt86_PaP_of_HTFlooding.pdf',
    note: 'Minor = 0.04·GT + 0.50 m, moderate = 0.03·GT + 0.80 m, major = 0.04·GT + 1.17 m above MHHW.',
  },
  uhslc_daily_max_peaks: {
    id: 'uhslc_daily_max_peaks',
    version: 'gpd/<Site>_pot.csv of tonyewong/surge_comparison @ cfaa837a (UHSLC data to 2018)',
    name: 'Daily maximum hourly sea levels above their 99th percentile, declustered over 3 days (UHSLC research-quality data to 2018; T. Wong, surge_comparison), 11 Florida gauges',
    url: 'https://github.com/tonyewong/surge_comparison',
    note: 'Levels in metres above each year\'s mean sea level; the observed tail of the daily highest water levels the flood-day projections shift by the rise.',
  },
  gev_wong: {
    id: 'gev_wong',
    version: 'annual maxima of tonyewong/surge_comparison @ cfaa837a (UHSLC data to 2018)',
    name: 'Annual maximum hourly sea levels (UHSLC research-quality data to 2018; T. Wong, surge_comparison), fitted here with a stationary GEV by maximum likelihood',
    url: 'https://github.com/tonyewong/surge_comparison',
    note: 'Return levels in metres above each year\'s mean sea level; tide-gauge statistics, not FEMA base flood elevations.',
  },
  srtm: {
    id: 'srtm',
    version: 'SRTM 1 arc-second v3 tiles (2005 processing)',
    name: 'SRTM 1 arc-second digital surface model (NASA/USGS), bundled tiles for coastal Florida',
    url: 'https://www.usgs.gov/centers/eros/science/usgs-eros-archive-digital-elevation-shuttle-radar-topography-mission-srtm-1',
    note: 'EGM96 heights, ~30 m cells, several metres of vertical error: screening level only.',
  },
  us_atlas: {
    id: 'us_atlas',
    version: 'us-atlas 3.0.1',
    name: 'U.S. Census Bureau cartographic county boundaries 2017 (us-atlas 3.0.1)',
    url: 'https://github.com/topojson/us-atlas',
    note: 'Florida containment of boundaries.',
  },
  hurdat2: {
    id: 'hurdat2',
    version: 'hurdat2-1851-2024-040425 (via Benjreggio/HurdatFlorida @ 6d2f4bfe)',
    name: 'NHC HURDAT2 Atlantic best tracks 1851–2024, Florida landfalls 1900–2024 (HurdatFlorida derivation)',
    url: 'https://www.nhc.noaa.gov/data/#hurdat',
    note: 'Landfall position = best-track point at the landfall time.',
  },
  ncei_storm_events: {
    id: 'ncei_storm_events',
    version: 'StormEvents_details-ftp_v1.0_d2019_c20190617',
    name: 'NOAA NCEI Storm Events Database',
    url: 'https://www.ncei.noaa.gov/stormevents/',
    note: 'Flood-type records; bundled: Florida January–March 2019; more years loaded by operators.',
  },
  fema_declarations: {
    id: 'fema_declarations',
    version: 'OpenFEMA FEMA Web Disaster Declarations v1, retrieved 2024-08-09',
    name: 'OpenFEMA FEMA Web Disaster Declarations (Florida, 1953 – Aug 2023)',
    url: 'https://www.fema.gov/openfema-data-page/fema-web-disaster-declarations-v1',
    note: 'Statewide records. This product uses the FEMA API but is not endorsed by FEMA.',
  },
  operator_layers: {
    id: 'operator_layers',
    version: 'as loaded (each result names the layer)',
    name: 'Operator-loaded hazard layers (water-surface elevation polygons, NAVD88)',
    url: null,
    note: 'Loaded with bin/hazard-layers-load.ts; each result names the layer and its stated source.',
  },
} as const;

export type SourceId = keyof typeof SOURCES;

export function sourcesOf(ids: readonly SourceId[]) {
  return [...new Set(ids)].map((id) => SOURCES[id]);
}

export const SCREENING_NOTICE = 'Screening level: ground elevations come from a digital elevation model with metres of vertical error; not a survey, not a FEMA flood zone determination.';

export const BASELINE_NOTE = 'Sea level rise values are relative to the year 2000 (NOAA 2022 baseline). Tidal datums (MHHW, MSL) are on the 1983–2001 epoch (centre 1992): water levels built on them add the 1992→2000 rise of the NOAA 2022 observed trajectory (`datum_epoch.rise_1992_to_2000`) before the projected rise.';

/** The two time bases every water level combines, and the rise between them (metres). */
export function datumEpoch(rise19922000: number) {
  return {
    tidal_datum_epoch: 'National Tidal Datum Epoch 1983–2001 (centre 1992)',
    scenario_baseline_year: 2000,
    rise_1992_to_2000: length(rise19922000),
    method: 'Median (50th percentile) of the NOAA 2022 observed sea level trajectory (`rsl_trajectory`, TR_local_projections.nc) at the selected gauges, 2000 value minus 1992 value, weighted as the gauges are; for a gauge with a data warning (a trajectory from fewer than 30 years of record, which can run negative) the trajectory of its NOAA 2022 region (TR_regional_projections.nc) instead.',
  };
}

/** What every hazard answer says about where its numbers come from and under which rule. */
export function provenance(ids: readonly SourceId[], rise19922000: number | null) {
  return {
    datasets: sourcesOf(ids).map(({ id, name, version }) => ({ id, name, version })),
    gauge_rule: gaugeRuleProvenance(),
    statute: { rule: 's. 380.093(3)(d), F.S.', verification: 'reconstructed', note: 'Two closest NOAA gauges; one gauge only when they are more than 100 miles apart and that gauge is more representative (a recorded judgement).' },
    datum_epoch: rise19922000 === null ? null : datumEpoch(rise19922000),
  };
}
