import type { CredentialSigner } from '../../domain/credentials/jws';
import { credentialStatus, expiryFor, issueCredential, type CredentialRecord, type CredentialStatus, type Issuer } from '../../domain/credentials/open-badge';
import { courseByCode, CREDENTIAL_POLICY, listCourses, PROGRAMMES, type CourseQuery, type Programme } from '../../domain/training/catalogue';
import { floridaDate } from '../../domain/florida-time';
import { decodeListCursor, encodeListCursor } from '../../domain/list-cursor';
import {
  certificationView, TrainingError, type Completion, type Enrollment, type TrainingStore, type TrainingUser,
} from '../../domain/training/enrolment';

export interface TrainingDeps {
  store: TrainingStore;
  signer: CredentialSigner;
  issuer: Issuer;
  now: Date;
  newId: () => string;
  /** Failures after the completion was recorded are reported here, not to the caller. */
  onDeferredError?: (error: unknown) => void;
}

const completedCodes = (enrollments: readonly Enrollment[]) => new Set(enrollments.filter((e) => e.status === 'completed').map((e) => e.course_code));

export async function enroll(user: TrainingUser, code: string, deps: Pick<TrainingDeps, 'store' | 'now' | 'newId'>): Promise<Enrollment> {
  const course = courseByCode(code);
  if (!course) throw new TrainingError('not_found', `No course ${code} in the catalogue (GET /v1/courses lists them).`);
  const { enrollments } = await deps.store.userRecords(user.user_id);
  const existing = enrollments.find((e) => e.course_code === course.code);
  if (existing) {
    throw new TrainingError('already_enrolled', `You are already enrolled in ${course.code} (${existing.enrollment_id}, ${existing.status}).`, { enrollment_id: existing.enrollment_id });
  }
  const done = completedCodes(enrollments);
  const missing = course.prerequisites.filter((p) => !done.has(p));
  if (missing.length > 0) {
    throw new TrainingError('prerequisites_not_met', `${course.code} requires ${missing.join(', ')} to be completed first.`, { missing_prerequisites: missing });
  }
  const enrollment: Enrollment = {
    enrollment_id: `enr_${deps.newId()}`,
    user_id: user.user_id,
    course_code: course.code,
    status: 'enrolled',
    enrolled_at: deps.now.toISOString(),
    completed_on: null,
    certificate_number: null,
    completed_at: null,
    credential: null,
  };
  if (!(await deps.store.createEnrollment(enrollment))) {
    throw new TrainingError('already_enrolled', `You are already enrolled in ${course.code}.`);
  }
  return enrollment;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function programmesFor(done: ReadonlySet<string>, held: ReadonlySet<string>): Programme[] {
  return PROGRAMMES.filter((p) => !held.has(p.id) && p.courses.every((c) => done.has(c)));
}

/**
 * Issues the credentials of programmes whose courses are all completed and which the user does not
 * hold yet. A lost race with a concurrent completion is a failed conditional write: nothing doubles.
 */
async function issueProgrammeCredentials(user: TrainingUser, enrollments: readonly Enrollment[], held: readonly CredentialRecord[], deps: TrainingDeps): Promise<CredentialRecord[]> {
  const done = completedCodes(enrollments);
  const issued: CredentialRecord[] = [];
  for (const programme of programmesFor(done, new Set(held.map((c) => c.achievement_code)))) {
    const latest = enrollments.filter((e) => programme.courses.includes(e.course_code)).map((e) => e.completed_on!).sort().at(-1)!;
    const credential = await issueCredential({
      certification_id: `cert_${deps.newId()}`,
      kind: 'programme',
      achievement_code: programme.id,
      name: programme.name,
      description: `${programme.description} Courses: ${programme.courses.join(', ')}.`,
      holder_name: user.name,
      holder_id: user.user_id,
      issued_at: deps.now.toISOString(),
      valid_from: latest,
      expires_at: expiryFor(latest, CREDENTIAL_POLICY),
      certificate_number: null,
      attestation: 'self_reported',
    }, deps.issuer, deps.signer);
    if (await deps.store.addProgrammeCredential(user.user_id, programme.id, credential)) issued.push(credential);
  }
  return issued;
}

export async function completeEnrollment(
  user: TrainingUser,
  enrollmentId: string,
  input: { completed_on: string; certificate_number?: string },
  deps: TrainingDeps,
): Promise<{ enrollment: Enrollment; certifications: CredentialRecord[] }> {
  const { enrollments, programmeCredentials } = await deps.store.userRecords(user.user_id);
  const enrollment = enrollments.find((e) => e.enrollment_id === enrollmentId);
  if (!enrollment) throw new TrainingError('not_found', `No enrolment ${enrollmentId} of yours.`);
  if (enrollment.status === 'completed') {
    throw new TrainingError('conflict', `Enrolment ${enrollmentId} was already completed on ${enrollment.completed_on}; a completion is recorded once.`);
  }
  const today = floridaDate(deps.now);
  if (!ISO_DATE.test(input.completed_on) || Number.isNaN(Date.parse(input.completed_on)) || input.completed_on > today) {
    throw new TrainingError('invalid_request', `completed_on must be a date (YYYY-MM-DD) no later than today (${today}).`, { errors: [{ field: 'completed_on', in: 'body', message: 'Not a past or present date' }] });
  }
  const course = courseByCode(enrollment.course_code)!;
  const credential = await issueCredential({
    certification_id: `cert_${deps.newId()}`,
    kind: 'course',
    achievement_code: course.code,
    name: `${course.code} ${course.title}`,
    description: `${course.provider}, ${course.delivery}. Completion recorded by the holder${input.certificate_number ? ` with certificate number ${input.certificate_number}` : ''}.`,
    holder_name: user.name,
    holder_id: user.user_id,
    issued_at: deps.now.toISOString(),
    valid_from: input.completed_on,
    expires_at: expiryFor(input.completed_on, CREDENTIAL_POLICY),
    certificate_number: input.certificate_number ?? null,
    // The holder's word: nothing here is confirmed with the course provider.
    attestation: 'self_reported',
  }, deps.issuer, deps.signer);
  const completion: Completion = { completed_on: input.completed_on, certificate_number: input.certificate_number ?? null, completed_at: deps.now.toISOString(), credential };
  if (!(await deps.store.completeEnrollment(user.user_id, enrollment.course_code, completion))) {
    throw new TrainingError('conflict', `Enrolment ${enrollmentId} was completed by another request; a completion is recorded once.`);
  }
  const completed: Enrollment = { ...enrollment, status: 'completed', ...completion };
  const all = enrollments.map((e) => (e.enrollment_id === enrollmentId ? completed : e));
  let programmes: CredentialRecord[] = [];
  try {
    programmes = await issueProgrammeCredentials(user, all, programmeCredentials, deps);
  } catch (error) {
    // The completion stands; the programme credential is issued on the next read of the list.
    deps.onDeferredError?.(error);
  }
  return { enrollment: completed, certifications: [credential, ...programmes] };
}

export interface CertificationQuery {
  status?: Exclude<CredentialStatus, 'revoked'>;
  limit: number;
  cursor?: string;
}

/** The user's credentials, newest first; programme credentials not issued yet are issued now. */
export async function listCertifications(user: TrainingUser, query: CertificationQuery, deps: TrainingDeps) {
  const { enrollments, programmeCredentials } = await deps.store.userRecords(user.user_id);
  const late = await issueProgrammeCredentials(user, enrollments, programmeCredentials, deps);
  const all = [...enrollments.flatMap((e) => (e.credential ? [e.credential] : [])), ...programmeCredentials, ...late]
    .map((c) => ({ record: c, status: credentialStatus(c, deps.now, CREDENTIAL_POLICY) }))
    .filter((c) => !query.status || c.status === query.status)
    .sort((a, b) => (a.record.issued_at === b.record.issued_at ? a.record.certification_id.localeCompare(b.record.certification_id) : a.record.issued_at < b.record.issued_at ? 1 : -1));
  const start = query.cursor === undefined ? 0 : positionAfter(query.cursor, query.status ?? '', all.map((c) => c.record.certification_id));
  const page = all.slice(start, start + query.limit);
  return {
    data: page.map((c) => certificationView(c.record, c.status, deps.issuer)),
    next_cursor: start + query.limit < all.length ? encodeListCursor({ after: page.at(-1)!.record.certification_id, s: query.status ?? '' }) : null,
  };
}

/** A cursor names the last certification of the page and the status filter it was issued for. */
function positionAfter(cursor: string, status: string, ids: readonly string[]): number {
  const index = decodeListCursor(cursor, ({ after, s }) => {
    const found = typeof after === 'string' && s === status ? ids.indexOf(after) : -1;
    return found < 0 ? undefined : found;
  });
  return index + 1;
}

/** The catalogue, each course marked when the user is enrolled in it. */
export async function coursesFor(user: TrainingUser, query: CourseQuery, store: TrainingStore) {
  const { enrollments } = await store.userRecords(user.user_id);
  return listCourses(query, new Set(enrollments.map((e) => e.course_code)));
}

export async function listEnrollments(user: TrainingUser, store: TrainingStore) {
  const { enrollments } = await store.userRecords(user.user_id);
  return enrollments.sort((a, b) => (a.enrolled_at < b.enrolled_at ? 1 : a.enrolled_at > b.enrolled_at ? -1 : 0));
}

/** The holder withdraws their credential, or an administrator revokes it; others see no such credential. */
export async function revokeCertification(user: TrainingUser, certificationId: string, reason: string, deps: Pick<TrainingDeps, 'store' | 'now'>): Promise<CredentialRecord> {
  const record = await deps.store.findCredential(certificationId);
  if (!record || (record.holder_id !== user.user_id && user.role !== 'admin')) throw new TrainingError('not_found', `No certification ${certificationId} of yours.`);
  if (record.revoked_at) throw new TrainingError('conflict', `Certification ${certificationId} was already revoked on ${record.revoked_at}.`);
  const at = deps.now.toISOString();
  if (!(await deps.store.revokeCredential(certificationId, at, reason))) throw new TrainingError('conflict', `Certification ${certificationId} was revoked by another request.`);
  return { ...record, revoked_at: at, revocation_reason: reason };
}
