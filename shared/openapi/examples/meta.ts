import type { OperationExample } from './types';

/** Health and documentation. */
export const metaExamples: OperationExample[] = [
  { operationId: 'getHealth', response: { status: 200 } },
  // The document's paths and schemas would repeat the whole document inside itself.
  { operationId: 'getOpenApi', response: { status: 200, abridged: ['paths', 'webhooks', 'components'] } },
  { operationId: 'getDocs', response: { status: 200 } },
  { operationId: 'getDocsAsset', request: { params: { file: 'docs.js' } }, response: { status: 200 } },
  { operationId: 'getConsole', response: { status: 200 } },
  { operationId: 'getConsoleFile', request: { params: { file: 'main.css' } }, response: { status: 200 } },
];
