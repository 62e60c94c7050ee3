import { createHash } from 'node:crypto';
import { PROBLEM_TYPES, type ProblemCode } from '../http/problem';
import { TIER_ORDER, type Tier } from '../routes/types';
import { API_SUMMARY, ERROR_GUIDANCE, hourlyLimitText, TIER_ACCESS, TIER_NAMES } from './api-guide';
import type { OpenApiDocument } from './document';
import { PAGE_SCRIPT, PAGE_STYLE } from './html-assets';

/**
 * The HTML reference served at `/docs`, rendered from the OpenAPI document. Self-contained: the
 * style and the filter script are inline and the Content-Security-Policy allows nothing else.
 */
export interface ReferencePage {
  html: string;
  contentSecurityPolicy: string;
}

type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
/** Nested fields listed in a table before the rest is summarised by type. */
const MAX_FIELD_DEPTH = 4;

export function renderReferencePage(document: OpenApiDocument): ReferencePage {
  const doc = document as Json;
  const operations = operationsByTag(doc);
  const tags: Json[] = doc.tags ?? [];
  const body = [
    header(doc),
    nav(tags, operations),
    '<main>',
    overview(doc),
    tiers(doc),
    ...tags.map((tag) => tagSection(doc, tag, operations.get(tag.name) ?? [])),
    errors(),
    webhooks(doc),
    '</main>',
  ].join('\n');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} ${esc(doc.info.version)} — API reference</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
${body}
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
  return {
    html,
    contentSecurityPolicy: [
      "default-src 'none'",
      `style-src '${sha256(PAGE_STYLE)}'`,
      `script-src '${sha256(PAGE_SCRIPT)}'`,
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  };
}

interface Operation {
  method: string;
  path: string;
  op: Json;
}

function operationsByTag(doc: Json): Map<string, Operation[]> {
  const byTag = new Map<string, Operation[]>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      for (const tag of op.tags ?? ['Other']) {
        const list = byTag.get(tag) ?? [];
        list.push({ method, path, op });
        byTag.set(tag, list);
      }
    }
  }
  return byTag;
}

function header(doc: Json): string {
  return `<header>
<h1>${esc(doc.info.title)}</h1>
<p class="meta">Version ${esc(doc.info.version)} · OpenAPI ${esc(doc.openapi)} · <a href="openapi.json">openapi.json</a></p>
<label class="filter">Filter operations <input id="filter" type="search" placeholder="method, path or word" autocomplete="off"></label>
</header>`;
}

function nav(tags: Json[], operations: Map<string, Operation[]>): string {
  const items = [
    link('overview', 'Overview'),
    link('tiers', 'Tiers and limits'),
    ...tags.map((tag) => `${link(`tag-${slug(tag.name)}`, tag.name)} <span class="count">${(operations.get(tag.name) ?? []).length}</span>`),
    link('errors', 'Errors'),
    link('webhooks', 'Webhook events'),
  ];
  return `<nav><ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul></nav>`;
}

function overview(doc: Json): string {
  const scheme = Object.values<Json>(doc.components?.securitySchemes ?? {})[0];
  const servers = (doc.servers ?? []).map((s: Json) => `<code>${esc(s.url)}</code>`).join(', ');
  return `<section id="overview">
<h2>Overview</h2>
<p>${inline(API_SUMMARY)}</p>
<p>Base URL: ${servers}. JSON in and out (<code>application/json; charset=utf-8</code>); file uploads are <code>multipart/form-data</code>. Field names are snake_case.</p>
<h3>Authentication</h3>
<p>Send your API key in the <code>${esc(scheme?.name ?? 'X-API-Key')}</code> header. ${inline(scheme?.description ?? '')} Operations marked <em>no key</em> are public.</p>
<h3>Conventions</h3>
<p>Lists page with <code>limit</code> and an opaque <code>cursor</code> and answer <code>{data, next_cursor}</code> (the resource library keeps <code>limit</code>/<code>offset</code>). Creates honour <code>Idempotency-Key</code>; updates honour <code>If-Match</code> and answer 409 when the record changed. Every response carries <code>X-Request-Id</code>.</p>
</section>`;
}

function tiers(doc: Json): string {
  const minTiers = Object.values<Json>(doc.paths ?? {}).flatMap((item) => METHODS.map((m) => item[m]).filter(Boolean))
    .filter((op: Json) => (op.security ?? []).length > 0)
    .map((op: Json) => op['x-min-tier'] as Tier);
  const rows = TIER_ORDER.map((tier) => {
    const callable = minTiers.filter((min) => TIER_ORDER.indexOf(min) <= TIER_ORDER.indexOf(tier)).length;
    return `<tr><th scope="row">${TIER_NAMES[tier]}</th><td>${esc(hourlyLimitText(tier))}</td><td>${callable} of ${minTiers.length}</td><td>${inline(TIER_ACCESS[tier])}</td></tr>`;
  });
  return `<section id="tiers">
<h2>Tiers and limits</h2>
<p>Requests are counted per API key per clock hour (UTC). Counted responses carry <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code> (seconds until the window resets); they are absent for unlimited keys. Over the limit the answer is 429 ${inline('`rate_limit_exceeded`')} with <code>Retry-After</code>.</p>
<table><thead><tr><th>Tier</th><th>Requests</th><th>Keyed operations</th><th>Access</th></tr></thead><tbody>${rows.join('')}</tbody></table>
</section>`;
}

