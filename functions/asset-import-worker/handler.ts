import type { Context, S3Event } from 'aws-lambda';
import { isS3Event, processS3Event, resumeImport, sweepLostImports } from '../assets/imports';

/** Time kept back from Lambda's timeout to record an import's outcome. */
const SAFETY_MS = 30_000;

/**
 * Large imports: the bucket's ObjectCreated notification for `uploads/` starts the import here,
 * with a longer timeout than API Gateway allows the assets API function. A schedule calls it as
 * well: imports whose worker was lost are resumed (while time remains) or failed.
 */
export async function handler(event: S3Event | { source?: string }, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<void> {
  const runDeadline = () => (context ? new Date(Date.now() + context.getRemainingTimeInMillis() - SAFETY_MS) : undefined);
  if (isS3Event(event)) {
    await processS3Event(event, { runDeadline: runDeadline() });
    return;
  }
  for (const lost of await sweepLostImports()) {
    // Left for the next run when too little time remains; its lease stays expired until then.
    if (context && context.getRemainingTimeInMillis() < 5 * SAFETY_MS) break;
    await resumeImport(lost, { runDeadline: runDeadline() });
  }
}
