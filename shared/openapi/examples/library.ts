import type { OperationExample } from './types';

/** The resource library. */
export const libraryExamples: OperationExample[] = [
  {
    operationId: 'queryResources',
    request: { query: { action: 'search', q: 'sea level rise technical report', limit: '2' } },
    response: { status: 200 },
  },
  {
    operationId: 'getResource',
    request: { params: { id: 'noaa-2022-slr-scenarios-technical-report' } },
    response: { status: 200 },
  },
  {
    operationId: 'downloadResource',
    request: { params: { id: 'noaa-2022-slr-scenarios-technical-report' } },
    response: { status: 302, headers: ['Location'] },
  },
];
