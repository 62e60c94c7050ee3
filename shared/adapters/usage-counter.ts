import { randomInt } from 'node:crypto';
import { GetCommand, QueryCommand, UpdateCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { requiredSetting } from '../config';
import {
  INITIAL_LEASE_DEMAND, QUOTA_LEASE_MS, USAGE_FLUSH_MS, USAGE_SHARDS, leaseBlockSize, type HourWindow,
} from '../domain/tiers';
import type { UsageCount, UsageCounter } from '../ports';
import { logger } from '../observability/logger';

/**
 * Hourly usage without a database write per request.
 *
 * Limited keys: one item per key per hour (`USAGE#<keyHash>` / `HOUR#<window>`) holds `granted`,
 * the units taken from the hour's pool, and `held`, the units out on leases not yet settled. An
 * instance leases a block with one conditional `ADD` (`granted` may never pass the limit), serves
 * requests from it in memory and settles after `QUOTA_LEASE_MS`, giving back what it did not use.
 * So no key is ever served past its limit, however many instances run. A request that finds the
 * pool empty while other instances still hold leases waits for them to settle (at most about a
 * second) before it is refused, so a limit is also reached exactly.
 *
 * Unlimited keys: counted in memory and added to one of `USAGE_SHARDS` shard items at most once a
 * second per instance; the usage read sums the shards.
 */
const LEASE_WAIT_GRACE_MS = 250;
const LEASE_POLL_MS = 50;

interface Lease {
  size: number;
  left: number;
  expiresAt: number;
}

/** One key in one hourly window, as this instance sees it. */
interface LimitedState {
  kind: 'limited';
  window: HourWindow;
  limit: number;
  lease?: Lease;
  /** Owed to the item, applied with the next write: unused units to give back, our share of `held`. */
  owedUnused: number;
  owedHeld: number;
  /** `granted` after our last write. */
  granted: number;
  demand: number;
  /** Until then the pool is known spent: a refusal needs no read (see `consume`). */
  spentUntil: number;
  lock: Promise<unknown>;
  timer?: NodeJS.Timeout;
}

interface UnlimitedState {
  kind: 'unlimited';
  window: HourWindow;
  unflushed: number;
  lock: Promise<unknown>;
  timer?: NodeJS.Timeout;
}

type KeyState = LimitedState | UnlimitedState;

const pkOf = (keyHash: string) => `USAGE#${keyHash}`;
const hourSk = (window: HourWindow) => `HOUR#${window.id}`;
// Kept a day past the window for the operator's eyes; TTL deletes it afterwards.
const expiresAtOf = (window: HourWindow) => Math.floor(window.resetAt.getTime() / 1000) + 86_400;

export interface LeasedUsageCounterOptions {
  tableName?: string;
  /** The shard this instance flushes unlimited usage to (random by default). */
  shard?: number;
  now?: () => number;
}

export class LeasedUsageCounter implements UsageCounter {
  private readonly tableName: string;
  private readonly shard: number;
  private readonly now: () => number;
  private readonly states = new Map<string, KeyState>();

  constructor(options: LeasedUsageCounterOptions = {}) {
    this.tableName = options.tableName ?? requiredSetting('TABLE_NAME');
    this.shard = options.shard ?? randomInt(USAGE_SHARDS);
    this.now = options.now ?? Date.now;
  }

  consume(keyHash: string, window: HourWindow, limit: number | null): Promise<UsageCount> {
    const state = this.stateOf(keyHash, window, limit);
    if (state.kind === 'unlimited') {
      state.unflushed += 1;
      state.timer ??= this.later(USAGE_FLUSH_MS, () => this.flush(keyHash, state));
      return Promise.resolve({ used: 0, allowed: true });
    }
    const lease = state.lease;
    // The common case: served from the lease in hand, no I/O and no wait for the lock.
    if (lease && lease.left > 0 && lease.expiresAt > this.now()) {
      lease.left -= 1;
      return Promise.resolve({ used: this.usedHere(state), allowed: true });
    }
    // A key past its limit keeps knocking: each refusal re-reading the item made a refused request
    // cost several served ones. Units only come back from leases, which settle within
    // QUOTA_LEASE_MS, so a spent pool is answered from memory that long.
    if (state.spentUntil > this.now()) return Promise.resolve({ used: state.limit, allowed: false });
    return this.locked(state, () => this.consumeLimited(keyHash, state));
  }

  async used(keyHash: string, window: HourWindow, limit: number | null): Promise<number> {
    const state = this.stateOf(keyHash, window, limit);
    if (state.kind === 'unlimited') {
      const { Items } = await dynamo().send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pkOf(keyHash), ':prefix': `${hourSk(window)}#SHARD#` },
        ConsistentRead: true,
      }));
      return (Items ?? []).reduce((sum, item) => sum + Number(item.request_count ?? 0), 0) + state.unflushed;
    }
    const item = await this.read(keyHash, window);
    state.granted = item.granted;
    return this.usedHere(state);
  }

  /** Settles every lease and flushes every count now (shutdown). */
  async settleAll(): Promise<void> {
    await Promise.all([...this.states.entries()].map(([id, state]) => {
      const keyHash = id.slice(0, id.indexOf('|'));
      return state.kind === 'unlimited' ? this.flush(keyHash, state) : this.locked(state, () => this.settle(keyHash, state));
    }));
  }

  private stateOf(keyHash: string, window: HourWindow, limit: number | null): KeyState {
    // A key whose tier changes within the hour (an upgrade, a downgrade) is counted under its new
    // limit from its next request: a limited key keeps its count with the new limit, and a change
    // between limited and unlimited starts the other kind of state, the old one settling on its own.
    const id = limit === null ? `${keyHash}|${window.id}|unlimited` : `${keyHash}|${window.id}`;
    let state = this.states.get(id);
    if (state?.kind === 'limited' && state.limit !== limit) {
      // A lower limit: the block in hand was leased under the higher one, so it goes back.
      if (limit! < state.limit) this.retire(state);
      else state.spentUntil = 0;
      state.limit = limit!;
    }
    if (!state) {
      this.forgetPastWindows();
      state = limit === null
        ? { kind: 'unlimited', window, unflushed: 0, lock: Promise.resolve() }
        : { kind: 'limited', window, limit, owedUnused: 0, owedHeld: 0, granted: 0, demand: INITIAL_LEASE_DEMAND, spentUntil: 0, lock: Promise.resolve() };
      this.states.set(id, state);
    }
    return state;
  }

  private forgetPastWindows(): void {
    const now = this.now();
    for (const [id, state] of this.states) {
      const idle = state.kind === 'unlimited' ? state.unflushed === 0 : !state.lease && state.owedUnused === 0 && state.owedHeld === 0;
      if (idle && !state.timer && state.window.resetAt.getTime() <= now) this.states.delete(id);
    }
  }

  /** Requests served in the window as far as this instance knows: exact with one instance. */
  private usedHere(state: LimitedState): number {
    return state.granted - state.owedUnused - (state.lease?.left ?? 0);
  }

  private locked<T>(state: KeyState, work: () => Promise<T>): Promise<T> {
    const run = state.lock.then(work, work);
    state.lock = run.catch(() => undefined);
    return run;
  }

  private later(ms: number, work: () => Promise<void>): NodeJS.Timeout {
    const timer = setTimeout(() => {
      work().catch((error: unknown) => logger.warn('Usage settlement failed; the next write carries it', { error: error as Error }));
    }, ms);
    timer.unref();
    return timer;
  }

  /** Moves the lease in hand (spent or expired) into what is owed to the item. */
  private retire(state: LimitedState): void {
    const lease = state.lease;
    if (!lease) return;
    state.owedUnused += lease.left;
    state.owedHeld += lease.size - 1;
    // Demand follows what the block served: it doubles while blocks run out before they expire.
    state.demand = Math.max(1, 2 * (lease.size - lease.left));
    state.lease = undefined;
  }

  private async consumeLimited(keyHash: string, state: LimitedState): Promise<UsageCount> {
    const lease = state.lease;
    if (lease && lease.left > 0 && lease.expiresAt > this.now()) {
      lease.left -= 1;
      return { used: this.usedHere(state), allowed: true };
    }
    // Requests queued behind the refusal that found the pool spent.
    if (state.spentUntil > this.now()) return { used: state.limit, allowed: false };
    this.retire(state);
    const waitUntil = this.now() + QUOTA_LEASE_MS + LEASE_WAIT_GRACE_MS;
    let remaining = state.limit - state.granted + state.owedUnused;
    for (;;) {
      if (remaining > 0) {
        const size = leaseBlockSize(remaining, state.demand);
        if (await this.lease(keyHash, state, size)) return { used: this.usedHere(state), allowed: true };
      }
      const item = await this.read(keyHash, state.window);
      state.granted = item.granted;
      remaining = state.limit - item.granted + state.owedUnused;
      if (remaining > 0) continue;
      // Spent, unless other instances still hold units they may give back within a second.
      const heldElsewhere = item.held - state.owedHeld;
      if (heldElsewhere > 0 && item.heldUntil + LEASE_WAIT_GRACE_MS > this.now() && this.now() < waitUntil) {
        await new Promise((resolve) => setTimeout(resolve, LEASE_POLL_MS));
        continue;
      }
      state.spentUntil = this.now() + QUOTA_LEASE_MS;
      return { used: state.limit, allowed: false };
    }
  }

  /** One conditional write: settle what is owed and take `size` units, the first for this request. */
  private async lease(keyHash: string, state: LimitedState, size: number): Promise<boolean> {
    const expiresAt = this.now() + QUOTA_LEASE_MS;
    try {
      const { Attributes } = await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: pkOf(keyHash), sk: hourSk(state.window) },
        UpdateExpression: 'ADD granted :grant, held :hold SET held_until = :until, expires_at = :exp',
        ConditionExpression: 'attribute_not_exists(granted) OR granted <= :max',
        ExpressionAttributeValues: {
          ':grant': size - state.owedUnused,
          ':hold': size - 1 - state.owedHeld,
          ':until': expiresAt,
          ':exp': expiresAtOf(state.window),
          ':max': state.limit - size + state.owedUnused,
        },
        ReturnValues: 'UPDATED_NEW',
      }));
      state.granted = Number(Attributes?.granted ?? size);
      state.owedUnused = 0;
      state.owedHeld = 0;
      state.lease = { size, left: size - 1, expiresAt };
      if (size > 1) {
        clearTimeout(state.timer);
        state.timer = this.later(QUOTA_LEASE_MS, () => this.locked(state, () => this.settle(keyHash, state)));
      }
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  /** Gives back the unused part of the lease and our share of `held`. */
  private async settle(keyHash: string, state: LimitedState): Promise<void> {
    clearTimeout(state.timer);
    state.timer = undefined;
    this.retire(state);
    if (state.owedUnused === 0 && state.owedHeld === 0) return;
    const { Attributes } = await dynamo().send(new UpdateCommand({
      TableName: this.tableName,
      Key: { pk: pkOf(keyHash), sk: hourSk(state.window) },
      UpdateExpression: 'ADD granted :grant, held :hold',
      ExpressionAttributeValues: { ':grant': -state.owedUnused, ':hold': -state.owedHeld },
      ReturnValues: 'UPDATED_NEW',
    }));
    state.granted = Number(Attributes?.granted ?? 0);
    state.owedUnused = 0;
    state.owedHeld = 0;
  }

  private async flush(keyHash: string, state: UnlimitedState): Promise<void> {
    clearTimeout(state.timer);
    state.timer = undefined;
    const count = state.unflushed;
    if (count === 0) return;
    state.unflushed = 0;
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: pkOf(keyHash), sk: `${hourSk(state.window)}#SHARD#${this.shard}` },
        UpdateExpression: 'ADD request_count :n SET expires_at = :exp',
        ExpressionAttributeValues: { ':n': count, ':exp': expiresAtOf(state.window) },
      }));
    } catch (error) {
      state.unflushed += count;
      state.timer ??= this.later(USAGE_FLUSH_MS, () => this.flush(keyHash, state));
      throw error;
    }
  }

  private async read(keyHash: string, window: HourWindow): Promise<{ granted: number; held: number; heldUntil: number }> {
    const { Item } = await dynamo().send(new GetCommand({
      TableName: this.tableName,
      Key: { pk: pkOf(keyHash), sk: hourSk(window) },
      ConsistentRead: true,
    }));
    return { granted: Number(Item?.granted ?? 0), held: Number(Item?.held ?? 0), heldUntil: Number(Item?.held_until ?? 0) };
  }
}
