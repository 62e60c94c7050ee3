import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { CursorParam, IdempotencyHeaders, IsoDate, LimitParam } from './common';
import { COURSE_TOPICS } from '../domain/training/catalogue';
import { ATTESTATIONS, CREDENTIAL_STATUSES } from '../domain/credentials/open-badge';

export const CoursesQuery = onFirstUse(() => z.object({
  topic: z.enum(COURSE_TOPICS as [string, ...string[]]).optional(),
  provider: z.string().min(1).max(100).optional().describe('Part of the provider name ("FEMA EMI").'),
  q: z.string().min(1).max(200).optional().describe('Words that must all appear in the code, title, audience or topic.'),
  limit: LimitParam(),
  cursor: CursorParam(),
}).strict());

const Course = onFirstUse(() => z.object({
  code: z.string().max(20),
  title: z.string().max(200),
  provider: z.string().max(100),
  delivery: z.string().max(100),
  hours: z.number().nullable(),
  ceu: z.number().nullable(),
  prerequisites: z.array(z.string().max(20)).max(10).describe('Courses that must be completed before enrolling.'),
  recommended: z.array(z.string().max(20)).max(10).describe('Courses advised first; not enforced.'),
  prerequisites_text: z.string().max(400),
  topic: z.string().max(40),
  audience: z.string().max(200),
  url: z.string().max(400),
  verified: z.boolean().describe('false: the hours (and CEUs) are not confirmed in a public source yet.'),
  evidence: z.string().max(400),
  enrolled: z.boolean(),
}));

export const CourseList = onFirstUse(() => z.object({ data: z.array(Course()).max(100), next_cursor: z.string().max(2000).nullable() }).openapi('CourseList'));

const CourseCode = onFirstUse(() => z.string().trim().min(2).max(20).regex(/^[A-Za-z0-9./-]+$/, 'A course code such as IS-100.c'));

export const EnrollBody = onFirstUse(() => z.object({ course_code: CourseCode() }).strict());
export const EnrollHeaders = IdempotencyHeaders;

const Attestation = onFirstUse(() => z.enum(ATTESTATIONS).describe('What the credential attests: `self_reported` — the holder reported the completion (and any certificate number); the course provider has not confirmed it.'));

const Credential = onFirstUse(() => z.object({
  certification_id: z.string().max(80),
  name: z.string().max(300),
  kind: z.enum(['course', 'programme']),
  achievement_code: z.string().max(40),
  issuer: z.string().max(200),
  issued_at: z.string().max(40),
  valid_from: z.string().max(10),
  expires_at: z.string().max(40),
  status: z.enum(CREDENTIAL_STATUSES),
  certificate_number: z.string().max(64).nullable().describe('As the holder reported it; not checked with the provider.'),
  attestation: Attestation(),
  verification_url: z.string().max(2048),
  credential_jwt: z.string().max(20_000).describe('The Open Badges 3.0 credential as a JWT signed ES256; verify it with `GET /v1/.well-known/jwks.json`.'),
}).openapi('Certification'));

export const Enrollment = onFirstUse(() => z.object({
  enrollment_id: z.string().max(80),
  course_code: z.string().max(20),
  status: z.enum(['enrolled', 'completed']),
  enrolled_at: z.string().max(40),
  completed_on: z.string().max(10).nullable(),
  certificate_number: z.string().max(64).nullable(),
  certification_id: z.string().max(80).nullable(),
  external_url: z.string().max(400).describe('Where the course is taken (the provider\'s page).'),
}).openapi('Enrollment'));

export const EnrollmentList = onFirstUse(() => z.object({ data: z.array(Enrollment()).max(100), next_cursor: z.null() }));

export const EnrollmentParams = onFirstUse(() => z.object({ enrollment_id: z.string().regex(/^enr_[A-Za-z0-9]{1,64}$/, 'An enrollment_id such as enr_…') }).strict());
export const CompleteBody = onFirstUse(() => z.object({
  completed_on: IsoDate().describe('The completion date on the certificate (YYYY-MM-DD, not in the future).'),
  certificate_number: z.string().trim().min(1).max(64).regex(/^[\w./# -]+$/, 'Letters, digits and . / # - _ only').optional(),
}).strict());

export const CompletionResponse = onFirstUse(() => z.object({
  enrollment: Enrollment(),
  certifications: z.array(Credential()).max(10).describe('The course credential, and any programme credential this completion finished.'),
}));

export const CertificationsQuery = onFirstUse(() => z.object({
  status: z.enum(['active', 'expiring', 'expired']).optional(),
  limit: LimitParam(),
  cursor: CursorParam(),
}).strict());

export const CertificationList = onFirstUse(() => z.object({ data: z.array(Credential()).max(100), next_cursor: z.string().max(2000).nullable() }));

export const CertificationParams = onFirstUse(() => z.object({ certification_id: z.string().regex(/^cert_[A-Za-z0-9]{1,64}$/, 'A certification_id such as cert_…') }).strict());

export const VerificationResponse = onFirstUse(() => z.object({
  valid: z.boolean().describe('Issued by this API (`signature_valid`) and neither expired nor revoked. It says nothing more about the completion itself than `attestation` does.'),
  status: z.enum(CREDENTIAL_STATUSES),
  signature_valid: z.boolean().describe('The stored credential\'s signature checks with the key at `GET /v1/.well-known/jwks.json` and it is this certification\'s.'),
  attestation: Attestation(),
  certification_id: z.string().max(80),
  name: z.string().max(300),
  kind: z.enum(['course', 'programme']),
  holder_name: z.string().max(200).describe('The holder\'s display name: the only personal data shown.'),
  issuer: z.string().max(200),
  issued_at: z.string().max(40),
  valid_from: z.string().max(10),
  expires_at: z.string().max(40),
  revoked_at: z.string().max(40).nullable(),
}).openapi('CertificationVerification'));

export const RevokeBody = onFirstUse(() => z.object({ reason: z.string().trim().min(3).max(500) }).strict());

export const Jwks = onFirstUse(() => z.object({
  keys: z.array(z.object({
    kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string().max(64), y: z.string().max(64), kid: z.string().max(64), alg: z.literal('ES256'), use: z.literal('sig'),
  })).max(5),
}).openapi('Jwks'));
