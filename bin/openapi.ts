/**
 * Writes `openapi.json` from the route table (`npm run openapi`), or with `--check` fails when the
 * committed file differs from what the route table generates (`npm run openapi:check`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../shared/openapi/document';
import { describeDrift } from '../shared/openapi/drift';
import { unrecordedExamples } from '../shared/openapi/examples';

const target = path.resolve(__dirname, '..', 'openapi.json');
const unrecorded = unrecordedExamples();
if (unrecorded.length > 0) {
  console.error(`No recorded answer for ${unrecorded.join(', ')}: run \`npm run examples:record\` first.`);
  process.exit(1);
}
const generated = serializeOpenApiDocument(buildOpenApiDocument());

if (process.argv.includes('--check')) {
  let committed: string | undefined;
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // A missing file is drift like any other.
  }
  const drift = describeDrift(committed, generated);
  if (drift) {
    console.error(drift);
    process.exit(1);
  }
  console.log('openapi.json matches the route table.');
} else {
  writeFileSync(target, generated);
  console.log(`Wrote ${path.relative(process.cwd(), target) || 'openapi.json'} (${generated.length} bytes).`);
}
