import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { decimalParam } from './common';
import { RESOURCE_CATEGORIES, RESOURCE_FILE_TYPES, URL_STATUSES } from '../domain/library/vocabulary';

export const RESOURCE_SORTS = ['title', '-title', 'published', '-published', 'category', '-category', 'publisher', '-publisher'] as const;

export const ResourceId = onFirstUse(() => z.string().regex(/^[a-z0-9][a-z0-9-]{2,99}$/, 'Resource ids are lower-case slugs').describe('Stable resource id (slug).'));

export const ResourceSchema = onFirstUse(() => z.object({
  id: ResourceId(),
  title: z.string().max(500),
  file_path: z.string().max(500).nullable().describe('Object key of the stored copy in the library bucket, when one is held; download it through `/resources/{id}/download`.'),
  category: z.enum(RESOURCE_CATEGORIES),
  file_type: z.enum(RESOURCE_FILE_TYPES),
  publisher: z.string().max(300),
  published: z.string().max(10).nullable().describe('YYYY, YYYY-MM or YYYY-MM-DD; null for living resources (portals, continuously updated data sets).'),
  url: z.url().max(1000).nullable().describe('The publisher\'s own copy or landing page (always https); null when no publisher copy has been confirmed (`url_status: "unconfirmed"`).'),
  url_status: z.enum(URL_STATUSES).describe('`confirmed`: `url` is the publisher\'s own copy. `unconfirmed`: no publisher copy has been confirmed, so none is linked (third-party copies are never handed out) and the download answers 404 unless the library holds a stored copy.'),
  summary: z.string().max(2000),
  tags: z.array(z.string().max(80)).max(30),
  evidence: z.string().max(2000).nullable().describe('Where the title, publisher, year and URL were confirmed.'),
  notes: z.string().max(2000).nullable(),
  views: z.number().int().min(0),
  downloads: z.number().int().min(0),
}).openapi('Resource'));

export type Resource = z.infer<ReturnType<typeof ResourceSchema>>;

export const ResourceListSchema = onFirstUse(() => z.object({
  data: z.array(ResourceSchema()).max(100),
  total: z.number().int().min(0),
  limit: z.number().int(),
  offset: z.number().int(),
}).openapi('ResourceList'));

export const ResourceSearchSchema = onFirstUse(() => z.object({
  data: z.array(ResourceSchema().extend({ score: z.number().describe('Relevance; higher is better.') })).max(100),
  total: z.number().int().min(0),
  query: z.string().max(200),
}).openapi('ResourceSearchResult'));

export const LibraryStatsSchema = onFirstUse(() => z.object({
  total_resources: z.number().int().min(0),
  total_downloads: z.number().int().min(0),
  total_views: z.number().int().min(0),
  categories: z.record(z.string(), z.number().int().min(0)),
}).openapi('LibraryStats'));

export const ResourcesQuery = onFirstUse(() => z.object({
  action: z.enum(['list', 'get', 'search', 'stats']).default('list'),
  id: ResourceId().optional().describe('With `action=get`.'),
  q: z.string().trim().min(1).max(200).optional().describe('With `action=search`: words to find in title, summary and tags.'),
  category: z.enum(RESOURCE_CATEGORIES).optional(),
  file_type: z.enum(RESOURCE_FILE_TYPES).optional(),
  limit: decimalParam(z.number().int().min(1).max(100)).default(20),
  offset: decimalParam(z.number().int().min(0).max(10000)).default(0),
  sort: z.enum(RESOURCE_SORTS).default('title').describe('Field to sort by; a leading `-` sorts descending.'),
}).superRefine((q, ctx) => {
  // `undefined` only: a present but invalid value already has its own error.
  if (q.action === 'get' && q.id === undefined) ctx.addIssue({ code: 'custom', path: ['id'], message: 'Required with action=get' });
  if (q.action === 'search' && q.q === undefined) ctx.addIssue({ code: 'custom', path: ['q'], message: 'Required with action=search' });
}));

export const ResourceIdParams = onFirstUse(() => z.object({ id: ResourceId() }));

const PublishedDate = onFirstUse(() => z.string().regex(/^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/, 'Use YYYY, YYYY-MM or YYYY-MM-DD'));

/**
 * One catalogue entry as operators write it (the seed file and `npm run library:load`): the
 * resource without its counters. `id` defaults to a slug of the title; `file` is a local file to
 * upload as the stored copy, relative to the catalogue file. Unknown fields are rejected so a
 * misspelt field is reported instead of silently dropped.
 */
export const CatalogueEntryInput = onFirstUse(() => z.strictObject({
  id: ResourceId().optional(),
  title: z.string().trim().min(1).max(500),
  publisher: z.string().trim().min(1).max(300),
  published: PublishedDate().nullable().default(null),
  url: z.url({ protocol: /^https$/, error: 'Use the publisher\'s https address, or null when none is confirmed' }).max(1000).nullable(),
  /** A third-party copy, kept in the catalogue for reference only: never stored, served or linked. */
  mirror_url: z.string().max(1000).optional(),
  category: z.enum(RESOURCE_CATEGORIES),
  file_type: z.enum(RESOURCE_FILE_TYPES),
  summary: z.string().trim().min(1).max(2000),
  tags: z.array(z.string().trim().min(1).max(80)).max(30).default([]),
  evidence: z.string().trim().max(2000).nullable().default(null),
  notes: z.string().trim().max(2000).nullable().default(null),
  file: z.string().min(1).max(1000).optional(),
}));
