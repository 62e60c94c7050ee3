import { bundledFloodEvents, selectFloodEvents } from '../hazards/flood-events';
import { sourcesOf } from '../hazards/provenance';
import type { TidePredictor } from '../hazards/tide-flood-days';
import { COASTAL_BASIS, coastalFigures } from './coastal';
import { compositeRisk, hazardRisks, isScoredRating, nriCountyByFips, nriSource, type HazardRisk } from './nri';
import type { RiskPlace } from './place';

export const LANDFALL_RADIUS_KM = 100;

export const FLOOD_ZONE_UNKNOWN = {
  status: 'unknown' as const,
  how_to_get: 'This API has no FEMA flood map data. Look the address up on the FEMA Flood Map Service Center (https://msc.fema.gov/portal/search) or the National Flood Hazard Layer viewer, or ask the county floodplain administrator for a flood zone determination; an elevation certificate gives the building\'s elevation relative to the base flood elevation.',
};

function locationOf(place: RiskPlace) {
  return {
    county_fips: place.county_fips,
    county_name: place.county_name,
    lat: place.point.lat,
    lon: place.point.lon,
    point_basis: place.point_basis,
    matched_by: place.matched_by,
    ...(place.distance_to_boundary_km !== undefined ? { distance_to_boundary_km: place.distance_to_boundary_km } : {}),
    coastal: place.coastal,
    coastal_basis: COASTAL_BASIS,
  };
}

function nriCounty(place: RiskPlace) {
  const county = nriCountyByFips(place.county_fips);
  // The NRI table has all 67 counties; a gap would be a broken data file, not a user error.
  if (!county) throw new Error(`NRI has no row for ${place.county_fips}`);
  return county;
}

/** FEMA's composite and per-hazard values for the place's county, plus this API's coastal figures. */
export async function calculateRisk(place: RiskPlace, options: { hazards?: readonly string[]; assessmentYear: number; tides: TidePredictor }) {
  const county = nriCounty(place);
  return {
    location: { ...locationOf(place), nri_id: county.nri_id },
    source: { ...nriSource(), release: county.nri_ver },
    composite: compositeRisk(county),
    hazards: hazardRisks(county, options.hazards),
    coastal: place.coastal
      ? { provenance: 'Computed by this API from NOAA data (not part of the FEMA National Risk Index).', ...(await coastalFigures(place.point, `${place.county_name} County`, options.assessmentYear, options.tides)) }
      : null,
  };
}

/** Does the hazard apply in the county? Rated: yes; not applicable or no rating: no; insufficient data: unknown. */
function applies(hazard: HazardRisk): boolean | null {
  if (isScoredRating(hazard.risk_rating)) return true;
  return hazard.risk_rating === 'Insufficient Data' ? null : false;
}

const byStrength = (a: HazardRisk, b: HazardRisk) => (b.risk_score ?? -1) - (a.risk_score ?? -1);

export async function hazardsAtLocation(place: RiskPlace, options: { assessmentYear: number; tides: TidePredictor }) {
  const county = nriCounty(place);
  const nri = nriSource();
  const source = `${nri.dataset} ${nri.version}, county level`;
  const hazards = hazardRisks(county).sort(byStrength).map((h) => ({
    code: h.code,
    name: h.name,
    applies: applies(h),
    rating: h.risk_rating,
    risk_score: h.risk_score,
    annualized_frequency: h.annualized_frequency,
    expected_annual_loss_usd: h.expected_annual_loss_usd,
    source,
  }));
  const landfalls = selectFloodEvents(bundledFloodEvents(), { centre: place.point, radiusKm: LANDFALL_RADIUS_KM, types: ['hurricane', 'tropical_storm'] })
    .filter((e) => e.source === 'hurdat2');
  const coastal = place.coastal ? await coastalFigures(place.point, `${place.point.lat},${place.point.lon}`, options.assessmentYear, options.tides) : null;
  return {
    location: locationOf(place),
    hazards,
    sea_level_rise: coastal?.sea_level_rise ?? null,
    high_tide_flooding: coastal?.high_tide_flooding ?? null,
    ...(coastal ? {} : { coastal_note: 'Inland county: no tidal sea level rise or high tide flooding figures (s. 380.093 asks noncoastal communities for no tidal or surge analysis).' }),
    hurricane_landfalls_within_100km: {
      radius_km: LANDFALL_RADIUS_KM,
      count: landfalls.length,
      hurricanes: landfalls.filter((e) => e.type === 'hurricane').length,
      tropical_storms: landfalls.filter((e) => e.type === 'tropical_storm').length,
      period: 'Florida landfalls 1900–2024 (HURDAT2)',
      events: landfalls.map((e) => ({ event_id: e.event_id, name: e.name, date: e.date, type: e.type, wind_kt: e.magnitude.wind_kt ?? null, lat: e.location.lat, lon: e.location.lon, distance_km: e.distance_km })),
    },
    flood_zone: FLOOD_ZONE_UNKNOWN,
    disclaimer: nri.disclaimer,
    sources: [
      { id: 'fema_nri', name: `${nri.dataset} ${nri.version}`, url: nri.url, note: nri.note },
      ...sourcesOf(['hurdat2', 'us_atlas', ...(coastal ? (['noaa_tr2022', 'noaa_datums', 'noaa_htf', 'uhslc_daily_max_peaks'] as const) : [])]),
    ],
  };
}
