import { credentialStatus, ISSUER_NAME, type Issuer } from '../../shared/domain/credentials/open-badge';
import { courseByCode, CREDENTIAL_POLICY } from '../../shared/domain/training/catalogue';
import { certificationView, TrainingError, type Enrollment, type TrainingUser } from '../../shared/domain/training/enrolment';
import {
  completeEnrollment, coursesFor, enroll, listCertifications, listEnrollments, revokeCertification,
} from '../../shared/application/training/enrolment';
import { publicKeys, verificationOf, verifyCertification } from '../../shared/application/training/verification';
import { perUserIdempotency } from '../../shared/http/bearer';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { withIdempotency } from '../../shared/http/idempotency';
import { logger } from '../../shared/observability/logger';
import { createGroupHandler } from '../../shared/http/pipeline';
import { v1TrainingRoutes } from '../../shared/routes/v1-training';
import { trainingRouteDeps, type TrainingRouteDeps } from './deps';
import { HttpError } from '../../shared/http/problem';
import type { RouteImplementation, RouteRequest } from '../../shared/http/types';
import type {
  completeEnrollmentRoute, enrollRoute, jwksRoute, listCertificationsRoute, listCoursesRoute, listEnrollmentsRoute, revokeCertificationRoute, verifyCertificationRoute,
} from '../../shared/routes/v1-training';

/** The issuer is this API's `/v1` base, as the request reached it. */
const issuerOf = (request: RouteRequest): Issuer => ({ id: `${request.baseUrl}/v1`, name: ISSUER_NAME });

function userOf(request: RouteRequest): TrainingUser {
  // The pipeline runs a bearer route only for a verified user.
  const user = request.user!;
  return { user_id: user.user_id, name: user.name, role: user.role };
}

async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TrainingError) throw new HttpError(error.code, error.message, error.extra);
    throw error;
  }
}

function enrollmentView(enrollment: Enrollment) {
  return {
    enrollment_id: enrollment.enrollment_id,
    course_code: enrollment.course_code,
    status: enrollment.status,
    enrolled_at: enrollment.enrolled_at,
    completed_on: enrollment.completed_on,
    certificate_number: enrollment.certificate_number,
    certification_id: enrollment.credential?.certification_id ?? null,
    external_url: courseByCode(enrollment.course_code)!.url,
  };
}

/** The `/v1` training API over its use cases; tests pass their own deps. */
export function createTrainingHandler(deps: TrainingRouteDeps) {
  const trainingDeps = (request: RouteRequest) => ({
    store: deps.store(),
    signer: deps.signer(),
    issuer: issuerOf(request),
    now: request.now,
    newId: deps.newId,
    onDeferredError: (error: unknown) => logger.error('Programme credential deferred to the next read', { error: error as Error }),
  });

  const courses: RouteImplementation<typeof listCoursesRoute> = (request) => mapped(async () => ({
    status: 200,
    body: await coursesFor(userOf(request), request.query, deps.store()),
  }));

  const enrollIn: RouteImplementation<typeof enrollRoute> = (request) => {
    return withIdempotency(perUserIdempotency(request), deps.idempotency(), () => mapped(async () => ({
      status: 201,
      body: enrollmentView(await enroll(userOf(request), request.body.course_code, { store: deps.store(), now: request.now, newId: deps.newId })),
    })));
  };

  const enrollments: RouteImplementation<typeof listEnrollmentsRoute> = async (request) => ({
    status: 200,
    body: { data: (await listEnrollments(userOf(request), deps.store())).map(enrollmentView), next_cursor: null },
  });

  const complete: RouteImplementation<typeof completeEnrollmentRoute> = (request) => mapped(async () => {
    const { enrollment, certifications } = await completeEnrollment(userOf(request), request.params.enrollment_id, request.body, trainingDeps(request));
    const issuer = issuerOf(request);
    return {
      status: 200,
      body: { enrollment: enrollmentView(enrollment), certifications: certifications.map((c) => certificationView(c, credentialStatus(c, request.now, CREDENTIAL_POLICY), issuer)) },
    };
  });

  const certifications: RouteImplementation<typeof listCertificationsRoute> = (request) => mapped(async () => ({
    status: 200,
    body: await listCertifications(userOf(request), request.query, trainingDeps(request)),
  }));

  const revoke: RouteImplementation<typeof revokeCertificationRoute> = (request) => mapped(async () => {
    const record = await revokeCertification(userOf(request), request.params.certification_id, request.body.reason, { store: deps.store(), now: request.now });
    return { status: 200, body: await verificationOf(record, deps.signer(), request.now) };
  });

  const verify: RouteImplementation<typeof verifyCertificationRoute> = (request) => mapped(async () => ({
    status: 200,
    body: await verifyCertification(request.params.certification_id, { store: deps.store(), signer: deps.signer(), now: request.now }),
  }));

  const jwks: RouteImplementation<typeof jwksRoute> = async () => ({
    status: 200,
    body: { keys: await publicKeys(deps.signer()) },
    headers: { 'Cache-Control': 'public, max-age=300' },
  });

  return createGroupHandler(v1TrainingRoutes, {
    listCourses: courses,
    enrollInCourse: enrollIn,
    listEnrollments: enrollments,
    completeEnrollment: complete,
    listCertifications: certifications,
    revokeCertification: revoke,
    verifyCertification: verify,
    credentialJwks: jwks,
  }, defaultPipelineDeps);
}

export const handler = createTrainingHandler(trainingRouteDeps);
