import {
  AssessmentListSchema, AssessmentParams, AssessmentSchema, CreateAssessmentHeaders, CreateAssessmentSchema, ListAssessmentsQuery,
  DeliverableParams, DeliverableSchema, PrefillMethodologyResultSchema, PrefillMethodologySchema, RecordDepConfirmationSchema, SubmissionSchema, SubmitAssessmentHeaders, SubmitAssessmentSchema, UpdateAssessmentHeaders, UpdateAssessmentSchema,
} from '../schemas/assessments';
import { IdempotencyHeaders } from '../schemas/common';
import { CONFLICT, IDEMPOTENCY_REUSED, KEYED_ERRORS, NOT_FOUND, PRECONDITION_REQUIRED, STALE_VERSION_CONFLICT, ok, problem } from './responses';
import { defineRoute, type ResponseDef } from './types';

const ETAG_HEADER = { ETag: { description: 'Version of the assessment ("<version>"); send it as `If-Match` to update.', schema: { type: 'string' as const } } };
const withETag = (response: ResponseDef): ResponseDef => ({ ...response, headers: ETAG_HEADER });

export const createAssessmentRoute = defineRoute({
  id: 'createAssessment', method: 'POST', path: '/assessments', group: 'assessments', auth: 'api_key', minTier: 'pro',
  contractRow: '4', tags: ['Assessments'], summary: 'Create a vulnerability assessment',
  description: 'Starts a `draft` assessment for a Florida county or municipality. Send `Idempotency-Key` to retry safely: the same key and body return the first response (with `Idempotent-Replayed: true`); another body is 422.',
  request: { body: CreateAssessmentSchema, headers: CreateAssessmentHeaders, maxBodyBytes: 64 * 1024 },
  responses: { 201: withETag(ok('Created.', AssessmentSchema)), ...CONFLICT, ...IDEMPOTENCY_REUSED, ...KEYED_ERRORS },
});

export const listAssessmentsRoute = defineRoute({
  id: 'listAssessments', method: 'GET', path: '/assessments', group: 'assessments', auth: 'api_key', minTier: 'pro',
  contractRow: '8', tags: ['Assessments'], summary: 'List the account\'s assessments',
  description: 'Newest first. Filters combine; `date_range` applies to `created_date` (UTC days, inclusive). A `cursor` is valid only with the filters it was issued for.',
  request: { query: ListAssessmentsQuery },
  responses: { 200: ok('A page of assessments.', AssessmentListSchema), ...KEYED_ERRORS },
});

export const getAssessmentRoute = defineRoute({
  id: 'getAssessment', method: 'GET', path: '/assessments/{assessment_id}', group: 'assessments', auth: 'api_key', minTier: 'pro',
  contractRow: '5', tags: ['Assessments'], summary: 'Retrieve an assessment with its checklist status',
  description: '`dep_checklist_status` evaluates each checklist item A–N (derived from s. 380.093; not DEP\'s form) for the rule set of `timeline.start_date`.',
  request: { params: AssessmentParams },
  responses: { 200: withETag(ok('The assessment.', AssessmentSchema)), ...NOT_FOUND, ...KEYED_ERRORS },
});

export const updateAssessmentRoute = defineRoute({
  id: 'updateAssessment', method: 'PATCH', path: '/assessments/{assessment_id}', group: 'assessments', auth: 'api_key', minTier: 'pro', requiresIfMatch: true,
  contractRow: '6', tags: ['Assessments'], summary: 'Update progress, phase and methodology',
  description: 'Send `If-Match` with the ETag of your last read (required: 428 `precondition_required` without it): if the assessment changed since, the answer is 409 `conflict` and nothing is written. Reaching 100 % in the `final_report` phase makes the assessment `complete` and emits `assessment_complete` once. Moving a phase or status back, or lowering `completion_percentage` without `completion_change_reason`, is 409; each drop is kept in `completion_adjustments` with its reason, at most 100 of them (a 101st drop is 409, nothing is dropped from the trail).',
  request: { params: AssessmentParams, headers: UpdateAssessmentHeaders, body: UpdateAssessmentSchema, maxBodyBytes: 64 * 1024 },
  responses: { 200: withETag(ok('The updated assessment.', AssessmentSchema)), ...NOT_FOUND, ...STALE_VERSION_CONFLICT, ...PRECONDITION_REQUIRED, ...KEYED_ERRORS },
});

