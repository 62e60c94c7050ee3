import { existsSync } from 'node:fs';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { handlerEntry, type EntryResolver } from '../../lib/app-function';
import { ComplianceApiStack } from '../../lib/stack';
import { STAGES } from '../../lib/stage-config';
import { FUNCTION_GROUPS } from '../../shared/routes/types';

process.env.CDK_DISABLE_CLI_TELEMETRY = 'true';

const entry: EntryResolver = (name) => (existsSync(handlerEntry(name)) ? handlerEntry(name) : handlerEntry('docs'));

type Statement = { Action: string | string[]; Effect: string; Resource: unknown };

/** The credential signing key and who may use it. */
describe('credential signing key', () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ComplianceApiStack(app, 'Test', { config: STAGES.prod, entry });
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any>; DeletionPolicy?: string }>;
  const keyId = stack.getLogicalId(stack.credentialKey.key.node.defaultChild as CfnElement);
  const roleOf = (group: (typeof FUNCTION_GROUPS)[number]) => stack.getLogicalId(stack.functions.byGroup[group].role!.node.defaultChild as CfnElement);
  const statementsOf = (roleId: string) => Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: any) => role.Ref === roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
  const mentionsKey = (statement: Statement) => JSON.stringify(statement.Resource).includes(`"${keyId}"`);

  it('is one asymmetric P-256 key for signing, kept when the production stack is deleted', () => {
    template.resourceCountIs('AWS::KMS::Key', 1);
    template.hasResourceProperties('AWS::KMS::Key', { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY', PendingWindowInDays: 30 });
    expect(resources[keyId]!.DeletionPolicy).toBe('Retain');
    // Asymmetric keys cannot rotate in KMS; the property must not be set.
    expect(resources[keyId]!.Properties.EnableKeyRotation).toBeUndefined();
  });

  it('lets the training function sign and read the public key, nothing else on the key', () => {
    const onKey = statementsOf(roleOf('v1-training')).filter(mentionsKey);
    expect(onKey).toHaveLength(1);
    expect(onKey[0]!.Effect).toBe('Allow');
    expect([onKey[0]!.Action].flat().sort()).toEqual(['kms:GetPublicKey', 'kms:Sign']);
    expect(JSON.stringify(onKey[0]!.Resource)).toBe(JSON.stringify({ 'Fn::GetAtt': [keyId, 'Arn'] }));
    const fn = resources[stack.getLogicalId(stack.functions.byGroup['v1-training'].node.defaultChild as CfnElement)]!;
    expect(fn.Properties.Environment.Variables.CREDENTIAL_KMS_KEY_ID).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
  });

  it('is out of reach of every other function', () => {
    for (const group of FUNCTION_GROUPS.filter((g) => g !== 'v1-training')) {
      expect(statementsOf(roleOf(group)).filter(mentionsKey)).toEqual([]);
      expect(statementsOf(roleOf(group)).flatMap((s) => [s.Action].flat()).filter((a) => a.startsWith('kms:'))).toEqual([]);
    }
  });
});
