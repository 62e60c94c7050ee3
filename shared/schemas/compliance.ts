import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { decimalParam, IsoDate } from './common';
import { CHECK_STATUSES, COASTAL_SETTINGS, RULE_SET_IDS, SCENARIO_FAMILIES, SLR_SCENARIOS, SURGE_DATA_SOURCES, VERIFICATION_STATUSES } from '../domain/compliance/vocabulary';

const Rationale = onFirstUse(() => z.string().trim().min(1).max(2000));
const Year = onFirstUse(() => z.number().int().min(1900).max(2300));
const ReturnPeriods = onFirstUse(() => z.array(z.number().int().min(1).max(10_000)).max(20));

export const ScopeSchema = onFirstUse(() => z.enum(['full_jurisdiction', 'partial'])
  .describe('`full_jurisdiction`, or `partial` (a smaller area DEP approved) with a required `scope_rationale`.'));

export const TimelineSchema = onFirstUse(() => z.strictObject({
  start_date: IsoDate().describe('When work on the assessment began (YYYY-MM-DD); it selects the checklist rule set.'),
  target_completion_date: IsoDate().describe('Planned completion date (YYYY-MM-DD), on or after `start_date`.'),
}).refine((t) => t.start_date <= t.target_completion_date, {
  message: 'target_completion_date must be on or after start_date', path: ['target_completion_date'],
}).openapi('AssessmentTimeline'));

/**
 * What the checklist needs to know about how the assessment was done. Every part is optional so
 * drafts can be checked; each part replaces the stored one as a whole on update.
 */
export const MethodologySchema = onFirstUse(() => z.strictObject({
  critical_assets: z.strictObject({
    all_owned_or_maintained_included: z.boolean().optional().describe('The applicant\'s statement; the API cannot prove it (absent: item B fails).'),
    asset_count: z.number().int().min(0).max(10_000_000).optional(),
    categories: z.record(z.string().max(60), z.number().int().min(0)).optional().describe('Assets per category, e.g. {"transportation": 12}.'),
    regionally_significant_identified: z.boolean().optional(),
  }).optional(),
  dem: z.strictObject({
    source: z.string().trim().min(1).max(300).describe('e.g. "NOAA Office for Coastal Management 2018 lidar DEM".'),
    year: Year().optional().describe('Acquisition or publication year.'),
    resolution_m: z.number().positive().max(1000).optional(),
    elevation_model_ids: z.array(z.string().max(64)).max(10).optional().describe('The elevation models the analyses used (`srtm-1arcsec` for the bundled SRTM, else `GET /hazards/elevation-models/{elevation_model_id}`).'),
    most_recent_available: z.boolean().optional().describe('The most recent publicly available DEM for the area (absent: item C fails).'),
  }).optional(),
  peril_of_flood: z.strictObject({
    addressed: z.boolean(),
    rationale: Rationale().optional().describe('Why the amendments do not apply, when not addressed.'),
  }).optional(),
  flood_components: z.strictObject({
    tidal: z.strictObject({
      analysed: z.boolean(),
      dep_thresholds_used: z.boolean().optional(),
      flood_days_per_scenario_horizon: z.boolean().optional(),
      flood_days_rationale: Rationale().optional(),
    }).optional(),
    storm_surge: z.strictObject({
      analysed: z.boolean(),
      data_source: z.enum(SURGE_DATA_SOURCES).optional()
        .describe('`noaa` or `fema` data; `tide_gauge_gev`: a GEV fit to a tide gauge\'s annual maxima (what the API\'s own surge levels are); `other` with `data_source_description`.'),
      data_source_description: z.string().trim().min(1).max(500).optional().describe('What the surge data are; required with `other`.'),
      return_periods_years: ReturnPeriods().optional(),
    }).optional(),
    rainfall: z.strictObject({
      analysed: z.boolean(),
      return_periods_years: ReturnPeriods().optional(),
      rationale: Rationale().optional(),
    }).optional(),
    compound: z.strictObject({
      analysed: z.boolean(),
      rationale: Rationale().optional(),
    }).optional(),
  }).optional(),
  vertical_datum: z.enum(['NAVD88', 'NGVD29', 'MLLW', 'MHHW', 'MSL', 'other']).optional(),
  sea_level_rise: z.strictObject({
    scenario_family: z.enum(SCENARIO_FAMILIES),
    scenarios: z.array(z.enum(SLR_SCENARIOS)).max(6),
    planning_horizons: z.array(z.number().int().min(2000).max(2200)).max(20),
  }).optional(),
  tide_gauges: z.strictObject({
    station_ids: z.array(z.string().max(7).regex(/^\d{7}$/, 'NOAA station ids have 7 digits')).max(10),
    single_gauge_rationale: Rationale().optional(),
  }).optional(),
  deliverables: z.strictObject({
    report: z.boolean(),
    gis_data: z.strictObject({
      format: z.enum(['shapefile', 'file_geodatabase', 'geojson', 'geopackage', 'other']),
      coordinate_system: z.string().max(11).regex(/^EPSG:\d{4,6}$/, 'Use an EPSG code, e.g. EPSG:3087'),
      metadata: z.boolean(),
    }).optional(),
    prioritized_asset_list: z.boolean(),
  }).optional(),
}).openapi('AssessmentMethodology', { description: 'How the assessment was done: the evidence the checklist reads (`evidence` of each item).' }));

