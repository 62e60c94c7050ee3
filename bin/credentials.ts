import { DynamoTrainingStore } from '../shared/adapters/enrollment-store';
import { revokeCertification } from '../shared/application/training/enrolment';
import { TrainingError, type TrainingUser } from '../shared/domain/training/enrolment';
import { CertificationParams, RevokeBody } from '../shared/schemas/v1-training';
import { CliError, openOperatorStorage, option, runCli } from './operator-storage';

const USAGE = `Revoke a training certification (an Open Badges credential issued by /v1).

Usage:
  npm run credentials -- revoke --certification cert_... --reason "Recorded against the wrong person"

From then on GET /v1/certifications/{id}/verify answers valid: false, status: "revoked", with
the time; the signed credential itself stays genuine (its signature still verifies), which is why
verifiers must ask the verification route. A certification is revoked once.

Where it writes: APP_MODE=aws uses TABLE_NAME (and BUCKET_NAME) with the usual AWS credentials;
otherwise the local data directory DATA_DIR (default .data) — stop \`npm start\` first.
`;

/** The operator acts with the admin role, which may revoke anyone's certification. */
const OPERATOR: TrainingUser = { user_id: 'operator', name: 'Operator', role: 'admin' };

async function main(args: string[]): Promise<void> {
  const [command] = args;
  if (!command || args.includes('--help')) {
    process.stdout.write(USAGE);
    return;
  }
  if (command !== 'revoke') throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
  // The same rules as the revocation route's path and body.
  const id = CertificationParams().safeParse({ certification_id: option(args, 'certification') });
  const body = RevokeBody().safeParse({ reason: option(args, 'reason') });
  if (!id.success) throw new CliError('revoke needs --certification with a certification id (cert_…).', 2);
  if (!body.success) throw new CliError('revoke needs --reason: 3 to 500 characters saying why.', 2);

  const storage = await openOperatorStorage();
  try {
    const record = await revokeCertification(OPERATOR, id.data.certification_id, body.data.reason, { store: new DynamoTrainingStore(), now: new Date() })
      .catch((error: unknown) => {
        if (!(error instanceof TrainingError)) throw error;
        throw new CliError(error.code === 'not_found' ? `No certification ${id.data.certification_id}.` : error.message);
      });
    process.stdout.write(`Revoked ${record.certification_id} at ${record.revoked_at} in ${storage.description}.\n`);
  } finally {
    await storage.close();
  }
}

runCli(main);
