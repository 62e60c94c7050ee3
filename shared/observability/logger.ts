import { Logger } from '@aws-lambda-powertools/logger';
import type { LogItemExtraInput, LogItemMessage } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';

/** The service every log line, metric and trace of the application is filed under. */
export const SERVICE_NAME = 'va-compliance-api';

/**
 * Powertools' Logger, stamped with an invocation's context when a line is written, not when the
 * invocation starts: most requests write no line, and stamping each one (Powertools reads the
 * environment every time) was about 1 % of a warm request's CPU in a profile of the local gateway.
 * The first invocation is stamped at once, so its lines, and only its, say `cold_start: true`.
 */
class InvocationLogger extends Logger {
  #invoked = false;
  #unstamped: Context | undefined;

  stamp(context: Context): void {
    if (this.#invoked) {
      this.#unstamped = context;
      return;
    }
    this.#invoked = true;
    this.addContext(context);
  }

  protected override processLogItem(logLevel: number, input: LogItemMessage, extraInput: LogItemExtraInput): void {
    if (this.#unstamped) {
      this.addContext(this.#unstamped);
      this.#unstamped = undefined;
    }
    super.processLogItem(logLevel, input, extraInput);
  }
}

const invocationLogger = new InvocationLogger({ serviceName: SERVICE_NAME });

/** Structured JSON logs. Requests are never logged whole: headers carry API keys. */
export const logger: Logger = invocationLogger;

/**
 * Stamps the invocation on every following log line: request id, function, memory and whether
 * this was a cold start. Local callers that have no Lambda context (or a partial one) add nothing.
 */
export function attachLambdaContext(context: Partial<Context> | undefined): void {
  if (typeof context?.awsRequestId === 'string') invocationLogger.stamp(context as Context);
}
