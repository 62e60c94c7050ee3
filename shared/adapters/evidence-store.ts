import { PutCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { queryAll } from './query-all';
import { DynamoAssetStore, listAccountAssets } from './asset-store';
import { DynamoAssessmentStore } from './assessment-store';
import { DynamoImportStore } from './import-store';
import { S3BlobStore } from './s3-blob-store';
import { requiredSetting } from '../config';
import type { AnalysisEvidence, AssetCounter, EvidenceStore, ImportEvidence, JurisdictionAssetCounts } from '../domain/deliverables/ports';
import type { AnalysisLinkDeps } from '../domain/deliverables/analysis-link';

/**
 * Evidence linked to an assessment, in its account's partition: sk
 * `EVIDENCE#<assessment id>#ANALYSIS#<analysis id>` and `EVIDENCE#<assessment id>#IMPORT#<import id>`
 * (outside the `ASSESSMENT#` range the assessment list reads), so one Query lists an assessment's
 * evidence of each kind. An import link holds only the id: the import's own record says how it stands.
 */
const partition = (accountId: string) => `ACCOUNT#${accountId}`;
const prefix = (assessmentId: string) => `EVIDENCE#${assessmentId}#`;

export class DynamoEvidenceStore implements EvidenceStore {
  constructor(private readonly table = requiredSetting('TABLE_NAME'), private readonly imports = new DynamoImportStore(table)) {}

  async linkImport(accountId: string, assessmentId: string, importId: string): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.table,
      Item: { pk: partition(accountId), sk: `${prefix(assessmentId)}IMPORT#${importId}`, entity: 'import_evidence', import_id: importId },
    }));
  }

  async listImports(accountId: string, assessmentId: string): Promise<ImportEvidence[]> {
    const links = await queryAll({
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': partition(accountId), ':sk': `${prefix(assessmentId)}IMPORT#` },
    });
    const records = await Promise.all(links.map((link) => this.imports.get(accountId, link.import_id as string)));
    return records.flatMap((r) => (r ? [{ import_id: r.import_id, filename: r.filename, status: r.status, asset_count: r.report?.asset_count ?? null, created_at: r.created_at }] : []))
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async putAnalysis(accountId: string, evidence: AnalysisEvidence): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.table,
      Item: { pk: partition(accountId), sk: `${prefix(evidence.assessment_id)}ANALYSIS#${evidence.analysis_id}`, entity: 'analysis_evidence', evidence },
    }));
  }

  async listAnalyses(accountId: string, assessmentId: string): Promise<AnalysisEvidence[]> {
    const items = await queryAll({
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': partition(accountId), ':sk': `${prefix(assessmentId)}ANALYSIS#` },
    });
    return items.map((item) => item.evidence as AnalysisEvidence).sort((a, b) => a.analysed_at.localeCompare(b.analysed_at));
  }
}

/** Counts from the asset inventory's own jurisdiction index. */
export const inventoryAssetCounter: AssetCounter = {
  async countByCategory(accountId: string, jurisdictionId: string): Promise<JurisdictionAssetCounts> {
    const byCategory: Record<string, number> = {};
    let total = 0;
    for (const asset of await listAccountAssets(accountId, { jurisdictionId })) {
      byCategory[asset.category] = (byCategory[asset.category] ?? 0) + 1;
      total++;
    }
    return { total, by_category: byCategory };
  },
};

let linkDeps: AnalysisLinkDeps | undefined;

/** The stores a linked flood analysis writes to, created on first use. */
export function defaultAnalysisLinkDeps(): AnalysisLinkDeps {
  linkDeps ??= {
    assessments: new DynamoAssessmentStore(),
    evidence: new DynamoEvidenceStore(),
    blobs: new S3BlobStore(),
    assets: new DynamoAssetStore(),
    clock: () => new Date(),
  };
  return linkDeps;
}
