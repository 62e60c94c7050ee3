import { HOURLY_LIMITS } from '../domain/tiers';
import { PROBLEM_TYPES, type ProblemCode } from '../http/problem';
import { TIER_ORDER, type Tier } from '../domain/tiers';

/**
 * The prose of the reference: what each tag covers, what each tier allows and what each error
 * code means. The OpenAPI document and the HTML page both draw on these tables.
 */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Meta: 'Health check and this documentation. No key needed.',
  Library: 'The s. 380.093 resource library: statute, DEP guidance, science and data sources.',
  Assessments: 'Vulnerability assessments of a jurisdiction, from draft to submission to DEP.',
  Assets: 'Critical assets (s. 380.093(2)(a)) imported from CSV, Excel, GeoJSON or Shapefile, and their vulnerability.',
  Hazards: 'Sea level rise scenarios (NOAA 2022), flood analysis and historical flood events.',
  Grants: 'Resilient Florida grant eligibility, cost share, project ranking and program deadlines.',
  Compliance: 'Checks against the statute, the DEP checklist and the GIS data standards.',
  Account: 'Usage of the calling API key.',
  Webhooks: 'Subscriptions to `assessment_complete` and `deadline_reminder` events, signed per Standard Webhooks.',
};

export const TIER_NAMES: Record<Tier, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };

export const TIER_ACCESS: Record<Tier, string> = {
  free: 'Routes marked `free` only; other routes answer 403 `subscription_required`.',
  pro: 'Every route.',
  enterprise: 'Every route, no hourly limit.',
};

export const ERROR_GUIDANCE: Record<ProblemCode, string> = {
  missing_api_key: 'The request carries no `X-API-Key` header. Send the key issued for your account.',
  invalid_api_key: 'The key is unknown, malformed or revoked.',
  subscription_required: 'The route needs a higher tier than the key\'s; `required_tier` and `current_tier` say which.',
  invalid_token: '/v1 routes: the `Authorization: Bearer` access token is missing, expired, tampered, of the wrong kind (an ID token) or from another issuer. Log in again or refresh it.',
  insufficient_scope: '/v1 routes: the signed-in user\'s role may not use this route.',
  invalid_credentials: 'Sign-in failed: the email and password do not match a confirmed user (the same answer whether or not the email is registered).',
  too_many_attempts: 'Too many sign-in attempts (password or reset code) for this email or from this address, or too many registrations from this address; wait the `Retry-After` seconds.',
  email_taken: 'A user with this email is already registered; log in instead.',
  email_undeliverable: '/v1 registration, new confirmation code, password reset: Cognito could not email the code to the address. A registration that failed so is not kept: check the address and register again.',
  weak_password: 'The password does not meet the policy: at least 12 characters with lower- and upper-case letters, a digit and a symbol.',
  rate_limit_exceeded: 'The key used up its requests for this clock hour; wait the `Retry-After` seconds.',
  malformed_body: 'The body is not valid JSON.',
  unsupported_media_type: 'The `Content-Type` is not the one the route accepts (`application/json` or `multipart/form-data`).',
  invalid_request: 'A parameter or body field is missing, of the wrong type, out of range or unknown; `errors` lists each one with `field`, `in` and `message`.',
  payload_too_large: 'The body exceeds the route\'s limit (`max_bytes`); large imports go through `POST /assets/imports`.',
  not_found: 'No such record, or it belongs to another account; also an unknown route.',
  conflict: 'The change is not allowed from the record\'s current state (for example an assessment moving backwards).',
  idempotency_key_reused: 'The `Idempotency-Key` was already used with a different body.',
  already_enrolled: '/v1 courses: the user already has an enrolment in this course (`enrollment_id` names it).',
  prerequisites_not_met: '/v1 courses: the course requires other courses to be completed first; `missing_prerequisites` lists their codes.',
  location_outside_florida: 'The point is not in a Florida county (nor within 5 km of one\'s shoreline), or the FIPS code is another state\'s.',
  no_evidence: 'The API holds no evidence to fill the methodology from: link an asset import (`assessment_id` on `POST /assets/import`) or a flood analysis (`assessment_id` on `POST /hazards/flood-analysis`) to the assessment first (`link_first` lists them).',
  cog_url_refused: '`POST /hazards/elevation-models` with `cog_url`: the URL is not https on port 443, carries credentials, or names or resolves to a private, loopback or reserved address.',
  cog_unreachable: '`cog_url`: the host does not resolve, or the server could not be reached or did not answer in time. Retry once it is up.',
  cog_no_ranges: '`cog_url`: the server does not answer byte-range requests with 206 Partial Content (or redirects): a COG is read by ranges where it is.',
  not_a_cog: '`cog_url`: the file is not a tiled single-band GeoTIFF with a geotransform (convert it with `gdal_translate -of COG`, or upload it instead).',
  unsupported_crs: '`cog_url`: the COG is not in geographic NAD83 (EPSG:4269) or WGS84 (EPSG:4326); upload it to have it reprojected.',
  cog_no_nodata: '`cog_url`: the COG declares no no-data value (GDAL_NODATA), so voids would read as ground.',
  cog_window_too_large: '`cog_url`: internal tiles over 1,048,576 cells, or a coarsest image over 4,096 cells a side (add overviews).',
  elevation_out_of_range: '`cog_url`: the values of its coarsest image lie outside −500…9,000 m (after the stated unit and datum), or it holds no value.',
  precondition_required: 'An update needs `If-Match` with the `ETag` of your last read of the record, so no change is lost.',
  internal_error: 'An unexpected error. Nothing internal is returned; quote `instance` when reporting it.',
  service_unavailable: 'A dependency is temporarily unavailable; retry with backoff.',
};

