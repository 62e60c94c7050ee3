import type * as z from 'zod';
import type { Tier } from '../domain/tiers';
import type { UserRole } from '../domain/identity/roles';


/** One Lambda per group in AWS; the local gateway loads the same handler modules. */
export type FunctionGroup = 'library' | 'assessments' | 'assets' | 'hazards' | 'grants' | 'compliance' | 'account' | 'docs' | 'v1-identity' | 'v1-risk' | 'v1-training';
export const FUNCTION_GROUPS: readonly FunctionGroup[] = [
  'library', 'assessments', 'assets', 'hazards', 'grants', 'compliance', 'account', 'docs', 'v1-identity', 'v1-risk', 'v1-training',
];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A response's schema, given by the function that builds it on first use (`onFirstUse`): only the
 * OpenAPI generator and the tests read response schemas, so no function builds one at its cold start.
 */
export type ResponseSchema = () => z.ZodType;

export interface ResponseDef {
  description: string;
  schema?: ResponseSchema;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;
}

/**
 * A request part's schema, given by the function that builds it on first use (`onFirstUse`): a
 * function builds the schemas of the routes it is asked for, not of all its routes at its cold start.
 */
export type RequestSchema<T extends z.ZodType = z.ZodType> = () => T;

export interface RequestDef {
  params?: RequestSchema<z.ZodObject>;
  query?: RequestSchema<z.ZodObject>;
  headers?: RequestSchema<z.ZodObject>;
  body?: RequestSchema;
  /** `application/json` (default) or `multipart/form-data` (then `form` says what the parts are). */
  bodyContentType?: 'application/json' | 'multipart/form-data';
  /**
   * A multipart body's parts, parsed and validated by the pipeline as a JSON body is: the text
   * fields against `fields` (a strict object), the file part named `file` required, the
   * `optionalFiles` allowed. `body` stays the form's whole description for the OpenAPI document.
   */
  form?: { fields: RequestSchema<z.ZodObject>; file: string; optionalFiles?: readonly string[] };
  /** Bytes; above this the request is answered 413 `payload_too_large`. */
  maxBodyBytes?: number;
  /** Added to that 413's detail: where a larger body can go instead. */
  tooLargeHint?: string;
}

export interface RouteDef {
  /** Stable operationId, also the key of the implementation in the group's handler. */
  id: string;
  method: HttpMethod;
  /** Path below the stage, API Gateway style: `/resources/{id}`. */
  path: string;
  group: FunctionGroup;
  /** `bearer`: a Cognito access token (the /v1 routes); see shared/http/bearer.ts. */
  auth: 'api_key' | 'bearer' | 'none';
  minTier: Tier;
  /** `false`: not counted against the hourly quota and answered even when it is spent (usage). */
  metered?: false;
  /**
   * The pipeline runs the route under its `Idempotency-Key` (shared/http/idempotency.ts): keys are
   * the account's (`account`) or, on bearer routes, the user's own (`user`).
   */
  idempotency?: 'account' | 'user';
  /** Conditional update: the pipeline answers 428 `precondition_required` when `If-Match` is missing. */
  requiresIfMatch?: true;
  /** Bearer routes only these roles may use; others answer 403 `insufficient_scope` (see shared/http/bearer.ts). */
  roles?: readonly UserRole[];
  summary: string;
  description?: string;
  tags: string[];
  /** Row of the contract table this route implements (L, 1…22, E, –). */
  contractRow?: string;
  /** The handler may run longer than API Gateway's 29 s: it must hand off to a job instead. */
  request?: RequestDef;
  responses: Record<number, ResponseDef>;
}

export function defineRoute<const R extends RouteDef>(route: R): R {
  return route;
}

// `any` stays `any` (a group's implementations are typed `RouteImplementation<any>`, see pipeline.ts).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type InferOr<T, Fallback> = 0 extends 1 & T ? any : T extends () => infer S ? (S extends z.ZodType ? z.infer<S> : Fallback) : Fallback;
type Req<R extends RouteDef> = NonNullable<R['request']>;

export type ParamsOf<R extends RouteDef> = InferOr<Req<R>['params'], Record<string, never>>;
export type QueryOf<R extends RouteDef> = InferOr<Req<R>['query'], Record<string, never>>;
export type BodyOf<R extends RouteDef> = InferOr<Req<R>['body'], undefined>;
