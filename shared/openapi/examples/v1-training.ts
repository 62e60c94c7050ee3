import type { OperationExample } from './types';

/** A staff member signs up, enrols in a course, records its completion, and the credential is verified and revoked (answers recorded from the local server). */
export const v1TrainingExamples: OperationExample[] = [
  {
    operationId: 'registerUser',
    setup: true,
    request: {
      body: {
        email: 'sam.staff@example.org',
        password: 'Keys-Sea-Level-2026!',
        name: 'Sam Staff',
        role: 'staff',
        organization: 'Monroe County',
      },
    },
    response: { status: 201 },
  },
  {
    operationId: 'login',
    setup: true,
    request: {
      body: {
        email: 'sam.staff@example.org',
        password: 'Keys-Sea-Level-2026!',
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'listCourses',
    request: {
      query: {
        topic: 'mitigation',
        limit: '2',
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'enrollInCourse',
    request: {
      headers: {
        'Idempotency-Key': 'sam-is-393b-0001',
      },
      body: {
        course_code: 'IS-393.b',
      },
    },
    response: { status: 201 },
  },
  {
    operationId: 'listEnrollments',
    response: { status: 200 },
  },
  {
    operationId: 'completeEnrollment',
    request: {
      params: {
        enrollment_id: 'enr_14435057641935856329601848819574',
      },
      body: {
        completed_on: '2026-10-01',
        certificate_number: 'IS0393B-2026-0001',
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'listCertifications',
    request: {
      query: {
        status: 'active',
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'credentialJwks',
    response: { status: 200 },
  },
  {
    operationId: 'verifyCertification',
    request: {
      params: {
        certification_id: 'cert_01823875501458951076591930022856',
      },
    },
    response: { status: 200 },
  },
  {
    operationId: 'revokeCertification',
    request: {
      params: {
        certification_id: 'cert_01823875501458951076591930022856',
      },
      body: {
        reason: 'Recorded against the wrong course',
      },
    },
    response: { status: 200 },
  },
];
