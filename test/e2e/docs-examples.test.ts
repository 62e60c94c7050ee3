import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OPERATION_EXAMPLES, recordedAnswerOf } from '../../shared/openapi/examples';
import { ROUTES } from '../../shared/routes';
import { serializeRecording, type RecordedAnswer } from '../../shared/openapi/example-recording';
import { exampleRunner, recordingDifferences } from '../../shared/openapi/example-replay';
import { startTestApp } from '../helpers/local-app';

const HOUR_MS = 3_600_000;
const RERECORD = 'The API answers differently from shared/openapi/examples/recorded.json: if the change is intended, run `npm run examples:record`, review the diff and regenerate openapi.json (`npm run openapi`).';

/**
 * The OpenAPI examples sent to the running API, in order: each answer, normalised as the recorder
 * normalises it, must equal the recorded one, so a documented answer cannot drift from what the API
 * answers.
 */
describe('every OpenAPI example against the running API', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let run: ReturnType<typeof exampleRunner>;
  const answers: RecordedAnswer[] = [];

  beforeAll(async () => {
    // Usage is counted per clock hour (getUsage answers the hour's count): a run that began in the
    // last two minutes of an hour would count its requests in two windows, so it waits for the next.
    const untilNextHour = HOUR_MS - (Date.now() % HOUR_MS);
    if (untilNextHour < 2 * 60_000) await new Promise((resolve) => setTimeout(resolve, untilNextHour + 1_000));
    // No webhook deliveries or reminders: nothing may leave loopback.
    app = await startTestApp({ backgroundWorkers: false });
    run = exampleRunner(app);
  }, 240_000);
  afterAll(async () => {
    await app.stop();
  });

  it.each(OPERATION_EXAMPLES.map((example, i) => [`${i + 1}. ${example.operationId}${example.setup ? ' (setup)' : ''}`, example] as const))('%s', async (_name, example) => {
    const live = await run(example);
    answers.push(live.answer);
    // Another status often means the request names a placeholder out of date: the ids are listed.
    const stale = live.status === example.response.status ? [] : live.unknownIds;
    expect({ status: live.status, stale }).toEqual({ status: example.response.status, stale: [] });
    const recorded = recordedAnswerOf(example) ?? { operationId: example.operationId, status: -1 };
    const differences = recordingDifferences(recorded, live.answer);
    expect(differences.length > 0 ? [RERECORD, ...differences] : []).toEqual([]);
  });

  it('answers, all together, byte for byte the committed recording (a second recording changes nothing)', () => {
    expect(answers).toHaveLength(OPERATION_EXAMPLES.length);
    const committed = readFileSync(path.join(__dirname, '..', '..', 'shared', 'openapi', 'examples', 'recorded.json'), 'utf8');
    expect(serializeRecording(answers) === committed ? 'identical' : RERECORD).toBe('identical');
  });

  it('has an example for every operation of the route table', () => {
    const documented = new Set(OPERATION_EXAMPLES.filter((example) => !example.setup).map((example) => example.operationId));
    expect(ROUTES.map((route) => route.id).filter((id) => !documented.has(id))).toEqual([]);
  });
});