export const JurisdictionFields = onFirstUse(() => ({
  jurisdiction: z.string().trim().min(2).max(120).describe('Florida county or municipality, e.g. "Monroe County" or "City of Key West".'),
  jurisdiction_type: z.enum(['county', 'municipality']).optional().describe('Needed when a name is both a county and a city (e.g. "Alachua").'),
  jurisdiction_county: z.string().trim().min(2).max(60).optional().describe('The county the jurisdiction lies in, e.g. "Monroe": picks a municipality whose name occurs in several counties. A name that is no Florida county, or a county the jurisdiction is not in, is a 400 on this field.'),
}));

export const ValidateBodySchema = onFirstUse(() => z.strictObject({
  assessment_id: z.string().max(29).regex(/^va_[0-9A-Z]{26}$/, 'Not an assessment id').optional()
    .describe('Validate this stored assessment, cross-checked against the evidence linked to it; send nothing else with it.'),
  jurisdiction: JurisdictionFields().jurisdiction.optional(),
  jurisdiction_type: JurisdictionFields().jurisdiction_type,
  jurisdiction_county: JurisdictionFields().jurisdiction_county,
  scope: ScopeSchema().optional(),
  scope_rationale: Rationale().optional(),
  timeline: TimelineSchema().optional().describe('Its `start_date` selects the rule set; without it, today.'),
  methodology: MethodologySchema().optional(),
}).superRefine((body, ctx) => {
  if (body.assessment_id !== undefined) {
    for (const field of Object.keys(body).filter((key) => key !== 'assessment_id')) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'Send either assessment_id alone or an assessment body' });
    }
  } else if (body.jurisdiction === undefined) {
    ctx.addIssue({ code: 'custom', path: ['jurisdiction'], message: 'Required unless assessment_id is sent' });
  }
}).openapi('ComplianceValidateRequest', { description: 'Either `{assessment_id}` (a stored assessment, checked against its evidence) or an assessment body (`jurisdiction` required), saved or not.' }));

const ScenarioRequirementsSchema = onFirstUse(() => z.object({
  scenario_family: z.enum(SCENARIO_FAMILIES),
  scenario_family_label: z.string().max(200),
  required_scenarios: z.array(z.enum(SLR_SCENARIOS)).max(6),
  planning_horizons: z.array(z.number().int()).max(10).describe('Required horizons (years) for the assessment date.'),
  planning_horizon_rule: z.string().max(200),
  verification: z.enum(VERIFICATION_STATUSES),
  source: z.string().max(1000),
}).openapi('ScenarioRequirements'));

