/** Construct IDs from kebab-case names: `webhook-dispatcher` → `WebhookDispatcher`. */
export function pascalCase(name: string): string {
  return name.split('-').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
}

/** The CloudFormation stack of a stage (`npx cdk deploy -c stage=prod` → `VaComplianceApi-prod`). */
export function stackName(stage: string): string {
  return `VaComplianceApi-${stage}`;
}
