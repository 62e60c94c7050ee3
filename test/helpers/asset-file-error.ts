import { AssetFileError } from '../../shared/domain/assets/file-error';

function asFileError(error: unknown): AssetFileError {
  if (!(error instanceof AssetFileError)) throw new Error(`expected an AssetFileError, got ${String(error)}`);
  return error;
}

/** The AssetFileError a synchronous step throws; any other outcome fails the test. */
export function fileErrorOf(run: () => unknown): AssetFileError {
  try {
    run();
  } catch (error) {
    return asFileError(error);
  }
  throw new Error('expected an AssetFileError, got none');
}

/** The AssetFileError an asynchronous step rejects with; any other outcome fails the test. */
export async function rejectionOf(run: () => Promise<unknown>): Promise<AssetFileError> {
  const outcome = await run().then(() => ({ rejected: false as const }), (error: unknown) => ({ rejected: true as const, error }));
  if (!outcome.rejected) throw new Error('expected an AssetFileError, got none');
  return asFileError(outcome.error);
}

/**
 * What an AssetFileError says: jest compares errors by message alone, so `toEqual(new
 * AssetFileError(…))` would not check the code or the extra fields.
 */
export function fileErrorParts(error: unknown): { code: string; message: string; extra: unknown } {
  const { code, message, extra } = asFileError(error);
  return { code, message, extra };
}
