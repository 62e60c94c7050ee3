import { recordedAnswerOf, type OperationExample } from './examples';

type Json = Record<string, any>;

/**
 * Writes each operation's example into the generated document: parameter values, the request body
 * (a multipart form shows each file part's text) and the answer recorded from the API, with its
 * status and documented headers.
 */
export function attachExamples(paths: Json, examples: Map<string, OperationExample>): void {
  for (const item of Object.values<Json>(paths)) {
    for (const operation of Object.values<Json>(item)) {
      const example = examples.get(operation.operationId);
      if (example) attachToOperation(operation, example);
    }
  }
}

function attachToOperation(operation: Json, example: OperationExample): void {
  const request = example.request ?? {};
  const values: Record<string, Record<string, string> | undefined> = { path: request.params, query: request.query, header: request.headers };
  for (const parameter of operation.parameters ?? []) {
    const value = values[parameter.in]?.[parameter.name];
    if (value !== undefined) parameter.example = typed(value, parameter.schema);
  }
  const requestValue = request.form
    ? Object.fromEntries(Object.entries(request.form).map(([name, part]) => [name, typeof part === 'string' ? part : part.content]))
    : request.body;
  for (const media of Object.values<Json>(operation.requestBody?.content ?? {})) {
    if (requestValue !== undefined) media.example = requestValue;
  }
  // Without a recording (before the first `npm run examples:record`) the document shows no answer.
  const recorded = recordedAnswerOf(example);
  if (!recorded) return;
  const response = operation.responses?.[String(recorded.status)];
  if (!response || response.$ref) return;
  for (const media of Object.values<Json>(response.content ?? {})) {
    if (recorded.body !== undefined) media.example = recorded.body;
  }
  for (const [name, value] of Object.entries(recorded.headers ?? {})) {
    const header = response.headers?.[name];
    // A copy: operations share their header definitions, and each shows its own value.
    if (header && !header.$ref) response.headers[name] = { ...header, example: value };
  }
}

/** Query and path values travel as text; the document shows them in their schema's type. */
function typed(value: string, schema: Json | undefined): unknown {
  const type = [schema?.type].flat();
  if ((type.includes('integer') || type.includes('number')) && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (type.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  // Lists travel comma-separated (`time_horizon=2040,2070`).
  if (type.includes('array')) return value.split(',').map((item) => typed(item, schema?.items));
  return value;
}
