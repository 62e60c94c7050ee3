import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { decimalParam } from './common';
import { NRI_HAZARD_CODES, NRI_RATINGS } from '../domain/risk/nri-vocabulary';
import { DEFAULT_KIT_DAYS, KIT_HAZARDS, MAX_KIT_DAYS, MIN_KIT_DAYS } from '../domain/preparedness/kit';

const Latitude = onFirstUse(() => decimalParam(z.number().min(-90).max(90)).describe('Latitude, WGS84 degrees.'));
const Longitude = onFirstUse(() => decimalParam(z.number().min(-180).max(180)).describe('Longitude, WGS84 degrees.'));
const Loose = (description: string) => z.looseObject({}).describe(description);

const HazardCodes = onFirstUse(() => z.string().max(200)
  .transform((text) => [...new Set(text.split(',').map((c) => c.trim().toUpperCase()).filter(Boolean))])
  .pipe(z.array(z.enum(NRI_HAZARD_CODES as [string, ...string[]])).min(1))
  .describe(`NRI hazard codes, comma-separated: ${NRI_HAZARD_CODES.join(', ')}.`));

export const RiskQuery = onFirstUse(() => z.object({
  county_fips: z.string().regex(/^\d{5}$/, 'Five digits, e.g. 12087').optional().describe('County FIPS code (Florida: 12xxx).'),
  county: z.string().min(2).max(80).optional().describe('Florida county name ("Monroe", "Miami-Dade County").'),
  lat: Latitude().optional(),
  lon: Longitude().optional(),
  hazards: HazardCodes().optional(),
}).strict().superRefine((q, ctx) => {
  const given = [q.county_fips !== undefined, q.county !== undefined, q.lat !== undefined || q.lon !== undefined].filter(Boolean).length;
  if (given !== 1) ctx.addIssue({ code: 'custom', path: [], message: 'Give exactly one of county_fips, county, or lat and lon.' });
  if ((q.lat === undefined) !== (q.lon === undefined)) ctx.addIssue({ code: 'custom', path: [q.lat === undefined ? 'lat' : 'lon'], message: 'lat and lon go together' });
}));

export const LocationQuery = onFirstUse(() => z.object({ lat: Latitude(), lon: Longitude() }).strict());

const Rating = onFirstUse(() => z.enum(NRI_RATINGS).describe('FEMA NRI rating; `No Rating`, `Not Applicable`, `Insufficient Data` and `No Expected Annual Losses` carry a null score.'));
const Scored = onFirstUse(() => z.object({ score: z.number().nullable(), rating: Rating() }));

const RiskLocation = onFirstUse(() => z.looseObject({
  county_fips: z.string().max(5),
  county_name: z.string().max(80),
  lat: z.number(),
  lon: z.number(),
  point_basis: z.enum(['requested_point', 'county_centroid']),
  matched_by: z.enum(['county_fips', 'county_name', 'point_in_boundary', 'nearest_boundary']),
  distance_to_boundary_km: z.number().optional(),
  coastal: z.boolean(),
  coastal_basis: z.string().max(400),
}));

const RiskSource = onFirstUse(() => z.looseObject({
  dataset: z.literal('FEMA National Risk Index'),
  version: z.string().max(40).openapi({ example: '1.19.0 (March 2023)' }),
  level: z.literal('county'),
  disclaimer: z.string().max(1000),
  release: z.string().max(40),
}));

const HazardRiskSchema = onFirstUse(() => z.object({
  code: z.string().max(4),
  name: z.string().max(40),
  annualized_frequency: z.number().nullable(),
  expected_annual_loss_usd: z.number().nullable(),
  expected_annual_loss_rating: Rating(),
  risk_value: z.number().nullable(),
  risk_score: z.number().nullable(),
  risk_rating: Rating(),
  period_of_record: z.string().max(100),
}));

