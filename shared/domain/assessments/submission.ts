import type { Submission, SubmitAssessmentInput } from '../../schemas/assessments';
import { canonicalJson, sha256Hex } from '../content-hash';
import type { ComplianceEvaluation } from '../compliance/evaluate';
import { depConfirmationOf, NOT_TRANSMITTED_NOTE } from './dep-filing';
import type { Assessment } from './model';

export const MANIFEST_FORMAT = 'va-submission-manifest/1';

/** Where a submission package is stored: one JSON manifest per submission. */
export function manifestKey(accountId: string, assessmentId: string, submissionId: string): string {
  return `submissions/${accountId}/${assessmentId}/${submissionId}.json`;
}

export interface SubmissionPackage {
  /** The manifest as stored (canonical JSON). */
  content: string;
  sha256: string;
  /** This API's receipt, derived from the manifest. */
  receipt: string;
}

/**
 * The submission package: the assessment as submitted, its checklist result, the deliverable URLs
 * and the certification, with sha256 hashes of the snapshot and checklist so the package can be
 * checked later. The receipt (`VA-<county FIPS>-<year>-<hash>`) is this API's, derived from the
 * manifest; nothing is sent to DEP, so the package says so.
 */
export function buildSubmissionPackage(
  assessment: Assessment,
  compliance: ComplianceEvaluation,
  input: SubmitAssessmentInput,
  submissionId: string,
  submittedAt: string,
): SubmissionPackage {
  const { account_id: _owner, ...snapshot } = assessment;
  const checklist = compliance.dep_checklist_status;
  const manifest = {
    format: MANIFEST_FORMAT,
    submission_id: submissionId,
    assessment_id: assessment.assessment_id,
    jurisdiction: assessment.jurisdiction,
    submitted_at: submittedAt,
    certification: { ...input.certification, certified_at: submittedAt },
    deliverables: {
      final_report_url: input.final_report_url,
      final_report_sha256: input.final_report_sha256 ?? null,
      gis_data_url: input.gis_data_url,
      gis_data_sha256: input.gis_data_sha256 ?? null,
    },
    assessment: snapshot,
    checklist,
    content_hashes: {
      assessment_sha256: sha256Hex(canonicalJson(snapshot)),
      checklist_sha256: sha256Hex(canonicalJson(checklist)),
    },
    notice: `Submission package recorded by the Vulnerability Assessment Compliance API. ${NOT_TRANSMITTED_NOTE} The checklist is derived from s. 380.093; not DEP's form.`,
  };
  const content = canonicalJson(manifest);
  const sha256 = sha256Hex(content);
  const year = submittedAt.slice(0, 4);
  return { content, sha256, receipt: `VA-${assessment.jurisdiction.county_fips}-${year}-${sha256.slice(0, 8).toUpperCase()}` };
}

/** The assessment after a successful submission. */
export function markSubmitted(assessment: Assessment, record: Assessment['submission'] & object, submittedAt: string): Assessment {
  return {
    ...assessment,
    status: 'submitted',
    status_history: [...assessment.status_history, { status: 'submitted', at: submittedAt }],
    submitted_at: submittedAt,
    updated_at: submittedAt,
    version: assessment.version + 1,
    submission: record,
  };
}

/** The submission as the submit and dep-confirmation routes answer it. */
export function submissionOf(assessment: Assessment): Submission {
  const record = assessment.submission!;
  return {
    submission_id: record.submission_id,
    assessment_id: assessment.assessment_id,
    status: 'submitted',
    submitted_at: assessment.submitted_at!,
    receipt: record.receipt,
    manifest_sha256: record.manifest_sha256,
    dep_confirmation: depConfirmationOf(assessment.assessment_id, record.dep_filing),
  };
}
