/**
 * Worked examples of the operations, one per operationId. The OpenAPI generator attaches them to
 * the document, and an end-to-end test sends each request to the running API in the order given
 * and checks that the answer has the example's status and shape (ids and times may differ), so an
 * example that no longer matches the API fails the build.
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
  response: {
    status: number;
    /**
     * The answer, shortened: lists keep one or two items. In the shape check `null` stands for
     * "null or a value" (fields that fill in as a record progresses); every other value must
     * match in type, and objects in their keys.
     */
    body?: unknown;
    headers?: Record<string, string>;
  };
}
