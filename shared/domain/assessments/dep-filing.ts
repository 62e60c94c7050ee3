import { floridaDate } from '../florida-time';

/**
 * This service does not transmit anything to DEP. After `submit` freezes the assessment, the
 * county files the deliverables with DEP itself and may record DEP's own confirmation here.
 */
export const RESILIENT_FLORIDA_PROGRAM_URL = 'https://floridadep.gov/rcp/resilient-florida-program';

export const NOT_TRANSMITTED_NOTE = 'This service does not transmit anything to DEP. The assessment is frozen and its submission package recorded here; filing with DEP is done by the county on DEP\'s portal.';

/** The filing steps, naming this assessment's own URLs. */
export function howToFile(assessmentId: string): string[] {
  return [
    `Download the deliverables named in the submission package (the report of findings, the GIS data with metadata and the prioritized asset list; POST /assessments/${assessmentId}/deliverables generates them) and check each file against the sha256 in the package.`,
    `Sign in to DEP's Resilient Florida grant portal (program page: ${RESILIENT_FLORIDA_PROGRAM_URL}) with the account of your grant agreement and open the agreement the vulnerability assessment is a deliverable of.`,
    'Upload the report, the GIS data and the prioritized list as the agreement\'s vulnerability assessment deliverables, as DEP\'s instructions for the agreement require, and submit them there.',
    'Keep the confirmation DEP gives on receipt (its number and date).',
    `Record it here with POST /assessments/${assessmentId}/dep-confirmation {"confirmation_number", "received_on"}; until then dep_confirmation.status stays "not_transmitted".`,
  ];
}

/** DEP's own confirmation of a filing, as the county recorded it. */
export interface DepFilingRecord {
  confirmation_number: string;
  received_on: string;
  recorded_at: string;
}

/** What the confirmation check reads of an assessment. */
interface FiledAssessment {
  status: string;
  submitted_at?: string;
  submission?: { dep_filing?: DepFilingRecord };
}

export interface DepConfirmationView {
  status: 'not_transmitted' | 'recorded';
  confirmation_number: string | null;
  received_on: string | null;
  recorded_at: string | null;
  note: string;
  how_to_file: string[];
}

export function depConfirmationOf(assessmentId: string, record: DepFilingRecord | undefined): DepConfirmationView {
  if (!record) {
    return { status: 'not_transmitted', confirmation_number: null, received_on: null, recorded_at: null, note: NOT_TRANSMITTED_NOTE, how_to_file: howToFile(assessmentId) };
  }
  return {
    status: 'recorded',
    confirmation_number: record.confirmation_number,
    received_on: record.received_on,
    recorded_at: record.recorded_at,
    note: 'DEP\'s own confirmation, as recorded by the county. This service did not transmit the filing.',
    how_to_file: howToFile(assessmentId),
  };
}

/** Why DEP's confirmation cannot be recorded on this assessment (409), or undefined when it can. */
export function depConfirmationProblem(assessment: FiledAssessment, input: { confirmation_number: string; received_on: string }, today: Date): { field: string; message: string } | undefined {
  if (assessment.status !== 'submitted' || !assessment.submission) {
    return { field: 'status', message: `Only a submitted assessment can record DEP's confirmation; this one is ${assessment.status}.` };
  }
  const recorded = assessment.submission.dep_filing;
  if (recorded && (recorded.confirmation_number !== input.confirmation_number || recorded.received_on !== input.received_on)) {
    return { field: 'confirmation_number', message: `DEP's confirmation ${recorded.confirmation_number} (received ${recorded.received_on}) is already recorded.` };
  }
  const submittedOn = floridaDate(new Date(assessment.submitted_at!));
  if (input.received_on < submittedOn) return { field: 'received_on', message: `received_on ${input.received_on} is before the submission on ${submittedOn}.` };
  const latest = floridaDate(today);
  if (input.received_on > latest) return { field: 'received_on', message: `received_on ${input.received_on} is in the future.` };
  return undefined;
}
