import type { AssessmentPhase, AssessmentStatus, AssessmentSummary, AssessmentType, AssessmentView } from '../../schemas/assessments';
import type { Methodology, Scope, Timeline } from '../../schemas/compliance';
import { evaluateCompliance, type ComplianceEvaluation } from '../compliance/evaluate';
import { settingOf } from '../compliance/setting';
import type { ComplianceEvidence } from '../compliance/evidence';
import type { MethodologyProvenance } from '../compliance/prefill';
import { depConfirmationOf, type DepFilingRecord } from './dep-filing';

export type { DepFilingRecord };

/** The jurisdiction as resolved at creation (see `shared/domain/jurisdictions.ts`). */
export interface AssessmentJurisdiction {
  id: string;
  type: 'county' | 'municipality';
  display_name: string;
  county_fips: string;
}

export interface SubmissionRecord {
  submission_id: string;
  /** This API's receipt for the package (`VA-<county FIPS>-<year>-<hash>`); never DEP's number. */
  receipt: string;
  dep_filing?: DepFilingRecord;
  manifest_key: string;
  manifest_sha256: string;
  final_report_url: string;
  gis_data_url: string;
}

/** An assessment as stored: owned by one account, versioned for conditional updates. */
export interface Assessment {
  assessment_id: string;
  account_id: string;
  jurisdiction: AssessmentJurisdiction;
  type: AssessmentType;
  scope: Scope;
  scope_rationale?: string;
  timeline: Timeline;
  status: AssessmentStatus;
  phase: AssessmentPhase;
  completion_percentage: number;
  notes?: string;
  methodology: Methodology;
  /** Fields filled from evidence; absent on assessments stored before prefill existed. */
  methodology_provenance?: MethodologyProvenance;
  version: number;
  created_date: string;
  updated_at: string;
  completed_at?: string;
  submitted_at?: string;
  status_history: { status: AssessmentStatus; at: string }[];
  completion_adjustments: { at: string; from: number; to: number; reason: string }[];
  submission?: SubmissionRecord;
}

/** The checklist rule set is chosen by the date work on the assessment began; `evidence` cross-checks the methodology. */
export function complianceOf(assessment: Pick<Assessment, 'scope' | 'scope_rationale' | 'methodology' | 'timeline' | 'jurisdiction'>, evidence?: ComplianceEvidence): ComplianceEvaluation {
  return evaluateCompliance(assessment, assessment.timeline.start_date, settingOf(assessment.jurisdiction), evidence);
}

export function summaryOf(assessment: Assessment): AssessmentSummary {
  const { jurisdiction, submission, account_id: _owner, methodology: _m, methodology_provenance: _p, status_history: _h, completion_adjustments: _c, ...fields } = assessment;
  return {
    ...fields,
    jurisdiction: jurisdiction.display_name,
    jurisdiction_id: jurisdiction.id,
    jurisdiction_type: jurisdiction.type,
    county_fips: jurisdiction.county_fips,
    ...(submission ? { submission_id: submission.submission_id, receipt: submission.receipt, dep_confirmation: depConfirmationOf(assessment.assessment_id, submission.dep_filing) } : {}),
  };
}

export function viewOf(assessment: Assessment, evidence?: ComplianceEvidence): AssessmentView {
  return {
    ...summaryOf(assessment),
    methodology: assessment.methodology,
    methodology_provenance: assessment.methodology_provenance ?? {},
    status_history: assessment.status_history,
    completion_adjustments: assessment.completion_adjustments,
    dep_checklist_status: complianceOf(assessment, evidence).dep_checklist_status,
  };
}

/** Strong ETag of a version; `If-Match` accepts it, its weak form `W/"n"` or `*`. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

