/**
 * A day of the statewide deployment (67 counties, 413 municipalities, 2,000 Free keys, 100,000
 * `/v1` users), scaled down by ratio and compressed in time, replayed against the local stack on
 * loopback. The use per customer is the cost table's in docs/scale.md (per month: Free 2,000
 * requests; Pro 50,000 requests, 40 analyses of which 10 apply exposure, 5 packages, 2 imports of
 * 5,000 rows; Enterprise 500,000 requests, 300 analyses of which 30 apply exposure, 30 packages, 4
 * imports of 20,000 rows; a `/v1` user 300 requests), a month being 30 days.
 *
 * Scaling (each printed with the figures):
 * - Requests: the statewide day's requests of each tier divided by BENCH_REQUEST_RATIO (default
 *   4,000). Free keys and `/v1` users are sampled by the same ratio, so each carries its own whole day.
 * - Jobs: counties and municipalities sampled by BENCH_JOB_RATIO (default 200); each carries its
 *   whole day of analyses, packages and imports (expected counts rounded, at least one of each kind
 *   so every kind runs) and its share of its tier's scaled requests.
 * - Inventory: a county's 75,000 assets and a municipality's 5,000, and the rows of the day's
 *   imports, divided by BENCH_INVENTORY_RATIO (default 100), imported through the API first.
 * - Time: the day (86,400 s) replayed in BENCH_DAY_SECONDS (default 300) or longer, paced to the
 *   stack's capacity as measured before the day (the API-key mix, 4 at a time, for 20 s): the
 *   busiest hour is offered at most half of it, the rest being the jobs' and their polls'; a day
 *   longer than BENCH_MAX_DAY_SECONDS (default 1,800) stops the run. Open loop: each request
 *   leaves at its scheduled moment whatever the answers before it (at most BENCH_MAX_IN_FLIGHT in
 *   flight), 80 % of the API-key requests and jobs in the Florida working day (8:00–18:00 EST,
 *   13:00–23:00 UTC) and the rest spread over the other hours; `/v1` requests uniform over the day.
 *   The deadline reminder runs at its schedule, 13:00 UTC.
 * The local stack (emulators, gateway, handlers, job workers) runs in a process of its own
 * (`lib/emulator-host.ts`); its peak RSS and CPU time are read from /proc. The load generator and
 * the deadline reminder (a Lambda of its own in AWS) run in this process. The simulated day is the
 * next date on which deadline reminders are due, so the reminder walks every account.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoAccountStore } from '../shared/adapters/account-store';
import { dynamo, resetAwsClients } from '../shared/adapters/aws-clients';
import { resetConfigForTests } from '../shared/config';
import { floridaDate } from '../shared/domain/florida-time';
import { remindersDueOn } from '../shared/domain/webhooks/deadline-reminders';
import { openAccountWithKey } from '../shared/domain/api-keys';
import { REGISTRATIONS_PER_ADDRESS } from '../shared/domain/identity/attempts';
import type { Tier } from '../shared/domain/tiers';
import { percentile } from './lib/load';
import { startHost } from './lib/host-process';
import { seededRandom } from '../test/helpers/synthetic-assets';

const REQUEST_RATIO = Number(process.env.BENCH_REQUEST_RATIO ?? 4000);
const JOB_RATIO = Number(process.env.BENCH_JOB_RATIO ?? 200);
const INVENTORY_RATIO = Number(process.env.BENCH_INVENTORY_RATIO ?? 100);
const MIN_DAY_SECONDS = Number(process.env.BENCH_DAY_SECONDS ?? 300);
/** Past this, the machine is too busy for the day to be replayed at all: the run stops and says so. */
const MAX_DAY_SECONDS = Number(process.env.BENCH_MAX_DAY_SECONDS ?? 1800);
const MAX_IN_FLIGHT = Number(process.env.BENCH_MAX_IN_FLIGHT ?? 32);
const POLL_MS = 500;
const JOB_TIMEOUT_MS = 20 * 60_000;
const SETTLE_MS = 8000;
/** The capacity measurement before the day: the requests of the mix, this many at a time, for this long. */
const CALIBRATION = { concurrency: 4, ms: 20_000 };
/** The share of the measured capacity the busiest hour's requests may take (jobs and their polls run beside them). */
const TARGET_UTILISATION = 0.5;
const DAY_MS = 86_400_000;
const DAYS_PER_MONTH = 30;

/** The statewide deployment docs/scale.md prices. */
const STATEWIDE = { enterprise: 67, pro: 413, free: 2000, v1: 100_000 } as const;

/** Use per customer per month: the cost table of docs/scale.md. */
const MONTHLY = {
  enterprise: { requests: 500_000, analyses: 300, exposure: 30, packages: 30, imports: 4, importRows: 20_000, inventory: 75_000 },
  pro: { requests: 50_000, analyses: 40, exposure: 10, packages: 5, imports: 2, importRows: 5_000, inventory: 5_000 },
  free: { requests: 2_000 },
  v1: { requests: 300 },
} as const;

/** Business hours, Eastern Standard Time, in UTC: where 80 % of the API-key traffic falls. */
const WORKING_HOURS_UTC = { from: 13, to: 23, share: 0.8 };
const REMINDER_HOUR_UTC = 13;

