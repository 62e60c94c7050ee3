import path from 'node:path';
import { Duration } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { FUNCTION_GROUPS, type FunctionGroup } from '../shared/routes/types';
import { LIBRARY_KEY_PREFIX } from '../shared/domain/library/catalogue';
import { API_TIMEOUT_LIMIT_SECONDS, AppFunction, PROJECT_ROOT, type EntryResolver } from './app-function';
import { pascalCase } from './names';
import { bindBucket, bindEventQueue, bindJobQueue, bindTable, bindUsageCounter } from './bindings';
import { UPLOADS_PREFIX, type DataStore } from './data-store';
import { ACCOUNT_MODELS_PREFIX, ELEVATION_UPLOADS_PREFIX } from '../shared/adapters/elevation/processed-keys';
import type { StageConfig } from './stage-config';

interface GroupSettings {
  description: string;
  memorySize: number;
  /** At most API_TIMEOUT_LIMIT_SECONDS: API Gateway stops waiting after 29 s. */
  timeoutSeconds: number;
  nodeModules?: string[];
  afterBundling?: (outputDir: string) => string[];
}

/**
 * Builds the console (lib/console-build.ts, the build the local server runs in memory) into
 * `console/` beside the docs function's handler, which serves it at `/console`. Runs on the
 * synthesizing machine: the bundling is local (esbuild is installed with the project).
 */
export function consoleBundlingCommands(outputDir: string): string[] {
  return [`"${path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx')}" "${path.join(PROJECT_ROOT, 'bin', 'console-build.ts')}" "${outputDir}/console"`];
}

export const GROUP_SETTINGS: Record<FunctionGroup, GroupSettings> = {
  library: { description: 'Resource library: list, detail, download', memorySize: 512, timeoutSeconds: 10 },
  assessments: { description: 'Vulnerability assessments: create, update, submit', memorySize: 512, timeoutSeconds: 15 },
  // Installed beside the bundle: sql.js reads its WebAssembly from its own directory (a GeoPackage
  // checked by GIS validation), and with proj4 (a projected file) it is loaded on first use, so
  // neither is compiled at load.
  assets: {
    description: 'Critical asset inventory: imports, listing, vulnerability, GIS validation', memorySize: 1536, timeoutSeconds: API_TIMEOUT_LIMIT_SECONDS,
    nodeModules: ['exceljs', 'sql.js', 'proj4'],
  },
  // Installed beside the bundle and loaded on first use, so they cost nothing at load: geotiff with
  // the first elevation model read, its ZSTD and LERC decoders (~175 KB) only for tiles compressed
  // that way, the harmonic tide predictor with the first tidal flood-day count.
  hazards: {
    description: 'Sea level rise scenarios, exposure and flood analysis', memorySize: 1536, timeoutSeconds: API_TIMEOUT_LIMIT_SECONDS,
    nodeModules: ['geotiff', 'zstddec', 'lerc', '@neaps/tide-predictor'],
  },
  grants: { description: 'Grant eligibility, ranking and program deadlines', memorySize: 512, timeoutSeconds: 10 },
  compliance: { description: 'Compliance validation and checklist', memorySize: 512, timeoutSeconds: 15 },
  account: { description: 'Account usage and webhooks', memorySize: 256, timeoutSeconds: 10 },
  // The reference page serves Swagger UI's own files from swagger-ui-dist; the console is built beside the handler.
  docs: {
    description: 'Health, OpenAPI document, the Swagger UI reference and the map console', memorySize: 256, timeoutSeconds: 10, nodeModules: ['swagger-ui-dist'],
    // Of swagger-ui-dist's 12 MB the page loads two files; the licence files ship with them.
    // (@scarf/scarf is its install-time analytics package, never loaded.)
    afterBundling: (outputDir) => [
      `find "${outputDir}/node_modules/swagger-ui-dist" -type f ! -name package.json ! -name swagger-ui.css ! -name swagger-ui-bundle.js ! -name LICENSE ! -name NOTICE -delete`,
      `rm -rf "${outputDir}/node_modules/@scarf"`,
      ...consoleBundlingCommands(outputDir),
    ],
  },
  'v1-risk': { description: '/v1 FEMA National Risk Index, hazards at a location and supply kits', memorySize: 1536, timeoutSeconds: 20, nodeModules: ['pdfkit', '@neaps/tide-predictor'] },
  'v1-training': { description: '/v1 course catalogue, enrolment and signed certifications', memorySize: 512, timeoutSeconds: 10 },
  'v1-identity': { description: '/v1 users (Cognito sign-up and sign-in), profile, security events and API keys', memorySize: 512, timeoutSeconds: 10 },
};

