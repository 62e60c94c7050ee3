/**
 * The production wiring of the pipeline: one quota counter per instance (its leases live in it),
 * a new one when the local runner swaps the configuration, and a shutdown that settles it.
 */
describe('pipeline deps', () => {
  const saved = process.env.TABLE_NAME;
  // A fresh module registry per test: the wiring lives in module state, and the counter class and
  // the configuration cache must be the ones the fresh deps module sees.
  let deps: typeof import('../../shared/http/deps');
  let LeasedUsageCounter: typeof import('../../shared/adapters/usage-counter').LeasedUsageCounter;
  let resetConfigForTests: () => void;

  beforeEach(() => {
    process.env.TABLE_NAME = 'table-a';
    jest.isolateModules(() => {
      deps = require('../../shared/http/deps');
      ({ LeasedUsageCounter } = require('../../shared/adapters/usage-counter'));
      ({ resetConfigForTests } = require('../../shared/config'));
    });
  });
  afterEach(() => {
    jest.restoreAllMocks();
    if (saved === undefined) delete process.env.TABLE_NAME;
    else process.env.TABLE_NAME = saved;
  });

  it('keeps one counter while the configuration stands', () => {
    const first = deps.defaultPipelineDeps.usage();
    expect(first).toBeInstanceOf(LeasedUsageCounter);
    expect(deps.defaultPipelineDeps.usage()).toBe(first);
  });

  it('builds a new counter once the configuration is swapped', () => {
    const first = deps.defaultPipelineDeps.usage();
    process.env.TABLE_NAME = 'table-b';
    resetConfigForTests();
    const second = deps.defaultPipelineDeps.usage();
    expect(second).not.toBe(first);
    expect(deps.defaultPipelineDeps.usage()).toBe(second);
  });

  it('reads the wall clock', () => {
    const before = Date.now();
    const now = deps.defaultPipelineDeps.clock().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('settles the wired counter on shutdown, and nothing before one exists', async () => {
    const settle = jest.spyOn(LeasedUsageCounter.prototype, 'settleAll').mockResolvedValue();
    await deps.settleUsage();
    expect(settle).not.toHaveBeenCalled();
    const counter = deps.defaultPipelineDeps.usage();
    await deps.settleUsage();
    expect(settle).toHaveBeenCalledTimes(1);
    expect(settle.mock.contexts[0]).toBe(counter);
  });
});
