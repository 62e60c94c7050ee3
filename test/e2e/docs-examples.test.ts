import { OPERATION_EXAMPLES } from '../../shared/openapi/examples';
import { ROUTES } from '../../shared/routes';
import { exampleMismatches, exampleRunner } from '../../shared/openapi/example-replay';
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
    // On a shape mismatch the list ends with the live answer, shortened as an example is.
    expect(exampleMismatches(example, await run(example))).toEqual([]);
  });

  it('has an example for every operation of the route table', () => {
    const documented = new Set(OPERATION_EXAMPLES.filter((example) => !example.setup).map((example) => example.operationId));
    expect(ROUTES.map((route) => route.id).filter((id) => !documented.has(id))).toEqual([]);
  });
});
