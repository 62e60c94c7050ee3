import type { OperationExample } from './types';

const PROFILE = {
  user_id: '3c674b6d-b58c-4f14-a176-5b4eaca12aa0',
  email: 'dana@example.org',
  name: 'Dana Planner',
  role: 'staff',
  organization: 'Levy County',
  county_fips: '12075',
  county_name: 'Levy',
  account_id: 'acct_52cf15b7-8ea1-4cf7-9caf-36999f018c48',
  subscription_tier: 'free',
  preferences: {},
  created_at: '2026-11-23T19:22:09.204Z',
  updated_at: '2026-11-23T19:22:09.204Z',
};

/** The answer to a wrong, expired or unknown emailed code (confirmation and password reset alike). */
const wrongCode = (instance: string): OperationExample['response'] => ({
  status: 400,
  body: {
    type: '/api/docs#error-invalid_request',
    title: 'Invalid request',
    status: 400,
    detail: 'The code is wrong or expired.',
    instance,
    code: 'invalid_request',
    errors: [{ field: 'code', in: 'body', message: 'Wrong or expired code' }],
  },
});

/**
 * A county planner registers, signs in, reads and updates the profile, issues an API key of the
 * current API, lists and revokes it, and signs out (answers of the local server, shortened).
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
    response: {
      status: 201,
      body: {
        user_id: '3c674b6d-b58c-4f14-a176-5b4eaca12aa0',
        email: 'dana@example.org',
        name: 'Dana Planner',
        role: 'staff',
        status: 'active',
        created_at: '2026-11-23T19:22:09.204Z',
      },
    },
  },
  {
    // Local registrations are confirmed at once, so a code can only be wrong here; in AWS the emailed code answers 204.
    operationId: 'confirmUser',
    request: { body: { email: 'dana@example.org', code: '482913' } },
    response: wrongCode('666af5f4-6120-4a20-9da8-f15699f24292'),
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
    response: wrongCode('5f0c6a43-86a2-4b7e-9d7c-2f1e0e7a1b64'),
  },
  {
    operationId: 'login',
    request: { body: { email: 'dana@example.org', password: 'Cedar-Key-Tide-2026!' } },
    response: {
      status: 200,
      headers: { 'Cache-Control': 'no-store' },
      body: {
        access_token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IkNvZ25pdG9Mb2NhbCJ9.eyJhdXRoX3RpbWUiOjE3OTU0NjE3MjksImNsaWVudF9pZCI6ImFteWdoMzRqeWl3dDFyc2Z6bnJjNjhrcDIiLCJldmVudF9pZCI6Ijc0NWRhOWY3LTVjZGYtNGI2YS1iMDE1LWI3MGFmNTg5Mjg3NyIsImlhdCI6MTc5NTQ2MTcyOSwianRpIjoiZjQxZjk4Y2MtODc5Zi00MjQ4LWI1OWItM2EzOTAxMTdlN2M4Iiw…',
        id_token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IkNvZ25pdG9Mb2NhbCJ9.eyJjb2duaXRvOnVzZXJuYW1lIjoiM2M2NzRiNmQtYjU4Yy00ZjE0LWExNzYtNWI0ZWFjYTEyYWEwIiwiYXV0aF90aW1lIjoxNzk1NDYxNzI5LCJlbWFpbCI6ImRhbmFAZXhhbXBsZS5vcmciLCJlbWFpbF92ZXJpZmllZCI6ZmFsc2UsImV2ZW50X2lkIjoiNzQ1ZGE5ZjctNWNkZi00YjZhLWIwMTUtYjcwYWY1ODk…',
        refresh_token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJjb2duaXRvOnVzZXJuYW1lIjoiM2M2NzRiNmQtYjU4Yy00ZjE0LWExNzYtNWI0ZWFjYTEyYWEwIiwiZW1haWwiOiJkYW5hQGV4YW1wbGUub3JnIiwiaWF0IjoxNzk1NDYxNzI5LCJqdGkiOiIyZTY5YWFkOS0yMWMzLTRkODgtYTQzOC1hODZjNmRkNGQ5NGQiLCJleHAiOjE3OTgwNTM3MjksImlzcyI6Imh0dHA6Ly8xMjcuMC4wLjE6NDI1NDMvbG9…',
        token_type: 'Bearer',
        expires_in: 3600,
      },
    },
  },
  {
    operationId: 'getProfile',
    response: { status: 200, headers: { ETag: '"1"' }, body: PROFILE },
  },
  {
    operationId: 'listActivity',
    request: { query: { limit: '10' } },
    response: {
      status: 200,
      body: {
        data: [
          {
            event_id: '7f766475-3636-4927-a2d7-5ab14f123f3f',
            type: 'sign_in',
            occurred_at: '2026-11-23T19:22:09.449Z',
            client_ip: '127.0.0.1',
            user_agent: 'curl/7.88.1',
            details: {},
          },
        ],
        next_cursor: null,
      },
    },
  },
  {
    operationId: 'updateProfile',
    request: {
      headers: { 'If-Match': '"1"' },
      body: { organization: 'Levy County Planning', preferences: { units: 'ft' } },
    },
    response: {
      status: 200,
      headers: { ETag: '"2"' },
      body: { ...PROFILE, organization: 'Levy County Planning', preferences: { units: 'ft' }, updated_at: '2026-11-23T19:22:09.998Z' },
    },
  },
  {
    operationId: 'createAccountKey',
    request: { body: { name: 'laptop' } },
    response: {
      status: 201,
      body: {
        key_id: 'key_0mwtnk1efb5b2207817e6',
        name: 'laptop',
        prefix: 'vac_Xra3',
        created_at: '2026-11-23T19:22:10.075Z',
        key: 'vac_Xra33inmgXPq_1BROfqFvW3Ecj3qjlk4',
        subscription_tier: 'free',
      },
    },
  },
  {
    operationId: 'listAccountKeys',
    response: {
      status: 200,
      body: {
        data: [
          {
            key_id: 'key_0mwtnk1efb5b2207817e6',
            name: 'laptop',
            prefix: 'vac_Xra3',
            created_at: '2026-11-23T19:22:10.075Z',
            last_used_at: null,
          },
        ],
        next_cursor: null,
      },
    },
  },
  {
    operationId: 'revokeAccountKey',
    request: { params: { key_id: 'key_0mwtnk1efb5b2207817e6' } },
    response: { status: 204 },
  },
  {
    operationId: 'logout',
    request: {
      body: {
        refresh_token: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJjb2duaXRvOnVzZXJuYW1lIjoiM2M2NzRiNmQtYjU4Yy00ZjE0LWExNzYtNWI0ZWFjYTEyYWEwIiwiZW1haWwiOiJkYW5hQGV4YW1wbGUub3JnIiwiaWF0IjoxNzk1NDYxNzI5LCJqdGkiOiIyZTY5YWFkOS0yMWMzLTRkODgtYTQzOC1hODZjNmRkNGQ5NGQiLCJleHAiOjE3OTgwNTM3MjksImlzcyI6Imh0dHA6Ly8xMjcuMC4wLjE6NDI1NDMvbG9…',
      },
    },
    response: { status: 204 },
  },
];