export function hourlyLimitText(tier: Tier): string {
  const limit = HOURLY_LIMITS[tier];
  return limit === null ? 'unlimited' : `${limit.toLocaleString('en-US')} per hour`;
}

/** `info.description` in Markdown, for tools that render it. */
export function apiDescription(): string {
  const tierRows = TIER_ORDER.map((tier) => `| ${TIER_NAMES[tier]} | ${hourlyLimitText(tier)} | ${TIER_ACCESS[tier]} |`);
  const errorRows = (Object.keys(PROBLEM_TYPES) as ProblemCode[])
    .map((code) => `| \`${code}\` | ${PROBLEM_TYPES[code].status} | ${ERROR_GUIDANCE[code]} |`);
  return [
    API_SUMMARY,
    '',
    FIRST_ASSESSMENT,
    '',
    '## Authentication',
    'Send your API key in the `X-API-Key` header. `GET /health`, `GET /openapi.json` and `GET /docs` need no key.',
    '',
    '## Tiers and limits',
    'Requests are counted per API key per clock hour (UTC). Every counted response carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds until the window resets; absent when unlimited); over the limit the answer is 429 with `Retry-After`.',
    '',
    '| Tier | Requests | Access |',
    '|---|---|---|',
    ...tierRows,
    '',
    '## Errors',
    'Errors are RFC 9457 `application/problem+json` with `type`, `title`, `status`, `detail`, `instance` (the request id) and a stable `code`:',
    '',
    '| code | status | meaning |',
    '|---|---|---|',
    ...errorRows,
    '',
    '## Conventions',
    'JSON field names are snake_case. Lists page with `limit` and an opaque `cursor`, answering `{data, next_cursor}` (the resource library keeps `limit`/`offset`). Creates honour `Idempotency-Key`; updates need `If-Match` with the record\'s `ETag`.',
    '',
    '## Size limits',
    'A JSON body is at most 1 MiB (1,048,576 bytes), less where a route says so; `POST /assets/import` and `POST /compliance/gis-validation` take multipart uploads up to 4 MiB (4,194,304 bytes). A larger body answers 413 `payload_too_large` with `max_bytes`. Files above 4 MiB go through `POST /assets/imports` (a presigned upload).',
  ].join('\n');
}

/** The walk-through at the top of the reference; each step is an operation below with its example. */
const FIRST_ASSESSMENT = [
  '## First assessment, end to end',
  'Click **Authorize**, paste your `X-API-Key`, then open an operation, **Try it out** and **Execute**:',
  '',
  '1. `GET /compliance/checklist` — the 14 checklist items (A–N) of s. 380.093 your assessment will be checked against.',
  '2. `POST /assessments` with your jurisdiction, type, scope and timeline — note the `assessment_id` and the `ETag` (version `"1"`).',
  '3. `POST /assets/import` with your critical-asset spreadsheet (CSV, Excel, GeoJSON or zipped Shapefile, up to 4 MiB; larger through `POST /assets/imports`) — every asset is classified into the statute\'s asset types.',
  '4. `GET /hazards/slr-scenarios` and `POST /hazards/flood-analysis` over your boundary — the NOAA 2022 scenarios and the four flood components at the statute\'s planning horizons.',
  '5. `PUT /assets/{asset_id}/vulnerability` for the exposed assets, with `If-Match` from the listing.',
  '6. `PATCH /assessments/{assessment_id}` with `If-Match` as work progresses (phase, completion, methodology); the answer re-checks the checklist each time.',
  '7. At `final_report` and 100 % the assessment is `complete`; `POST /assessments/{assessment_id}/submit` records the certified submission when every item passes.',
].join('\n');

export const API_SUMMARY = 'Compliance support for vulnerability assessments under Florida Statutes s. 380.093 (Resilient Florida): the resource library, assessments and their DEP checklist, critical assets, sea level rise and flood hazards, grant eligibility and deadlines, and webhooks.';