/** A square of Key West (the bundled surface model covers it): a municipality's study area, answered at once. */
const CITY_BOX = [[-81.81, 24.54], [-81.75, 24.54], [-81.75, 24.58], [-81.81, 24.58], [-81.81, 24.54]];
/** A stretch of the Lower Keys, 0.2° × 0.1°: a county's study area, past the immediate budget, run as a job. */
const COUNTY_BOX = [[-81.8, 24.55], [-81.6, 24.55], [-81.6, 24.65], [-81.8, 24.65], [-81.8, 24.55]];
/** Where generated assets lie: the city square, so every analysis reaches them. */
const ASSET_AREA = { lat: 24.548, lon: -81.805, dLat: 0.012, dLon: 0.04 };
const ASSET_TYPES = ['Lift Station', 'Fire Station', 'Elementary School', 'Water Treatment Plant', 'Bridge', 'Community Center', 'Electric Substation', 'GENERAL ACUTE CARE'];

// A seeded generator: the same schedule every run.
const random = seededRandom(20_260_701);

interface KeyAccount { tier: Tier; key: string; jurisdiction: string; assessmentId?: string }
interface V1User { token: string }

interface Call {
  group: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  form?: FormData;
}

interface Answer { status: number; body: Record<string, unknown>; headers: Headers }

// ---- What happened, by route group and job kind.

const latencies = new Map<string, number[]>();
const statuses = new Map<string, Map<string, number>>();
interface JobFigures { started: number; completed: number; failed: number; lost: number; queueWaitMs: number[]; runMs: number[]; totalMs: number[] }
const jobs = new Map<string, JobFigures>();
const lagMs: number[] = [];

function jobFigures(kind: string): JobFigures {
  let figures = jobs.get(kind);
  if (!figures) jobs.set(kind, figures = { started: 0, completed: 0, failed: 0, lost: 0, queueWaitMs: [], runMs: [], totalMs: [] });
  return figures;
}

function countStatus(group: string, outcome: string): void {
  const byOutcome = statuses.get(group) ?? new Map<string, number>();
  statuses.set(group, byOutcome);
  byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
}

let baseUrl = '';

/** Sends one call and records its latency and status (with the problem's `code` when it failed). */
async function send(call: Call): Promise<Answer> {
  const started = performance.now();
  let answer: Answer;
  try {
    const response = await fetch(`${baseUrl}${call.path}`, {
      method: call.method,
      headers: call.body === undefined ? call.headers : { ...call.headers, 'content-type': 'application/json' },
      body: call.form ?? (call.body === undefined ? undefined : JSON.stringify(call.body)),
    });
    const text = await response.text();
    answer = { status: response.status, body: text.startsWith('{') ? JSON.parse(text) as Record<string, unknown> : {}, headers: response.headers };
  } catch (error) {
    answer = { status: 0, body: { code: (error as Error).message }, headers: new Headers() };
  }
  const list = latencies.get(call.group) ?? [];
  latencies.set(call.group, list);
  list.push(performance.now() - started);
  countStatus(call.group, answer.status >= 400 || answer.status === 0 ? `${answer.status} ${String(answer.body.code ?? '')}`.trim() : String(answer.status));
  return answer;
}

