import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

/** The service every log line, metric and trace of the application is filed under. */
export const SERVICE_NAME = 'va-compliance-api';

/** Structured JSON logs. Requests are never logged whole: headers carry API keys. */
export const logger = new Logger({ serviceName: SERVICE_NAME });

/**
 * Stamps the invocation on every following log line: request id, function, memory and whether
 * this was a cold start. Local callers that have no Lambda context (or a partial one) add nothing.
 */
export function attachLambdaContext(context: Partial<Context> | undefined): void {
  if (typeof context?.awsRequestId === 'string') logger.addContext(context as Context);
}
