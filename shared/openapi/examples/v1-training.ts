import type { OperationExample } from './types';

/** A staff member signs up, enrols in a course, records its completion, and the credential is verified and revoked (answers of the local server, shortened). */
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
    response: {
      status: 201,
      body: {
        user_id: '332f7fee-4964-4900-a0cf-2bdd2a352153',
        email: 'sam.staff@example.org',
        name: 'Sam Staff',
        role: 'staff',
        status: 'active',
        created_at: '2026-11-23T18:39:50.303Z',
      },
    },
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
    response: {
      status: 200,
      body: {
        access_token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IkNvZ25pdG9Mb2NhbCJ9.eyJhdXRoX3RpbWUiOjE3OTU0NTkxOTAsImNsaWVudF9pZCI6IjBkcmdsM3BpdjJ6eDFmeDFocTNvN2RsaHUiLCJldmVudF9pZCI6IjZiMDcyZGMwLWNkZTMtNGRhZi1iZTMwLWY0NzlhOGFlMDFmMCIsImlhdCI6MTc5NTQ1OTE5MCwianRpIjoiNDk0ZTlhOTktNzQ3ZS00ODEzLTg1MTYtMjNhMzFiNTllNDM1Iiw…',
        id_token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IkNvZ25pdG9Mb2NhbCJ9.eyJjb2duaXRvOnVzZXJuYW1lIjoiMzMyZjdmZWUtNDk2NC00OTAwLWEwY2YtMmJkZDJhMzUyMTUzIiwiYXV0aF90aW1lIjoxNzk1NDU5MTkwLCJlbWFpbCI6InNhbS5zdGFmZkBleGFtcGxlLm9yZyIsImVtYWlsX3ZlcmlmaWVkIjpmYWxzZSwiZXZlbnRfaWQiOiI2YjA3MmRjMC1jZGUzLTRkYWYtYmUzMC1mNDc…',
        refresh_token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJjb2duaXRvOnVzZXJuYW1lIjoiMzMyZjdmZWUtNDk2NC00OTAwLWEwY2YtMmJkZDJhMzUyMTUzIiwiZW1haWwiOiJzYW0uc3RhZmZAZXhhbXBsZS5vcmciLCJpYXQiOjE3OTU0NTkxOTAsImp0aSI6IjQxYTRlN2NmLThkMmUtNDU0Yi1hODYzLTFmZWNmYzNjMTg5ZSIsImV4cCI6MTc5ODA1MTE5MCwiaXNzIjoiaHR0cDovLzEyNy4wLjAuMTozNzg…',
        token_type: 'Bearer',
        expires_in: 3600,
      },
    },
  },
  {
    operationId: 'listCourses',
    request: {
      query: {
        topic: 'mitigation',
        limit: '2',
      },
    },
    response: {
      status: 200,
      body: {
        data: [
          {
            code: 'IS-279.a',
            title: 'Retrofitting Flood-Prone Residential Buildings',
            provider: 'FEMA EMI',
            delivery: 'online independent study',
            hours: 8,
            ceu: 0.8,
            prerequisites: [],
            recommended: [],
            prerequisites_text: 'none',
            topic: 'mitigation',
            audience: 'building officials, engineers, homeowners',
            url: 'https://training.fema.gov/is/courseoverview.aspx?code=IS-279.a',
            verified: false,
            evidence: 'unverified (FEMA P-312 \'Homeowner\'s Guide to Retrofitting\' 3rd ed. June 2014 is the companion publication — verified)',
            enrolled: false,
          },
        ],
        next_cursor: 'eyJhZnRlciI6IklTLTMyMiIsImYiOiJbXCJtaXRpZ2F0aW9uXCIsXCJcIixcIlwiXSJ9',
      },
    },
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
    response: {
      status: 201,
      body: {
        enrollment_id: 'enr_f3a9b3b11c47471ebc3edf0ce879fb50',
        course_code: 'IS-393.b',
        status: 'enrolled',
        enrolled_at: '2026-11-23T18:39:50.793Z',
        completed_on: null,
        certificate_number: null,
        certification_id: null,
        external_url: 'https://training.fema.gov/is/courseoverview.aspx?code=IS-393.b',
      },
    },
  },
  {
    operationId: 'listEnrollments',
    response: {
      status: 200,
      body: {
        data: [
          {
            enrollment_id: 'enr_f3a9b3b11c47471ebc3edf0ce879fb50',
            course_code: 'IS-393.b',
            status: 'enrolled',
            enrolled_at: '2026-11-23T18:39:50.793Z',
            completed_on: null,
            certificate_number: null,
            certification_id: null,
            external_url: 'https://training.fema.gov/is/courseoverview.aspx?code=IS-393.b',
          },
        ],
        next_cursor: null,
      },
    },
  },
  {
    operationId: 'completeEnrollment',
    request: {
      params: {
        enrollment_id: 'enr_f3a9b3b11c47471ebc3edf0ce879fb50',
      },
      body: {
        completed_on: '2026-10-01',
        certificate_number: 'IS0393B-2026-0001',
      },
    },
    response: {
      status: 200,
      body: {
        enrollment: {
          enrollment_id: 'enr_f3a9b3b11c47471ebc3edf0ce879fb50',
          course_code: 'IS-393.b',
          status: 'completed',
          enrolled_at: '2026-11-23T18:39:50.793Z',
          completed_on: '2026-10-01',
          certificate_number: 'IS0393B-2026-0001',
          certification_id: 'cert_011da4957c844102b125b64604fc3e23',
          external_url: 'https://training.fema.gov/is/courseoverview.aspx?code=IS-393.b',
        },
        certifications: [
          {
            certification_id: 'cert_011da4957c844102b125b64604fc3e23',
            name: 'IS-393.b Introduction to Hazard Mitigation',
            kind: 'course',
            achievement_code: 'IS-393.b',
            issuer: 'Vulnerability Assessment Compliance API',
            issued_at: '2026-11-23T18:39:51.032Z',
            valid_from: '2026-10-01',
            expires_at: '2029-10-01T00:00:00.000Z',
            status: 'active',
            certificate_number: 'IS0393B-2026-0001',
            attestation: 'self_reported',
            verification_url: 'http://127.0.0.1:3917/api/v1/certifications/cert_011da4957c844102b125b64604fc3e23/verify',
            credential_jwt: 'eyJhbGciOiJFUzI1NiIsInR5cCI6InZjK2p3dCIsImtpZCI6InFEMXNVNVBtV21xS05WajA5NVF2cG9Dbjl2dW9hUWxEOGdJSk1PcEhnWWcifQ.eyJAY29udGV4dCI6WyJodHRwczovL3d3dy53My5vcmcvbnMvY3JlZGVudGlhbHMvdjIiLCJodHRwczovL3B1cmwuaW1zZ2xvYmFsLm9yZy9zcGVjL29iL3YzcDAvY29udGV4dC0zLjAuMy5qc29uIl0sImlkIjoidXJuOnV1aWQ6MDExZGE0OTU3Yzg0N…',
          },
        ],
      },
    },
  },
  {
    operationId: 'listCertifications',
    request: {
      query: {
        status: 'active',
      },
    },
    response: {
      status: 200,
      body: {
        data: [
          {
            certification_id: 'cert_011da4957c844102b125b64604fc3e23',
            name: 'IS-393.b Introduction to Hazard Mitigation',
            kind: 'course',
            achievement_code: 'IS-393.b',
            issuer: 'Vulnerability Assessment Compliance API',
            issued_at: '2026-11-23T18:39:51.032Z',
            valid_from: '2026-10-01',
            expires_at: '2029-10-01T00:00:00.000Z',
            status: 'active',
            certificate_number: 'IS0393B-2026-0001',
            attestation: 'self_reported',
            verification_url: 'http://127.0.0.1:3917/api/v1/certifications/cert_011da4957c844102b125b64604fc3e23/verify',
            credential_jwt: 'eyJhbGciOiJFUzI1NiIsInR5cCI6InZjK2p3dCIsImtpZCI6InFEMXNVNVBtV21xS05WajA5NVF2cG9Dbjl2dW9hUWxEOGdJSk1PcEhnWWcifQ.eyJAY29udGV4dCI6WyJodHRwczovL3d3dy53My5vcmcvbnMvY3JlZGVudGlhbHMvdjIiLCJodHRwczovL3B1cmwuaW1zZ2xvYmFsLm9yZy9zcGVjL29iL3YzcDAvY29udGV4dC0zLjAuMy5qc29uIl0sImlkIjoidXJuOnV1aWQ6MDExZGE0OTU3Yzg0N…',
          },
        ],
        next_cursor: null,
      },
    },
  },
  {
    operationId: 'credentialJwks',
    response: {
      status: 200,
      body: {
        keys: [
          {
            kty: 'EC',
            crv: 'P-256',
            x: 'qXijSioYfmJdVUBtjBYCgdirK97arRSZrfW7_8YvwFs',
            y: 'rnuOlS85mN0BsR6iYyuaQmlrAHeUSHa4g6_1_ILtkWk',
            kid: 'qD1sU5PmWmqKNVj095QvpoCn9vuoaQlD8gIJMOpHgYg',
            alg: 'ES256',
            use: 'sig',
          },
        ],
      },
    },
  },
  {
    operationId: 'verifyCertification',
    request: {
      params: {
        certification_id: 'cert_011da4957c844102b125b64604fc3e23',
      },
    },
    response: {
      status: 200,
      body: {
        valid: true,
        status: 'active',
        signature_valid: true,
        attestation: 'self_reported',
        certification_id: 'cert_011da4957c844102b125b64604fc3e23',
        name: 'IS-393.b Introduction to Hazard Mitigation',
        kind: 'course',
        holder_name: 'Sam Staff',
        issuer: 'Vulnerability Assessment Compliance API',
        issued_at: '2026-11-23T18:39:51.032Z',
        valid_from: '2026-10-01',
        expires_at: '2029-10-01T00:00:00.000Z',
        revoked_at: null,
      },
    },
  },
  {
    operationId: 'revokeCertification',
    request: {
      params: {
        certification_id: 'cert_011da4957c844102b125b64604fc3e23',
      },
      body: {
        reason: 'Recorded against the wrong course',
      },
    },
    response: {
      status: 200,
      body: {
        valid: false,
        status: 'revoked',
        signature_valid: true,
        attestation: 'self_reported',
        certification_id: 'cert_011da4957c844102b125b64604fc3e23',
        name: 'IS-393.b Introduction to Hazard Mitigation',
        kind: 'course',
        holder_name: 'Sam Staff',
        issuer: 'Vulnerability Assessment Compliance API',
        issued_at: '2026-11-23T18:39:51.032Z',
        valid_from: '2026-10-01',
        expires_at: '2029-10-01T00:00:00.000Z',
        revoked_at: '2026-11-23T18:39:51.317Z',
      },
    },
  },
];
