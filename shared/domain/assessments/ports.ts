import type { QueuedEvent } from '../../ports';
import type { AssessmentStatus } from '../../schemas/assessments';
import type { Assessment } from './model';

export interface AssessmentFilter {
  status?: AssessmentStatus;
  jurisdictionId?: string;
  /** Inclusive created-date bounds, YYYY-MM-DD. */
  createdFrom?: string;
  createdTo?: string;
}

export interface AssessmentPage {
  items: Assessment[];
  nextCursor: string | null;
}

export interface AssessmentStore {
  /** Stores a new assessment; its id is fresh, so this never overwrites. */
  create(assessment: Assessment): Promise<void>;
  /** undefined when missing or owned by another account. */
  get(accountId: string, assessmentId: string): Promise<Assessment | undefined>;
  /**
   * Replaces the assessment if its stored version is still `expectedVersion`, in one conditional
   * write that also carries `event` as pending (the outbox). false when the version changed.
   */
  update(next: Assessment, expectedVersion: number, event?: QueuedEvent): Promise<boolean>;
  /** Marks a pending event as sent (no-op when it was already cleared). */
  clearEvent(accountId: string, assessmentId: string, eventId: string): Promise<void>;
  /** Newest first; `cursor` is opaque (InvalidCursorError when it does not fit). */
  list(accountId: string, filter: AssessmentFilter, limit: number, cursor?: string): Promise<AssessmentPage>;
}
