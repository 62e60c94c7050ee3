import { randomUUID } from 'node:crypto';
import { credentialSigner } from '../../shared/adapters/credential-signer';
import { DynamoTrainingStore } from '../../shared/adapters/enrollment-store';
import { DynamoIdempotencyStore } from '../../shared/adapters/idempotency-store';
import { wiring } from '../../shared/config';
import type { CredentialSigner } from '../../shared/domain/credentials/jws';
import type { TrainingStore } from '../../shared/domain/training/enrolment';
import type { IdempotencyStore } from '../../shared/http/idempotency';

/** What the training routes run on, each built on first use (the signer only by the routes that sign or verify). */
export interface TrainingRouteDeps {
  store: () => TrainingStore;
  signer: () => CredentialSigner;
  idempotency: () => IdempotencyStore;
  newId: () => string;
}

export const trainingRouteDeps: TrainingRouteDeps = {
  store: wiring(() => new DynamoTrainingStore()),
  signer: credentialSigner,
  idempotency: wiring(() => new DynamoIdempotencyStore()),
  newId: () => randomUUID().replace(/-/g, ''),
};
