import { attestationOf, verificationUrl, type CredentialRecord, type CredentialStatus, type Issuer } from '../credentials/open-badge';

export interface Enrollment {
  enrollment_id: string;
  user_id: string;
  course_code: string;
  status: 'enrolled' | 'completed';
  enrolled_at: string;
  completed_on: string | null;
  certificate_number: string | null;
  completed_at: string | null;
  credential: CredentialRecord | null;
}

export interface Completion {
  completed_on: string;
  certificate_number: string | null;
  completed_at: string;
  credential: CredentialRecord;
}

/**
 * Enrolments and credentials of a user live in the user's partition: one item per course (so a
 * second enrolment in the same course is a failed conditional write) carrying its completion and
 * credential, and one item per programme credential.
 */
export interface TrainingStore {
  userRecords(userId: string): Promise<{ enrollments: Enrollment[]; programmeCredentials: CredentialRecord[] }>;
  /** false when the user already has an enrolment in that course. */
  createEnrollment(enrollment: Enrollment): Promise<boolean>;
  /** One conditional write from `enrolled` to `completed`; false when it is not `enrolled`. */
  completeEnrollment(userId: string, courseCode: string, completion: Completion): Promise<boolean>;
  /** false when the user already holds a credential for that programme. */
  addProgrammeCredential(userId: string, programmeId: string, credential: CredentialRecord): Promise<boolean>;
  findCredential(certificationId: string): Promise<CredentialRecord | undefined>;
  /** false when the credential is unknown or already revoked. */
  revokeCredential(certificationId: string, at: string, reason: string): Promise<boolean>;
}

export interface TrainingUser {
  user_id: string;
  name: string;
  role: string;
}

export type TrainingErrorCode = 'not_found' | 'already_enrolled' | 'prerequisites_not_met' | 'conflict' | 'invalid_request';

export class TrainingError extends Error {
  constructor(readonly code: TrainingErrorCode, message: string, readonly extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'TrainingError';
  }
}

export function certificationView(record: CredentialRecord, status: CredentialStatus, issuer: Issuer) {
  return {
    certification_id: record.certification_id,
    name: record.name,
    kind: record.kind,
    achievement_code: record.achievement_code,
    issuer: issuer.name,
    issued_at: record.issued_at,
    valid_from: record.valid_from,
    expires_at: record.expires_at,
    status,
    certificate_number: record.certificate_number,
    attestation: attestationOf(record),
    verification_url: verificationUrl(issuer, record.certification_id),
    credential_jwt: record.credential_jwt,
  };
}
