import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { TIER_ORDER } from '../domain/tiers';

export const UsageSchema = onFirstUse(() => z.object({
  requests_used: z.number().int().min(0).describe('Requests counted for this key in the current clock hour (UTC), this one included.'),
  limit: z.number().int().nullable().describe('Hourly limit; null when unlimited (Enterprise).'),
  remaining: z.number().int().nullable(),
  reset_time: z.string().max(40).describe('ISO 8601 start of the next window.'),
  window_start: z.string().max(40),
  subscription_tier: z.enum(TIER_ORDER),
}).openapi('Usage'));
