import path from 'node:path';
import { PT_VERSION } from '@aws-lambda-powertools/commons';
import { Stack, Validations, type Duration } from 'aws-cdk-lib';
import { Architecture, LayerVersion, Runtime, Tracing, type ILayerVersion } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { SERVICE_NAME } from '../shared/observability/logger';
import { FUNCTION_GROUPS, type FunctionGroup } from '../shared/routes/types';
import type { StageConfig } from './stage-config';

/** Every Lambda of the application: one per API group plus the authorizer and background jobs. */
export type FunctionName = FunctionGroup | 'authorizer' | 'bearer-authorizer' | 'webhook-dispatcher' | 'deadline-reminder' | 'reminder-worker' | 'job-sweep' | 'outbox-relay' | 'hazard-job-worker' | 'asset-import-worker' | 'deliverables-worker' | 'elevation-model-worker' | 'elevation-tile-worker' | 'elevation-connection-join' | 'elevation-window-worker';

export const PROJECT_ROOT = path.resolve(__dirname, '..');

/** Where a function's code lives: `functions/<name>/handler.ts`, exporting `handler`. */
export type EntryResolver = (name: FunctionName) => string;

export const handlerEntry: EntryResolver = (name) => path.join(PROJECT_ROOT, 'functions', name, 'handler.ts');

/**
 * Modules the functions find at run time instead of bundling their own copy: the Node 22 runtime
 * ships AWS SDK v3, and the Powertools layer every function has ships Powertools (logger,
 * metrics, tracer, batch) with the X-Ray SDK, so observability adds nothing to a bundle.
 */
export const RUNTIME_PROVIDED_MODULES = ['@aws-sdk/*', '@aws-lambda-powertools/*', 'aws-xray-sdk-core'];

/**
 * AWS publishes the ARN of each release's public Powertools for AWS Lambda (TypeScript) layer in
 * every region under this SSM parameter: the layer is the version installed here.
 */
export const POWERTOOLS_LAYER_PARAMETER = `/aws/service/powertools/typescript/generic/all/${PT_VERSION}`;

/** One layer reference per stack, resolved at deployment in the stack's region. */
function powertoolsLayer(scope: Construct): ILayerVersion {
  const stack = Stack.of(scope);
  const id = 'PowertoolsLayer';
  return (stack.node.tryFindChild(id) as ILayerVersion | undefined)
    ?? LayerVersion.fromLayerVersionArn(stack, id, StringParameter.valueForStringParameter(stack, POWERTOOLS_LAYER_PARAMETER));
}

/** esbuild settings of every function bundle; the bundle-budget test builds with the same ones. */
export const BUNDLE_SETTINGS = { minify: true, target: 'node22', format: OutputFormat.CJS } as const;

/** Packages bundled as a smaller module of the same behaviour (paths relative to the project root). */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  'text-encoding': './lib/bundle-shims/text-encoding.js',
  // @turf/line-intersect pins robust-predicates 2, whose `main` is a 26 KB UMD of every predicate;
  // it uses only orient2d, which version 3's ES module (already bundled for point-in-polygon-hao)
  // computes the same, value for value, and lets esbuild keep alone.
  'robust-predicates': './node_modules/robust-predicates/index.js',
};

/**
 * Node options by function. `--enable-source-maps` parses the whole map at load (100–500 ms of cold
 * start): the API functions go without it and map a stack only when they log one
 * (shared/http/source-mapped-stack.ts); the authorizers and background jobs keep Node's own mapping.
 */
export function nodeOptionsOf(name: FunctionName): string | undefined {
  return (FUNCTION_GROUPS as readonly FunctionName[]).includes(name) ? undefined : '--enable-source-maps';
}

/**
 * Compile-time constants by function. Only the docs function builds the OpenAPI document; the
 * others bundle `.openapi()` as a no-op, without the generator's extension (shared/schemas/zod.ts).
 */
export function bundleDefinesOf(name: FunctionName): Record<string, string> {
  return { 'process.env.OPENAPI_METADATA': JSON.stringify(name === 'docs' ? 'on' : 'off') };
}

/** API Gateway gives up on an integration after 29 s. */
export const API_TIMEOUT_LIMIT_SECONDS = 29;

export interface AppFunctionProps {
  name: FunctionName;
  description: string;
  memorySize: number;
  timeout: Duration;
  config: StageConfig;
  entry?: EntryResolver;
  /** Packages installed beside the bundle instead of bundled: their files are read at run time. */
  nodeModules?: string[];
  /** Shell commands run in the bundle's directory once it is complete (to leave out unused files). */
  afterBundling?: (outputDir: string) => string[];
}

/**
 * The statewide bare-earth source's settings (shared/config.ts), from the operator's context:
 * `cdk deploy -c statewideDemUrlTemplate=https://…/{tile}/USGS_13_{tile}.tif -c statewideDemTiles=n25w081,…`.
 */
function statewideDemSettings(scope: Construct): Record<string, string> {
  const template = scope.node.tryGetContext('statewideDemUrlTemplate') as string | undefined;
  const tiles = scope.node.tryGetContext('statewideDemTiles') as string | undefined;
  return template && tiles ? { STATEWIDE_DEM_URL_TEMPLATE: template, STATEWIDE_DEM_TILES: tiles } : {};
}

/**
 * The shared settings of every function: Node 22 on arm64, a minified bundle with source maps,
 * X-Ray tracing, the Powertools layer and its configuration and a log group with the stage's retention. Access to
 * data is added with the `bind*` helpers, which set the variable and the grant together.
 */
export class AppFunction extends NodejsFunction {
  /** The packages installed beside the bundle (on the synthesizing machine, by npm). */
  readonly installedModules: readonly string[];

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id, {
      entry: (props.entry ?? handlerEntry)(props.name),
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      tracing: Tracing.ACTIVE,
      layers: [powertoolsLayer(scope)],
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      bundling: {
        ...BUNDLE_SETTINGS,
        sourceMap: true,
        define: bundleDefinesOf(props.name),
        esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [`--alias:${from}`, to])),
        externalModules: RUNTIME_PROVIDED_MODULES,
        ...(props.nodeModules ? { nodeModules: props.nodeModules } : {}),
        ...(props.afterBundling ? { commandHooks: { beforeBundling: () => [], beforeInstall: () => [], afterBundling: (_input: string, output: string) => props.afterBundling!(output) } } : {}),
      },
      environment: {
        APP_MODE: 'aws',
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_LOG_LEVEL: props.config.logLevel,
        ...(nodeOptionsOf(props.name) ? { NODE_OPTIONS: nodeOptionsOf(props.name)! } : {}),
        ...statewideDemSettings(scope),
      },
      logGroup: new LogGroup(scope, `${id}Logs`, {
        retention: props.config.logRetention,
        removalPolicy: props.config.removalPolicy,
      }),
    });
    this.installedModules = props.nodeModules ?? [];
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords do not support resource-level permissions.',
    });
  }
}
