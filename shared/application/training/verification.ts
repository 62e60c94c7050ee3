import type { CredentialSigner, PublicJwk } from '../../domain/credentials/jws';
import { ISSUER_NAME, type CredentialRecord } from '../../domain/credentials/open-badge';
import { verificationAnswer } from '../../domain/credentials/verify';
import { CREDENTIAL_POLICY } from '../../domain/training/catalogue';
import { TrainingError, type TrainingStore } from '../../domain/training/enrolment';

/** The keys a verifier checks this API's credentials with (published as the JWKS). */
export const publicKeys = async (signer: CredentialSigner): Promise<PublicJwk[]> => [await signer.publicJwk()];

/** A certification as a verifier sees it: its status and whether its signature holds, as of `now`. */
export async function verificationOf(record: CredentialRecord, signer: CredentialSigner, now: Date) {
  return verificationAnswer(record, await publicKeys(signer), ISSUER_NAME, now, CREDENTIAL_POLICY);
}

/** Anyone holding a certification's id may verify it; an unknown id is not found. */
export async function verifyCertification(certificationId: string, deps: { store: TrainingStore; signer: CredentialSigner; now: Date }) {
  const record = await deps.store.findCredential(certificationId);
  if (!record) throw new TrainingError('not_found', `No certification ${certificationId}.`);
  return verificationOf(record, deps.signer, deps.now);
}
