import { z } from '../schemas/zod';
import { CONFLICT, IDEMPOTENCY_REUSED, KEYED_ERRORS, NOT_FOUND, PRECONDITION_FAILED, ok } from './responses';
import { defineRoute } from './types';

const AssessmentParams = z.object({ assessment_id: z.string().min(1).max(64) });
const Passthrough = z.object({}).passthrough();

export const assessmentRoutes = [
  defineRoute({
    id: 'createAssessment', method: 'POST', path: '/assessments', group: 'assessments', auth: 'api_key', minTier: 'pro',
    contractRow: '4', tags: ['Assessments'], summary: 'Create a vulnerability assessment',
    request: { body: Passthrough, maxBodyBytes: 64 * 1024 },
    responses: { 201: ok('Created.', Passthrough), ...IDEMPOTENCY_REUSED, ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'listAssessments', method: 'GET', path: '/assessments', group: 'assessments', auth: 'api_key', minTier: 'pro',
    contractRow: '8', tags: ['Assessments'], summary: 'List the account\'s assessments',
    responses: { 200: ok('A page of assessments.', Passthrough), ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'getAssessment', method: 'GET', path: '/assessments/{assessment_id}', group: 'assessments', auth: 'api_key', minTier: 'pro',
    contractRow: '5', tags: ['Assessments'], summary: 'Retrieve an assessment with its checklist status',
    request: { params: AssessmentParams },
    responses: { 200: ok('The assessment.', Passthrough), ...NOT_FOUND, ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'updateAssessment', method: 'PATCH', path: '/assessments/{assessment_id}', group: 'assessments', auth: 'api_key', minTier: 'pro',
    contractRow: '6', tags: ['Assessments'], summary: 'Update progress, phase and methodology',
    request: { params: AssessmentParams, body: Passthrough, maxBodyBytes: 64 * 1024 },
    responses: { 200: ok('The updated assessment.', Passthrough), ...NOT_FOUND, ...CONFLICT, ...PRECONDITION_FAILED, ...KEYED_ERRORS },
  }),
  defineRoute({
    id: 'submitAssessment', method: 'POST', path: '/assessments/{assessment_id}/submit', group: 'assessments', auth: 'api_key', minTier: 'pro',
    contractRow: '7', tags: ['Assessments'], summary: 'Submit a complete assessment to DEP',
    request: { params: AssessmentParams, body: Passthrough, maxBodyBytes: 16 * 1024 },
    responses: { 201: ok('The submission.', Passthrough), ...NOT_FOUND, ...CONFLICT, ...IDEMPOTENCY_REUSED, ...KEYED_ERRORS },
  }),
];
