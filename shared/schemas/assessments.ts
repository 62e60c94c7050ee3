import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { CursorParam, IdempotencyHeaders, IfMatchHeaders, IsoDate, LimitParam } from './common';
import { ChecklistStatusSchema, JurisdictionFields, MethodologySchema, ScopeSchema, TimelineSchema } from './compliance';
import { ASSESSMENT_PHASES, ASSESSMENT_STATUSES, ASSESSMENT_TYPES } from '../domain/assessments/vocabulary';

/** Each drop of completion keeps a reason of up to 2,000 characters; the assessment with its trail must fit one stored item (400 KB). */
export const MAX_COMPLETION_ADJUSTMENTS = 100;

const Rationale = onFirstUse(() => z.string().trim().min(1).max(2000));
const Timestamp = onFirstUse(() => z.string().max(40).describe('ISO 8601, UTC.'));

export const AssessmentParams = onFirstUse(() => z.object({ assessment_id: z.string().min(1).max(64) }));

export const CreateAssessmentSchema = onFirstUse(() => z.strictObject({
  ...JurisdictionFields(),
  type: z.enum(ASSESSMENT_TYPES).describe('`initial` (first assessment) or `update` (revision of an earlier one).'),
  scope: ScopeSchema(),
  scope_rationale: Rationale().optional().describe('Required when `scope` is `partial`: why the smaller area.'),
  timeline: TimelineSchema(),
  notes: z.string().max(10_000).optional(),
  methodology: MethodologySchema().optional(),
}).refine((body) => body.scope !== 'partial' || body.scope_rationale, {
  message: 'Required when scope is partial', path: ['scope_rationale'],
}).openapi('CreateAssessmentRequest'));

export const UpdateAssessmentSchema = onFirstUse(() => z.strictObject({
  phase: z.enum(ASSESSMENT_PHASES).optional().describe('Moves forward or stays; moving back is 409.'),
  completion_percentage: z.number().int().min(0).max(100).optional().describe('Never decreases unless `completion_change_reason` says why.'),
  completion_change_reason: Rationale().optional().describe('Why `completion_percentage` goes down.'),
  status: z.enum(ASSESSMENT_STATUSES).optional()
    .describe('Optional explicit move. `draft → in_progress` happens on the first progress update; `complete` is reached with 100 % in `final_report`; `submitted` only through the submit route.'),
  notes: z.string().max(10_000).nullable().optional().describe('Replaces the notes; null clears them.'),
  scope: ScopeSchema().optional(),
  scope_rationale: Rationale().optional(),
  timeline: TimelineSchema().optional(),
  methodology: MethodologySchema().optional().describe('Each part given replaces the stored part; parts not given are kept.'),
}).refine((body) => Object.keys(body).length > 0, { message: 'Nothing to update' })
  .refine((body) => body.completion_change_reason === undefined || body.completion_percentage !== undefined, {
    message: 'Only with completion_percentage', path: ['completion_change_reason'],
  })
  .openapi('UpdateAssessmentRequest'));

export const SubmitAssessmentSchema = onFirstUse(() => z.strictObject({
  certification: z.strictObject({
    certifier_name: z.string().trim().min(2).max(200),
    certifier_title: z.string().trim().min(2).max(200),
    certifier_email: z.email().max(254).optional(),
    accepted: z.literal(true).describe('The certifier attests that the assessment meets s. 380.093(3).'),
  }),
  final_report_url: z.url({ protocol: /^https$/, error: 'Use an https URL' }).max(2000),
  gis_data_url: z.url({ protocol: /^https$/, error: 'Use an https URL' }).max(2000),
  final_report_sha256: z.string().max(64).regex(/^[0-9a-f]{64}$/).optional().describe('sha256 of the report file, recorded in the manifest.'),
  gis_data_sha256: z.string().max(64).regex(/^[0-9a-f]{64}$/).optional(),
}).openapi('SubmitAssessmentRequest'));

