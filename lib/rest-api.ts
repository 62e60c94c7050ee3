import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  type Method,
  RequestAuthorizer,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { Duration, Validations } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ROUTES } from '../shared/routes';
import { FUNCTION_GROUPS, type FunctionGroup } from '../shared/routes/types';
import { BINARY_MEDIA_TYPES, GATEWAY_RESPONSES, type GatewayResponseType } from '../shared/http/gateway-responses';
import { PROBLEM_CONTENT_TYPE, problemBody } from '../shared/http/problem';
import type { StageConfig } from './stage-config';

/** The deployment stage, so every URL starts with `/api`. */
export const STAGE_NAME = 'api';

export interface ApiGatewayProps {
  config: StageConfig;
  functions: Record<FunctionGroup, IFunction>;
  authorizer: IFunction;
  /** Verifies the /v1 bearer tokens (functions/bearer-authorizer). */
  bearerAuthorizer: IFunction;
}

/**
 * The REST API, built from the route table: every route becomes a method with a Lambda proxy
 * integration to its group's function, keyed routes behind the API key authorizer. Errors that
 * API Gateway produces itself are reshaped to the same problem+json the functions answer with.
 */
export class ApiGateway extends Construct {
  readonly api: RestApi;
  /** The `/v1` methods behind the bearer authorizer: each tier's usage plan throttles them. */
  readonly v1BearerMethods: Method[] = [];

  constructor(scope: Construct, id: string, props: ApiGatewayProps) {
    super(scope, id);
    const { config } = props;

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: config.logRetention, removalPolicy: config.removalPolicy });
    this.api = new RestApi(this, 'Api', {
      description: 'Vulnerability Assessment Compliance API (Florida s. 380.093)',
      endpointTypes: [EndpointType.REGIONAL],
      binaryMediaTypes: [...BINARY_MEDIA_TYPES],
      // Usage plans are chosen by the authorizer, which maps the caller's tier to the tier's key.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: config.removalPolicy,
      deployOptions: {
        stageName: STAGE_NAME,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
        // Errors only, and never request data: headers carry API keys.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: true,
        tracingEnabled: true,
        throttlingRateLimit: config.stageThrottle.rateLimit,
        throttlingBurstLimit: config.stageThrottle.burstLimit,
      },
    });

    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: props.authorizer,
      // A request without the header is answered 401 by API Gateway without invoking the function.
      identitySources: [IdentitySource.header('X-API-Key')],
      resultsCacheTtl: config.authorizerCacheTtl,
    });

    // Not cached and no identity source: a request without a token must reach it too, so that the
    // function answers 401 invalid_token (API Gateway's own 401 is shaped for a missing API key).
    const bearerAuthorizer = new RequestAuthorizer(this, 'BearerAuthorizer', {
      handler: props.bearerAuthorizer,
      identitySources: [],
      resultsCacheTtl: Duration.seconds(0),
    });

    // One invoke permission per function for the whole API keeps its resource policy small.
    const integrations = Object.fromEntries(FUNCTION_GROUPS.map((group) => [
      group,
      new LambdaIntegration(props.functions[group], { proxy: true, scopePermissionToMethod: false }),
    ])) as Record<FunctionGroup, LambdaIntegration>;

    for (const route of ROUTES) {
      const method = this.api.root.resourceForPath(route.path).addMethod(route.method, integrations[route.group], {
        operationName: route.id,
        ...(route.auth === 'api_key'
          ? { authorizer, authorizationType: AuthorizationType.CUSTOM, apiKeyRequired: true }
          : route.auth === 'bearer'
            // A usage key too, which the bearer authorizer names: the tier's /v1 throttles apply.
            ? { authorizer: bearerAuthorizer, authorizationType: AuthorizationType.CUSTOM, apiKeyRequired: true }
            : { authorizationType: AuthorizationType.NONE }),
      });
      if (route.auth === 'none') {
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: route.path.startsWith('/v1/users/')
            ? `${route.method} ${route.path} is how a caller obtains credentials (sign-up and sign-in), public by contract and limited per client address.`
            : `${route.method} ${route.path} is public by contract (health check and API documentation need no key).`,
        });
      }
      if (route.auth === 'bearer') {
        this.v1BearerMethods.push(method);
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-COG4',
          reason: 'Cognito access tokens are verified by a Lambda authorizer built on aws-jwt-verify (issuer, token_use, client_id, expiry, RS256 only): a Cognito user-pools authorizer would answer failures with the API-wide 401 gateway response, which is shaped for a missing API key, not 401 invalid_token with WWW-Authenticate: Bearer.',
        });
      }
    }

    for (const type of Object.keys(GATEWAY_RESPONSES) as GatewayResponseType[]) {
      const { status, template } = gatewayProblemTemplate(type);
      this.api.addGatewayResponse(`Response${type}`, {
        type: ResponseType.of(type),
        statusCode: String(status),
        responseHeaders: { 'Content-Type': `'${PROBLEM_CONTENT_TYPE}'` },
        templates: { 'application/json': template },
      });
    }

    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason: 'Requests are validated in each function with the zod schemas of the route table (the same schemas that generate the OpenAPI document), which answer 400 invalid_request with per-field errors; gateway validation would answer in a different shape.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-COG4',
      reason: 'The current API\'s clients are machines identified by API keys, checked by the Lambda REQUEST authorizer on every keyed route; the /v1 routes use Cognito access tokens, verified by the bearer Lambda authorizer (see each method).',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: 'The AWS managed policy API Gateway needs to write execution and access logs to CloudWatch.',
    });
    Validations.of(this.api.deploymentStage).acknowledge({
      id: 'AwsSolutions-APIG3',
      reason: 'Every data route requires an API key; abuse is bounded per key by the hourly counter in DynamoDB, per tier by usage-plan throttles and overall by the stage throttle. A WAF web ACL can be associated per environment when the traffic warrants its cost.',
    });
  }
}

/**
 * The body API Gateway sends for a gateway response: the same problem document the local gateway
 * builds, with the request id filled in by the mapping template.
 */
export function gatewayProblemTemplate(type: GatewayResponseType): { status: number; template: string } {
  const { code, detail } = GATEWAY_RESPONSES[type];
  const body = problemBody(code, detail, '$context.requestId');
  return { status: body.status, template: JSON.stringify(body) };
}
