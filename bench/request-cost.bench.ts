/**
 * What a request costs by the way it is authenticated and by its outcome, on the local stack:
 * a bearer-authenticated `/v1` GET against an API-key GET of similar work (the profile against
 * the usage report, which read the account's records; the course catalogue, which queries the
 * user's enrollments, against the grant deadlines, which read nothing), and refused requests (unknown key, forged token, a Free key past its hourly limit)
 * against served ones. Every target takes turns in each round (the order rotates), so a change in
 * the machine's load hits all alike; the figure per target is the median of its rounds, as
 * throughput and as CPU time of this process (server and load generator) per request. Targets:
 * a bearer user on an Enterprise account (so no hourly limit refuses the bench) and the demo
 * Enterprise and Free keys.
 */
import { DynamoAccountStore } from '../shared/adapters/account-store';
import { DynamoUserStore } from '../shared/adapters/user-store';
import { runLoad } from './lib/load';
import { startBenchApp } from './lib/local-app';
import { medianOf } from './lib/report';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 1000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1500);
const SETTLE_MS = 8000;
const BEARER_TARGET = 0.5;

interface Target {
  name: string;
  path: string;
  headers: Record<string, string>;
  status: number;
}

interface Figures {
  rps: number[];
  cpuUs: number[];
}

async function postJson(url: string, body: object): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await response.json() as Record<string, unknown>;
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

/** A registered, signed-in user whose account is Enterprise; returns the access token. */
async function enterpriseBearer(baseUrl: string): Promise<string> {
  const email = 'bench.bearer@example.org';
  const password = 'Correct-Horse-Battery-9';
  await postJson(`${baseUrl}/v1/users/register`, { email, password, name: 'Bench Bearer', role: 'consultant' });
  const token = String((await postJson(`${baseUrl}/v1/users/login`, { email, password })).access_token);
  // Upgraded before its first metered request: the usage counter keeps the limit a key started its hour with.
  const { sub } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
  const user = await new DynamoUserStore().get(sub);
  if (!user || !await new DynamoAccountStore().setTier(user.account_id, 'enterprise')) throw new Error('the bench user has no account');
  return token;
}

/** The token with its signature's first character changed: well formed, signed with no key the pool has. */
function forged(token: string): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  return `${header}.${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
}

async function main(): Promise<void> {
  // One EMF line a second per group and tier would bury the figures; every target pays it alike.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const app = await startBenchApp();
  try {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const token = await enterpriseBearer(app.baseUrl);
    const targets: Target[] = [
      { name: 'API key GET /account/usage (Enterprise)', path: '/account/usage', headers: { 'X-API-Key': app.keys.enterprise }, status: 200 },
      { name: 'bearer GET /v1/users/profile (Enterprise account)', path: '/v1/users/profile', headers: { Authorization: `Bearer ${token}` }, status: 200 },
      { name: 'refused: unknown API key', path: '/account/usage', headers: { 'X-API-Key': 'vac_unknown_key_0000000000000000' }, status: 403 },
      { name: 'refused: forged bearer token', path: '/v1/users/profile', headers: { Authorization: `Bearer ${forged(token)}` }, status: 401 },
      { name: 'served: GET /grants/deadlines (Enterprise key)', path: '/grants/deadlines', headers: { 'X-API-Key': app.keys.enterprise }, status: 200 },
      { name: 'refused: GET /grants/deadlines, Free key past its hour', path: '/grants/deadlines', headers: { 'X-API-Key': app.keys.free }, status: 429 },
      { name: 'bearer GET /v1/courses (catalogue + the user\'s enrollments)', path: '/v1/courses', headers: { Authorization: `Bearer ${token}` }, status: 200 },
    ];
    // The Free key's 25 requests of the hour are spent in its warm-up: every measured request is refused 429.
    for (const target of targets) {
      await runLoad({ url: `${app.baseUrl}${target.path}`, headers: target.headers, concurrency: CONCURRENCY, requests: 0, warmup: WARMUP });
    }
    const figures = new Map<string, Figures>(targets.map((t) => [t.name, { rps: [], cpuUs: [] }]));
    let errors = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
      for (const target of order) {
        const cpu = process.cpuUsage();
        const load = await runLoad({
          url: `${app.baseUrl}${target.path}`, headers: target.headers, concurrency: CONCURRENCY, requests: PER_ROUND, warmup: 0, expectStatus: target.status,
        });
        const used = process.cpuUsage(cpu);
        if (load.errors > 0) console.error(`${target.name}: ${load.errors} answers other than ${target.status}`);
        errors += load.errors;
        figures.get(target.name)!.rps.push(load.requestsPerSecond);
        figures.get(target.name)!.cpuUs.push((used.user + used.system) / load.requests);
      }
    }
    console.log(`concurrency ${CONCURRENCY}, keep-alive, ${ROUNDS} rotating rounds of ${PER_ROUND} requests per target, ${WARMUP} warm-up requests each; errors (unexpected status) ${errors}`);
    const median = (name: string) => ({ rps: medianOf(figures.get(name)!.rps), cpuUs: medianOf(figures.get(name)!.cpuUs) });
    const width = Math.max(...targets.map((t) => t.name.length));
    console.log(`${'target'.padEnd(width)}  status  req/s (median)  CPU µs/request (median)`);
    for (const target of targets) {
      const { rps, cpuUs } = median(target.name);
      console.log(`${target.name.padEnd(width)}  ${String(target.status).padStart(6)}  ${rps.toFixed(0).padStart(14)}  ${cpuUs.toFixed(0).padStart(23)}`);
    }
    const ratio = (a: Target, b: Target) => {
      const x = median(a.name);
      const y = median(b.name);
      return `throughput ${(x.rps / y.rps).toFixed(2)}, CPU per request ${(x.cpuUs / y.cpuUs).toFixed(2)}`;
    };
    const [apiKey, bearer, badKey, badToken, served, throttled, bearerCatalogue] = targets as [Target, Target, Target, Target, Target, Target, Target];
    console.log(`bearer /v1 GET over API-key GET, each reading its account: ${ratio(bearer, apiKey)} (target throughput ≥ ${BEARER_TARGET})`);
    console.log(`bearer /v1 catalogue GET (one enrollment query) over API-key GET /grants/deadlines (no read): ${ratio(bearerCatalogue, served)}`);
    console.log(`unknown API key over served API-key GET: ${ratio(badKey, apiKey)} (refused should cost no more: CPU ≤ 1)`);
    console.log(`forged bearer token over served bearer GET: ${ratio(badToken, bearer)}`);
    console.log(`Free key past its hour over served Enterprise GET of the route: ${ratio(throttled, served)}`);
    if (errors > 0) process.exitCode = 1;
  } finally {
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
