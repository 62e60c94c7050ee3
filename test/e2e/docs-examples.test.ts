import { OPERATION_EXAMPLES } from '../../shared/openapi/examples';
import { ROUTES } from '../../shared/routes';
import { exampleRunner, shapeDifferences, shorten } from '../helpers/example-runner';
import { startTestApp } from '../helpers/local-app';

/**
 * The OpenAPI examples sent to the running API, in order: each answer must have the example's
 * status and shape, so a documented example cannot drift from what the API does.
 */
describe('every OpenAPI example against the running API', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let run: ReturnType<typeof exampleRunner>;

  beforeAll(async () => {
    // No webhook deliveries or reminders: nothing may leave loopback.
    app = await startTestApp({ backgroundWorkers: false });
    run = exampleRunner(app);
  });
  afterAll(async () => {
    await app.stop();
  });

  it.each(OPERATION_EXAMPLES.map((example, i) => [`${i + 1}. ${example.operationId}${example.setup ? ' (setup)' : ''}`, example] as const))('%s', async (_name, example) => {
    const live = await run(example);
    const expected = example.response;
    const body = live.json ?? (live.text === '' ? undefined : live.text);
    const differences = expected.body === undefined ? [] : shapeDifferences(expected.body, body);
    // On a mismatch the live answer, shortened as an example is, shows what to write instead.
    expect({ status: live.status, differences }).toEqual({
      status: expected.status,
      differences: differences.length > 0 ? [`live answer: ${JSON.stringify(shorten(body))}`] : [],
    });
    if (expected.body === undefined) expect(body).toBeUndefined();
    for (const name of Object.keys(expected.headers ?? {})) expect(live.headers.get(name)).toBeTruthy();
  });

  it('has an example for every operation of the route table', () => {
    const documented = new Set(OPERATION_EXAMPLES.filter((example) => !example.setup).map((example) => example.operationId));
    expect(ROUTES.map((route) => route.id).filter((id) => !documented.has(id))).toEqual([]);
  });
});
