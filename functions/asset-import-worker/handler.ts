import type { Context, S3Event } from 'aws-lambda';
import type { ImportRecord } from '../../shared/domain/assets/ports';
import { countJobEnd, METRIC, observedHandler } from '../../shared/observability/metrics';
import { assetDeps } from '../assets/deps';
import { UPLOAD_KEY, isS3Event, notifiedKey, processS3Event, resumeImport, sweepLostImports } from '../assets/import-runs';

/** Time kept back from Lambda's timeout to record an import's outcome. */
const SAFETY_MS = 30_000;

type ImportRef = Pick<ImportRecord, 'account_id' | 'import_id'>;

const statusOf = async (ref: ImportRef) => (await assetDeps.imports().get(ref.account_id, ref.import_id))?.status;

/** Runs `work` on these imports and counts those it ended failed. */
async function countingFailures(refs: ImportRef[], work: () => Promise<void>): Promise<void> {
  const before = await Promise.all(refs.map(statusOf));
  await work();
  const after = await Promise.all(refs.map(statusOf));
  refs.forEach((_, i) => countJobEnd(before[i], after[i], { failed: METRIC.importsFailed }));
}

function importsOf(event: S3Event): ImportRef[] {
  return event.Records.flatMap((record) => {
    const match = UPLOAD_KEY.exec(notifiedKey(record));
    return match ? [{ account_id: match[1]!, import_id: match[2]! }] : [];
  });
}

/**
 * Large imports: the bucket's ObjectCreated notification for `uploads/` starts the import here,
 * with a longer timeout than API Gateway allows the assets API function. A schedule calls it as
 * well: imports whose worker was lost are resumed (while time remains) or failed.
 */
export const handler = observedHandler(async (event: S3Event | { source?: string }, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<void> => {
  const runDeadline = () => (context ? new Date(Date.now() + context.getRemainingTimeInMillis() - SAFETY_MS) : undefined);
  if (isS3Event(event)) {
    await countingFailures(importsOf(event), () => processS3Event(event, { runDeadline: runDeadline() }));
    return;
  }
  for (const lost of await sweepLostImports()) {
    // Left for the next run when too little time remains; its lease stays expired until then.
    if (context && context.getRemainingTimeInMillis() < 5 * SAFETY_MS) break;
    await countingFailures([lost], () => resumeImport(lost, { runDeadline: runDeadline() }));
  }
});
