import { parseArgs } from 'node:util';
import { documentedExamples, recordedAnswerOf } from '../shared/openapi/examples';
import { exampleMismatches, exampleRunner, fetchRequester } from '../shared/openapi/example-replay';
import { ROUTES } from '../shared/routes';
import type { OperationExample } from '../shared/openapi/examples/types';
import { CliError, runCli } from './cli';

const USAGE = `Replay a representative subset of the documented examples against a deployment.

Usage: npm run smoke -- --base-url URL [--api-key KEY]

--base-url URL  the API's base URL, ending in /api (the stack output BaseUrl, or
                http://127.0.0.1:3000/api for \`npm start\`).
--api-key KEY   a Pro or Enterprise key of the deployment (\`npm run accounts -- create …\`); without
                it only the public routes are replayed.

Only reads and computations that store nothing are sent. Each answer must have the status and
shape of its recorded example answer (ids, times and figures may differ). The command stops at the first mismatch,
prints it and exits 1; it exits 0 when every answer matches.
`;

/**
 * What the smoke test replays: the public documents, the library the seed loads, reference data
 * and the stateless computations of each group. None of them writes to the deployment (the usage
 * counter aside), so it can run against production after every deploy; and none answers in a shape
 * that depends on the key's tier (as `GET /account/usage` does), so any Pro or Enterprise key serves.
 */
export const SMOKE_OPERATIONS = [
  'getHealth', 'getOpenApi', 'getDocs', 'credentialJwks',
  'queryResources', 'getResource',
  'getSlrScenarios', 'listFloodEvents',
  'checkGrantEligibility', 'listGrantDeadlines', 'rankGrantProject',
  'getComplianceChecklist', 'validateCompliance',
] as const;

/** The documented example of each smoke operation, public ones only without a key. */
export function smokeExamples(withKey: boolean): OperationExample[] {
  const documented = documentedExamples();
  return SMOKE_OPERATIONS.map((id) => documented.get(id)!)
    .filter((example) => withKey || ROUTES.find((route) => route.id === example.operationId)!.auth === 'none');
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { 'base-url': { type: 'string' }, 'api-key': { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const baseUrl = values['base-url']?.replace(/\/+$/, '');
  if (!baseUrl || !/^https?:\/\//.test(baseUrl)) throw new CliError('--base-url must be the API\'s http(s) base URL, ending in /api. See --help.', 2);
  const key = values['api-key'];
  const run = exampleRunner({ baseUrl, keys: key ? { free: key, pro: key, enterprise: key } : {}, request: fetchRequester(baseUrl) });
  const examples = smokeExamples(key !== undefined);
  for (const [index, example] of examples.entries()) {
    const route = ROUTES.find((candidate) => candidate.id === example.operationId)!;
    const name = `${example.operationId} (${route.method} ${route.path})`;
    const live = await run(example).catch((error: unknown) => {
      throw new CliError(`FAIL ${name}: no answer from ${baseUrl}: ${(error as Error).message}`);
    });
    const recorded = recordedAnswerOf(example);
    if (!recorded) throw new CliError(`No recorded answer for ${example.operationId}: run \`npm run examples:record\`.`);
    const problems = exampleMismatches(example, recorded, live);
    if (problems.length > 0) {
      throw new CliError(`FAIL ${name}: the answer does not match the documented example:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    }
    process.stdout.write(`ok ${index + 1}/${examples.length} ${name} ${live.status}\n`);
  }
  process.stdout.write(`All ${examples.length} answers match their examples${key ? '' : ' (public routes only: no --api-key)'}.\n`);
}

if (require.main === module) runCli(main);
