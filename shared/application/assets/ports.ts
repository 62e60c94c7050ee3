import type { Readable } from 'node:stream';
import type { AssessmentStore } from '../../domain/assessments/ports';
import type { AssetStore, ImportStore } from '../../domain/assets/ports';
import type { EvidenceStore } from '../../domain/deliverables/ports';
import type { OfficialBoundaryStore } from '../../domain/jurisdiction-boundaries';
import type { BlobStore } from '../../ports';

/** An uploaded import file, read as a stream. */
export interface UploadReader {
  open(key: string): Promise<Readable>;
}

/** Everything the asset use cases (routes and import worker alike) reach outside the domain. */
export interface AssetDeps {
  assets: AssetStore;
  imports: ImportStore;
  blobs: BlobStore;
  uploads: UploadReader;
  /** `assessment_id` on an import: the assessment it links to, and the link as evidence. */
  assessments: Pick<AssessmentStore, 'get'>;
  evidence: Pick<EvidenceStore, 'linkImport'>;
  /** Accounts' official jurisdiction boundaries: they win over the Census ones in import checks. */
  boundaries: OfficialBoundaryStore;
  signedUrlSeconds: number;
}