export interface ApiFunctionsProps {
  config: StageConfig;
  data: DataStore;
  entry?: EntryResolver;
}

/** One Lambda per route group, each with only the data access its routes need. */
export class ApiFunctions extends Construct {
  readonly byGroup: Record<FunctionGroup, AppFunction>;

  constructor(scope: Construct, id: string, props: ApiFunctionsProps) {
    super(scope, id);
    const { table, bucket, eventQueue } = props.data;
    const fns = Object.fromEntries(FUNCTION_GROUPS.map((group) => {
      const settings = GROUP_SETTINGS[group];
      return [group, new AppFunction(this, pascalCase(group), {
        name: group,
        description: settings.description,
        memorySize: settings.memorySize,
        timeout: Duration.seconds(settings.timeoutSeconds),
        config: props.config,
        entry: props.entry,
        nodeModules: settings.nodeModules,
        afterBundling: settings.afterBundling,
      })];
    })) as Record<FunctionGroup, AppFunction>;
    this.byGroup = fns;

    // View and download counters are written on read routes.
    bindTable(fns.library, table, 'readWrite');
    bindBucket(fns.library, bucket, 'read', [LIBRARY_KEY_PREFIX]);

    bindTable(fns.assessments, table, 'readWrite');
    bindBucket(fns.assessments, bucket, 'readWrite', ['submissions/', 'deliverables/']);
    bindBucket(fns.assessments, bucket, 'read', ['evidence/']);
    bindEventQueue(fns.assessments, eventQueue);
    // POST /assessments/{id}/deliverables starts the job on the deliverable queue.
    bindJobQueue(fns.assessments, 'deliverable', props.data.workQueues.jobs.deliverable.queue);

    bindTable(fns.assets, table, 'readWrite');
    bindBucket(fns.assets, bucket, 'readWrite', ['imports/', UPLOADS_PREFIX, 'exports/']);

    // Analysis jobs live in the table with their results under hazard-jobs/; elevation models
    // and hazard layers are reference data, read only. (The prefixes are declared by the S3
    // adapters, which pull in geotiff; the stack does not load them.)
    bindTable(fns.hazards, table, 'readWrite');
    bindBucket(fns.hazards, bucket, 'read', ['dem/', 'hazard-layers/']);
    bindBucket(fns.hazards, bucket, 'readWrite', ['hazard-jobs/', 'evidence/']);
    // POST /hazards/flood-analysis starts a long analysis on the hazard job queue.
    bindJobQueue(fns.hazards, 'hazard_job', props.data.workQueues.jobs.hazard_job.queue);
    // Account elevation models: presigned uploads signed (and removed on delete), tiles read and removed.
    bindBucket(fns.hazards, bucket, 'readWrite', [ELEVATION_UPLOADS_PREFIX, ACCOUNT_MODELS_PREFIX]);

    bindUsageCounter(fns.grants, table);

    bindTable(fns.compliance, table, 'read');
    bindUsageCounter(fns.compliance, table);

    bindTable(fns.account, table, 'readWrite');
    bindEventQueue(fns.account, eventQueue);

    // Risk answers come from bundled data; the table only counts the hourly quota.
    bindUsageCounter(fns['v1-risk'], table);
    // Enrolments, credentials and idempotency keys; the signing key is bound by the stack.
    bindTable(fns['v1-training'], table, 'readWrite');

    // docs: keyless routes served from the bundle; no data access at all.
  }
}