export const ChecklistItemSchema = onFirstUse(() => z.object({
  item: z.string().max(2).describe('Item letter A–N; the same key as in `dep_checklist_status.items[].item` and `missing_items[].item`.'),
  title: z.string().max(300),
  statute_ref: z.string().max(100),
  requirement: z.string().max(2000),
  evidence: z.array(z.string().max(200)).max(10).describe('Assessment fields that satisfy the item.'),
  how_to_satisfy: z.string().max(1000),
  conditional: z.boolean().describe('"If applicable" / "to the extent practicable": passes when done or when a rationale is given.'),
  applies_from: IsoDate().nullable(),
  applies_to: IsoDate().nullable(),
  verification: z.enum(VERIFICATION_STATUSES),
  source: z.string().max(1000),
}).openapi('ChecklistItem'));

const RuleSetFields = onFirstUse(() => ({
  rule_set: z.enum(RULE_SET_IDS),
  label: z.literal("derived from s. 380.093; not DEP's form"),
  assessment_date: IsoDate().describe('The date the rule set and item versions were chosen for.'),
  scenario_requirements: ScenarioRequirementsSchema(),
}));

export const CoastalSettingSchema = onFirstUse(() => z.object({
  setting: z.enum(COASTAL_SETTINGS).describe('`noncoastal`: a jurisdiction without tidal exposure (2022 amendment), decided from its county.'),
  basis: z.string().max(1000),
  not_required_items: z.array(z.string().max(2)).max(14).describe('Items this jurisdiction does not need on the assessment date (left out of the list).'),
  variant: z.object({
    applies_from: IsoDate(),
    description: z.string().max(1000),
    verification: z.enum(VERIFICATION_STATUSES),
    source: z.string().max(1000),
  }),
}).openapi('CoastalSetting'));

export const ChecklistSchema = onFirstUse(() => z.object({
  ...RuleSetFields(),
  rule_set_applies_from: IsoDate(),
  rule_set_applies_to: IsoDate().nullable(),
  verification: z.enum(VERIFICATION_STATUSES),
  source: z.string().max(1000),
  coastal_setting: CoastalSettingSchema(),
  items: z.array(ChecklistItemSchema()).max(30),
}).openapi('ComplianceChecklist'));

export const ChecklistQuerySchema = onFirstUse(() => z.strictObject({
  assessment_year: decimalParam(z.number().int().min(2021, 'Assessment requirements of s. 380.093(3) apply from 2021; no rule set exists for earlier years'))
    .optional().describe('Year of the assessment (2021 to the current year + 5); defaults to the current year.'),
  assessment_date: IsoDate().optional().describe('Exact date (YYYY-MM-DD); decides 2024, split on 2024-07-01. Without it a year is taken at July 1, so 2024 → rule set 2024.'),
  jurisdiction: JurisdictionFields().jurisdiction.optional().describe('Florida county or municipality: a noncoastal one gets the checklist without the tidal and surge items (from 2022-07-01). Without it, the full checklist.'),
  jurisdiction_type: JurisdictionFields().jurisdiction_type,
  jurisdiction_county: JurisdictionFields().jurisdiction_county,
}));

export const ItemResultSchema = onFirstUse(() => z.object({
  item: z.string().max(2),
  title: z.string().max(300),
  statute_ref: z.string().max(100),
  status: z.enum(CHECK_STATUSES).describe('`conditional`: a conditional item not performed but justified by a rationale (counts as satisfied).'),
  reason: z.string().max(1000),
  conditional: z.boolean(),
  verification: z.enum(VERIFICATION_STATUSES),
  evidence: z.object({
    status: z.enum(['verified', 'contradicted', 'attested'])
      .describe('`verified`: what the API holds and ran agrees with the statement; `contradicted`: it does not (the item fails); `attested`: only the caller\'s statement, nothing held to check it against.'),
    detail: z.string().max(2000),
  }),
}).openapi('ChecklistItemResult'));

export const ContradictionSchema = onFirstUse(() => z.object({
  item: z.string().max(2),
  field: z.string().max(200).describe('The methodology field whose statement is contradicted.'),
  claimed: z.string().max(500),
  found: z.string().max(1000).describe('What the API holds or ran instead.'),
}).openapi('ChecklistContradiction'));