const DateRange = onFirstUse(() => z.string().max(22)
  .regex(/^\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD..YYYY-MM-DD')
  .refine((range) => range.split('..').every((day) => IsoDate().safeParse(day).success), 'Not calendar dates')
  .refine((range) => { const [start, end] = range.split('..'); return start! <= end!; }, 'The start date is after the end date')
  .describe('Created date range, inclusive: `YYYY-MM-DD..YYYY-MM-DD`.'));

export const ListAssessmentsQuery = onFirstUse(() => z.strictObject({
  status: z.enum(ASSESSMENT_STATUSES).optional(),
  jurisdiction: z.string().trim().min(2).max(120).optional().describe('A name ("Monroe County") or a `jurisdiction_id` ("county:12087").'),
  date_range: DateRange().optional(),
  limit: LimitParam(),
  cursor: CursorParam(),
}));

export const CreateAssessmentHeaders = IdempotencyHeaders;
export const SubmitAssessmentHeaders = IdempotencyHeaders;
export const UpdateAssessmentHeaders = IfMatchHeaders;


export const DepConfirmationSchema = onFirstUse(() => z.object({
  status: z.enum(['not_transmitted', 'recorded'])
    .describe('`not_transmitted`: this service sends nothing to DEP; file on DEP\'s portal (`how_to_file`) and record DEP\'s number. `recorded`: DEP\'s own confirmation, as recorded by the county.'),
  confirmation_number: z.string().max(60).nullable().describe('DEP\'s confirmation number; null until recorded.'),
  received_on: IsoDate().nullable().describe('The date DEP received the filing; null until recorded.'),
  recorded_at: Timestamp().nullable(),
  note: z.string().max(500),
  how_to_file: z.array(z.string().max(500)).max(10).describe('Steps to file the deliverables with DEP.'),
}).openapi('DepConfirmation'));

const AssessmentFields = onFirstUse(() => ({
  assessment_id: z.string().max(64),
  jurisdiction: z.string().max(120).describe('Display name, e.g. "Monroe County".'),
  jurisdiction_id: z.string().max(40).describe('`county:<FIPS>` or `municipality:<NFIP CID>`.'),
  jurisdiction_type: z.enum(['county', 'municipality']),
  county_fips: z.string().max(5),
  type: z.enum(ASSESSMENT_TYPES),
  scope: ScopeSchema(),
  scope_rationale: z.string().max(2000).optional(),
  timeline: TimelineSchema(),
  status: z.enum(ASSESSMENT_STATUSES),
  phase: z.enum(ASSESSMENT_PHASES),
  completion_percentage: z.number().int().min(0).max(100),
  notes: z.string().max(10_000).optional(),
  version: z.number().int().min(1).describe('Also the `ETag` ("<version>"); send it as `If-Match` on update.'),
  created_date: Timestamp(),
  updated_at: Timestamp(),
  completed_at: Timestamp().optional(),
  submitted_at: Timestamp().optional(),
  submission_id: z.string().max(64).optional(),
  receipt: z.string().max(40).optional().describe('This API\'s receipt for the submission package; not a DEP number.'),
  dep_confirmation: DepConfirmationSchema().optional().describe('Present once submitted: whether DEP\'s own confirmation has been recorded.'),
}));

export const AssessmentSummarySchema = onFirstUse(() => z.object(AssessmentFields()).openapi('AssessmentSummary'));

export const MethodologyProvenanceSchema = onFirstUse(() => z.record(
  z.string().max(80),
  z.object({
    source: z.literal('evidence'),
    evidence_ids: z.array(z.string().max(64)).max(1000).describe('The linked imports (`imp_…`) or flood analyses (`fa_…`) that prove the value.'),
    filled_at: Timestamp(),
  }),
).openapi('MethodologyProvenance', {
  description: 'Methodology fields filled from the API\'s evidence (`POST /assessments/{assessment_id}/methodology:prefill`), by dotted path below `methodology` (e.g. `sea_level_rise.scenarios`). A field not listed was stated by the user; updating a methodology part makes all its fields the user\'s again.',
}));

export const AssessmentSchema = onFirstUse(() => z.object({
  ...AssessmentFields(),
  methodology: MethodologySchema(),
  methodology_provenance: MethodologyProvenanceSchema(),
  status_history: z.array(z.object({ status: z.enum(ASSESSMENT_STATUSES), at: Timestamp() })).max(10),
  completion_adjustments: z.array(z.object({ at: Timestamp(), from: z.number().int(), to: z.number().int(), reason: z.string().max(2000) })).max(MAX_COMPLETION_ADJUSTMENTS),
  dep_checklist_status: ChecklistStatusSchema(),
}).openapi('Assessment'));

export const PrefillMethodologySchema = onFirstUse(() => z.strictObject({
  overwrite: z.boolean().default(false).describe('Replace fields the user set with what the evidence proves (default: keep them).'),
}).openapi('PrefillMethodologyRequest'));

export const PrefillMethodologyResultSchema = onFirstUse(() => AssessmentSchema().extend({
  prefill: z.object({
    filled: z.array(z.string().max(80)).max(50).describe('Fields written from evidence (dotted paths below `methodology`).'),
    kept: z.array(z.string().max(80)).max(50).describe('Fields the evidence proves but the user had set: kept (send `overwrite: true` to replace them).'),
  }),
}).openapi('PrefillMethodologyResult'));

export const AssessmentListSchema = onFirstUse(() => z.object({
  data: z.array(AssessmentSummarySchema()).max(100),
  next_cursor: z.string().max(2000).nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
}).openapi('AssessmentList'));

export const SubmissionSchema = onFirstUse(() => z.object({
  submission_id: z.string().max(64),
  assessment_id: z.string().max(64),
  status: z.literal('submitted'),
  submitted_at: Timestamp(),
  receipt: z.string().max(40)
    .describe('This API\'s receipt for the submission package (`VA-<county FIPS>-<year>-<manifest hash>`), not a confirmation number issued by DEP.'),
  manifest_sha256: z.string().max(64).describe('sha256 of the stored manifest JSON.'),
  dep_confirmation: DepConfirmationSchema(),
}).openapi('Submission'));

export const RecordDepConfirmationSchema = onFirstUse(() => z.strictObject({
  confirmation_number: z.string().trim().min(1).max(60).regex(/^[\x21-\x7E]+(?: [\x21-\x7E]+)*$/, 'Printable characters, single spaces').describe('The confirmation number DEP gave on receipt of the filing.'),
  received_on: IsoDate().describe('The date DEP received the filing (YYYY-MM-DD); not before the submission, not in the future.'),
}).openapi('RecordDepConfirmationRequest'));


export const DeliverableParams = onFirstUse(() => z.object({
  assessment_id: z.string().min(1).max(64),
  deliverable_id: z.string().regex(/^dlv_[A-Za-z0-9_-]{16}$/, 'Not a deliverable id'),
}));

export const DeliverableSchema = onFirstUse(() => z.object({
  deliverable_id: z.string().max(40),
  assessment_id: z.string().max(64),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  error: z.object({ code: z.string().max(40), detail: z.string().max(500) }).nullable(),
  files: z.array(z.object({
    name: z.string().max(200),
    kind: z.enum(['report_pdf', 'gis_package', 'asset_list_xlsx']).describe('`report_pdf`: the vulnerability assessment report; `gis_package`: the GeoPackage and one zipped Shapefile per layer, in EPSG:3087 with FGDC CSDGM metadata; `asset_list_xlsx`: the prioritized asset list.'),
    content_type: z.string().max(100),
    bytes: z.number().int().min(0),
    sha256: z.string().max(64),
    url: z.string().max(4000).describe('Short-lived signed download URL.'),
    url_expires_at: Timestamp(),
  })).max(20).describe('Empty until the job succeeded.'),
}).openapi('Deliverable'));

export type CreateAssessmentInput = z.infer<ReturnType<typeof CreateAssessmentSchema>>;
export type UpdateAssessmentInput = z.infer<ReturnType<typeof UpdateAssessmentSchema>>;
export type SubmitAssessmentInput = z.infer<ReturnType<typeof SubmitAssessmentSchema>>;
export type RecordDepConfirmationInput = z.infer<ReturnType<typeof RecordDepConfirmationSchema>>;
export type ListAssessmentsInput = z.infer<ReturnType<typeof ListAssessmentsQuery>>;
export type AssessmentPhase = (typeof ASSESSMENT_PHASES)[number];
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];
export type AssessmentType = (typeof ASSESSMENT_TYPES)[number];
export type AssessmentView = z.infer<ReturnType<typeof AssessmentSchema>>;
export type AssessmentSummary = z.infer<ReturnType<typeof AssessmentSummarySchema>>;
export type Submission = z.infer<ReturnType<typeof SubmissionSchema>>;
