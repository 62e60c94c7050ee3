import {
  CertificationList, CertificationParams, CertificationsQuery, CompleteBody, CompletionResponse, CourseList, CoursesQuery, EnrollBody, EnrollHeaders,
  Enrollment, EnrollmentList, EnrollmentParams, Jwks, RevokeBody, VerificationResponse,
} from '../schemas/v1-training';
import { IdempotencyHeaders } from '../schemas/common';
import { BEARER_ERRORS, DEPENDENCY_UNAVAILABLE, IDEMPOTENCY_REUSED, NOT_FOUND, PUBLIC_ERRORS, ROLE_ERRORS, ok, problem } from './responses';
import { defineRoute } from './types';

/**
 * Training and certification documents professional qualifications: county staff, consultants
 * and admins use it; residents use risk and preparedness (403 `insufficient_scope` here).
 */
const TRAINING_ROLES = ['staff', 'consultant', 'admin'] as const;

export const listCoursesRoute = defineRoute({
  id: 'listCourses', method: 'GET', path: '/v1/courses', group: 'v1-training', auth: 'bearer', roles: TRAINING_ROLES, minTier: 'free',
  tags: ['Training and certification'], summary: 'The course catalogue',
  description: '34 FEMA EMI and floodplain-management courses. `verified: false` marks a row whose hours (and CEUs) are not confirmed in a public source yet; `evidence` says what was. `enrolled` is true for the caller\'s courses. Filters combine; a `cursor` is valid only with the filters it was issued for.',
  request: { query: CoursesQuery },
  responses: { 200: ok('A page of courses.', CourseList), ...ROLE_ERRORS, ...BEARER_ERRORS },
});

export const enrollRoute = defineRoute({
  id: 'enrollInCourse', method: 'POST', path: '/v1/courses/enroll', group: 'v1-training', auth: 'bearer', roles: TRAINING_ROLES, minTier: 'free',
  tags: ['Training and certification'], summary: 'Enrol in a course',
  description: 'Records the enrolment; the course itself is taken at `external_url`. Send `Idempotency-Key` to retry safely (same key and body: the first response again, `Idempotent-Replayed: true`). A course whose prerequisites are not completed yet is 409 `prerequisites_not_met` with `missing_prerequisites`; a second enrolment in the same course is 409 `already_enrolled`.',
  request: { body: EnrollBody, headers: EnrollHeaders, maxBodyBytes: 4 * 1024 },
  responses: {
    201: ok('Enrolled.', Enrollment),
    ...NOT_FOUND,
    409: problem('Already enrolled in the course (`already_enrolled`), or its prerequisites are not completed (`prerequisites_not_met`, with `missing_prerequisites`).'),
    ...IDEMPOTENCY_REUSED,
    ...ROLE_ERRORS, ...BEARER_ERRORS,
  },
});

export const listEnrollmentsRoute = defineRoute({
  id: 'listEnrollments', method: 'GET', path: '/v1/courses/enrollments', group: 'v1-training', auth: 'bearer', roles: TRAINING_ROLES, minTier: 'free',
  tags: ['Training and certification'], summary: 'The caller\'s enrolments',
  description: 'Newest first, every enrolment on one page (at most one per course).',
  responses: { 200: ok('The enrolments.', EnrollmentList), ...ROLE_ERRORS, ...BEARER_ERRORS },
});

export const completeEnrollmentRoute = defineRoute({
  id: 'completeEnrollment', method: 'POST', path: '/v1/courses/enrollments/{enrollment_id}/complete', group: 'v1-training', auth: 'bearer', roles: TRAINING_ROLES, minTier: 'free', idempotency: 'user',
  tags: ['Training and certification'], summary: 'Record a course completion',
  description: 'Moves the enrolment from `enrolled` to `completed` once, with the completion date and optional certificate number, and issues the course credential. The completion is the caller\'s own report, not confirmed with the course provider, so the credential says `attestation: "self_reported"` (and so does its Open Badges evidence); the holder is named by the account\'s profile name, never by text in the request; completing the last course of a programme (e.g. the "Resilient Florida vulnerability assessment" track) also issues the programme credential. A second completion is 409 `conflict`, unless it repeats the first\'s `Idempotency-Key` and body: then it answers the first response (`Idempotent-Replayed: true`).',
  request: { params: EnrollmentParams, body: CompleteBody, headers: IdempotencyHeaders, maxBodyBytes: 4 * 1024 },
  responses: { 200: ok('The completed enrolment and the credentials issued.', CompletionResponse), ...NOT_FOUND, 409: problem('Already completed (`conflict`).'), ...IDEMPOTENCY_REUSED, ...ROLE_ERRORS, ...BEARER_ERRORS },
});