export const prefillMethodologyRoute = defineRoute({
  id: 'prefillMethodology', method: 'POST', path: '/assessments/{assessment_id}/methodology:prefill', group: 'assessments', auth: 'api_key', minTier: 'pro', requiresIfMatch: true,
  tags: ['Assessments'], summary: 'Fill the methodology from the evidence linked to the assessment',
  description: 'Writes every methodology field the API can prove from the asset imports and flood analyses linked to the assessment: `critical_assets.asset_count` and `categories` (the assets held for the jurisdiction, once a linked import completed), `dem.source` (the elevation models the analyses used), the flood components each analysis produced with their return periods and, for storm surge, the source as it is (`tide_gauge_gev` for the API\'s own GEV fit to tide-gauge annual maxima), `vertical_datum` (NAVD88), the NOAA 2022 scenarios and planning horizons analysed, and the NOAA gauges used (with the recorded reason of a single-gauge choice). Statements only the applicant can make (all assets included, the DEM being the most recent, DEP thresholds, peril of flood, deliverables) are never filled. A field the user set is kept unless `overwrite` is true (`prefill.kept` lists them); `methodology_provenance` names the evidence of each filled field. Send `If-Match` like an update (428 without it, 409 if the assessment changed). Answers the updated assessment with its re-checked checklist. Nothing provable is 422 `no_evidence` with `link_first`.',
  request: { params: AssessmentParams, headers: UpdateAssessmentHeaders, body: PrefillMethodologySchema, maxBodyBytes: 4 * 1024 },
  responses: {
    200: withETag(ok('The assessment with the filled methodology and its checklist.', PrefillMethodologyResultSchema)),
    ...NOT_FOUND, ...STALE_VERSION_CONFLICT, ...PRECONDITION_REQUIRED,
    422: problem('No complete asset import and no flood analysis is linked to the assessment: nothing could be filled (`no_evidence`, with `link_first`).'),
    ...KEYED_ERRORS,
  },
});

export const submitAssessmentRoute = defineRoute({
  id: 'submitAssessment', method: 'POST', path: '/assessments/{assessment_id}/submit', group: 'assessments', auth: 'api_key', minTier: 'pro',
  contractRow: '7', tags: ['Assessments'], summary: 'Freeze a complete assessment and record its submission package (nothing is sent to DEP)',
  description: '**This service does not transmit anything to DEP.** Only a `complete` assessment whose checklist passes (else 409 with `missing_items`). Stores the submission package (manifest with the assessment snapshot, checklist result, URLs, certification and sha256 hashes), moves the status to `submitted` and freezes the assessment. `receipt` is this API\'s own receipt for the package. `dep_confirmation.status` is `not_transmitted` with `how_to_file`, the steps to file the deliverables on DEP\'s portal yourself; record DEP\'s confirmation afterwards with `POST /assessments/{assessment_id}/dep-confirmation`. Honors `Idempotency-Key`; a second submit is 409.',
  request: { params: AssessmentParams, headers: SubmitAssessmentHeaders, body: SubmitAssessmentSchema, maxBodyBytes: 16 * 1024 },
  responses: { 201: ok('The submission.', SubmissionSchema), ...NOT_FOUND, ...CONFLICT, ...IDEMPOTENCY_REUSED, ...KEYED_ERRORS },
});