async function sendOk(call: Call): Promise<Answer> {
  const answer = await send(call);
  if (answer.status >= 300) throw new Error(`${call.method} ${call.path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls a job's URL until it ends, as a client does: the time from its acceptance to the first
 * poll that saw it running is its queue wait, from there to the poll that saw it end its run time
 * (both to within the poll interval); a job seen only queued and then ended counts in the total alone.
 */
async function followJob(kind: string, path: string, headers: Record<string, string>, accepted: number, states: { running: string; done: string; failed: string }): Promise<void> {
  const figures = jobFigures(kind);
  figures.started += 1;
  let runningSince: number | undefined;
  while (performance.now() - accepted < JOB_TIMEOUT_MS) {
    await sleep(POLL_MS);
    const { body } = await send({ group: 'job polls', method: 'GET', path, headers });
    const now = performance.now();
    if (body.status === states.running && runningSince === undefined) {
      runningSince = now;
      figures.queueWaitMs.push(now - accepted);
    }
    if (body.status === states.done || body.status === states.failed) {
      if (body.status === states.done) figures.completed += 1;
      else figures.failed += 1;
      if (runningSince !== undefined) figures.runMs.push(now - runningSince);
      figures.totalMs.push(now - accepted);
      return;
    }
  }
  figures.lost += 1;
}

// ---- Provisioning, through the API where a customer would use it.

function inventoryCsv(rows: number, prefix: string): string {
  const lines = ['facility_id,name,type,latitude,longitude'];
  for (let i = 0; i < rows; i++) {
    const lat = ASSET_AREA.lat + random() * ASSET_AREA.dLat;
    const lon = ASSET_AREA.lon + random() * ASSET_AREA.dLon;
    lines.push(`${prefix}-${i},Facility ${prefix} ${i},${ASSET_TYPES[i % ASSET_TYPES.length]},${lat.toFixed(6)},${lon.toFixed(6)}`);
  }
  return lines.join('\n') + '\n';
}

/** An inline import of the account's inventory (POST /assets/import). */
async function importInventory(account: KeyAccount, rows: number, prefix: string): Promise<void> {
  const form = new FormData();
  form.set('file', new Blob([inventoryCsv(rows, prefix)], { type: 'text/csv' }), `${prefix}.csv`);
  form.set('jurisdiction', account.jurisdiction);
  form.set('outside_jurisdiction', 'accept');
  const answer = await sendOk({ group: 'provisioning', method: 'POST', path: '/assets/import', headers: { 'X-API-Key': account.key, 'Idempotency-Key': randomUUID() }, form });
  if (answer.status === 202) {
    const location = answer.headers.get('location')!.slice(baseUrl.length);
    await followJob('asset import (provisioning)', location, { 'X-API-Key': account.key }, performance.now(), { running: 'processing', done: 'complete', failed: 'failed' });
  }
}

async function openKeyAccount(tier: Tier, name: string, jurisdiction: string, now: Date): Promise<KeyAccount> {
  const { key } = await openAccountWithKey(new DynamoAccountStore(), name, tier, now);
  const account: KeyAccount = { tier, key, jurisdiction };
  if (tier !== 'free') {
    const created = await sendOk({
      group: 'provisioning', method: 'POST', path: '/assessments', headers: { 'X-API-Key': key, 'Idempotency-Key': randomUUID() },
      body: { jurisdiction, type: 'initial', scope: 'full_jurisdiction', timeline: { start_date: '2025-01-15', target_completion_date: '2026-06-30' } },
    });
    account.assessmentId = String(created.body.assessment_id);
  }
  return account;
}

/** A JSON POST from a loopback address of its own (127.0.0.0/8 is all loopback): residents sign up from many addresses. */
function postFrom(localAddress: string, path: string, body: object): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if ((res.statusCode ?? 0) >= 300) reject(new Error(`POST ${path} answered ${res.statusCode}: ${text}`));
        else resolve(JSON.parse(text) as Record<string, unknown>);
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function registerUser(index: number): Promise<V1User> {
  const email = `resident.${index}@example.org`;
  const password = 'Keys-Sea-Level-2026!';
  const address = `127.0.${Math.floor(index / REGISTRATIONS_PER_ADDRESS.limit / 250)}.${10 + (Math.floor(index / REGISTRATIONS_PER_ADDRESS.limit) % 250)}`;
  await postFrom(address, '/v1/users/register', { email, password, name: `Resident ${index}`, role: 'resident' });
  const login = await postFrom(address, '/v1/users/login', { email, password });
  return { token: String(login.access_token) };
}

/** Runs `task` over `items` with at most `limit` at once. */
async function inParallel<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  }));
  return results;
}

// ---- The day's mix.

/** An API-key read, by share of a Pro or Enterprise key's requests (assumed; stated in the output). */
const KEY_READS: Array<{ share: number; group: string; call: (account: KeyAccount) => Omit<Call, 'group' | 'headers'> }> = [
  { share: 0.25, group: 'library', call: () => ({ method: 'GET', path: '/resources?action=search&q=sea%20level%20rise%20technical%20report&limit=5' }) },
  { share: 0.25, group: 'assets', call: (a) => ({ method: 'GET', path: `/assets?jurisdiction=${encodeURIComponent(a.jurisdiction)}&limit=50` }) },
  { share: 0.15, group: 'slr-impact', call: () => ({ method: 'POST', path: '/hazards/slr-impact', body: { lat: 24.55 + random() * 0.02, lon: -81.8 + random() * 0.04, scenario: 'intermediate', planning_horizon: 2070, allow_surface_model: true } }) },
  { share: 0.1, group: 'hazard GETs', call: () => ({ method: 'GET', path: '/hazards/slr-scenarios?gauge_id=8724580&time_horizon=2050&scenario=intermediate' }) },
  { share: 0.1, group: 'hazard GETs', call: () => ({ method: 'GET', path: '/hazards/flood-events?location=Key%20West&date_range=2017-01-01..2024-12-31&radius_km=50&limit=2' }) },
  { share: 0.1, group: 'assessments', call: () => ({ method: 'GET', path: '/assessments?limit=10' }) },
  { share: 0.05, group: 'grants, compliance', call: () => ({ method: 'GET', path: random() < 0.5 ? '/grants/deadlines' : '/compliance/checklist' }) },
];
/** A Free key's reads: the routes its tier may call. */
const FREE_READS: typeof KEY_READS = [
  { share: 0.4, group: 'library', call: () => ({ method: 'GET', path: '/resources?action=search&q=sea%20level%20rise%20technical%20report&limit=5' }) },
  { share: 0.2, group: 'hazard GETs', call: () => ({ method: 'GET', path: '/hazards/slr-scenarios?gauge_id=8724580&time_horizon=2050&scenario=intermediate' }) },
  { share: 0.2, group: 'hazard GETs', call: () => ({ method: 'GET', path: '/hazards/flood-events?location=Key%20West&date_range=2017-01-01..2024-12-31&radius_km=50&limit=2' }) },
  { share: 0.2, group: 'grants, compliance', call: () => ({ method: 'GET', path: random() < 0.5 ? '/grants/deadlines' : '/compliance/checklist' }) },
];
/** A resident's reads (the training catalogue needs a professional's scope). */
const V1_READS: Array<{ share: number; path: string }> = [
  { share: 0.45, path: '/v1/users/profile' },
  { share: 0.2, path: '/v1/hazards/location?lat=24.5551&lon=-81.78' },
  { share: 0.2, path: '/v1/risks/calculate?lat=24.5551&lon=-81.78&hazards=HRCN,CFLD' },
  { share: 0.15, path: '/v1/supplies/generate?adults=2&children=1&pets=1&hazard=hurricane' },
];

function pick<T extends { share: number }>(options: T[]): T {
  let r = random() * options.reduce((sum, o) => sum + o.share, 0);
  for (const option of options) {
    r -= option.share;
    if (r < 0) return option;
  }
  return options[options.length - 1]!;
}

/** A moment of the day (ms since midnight UTC): working hours weighted, or uniform. */
function momentOfDay(working: boolean): number {
  if (!working) return random() * DAY_MS;
  const inHours = random() < WORKING_HOURS_UTC.share;
  const span = WORKING_HOURS_UTC.to - WORKING_HOURS_UTC.from;
  const hour = inHours ? WORKING_HOURS_UTC.from + random() * span : (WORKING_HOURS_UTC.to + random() * (24 - span)) % 24;
  return hour * 3_600_000;
}

interface Event { at: number; kind: string; run: () => Promise<void> }

function readEvent(account: KeyAccount, reads: typeof KEY_READS): Event {
  const read = pick(reads);
  return { at: momentOfDay(true), kind: 'request', run: async () => { await send({ ...read.call(account), group: read.group, headers: { 'X-API-Key': account.key } }); } };
}

function v1Event(user: V1User): Event {
  const read = pick(V1_READS);
  return { at: momentOfDay(false), kind: 'request', run: async () => { await send({ group: '/v1 (bearer)', method: 'GET', path: read.path, headers: { Authorization: `Bearer ${user.token}` } }); } };
}

function analysisEvent(account: KeyAccount, exposure: boolean): Event {
  const box = account.tier === 'enterprise' ? COUNTY_BOX : CITY_BOX;
  const kind = `flood analysis${exposure ? ' with apply_to_assets' : ''}`;
  return {
    at: momentOfDay(true), kind, run: async () => {
      const headers = { 'X-API-Key': account.key };
      const answer = await send({
        group: 'flood-analysis', method: 'POST', path: '/hazards/flood-analysis', headers,
        body: {
          boundary_geojson: { type: 'Polygon', coordinates: [box] }, components: ['tidal'], scenarios: ['intermediate_low', 'intermediate'],
          planning_horizons: [2046, 2076], allow_surface_model: true, ...(exposure ? { apply_to_assets: true, assessment_id: account.assessmentId } : {}),
        },
      });
      if (answer.status === 200) countStatus('flood analyses answered', `${kind}: at once`);
      if (answer.status === 202) {
        countStatus('flood analyses answered', `${kind}: as a job`);
        await followJob(kind, `/hazards/jobs/${String(answer.body.job_id)}`, headers, performance.now(), { running: 'running', done: 'succeeded', failed: 'failed' });
      }
    },
  };
}

function packageEvent(account: KeyAccount): Event {
  return {
    at: momentOfDay(true), kind: 'deliverable package', run: async () => {
      const headers = { 'X-API-Key': account.key };
      const answer = await send({ group: 'deliverables', method: 'POST', path: `/assessments/${account.assessmentId}/deliverables`, headers: { ...headers, 'Idempotency-Key': randomUUID() } });
      if (answer.status !== 202) return;
      await followJob('deliverable package', answer.headers.get('location')!.slice(baseUrl.length), headers, performance.now(), { running: 'running', done: 'succeeded', failed: 'failed' });
    },
  };
}

/** A day's import through the upload path (POST /assets/imports, PUT to the presigned URL), run by the import worker. */
function importEvent(account: KeyAccount, rows: number, prefix: string): Event {
  return {
    at: momentOfDay(true), kind: 'asset import', run: async () => {
      const headers = { 'X-API-Key': account.key };
      const started = await send({ group: 'imports', method: 'POST', path: '/assets/imports', headers: { ...headers, 'Idempotency-Key': randomUUID() }, body: { filename: `${prefix}.csv`, jurisdiction: account.jurisdiction, outside_jurisdiction: 'accept' } });
      if (started.status !== 201) return;
      const upload = await fetch(String(started.body.upload_url), { method: 'PUT', body: inventoryCsv(rows, prefix) });
      countStatus('imports (upload PUT)', String(upload.status));
      await followJob('asset import', `/assets/imports/${String(started.body.import_id)}`, headers, performance.now(), { running: 'processing', done: 'complete', failed: 'failed' });
    },
  };
}

let reminderFigures: { ms: number; accounts: number; due: number; messages: number } | undefined;

function reminderEvent(day: Date): Event {
  return {
    at: REMINDER_HOUR_UTC * 3_600_000, kind: 'deadline reminder', run: async () => {
      const started = performance.now();
      const { handler } = await import('../functions/deadline-reminder/handler');
      const run = await handler({ time: day.toISOString() });
      reminderFigures = { ms: performance.now() - started, accounts: run.accounts, due: run.due.length, messages: run.messages };
    },
  };
}

/** 13:00 UTC of the next Florida date on which deadline reminders are due. */
function reminderDay(): Date {
  const day = new Date();
  day.setUTCHours(REMINDER_HOUR_UTC, 0, 0, 0);
  while (remindersDueOn(floridaDate(day)).length === 0) day.setUTCDate(day.getUTCDate() + 1);
  return day;
}

interface Capacity { perSecond: number; requests: number; seconds: number }

/**
 * The stack's capacity for the day's requests on this machine, now: the API-key mix of one county,
 * CALIBRATION.concurrency at a time (closed loop) for CALIBRATION.ms, after one request of each
 * read. Its answers are counted in a group of their own.
 */
async function measureCapacity(account: KeyAccount): Promise<Capacity> {
  // Each route once first: a function's first request loads its code, which is not its capacity.
  for (const read of KEY_READS) await send({ ...read.call(account), group: 'capacity measurement (before the day)', headers: { 'X-API-Key': account.key } });
  const started = performance.now();
  let requests = 0;
  await Promise.all(Array.from({ length: CALIBRATION.concurrency }, async () => {
    while (performance.now() - started < CALIBRATION.ms) {
      const read = pick(KEY_READS);
      await send({ ...read.call(account), group: 'capacity measurement (before the day)', headers: { 'X-API-Key': account.key } });
      requests += 1;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: requests / seconds, requests, seconds };
}

/** Peak RSS (bytes) and CPU seconds so far of a process of this machine. */
function processFigures(pid: number): { peakRss: number; cpuSeconds: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // utime and stime are the 12th and 13th fields after the parenthesised command name.
  const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number) as [number, number];
  const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  return { peakRss: Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024, cpuSeconds: (utime + stime) / ticks };
}

const BUSY_OUTCOME = '503 service_unavailable';

/** Expected count, rounded, at least one (so every kind runs). */
const atLeastOne = (expected: number) => Math.max(1, Math.round(expected));

interface Plan { label: string; expectedStatewide: number; simulated: number; ratio: number }

async function main(): Promise<void> {
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const host = await startHost('emulator-host.ts');
  Object.assign(process.env, host.env);
  resetConfigForTests();
  resetAwsClients();
  baseUrl = host.env.BENCH_BASE_URL!;
  try {
    await sleep(SETTLE_MS);
    const now = new Date();
    const counties = atLeastOne(STATEWIDE.enterprise / JOB_RATIO);
    const municipalities = atLeastOne(STATEWIDE.pro / JOB_RATIO);
    const freeKeys = atLeastOne(STATEWIDE.free / REQUEST_RATIO);
    const v1Users = atLeastOne(STATEWIDE.v1 / REQUEST_RATIO);
    const countyRatio = STATEWIDE.enterprise / counties;
    const municipalRatio = STATEWIDE.pro / municipalities;

    // Provisioning.
    const provisionStarted = performance.now();
    const enterprise = await inParallel(Array.from({ length: counties }, (_, i) => i), 4, (i) => openKeyAccount('enterprise', `County ${i + 1} (Enterprise)`, 'Monroe County', now));
    const pro = await inParallel(Array.from({ length: municipalities }, (_, i) => i), 4, (i) => openKeyAccount('pro', `Municipality ${i + 1} (Pro)`, 'City of Key West', now));
    const free = await inParallel(Array.from({ length: freeKeys }, (_, i) => i), 4, (i) => openKeyAccount('free', `Free key ${i + 1}`, 'City of Key West', now));
    const countyInventory = Math.round(MONTHLY.enterprise.inventory / INVENTORY_RATIO);
    const municipalInventory = Math.round(MONTHLY.pro.inventory / INVENTORY_RATIO);
    await inParallel(enterprise, 2, (a, i) => importInventory(a, countyInventory, `C${i}`));
    await inParallel(pro, 2, (a, i) => importInventory(a, municipalInventory, `M${i}`));
    const users = await inParallel(Array.from({ length: v1Users }, (_, i) => i), 4, (i) => registerUser(i));
    const provisionSeconds = (performance.now() - provisionStarted) / 1000;
    // Provisioning's own requests are not the day's.
    latencies.clear();
    statuses.clear();

    // The day's plan: per account per day, from the monthly figures.
    const perDay = (monthly: number) => monthly / DAYS_PER_MONTH;
    const events: Event[] = [];
    const plans: Plan[] = [];
    const requestPlan = (label: string, statewidePerDay: number, make: (i: number) => Event) => {
      const simulated = Math.round(statewidePerDay / REQUEST_RATIO);
      for (let i = 0; i < simulated; i++) events.push(make(i));
      plans.push({ label, expectedStatewide: statewidePerDay, simulated, ratio: REQUEST_RATIO });
    };
    // A tier's requests spread evenly over its accounts.
    requestPlan('Enterprise API-key requests', STATEWIDE.enterprise * perDay(MONTHLY.enterprise.requests), (i) => readEvent(enterprise[i % enterprise.length]!, KEY_READS));
    requestPlan('Pro API-key requests', STATEWIDE.pro * perDay(MONTHLY.pro.requests), (i) => readEvent(pro[i % pro.length]!, KEY_READS));
    requestPlan('Free API-key requests', STATEWIDE.free * perDay(MONTHLY.free.requests), (i) => readEvent(free[i % free.length]!, FREE_READS));
    requestPlan('/v1 bearer requests', STATEWIDE.v1 * perDay(MONTHLY.v1.requests), (i) => v1Event(users[i % users.length]!));
    const [enterpriseReads, proReads, freeReads, v1Requests] = plans.map((plan) => plan.simulated) as [number, number, number, number];

    const jobPlan = (label: string, tierAccounts: KeyAccount[], ratio: number, monthlyPerAccount: number, make: (account: KeyAccount, i: number) => Event) => {
      const simulated = atLeastOne(tierAccounts.length * perDay(monthlyPerAccount));
      for (let i = 0; i < simulated; i++) events.push(make(tierAccounts[i % tierAccounts.length]!, i));
      plans.push({ label, expectedStatewide: tierAccounts.length * ratio * perDay(monthlyPerAccount), simulated, ratio });
    };
    const importRows = { enterprise: Math.round(MONTHLY.enterprise.importRows / INVENTORY_RATIO), pro: Math.round(MONTHLY.pro.importRows / INVENTORY_RATIO) };
    jobPlan('Enterprise analyses without exposure', enterprise, countyRatio, MONTHLY.enterprise.analyses - MONTHLY.enterprise.exposure, (a) => analysisEvent(a, false));
    jobPlan('Enterprise analyses with apply_to_assets', enterprise, countyRatio, MONTHLY.enterprise.exposure, (a) => analysisEvent(a, true));
    jobPlan('Enterprise deliverable packages', enterprise, countyRatio, MONTHLY.enterprise.packages, (a) => packageEvent(a));
    jobPlan(`Enterprise imports (${importRows.enterprise} rows)`, enterprise, countyRatio, MONTHLY.enterprise.imports, (a, i) => importEvent(a, importRows.enterprise, `DC${i}`));
    jobPlan('Pro analyses without exposure', pro, municipalRatio, MONTHLY.pro.analyses - MONTHLY.pro.exposure, (a) => analysisEvent(a, false));
    jobPlan('Pro analyses with apply_to_assets', pro, municipalRatio, MONTHLY.pro.exposure, (a) => analysisEvent(a, true));
    jobPlan('Pro deliverable packages', pro, municipalRatio, MONTHLY.pro.packages, (a) => packageEvent(a));
    jobPlan(`Pro imports (${importRows.pro} rows)`, pro, municipalRatio, MONTHLY.pro.imports, (a, i) => importEvent(a, importRows.pro, `DM${i}`));
    events.push(reminderEvent(reminderDay()));
    events.sort((a, b) => a.at - b.at);

    // The day, compressed to what the stack can answer: its busiest hour at TARGET_UTILISATION of its capacity.
    const capacity = await measureCapacity(enterprise[0]!);
    const keyRequests = enterpriseReads + proReads + freeReads;
    const busiestShare = { key: WORKING_HOURS_UTC.share / (WORKING_HOURS_UTC.to - WORKING_HOURS_UTC.from), v1: 1 / 24 };
    const busiestHourRequests = keyRequests * busiestShare.key + v1Requests * busiestShare.v1;
    const daySeconds = Math.max(MIN_DAY_SECONDS, Math.ceil((busiestHourRequests * 24) / (capacity.perSecond * TARGET_UTILISATION)));
    if (daySeconds > MAX_DAY_SECONDS) {
      throw new Error(`The stack answers ${capacity.perSecond.toFixed(2)} requests/s on this machine now: the day would need ${daySeconds} s (over BENCH_MAX_DAY_SECONDS, ${MAX_DAY_SECONDS}). Run it on a quieter machine.`);
    }
    console.error(`Capacity ${capacity.perSecond.toFixed(2)} requests/s: the day in ${daySeconds} s.`);
    const compression = DAY_MS / (daySeconds * 1000);
    const stackBefore = processFigures(host.pid);
    const cpuBefore = process.cpuUsage();
    const dayStarted = performance.now();
    const pending = new Set<Promise<void>>();
    let inFlightRequests = 0;
    for (const event of events) {
      const due = dayStarted + event.at / compression;
      if (due > performance.now()) await sleep(due - performance.now());
      while (event.kind === 'request' && inFlightRequests >= MAX_IN_FLIGHT) await Promise.race(pending);
      lagMs.push(performance.now() - due);
      if (event.kind === 'request') inFlightRequests += 1;
      const running: Promise<void> = event.run()
        .catch((error: unknown) => countStatus('client errors', (error as Error).message))
        .finally(() => {
          if (event.kind === 'request') inFlightRequests -= 1;
          pending.delete(running);
        });
      pending.add(running);
    }
    const replayedSeconds = (performance.now() - dayStarted) / 1000;
    await Promise.all(pending);
    const endedSeconds = (performance.now() - dayStarted) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const stack = processFigures(host.pid);

    report({
      counties, municipalities, freeKeys, v1Users, countyRatio, municipalRatio, countyInventory, municipalInventory, provisionSeconds,
      capacity, scheduledSeconds: daySeconds, busiestPerSecond: (busiestHourRequests * 24) / daySeconds,
      compression, replayedSeconds, daySeconds: endedSeconds, loadCpuSeconds: (cpu.user + cpu.system) / 1e6, stackCpuSeconds: stack.cpuSeconds - stackBefore.cpuSeconds,
      stackPeakRss: stack.peakRss, loadPeakRss: process.resourceUsage().maxRSS * 1024, plans, items: await itemCounts(),
    });
  } finally {
    await host.stop();
  }
}

/** Items in the table by entity: the key prefix, and for an account's items the sort-key prefix. */
async function itemCounts(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(new ScanCommand({ TableName: process.env.TABLE_NAME, ProjectionExpression: 'pk, sk', ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      const pk = String(item.pk).split('#')[0]!;
      const entity = pk === 'ACCOUNT' ? `ACCOUNT# / ${String(item.sk).split('#')[0]}` : `${pk}#`;
      counts.set(entity, (counts.get(entity) ?? 0) + 1);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return counts;
}

interface Run {
  counties: number; municipalities: number; freeKeys: number; v1Users: number; countyRatio: number; municipalRatio: number;
  countyInventory: number; municipalInventory: number; provisionSeconds: number; compression: number; replayedSeconds: number;
  capacity: Capacity; scheduledSeconds: number; busiestPerSecond: number;
  daySeconds: number; stackCpuSeconds: number; loadCpuSeconds: number; stackPeakRss: number; loadPeakRss: number; plans: Plan[]; items: Map<string, number>;
}

const n = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (values: number[], p: number) => (values.length === 0 ? '—' : n(percentile([...values].sort((a, b) => a - b), p)));
const row = (cells: Array<string | number>) => console.log(`| ${cells.join(' | ')} |`);
const header = (cells: string[]) => {
  row(cells);
  row(cells.map(() => '---'));
};

function report(run: Run): void {
  const allRequests = [...latencies.values()].reduce((sum, list) => sum + list.length, 0);
  const outcomes = [...statuses.values()].flatMap((m) => [...m.entries()]);
  const count = (matches: (outcome: string) => boolean) => outcomes.filter(([outcome]) => matches(outcome)).reduce((sum, [, c]) => sum + c, 0);
  // A 503 `service_unavailable` (with Retry-After) says the stack was too busy to answer in time: a refusal to retry, counted apart.
  const busy = count((outcome) => outcome === BUSY_OUTCOME);
  const serverErrors = count((outcome) => /^(5\d\d|0)\b/.test(outcome) && outcome !== BUSY_OUTCOME);
  console.log('## Scale and assumptions\n');
  console.log(`- Statewide: ${STATEWIDE.enterprise} Enterprise counties, ${STATEWIDE.pro} Pro municipalities, ${n(STATEWIDE.free)} Free keys, ${n(STATEWIDE.v1)} \`/v1\` users; a month is ${DAYS_PER_MONTH} days.`);
  console.log(`- Use per customer per month (docs/scale.md's cost table): Free ${n(MONTHLY.free.requests)} requests; Pro ${n(MONTHLY.pro.requests)} requests, ${MONTHLY.pro.analyses} analyses (${MONTHLY.pro.exposure} with apply_to_assets), ${MONTHLY.pro.packages} packages, ${MONTHLY.pro.imports} imports of ${n(MONTHLY.pro.importRows)} rows; Enterprise ${n(MONTHLY.enterprise.requests)} requests, ${MONTHLY.enterprise.analyses} analyses (${MONTHLY.enterprise.exposure} with apply_to_assets), ${MONTHLY.enterprise.packages} packages, ${MONTHLY.enterprise.imports} imports of ${n(MONTHLY.enterprise.importRows)} rows; \`/v1\` user ${MONTHLY.v1.requests} requests.`);
  console.log(`- Request ratio ${REQUEST_RATIO}: each tier's statewide requests of the day ÷ ${REQUEST_RATIO}; ${run.freeKeys} Free keys and ${n(run.v1Users)} \`/v1\` users (statewide ÷ ${REQUEST_RATIO}), each with its whole day.`);
  console.log(`- Job ratio ${JOB_RATIO}: ${run.counties} counties (1 for ${n(run.countyRatio, 1)}) and ${run.municipalities} municipalities (1 for ${n(run.municipalRatio, 1)}), each with its whole day of jobs (expected counts rounded, at least one per kind); the API-key requests of a tier spread evenly over its accounts.`);
  console.log(`- Inventory ratio ${INVENTORY_RATIO}: ${n(run.countyInventory)} assets per county, ${n(run.municipalInventory)} per municipality (imported inline through the API before the day, ${n(run.provisionSeconds, 0)} s with the accounts, assessments and users); all on a square of Key West, where every analysis reaches them.`);
  console.log(`- Capacity measured before the day: ${n(run.capacity.perSecond, 1)} requests/s (${run.capacity.requests} requests of the API-key mix, ${CALIBRATION.concurrency} at a time, in ${n(run.capacity.seconds, 1)} s); the day paced so its busiest hour offers ${n(run.busiestPerSecond, 2)} requests/s, at most ${TARGET_UTILISATION * 100} % of it (and the day at least ${MIN_DAY_SECONDS} s).`);
  console.log(`- Time: the day in ${n(run.scheduledSeconds)} s, compression ${n(run.compression)}; API-key traffic and jobs ${WORKING_HOURS_UTC.share * 100} % in ${WORKING_HOURS_UTC.from}:00–${WORKING_HOURS_UTC.to}:00 UTC, \`/v1\` uniform; open loop, at most ${MAX_IN_FLIGHT} requests in flight; jobs polled every ${POLL_MS} ms. Analyses: tidal, two scenarios, two horizons; counties over 0.2° × 0.1° of the Lower Keys, municipalities over 0.06° × 0.04° of Key West.`);
  console.log(`- Replay: the schedule took ${n(run.replayedSeconds, 1)} s (late starts p50 ${ms(lagMs, 0.5)} ms, p99 ${ms(lagMs, 0.99)} ms), the last job ended at ${n(run.daySeconds, 1)} s. The stack's process: CPU ${n(run.stackCpuSeconds, 1)} s over the day (${n(run.stackCpuSeconds / run.daySeconds, 2)} cores on average), peak RSS ${n(run.stackPeakRss / 2 ** 20)} MiB (its whole life, provisioning included). The load generator: CPU ${n(run.loadCpuSeconds, 1)} s, peak RSS ${n(run.loadPeakRss / 2 ** 20)} MiB.`);

  console.log('\n## Requests by route group\n');
  header(['group', 'requests', 'p50 ms', 'p95 ms', 'p99 ms', 'outcomes']);
  for (const [group, list] of [...latencies.entries()].sort()) {
    const outcomes = [...(statuses.get(group) ?? new Map<string, number>()).entries()].sort().map(([outcome, count]) => `${outcome}: ${n(count)}`).join(', ');
    row([group, n(list.length), ms(list, 0.5), ms(list, 0.95), ms(list, 0.99), outcomes]);
  }
  for (const [group, byOutcome] of [...statuses.entries()].filter(([group]) => !latencies.has(group)).sort()) {
    row([group, '', '', '', '', [...byOutcome.entries()].sort().map(([outcome, count]) => `${outcome}: ${n(count)}`).join(', ')]);
  }
  const refused = [...statuses.values()].flatMap((m) => [...m.entries()]).filter(([outcome]) => outcome.startsWith('429')).reduce((sum, [, c]) => sum + c, 0);
  console.log(`\nRequests ${n(allRequests)}; answers 500 (or other 5xx) or none: ${serverErrors}; 503 service_unavailable (busy, with Retry-After): ${n(busy)}; refused 429 (hourly quota or throttle): ${n(refused)}.`);

  console.log('\n## Jobs\n');
  header(['kind', 'started', 'completed', 'failed', 'unfinished', 'queue wait p50 / max ms', 'run p50 / max ms', 'accepted → ended p50 / max ms']);
  for (const [kind, f] of [...jobs.entries()].sort()) {
    row([kind, f.started, f.completed, f.failed, f.lost, `${ms(f.queueWaitMs, 0.5)} / ${ms(f.queueWaitMs, 1)}`, `${ms(f.runMs, 0.5)} / ${ms(f.runMs, 1)}`, `${ms(f.totalMs, 0.5)} / ${ms(f.totalMs, 1)}`]);
  }
  if (reminderFigures) {
    console.log(`\nDeadline reminder at ${REMINDER_HOUR_UTC}:00 UTC: ${n(reminderFigures.ms)} ms over ${n(reminderFigures.accounts)} accounts (${reminderFigures.due} deadlines due, fanned out in ${reminderFigures.messages} queue messages).`);
  }

  console.log('\n## DynamoDB items by entity (key prefix; an account\'s items by sort-key prefix)\n');
  header(['entity', 'items']);
  for (const [entity, count] of [...run.items.entries()].sort()) row([entity, n(count)]);

  console.log('\n## Statewide projection (simulated × ratio)\n');
  header(['what', 'simulated', 'ratio', 'projected statewide per day', 'assumed statewide per day']);
  for (const plan of run.plans) row([plan.label, n(plan.simulated), n(plan.ratio, 1), n(plan.simulated * plan.ratio), n(plan.expectedStatewide)]);
  const sampledAccounts = run.counties + run.municipalities + run.freeKeys + run.v1Users + 3;
  const statewideAccounts = STATEWIDE.enterprise + STATEWIDE.pro + STATEWIDE.free + STATEWIDE.v1;
  if (reminderFigures && reminderFigures.accounts > 0) {
    const perAccount = reminderFigures.ms / reminderFigures.accounts;
    row(['deadline reminder fan-out, ms', n(reminderFigures.ms), `${n(statewideAccounts)} ÷ ${n(reminderFigures.accounts)} accounts`, n(perAccount * statewideAccounts), '—']);
  }
  const items = [...run.items.values()].reduce((sum, c) => sum + c, 0);
  row(['DynamoDB items (all)', n(items), 'see below', '—', '—']);
  console.log(`\nThe reminder walk projects linearly in accounts (it reads them one page after another); the ${sampledAccounts} accounts of the run include the 3 demo accounts. Requests that were refused are projected with the rest; a Free key's whole day falls in one clock hour here (the hourly quota is not compressed), so ${MONTHLY.free.requests / DAYS_PER_MONTH > 25 ? 'its requests past 25 are refused, which spread over a real day they would not be' : 'none is refused'}.`);
  if (serverErrors > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
