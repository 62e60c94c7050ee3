import type { QueuedEvent } from '../../ports';
import { sha256Hex } from '../content-hash';
import type { Assessment } from './model';

/** Event id of an assessment's completion: the same on every relay attempt, so receivers can drop repeats. */
export function completionEventId(assessmentId: string): string {
  return `evt_${sha256Hex(`assessment_complete:${assessmentId}`).slice(0, 32)}`;
}

/** The `assessment_complete` event; it travels inside the write that completes the assessment. */
export function completionEvent(assessment: Assessment): QueuedEvent {
  const completedAt = assessment.completed_at ?? assessment.updated_at;
  return {
    event_id: completionEventId(assessment.assessment_id),
    account_id: assessment.account_id,
    type: 'assessment_complete',
    timestamp: completedAt,
    data: { assessment_id: assessment.assessment_id, jurisdiction: assessment.jurisdiction.display_name, completed_at: completedAt },
  };
}