export const recordDepConfirmationRoute = defineRoute({
  id: 'recordDepConfirmation', method: 'POST', path: '/assessments/{assessment_id}/dep-confirmation', group: 'assessments', auth: 'api_key', minTier: 'pro', idempotency: 'account',
  tags: ['Assessments'], summary: 'Record the confirmation DEP gave for your filing',
  description: 'After filing the deliverables on DEP\'s portal yourself (this service does not transmit to DEP), record DEP\'s own confirmation number and the date DEP received the filing: `dep_confirmation.status` becomes `recorded`. Only for a `submitted` assessment (else 409). Sending the same values again answers the same; other values once one is recorded are 409. `received_on` before the submission or in the future is 400. Honors `Idempotency-Key`.',
  request: { params: AssessmentParams, body: RecordDepConfirmationSchema, headers: IdempotencyHeaders, maxBodyBytes: 4 * 1024 },
  responses: { 200: ok('The submission with DEP\'s confirmation.', SubmissionSchema), ...NOT_FOUND, ...CONFLICT, ...IDEMPOTENCY_REUSED, ...KEYED_ERRORS },
});

const LOCATION_HEADER = { Location: { description: 'URL of the deliverable job.', schema: { type: 'string' as const } } };

export const createDeliverablesRoute = defineRoute({
  id: 'createDeliverables', method: 'POST', path: '/assessments/{assessment_id}/deliverables', group: 'assessments', auth: 'api_key', minTier: 'pro', idempotency: 'account',
  tags: ['Assessments'], summary: 'Generate the deliverable package of an assessment (job)',
  description: 'Starts a job that generates, from the assessment, its linked flood analyses and the jurisdiction\'s assets: the vulnerability assessment report (`report_pdf`: methodology and data sources with versions, maps of the boundary, assets and inundation per scenario and horizon over the county outlines, scenario tables per gauge, exposure summary, prioritized asset list, checklist status with evidence), the GIS package (`gis_package`: a GeoPackage and one zipped Shapefile per layer — boundary, assets with exposure attributes, inundation extents — in EPSG:3087 Florida GDL Albers, each with FGDC CSDGM metadata; they pass `POST /compliance/gis-validation`) and the prioritized asset list (`asset_list_xlsx`). Answers 202 with `Location`; poll it until `status` is `succeeded`. Files are served by signed URLs valid 15 minutes (read the job again for fresh ones). While a job for the same version of the assessment is still queued or running, another request (concurrent or not, with or without `Idempotency-Key`) answers that job rather than starting a second; a retry with the same `Idempotency-Key` answers the first response (`Idempotent-Replayed: true`).',
  request: { params: AssessmentParams, headers: IdempotencyHeaders },
  responses: { 202: { ...ok('The job, queued (or the one still open for this version of the assessment).', DeliverableSchema), headers: LOCATION_HEADER }, ...NOT_FOUND, ...IDEMPOTENCY_REUSED, ...KEYED_ERRORS },
});

export const getDeliverablesRoute = defineRoute({
  id: 'getDeliverables', method: 'GET', path: '/assessments/{assessment_id}/deliverables/{deliverable_id}', group: 'assessments', auth: 'api_key', minTier: 'pro',
  tags: ['Assessments'], summary: 'Status and files of a deliverable job',
  description: 'Poll the job `POST /assessments/{assessment_id}/deliverables` started: `status` goes `queued` → `running` → `succeeded` or `failed` (`error` says why). Once it succeeded, `files` lists the report PDF, the GIS package and the prioritized asset list, each with its size, SHA-256 and a signed download URL valid 15 minutes; every read signs fresh URLs.',
  request: { params: DeliverableParams },
  responses: { 200: ok('The job with its files.', DeliverableSchema), ...NOT_FOUND, ...KEYED_ERRORS },
});

export const assessmentRoutes = [createAssessmentRoute, listAssessmentsRoute, getAssessmentRoute, updateAssessmentRoute, prefillMethodologyRoute, submitAssessmentRoute, recordDepConfirmationRoute, createDeliverablesRoute, getDeliverablesRoute];
