import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

/** The service every log line, metric and trace of the application is filed under. */
export const SERVICE_NAME = 'va-compliance-api';

/** The logger's calls the application makes. */
export type AppLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error' | 'setLogLevel'>;

/**
 * Powertools' Logger, created with the first line written: most requests write no line, and
 * loading the package is 20–40 ms of an API function's cold start. Each line is stamped with the
 * invocation before it, not when the invocation starts (Powertools reads the environment every
 * time it stamps; that was about 1 % of a warm request's CPU in a profile of the local gateway).
 * Only the first invocation's lines say `cold_start: true`, as when each was stamped at its start.
 */
let powertools: StampingLogger | undefined;
/** The invocation the next line is stamped with, and whether it is the process's first. */
let unstamped: { context: Context; first: boolean } | undefined;
let invoked = false;

type StampingLogger = Logger & { stamp(context: Context, first: boolean): void };

function created(): StampingLogger {
  if (!powertools) {
    const { Logger: PowertoolsLogger } = require('@aws-lambda-powertools/logger') as typeof import('@aws-lambda-powertools/logger');
    class InvocationLogger extends PowertoolsLogger {
      /** Powertools reports a cold start on a logger's first stamp: a later invocation consumes it unsaid. */
      stamp(context: Context, first: boolean): void {
        if (!first) this.getColdStart();
        this.addContext(context);
      }
    }
    powertools = new InvocationLogger({ serviceName: SERVICE_NAME });
  }
  return powertools;
}

function stamped(): Logger {
  const logger = created();
  if (unstamped) {
    logger.stamp(unstamped.context, unstamped.first);
    unstamped = undefined;
  }
  return logger;
}

/** Structured JSON logs. Requests are never logged whole: headers carry API keys. */
export const logger: AppLogger = {
  debug: (input, ...extra) => stamped().debug(input, ...extra),
  info: (input, ...extra) => stamped().info(input, ...extra),
  warn: (input, ...extra) => stamped().warn(input, ...extra),
  error: (input, ...extra) => stamped().error(input, ...extra),
  setLogLevel: (level) => created().setLogLevel(level),
};

/**
 * Stamps the invocation on every following log line: request id, function, memory and whether
 * this was a cold start. Local callers that have no Lambda context (or a partial one) add nothing.
 */
export function attachLambdaContext(context: Partial<Context> | undefined): void {
  if (typeof context?.awsRequestId !== 'string') return;
  unstamped = { context: context as Context, first: !invoked };
  invoked = true;
}
