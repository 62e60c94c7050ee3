import { createHash } from 'node:crypto';
import { buildSubmissionPackage, manifestKey } from '../../shared/domain/assessments/submission';
import { complianceOf } from '../../shared/domain/assessments/model';
import { canonicalJson } from '../../shared/domain/content-hash';
import type { Methodology } from '../../shared/schemas/compliance';
import { compliantMethodology, storedAssessment } from '../helpers/assessment-fixtures';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const assessment = storedAssessment({
  assessment_id: 'va_01JTEST',
  status: 'complete',
  phase: 'final_report',
  completion_percentage: 100,
  methodology: compliantMethodology('2024', 2025) as Methodology,
  version: 9,
  updated_at: '2025-09-01T00:00:00.000Z',
  completed_at: '2025-09-01T00:00:00.000Z',
});

const input = {
  certification: { certifier_name: 'Ana Lopez', certifier_title: 'Resilience Officer', accepted: true as const },
  final_report_url: 'https://example.org/va/report.pdf',
  gis_data_url: 'https://example.org/va/gis.zip',
};

describe('submission package', () => {
  const pkg = buildSubmissionPackage(assessment, complianceOf(assessment), input, 'sub_1', '2025-09-02T08:00:00.000Z');
  const manifest = JSON.parse(pkg.content);

  it('holds the snapshot, checklist, URLs, certification and timestamps, without the owner', () => {
    expect(manifest).toMatchObject({
      submission_id: 'sub_1',
      assessment_id: 'va_01JTEST',
      submitted_at: '2025-09-02T08:00:00.000Z',
      certification: { certifier_name: 'Ana Lopez', accepted: true, certified_at: '2025-09-02T08:00:00.000Z' },
      deliverables: { final_report_url: input.final_report_url, gis_data_url: input.gis_data_url },
      checklist: { rule_set: '2024', compliant: true },
    });
    expect(manifest.assessment.account_id).toBeUndefined();
    expect(manifest.assessment.version).toBe(9);
  });

  it('hashes its parts and itself with sha256', () => {
    expect(pkg.sha256).toBe(sha256(pkg.content));
    expect(manifest.content_hashes.assessment_sha256).toBe(sha256(canonicalJson(manifest.assessment)));
    expect(manifest.content_hashes.checklist_sha256).toBe(sha256(canonicalJson(manifest.checklist)));
  });

  it('derives the receipt VA-<county FIPS>-<year>-<hash>', () => {
    expect(pkg.receipt).toBe(`VA-12087-2025-${pkg.sha256.slice(0, 8).toUpperCase()}`);
    const again = buildSubmissionPackage(assessment, complianceOf(assessment), input, 'sub_1', '2025-09-02T08:00:00.000Z');
    expect(again.receipt).toBe(pkg.receipt);
  });

  it('is stored under submissions/<account>/<assessment>/<submission>.json', () => {
    expect(manifestKey('acct_1', 'va_01JTEST', 'sub_1')).toBe('submissions/acct_1/va_01JTEST/sub_1.json');
  });

  it('serialises keys in one order whatever the input order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
  });
});
