import { Duration } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { StageConfig } from './stage-config';

/** The two KMS actions credential signing needs: sign a digest, read the public key for the JWKS. */
export const CREDENTIAL_SIGNER_ACTIONS = ['kms:Sign', 'kms:GetPublicKey'];

export interface CredentialSigningKeyProps {
  config: StageConfig;
}

/**
 * The asymmetric key that signs certifications (ES256 JWTs): ECC_NIST_P256 for SIGN_VERIFY. The
 * private key never leaves KMS; functions get only Sign and GetPublicKey on this one key. Asymmetric
 * KMS keys cannot rotate automatically: a new key is a new `kid` in the JWKS.
 */
export class CredentialSigningKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: CredentialSigningKeyProps) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: 'Signs Open Badges credentials (JWT ES256) of the /v1 training routes',
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: props.config.removalPolicy,
      pendingWindow: Duration.days(30),
    });
  }

  /** Sets the variable the signer reads (shared/adapters/credential-signer.ts) and grants exactly its two actions. */
  bindSigner(fn: LambdaFunction): void {
    fn.addEnvironment('CREDENTIAL_KMS_KEY_ID', this.key.keyArn);
    fn.addToRolePolicy(new PolicyStatement({ actions: CREDENTIAL_SIGNER_ACTIONS, resources: [this.key.keyArn] }));
  }
}
