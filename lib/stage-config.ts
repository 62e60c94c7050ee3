import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Tier } from '../shared/domain/tiers';
import { TIER_THROTTLES as tierThrottles, V1_TIER_THROTTLES as v1TierThrottles, type Throttle } from '../shared/domain/throttles';

export type { Throttle };

/** Everything that differs between deployments of the same stack. */
export interface StageConfig {
  name: string;
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  logRetention: RetentionDays;
  /** Server access logs of the data bucket are kept this long. */
  accessLogExpiration: Duration;
  /** Applied to the table, buckets, queues and log groups. */
  removalPolicy: RemovalPolicy;
  /**
   * Usage-plan throttles per tier, applied per account (each has its own usage key). The hourly
   * quota (25 / 5,000 / unlimited) is counted by the application in DynamoDB — usage plans cannot
   * count per clock hour — so these only stop bursts.
   */
  tierThrottles: Record<Tier, Throttle>;
  /**
   * Throttles of each `/v1` bearer method in each tier's usage plan (the bearer authorizer names
   * the user's account's key). Higher than `tierThrottles`: an account's key is shared by all of
   * its users, residents included.
   */
  v1TierThrottles: Record<Tier, Throttle>;
  /** Stage-wide ceiling, which also covers the keyless documentation routes. */
  stageThrottle: Throttle;
  /** How long API Gateway reuses an authorizer answer for the same key (a revoked key works this long). */
  authorizerCacheTtl: Duration;
}

export const STAGES = {
  dev: {
    name: 'dev',
    logLevel: 'DEBUG',
    logRetention: RetentionDays.ONE_WEEK,
    accessLogExpiration: Duration.days(30),
    removalPolicy: RemovalPolicy.DESTROY,
    tierThrottles,
    v1TierThrottles,
    stageThrottle: { rateLimit: 50, burstLimit: 100 },
    authorizerCacheTtl: Duration.minutes(1),
  },
  prod: {
    name: 'prod',
    logLevel: 'INFO',
    logRetention: RetentionDays.THREE_MONTHS,
    accessLogExpiration: Duration.days(365),
    removalPolicy: RemovalPolicy.RETAIN,
    tierThrottles,
    v1TierThrottles,
    stageThrottle: { rateLimit: 500, burstLimit: 1000 },
    authorizerCacheTtl: Duration.minutes(5),
  },
} as const satisfies Record<string, StageConfig>;

export type StageName = keyof typeof STAGES;

export function stageConfig(name: string): StageConfig {
  if (!(name in STAGES)) throw new Error(`Unknown stage "${name}"; expected one of ${Object.keys(STAGES).join(', ')}`);
  return STAGES[name as StageName];
}