export const listCertificationsRoute = defineRoute({
  id: 'listCertifications', method: 'GET', path: '/v1/certifications', group: 'v1-training', auth: 'bearer', roles: TRAINING_ROLES, minTier: 'free',
  tags: ['Training and certification'], summary: 'The caller\'s certifications',
  description: 'Open Badges 3.0 credentials signed as JWTs (ES256), newest first. A credential is valid three years from the completion date (this service\'s policy); `expiring` within 90 days of the end, then `expired`; revoked ones show `revoked` and are left out of the status filter.',
  request: { query: CertificationsQuery },
  responses: { 200: ok('A page of certifications.', CertificationList), ...ROLE_ERRORS, ...BEARER_ERRORS },
});

export const revokeCertificationRoute = defineRoute({
  id: 'revokeCertification', method: 'POST', path: '/v1/certifications/{certification_id}/revoke', group: 'v1-training', auth: 'bearer', roles: TRAINING_ROLES, minTier: 'free', idempotency: 'user',
  tags: ['Training and certification'], summary: 'Revoke a certification',
  description: 'The holder withdraws their credential, or an `admin` revokes anyone\'s. From then on verification answers `valid: false, status: "revoked"`. Revoking twice is 409 `conflict`, unless the second repeats the first\'s `Idempotency-Key` and body: then it answers the first response (`Idempotent-Replayed: true`).',
  request: { params: CertificationParams, body: RevokeBody, headers: IdempotencyHeaders, maxBodyBytes: 4 * 1024 },
  responses: { 200: ok('The verification answer after revocation.', VerificationResponse), ...NOT_FOUND, 409: problem('Already revoked (`conflict`).'), ...IDEMPOTENCY_REUSED, ...ROLE_ERRORS, ...BEARER_ERRORS },
});

export const verifyCertificationRoute = defineRoute({
  id: 'verifyCertification', method: 'GET', path: '/v1/certifications/{certification_id}/verify', group: 'v1-training', auth: 'none', minTier: 'free',
  tags: ['Training and certification'], summary: 'Verify a certification (no token)',
  description: 'For anyone shown a credential: checks the stored credential\'s signature against the service\'s key (`signature_valid`) and its status, and says what it attests: `self_reported` — the holder reported the completion, the course provider did not confirm it. `valid: true` means this API issued it and it is current, not that the training was verified. Shows no personal data beyond the holder\'s display name (their profile name when it was issued).',
  request: { params: CertificationParams },
  responses: { 200: ok('The verification answer.', VerificationResponse), ...NOT_FOUND, 400: problem('Not a certification id (`invalid_request`).'), ...PUBLIC_ERRORS, ...DEPENDENCY_UNAVAILABLE },
});

export const jwksRoute = defineRoute({
  id: 'credentialJwks', method: 'GET', path: '/v1/.well-known/jwks.json', group: 'v1-training', auth: 'none', minTier: 'free',
  tags: ['Training and certification'], summary: 'The public key that signs certifications (JWKS)',
  description: 'RFC 7517 key set; each key\'s `kid` is its RFC 7638 thumbprint and appears in the header of every credential it signed.',
  responses: {
    200: { ...ok('The key set.', Jwks), headers: { 'Cache-Control': { description: '`public, max-age=300`.', schema: { type: 'string' as const } } } },
    ...PUBLIC_ERRORS,
    ...DEPENDENCY_UNAVAILABLE,
  },
});

export const v1TrainingRoutes = [
  listCoursesRoute, enrollRoute, listEnrollmentsRoute, completeEnrollmentRoute, listCertificationsRoute, revokeCertificationRoute, verifyCertificationRoute, jwksRoute,
];
