import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ComplianceApiStack } from '../lib/stack';
import { stageConfig } from '../lib/stage-config';
import { stackName } from '../lib/names';

/** `npx cdk synth` (stage dev) or `npx cdk deploy -c stage=prod`. */
const app = new App();
const config = stageConfig(String(app.node.tryGetContext('stage') ?? 'dev'));

new ComplianceApiStack(app, stackName(config.name), {
  config,
  description: `Vulnerability Assessment Compliance API (${config.name})`,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

// cdk-nag 3 runs as a policy validation plugin: unacknowledged errors fail the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
