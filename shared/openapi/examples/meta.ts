import type { OperationExample } from './types';

/** Health and documentation. */
export const metaExamples: OperationExample[] = [
  { operationId: 'getHealth', response: { status: 200, body: { status: 'ok', version: '0.1.0' } } },
  {
    operationId: 'getOpenApi',
    response: {
      status: 200,
      body: {
        openapi: '3.1.0',
        info: {
          title: 'Vulnerability Assessment Compliance API',
          version: '0.1.0',
          description: 'Compliance support for vulnerability assessments under Florida Statutes s. 380.093 (Resilient Florida): the resource library, assessments and their DEP checklist, critical assets, sea level rise and flood hazards, grant eligibility and deadlines, and webhooks.\n\n## Authentication\nSend your API key in…',
          contact: { name: 'API support', url: 'https://floridadep.gov/rcp/resilient-florida-program' },
          license: { name: 'MIT', identifier: 'MIT' },
        },
        servers: [
          {
            url: '/api',
            description: 'This deployment: production on AWS API Gateway (stage `api`), or local with `npm start`.',
            'x-internal': false,
          },
        ],
        tags: [{ name: 'Meta', description: 'Health check and this documentation. No key needed.' }],
        paths: {},
        webhooks: {},
        components: {},
      },
    },
  },
  { operationId: 'getDocs', response: { status: 200, body: '<!doctype html>…' } },
  { operationId: 'getDocsAsset', request: { params: { file: 'docs.js' } }, response: { status: 200, body: 'window.addEventListener(\'load\', function () {…' } },
  { operationId: 'getConsole', response: { status: 200, body: '<!doctype html>…' } },
  { operationId: 'getConsoleFile', request: { params: { file: 'main.css' } }, response: { status: 200, body: ':root{font-family:system-ui,sans-serif;color:#1b1b1b;…' } },
];
