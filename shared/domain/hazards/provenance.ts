/** Where each number comes from; every hazard answer lists the sources it used. */
export const SOURCES = {
  noaa_tr2022: {
    id: 'noaa_tr2022',
    name: 'NOAA 2022 Sea Level Rise Technical Report (Sweet et al. 2022), local projections at NOAA tide gauges',
    url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
    note: 'Decadal values 2020–2150, metres of relative sea level change since 2000; percentiles 17/50/83.',
  },
  noaa_tr2022_regional: {
    id: 'noaa_tr2022_regional',
    name: 'NOAA 2022 Sea Level Rise Technical Report, regional projections (Southeast, Eastern Gulf of Mexico)',
    url: 'https://oceanservice.noaa.gov/hazards/sealevelrise/sealevelrise-tech-report.html',
    note: 'Used only where no Florida gauge lies within 100 miles.',
  },
  noaa_datums: {
    id: 'noaa_datums',
    name: 'NOAA CO-OPS tidal datums and harmonic constituents (National Tidal Datum Epoch 1983–2001), via @neaps/tide-database',
    url: 'https://tidesandcurrents.noaa.gov/datums.html',
    note: 'MHHW, MSL and NAVD88 relative to each station datum.',
  },
  noaa_htf: {
    id: 'noaa_htf',
    name: 'NOAA high tide flooding thresholds and historical flood days (Sweet et al. 2018, NOAA Technical Report NOS CO-OPS 086)',
    url: 'https://tidesandcurrents.noaa.gov/publications/techrpt86_PaP_of_HTFlooding.pdf',
    note: 'Minor = 0.04·GT + 0.50 m, moderate = 0.03·GT + 0.80 m, major = 0.04·GT + 1.17 m above MHHW.',
  },
  gev_wong: {
    id: 'gev_wong',
    name: 'Stationary GEV fits to annual maximum hourly sea levels (UHSLC research-quality data to 2018; T. Wong, surge_comparison)',
    url: 'https://github.com/tonyewong/surge_comparison',
    note: 'Return levels in metres above each year\'s mean sea level; tide-gauge statistics, not FEMA base flood elevations.',
  },
  srtm: {
    id: 'srtm',
    name: 'SRTM 1 arc-second digital surface model (NASA/USGS), bundled tiles for coastal Florida',
    url: 'https://www.usgs.gov/centers/eros/science/usgs-eros-archive-digital-elevation-shuttle-radar-topography-mission-srtm-1',
    note: 'EGM96 heights, ~30 m cells, several metres of vertical error: screening level only.',
  },
  us_atlas: {
    id: 'us_atlas',
    name: 'U.S. Census Bureau cartographic county boundaries 2017 (us-atlas 3.0.1)',
    url: 'https://github.com/topojson/us-atlas',
    note: 'Florida containment of boundaries.',
  },
  hurdat2: {
    id: 'hurdat2',
    name: 'NHC HURDAT2 Atlantic best tracks 1851–2024, Florida landfalls 1900–2024 (HurdatFlorida derivation)',
    url: 'https://www.nhc.noaa.gov/data/#hurdat',
    note: 'Landfall position = best-track point at the landfall time.',
  },
  ncei_storm_events: {
    id: 'ncei_storm_events',
    name: 'NOAA NCEI Storm Events Database',
    url: 'https://www.ncei.noaa.gov/stormevents/',
    note: 'Flood-type records; bundled: Florida January–March 2019; more years loaded by operators.',
  },
  fema_declarations: {
    id: 'fema_declarations',
    name: 'OpenFEMA FEMA Web Disaster Declarations (Florida, 1953 – Aug 2023)',
    url: 'https://www.fema.gov/openfema-data-page/fema-web-disaster-declarations-v1',
    note: 'Statewide records. This product uses the FEMA API but is not endorsed by FEMA.',
  },
  operator_layers: {
    id: 'operator_layers',
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

export const BASELINE_NOTE = 'Sea level rise values are relative to the year 2000 (NOAA 2022 baseline). Tidal datums (MHHW, MSL) are on the 1983–2001 epoch (centre 1992); the rise between 1992 and 2000 is not added, so projected levels may be low by that amount.';
