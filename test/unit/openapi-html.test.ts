import { buildOpenApiDocument } from '../../shared/openapi/document';
import { renderReferencePage } from '../../shared/openapi/html';
import { ROUTES } from '../../shared/routes';
import { PROBLEM_TYPES } from '../../shared/http/problem';
import { KEYED_ERRORS } from '../../shared/routes/responses';
import { defineRoute } from '../../shared/routes/types';
import { z } from '../../shared/schemas/zod';
import { createHash } from 'node:crypto';

const page = renderReferencePage(buildOpenApiDocument());

describe('HTML reference page', () => {
  it('renders every route with its method and path', () => {
    for (const route of ROUTES) {
      expect(page.html).toContain(`id="op-${route.id}"`);
      expect(page.html).toContain(`<span class="method ${route.method.toLowerCase()}">${route.method}</span> <code class="path">${route.path}</code>`);
    }
  });

  it('has an anchor for every problem code, matching the problem type URIs', () => {
    for (const code of Object.keys(PROBLEM_TYPES)) expect(page.html).toContain(`id="error-${code}"`);
  });

  it('shows the tier table and the webhook events', () => {
    expect(page.html).toMatch(/<th scope="row">Free<\/th><td>25 per hour<\/td>/);
    expect(page.html).toMatch(/<th scope="row">Pro<\/th><td>5,000 per hour<\/td>/);
    expect(page.html).toMatch(/<th scope="row">Enterprise<\/th><td>unlimited<\/td>/);
    expect(page.html).toContain('id="webhook-assessment_complete"');
    expect(page.html).toContain('id="webhook-deadline_reminder"');
    expect(page.html).toContain('webhook-signature');
  });

  it('loads nothing from elsewhere: no external scripts, styles, fonts or images', () => {
    expect(page.html).not.toMatch(/<(script|link|img|iframe)[^>]*\s(src|href)=/i);
    expect(page.html).not.toMatch(/url\(/i);
    expect(page.html).not.toMatch(/@import/i);
  });

  it('allows exactly its own inline style and script in the Content-Security-Policy', () => {
    const hash = (tag: string) => {
      const body = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(page.html)![1]!;
      return `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
    };
    expect(page.contentSecurityPolicy).toContain("default-src 'none'");
    expect(page.contentSecurityPolicy).toContain(`style-src ${hash('style')}`);
    expect(page.contentSecurityPolicy).toContain(`script-src ${hash('script')}`);
  });

  it('escapes text from the route table', () => {
    const hostile = defineRoute({
      id: 'hostileRoute', method: 'POST', path: '/hostile', group: 'docs', auth: 'api_key', minTier: 'pro', tags: ['<Tag>'],
      summary: '<img src=x onerror=alert(1)>', description: 'Say "hi" & `<b>`',
      request: { body: z.object({ '<field>': z.string().max(5).describe('</td><script>alert(2)</script>') }) },
      responses: { 200: { description: '<i>ok</i>', schema: z.object({}).strict() }, ...KEYED_ERRORS },
    });
    const html = renderReferencePage(buildOpenApiDocument([hostile])).html;
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>alert(2)');
    expect(html).not.toContain('<i>ok</i>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Say &quot;hi&quot; &amp; <code>&lt;b&gt;</code>');
    expect(html).toContain('<code>&lt;field&gt;</code>');
    expect(html).toContain('&lt;Tag&gt;');
  });
});