export const RiskResponse = onFirstUse(() => z.object({
  location: RiskLocation().extend({ nri_id: z.string().max(10) }),
  source: RiskSource(),
  composite: z.object({
    risk_value: z.number().nullable(),
    risk_score: z.number().nullable(),
    risk_rating: Rating(),
    risk_state_percentile: z.number().nullable(),
    expected_annual_loss_usd: z.number().nullable(),
    expected_annual_loss: Scored(),
    social_vulnerability: Scored(),
    community_resilience: Scored(),
    community_risk_factor: z.number().nullable(),
  }),
  hazards: z.array(HazardRiskSchema()).max(18),
  coastal: Loose('Coastal counties only (else null): this API\'s own NOAA 2022 sea level rise for the statute\'s scenarios and horizons at the statute\'s gauges, and high tide flooding thresholds and days per gauge, with their provenance. Not part of the NRI.').nullable(),
}).openapi('RiskAnswer'));

export const HazardsAtLocationResponse = onFirstUse(() => z.object({
  location: RiskLocation(),
  hazards: z.array(z.object({
    code: z.string().max(4),
    name: z.string().max(40),
    applies: z.boolean().nullable().describe('true: FEMA rates the hazard for the county; false: not applicable or no rating; null: insufficient data.'),
    rating: Rating(),
    risk_score: z.number().nullable(),
    annualized_frequency: z.number().nullable(),
    expected_annual_loss_usd: z.number().nullable(),
    source: z.string().max(200),
  })).max(18),
  sea_level_rise: Loose('NOAA 2022 scenarios required by s. 380.093 (2024 rule set) at the planning horizons, from the statute\'s two nearest gauges; null inland.').nullable(),
  high_tide_flooding: Loose('NOAA minor/moderate/major thresholds (NAVD88) per gauge, observed and projected flood days; null inland.').nullable(),
  coastal_note: z.string().max(400).optional(),
  hurricane_landfalls_within_100km: Loose('HURDAT2 Florida landfalls within 100 km: counts and events, nearest data first by date.'),
  flood_zone: z.object({ status: z.literal('unknown'), how_to_get: z.string().max(1000) }),
  disclaimer: z.string().max(1000),
  sources: z.array(Loose('A data source: id, name, url, note.')).max(20),
}).openapi('HazardsAtLocation'));

const Count = (max: number, description: string, fallback: number) => decimalParam(z.number().int().min(0).max(max)).default(fallback).describe(description);

export const SuppliesQuery = onFirstUse(() => z.object({
  adults: decimalParam(z.number().int().min(1).max(20)).describe('Adults in the household (at least 1).'),
  children: Count(20, 'Children.', 0),
  infants: Count(10, 'Infants.', 0),
  pets: Count(20, 'Pets.', 0),
  days: decimalParam(z.number().int().min(MIN_KIT_DAYS).max(MAX_KIT_DAYS)).default(DEFAULT_KIT_DAYS).describe('Days to cover; Florida recommends at least 7.'),
  medical_needs: z.enum(['true', 'false']).default('false').transform((v) => v === 'true').describe('Someone takes prescription medication.'),
  hazard: z.enum(KIT_HAZARDS).default('general'),
  format: z.enum(['json', 'csv', 'pdf']).default('json').describe('`csv`: one line per item; `pdf`: a printable checklist.'),
}).strict());

export const SuppliesResponse = onFirstUse(() => z.object({
  household: z.looseObject({ adults: z.number().int(), children: z.number().int(), infants: z.number().int(), pets: z.number().int(), people: z.number().int() }),
  days: z.number().int(),
  items: z.array(z.object({
    id: z.string().max(40),
    group: z.string().max(40),
    item: z.string().max(400),
    quantity: z.number(),
    unit: z.string().max(100),
    why: z.string().max(400),
    condition: z.string().max(200).nullable(),
    source_id: z.string().max(40),
    source_ids: z.array(z.string().max(40)).max(5),
    source_text: z.string().max(1000),
  })).max(100),
  totals: z.object({
    water_gallons: z.number().describe('People\'s water: 1 gallon per person per day.'),
    food_person_days: z.number(),
    pet_supply_days: z.number(),
    pet_water_days: z.number().describe('The pets\' water, in pet-days: the catalogue\'s rule "Pet food and extra water for your pet" (one day\'s supply per pet per day). The sources give no volume per pet, so it is not added to `water_gallons`.'),
  }),
  notes: z.array(z.string().max(400)).max(10),
  sources: z.array(z.object({ id: z.string().max(40), name: z.string().max(200), url: z.string().max(400) })).max(10),
}).openapi('SupplyKit'));