function tagSection(doc: Json, tag: Json, operations: Operation[]): string {
  return `<section id="tag-${slug(tag.name)}" class="tag">
<h2>${esc(tag.name)}</h2>
${tag.description ? `<p>${inline(tag.description)}</p>` : ''}
${operations.map((operation) => operationArticle(doc, operation)).join('\n')}
</section>`;
}

function operationArticle(doc: Json, { method, path, op }: Operation): string {
  const keyed = (op.security ?? []).length > 0;
  const search = [method, path, op.operationId, op.summary, ...(op.tags ?? [])].join(' ').toLowerCase();
  const access = keyed ? `min tier <strong>${esc(op['x-min-tier'])}</strong> · <code>X-API-Key</code>` : 'no key';
  return `<article class="op" id="op-${esc(op.operationId)}" data-search="${esc(search)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${esc(path)}</code></h3>
<p class="summary">${inline(op.summary ?? '')} <span class="access">${access}</span> <span class="opid">${esc(op.operationId)}</span></p>
${paragraphs(op.description)}
${parametersTable(doc, op.parameters ?? [])}
${requestBody(doc, op.requestBody)}
${responsesTable(doc, op.responses ?? {})}
</article>`;
}

function parametersTable(doc: Json, parameters: Json[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters.map((raw) => {
    const p = resolve(doc, raw);
    return `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${typeOf(doc, p.schema)}</td><td>${p.required ? 'yes' : ''}</td><td>${inline(p.description ?? p.schema?.description ?? '')}${defaultNote(p.schema)}</td></tr>`;
  });
  return `<h4>Parameters</h4>
<table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function requestBody(doc: Json, body: Json | undefined): string {
  if (!body) return '';
  const resolved = resolve(doc, body);
  return `<h4>Request body</h4>
${Object.entries<Json>(resolved.content ?? {}).map(([type, media]) => `<p><code>${esc(type)}</code>${resolved.required ? ', required' : ''}: ${typeOf(doc, media.schema)}</p>${fieldsTable(doc, media.schema)}`).join('\n')}`;
}

function responsesTable(doc: Json, responses: Json): string {
  const rows = Object.entries<Json>(responses).map(([status, raw]) => {
    const response = resolve(doc, raw);
    const content = Object.entries<Json>(response.content ?? {})
      .map(([type, media]) => `<code>${esc(type)}</code> ${typeOf(doc, media.schema)}`).join('<br>');
    return `<tr><td>${esc(status)}</td><td>${inline(response.description ?? '')}</td><td>${content}</td></tr>`;
  });
  return `<h4>Responses</h4>
<table><thead><tr><th>Status</th><th>Description</th><th>Content</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function fieldsTable(doc: Json, schema: Json | undefined): string {
  const rows = fieldRows(doc, schema, '', 0, new Set());
  if (rows.length === 0) return '';
  return `<table class="fields"><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function fieldRows(doc: Json, raw: Json | undefined, prefix: string, depth: number, seen: Set<string>): string[] {
  if (!raw || depth >= MAX_FIELD_DEPTH) return [];
  if (raw.$ref) {
    if (seen.has(raw.$ref)) return [];
    return fieldRows(doc, resolve(doc, raw), prefix, depth, new Set([...seen, raw.$ref]));
  }
  if (raw.type === 'array' || (Array.isArray(raw.type) && raw.type.includes('array'))) {
    return fieldRows(doc, raw.items, `${prefix}[]`, depth, seen);
  }
  const required = new Set<string>(raw.required ?? []);
  return Object.entries<Json>(raw.properties ?? {}).flatMap(([name, property]) => {
    const field = prefix ? `${prefix}.${name}` : name;
    const described = property.$ref ? { ...resolve(doc, property), description: property.description ?? resolve(doc, property).description } : property;
    return [
      `<tr><td><code>${esc(field)}</code></td><td>${typeOf(doc, property)}</td><td>${required.has(name) ? 'yes' : ''}</td><td>${inline(described.description ?? '')}${defaultNote(described)}</td></tr>`,
      ...fieldRows(doc, property, field, depth + 1, seen),
    ];
  });
}

function typeOf(doc: Json, schema: Json | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return `<span class="type">${esc(refName(schema.$ref))}</span>`;
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) return variants.map((variant: Json) => typeOf(doc, variant)).join(' | ');
  if (schema.const !== undefined) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v: unknown) => `<code>${esc(String(v))}</code>`).join(', ')}`;
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const label = types.map((type) => {
    if (type === 'array') return `array of ${typeOf(doc, schema.items) || 'any'}`;
    if (type === 'object' && !schema.properties && schema.additionalProperties) return 'object (map)';
    return esc(type);
  }).join(' | ') || 'any';
  const format = schema.format ? ` <span class="format">${esc(schema.format)}</span>` : '';
  return `<span class="type">${label}</span>${format}${limits(schema)}`;
}

function limits(schema: Json): string {
  const parts: string[] = [];
  const range = (low: unknown, high: unknown, unit: string) => {
    if (low !== undefined && high !== undefined) parts.push(`${low}–${high}${unit}`);
    else if (high !== undefined) parts.push(`≤ ${high}${unit}`);
    else if (low !== undefined) parts.push(`≥ ${low}${unit}`);
  };
  if (Math.abs(Number(schema.maximum)) < Number.MAX_SAFE_INTEGER) range(schema.minimum, schema.maximum, '');
  if (schema.maxLength !== undefined && schema.maxLength < 6 * 1024 * 1024) range(schema.minLength, schema.maxLength, ' chars');
  if (schema.maxItems !== undefined && schema.maxItems < 6 * 1024 * 1024) range(schema.minItems, schema.maxItems, ' items');
  if (schema.pattern) parts.push(`pattern <code>${esc(schema.pattern)}</code>`);
  return parts.length > 0 ? ` <span class="limits">${parts.join(', ')}</span>` : '';
}

function defaultNote(schema: Json | undefined): string {
  return schema && schema.default !== undefined ? ` Default <code>${esc(JSON.stringify(schema.default))}</code>.` : '';
}

function errors(): string {
  const rows = (Object.keys(PROBLEM_TYPES) as ProblemCode[]).map((code) => `<tr id="error-${code}"><td><code>${code}</code></td><td>${PROBLEM_TYPES[code].status}</td><td>${esc(PROBLEM_TYPES[code].title)}</td><td>${inline(ERROR_GUIDANCE[code])}</td></tr>`);
  return `<section id="errors">
<h2>Errors</h2>
<p>Every error is an RFC 9457 <code>application/problem+json</code> body with <code>type</code> (a link to the entry below), <code>title</code>, <code>status</code>, <code>detail</code>, <code>instance</code> (the request id) and a stable <code>code</code>; invalid input adds <code>errors: [{field, in, message}]</code>. Nothing internal (stack traces, AWS errors) is ever returned.</p>
<table><thead><tr><th>Code</th><th>Status</th><th>Title</th><th>Meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>
</section>`;
}

function webhooks(doc: Json): string {
  const events = Object.entries<Json>(doc.webhooks ?? {}).map(([name, item]) => {
    const op = item.post ?? {};
    const body = op.requestBody ? resolve(doc, op.requestBody).content?.['application/json']?.schema : undefined;
    return `<article class="op" id="webhook-${esc(name)}" data-search="${esc(`webhook ${name} ${op.summary ?? ''}`.toLowerCase())}">
<h3><span class="method post">POST</span> <code class="path">${esc(name)}</code></h3>
<p class="summary">${inline(op.summary ?? '')}</p>
${paragraphs(op.description)}
${parametersTable(doc, op.parameters ?? [])}
<h4>Body</h4>${fieldsTable(doc, body)}
${responsesTable(doc, op.responses ?? {})}
</article>`;
  });
  return `<section id="webhooks" class="tag">
<h2>Webhook events</h2>
<p>Events the API sends to the endpoints subscribed with <code>POST /account/webhooks</code>, following Standard Webhooks.</p>
${events.join('\n')}
</section>`;
}

function resolve(doc: Json, value: Json): Json {
  let current = value;
  for (let hops = 0; current?.$ref && hops < 10; hops += 1) {
    current = String(current.$ref).replace(/^#\//, '').split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<Json | undefined>((node, key) => node?.[key], doc) ?? {};
  }
  return current ?? {};
}

function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

function link(id: string, text: string): string {
  return `<a href="#${esc(id)}">${esc(text)}</a>`;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

function paragraphs(text: string | undefined): string {
  if (!text) return '';
  return text.split(/\n{2,}/).map((part) => `<p>${inline(part)}</p>`).join('\n');
}

/** Escapes, then renders the `code` spans the descriptions use; problem codes link to their entry. */
function inline(text: string): string {
  return esc(text).replace(/`([^`]+)`/g, (_, code: string) => (code in PROBLEM_TYPES ? `<a href="#error-${code}"><code>${code}</code></a>` : `<code>${code}</code>`));
}

export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
