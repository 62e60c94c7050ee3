import { ROUTES } from '../../shared/routes';
import type { RouteDef } from '../../shared/routes/types';

/**
 * Every POST that creates a resource or starts a job honours `Idempotency-Key`: through the route
 * table (`idempotency`, applied by the pipeline) or, for those that wrap it themselves, in their
 * handler. The others create nothing a retry could duplicate, and say why here.
 */
const KEYED_IN_HANDLER: Record<string, string> = {
  createAssessment: 'wraps withIdempotency in functions/assessments/handler.ts',
  submitAssessment: 'wraps withIdempotency in functions/assessments/handler.ts',
  importAssets: 'wraps withIdempotency in functions/assets/handler.ts',
  startAssetImport: 'wraps withIdempotency in functions/assets/handler.ts',
  createWebhook: 'wraps withIdempotency in functions/account/handler.ts',
  createElevationModel: 'wraps withIdempotency in functions/hazards/handler.ts',
  enrollInCourse: 'wraps withIdempotency (per user) in functions/v1-training/handler.ts',
  createAccountKey: 'its replay leaves out the key value, shown once (functions/v1-identity/handler.ts)',
  registerUser: 'wraps withIdempotency, keys kept per email, password outside the fingerprint (functions/v1-identity/handler.ts)',
};

const EXEMPT: Record<string, string> = {
  assessSlrImpact: 'a computation: stores nothing',
  validateCompliance: 'a computation: stores nothing',
  validateGisData: 'a computation over the uploaded file: stores nothing',
  checkGrantEligibility: 'a computation: stores nothing',
  rankGrantProject: 'a computation: stores nothing',
  confirmUser: 'confirms an existing registration: creates and starts nothing',
  resendConfirmationCode: 'emails the code of an existing registration again: creates and starts nothing',
  requestPasswordReset: 'emails a reset code for an existing user: creates and starts nothing',
  resetPassword: 'changes an existing user\'s password: creates nothing, and no fingerprint of a password may be stored',
  login: 'issues tokens, not a resource: they must never be stored for a replay',
  logout: 'ends the session: creates nothing a retry could duplicate',
  prefillMethodology: 'conditional on If-Match: a retry after it applied is 409 (the version moved on), nothing is written twice',
};

const posts = ROUTES.filter((route) => route.method === 'POST');
const declaresKey = (route: RouteDef) => Boolean(route.request?.headers?.().shape['idempotency-key']) && 422 in route.responses;

describe('Idempotency-Key on POST operations', () => {
  it('every POST is keyed through the table or its handler, or exempt for a stated reason', () => {
    const unaccounted = posts.filter((r) => !r.idempotency && !(r.id in KEYED_IN_HANDLER) && !(r.id in EXEMPT)).map((r) => r.id);
    expect(unaccounted).toEqual([]);
    // The lists name only POST routes that exist, and no route is both keyed and exempt.
    const ids = new Set(posts.map((r) => r.id));
    expect([...Object.keys(KEYED_IN_HANDLER), ...Object.keys(EXEMPT)].filter((id) => !ids.has(id))).toEqual([]);
    expect(posts.filter((r) => r.idempotency && (r.id in EXEMPT || r.id in KEYED_IN_HANDLER)).map((r) => r.id)).toEqual([]);
  });

  it('the job-starting and record-creating POSTs are keyed through the table', () => {
    const keyed = posts.filter((r) => r.idempotency).map((r) => [r.id, r.idempotency]).sort();
    expect(keyed).toEqual([
      ['analyzeFlooding', 'account'], ['completeEnrollment', 'user'], ['createDeliverables', 'account'],
      ['recordDepConfirmation', 'account'], ['revokeCertification', 'user'], ['testWebhook', 'account'],
    ]);
    // Keys of bearer routes are the user's own; of API-key routes, the account's.
    for (const route of posts.filter((r) => r.idempotency)) expect([route.id, route.idempotency]).toEqual([route.id, route.auth === 'bearer' ? 'user' : 'account']);
  });

  it('every keyed POST documents the header and the 422 of a reused key', () => {
    const keyed = posts.filter((r) => r.idempotency || r.id in KEYED_IN_HANDLER);
    expect(keyed.filter((r) => !declaresKey(r)).map((r) => r.id)).toEqual([]);
    expect(keyed).toHaveLength(15);
  });
});
