import { Validations, type Stack } from 'aws-cdk-lib';

/**
 * Stack-wide cdk-nag acknowledgments, each for a finding that applies to every function of the
 * stack alike. Findings that belong to one construct are acknowledged next to it.
 */
export function acknowledgeStackFindings(stack: Stack): void {
  Validations.of(stack).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    reason: 'The AWS managed basic execution role only lets a function write its own CloudWatch logs; it is the documented minimum for Lambda.',
  });
  Validations.of(stack).acknowledge({
    id: 'AwsSolutions-L1',
    reason: 'Functions run on Node.js 22 (LTS), the runtime the application is built and tested for; the upgrade to 24 is a deliberate, tested change. The S3 notification helper function is provided by the CDK.',
  });
}