export const ChecklistStatusSchema = onFirstUse(() => z.object({
  ...RuleSetFields(),
  coastal_setting: CoastalSettingSchema(),
  compliant: z.boolean().describe('No item fails.'),
  passed: z.number().int().min(0),
  failed: z.number().int().min(0),
  conditional: z.number().int().min(0),
  contradictions: z.array(ContradictionSchema()).max(100).describe('Each statement of the methodology that the API\'s own evidence contradicts, by item.'),
  evidence_summary: z.object({
    jurisdiction_id: z.string().max(40),
    assets_held: z.number().int().describe('Assets the account holds for the jurisdiction.'),
    assets_by_category: z.record(z.string(), z.number().int()),
    analyses: z.array(z.object({
      analysis_id: z.string().max(40),
      analysed_at: z.string().max(40),
      components: z.array(z.object({
        component: z.string().max(20),
        status: z.string().max(20),
        source: z.string().max(40).optional().describe('Where the levels came from: `tide_gauge_gev` (this API\'s GEV fit to a tide gauge\'s annual maxima) or `loaded_layers`; absent for analyses kept before it was recorded.'),
        source_detail: z.array(z.string().max(300)).max(20).optional().describe('The fitted gauge, or the stated sources of the loaded layers.'),
        return_periods_years: z.array(z.number().int()).max(20).optional().describe('The events the component produced.'),
        flood_days_reported: z.boolean().optional().describe('Tidal: every result gave tidal flood days per scenario and horizon.'),
      })).max(4),
      scenarios: z.array(z.string().max(30)).max(5),
      planning_horizons: z.array(z.number().int()).max(5),
      elevation_source: z.string().max(300).nullable(),
      gauges: z.array(z.string().max(7)).max(10),
      gauge_selection: z.object({
        method: z.string().max(40), reason: z.string().max(2000),
        cautions: z.array(z.string().max(1000)).max(3).optional().describe('The analysis answer\'s `gauge_selection.cautions`, when it had any.'),
      }).nullable()
        .describe('How the analysis chose its gauges: `single_gauge` only on the caller\'s recorded choice, with its reason; null for analyses kept before it was recorded.'),
    })).max(200).describe('Flood analyses linked to the assessment (`assessment_id` on `POST /hazards/flood-analysis`).'),
  }).nullable().describe('What the checklist was cross-checked against; null when a body was validated without an assessment.'),
  items: z.array(ItemResultSchema()).max(30),
}).openapi('DepChecklistStatus', { description: 'Each checklist item A–N evaluated against the assessment. Derived from s. 380.093; not DEP\'s form.' }));

export const MissingItemSchema = onFirstUse(() => z.object({
  item: z.string().max(2),
  statute_ref: z.string().max(100),
  requirement: z.string().max(2000),
  how_to_satisfy: z.string().max(1000),
  reason: z.string().max(1000),
}).openapi('MissingChecklistItem'));

export const ValidationResultSchema = onFirstUse(() => z.object({
  assessment_id: z.string().max(64).nullable().describe('The assessment validated, or null for a body.'),
  compliant: z.boolean(),
  jurisdiction: z.string().max(120),
  jurisdiction_id: z.string().max(40),
  missing_items: z.array(MissingItemSchema()).max(30),
  dep_checklist_status: ChecklistStatusSchema(),
}).openapi('ComplianceValidation'));

export type Methodology = z.infer<ReturnType<typeof MethodologySchema>>;
export type Timeline = z.infer<ReturnType<typeof TimelineSchema>>;
export type Scope = z.infer<ReturnType<typeof ScopeSchema>>;
export type SlrScenario = (typeof SLR_SCENARIOS)[number];
export type ScenarioFamily = (typeof SCENARIO_FAMILIES)[number];
export type RuleSetId = (typeof RULE_SET_IDS)[number];
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export type CheckStatus = (typeof CHECK_STATUSES)[number];
export type ChecklistStatus = z.infer<ReturnType<typeof ChecklistStatusSchema>>;
export type MissingItem = z.infer<ReturnType<typeof MissingItemSchema>>;
export type Checklist = z.infer<ReturnType<typeof ChecklistSchema>>;
