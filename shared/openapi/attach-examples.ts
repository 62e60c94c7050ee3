import type { OperationExample } from './examples';

type Json = Record<string, any>;

/**
 * Writes each operation's example into the generated document: parameter values, the request body
 * (a multipart form shows each file part's text) and the answer with its status.
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
    if (value !== undefined) parameter.example = value;
  }
  const requestValue = request.form
    ? Object.fromEntries(Object.entries(request.form).map(([name, part]) => [name, typeof part === 'string' ? part : part.content]))
    : request.body;
  for (const media of Object.values<Json>(operation.requestBody?.content ?? {})) {
    if (requestValue !== undefined) media.example = requestValue;
  }
  const response = operation.responses?.[String(example.response.status)];
  if (!response || response.$ref) return;
  for (const media of Object.values<Json>(response.content ?? {})) {
    if (example.response.body !== undefined) media.example = example.response.body;
  }
  for (const [name, value] of Object.entries(example.response.headers ?? {})) {
    const header = response.headers?.[name];
    if (header && !header.$ref) header.example = value;
  }
}
