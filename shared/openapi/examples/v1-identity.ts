import type { OperationExample } from './types';

/**
 * A county planner registers, signs in, reads and updates the profile, issues an API key of the
 * current API, lists and revokes it, and signs out (answers recorded from the local server).
 */
export const v1IdentityExamples: OperationExample[] = [
  {
    operationId: 'registerUser',
    request: {
      body: {
        email: 'dana@example.org',
        password: 'Cedar-Key-Tide-2026!',
        name: 'Dana Planner',
        role: 'staff',
        organization: 'Levy County',
        county_fips: '12075',
      },
    },
    response: { status: 201 },
  },
  {
    // Local registrations are confirmed at once, so a code can only be wrong here; in AWS the emailed code answers 204.
    operationId: 'confirmUser',
    request: { body: { email: 'dana@example.org', code: '482913' } },
    response: { status: 400 },
  },
  {
    // The same 204 whether or not the email awaits confirmation; in AWS Cognito emails a new code if it does.
    operationId: 'resendConfirmationCode',
    request: { body: { email: 'dana@example.org' } },
    response: { status: 204 },
  },
  {
    // In AWS Cognito emails the code; locally it is appended to $DATA_DIR/cognito/mailbox.jsonl.
    operationId: 'requestPasswordReset',
    request: { body: { email: 'dana@example.org' } },
    response: { status: 204 },
  },
  {
    // With the code just sent the answer is 204; a wrong one:
    operationId: 'resetPassword',
    request: { body: { email: 'dana@example.org', code: '000000', password: 'Suwannee-Flood-2027!' } },
    response: { status: 400 },
  },
  {
    operationId: 'login',
    request: { body: { email: 'dana@example.org', password: 'Cedar-Key-Tide-2026!' } },
    response: { status: 200, headers: ['Cache-Control'] },
  },
  {
    operationId: 'getProfile',
    response: { status: 200, headers: ['ETag'] },
  },
  {
    operationId: 'listActivity',
    request: { query: { limit: '10' } },
    response: { status: 200 },
  },
  {
    operationId: 'updateProfile',
    request: {
      headers: { 'If-Match': '"1"' },
      body: { organization: 'Levy County Planning', preferences: { units: 'ft' } },
    },
    response: { status: 200, headers: ['ETag'] },
  },
  {
    operationId: 'createAccountKey',
    request: { body: { name: 'laptop' } },
    response: { status: 201 },
  },
  {
    operationId: 'listAccountKeys',
    response: { status: 200 },
  },
  {
    operationId: 'revokeAccountKey',
    request: { params: { key_id: 'key_225846369762963836108' } },
    response: { status: 204 },
  },
  {
    operationId: 'logout',
    request: {
      body: {
        refresh_token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJleGFtcGxlX3Rva2VuIjoibG9naW4jMSAkLnJlZnJlc2hfdG9rZW5AMCJ9.1841917355235152814973979272813572708489781',
      },
    },
    response: { status: 204 },
  },
];
