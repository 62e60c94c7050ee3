/**
 * Application logs stay out of test output: the Powertools logger writes straight to stdout, past
 * jest's console capture, so it is silenced here. `TEST_LOG_LEVEL=DEBUG npx jest <file>` shows them
 * when a failing test needs them.
 */
process.env.POWERTOOLS_LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'SILENT';
/** Metrics (EMF lines on stdout) likewise; the metrics tests switch them on to read them. */
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
