/**
 * Worked examples of the operations, one per operationId: the requests are written here, the
 * answers are recorded by sending them to the API (`npm run examples:record`). The OpenAPI
 * generator attaches both to the document, and an end-to-end test sends each request again and
 * requires the recorded answer, so an example cannot drift from what the API answers.
 */

/**
 * The day the examples were recorded. A request value equal to it is sent as today's date (in
 * Florida) by the end-to-end test, so a date that must not be in the future or before a record
 * made during the run (DEP's `received_on`) stays valid on any day.
 */
export const EXAMPLE_TODAY = '2026-11-23';

/** A file part of a multipart request. */
export interface ExampleFile {
  filename: string;
  contentType: string;
  content: string;
}

export interface OperationExample {
  operationId: string;
  /**
   * A step that brings a record to the state the next example needs (an assessment to
   * `complete` before it is submitted): sent by the test, not shown in the document.
   */
  setup?: true;
  /** The tier of the demo key that sends it (default: the route's minimum tier). */
  tier?: 'free' | 'pro' | 'enterprise';
  request?: {
    params?: Record<string, string>;
    query?: Record<string, string>;
    headers?: Record<string, string>;
    /** A JSON body. */
    body?: unknown;
    /** A multipart/form-data body: text fields and file parts. */
    form?: Record<string, string | ExampleFile>;
  };
  /**
   * What the example expects; the answer itself is recorded from the running API into
   * `recorded.json` (`npm run examples:record`) and shown in the document from there.
   */
  response: {
    status: number;
    /** The response headers the document shows (their recorded values). */
    headers?: string[];
    /** Top-level fields of an answer too large to show, recorded as `{}` (the document describing itself). */
    abridged?: string[];
  };
}
