import { Logger } from '@aws-lambda-powertools/logger';

/** Structured JSON logs. Requests are never logged whole: headers carry API keys. */
export const logger = new Logger({ serviceName: 'va-compliance-api' });
