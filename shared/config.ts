import * as z from 'zod';

/**
 * Runtime configuration, read once from the environment at cold start. The same variables are
 * set by the CDK stack in AWS and by the local runner (`bin/local.ts`).
 */
/** An optional name, URL or ARN: one schema for all of them (each schema built costs at cold start). */
const OptionalSetting = z.string().min(1).optional();

const ConfigSchema = z.object({
  APP_MODE: z.enum(['aws', 'local']).default('aws'),
  TABLE_NAME: OptionalSetting,
  BUCKET_NAME: OptionalSetting,
  EVENT_QUEUE_URL: OptionalSetting,
  /** Dead-letter queue of the events queue: webhook deliveries that exhausted their retries. */
  EVENT_DLQ_URL: OptionalSetting,
  /** The queue each job kind's starts go to (its worker consumes it); locally one queue serves every kind. */
  HAZARD_JOB_QUEUE_URL: OptionalSetting,
  ASSET_IMPORT_QUEUE_URL: OptionalSetting,
  ELEVATION_MODEL_QUEUE_URL: OptionalSetting,
  DELIVERABLE_QUEUE_URL: OptionalSetting,
  /** The queue of per-account deadline reminder runs (the daily schedule fans out to it). */
  REMINDER_QUEUE_URL: OptionalSetting,
  /** Delays between webhook delivery attempts, e.g. `5s,5m,30m,2h,5h,10h,10h` (the default). */
  WEBHOOK_RETRY_SCHEDULE: OptionalSetting,
  /** The Cognito user pool of the /v1 users and its app client (the emulator's, locally). */
  USER_POOL_ID: OptionalSetting,
  USER_POOL_CLIENT_ID: OptionalSetting,
  /** The REST API and stage whose authorizer cache is flushed when a key is revoked (AWS). */
  REST_API_ID: OptionalSetting,
  REST_API_STAGE: OptionalSetting,
  /** The state machine that traces an uploaded model's tidal connection over its tiles (AWS). */
  CONNECTION_STATE_MACHINE_ARN: OptionalSetting,
  /** The state machine that processes an uploaded model of more windows than one run takes, in batches (AWS). */
  PROCESSING_STATE_MACHINE_ARN: OptionalSetting,
  AWS_REGION: z.string().min(1).default('us-east-1'),
  /** Presigned download/upload URLs live this long. */
  SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  /**
   * Florida per capita personal income for the financially disadvantaged small community test:
   * BEA CAINC1, 2023 (release of 2024-11-14). Operators update it when BEA publishes a new year.
   */
  STATE_PER_CAPITA_INCOME_USD: z.coerce.number().positive().default(68703),
  STATE_PER_CAPITA_INCOME_YEAR: z.coerce.number().int().min(1969).max(2100).default(2023),
  /**
   * The statewide bare-earth source: 1° Cloud-Optimized GeoTIFF tiles read by HTTP range requests,
   * `{tile}` standing for the tile name (`n28w083`, USGS 3DEP naming), and the tiles that exist
   * (comma-separated). Both set: the source is read after the account's and operator's models.
   */
  STATEWIDE_DEM_URL_TEMPLATE: z.string().url().refine((url) => /^https?:\/\//.test(url) && url.includes('{tile}'), 'must be an http(s) URL containing {tile}').optional(),
  STATEWIDE_DEM_TILES: z.string().regex(/^\s*[ns]\d{2}[ew]\d{3}(\s*,\s*[ns]\d{2}[ew]\d{3})*\s*$/, 'must list tile names such as n28w083, comma-separated').optional(),
  STATE_PER_CAPITA_INCOME_SOURCE: z.string().min(1).default('U.S. Bureau of Economic Analysis, table CAINC1 (personal income, population, per capita personal income by county), Florida, 2023; release of 2024-11-14'),
});

export type AppConfig = z.infer<typeof ConfigSchema>;

let cached: AppConfig | undefined;

export function appConfig(): AppConfig {
  if (!cached) {
    const parsed = ConfigSchema.safeParse(process.env);
    if (!parsed.success) {
      throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => i.path.join('.') + ' ' + i.message).join('; ')}`);
    }
    cached = parsed.data;
  }
  return cached;
}

export type JobQueueSetting = 'HAZARD_JOB_QUEUE_URL' | 'ASSET_IMPORT_QUEUE_URL' | 'ELEVATION_MODEL_QUEUE_URL' | 'DELIVERABLE_QUEUE_URL';

/** A value the current function cannot run without; fails fast with the variable's name. */
export function requiredSetting(name: 'TABLE_NAME' | 'BUCKET_NAME' | 'EVENT_QUEUE_URL' | 'EVENT_DLQ_URL' | JobQueueSetting | 'REMINDER_QUEUE_URL' | 'USER_POOL_ID' | 'USER_POOL_CLIENT_ID' | 'REST_API_ID' | 'REST_API_STAGE' | 'CONNECTION_STATE_MACHINE_ARN' | 'PROCESSING_STATE_MACHINE_ARN'): string {
  const value = appConfig()[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

/** Tests and the local runner change the environment between app instances. */
export function resetConfigForTests(): void {
  cached = undefined;
}

/**
 * A function's wiring: `build` runs on first use (the configuration is read at cold start) and
 * its adapters are kept for the instance — built again only when the configuration is replaced,
 * as the local runner does between app instances in one process.
 */
export function wiring<T>(build: (config: AppConfig) => T): () => T {
  let built: { config: AppConfig; deps: T } | undefined;
  return () => {
    const config = appConfig();
    if (built?.config !== config) built = { config, deps: build(config) };
    return built.deps;
  };
}
