import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { DynamoResourceStore } from '../shared/adapters/resource-store';
import { S3BlobStore } from '../shared/adapters/s3-blob-store';
import { parseCatalogue, type CatalogueEntry, type ParsedEntry } from '../shared/domain/library/catalogue';
import { LIBRARY_KEY_PREFIX } from '../shared/domain/library/catalogue';
import { CliError, openOperatorStorage } from './operator-storage';

const USAGE = `Load resources into the library.

Usage: npm run library:load -- FILE.json [--dry-run]

FILE.json holds {"resources": [...]} or a bare array of entries:
  {id?, title, publisher, published (YYYY[-MM[-DD]] or null), url, category, file_type,
   summary, tags?, evidence?, notes?, file?}
An entry without an id gets a slug of its title. An entry with "file" (a path relative to
FILE.json) has that file uploaded as its stored copy, library/<id>.<extension>, which
GET /resources/{id}/download then serves through a short-lived signed link.

Entries are upserted: an existing resource keeps its views and downloads (and its stored
copy unless the entry brings a new file). Every entry is validated first; if any is invalid,
the errors are listed and nothing is written. The local app upserts the catalogue shipped in
shared/data/library/resources.json on every start, so change entries of that catalogue there.

--dry-run  validate only (files included), write nothing.

Where it writes:
  APP_MODE=aws      the table and bucket named by TABLE_NAME and BUCKET_NAME, with the usual AWS
                    credentials and AWS_REGION.
  unset or local    the local app's data directory, DATA_DIR (default .data): the command starts
                    the emulators on that directory itself, loads, and stops them. The local
                    database can be opened by one process at a time, so stop \`npm start\` first
                    (the command says so if the directory is in use); the server shows the new
                    resources when started again.
`;

/** Stored copies larger than this belong in a bucket upload of their own, not this command. */
const MAX_FILE_BYTES = 100 * 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
  geojson: 'application/geo+json',
  xml: 'application/xml',
  zip: 'application/zip',
};

interface Upload {
  key: string;
  body: Buffer;
  contentType: string;
}

async function main(args: string[]): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  const dryRun = args.includes('--dry-run');
  const files = args.filter((arg) => !arg.startsWith('--'));
  const unknown = args.filter((arg) => arg.startsWith('--') && arg !== '--dry-run');
  if (files.length !== 1 || unknown.length > 0) throw new CliError(`Expected one catalogue file${unknown.length ? ` (unknown option ${unknown.join(', ')})` : ''}. See --help.`, 2);

  const catalogueFile = path.resolve(files[0]!);
  const { entries, uploads } = await readCatalogue(catalogueFile);
  if (dryRun) {
    process.stdout.write(`${catalogueFile}: ${entries.length} valid entries, ${uploads.length} files to upload. Nothing written (--dry-run).\n`);
    return;
  }

  const storage = await openOperatorStorage();
  try {
    const blobs = new S3BlobStore();
    for (const upload of uploads) await blobs.put(upload.key, upload.body, upload.contentType);
    await new DynamoResourceStore().upsert(entries);
    process.stdout.write(`Loaded ${entries.length} resources (${uploads.length} files uploaded) into ${storage.description}.\n`);
  } finally {
    await storage.close();
  }
}

/** Everything is read and checked before anything is written. */
async function readCatalogue(file: string): Promise<{ entries: CatalogueEntry[]; uploads: Upload[] }> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  const parsed = parseCatalogue(json);
  if (!parsed.ok) throw invalidCatalogue(parsed.errors.map((e) => `${e.field}: ${e.message}`));

  const problems: string[] = [];
  const entries: CatalogueEntry[] = [];
  const uploads: Upload[] = [];
  for (const [index, parsedEntry] of parsed.entries.entries()) {
    if (parsedEntry.file === undefined) {
      entries.push(parsedEntry.entry);
      continue;
    }
    const upload = await readUpload(path.dirname(file), parsedEntry).catch((error: Error) => {
      problems.push(`resources[${index}] ("${parsedEntry.entry.title}").file: ${error.message}`);
      return undefined;
    });
    if (!upload) continue;
    uploads.push(upload);
    entries.push({ ...parsedEntry.entry, file_path: upload.key });
  }
  if (problems.length > 0) throw invalidCatalogue(problems);
  return { entries, uploads };
}

async function readUpload(baseDir: string, { entry, file }: ParsedEntry): Promise<Upload> {
  const source = path.resolve(baseDir, file!);
  const info = await stat(source).catch(() => undefined);
  if (!info?.isFile()) throw new Error(`${source} is not a readable file`);
  if (info.size > MAX_FILE_BYTES) throw new Error(`${source} is ${info.size} bytes; the limit is ${MAX_FILE_BYTES}`);
  const extension = path.extname(source).slice(1).toLowerCase() || entry.file_type;
  return {
    key: `${LIBRARY_KEY_PREFIX}${entry.id}.${extension}`,
    body: await readFile(source),
    contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
  };
}

function invalidCatalogue(problems: string[]): CliError {
  return new CliError(`The catalogue has ${problems.length} error${problems.length > 1 ? 's' : ''}; nothing was written:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof CliError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(`Loading failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
